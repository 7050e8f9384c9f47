// The table page (/t/<id>): the waiting room before the game, the game drawn from the display
// model while it runs, the summary at the end. Seat tokens are kept in localStorage per table
// (an invitation link may carry one in its #fragment, which never reaches the server).

import { $, el, notice as showNotice, startPage } from "./dom.js";
import { botName, chosenLanguage, t } from "./i18n.js";
import { ChatPanel } from "./chat.js";
import { HintPanel } from "./hints.js";
import { ModeratePanel } from "./moderate.js";
import { UndoPanel } from "./undo.js";
import { api, seatFor, storeSeat, forgetSeat, gameTitles, inviteLink, optionLines } from "./lobby-api.js";
import { HINT_LINE, TableClient } from "./protocol.js";
import { cardSvg } from "./cards.js";
import { choices, headline, renderLog, renderTable, tickClocks } from "./render.js";
import { LastMoves, cardPlaces, slide } from "./motion.js";

const PEEK_MS = 3000; // how long a peeked card stays face up for the peeker
let WINDOW_MS = 2000; // a claim window's length: the longest time its timed answers offer

const tableId = Number(location.pathname.split("/").filter(Boolean).pop());

const page = {
  client: null,
  settings: {},
  info: null, // GET /api/tables/{id}: options, players
  games: {},
  state: null,
  shown: {}, // card id → face shown privately (a step's reveal: a peek), until it expires
  changed: [], // the ids the last frame's steps changed (their displays' ``changed``)
  lastMoves: new LastMoves(), // the last moves highlighted, each seat's in its colour (motion.js)
  moved: null, // the cards the last frame's steps moved ([from, to]): they slide when drawn
  fadeTimer: 0, // the redraw that lets an earlier move's highlight fade
  windowAt: null, // when the last claim window reached us (performance.now())
  inWindow: false, // whether the last frame had several seats to answer
  windowLog: 0, // log length when it opened
  openedAt: null, // when the current decision was shown (timed answers)
  lastKey: "",
  sent: false,
  closed: false, // the operator closed the table (a closed frame): no rematch
  invited: false, // this page was opened with an invitation (#seat=…&token=…)
  badSeat: null, // the text saying the seat's token was refused (shown while watching)
  presenceAt: 0, // when the seats' presence last arrived (performance.now()): away times count on
  startRefused: null, // the server's reason a start waits (open seats, people away): confirm or wait
  lastSeat: null, // the seat that made the last step seen (null: not known, as after a snapshot)
  undo: null, // the panel of requests to take back a move (undo.js)
  hints: null, // the hint button and answer (hints.js)
  rematchAt: 0, // when the open rematch proposal's time left was told (performance.now())
  rematchEnded: null, // why the last rematch proposal ended (its text), shown until the next
};

/** A notice on the table page goes away after a few seconds (the game goes on beneath it). */
const notice = (text, kind = "info") => showNotice(text, kind, 6000);

function myToken() {
  const seat = seatFor(tableId);
  return seat ? seat.token : null;
}

function seatName(seat) {
  if (seat.kind === "bot") return botName(seat.seat + 1, seat.level);
  return seat.nickname || t("web.lobby.free");
}

// ----- presence ---------------------------------------------------------------------------

/** A person's connection as the server measured it, counted on: {state, text} or null. */
function presence(seatNo) {
  const seat = page.state && page.state.seats ? page.state.seats[seatNo] : null;
  const p = seat && seat.presence;
  if (!p) return null; // a bot's or an open seat
  if (p.connected) return { state: "here", text: t("web.presence.here") };
  if (p.away_ms === null || p.away_ms === undefined) return { state: "never", text: t("web.presence.never") };
  const seconds = Math.floor((p.away_ms + performance.now() - page.presenceAt) / 1000);
  return { state: "away", text: awayText(seconds), seconds };
}

function awayText(seconds) {
  if (seconds < 120) return t("web.presence.away", { seconds });
  return t("web.presence.away.min", { minutes: Math.floor(seconds / 60) });
}

/** "Waiting for Cleo (away 40 s)": the seats to act whose person is not connected. */
function drawWaitingFor(state) {
  const box = $("cf-waiting-for");
  const display = state.display;
  const lines = [];
  if (state.status === "running" && display && display.to_act) {
    for (const seatNo of display.to_act) {
      const seat = state.seats[seatNo];
      const p = presence(seatNo);
      if (!seat || seat.takeover || !p || p.state === "here") continue;
      lines.push(t("web.table.waiting_for", { name: seatName(seat), state: p.text }));
    }
  }
  box.hidden = !lines.length;
  const text = lines.join(" · ");
  if (box.textContent !== text) box.textContent = text;
}

/** A seat's presence tag (the waiting room's list, the players' panels). */
function presenceTag(seatNo) {
  const p = presence(seatNo);
  if (!p) return null;
  return el("span", { class: `cf-tag cf-presence cf-presence-${p.state}`, "data-presence": seatNo }, p.text);
}

// ----- the waiting room -------------------------------------------------------------------

function copyRow(url, label, id) {
  const attrs = { readonly: true, value: url, "aria-label": label };
  if (id) attrs.id = id;
  return el(
    "p",
    { class: "cf-invite" },
    el("input", attrs),
    " ",
    el("button", { type: "button", class: "cf-button", onclick: (e) => copy(url, e.target), text: t("web.wait.copy") }),
  );
}

function renderWaiting(state) {
  const box = $("cf-waiting");
  const mine = seatFor(tableId);
  const open = state.seats.filter((s) => s.kind === "open");
  const invites = mine && mine.invites ? mine.invites : [];
  const list = el("ul", { class: "cf-seats" });
  for (const seat of state.seats) {
    const li = el("li", { class: `cf-seat cf-seat-${seat.kind}`, "data-seat": seat.seat }, `${t("web.lobby.seat", { number: seat.seat + 1 })}: `, seatName(seat));
    if (mine && mine.seat === seat.seat) li.append(" ", el("span", { class: "cf-tag" }, t("web.table.you")));
    const tag = presenceTag(seat.seat);
    if (tag) li.append(" ", tag);
    if (seat.kind === "open" && !mine) {
      li.append(
        " ",
        el("button", { type: "button", class: "cf-button", onclick: () => join(seat.seat), text: t("web.wait.take") }),
      );
    }
    list.append(li);
  }
  const parts = [el("h2", {}, t("web.wait.title"))];
  if (mine && page.invited && !page.named) parts.push(nameForm(state, mine));
  parts.push(list);
  if (!mine && open.length) {
    const typed = $("cf-nickname"); // a redraw keeps what is being typed
    const value = typed ? typed.value : localStorage.getItem("campfire.nickname") || "";
    const input = el("input", { id: "cf-nickname", name: "nickname", maxlength: 32, autocomplete: "nickname", value });
    parts.push(el("p", {}, el("label", { for: "cf-nickname" }, t("web.lobby.nickname") + " "), input));
  }
  // the personal links first (each friend's own seat), then the link for anyone (open seats)
  if (invites.length) {
    parts.push(el("h3", {}, t("web.wait.personal")), el("p", { class: "cf-help" }, t("web.wait.personal.help")));
    const links = el("ul", { class: "cf-personal-links" });
    for (const invite of invites) {
      const seat = state.seats[invite.seat];
      const name = seat && seat.nickname ? seat.nickname : invite.nickname;
      const label = t("web.wait.personal.for", { name, number: invite.seat + 1 });
      links.append(el("li", { "data-seat": invite.seat }, el("strong", {}, label), copyRow(inviteLink(tableId, invite), label)));
    }
    parts.push(links);
  }
  if (open.length || !invites.length) {
    const link = `${location.origin}/t/${tableId}`;
    parts.push(
      el("h3", {}, t("web.wait.invite")),
      el("p", { class: "cf-help" }, t(invites.length ? "web.wait.invite.help.open" : "web.wait.invite.help")),
      copyRow(link, t("web.wait.invite"), "cf-invite"),
    );
  }
  if (mine) {
    const actions = el(
      "p",
      { class: "cf-wait-actions" },
      el("button", { type: "button", class: "cf-button cf-primary", id: "cf-start", onclick: () => start("refuse"), text: t("web.wait.start") }),
      " ",
      el("button", { type: "button", class: "cf-button", onclick: leave, text: t("web.wait.leave") }),
    );
    parts.push(actions);
    if (page.startRefused) {
      // someone is missing: the creator decides (bots in their seats until they come) or waits
      parts.push(
        el(
          "div",
          { class: "cf-confirm", role: "alert" },
          el("p", {}, page.startRefused),
          el("p", { class: "cf-help" }, t("web.wait.bots.help")),
          el(
            "p",
            {},
            el("button", { type: "button", class: "cf-button cf-primary", id: "cf-start-bots", onclick: () => start("bots"), text: t("web.wait.bots") }),
            " ",
            el("button", { type: "button", class: "cf-button", onclick: () => { page.startRefused = null; draw(); }, text: t("web.wait.wait") }),
          ),
        ),
      );
    } else if (open.length) parts.push(el("p", { class: "cf-help" }, t("web.wait.need")));
  }
  const focused = document.activeElement && document.activeElement.id;
  box.replaceChildren(...parts);
  if (focused && $(focused) && $(focused) !== document.activeElement) $(focused).focus();
}

/** An invited friend says what they are called (the creator's name for them, kept or changed). */
function nameForm(state, mine) {
  const seat = state.seats[mine.seat] || {};
  const typed = $("cf-my-name");
  const value = typed ? typed.value : seat.nickname || "";
  const input = el("input", { id: "cf-my-name", name: "nickname", maxlength: 32, autocomplete: "nickname", value });
  const form = el(
    "form",
    { class: "cf-name-form", onsubmit: (event) => { event.preventDefault(); nameSeat(input.value); } },
    el("p", {}, t("web.wait.name.help", { name: seat.nickname || "" })),
    el("p", {}, el("label", { for: "cf-my-name" }, t("web.wait.name") + " "), input, " ", el("button", { type: "submit", class: "cf-button cf-primary", id: "cf-name-save", text: t("web.wait.name.save") })),
  );
  return form;
}

async function nameSeat(value) {
  const nickname = value.trim();
  if (!nickname) return notice(t("web.wait.name.empty"), "error");
  const seat = (page.state && page.state.seats[seatFor(tableId).seat]) || {};
  if (nickname !== seat.nickname) {
    const answer = await api(`/api/tables/${tableId}/name`, { nickname }, myToken());
    if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  }
  localStorage.setItem("campfire.nickname", nickname);
  localStorage.setItem(`campfire.named.${tableId}`, "1");
  page.named = true;
  draw();
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    notice(t("web.wait.copied"));
  } catch (_) {
    const input = button && button.parentElement ? button.parentElement.querySelector("input") : $("cf-invite");
    if (input) input.select();
    notice(text);
  }
}

async function join(seat) {
  const input = $("cf-nickname");
  const nickname = (input && input.value.trim()) || t("web.lobby.nickname.default");
  localStorage.setItem("campfire.nickname", nickname);
  const answer = await api(`/api/tables/${tableId}/join`, { nickname, seat });
  if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  storeSeat(tableId, { seat: answer.body.seat, token: answer.body.token });
  page.badSeat = null; // seated now: the refused link is history
  reconnect();
}

async function start(absent) {
  // first "refuse": the server says who is missing (open seats, people not connected), and the
  // creator confirms that bots take their seats ("bots"), or waits
  const answer = await api(`/api/tables/${tableId}/start`, { absent }, myToken());
  page.startRefused = null;
  if (!answer.ok) {
    if (absent === "refuse" && ["people_away", "seats_open"].includes(answer.code)) page.startRefused = answer.message;
    else notice(t("web.error.server", { message: answer.message }), "error");
  }
  draw();
}

async function leave() {
  const answer = await api(`/api/tables/${tableId}/leave`, {}, myToken());
  if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  forgetSeat(tableId);
  reconnect();
}

async function rematch(answer) {
  // the first person proposes; each other person accepts or declines (docs/web.md, "Rematch")
  const answer_ = await api(`/api/tables/${tableId}/rematch`, answer ? { answer } : {}, myToken());
  if (!answer_.ok) notice(t("web.error.server", { message: answer_.message }), "error");
}

/** A seat's name as the frames give it (a bot's named by the page). */
function nameOf(seatNo) {
  const seat = page.state && page.state.seats ? page.state.seats[seatNo] : null;
  return seat ? seatName(seat) : t("web.lobby.seat", { number: seatNo + 1 });
}

/** A rematch proposal made, answered or cancelled (a ``rematch`` frame). */
function onRematch(frame, received) {
  page.rematchAt = received;
  if (frame.state === "cancelled") {
    const name = frame.by === null ? "" : nameOf(frame.by);
    const key = frame.reason === "declined" && frame.by === frame.proposer ? "withdrawn" : frame.reason;
    page.rematchEnded = t(`web.rematch.${key}`, { name });
  } else page.rematchEnded = null;
  draw();
}

/** The rematch box: Play again, or the open proposal (who proposed, who accepted, Accept /
 * Decline for the people who have not), or why the last proposal ended. */
function drawRematch(state, finished) {
  const box = $("cf-rematch-box");
  const mine = seatFor(tableId);
  const proposal = finished && !page.closed ? state.rematch : null;
  const me = state.seat;
  const parts = [];
  if (proposal) {
    const proposer = proposal.proposer === me ? t("web.rematch.you_propose") : t("web.rematch.proposes", { name: nameOf(proposal.proposer) });
    const names = (seats) => seats.map(nameOf).join(", ");
    const waiting = proposal.people.filter((s) => !proposal.accepted.includes(s));
    parts.push(el("h2", { id: "cf-rematch-title" }, t("web.rematch.title")), el("p", { class: "cf-rematch-who" }, proposer));
    parts.push(el("p", { class: "cf-rematch-accepted" }, t("web.rematch.accepted", { names: names(proposal.accepted) })));
    if (waiting.length) parts.push(el("p", { class: "cf-rematch-waiting" }, t("web.rematch.waiting", { names: names(waiting) })));
    const answering = me !== null && proposal.people.includes(me);
    if (answering && !proposal.accepted.includes(me)) {
      parts.push(
        el(
          "p",
          { class: "cf-rematch-actions" },
          el("button", { type: "button", class: "cf-button cf-primary", onclick: () => rematch("accept"), text: t("web.rematch.accept") }),
          " ",
          el("button", { type: "button", class: "cf-button", onclick: () => rematch("decline"), text: t("web.rematch.decline") }),
        ),
      );
    } else if (answering) {
      if (me !== proposal.proposer) parts.push(el("p", { class: "cf-help" }, t("web.rematch.you_accepted")));
      const label = me === proposal.proposer ? "web.rematch.withdraw" : "web.rematch.decline";
      parts.push(el("p", {}, el("button", { type: "button", class: "cf-button", onclick: () => rematch("decline"), text: t(label) })));
    }
    parts.push(el("p", { class: "cf-help cf-rematch-expires" }, rematchLeft(proposal)));
  } else if (finished && page.rematchEnded) {
    parts.push(el("p", { class: "cf-rematch-ended" }, page.rematchEnded));
  }
  $("cf-rematch").hidden = !(finished && mine) || page.closed || Boolean(proposal);
  box.hidden = !parts.length;
  if (proposal) box.setAttribute("aria-labelledby", "cf-rematch-title");
  else box.removeAttribute("aria-labelledby");
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.textContent : null;
  box.replaceChildren(...parts);
  if (focused) {
    const again = [...box.querySelectorAll("button")].find((b) => b.textContent === focused);
    if (again) again.focus();
  }
}

function rematchLeft(proposal) {
  const seconds = Math.max(0, Math.ceil((proposal.expires_ms - (performance.now() - page.rematchAt)) / 1000));
  return t("web.rematch.expires", { seconds });
}

// ----- the game ---------------------------------------------------------------------------

function timedMode() {
  if (!(page.settings.modes || []).includes("realtime-claims")) return null;
  return page.settings.realtime ? "realtime" : "measure";
}

function onAction(choice) {
  if (page.sent) return;
  if (page.client.act(choice.notation)) {
    page.sent = true; // one answer per frame: the next frame says what is legal now
    draw();
  }
}

function peeks(state, steps) {
  // the cards a step showed this seat alone (its display's reveals: a peek), for a few seconds
  for (const step of steps) {
    const reveals = (step.display && step.display.reveals) || [];
    for (const reveal of reveals) {
      if (reveal.seat !== state.seat) continue;
      const id = reveal.card.id;
      page.shown[id] = { ...reveal.card, until: performance.now() + PEEK_MS };
      setTimeout(() => {
        if (page.shown[id] && page.shown[id].until <= performance.now() + 5) {
          delete page.shown[id];
          draw();
        }
      }, PEEK_MS + 10);
    }
  }
}

function onState(state, frame, steps, received) {
  page.state = state;
  page.received = received;
  // a peek shows only as it happens (the steps a snapshot lists after a reload are history)
  if (frame.type === "snapshot") {
    $("cf-log").replaceChildren(); // drawn afresh: a snapshot's hint lines may sit between steps
    page.shown = {};
    page.changed = [];
    page.lastMoves.clear();
    page.moved = null;
    const missed = frame.missed || [];
    page.lastSeat = missed.length ? missed[missed.length - 1].seat : null;
    if (state.game_number !== page.gameNumber) {
      // a new game (a rematch): no claim window of the last game is still open on this page
      page.gameNumber = state.game_number;
      page.inWindow = false;
      page.windowAt = null;
    }
  } else {
    page.lastSeat = steps.length ? steps[steps.length - 1].seat : page.lastSeat;
    if (state.seat !== null) peeks(state, steps);
    page.changed = steps.flatMap((s) => (s.display && s.display.changed) || []);
    for (const s of steps) page.lastMoves.step(s.seat, (s.display && s.display.changed) || []);
    page.moved = steps.flatMap((s) => (s.display && s.display.moved) || []);
  }
  const display = state.display;
  // a claim window: several seats answer at once, or this seat has timed answers to give; the
  // panel stays on screen for the window's length (and a moment more) from its first frame
  const timed = timedMode() && display ? choices(display, { timed: timedMode() }).some((c) => c.variants) : false;
  const window = Boolean(display && display.to_act && (display.to_act.length > 1 || timed));
  if (window && !page.inWindow) {
    page.windowAt = received;
    showLog(false); // a claim window wants the whole screen
    const times = choices(display, { timed: timedMode() })
      .flatMap((c) => c.variants || [])
      .map((v) => v.delay_ms ?? 0);
    if (times.length) WINDOW_MS = Math.max(...times);
    page.windowLog = Math.max(0, page.client.log.length - steps.reduce((n, s) => n + s.messages.length, 0));
  }
  page.inWindow = window;
  // a new choice: other legal actions, this seat's own step, or a snapshot. Another seat's
  // answer in a simultaneous step leaves this seat's choice as it was: an answer already sent
  // still counts (the server accepts it, docs/protocol.md "Sequence numbers"), and the time
  // taken to answer runs on from when the choice first showed
  const key = (state.legal || []).map((l) => l.notation).join("|");
  const own = frame.type !== "delta" || steps.some((s) => s.seat === state.seat);
  if (key !== page.lastKey || own) {
    page.lastKey = key;
    page.openedAt = received;
    page.sent = false;
  }
  draw();
}

function draw() {
  const state = page.state;
  if (!state) return;
  document.body.dataset.status = state.status;
  document.body.dataset.seq = String(state.seq);
  $("cf-waiting").hidden = state.status !== "open";
  if (state.status === "open") renderWaiting(state);
  drawWaitingFor(state);
  const board = $("cf-board");
  const spectator = state.seat === null;
  const bad = $("cf-bad-seat"); // a refused seat link says so while the page watches
  bad.hidden = !(spectator && page.badSeat);
  if (!bad.hidden) $("cf-bad-seat-text").textContent = t(page.badSeat);
  $("cf-spectator").hidden = !spectator || !bad.hidden;
  if (state.display) {
    const live = {};
    for (const [id, face] of Object.entries(page.shown)) if (face.until > performance.now()) live[id] = face;
    const options = {
      lastBy: page.lastMoves.byId(),
      lang: chosenLanguage(),
      outcome: state.outcome,
      clocks: state.clocks,
      clockBase: page.received,
      seats: state.seats,
      shown: live,
      changed: page.changed,
      timed: timedMode(),
      openedAt: page.openedAt,
      presence,
    };
    if (!spectator && state.status === "running" && !page.sent) options.onAction = onAction;
    // the cards a new frame moved slide from where they were (none with reduced motion); where
    // they are now is read just before the next frame is painted, with the page laid out once
    const before = page.moved ? cardPlaces(board) : null;
    renderTable(board, state.display, options);
    if (before) {
      const moved = page.moved;
      requestAnimationFrame(() => slide(board, before, moved));
    }
    page.moved = null;
    clearTimeout(page.fadeTimer);
    const fade = page.lastMoves.nextFade();
    if (fade !== null) page.fadeTimer = setTimeout(draw, fade + 30);
    drawRealtime(state.display, options);
    // one lasting live region says what changed for a screen reader: the turn and the prompt
    const mine = Boolean(options.onAction) && (state.display.actions || []).length > 0;
    const head = headline(state.display, mine);
    const say = state.display.over ? t("web.table.over") : `${head ? head + " " : ""}${state.display.prompt}`;
    const announce = $("cf-announce");
    if (announce.textContent !== say) announce.textContent = say;
  } else {
    board.replaceChildren();
  }
  // a snapshot's hint lines come without words (they name a seat)
  for (const m of page.client.log) if (m.id === HINT_LINE && m.text === null) m.text = hintLine(m.seat);
  renderLog($("cf-log"), page.client.log);
  drawLatest(page.client.log);
  page.undo.draw(state, Boolean(page.settings.undo), page.lastSeat);
  const toAct = state.seat !== null && (state.legal || []).length > 0;
  page.hints.draw(state, Boolean(page.settings.hints), toAct);
  const finished = state.status === "finished";
  drawRematch(state, finished);
  const replay = $("cf-replay-link");
  replay.hidden = !finished;
  const seat = state.seat === null ? "spectator" : state.seat;
  replay.href = `/replay?table=${tableId}&game=${state.game_number}&seat=${seat}`;
  const review = $("cf-review-link");
  review.hidden = !finished;
  review.href = `/replay?table=${tableId}&game=${state.game_number}&seat=${seat}&review=1`;
}

// ----- the log beside the board, or a tap away -----------------------------------------------

const LATEST = 2; // the log's lines the bottom bar shows

/** The log line saying that the player of ``seat`` used a hint. */
function hintLine(seat) {
  const who = page.state && page.state.seats[seat] ? seatName(page.state.seats[seat]) : String(seat + 1);
  return t("web.hint.used", { name: who });
}

/** The log's latest lines in the bottom bar (below a desktop's width), numbered as the log. */
function drawLatest(log) {
  const box = $("cf-log-latest");
  const from = Math.max(0, log.length - LATEST);
  const key = `${log.length}:${log.length ? log[log.length - 1].text : ""}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...log.slice(from).map((m, i) => el("span", { class: "cf-log-line" }, `${from + i + 1}. ${m.text}`)));
}

/** Open (or close) the log as a sheet over the page (below a desktop's width). */
function showLog(open) {
  const was = document.body.classList.contains("cf-log-open");
  if (was === open) return;
  document.body.classList.toggle("cf-log-open", open);
  $("cf-log-open").setAttribute("aria-expanded", String(open));
  if (open) {
    const box = $("cf-log");
    box.scrollTop = box.scrollHeight; // the newest line in view
    box.focus({ preventScroll: true });
  } else if (document.activeElement && $("cf-log-panel").contains(document.activeElement)) {
    $("cf-log-open").focus({ preventScroll: true });
  }
}

/** The chat (folded below the board on a phone): opened and scrolled into view. */
function showChat() {
  const chat = $("cf-chat");
  if (!chat) return;
  showLog(false);
  chat.open = true;
  chat.scrollIntoView({ block: "start" });
}

function drawRealtime(display, options) {
  const box = $("cf-realtime");
  const shownFor = WINDOW_MS + 1500; // the claims in order stay a moment after the close
  if (options.timed !== "realtime" || page.windowAt === null || performance.now() - page.windowAt > shownFor) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  const all = options.onAction ? choices(display, options) : [];
  const offered = all.some((c) => c.variants) ? all : [];
  // the claims first (the keys 1, 2, … on the cards in hand), then the other answers (pass)
  const mine = [...offered.filter((c) => c.variants), ...offered.filter((c) => !c.variants)];
  const buttons = el("div", { class: "cf-claims" });
  const cards = new Map();
  for (const zone of display.zones || []) for (const card of zone.cards || []) cards.set(card.id, card);
  mine.forEach((choice, i) => {
    const pass = !choice.variants;
    const label = choice.label;
    // a claim that costs a penalty now looks apart and says so (its label may say it too)
    const penalised = Boolean(choice.penalised || (choice.variants || []).some((v) => v.penalised));
    const card = choice.target ? cards.get(choice.target) : null;
    const button = el("button", {
      type: "button",
      class: `cf-claim${pass ? " cf-claim-pass" : ""}${penalised ? " cf-claim-penalised" : ""}`,
      "data-key": String(i + 1),
      "aria-keyshortcuts": String(i + 1),
      "aria-label": label,
      "aria-description": penalised ? t("web.rt.penalised") : null,
      title: penalised ? `${label} — ${t("web.rt.penalised")}` : label,
      "data-penalised": penalised ? "true" : null,
      onclick: () => onAction({ ...choice, notation: pass ? choice.notation : choice.answer.notation }),
    });
    const face = el("span", { class: "cf-claim-face", "aria-hidden": "true" });
    if (card) face.innerHTML = cardSvg(card);
    // seen: the key, the hand card and its short name (the full label is the accessible name)
    // the key is drawn by the stylesheet from data-key: a shortcut's mark, not words of the
    // button's name (aria-keyshortcuts says it)
    const parts = [el("span", { class: "cf-claim-key", "aria-hidden": "true", "data-key": String(i + 1) })];
    if (card) parts.push(face);
    parts.push(el("span", { class: "cf-claim-text", "aria-hidden": "true" }, card && card.label ? card.label : label));
    if (penalised) parts.push(el("span", { class: "cf-claim-warn", "aria-hidden": "true" }, `⚠ ${t("web.rt.penalty")}`));
    button.append(...parts);
    buttons.append(button);
  });
  const left = Math.max(0, WINDOW_MS - (performance.now() - page.windowAt));
  const claims = el("ol", { class: "cf-claim-order", "aria-label": t("web.rt.claims") });
  for (const m of page.client.log.slice(page.windowLog)) claims.append(el("li", {}, m.text));
  const parts = [
    el("p", { class: "cf-countdown", role: "timer", "data-left": Math.round(left) }, t("web.rt.window", { seconds: (left / 1000).toFixed(1) })),
    buttons,
  ];
  if (mine.length) parts.push(el("p", { class: "cf-help" }, t("web.rt.keys", { count: mine.length })));
  parts.push(el("h2", {}, t("web.rt.claims")), claims);
  box.replaceChildren(...parts);
  revealBehind(box);
}

let windowChanged = { at: null, ids: [] }; // what the step that opened the window changed

/** The card the step that opened the claim window changed (the card just turned up) scrolled
 * into sight above the claim panel whenever the panel covers it (on a phone the panel is a
 * bottom sheet over the page, and it grows as the window's claims come in). */
function revealBehind(box) {
  if (windowChanged.at !== page.windowAt) windowChanged = { at: page.windowAt, ids: [] };
  if (!windowChanged.ids.length && page.changed.length) windowChanged.ids = page.changed;
  if (getComputedStyle(box).position !== "fixed") return; // in the page's flow: nothing covered
  // a changed card, else the last card of a changed zone (where a card was added)
  const board = $("cf-board");
  const found = windowChanged.ids
    .map((id) => board.querySelector(`[data-card="${CSS.escape(id)}"], [data-zone="${CSS.escape(id)}"]`))
    .filter(Boolean);
  const cards = found.filter((n) => n.matches(".cf-card"));
  const zoneCards = found.length ? [...found[found.length - 1].querySelectorAll(".cf-card")] : [];
  const node = cards.length ? cards[cards.length - 1] : zoneCards[zoneCards.length - 1];
  if (!node) return;
  const card = node.getBoundingClientRect();
  const top = Math.min(window.innerHeight, box.getBoundingClientRect().top);
  if (card.bottom > top - 8) window.scrollBy({ top: card.bottom - top + 16, behavior: "instant" });
}

function onKey(event) {
  if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  const box = $("cf-realtime");
  if (!box.hidden && /^[1-9]$/.test(event.key)) {
    const button = box.querySelector(`button[data-key="${event.key}"]`);
    if (button) {
      event.preventDefault();
      button.click();
    }
  }
  if (event.key === "?" && page.hints && !page.hints.button.hidden) {
    event.preventDefault();
    page.hints.ask();
    return;
  }
  if (event.key === "Escape" && document.body.classList.contains("cf-log-open")) {
    event.preventDefault();
    showLog(false);
    return;
  }
  if (event.key === "Escape") {
    const cancel = document.querySelector(".cf-cancel");
    if (cancel) cancel.click();
  }
}

function tick() {
  tickClocks($("cf-board"));
  for (const tag of document.querySelectorAll("[data-presence]")) {
    const p = presence(Number(tag.dataset.presence)); // an away time counts on
    if (p && tag.textContent !== p.text) tag.textContent = p.text;
  }
  if (page.state) drawWaitingFor(page.state);
  const expires = document.querySelector(".cf-rematch-expires");
  if (expires && page.state && page.state.rematch) {
    const text = rematchLeft(page.state.rematch);
    if (expires.textContent !== text) expires.textContent = text;
  }
  const box = $("cf-realtime");
  if (!box.hidden && page.windowAt !== null && performance.now() - page.windowAt > WINDOW_MS + 1500) {
    box.hidden = true;
  }
  const count = document.querySelector(".cf-countdown");
  if (count && page.windowAt !== null) {
    const left = Math.max(0, WINDOW_MS - (performance.now() - page.windowAt));
    count.textContent = t("web.rt.window", { seconds: (left / 1000).toFixed(1) });
    count.dataset.left = String(Math.round(left));
  }
}

/** The connection's state and latency in words (again once the page's texts are in). */
function showNet() {
  const status = $("cf-connection").dataset.status;
  const text = { connecting: "web.table.connecting", reconnecting: "web.table.reconnecting", connected: "web.table.connected" }[status];
  $("cf-connection").textContent = text ? t(text) : "";
  const ms = $("cf-latency").dataset.ms;
  if (ms !== undefined) $("cf-latency").textContent = t("web.table.latency", { ms: Number(ms) });
}

function reconnect(hold = false) {
  if (page.client) page.client.close();
  const client = new TableClient(tableId, {
    hold,
    token: myToken(),
    lang: chosenLanguage(),
    onRematch,
    onState: (state, frame, steps, received) => {
      if (frame.type === "snapshot") page.presenceAt = page.rematchAt = received;
      if (state.status !== "finished") page.rematchEnded = null; // a new game: that is history
      page.chat.setSeat(state.seat, state.seats);
      if (page.moderate) page.moderate.setSeat(state.seat, state.seats);
      onState(state, frame, steps, received);
    },
    onPresence: (frame, received) => {
      page.presenceAt = received;
      draw();
    },
    onChat: (frame) => page.chat.receive(frame),
    onUndo: (frame) => {
      const line = page.undo.receive(frame, page.state ? page.state.seat : null, page.client.log);
      if (frame.status === "accepted") {
        $("cf-log").replaceChildren(); // the steps taken back leave the log drawn
        page.client.log.push({ id: "web.undo.accepted", text: line, step: frame.seq - 1 });
        page.lastSeat = null;
        page.sent = false;
      } else if (line) notice(line);
      draw();
    },
    onHint: (frame) => {
      if (frame.type === "hint") page.hints.receive(frame);
      else page.client.log.push({ id: HINT_LINE, seat: frame.seat, text: hintLine(frame.seat), step: frame.seq });
      draw();
    },
    onClosed: (frame) => {
      page.closed = true; // finished for good: no rematch
      draw();
      showNotice(t("web.table.closed", { message: frame.message }), "error"); // it stays
    },
    onError: (frame) => {
      if (frame.code === "bad_token") {
        forgetSeat(tableId); // watch instead, and say why (never silently)
        page.badSeat = page.invited ? "web.table.bad_invite" : "web.table.bad_seat";
        setTimeout(reconnect, 50);
      } else if (frame.code === "unknown_table") notice(t("web.table.no_table"), "error");
      else if (page.chat.concerns(frame)) page.chat.refused(frame.message);
      else if (frame.code !== "stale") notice(t("web.table.error", { message: frame.message }), "error");
      page.sent = false;
      page.undo.refused();
      if (String(frame.code).startsWith("hint") || frame.code === "rate_limited") page.hints.refused();
      draw();
    },
    onStatus: (status) => {
      $("cf-connection").dataset.status = status;
      showNet();
    },
    onLatency: (ms) => {
      $("cf-latency").dataset.ms = String(ms);
      showNet();
    },
  });
  if (page.client) client.log = [];
  page.client = client;
  if (page.undo) page.undo.reset(); // not yet made on the page's first connection
  if (page.hints) page.hints.clear();
  page.state = null;
  client.connect();
}

function takeInvitation() {
  // #seat=1&token=… (a friend's personal invitation): keep it, then clean the address; true
  // when the page holds a new seat (opened in a tab that already showed the table: reconnect)
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  if (!params.has("token")) return false;
  page.invited = true;
  page.named = localStorage.getItem(`campfire.named.${tableId}`) === "1";
  const held = seatFor(tableId);
  if (token && !(held && held.token === token)) {
    // the creator's own invitations stay with the creator's seat, never with the friend's
    storeSeat(tableId, { seat: Number(params.get("seat")), token });
    localStorage.removeItem(`campfire.named.${tableId}`);
    page.named = false;
    page.badSeat = null;
  } else if (!token) page.badSeat = "web.table.bad_invite"; // a link cut short: no token to try
  history.replaceState(null, "", location.pathname);
  return true;
}

async function main() {
  // the table's facts, the page's texts and the socket are asked for at once; the socket's
  // frames wait (held) until the facts and the texts are in
  // (startPage sets the language the requests ask for before its first await)
  takeInvitation();
  const texts = startPage();
  reconnect(true);
  const facts = Promise.all([
    api(`/api/tables/${tableId}`),
    api(`/api/tables/${tableId}/settings`),
    gameTitles(),
  ]);
  await texts;
  showNet();
  document.title = t("web.table.title", { id: tableId });
  $("cf-title").textContent = t("web.table.title", { id: tableId });
  $("cf-rematch").addEventListener("click", () => rematch(null));
  $("cf-log-open").addEventListener("click", () => showLog(!document.body.classList.contains("cf-log-open")));
  $("cf-log-close").addEventListener("click", () => showLog(false));
  $("cf-chat-open").addEventListener("click", showChat);
  page.chat = new ChatPanel(document.querySelector(".cf-side"), tableId, (m) => page.client.send(m));
  page.undo = new UndoPanel(document.querySelector(".cf-side"), {
    ask: () => page.client.undo(),
    answer: (seq, accept) => page.client.answerUndo(seq, accept),
    name: (seat) => (page.state && page.state.seats[seat] ? seatName(page.state.seats[seat]) : String(seat + 1)),
  });
  page.hints = new HintPanel(document.querySelector(".cf-side"), { ask: () => page.client.hint() });
  page.moderate = new ModeratePanel(document.querySelector(".cf-side"), tableId);
  const [info, settings, games] = await facts;
  if (!info.ok) {
    page.client.close();
    $("cf-board").textContent = t("web.table.no_table");
    return;
  }
  page.info = info.body.table;
  page.settings = settings.ok ? settings.body : {};
  page.games = games;
  const game = games[page.info.game] || { title: page.info.game, options: [] };
  $("cf-title").textContent = `${t("web.table.title", { id: tableId })} · ${game.title}`;
  document.title = `${game.title} · ${t("web.table.title", { id: tableId })}`;
  const rules = $("cf-rules-link");
  rules.href = `/rules/${page.info.game}?lang=${chosenLanguage()}`;
  rules.textContent = t("web.table.rules", { game: game.title });
  const lines = optionLines(game, page.info.options); // the options in words (lobby-api.js)
  const list = $("cf-options");
  list.replaceChildren(el("h3", {}, t("web.table.options")));
  const ul = el("ul");
  if (!lines.length) ul.append(el("li", {}, t("web.table.options.none")));
  for (const line of lines) ul.append(el("li", { title: line.help }, line.text));
  if (page.settings.realtime) ul.append(el("li", {}, t("web.lobby.realtime")));
  if (page.settings.undo) ul.append(el("li", {}, t("web.table.undo")));
  if (page.settings.hints) ul.append(el("li", {}, t("web.table.hints")));
  if (page.settings.rated) ul.append(el("li", { id: "cf-rated" }, t("web.table.rated")));
  list.append(ul);
  document.addEventListener("keydown", onKey);
  // a personal link opened in a tab already showing the table: the address changes only in
  // its #fragment, so no page loads; take the seat now
  window.addEventListener("hashchange", () => {
    if (takeInvitation()) reconnect();
  });
  setInterval(tick, 100);
  page.client.release();
}

main();
