// A player's page (/player/NAME): their ratings with a graph each, and their games per game type
// with links to the replays (GET /api/players/NAME; docs/web.md).

import { $, el, notice, startPage } from "./dom.js";
import { plural, t } from "./i18n.js";
import { api, gameTitles } from "./lobby-api.js";
import { drawNav, gamesList, ratingGraph, ratingText } from "./players.js";

async function main() {
  await startPage();
  const name = decodeURIComponent(location.pathname.split("/")[2] || "");
  const titles = await gameTitles();
  drawNav(Object.keys(titles)[0]);
  const answer = await api(`/api/players/${encodeURIComponent(name)}`);
  if (!answer.ok) {
    $("cf-player-name").textContent = name;
    return notice(t("web.error.server", { message: answer.message }), "error");
  }
  const profile = answer.body;
  $("cf-player-name").textContent = t("web.player.title", { name: profile.name });
  document.title = `Campfire · ${profile.name}`;
  const boxes = [];
  for (const rating of profile.ratings) {
    const title = (titles[rating.game] || { title: rating.game }).title;
    const heading = rating.players ? `${title} · ${plural("web.players.count", rating.players)}` : title;
    const facts = [
      t("web.ratings.value", { rating: ratingText(rating) }),
      plural("web.games.count", rating.games),
      plural("web.ratings.wins", rating.wins),
    ];
    const box = el(
      "div",
      { class: "cf-rating", "data-game": rating.game, "data-players": rating.players },
      el("h3", {}, heading, " ", el("a", { href: `/leaderboard/${rating.game}${rating.players ? `?players=${rating.players}` : ""}` }, t("web.nav.leaderboards"))),
      el("p", {}, el("strong", { class: "cf-rating-value" }, facts[0]), ` · ${facts[1]} · ${facts[2]}`),
      rating.provisional ? el("p", { class: "cf-help" }, t("web.ratings.provisional", { count: profile.provisional_games })) : null,
    );
    if (rating.players === 0) box.append(ratingGraph(rating, t("web.player.graph", { game: title })));
    boxes.push(box);
  }
  $("cf-ratings").replaceChildren(...(boxes.length ? boxes : [el("p", { class: "cf-help" }, t("web.ratings.none"))]));
  $("cf-games").replaceChildren(gamesList(profile.games, titles));
}

main();
