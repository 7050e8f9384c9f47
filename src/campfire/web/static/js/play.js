// The quick match's waiting page (/play?game=G&players=N&wait=S&level=L): it joins the queue
// (POST /api/quick), looks every second (GET /api/quick with the ticket) and shows who waits and
// how long until bots fill the empty seats; once seated it keeps the seat's token as the lobby
// does and goes to the table. Closing the page takes the ticket out of the queue (and a ticket
// nobody looks at is forgotten by the server within seconds). docs/web.md, "Play now".

import { $, el, notice, startPage } from "./dom.js";
import { langHeaders, plural, t } from "./i18n.js";
import { accountState, api, gameTitles, storeSeat } from "./lobby-api.js";

let ticket = null;
let timer = null;

function call(method) {
  return fetch("/api/quick", { method, headers: langHeaders({ Authorization: `Bearer ${ticket}` }), keepalive: method === "DELETE" });
}

function draw(state) {
  const seconds = Math.ceil(state.seconds_left);
  $("cf-play-countdown").textContent = plural("web.quick.countdown", seconds);
  $("cf-play-waiting").replaceChildren(...state.waiting.map((name) => el("li", { class: "cf-play-person" }, name)));
}

function seated(state) {
  clearInterval(timer);
  const table = state.table;
  ticket = null;
  storeSeat(table, { seat: state.seat, token: state.token });
  location.href = `/t/${table}`;
}

async function look() {
  if (!ticket) return;
  let answer;
  try {
    answer = await call("GET");
  } catch (exc) {
    return notice(t("web.error.network", { message: String(exc) }), "error");
  }
  const body = await answer.json().catch(() => null);
  if (!answer.ok) {
    clearInterval(timer);
    ticket = null;
    return notice(t("web.error.server", { message: body && body.error ? body.error.message : answer.statusText }), "error");
  }
  if (body.state === "seated") return seated(body);
  notice("");
  draw(body);
}

async function stop() {
  clearInterval(timer);
  if (ticket) await call("DELETE").catch(() => null);
  ticket = null;
  location.href = "/";
}

async function main() {
  await startPage();
  const query = new URLSearchParams(location.search);
  const games = await gameTitles();
  const game = games[query.get("game")];
  const players = Number(query.get("players")) || (game ? game.min_players : 2);
  if (game) $("cf-play-title").textContent = t("web.quick.for", { game: game.title, players: plural("web.players.count", players) });
  let nickname = localStorage.getItem("campfire.nickname");
  if (!nickname) {
    const me = await accountState();
    nickname = me.ok && me.body.user ? me.body.user.name : t("web.lobby.nickname.default");
  }
  const body = { game: query.get("game") || "", players, nickname };
  if (query.get("wait")) body.wait = Number(query.get("wait"));
  if (query.get("level")) body.level = query.get("level");
  $("cf-play-stop").addEventListener("click", stop);
  const answer = await api("/api/quick", body);
  document.body.dataset.ready = "1";
  if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  ticket = answer.body.ticket;
  if (answer.body.state === "seated") return seated(answer.body);
  draw(answer.body);
  timer = setInterval(look, 1000);
  window.addEventListener("pagehide", () => {
    if (ticket) call("DELETE").catch(() => null);
  });
}

main();
