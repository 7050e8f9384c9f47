// The replay viewer (/replay): a finished game step by step, from a seat's point of view or the
// spectator's. The game comes from the list of finished games (GET /api/tables?status=...,
// then GET /api/tables/{id}/replay) or from a record file the person opens (POST /api/replay);
// both answer the replay document of docs/protocol.md ("Replays"): one display model per step.
// The table is drawn by render.js, read-only (no onAction). The address keeps the table, the
// game, the seat and the step (/replay?table=3&game=1&seat=0&step=12), so it can be shared.

import { $, el, fillTexts, notice, startPage } from "./dom.js";
import { currentLanguage, loadStrings, t } from "./i18n.js";
import { api, gameTitles } from "./lobby-api.js";
import { renderLog, renderTable } from "./render.js";
import { ReviewPanel } from "./review.js";

const viewer = {
  source: null, // {kind: "table", table, game} | {kind: "file", text, name}
  seat: "spectator", // a seat number, or "spectator"
  replay: null, // the replay document
  step: 0,
  games: {},
  loading: 0, // the number of the latest request (an older answer is dropped)
  timer: null, // the interval of playing, while it plays
  review: null, // the post-game review's panel (review.js)
  reviewed: null, // the game the review panel shows ("table:game", or the file source itself)
  autoReview: false, // the address asked for the review (?review=1): it starts at once
};

/** The page's texts: the [data-t] elements, the step buttons' labels, the title. */
function fillLabels() {
  fillTexts();
  const labels = {
    "cf-first": "web.replay.start",
    "cf-back": "web.replay.back",
    "cf-forward": "web.replay.forward",
    "cf-last": "web.replay.end",
    "cf-slider": "web.replay.slider",
  };
  for (const [id, key] of Object.entries(labels)) {
    $(id).setAttribute("aria-label", t(key));
    $(id).title = t(key);
  }
  document.title = `Campfire · ${t("web.replay.title")}`;
  drawPlay();
}

// ----- choosing a game ----------------------------------------------------------------------

/** The finished games of every table, newest first: [{table, game, label}]. */
async function finishedGames() {
  const answer = await api("/api/tables?status=finished,running");
  if (!answer.ok) {
    notice(t("web.error.network", { message: answer.message }), "error");
    return [];
  }
  const out = [];
  for (const table of answer.body.tables.slice().reverse()) {
    const last = table.status === "finished" ? table.game_number : table.game_number - 1;
    const title = (viewer.games[table.game] || { title: table.game }).title;
    for (let n = last; n >= 1; n--) {
      out.push({ table: table.id, game: n, label: t("web.replay.game", { id: table.id, number: n, game: title }) });
    }
  }
  return out;
}

async function drawGameList() {
  const select = $("cf-replay-game");
  const games = await finishedGames();
  const chosen = viewer.source && viewer.source.kind === "table" ? `${viewer.source.table}:${viewer.source.game}` : "";
  select.replaceChildren(new Option(games.length ? t("web.replay.choose") : t("web.replay.games.none"), ""));
  for (const g of games) select.append(new Option(g.label, `${g.table}:${g.game}`, false, chosen === `${g.table}:${g.game}`));
  if (chosen && select.value !== chosen) {
    // a game not (or no longer) in the list: still show it as chosen
    const [table, game] = chosen.split(":");
    select.append(new Option(t("web.replay.game", { id: table, number: game, game: "" }).replace(/[:\s]+$/, ""), chosen, true, true));
  }
}

function drawSeats() {
  const select = $("cf-replay-seat");
  const replay = viewer.replay;
  select.replaceChildren(new Option(t("web.replay.spectator"), "spectator"));
  if (!replay) {
    select.disabled = true;
    return;
  }
  replay.names.forEach((name, seat) => {
    select.append(new Option(`${t("web.lobby.seat", { number: seat + 1 })}: ${name}`, String(seat)));
  });
  select.value = String(viewer.seat);
  select.disabled = false;
}

// ----- loading --------------------------------------------------------------------------------

function remember() {
  const params = new URLSearchParams();
  const source = viewer.source;
  if (source && source.kind === "table") {
    params.set("table", source.table);
    params.set("game", source.game);
  }
  params.set("seat", viewer.seat);
  if (viewer.replay) params.set("step", viewer.step);
  history.replaceState(null, "", `${location.pathname}?${params}`);
}

async function load() {
  pause(); // another game, seat or language: playing stops
  const source = viewer.source;
  if (!source) return;
  const number = ++viewer.loading;
  const query = `seat=${encodeURIComponent(viewer.seat)}&lang=${encodeURIComponent(currentLanguage())}`;
  let answer;
  notice(t("web.loading"));
  try {
    answer =
      source.kind === "table"
        ? await fetch(`/api/tables/${source.table}/replay?game=${source.game}&${query}`)
        : await fetch(`/api/replay?${query}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: source.text });
  } catch (exc) {
    if (number === viewer.loading) notice(t("web.error.network", { message: String(exc) }), "error");
    return;
  }
  let body = null;
  try {
    body = await answer.json();
  } catch (_) {
    body = null;
  }
  if (number !== viewer.loading) return; // a newer request is on its way
  if (!answer.ok || !body || !body.frames) {
    const message = body && body.error ? body.error.message : answer.statusText;
    notice(t("web.error.server", { message }), "error");
    return;
  }
  notice("");
  const last = body.frames.length - 1;
  viewer.replay = body;
  viewer.step = Math.max(0, Math.min(viewer.step, last)); // a new seat: the same step
  $("cf-log").replaceChildren();
  $("cf-title").textContent = `· ${body.title}: ${body.names.join(", ")}`;
  drawSeats();
  const slider = $("cf-slider");
  slider.max = String(last);
  slider.disabled = false;
  document.body.dataset.steps = String(last);
  show(viewer.step);
  const key = source.kind === "table" ? `${source.table}:${source.game}` : source; // a file: this one
  if (viewer.review && viewer.reviewed !== key) {
    viewer.reviewed = key;
    viewer.review.show(source.kind === "table" ? { table: source.table, game: source.game } : { file: source.text }, viewer.autoReview);
    viewer.autoReview = false;
  }
}

// ----- stepping -------------------------------------------------------------------------------

function show(step) {
  const replay = viewer.replay;
  if (!replay) return;
  const last = replay.frames.length - 1;
  viewer.step = Math.max(0, Math.min(step, last));
  const frame = replay.frames[viewer.step];
  renderTable($("cf-board"), frame.display, {
    lang: currentLanguage(),
    outcome: viewer.step === last ? replay.outcome : null,
    names: replay.names,
    shown: privateCards(replay, frame),
    changed: frame.step && frame.step.display ? frame.step.display.changed : [],
    // the step's changes in the colour of the seat that made it (docs/web.md, "The last move")
    lastBy: frame.step && frame.step.display
      ? Object.fromEntries(frame.step.display.changed.map((id) => [id, frame.step.seat ?? -1]))
      : {},
  });
  const messages = [];
  for (let k = 1; k <= viewer.step; k++) messages.push(...replay.frames[k].step.messages);
  const list = renderLog($("cf-log"), messages);
  const now = frame.step ? frame.step.messages.length : 0;
  [...list.children].forEach((item, i) => item.classList.toggle("cf-now", i >= messages.length - now));
  drawMoves(frame.display);
  $("cf-step-count").textContent = t("web.replay.step", { step: viewer.step, total: last });
  $("cf-step-who").textContent = frame.step
    ? t("web.replay.by", { name: replay.names[frame.step.seat] ?? String(frame.step.seat + 1) })
    : t("web.replay.setup");
  $("cf-slider").value = String(viewer.step);
  $("cf-slider").setAttribute("aria-valuetext", $("cf-step-count").textContent);
  $("cf-first").disabled = $("cf-back").disabled = viewer.step === 0;
  $("cf-last").disabled = $("cf-forward").disabled = viewer.step === last;
  $("cf-play").disabled = last === 0;
  document.body.dataset.step = String(viewer.step);
  remember();
}

// ----- playing: a step every PACE_MS until the end or a pause -----------------------------------

const PACE_MS = 1500; // time to read a step's log lines and see what it changed

/** The play button's text and name: "Play" while paused, "Pause" while playing. */
function drawPlay() {
  const button = $("cf-play");
  const playing = viewer.timer !== null;
  button.replaceChildren(
    el("span", { "aria-hidden": "true" }, playing ? "❚❚" : "▶▶"),
    " ",
    t(playing ? "web.replay.pause" : "web.replay.play"),
  );
  button.title = t("web.replay.play.help");
  button.classList.toggle("cf-primary", playing);
  document.body.dataset.playing = String(playing);
}

/** Start playing from this step (from the start when at the end), or pause. */
function togglePlay() {
  if (viewer.timer !== null) return pause();
  const replay = viewer.replay;
  if (!replay) return;
  if (viewer.step >= replay.frames.length - 1) show(0);
  viewer.timer = setInterval(() => {
    const end = viewer.replay ? viewer.replay.frames.length - 1 : 0;
    show(viewer.step + 1);
    if (viewer.step >= end) pause();
  }, PACE_MS);
  drawPlay();
}

/** Stop playing (a step chosen by hand, another game or seat, the end reached). */
function pause() {
  if (viewer.timer === null) return;
  clearInterval(viewer.timer);
  viewer.timer = null;
  drawPlay();
}

/** A step chosen by hand: playing pauses first. */
function showByHand(step) {
  pause();
  show(step);
}

/** The moves the seat could choose from at this step (read-only: what a learner looks at). */
function drawMoves(display) {
  const actions = display.actions || [];
  const list = $("cf-moves-list");
  list.replaceChildren(...actions.map((a) => el("li", { "data-notation": a.notation }, a.label)));
  $("cf-replay-moves").hidden = actions.length === 0;
}

/** The cards this step showed the seat alone (its display's reveals), face up for this step. */
function privateCards(replay, frame) {
  const shown = {};
  if (replay.seat === null || !frame.step || !frame.step.display) return shown;
  for (const reveal of frame.step.display.reveals || []) {
    if (reveal.seat === replay.seat) shown[reveal.card.id] = reveal.card;
  }
  return shown;
}

function onKey(event) {
  if (!viewer.replay || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  const typing = target instanceof HTMLElement && target.matches("select, textarea, input:not([type=range])");
  if (typing) return;
  if (event.key === "p" || event.key === "P") {
    event.preventDefault();
    togglePlay();
    return;
  }
  const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity };
  if (!(event.key in moves)) return;
  if (target === $("cf-slider")) return; // the slider steps by itself (and fires "input")
  event.preventDefault();
  const delta = moves[event.key];
  showByHand(Number.isFinite(delta) ? viewer.step + delta : delta > 0 ? Infinity : 0);
}

// ----- start ----------------------------------------------------------------------------------

async function main() {
  // The controls listen from the first moment: what a person chooses while the page is still
  // setting up (a record file picked at once) waits for the set-up to finish; it is not lost.
  let setUp;
  const ready = new Promise((resolve) => {
    setUp = resolve;
  });
  $("cf-replay-game").addEventListener("change", async (event) => {
    const value = event.target.value;
    if (!value) return;
    await ready;
    const [tableId, game] = value.split(":").map(Number);
    viewer.source = { kind: "table", table: tableId, game };
    viewer.replay = null;
    viewer.step = 0;
    $("cf-replay-file").value = "";
    load();
  });
  $("cf-replay-file").addEventListener("change", async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const text = await file.text();
    await ready;
    viewer.source = { kind: "file", text, name: file.name };
    viewer.replay = null;
    viewer.step = 0;
    viewer.seat = "spectator";
    $("cf-replay-game").value = "";
    load();
  });
  $("cf-replay-seat").addEventListener("change", (event) => {
    const value = event.target.value;
    viewer.seat = value === "spectator" ? "spectator" : Number(value);
    load(); // the same step, seen from the other seat
  });
  $("cf-first").addEventListener("click", () => showByHand(0));
  $("cf-back").addEventListener("click", () => showByHand(viewer.step - 1));
  $("cf-play").addEventListener("click", togglePlay);
  $("cf-forward").addEventListener("click", () => showByHand(viewer.step + 1));
  $("cf-last").addEventListener("click", () => showByHand(Infinity));
  $("cf-slider").addEventListener("input", (event) => showByHand(Number(event.target.value)));
  document.addEventListener("keydown", onKey);

  await startPage(async (code) => {
    await loadStrings(code); // the switcher remembered the choice; the replay stays open
    fillLabels();
    viewer.reviewed = null; // the review's words again, in the new language
    viewer.review.fill();
    await drawGameList();
    drawSeats();
    await load();
  });
  fillLabels();
  viewer.review = new ReviewPanel(document.querySelector(".cf-side"), { go: (step) => showByHand(step) });
  viewer.games = await gameTitles();
  const params = new URLSearchParams(location.search);
  const seat = params.get("seat");
  viewer.seat = seat && /^\d+$/.test(seat) ? Number(seat) : "spectator";
  viewer.step = Number(params.get("step")) || 0;
  viewer.autoReview = params.get("review") === "1";
  const table = params.get("table");
  if (table && /^\d+$/.test(table)) {
    const game = params.get("game");
    viewer.source = { kind: "table", table: Number(table), game: game && /^\d+$/.test(game) ? Number(game) : 1 };
  }
  await drawGameList();
  drawSeats();
  setUp();
  // the address's game (a choice made meanwhile loads after it, and its answer wins)
  if (viewer.source) await load();
}

main();
