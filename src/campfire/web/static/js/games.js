// "My games" (/games): the signed-in person's games, those being played first, then the
// finished ones with their results and replays (GET /api/account/games; docs/web.md).

import { $, el, notice, startPage } from "./dom.js";
import { t } from "./i18n.js";
import { api, gameTitles } from "./lobby-api.js";
import { drawNav, gamesList } from "./players.js";

async function main() {
  await startPage();
  const titles = await gameTitles();
  drawNav(Object.keys(titles)[0]);
  const answer = await api("/api/account/games");
  if (answer.status === 401) {
    const link = el("a", { href: "/account" }, t("web.games.signin"));
    $("cf-running").replaceChildren(el("p", {}, link));
    $("cf-finished").replaceChildren();
    return;
  }
  if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  $("cf-running").replaceChildren(gamesList(answer.body.running, titles, false));
  $("cf-finished").replaceChildren(gamesList(answer.body.finished, titles));
}

main();
