// A game's leaderboard (/leaderboard/GAME?players=N): the rated players and bot levels, best
// first, provisional ratings marked (GET /api/leaderboards/GAME; docs/web.md).

import { $, el, notice, startPage } from "./dom.js";
import { plural, t } from "./i18n.js";
import { api, gameTitles } from "./lobby-api.js";
import { drawNav, ratingText } from "./players.js";

async function main() {
  await startPage();
  const titles = await gameTitles();
  const game = decodeURIComponent(location.pathname.split("/")[2] || "");
  const players = Number(new URLSearchParams(location.search).get("players") || 0);
  drawNav(Object.keys(titles)[0]);
  const pick = $("cf-board-game");
  for (const info of Object.values(titles)) pick.append(new Option(info.title, info.name, false, info.name === game));
  pick.addEventListener("change", () => (location.href = `/leaderboard/${pick.value}`));
  const answer = await api(`/api/leaderboards/${encodeURIComponent(game)}${players ? `?players=${players}` : ""}`);
  if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
  const board = answer.body;
  $("cf-board-title").textContent = t("web.ratings.title", { game: board.title });
  const counts = $("cf-board-players");
  counts.append(new Option(t("web.ratings.all"), "0", false, board.players === 0));
  for (const n of board.counts) counts.append(new Option(plural("web.players.count", n), String(n), false, board.players === n));
  counts.addEventListener("change", () => (location.href = `/leaderboard/${game}${counts.value !== "0" ? `?players=${counts.value}` : ""}`));
  $("cf-board-help").textContent = t("web.ratings.provisional", { count: board.provisional_games });
  if (!board.rows.length) return $("cf-board").replaceChildren(el("p", { class: "cf-help" }, t("web.ratings.none")));
  const head = el("tr", {}, ...["web.ratings.place", "web.ratings.player", "web.ratings.rating", "web.ratings.games"].map((id) => el("th", { scope: "col" }, t(id))));
  const rows = board.rows.map((row) =>
    el(
      "tr",
      { class: row.bot ? "cf-board-bot" : "cf-board-person" },
      el("td", {}, String(row.place)),
      el("td", {}, row.bot ? t("web.ratings.bot", { level: t(`web.level.${row.bot}`) }) : el("a", { href: `/player/${encodeURIComponent(row.name)}` }, row.name)),
      el("td", { class: "cf-board-rating" }, ratingText(row)),
      el("td", {}, String(row.games)),
    ),
  );
  $("cf-board").replaceChildren(el("table", { class: "cf-board" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

main();
