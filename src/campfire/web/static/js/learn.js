// Learn to play (docs/web.md, "Learn to play"): the lessons of every game, and one lesson at a
// time on the table's own drawing (render.js). The server plays every step (docs/protocol.md,
// "Tutorials"): the page sends the step it shows and the move tried, and draws the frame it
// gets back — the table, the lesson's text, the asked move highlighted, the explanation.

import { $, el, notice, startPage } from "./dom.js";
import { chosenLanguage, t } from "./i18n.js";
import { api, storeSeat } from "./lobby-api.js";
import { renderLog, renderTable } from "./render.js";

const query = new URLSearchParams(location.search);
const game = query.get("game");
const lessonId = query.get("lesson");
let frame = null;
let openedAt = 0;
let busy = false;

function lessonUrl(name, id) {
  return `/learn?game=${encodeURIComponent(name)}&lesson=${encodeURIComponent(id)}`;
}

async function showLessons() {
  $("cf-lessons-view").hidden = false;
  const answer = await api("/api/learn");
  if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  const box = $("cf-lessons");
  if (!answer.body.games.length) box.append(el("p", {}, t("web.learn.none")));
  for (const info of answer.body.games) {
    const list = el("ol", { class: "cf-lesson-list" });
    for (const lesson of info.lessons) {
      list.append(el("li", {}, el("a", { href: lessonUrl(info.name, lesson.id), "data-lesson": `${info.name}/${lesson.id}` }, lesson.title)));
    }
    box.append(el("section", { class: "cf-lesson-game", "data-game": info.name }, el("h3", {}, info.title), list));
  }
}

/** Mark the asked move on the table: its card, its place, its button. */
function highlight(asked) {
  const board = $("cf-board");
  for (const node of board.querySelectorAll(".cf-asked")) node.classList.remove("cf-asked");
  if (!asked) return;
  const marks = [];
  for (const id of [asked.target, asked.source].filter(Boolean)) {
    marks.push(...board.querySelectorAll(`[data-card="${CSS.escape(id)}"], [data-zone="${CSS.escape(id)}"]`));
  }
  marks.push(...board.querySelectorAll(`[data-notation="${CSS.escape(asked.notation)}"]`));
  for (const node of marks) node.classList.add("cf-asked");
}

function draw(wrong = "") {
  const f = frame;
  window.__learnFrame = f; // what the page shows, for readers of the page (the browser tests)
  document.title = `${f.title} — ${t("web.learn.title")}`;
  $("cf-lesson-title").textContent = `${f.title} — ${t("web.learn.lesson", { number: f.number, count: f.count, title: f.lesson_title })}`;
  let text = f.text;
  if (f.finished) text = f.next ? t("web.learn.finished") : t("web.learn.finished.last", { game: f.title });
  $("cf-lesson-text").textContent = text;
  const note = [f.note, f.reveals.length ? t("web.learn.saw", { cards: f.reveals.join(", ") }) : ""].filter(Boolean);
  $("cf-lesson-note").textContent = note.join(" ");
  $("cf-lesson-wrong").textContent = wrong;
  $("cf-lesson-wrong").hidden = !wrong;
  $("cf-continue").hidden = f.finished || Boolean(f.asked);
  $("cf-next").hidden = !(f.finished && f.next);
  if (f.next) $("cf-next").href = lessonUrl(f.game, f.next);
  $("cf-first-game").hidden = !(f.finished && !f.next);
  const display = f.display;
  if (!f.asked) display.actions = [];
  openedAt = performance.now();
  renderTable($("cf-board"), display, {
    onAction: f.asked ? (choice) => tryMove(choice.notation) : undefined,
    timed: "measure",
    openedAt,
  });
  highlight(f.asked);
  renderLog($("cf-log"), f.log);
  if (f.asked) $("cf-board").dataset.asked = f.asked.notation;
  else delete $("cf-board").dataset.asked;
  // where the lesson is, for the page's readers that wait on it (the browser tests)
  document.body.dataset.lessonStep = `${f.lesson}:${f.step}:${f.finished ? "end" : ""}`;
}

async function send(body) {
  if (busy) return;
  busy = true;
  try {
    const answer = await api(`/api/learn/${encodeURIComponent(game)}/${encodeURIComponent(lessonId)}`, { step: frame.step, ...body });
    if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
    frame = answer.body.frame;
    draw(answer.body.correct ? "" : answer.body.note);
    if (answer.body.correct) focusNext();
  } finally {
    busy = false;
  }
}

/** After a step, the keyboard's place: the asked move's button, else Continue or what ends the lesson. */
function focusNext() {
  const board = $("cf-board");
  const asked = frame.asked;
  const first = asked && (asked.source || asked.target);
  const id = first ? CSS.escape(first) : null;
  const next =
    (id && board.querySelector(`button[data-card="${id}"], button[data-zone="${id}"]`)) ||
    board.querySelector("button.cf-asked") ||
    [$("cf-continue"), $("cf-next"), $("cf-first-game")].find((b) => !b.hidden);
  if (next) next.focus({ preventScroll: true });
}

function tryMove(notation) {
  return send({ move: notation });
}

async function firstGame() {
  const players = frame.players;
  const nickname = localStorage.getItem("campfire.nickname") || t("web.lobby.nickname.default");
  const seats = [{ kind: "reserved", nickname }];
  for (let seat = 1; seat < players; seat++) seats.push({ kind: "bot", level: "easy" });
  const answer = await api("/api/tables", { game: frame.game, players, seats });
  if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  const id = answer.body.table.id;
  storeSeat(id, { seat: 0, token: answer.body.tokens["0"] });
  location.href = `/t/${id}`;
}

async function showLesson() {
  $("cf-lesson-view").hidden = false;
  const rules = $("cf-rules-link");
  rules.href = `/rules/${encodeURIComponent(game)}?lang=${chosenLanguage()}`;
  rules.hidden = false;
  $("cf-continue").addEventListener("click", () => send({ go_on: true }));
  $("cf-first-game").addEventListener("click", firstGame);
  const answer = await api(`/api/learn/${encodeURIComponent(game)}/${encodeURIComponent(lessonId)}?step=0`);
  if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  frame = answer.body;
  draw();
  focusNext();
}

async function main() {
  await startPage();
  if (game && lessonId) await showLesson();
  else await showLessons();
}

main();
