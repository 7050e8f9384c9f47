// What the players' pages share (docs/web.md): the header's links, a game's result in words,
// a list of games with links to their tables and replays, and the rating graph (an SVG drawn
// from the rating history the API answers; docs/accounts.md, "Ratings").

import { $, el } from "./dom.js";
import { botName, plural, t } from "./i18n.js";
import { accountState } from "./lobby-api.js";

const SVG = "http://www.w3.org/2000/svg";

/** The header's links: my games and my profile (signed in), the leaderboards, the account. */
export async function drawNav(firstGame) {
  const answer = await accountState();
  const user = answer.ok ? answer.body.user : null;
  const links = [];
  if (user) {
    links.push(el("a", { href: "/games", id: "cf-nav-games" }, t("web.nav.games")));
    links.push(el("a", { href: `/player/${encodeURIComponent(user.name)}`, id: "cf-nav-profile" }, t("web.nav.profile")));
  }
  if (firstGame) links.push(el("a", { href: `/leaderboard/${firstGame}`, id: "cf-nav-leaderboards" }, t("web.nav.leaderboards")));
  links.push(el("a", { href: "/account" }, user ? t("web.account.as", { name: user.name }) : t("web.account.offer")));
  $("cf-nav").replaceChildren(...links);
  return user;
}

/** A seat's name in a games list: a nickname, a bot's level in words. */
function seatName(name, seat) {
  if (name && name.startsWith("bot:")) return botName(seat + 1, name.slice(4));
  return name || t("web.lobby.seat", { number: seat + 1 });
}

/** One game as a list item: what, with whom, the result, the rating change, its links. */
function gameItem(game, titles) {
  const title = (titles[game.game] || { title: game.game }).title;
  const others = game.names.map((n, i) => (i === game.seat ? null : seatName(n, i))).filter(Boolean);
  const words = [t("web.games.table", { id: game.table, number: game.game_number || 1 }), title];
  if (others.length) words.push(t("web.games.with", { names: others.join(", ") }));
  const result = [];
  if (game.status === "finished") {
    if (game.won) result.push(t("web.games.won"));
    else if (game.place) result.push(t("web.games.place", { place: game.place, players: game.players }));
  } else result.push(t(`web.lobby.status.${game.status}`));
  if (game.rated) result.push(t("web.games.rated"));
  if (game.change !== null && game.change !== undefined) {
    result.push(t("web.games.change", { change: game.change > 0 ? `+${game.change}` : String(game.change) }));
  }
  const link =
    game.status === "finished"
      ? el("a", { class: "cf-button", href: `/replay?table=${game.table}&game=${game.game_number}` }, t("web.games.replay"))
      : el("a", { class: "cf-button", href: `/t/${game.table}` }, t("web.games.open"));
  return el(
    "li",
    { class: "cf-game-item", "data-table": game.table, "data-game-number": game.game_number },
    el("span", {}, el("strong", {}, words.join(" · ")), result.length ? ` — ${result.join(" · ")}` : ""),
    " ",
    link,
  );
}

/** A list of games grouped by game type (``group``) or as one list. */
export function gamesList(games, titles, group = true) {
  if (!games.length) return el("p", { class: "cf-help" }, t("web.games.none"));
  if (!group) return el("ul", { class: "cf-table-list" }, ...games.map((g) => gameItem(g, titles)));
  const byGame = new Map();
  for (const g of games) {
    if (!byGame.has(g.game)) byGame.set(g.game, []);
    byGame.get(g.game).push(g);
  }
  const out = [];
  for (const [name, list] of byGame) {
    out.push(el("h3", {}, (titles[name] || { title: name }).title, " ", el("span", { class: "cf-help" }, plural("web.games.count", list.length))));
    out.push(el("ul", { class: "cf-table-list", "data-game": name }, ...list.map((g) => gameItem(g, titles))));
  }
  return el("div", {}, ...out);
}

/** A rating in words: ``1234`` and the provisional mark. */
export function ratingText(rating) {
  return rating.provisional ? `${rating.rating}?` : String(rating.rating);
}

/** The SVG graph of a rating's history (the rating after each rated game). */
export function ratingGraph(rating, label) {
  const width = 320;
  const height = 120;
  const pad = 24;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "cf-rating-graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const values = [rating.history.length ? rating.history[0].rating - rating.history[0].change : rating.rating, ...rating.history.map((h) => h.rating)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 1);
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(values.length - 1, 1);
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / span;
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  values.forEach((v, i) => {
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", x(i).toFixed(1));
    dot.setAttribute("cy", y(v).toFixed(1));
    dot.setAttribute("r", "3");
    dot.setAttribute("fill", "currentColor");
    const tip = document.createElementNS(SVG, "title");
    tip.textContent = String(v);
    dot.append(tip);
    svg.append(dot);
  });
  for (const [v, where] of [[high, pad - 8], [low, height - pad + 16]]) {
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("x", "2");
    text.setAttribute("y", String(where));
    text.setAttribute("font-size", "11");
    text.setAttribute("fill", "currentColor");
    text.textContent = String(v);
    svg.append(text);
  }
  return svg;
}
