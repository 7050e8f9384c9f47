// The lobby page (/): the list of open and running tables to join, open or watch (first), and
// the form to create a table (game, players, options in words with their help texts, seats,
// clock, real time), and "Play now" (a quick match: /play waits for the other players).

import { $, el, notice, startPage } from "./dom.js";
import { botName, chosenLanguage, plural, t } from "./i18n.js";
import { accountState, api, choiceLabel, choicesFor, gameTitles, guestSeats, optionLabel, optionLines, seatFor, storeSeat } from "./lobby-api.js";

let games = {};
let modes = {};

const SEAT_KINDS = ["friend", "open", "easy", "medium", "hard"];
const CLOCKS = [
  { key: "none", clock: null },
  { key: "move", clock: { kind: "move", seconds: 60, on_timeout: "random" }, params: { seconds: 60 } },
  { key: "move", clock: { kind: "move", seconds: 20, on_timeout: "random" }, params: { seconds: 20 } },
  { key: "game", clock: { kind: "game", seconds: 300, increment: 5, on_timeout: "bot" }, params: { minutes: 5, increment: 5 } },
  { key: "game", clock: { kind: "game", seconds: 600, increment: 10, on_timeout: "bot" }, params: { minutes: 10, increment: 10 } },
  { key: "turn", clock: { kind: "turn" } }, // the time and the rule: the turn-based row
];
/** How often the header asks which turn-based tables wait for this player (ms). */
const TURNS_EVERY = 30000;

/** The clock of the form: a turn-based one from its row (time, unit, rule). */
function chosenClock() {
  const clock = CLOCKS[Number($("cf-clock").value) || 0].clock;
  if (!clock || clock.kind !== "turn") return clock;
  const seconds = Math.round(Number($("cf-turn-amount").value) * Number($("cf-turn-unit").value));
  return { kind: "turn", seconds, on_timeout: $("cf-turn-rule").value };
}

function drawTurnRow() {
  const turn = CLOCKS[Number($("cf-clock").value) || 0].key === "turn";
  $("cf-turn-row").hidden = !turn;
  $("cf-turn-amount").max = $("cf-turn-unit").value === "3600" ? "336" : "14";
}

function game() {
  return games[$("cf-game").value];
}

function drawPlayers() {
  const g = game();
  const select = $("cf-players");
  const keep = Number(select.value) || g.min_players;
  select.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) {
    select.append(new Option(plural("web.players.count", n), String(n), false, n === Math.min(Math.max(keep, g.min_players), g.max_players)));
  }
}

/** Fill an option's list with the choices a table of ``players`` can take, in words. */
function fillChoices(select, option, players) {
  const keep = select.value;
  select.replaceChildren();
  for (const choice of choicesFor(option, players)) {
    select.append(new Option(choiceLabel(option, choice), String(choice), false, choice === option.default));
  }
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

function drawOptions() {
  const g = game();
  const box = $("cf-options");
  box.replaceChildren();
  const players = Number($("cf-players").value) || g.min_players;
  for (const option of g.options) {
    const id = `cf-opt-${option.name}`;
    let input;
    if (typeof option.default === "boolean") {
      input = el("input", { type: "checkbox", id, "data-option": option.name, "data-kind": "bool" });
      input.checked = option.default;
    } else if (option.choices) {
      input = el("select", { id, "data-option": option.name, "data-kind": typeof option.default });
      fillChoices(input, option, players);
    } else {
      input = el("input", { id, "data-option": option.name, "data-kind": typeof option.default, value: String(option.default) });
    }
    const help = el("span", { class: "cf-help", id: `${id}-help` }, option.help || "");
    input.setAttribute("aria-describedby", `${id}-help`);
    const label = el("label", { for: id }, optionLabel(option));
    const row = typeof option.default === "boolean" ? [input, " ", label] : [label, " ", input];
    box.append(el("div", { class: `cf-option cf-option-${input.dataset.kind}` }, ...row, " ", help));
  }
  const realtime = (modes[g.name] || []).includes("realtime-claims");
  $("cf-realtime-row").hidden = !realtime;
  $("cf-realtime").checked = realtime;
}

function drawSeats() {
  const n = Number($("cf-players").value);
  const box = $("cf-seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  box.append(el("li", {}, `${t("web.lobby.seat", { number: 1 })}: ${t("web.lobby.seat.you")}`));
  for (let seat = 1; seat < n; seat++) {
    const id = `cf-seat-${seat}`;
    const select = el("select", { id, "data-seat": seat });
    for (const kind of SEAT_KINDS) select.append(new Option(t(`web.lobby.seat.${kind}`), kind));
    select.value = old[seat - 1] || (seat === 1 ? "open" : "easy");
    const name = el("input", {
      id: `${id}-name`,
      maxlength: 32,
      "aria-label": t("web.lobby.friend.name", { number: seat + 1 }),
      placeholder: t("web.lobby.friend.default", { number: seat + 1 }),
    });
    const sync = () => (name.hidden = select.value !== "friend");
    select.addEventListener("change", sync);
    select.addEventListener("change", drawRealtime);
    sync();
    box.append(el("li", {}, el("label", { for: id }, `${t("web.lobby.seat", { number: seat + 1 })} `), select, " ", name));
  }
  drawRealtime();
  // a seat option (a start player) offers only this table's seats
  const g = game();
  for (const option of g.options.filter((o) => o.seat && o.choices)) {
    const select = $(`cf-opt-${option.name}`);
    if (select) fillChoices(select, option, n);
  }
}

function drawRealtime() {
  // the server times the claims at every table of two or more people, whatever the request
  // says (docs/protocol.md): while another seat is a person's the box is ticked and fixed
  const people = [...$("cf-seats").querySelectorAll("select")].some((s) => s.value === "friend" || s.value === "open");
  const box = $("cf-realtime");
  if (people) box.checked = true;
  box.disabled = people;
  $("cf-realtime-people").hidden = !people;
  drawUndo();
}

/** The undo box: on at a casual table of people (no clock, not in real time) unless changed;
 * never in real time (docs/protocol.md "Undo"). */
function drawUndo() {
  const box = $("cf-undo");
  const realtime = !$("cf-realtime-row").hidden && $("cf-realtime").checked;
  const people = [...$("cf-seats").querySelectorAll("select")].some((s) => s.value === "friend" || s.value === "open");
  const casual = people && chosenClock() === null;
  box.disabled = realtime;
  if (realtime) box.checked = false;
  else if (!box.dataset.touched) box.checked = casual;
  const hints = $("cf-hints"); // off unless asked for; never in real time (docs/learn.md)
  const rated = $("cf-rated").checked; // a rated table: no hints, no undo (docs/accounts.md)
  hints.disabled = realtime || rated;
  if (realtime || rated) hints.checked = false;
  if (rated) {
    box.disabled = true;
    box.checked = false;
  }
}

function optionValues() {
  const g = game();
  const out = {};
  for (const input of $("cf-options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const info = g.options.find((o) => o.name === name);
    let value;
    if (input.dataset.kind === "bool") value = input.checked;
    else if (input.dataset.kind === "number") value = Number(input.value);
    else value = input.value;
    if (value !== info.default) out[name] = value;
  }
  return out;
}

async function create(event) {
  event.preventDefault();
  const nickname = $("cf-nickname").value.trim() || t("web.lobby.nickname.default");
  localStorage.setItem("campfire.nickname", nickname);
  const players = Number($("cf-players").value);
  const seats = [{ kind: "reserved", nickname }];
  const friends = [];
  for (let seat = 1; seat < players; seat++) {
    const kind = $(`cf-seat-${seat}`).value;
    if (kind === "open") seats.push({ kind: "open" });
    else if (kind === "friend") {
      const typed = $(`cf-seat-${seat}-name`).value.trim();
      const name = typed || t("web.lobby.friend.default", { number: seat + 1 });
      seats.push({ kind: "reserved", nickname: name });
      friends.push({ seat, nickname: name });
    } else seats.push({ kind: "bot", level: kind });
  }
  const body = { game: game().name, players, options: optionValues(), seats };
  const clock = chosenClock();
  if (clock) body.clock = clock;
  if (!$("cf-realtime-row").hidden && $("cf-realtime").checked) body.realtime = true;
  if (!$("cf-undo").disabled) body.undo = $("cf-undo").checked;
  if (!$("cf-hints").disabled && $("cf-hints").checked) body.hints = true;
  if (!$("cf-rated-row").hidden && $("cf-rated").checked) {
    body.rated = true;
    delete body.undo;
  }
  const answer = await api("/api/tables", body);
  if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  const id = answer.body.table.id;
  const tokens = answer.body.tokens;
  storeSeat(id, {
    seat: 0,
    token: tokens["0"],
    invites: friends.map((f) => ({ ...f, token: tokens[String(f.seat)] })),
  });
  location.href = `/t/${id}`;
}

async function drawTables() {
  const answer = await api("/api/tables?status=open,running");
  const box = $("cf-tables");
  if (!answer.ok) return notice(t("web.error.network", { message: answer.message }), "error");
  const tables = answer.body.tables;
  const seen = JSON.stringify(tables);
  if (seen === drawTables.last) return; // unchanged: leave the list (and the focus) alone
  drawTables.last = seen;
  box.replaceChildren();
  if (!tables.length) {
    box.append(el("li", { class: "cf-help" }, t("web.lobby.tables.none")));
    return;
  }
  for (const table of tables.slice().reverse()) {
    const g = games[table.game] || { title: table.game };
    const who = table.seats
      .map((s) => (s.kind === "open" ? t("web.lobby.free") : s.kind === "bot" ? botName(s.seat + 1, s.level) : s.nickname))
      .join(", ");
    const mine = seatFor(table.id);
    const free = table.seats.some((s) => s.kind === "open");
    const label = mine ? "web.lobby.open" : table.status === "open" && free ? "web.lobby.join" : "web.lobby.watch";
    const lines = optionLines(g, table.options);
    const options = lines.length
      ? el("span", { class: "cf-table-options cf-help" }, t("web.lobby.table.options", { options: lines.map((l) => l.text).join(" · ") }))
      : null;
    box.append(
      el(
        "li",
        { class: `cf-table-item cf-status-${table.status}`, "data-table": table.id },
        el("span", { class: "cf-table-text" }, el("strong", {}, t("web.lobby.table", { id: table.id, game: g.title })), ` — ${t(`web.lobby.status.${table.status}`)}${table.rated ? ` · ${t("web.games.rated")}` : ""} — ${who}`, options),
        el("a", { class: "cf-button", href: `/t/${table.id}`, "aria-label": `${t(label)}: ${t("web.lobby.table", { id: table.id, game: g.title })}` }, t(label)),
      ),
    );
  }
}

/**
 * The header's "your turn" badge: the turn-based tables waiting for this player's move
 * (POST /api/turns: a signed-in user's seats, and the seat tokens this browser keeps), each a
 * link to its table. Asked again every 30 s while the page is shown, and when it is shown again.
 */
async function drawTurns() {
  if (document.hidden) return;
  const answer = await api("/api/turns", { seats: guestSeats() });
  if (!answer.ok) return;
  const turns = answer.body.turns;
  const box = $("cf-turns");
  box.hidden = !turns.length;
  const seen = JSON.stringify(turns) + chosenLanguage();
  if (seen === drawTurns.last) return;
  drawTurns.last = seen;
  $("cf-turns-badge").textContent = plural("web.turns.badge", turns.length);
  const when = new Intl.DateTimeFormat(chosenLanguage(), { dateStyle: "medium", timeStyle: "short" });
  $("cf-turns-list").replaceChildren(
    ...turns.map((turn) => {
      const g = games[turn.game] || { title: turn.game };
      const text = t("web.turns.item", { id: turn.table, game: g.title, deadline: when.format(new Date(turn.deadline)) });
      return el("li", {}, el("a", { href: `/t/${turn.table}`, "data-table": turn.table }, text));
    }),
  );
}

/** The header's account link: the offer to sign in, or who is signed in (docs/accounts.md). */
async function drawAccount() {
  const answer = await accountState();
  if (!answer.ok || !answer.body.user) return; // a guest: the offer to sign in stays
  const link = $("cf-account-link");
  link.textContent = t("web.account.as", { name: answer.body.user.name });
  if (!$("cf-nickname").value) $("cf-nickname").value = answer.body.user.name; // a first table's name
  link.setAttribute("aria-label", `${t("web.account.as", { name: answer.body.user.name })}: ${t("web.account.mine")}`);
  $("cf-games-link").hidden = false;
  $("cf-profile-link").hidden = false;
  $("cf-profile-link").href = `/player/${encodeURIComponent(answer.body.user.name)}`;
  $("cf-rated-row").hidden = false; // rated tables are for signed-in players
}

const WAITS = [10, 30, 60, 120, 300];
const LEVELS = ["easy", "medium", "hard"];

/** The "Play now" form: a game, its player counts, the wait and the bots' level. */
function drawQuick() {
  const select = $("cf-quick-game");
  for (const info of Object.values(games)) select.append(new Option(info.title, info.name));
  const counts = () => {
    const g = games[select.value];
    const players = $("cf-quick-players");
    players.replaceChildren();
    for (let n = g.min_players; n <= g.max_players; n++) players.append(new Option(plural("web.players.count", n), String(n)));
  };
  select.addEventListener("change", counts);
  counts();
  for (const seconds of WAITS) {
    const words = seconds < 60 ? t("web.quick.seconds", { seconds }) : plural("web.quick.minutes", seconds / 60);
    $("cf-quick-wait").append(new Option(words, String(seconds), false, seconds === 60));
  }
  for (const level of LEVELS) $("cf-quick-level").append(new Option(t(`web.level.${level}`), level));
}

async function main() {
  await startPage();
  drawAccount();
  const [g, m] = await Promise.all([gameTitles(), api("/api/play-modes")]);
  games = g;
  modes = m.ok ? m.body : {};
  const select = $("cf-game");
  for (const info of Object.values(games)) select.append(new Option(info.title, info.name));
  $("cf-leaderboards-link").href = `/leaderboard/${select.options[0] ? select.options[0].value : ""}`;
  $("cf-nickname").value = localStorage.getItem("campfire.nickname") || "";
  const clock = $("cf-clock");
  CLOCKS.forEach((c, i) => clock.append(new Option(t(`web.lobby.clock.${c.key}`, c.params || {}), String(i))));
  select.addEventListener("change", () => {
    drawPlayers();
    drawOptions();
    drawSeats();
    $("cf-rules").href = `/rules/${game().name}?lang=${chosenLanguage()}`;
  });
  $("cf-players").addEventListener("change", drawSeats);
  clock.addEventListener("change", drawUndo);
  clock.addEventListener("change", drawTurnRow);
  $("cf-turn-unit").addEventListener("change", drawTurnRow);
  $("cf-turn-unit").setAttribute("aria-label", t("web.lobby.turn.unit"));
  $("cf-realtime").addEventListener("change", drawUndo);
  $("cf-undo").addEventListener("change", () => ($("cf-undo").dataset.touched = "1"));
  $("cf-rated").addEventListener("change", drawUndo);
  $("cf-create").addEventListener("submit", create);
  $("cf-refresh").addEventListener("click", drawTables);
  drawQuick();
  drawPlayers();
  drawOptions();
  drawSeats();
  $("cf-rules").href = `/rules/${game().name}?lang=${chosenLanguage()}`;
  drawTurnRow();
  await drawTables();
  setInterval(drawTables, 5000);
  await drawTurns();
  setInterval(drawTurns, TURNS_EVERY);
  document.addEventListener("visibilitychange", drawTurns);
}

main();
