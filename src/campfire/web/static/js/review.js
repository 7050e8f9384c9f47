// The post-game review on the replay page (docs/learn.md "Post-game review", docs/protocol.md
// "Reviews"): asks the server for the review of a finished game of a table, or of the record file
// the person opened (sent to POST /api/review, then read by its id), shows its progress
// while it runs in the server's worker pool, then each seat's summary, a graph of each seat's
// estimated chance to win over the game (an SVG drawn here) and every assessed decision with its
// mark. A decision is a link to the replay's step before it.

import { el } from "./dom.js";
import { currentLanguage, langHeaders, t } from "./i18n.js";
import { api } from "./lobby-api.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 120;
// one colour per seat (as many as the games' most players), readable on the light panel
const COLOURS = ["#1f6fb2", "#b2401f", "#2b8a3e", "#7b3fa0", "#a06a00", "#006d77"];
const POLL_MS = 500;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/** Whether two sources name the same game: the same table's game, or the same file sent. */
function samePlace(a, b) {
  if (a.file !== undefined || b.file !== undefined) return a.file === b.file && a.id !== undefined && a.id === b.id;
  return a.table === b.table && a.game === b.game;
}

export class ReviewPanel {
  /**
   * @param {HTMLElement} parent where the panel goes (at its end)
   * @param {object} hooks {go(step)}: show the replay's step ``step``
   */
  constructor(parent, hooks) {
    this.hooks = hooks;
    this.source = null; // {table, game} | {file: the record's text, id: its review's id once sent}
    this.timer = null;
    this.review = null;
    this.sent = null;
    this.start = el("button", { type: "button", class: "cf-button cf-primary", id: "cf-review-start", onclick: () => this.ask(true) });
    this.bar = el("progress", { id: "cf-review-progress", max: 1, value: 0, hidden: true });
    this.status = el("p", { id: "cf-review-status", class: "cf-help", role: "status", "aria-live": "polite" });
    this.body = el("div", { id: "cf-review-body" });
    this.heading = el("h2", { id: "cf-review-title" });
    this.help = el("p", { class: "cf-help", id: "cf-review-help" });
    this.panel = el("section", { class: "cf-panel cf-review", id: "cf-review", "aria-labelledby": "cf-review-title" }, this.heading, this.help, el("p", {}, this.start), this.bar, this.status, this.body);
    parent.append(this.panel);
    this.fill();
  }

  /** The texts in the page's language (after a language change too). */
  fill() {
    this.heading.textContent = t("web.review.heading");
    this.help.textContent = t("web.review.help", { inaccuracy: "0.10", blunder: "0.25" });
    this.start.textContent = t("web.review.start");
    if (this.review) this.draw(this.review);
  }

  /** The game shown now: ``{table, game}`` or ``{file}`` (a record file's text); null: none. */
  show(source, autostart = false) {
    clearTimeout(this.timer);
    const before = this.source;
    this.source = source ? { ...source } : null;
    const sent = this.sent; // the file sent last and its review's id (kept over a language change)
    if (source && source.file !== undefined && sent && sent.file === source.file) this.source.id = sent.id;
    if (source && this.review && before && samePlace(before, this.source)) {
      this.ask(false); // the same game again (a new language): its review stays until the new words come
      return;
    }
    this.review = null;
    this.body.replaceChildren();
    this.bar.hidden = true;
    this.status.textContent = "";
    this.start.hidden = !source;
    this.start.disabled = false;
    if (source) this.ask(autostart);
  }

  url() {
    const lang = encodeURIComponent(currentLanguage());
    const source = this.source;
    if (source.file !== undefined) return `/api/review/${source.id}?lang=${lang}`;
    return `/api/tables/${source.table}/review?game=${source.game}&lang=${lang}`;
  }

  /** Ask for the review: a table's game by its address, a file by sending it (its id comes back). */
  async begin(source) {
    if (source.file === undefined) return api(this.url(), {});
    try {
      const answer = await fetch("/api/review", { method: "POST", headers: langHeaders({ "Content-Type": "application/json" }), body: source.file });
      const body = await answer.json().catch(() => null);
      if (answer.ok && body) {
        source.id = body.id;
        this.sent = { file: source.file, id: body.id };
      }
      return { ok: answer.ok, body, message: body && body.error ? body.error.message : answer.statusText };
    } catch (exc) {
      return { ok: false, body: null, message: String(exc) };
    }
  }

  /** Read the review's state; with ``start``, ask for it first. Polls while it runs. */
  async ask(start) {
    const source = this.source;
    if (!source) return;
    clearTimeout(this.timer);
    if (!start && source.file !== undefined && !source.id) return; // a file: nothing asked yet
    if (start) {
      this.start.disabled = true;
      const started = await this.begin(source);
      if (source !== this.source) return;
      if (!started.ok) {
        this.start.disabled = false;
        this.status.textContent = t("web.review.failed", { message: started.message });
        return;
      }
    }
    const answer = await api(this.url());
    if (source !== this.source) return;
    if (!answer.ok) {
      this.status.textContent = t("web.review.failed", { message: answer.message });
      this.start.disabled = false;
      return;
    }
    const state = answer.body;
    if (state.status === "none") {
      this.start.disabled = false;
      return;
    }
    if (state.status === "failed") {
      this.start.disabled = false;
      this.bar.hidden = true;
      this.status.textContent = t("web.review.failed", { message: state.error || "" });
      return;
    }
    this.start.hidden = true;
    if (state.status === "done") {
      this.bar.hidden = true;
      this.status.textContent = "";
      this.review = state.review;
      this.draw(state.review);
      return;
    }
    this.bar.hidden = false;
    this.bar.max = Math.max(1, state.total);
    this.bar.value = state.done;
    this.status.textContent = state.status === "queued" ? t("web.review.queued") : t("web.review.progress", { done: state.done, total: state.total });
    this.timer = setTimeout(() => this.ask(false), POLL_MS);
  }

  draw(review) {
    const names = review.names || review.players;
    const summary = el("ul", { class: "cf-review-summary", id: "cf-review-summary" });
    for (const s of review.summary) {
      const item = el("li", {}, t("web.review.summary", { name: names[s.seat], inaccuracies: s.inaccuracies, blunders: s.blunders, decisions: s.decisions }));
      item.style.borderLeft = `0.5em solid ${COLOURS[s.seat % COLOURS.length]}`;
      summary.append(item);
    }
    const list = el("ol", { class: "cf-review-moves", id: "cf-review-moves" });
    review.decisions.forEach((d, i) => {
      const [played, best] = review.words ? review.words[i] : [d.played, d.best];
      const text = [t("web.review.move", { number: d.index + 1, name: names[d.seat], played, win: Math.round(d.played_win * 100) })];
      text.push(d.played === d.best ? t("web.review.same") : t("web.review.best", { best, win: Math.round(d.best_win * 100) }));
      const link = el("a", { href: "#", "data-step": d.index, onclick: (event) => {
        event.preventDefault();
        this.hooks.go(d.index);
      } }, text.join(" — "));
      const item = el("li", { class: d.mark ? `cf-review-move cf-mark-${d.mark}` : "cf-review-move", "data-mark": d.mark }, link);
      if (d.mark) item.append(" ", el("strong", { class: "cf-review-mark" }, t(`web.review.${d.mark}`)));
      list.append(item);
    });
    this.body.replaceChildren(summary, this.graph(review, names), list);
  }

  /** Each seat's estimated chance to win after its own moves, over the game's actions. */
  graph(review, names) {
    const total = Math.max(1, ...review.decisions.map((d) => d.index + 1));
    const x = (index) => ((index + 1) / total) * WIDTH;
    const y = (win) => HEIGHT - win * HEIGHT;
    const chart = svg("svg", { id: "cf-review-graph", class: "cf-review-graph", viewBox: `-4 -4 ${WIDTH + 8} ${HEIGHT + 8}`, role: "img", "aria-label": t("web.review.graph") });
    chart.append(svg("title", {}, t("web.review.graph")));
    chart.append(svg("line", { x1: 0, x2: WIDTH, y1: y(0.5), y2: y(0.5), class: "cf-review-half" }));
    chart.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "cf-review-frame" }));
    for (const seat of review.seats) {
      const mine = review.decisions.filter((d) => d.seat === seat);
      if (!mine.length) continue;
      const colour = COLOURS[seat % COLOURS.length];
      const points = mine.map((d) => `${x(d.index).toFixed(1)},${y(d.played_win).toFixed(1)}`).join(" ");
      const line = svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 1.5, class: "cf-review-line", "data-seat": seat });
      line.append(svg("title", {}, names[seat]));
      chart.append(line);
      for (const d of mine.filter((m) => m.mark)) {
        const dot = svg("circle", { cx: x(d.index).toFixed(1), cy: y(d.played_win).toFixed(1), r: d.mark === "blunder" ? 3.5 : 2.5, fill: colour, class: `cf-review-dot cf-mark-${d.mark}` });
        dot.append(svg("title", {}, `${names[seat]}: ${t(`web.review.${d.mark}`)} (${d.index + 1})`));
        chart.append(dot);
      }
    }
    const legend = el("p", { class: "cf-review-legend" });
    for (const seat of review.seats) {
      const key = el("span", { class: "cf-review-key" }, names[seat]);
      key.style.borderBottom = `3px solid ${COLOURS[seat % COLOURS.length]}`;
      legend.append(key, " ");
    }
    return el("figure", { class: "cf-review-figure" }, chart, el("figcaption", {}, t("web.review.graph")), legend);
  }
}
