// Display model → DOM, for every game alike (docs/web.md). The module knows no game by name:
// zones are laid out by kind (grid, row, stack, hidden, counter), players from their panels,
// and the legal actions become the cards, places and buttons they act on (ActionChoice
// target/source). The replay viewer uses it read-only (no onAction).
//
//   renderTable(container, display, options)   options: {onAction(choice), lang, outcome,
//       clocks, clockBase, shown: {cardId: CardFace}, changed: [card or zone id],
//       timed: "realtime"|"measure"|null, openedAt, names, lastBy: {card or zone id: seat}}
// ``shown`` holds the cards revealed to this seat alone (a step's display ``reveals``), drawn
// over the board's; ``changed`` the ids a step's display says it changed (highlighted);
// ``lastBy`` the ids the last moves changed, each with the seat that made the move (outlined
// in that seat's colour, its mark in the zone's heading: motion.js ``LastMoves``).
//   renderLog(container, messages)             messages: [{id, params, text}]

import { PALETTE, cardName, cardSvg } from "./cards.js";
import { el } from "./dom.js";
import { plural, t } from "./i18n.js";

/**
 * The actions as a person chooses them. With ``timed`` set, the variants of one answer (the
 * actions that share an ``answer``, each with its ``delay_ms``) are merged into one choice
 * with the answer's label and key: in real time it sends the answer's notation (the server
 * measures the time); otherwise the variant whose delay is nearest the time since
 * ``openedAt``.
 */
export function choices(display, options = {}) {
  const actions = display.actions || [];
  if (!options.timed) return actions.map((a) => ({ ...a }));
  const merged = new Map();
  const out = [];
  for (const action of actions) {
    const answer = action.answer;
    const key = answer ? `${answer.notation}\u0000${action.target ?? ""}\u0000${action.source ?? ""}` : null;
    if (key && merged.has(key)) {
      merged.get(key).variants.push(action);
      continue;
    }
    const choice = { ...action };
    if (key) {
      choice.variants = [action];
      merged.set(key, choice);
    }
    out.push(choice);
  }
  for (const choice of out) {
    if (!choice.variants) continue;
    if (choice.variants.length < 2) {
      delete choice.variants;
      continue;
    }
    // the time is measured, not chosen: the answer's own label and key
    choice.label = choice.answer.label || choice.label;
    choice.key = choice.answer.key || choice.key;
  }
  return out;
}

/** The notation to send for a choice (a merged timed answer resolved: see ``choices``). */
function notationOf(choice, options = {}) {
  if (!choice.variants) return choice.notation;
  if (options.timed === "realtime") return choice.answer.notation;
  const elapsed = options.openedAt ? performance.now() - options.openedAt : 0;
  let best = choice.variants[0];
  let bestGap = Infinity;
  for (const v of choice.variants) {
    const gap = Math.abs((v.delay_ms ?? 0) - elapsed);
    if (gap < bestGap) {
      best = v;
      bestGap = gap;
    }
  }
  return best.notation;
}

function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  if (total >= 86400) {
    // a turn-based table's days: days and hours
    return t("web.table.clock.days", { days: Math.floor(total / 86400), hours: Math.floor((total % 86400) / 3600) });
  }
  const s = String(total % 60).padStart(2, "0");
  if (total >= 3600) {
    const m = String(Math.floor((total % 3600) / 60)).padStart(2, "0");
    return `${Math.floor(total / 3600)}:${m}:${s}`;
  }
  return `${Math.floor(total / 60)}:${s}`;
}

/** Count the running clocks down (call it every few hundred ms; cheap). */
export function tickClocks(container) {
  for (const node of container.querySelectorAll(".cf-clock[data-ms]")) {
    const base = Number(node.dataset.base);
    let ms = Number(node.dataset.ms);
    if (node.dataset.running === "1") ms -= performance.now() - base;
    const text = formatClock(ms);
    if (node.textContent !== text) node.textContent = text;
    node.classList.toggle("cf-clock-low", node.dataset.running === "1" && ms < 10000);
  }
}

/**
 * Each seat's colour, for every game alike: the colour its panel names (a game's player
 * colour) where the palette has it, else the next of ``SEAT_COLOURS`` no other player has.
 * Fill and ink are readable together (contrast at least 4.5:1); ``mark`` is what a badge shows
 * so that the colour is never the only sign: the player's symbol, else the initial of their
 * name (with the seat number where two players share it).
 */
export const SEAT_COLOURS = [
  ["#1f5fbf", "#fff"],
  ["#b3261e", "#fff"],
  ["#1b7340", "#fff"],
  ["#6f3aa8", "#fff"],
  ["#9a4a00", "#fff"],
  ["#0b6e78", "#fff"],
  ["#8a2a62", "#fff"],
  ["#4a4a4a", "#fff"],
];

/** Palette colours too light for white ink at a badge's size: their darker shade for seats. */
const SEAT_SHADES = { red: SEAT_COLOURS[1], green: SEAT_COLOURS[2] };

export function seatColours(display) {
  const players = display.players || [];
  const out = new Map();
  const taken = new Set();
  for (const p of players) {
    if (p.colour && Object.hasOwn(PALETTE, p.colour)) {
      const [fill, ink] = SEAT_SHADES[p.colour] || PALETTE[p.colour];
      out.set(p.seat, { fill, ink });
      taken.add(fill);
    }
  }
  const free = SEAT_COLOURS.filter(([fill]) => !taken.has(fill));
  let next = 0;
  for (const p of players) {
    if (out.has(p.seat)) continue;
    const [fill, ink] = free.length ? free[next++ % free.length] : SEAT_COLOURS[p.seat % SEAT_COLOURS.length];
    out.set(p.seat, { fill, ink });
  }
  const initial = (name) => [...String(name || "").trim()][0]?.toLocaleUpperCase() || "?";
  const counts = new Map();
  for (const p of players) counts.set(initial(p.name), (counts.get(initial(p.name)) || 0) + 1);
  for (const p of players) {
    const first = initial(p.name);
    const mark = p.symbol || (counts.get(first) > 1 ? `${first}${p.seat + 1}` : first);
    Object.assign(out.get(p.seat), { mark, name: p.name });
  }
  return out;
}

/** Give ``node`` the seat colour ``colour`` (CSS variables; no style attribute: the CSP). */
function paintSeat(node, colour) {
  node.style.setProperty("--cf-seat", colour.fill);
  node.style.setProperty("--cf-seat-ink", colour.ink);
  return node;
}

function playerPanel(player, display, options, colours) {
  const classes = ["cf-player"];
  if (player.to_act) classes.push("cf-to-act");
  if (player.you) classes.push("cf-you");
  if (player.out) classes.push("cf-out");
  const colour = colours.get(player.seat);
  const swatch = el("span", { class: "cf-swatch cf-seat-badge", "aria-hidden": "true" }, colour.mark);
  const name = el("span", { class: "cf-player-name", title: player.name }, player.name);
  const tags = [];
  if (player.you) tags.push(t("web.table.you"));
  const head = el("div", { class: "cf-player-head" }, swatch, name);
  if (tags.length) head.append(el("span", { class: "cf-tag" }, tags.join(", ")));
  if (player.to_act) {
    head.append(el("span", { class: "cf-turn-flag" }, "▶ " + t("web.table.to_act")));
  }
  const seatInfo = (options.seats || [])[player.seat];
  if (seatInfo && seatInfo.takeover) head.append(el("span", { class: "cf-tag" }, t("web.table.takeover")));
  // the person's connection, as the server measures it (table.js words it and keeps it counting)
  const presence = options.presence ? options.presence(player.seat) : null;
  if (presence) head.append(el("span", { class: `cf-tag cf-presence cf-presence-${presence.state}`, "data-presence": player.seat }, presence.text));
  const panel = paintSeat(el("li", { class: classes.join(" "), "data-seat": player.seat }, head), colour);
  if (player.score) panel.append(el("div", { class: "cf-score" }, player.score));
  if (player.facts && player.facts.length) {
    const facts = el("dl", { class: "cf-facts" });
    for (const [label, value] of player.facts) {
      facts.append(el("dt", {}, label), el("dd", {}, value));
    }
    panel.append(facts);
  }
  const clocks = options.clocks;
  if (clocks && Array.isArray(clocks.remaining_ms) && player.seat < clocks.remaining_ms.length) {
    const running = (clocks.running || []).includes(player.seat);
    panel.append(
      el(
        "div",
        { class: "cf-clock-row" },
        el("span", {
          class: "cf-clock",
          "data-ms": clocks.remaining_ms[player.seat],
          "data-base": options.clockBase ?? performance.now(),
          "data-running": running ? "1" : "0",
          role: "timer",
          "aria-label": t("web.table.clock", { time: formatClock(clocks.remaining_ms[player.seat]) }),
          text: formatClock(clocks.remaining_ms[player.seat]),
        }),
      ),
    );
  }
  return panel;
}

/**
 * One card. ``colours`` (``seatColours``) mark a card that lies where it is not its owner's own
 * place (``zoneOwner``: a card played to the table, not a card in its owner's hand) with its
 * owner's colour: an edge and a badge with the owner's mark.
 */
function cardNode(card, act, changed, colours, zoneOwner, lastBy) {
  const svg = cardSvg(card);
  const name = cardName(card);
  const classes = ["cf-card"];
  if (changed && changed.has(card.id)) classes.push("cf-changed");
  const mover = lastBy && Object.hasOwn(lastBy, card.id) ? lastBy[card.id] : undefined;
  if (mover !== undefined) classes.push("cf-last");
  const owner = card.owner ?? null;
  const colour = owner !== null && colours && owner !== (zoneOwner ?? null) ? colours.get(owner) : null;
  if (colour) classes.push("cf-owned");
  if (card.empty) classes.push("cf-card-empty");
  if (!card.face_up && !card.label && !card.empty) classes.push("cf-card-down");
  if (card.marks && card.marks.length) classes.push("cf-card-marked");
  if (card.peek) classes.push("cf-card-peek");
  let node;
  if (act) {
    classes.push("cf-actionable");
    if (act.selected) classes.push("cf-selected");
    if (act.hint) classes.push("cf-hint");
    node = el("button", {
      type: "button",
      class: classes.join(" "),
      "aria-label": act.label,
      "aria-pressed": act.source ? String(Boolean(act.selected)) : null,
      title: act.label,
      "data-card": card.id,
      "data-owner": owner,
      onclick: act.run,
    });
  } else {
    node = el("div", { class: classes.join(" "), role: "img", "aria-label": name, title: name, "data-card": card.id, "data-owner": owner });
  }
  // what the face shows (a card that moves keeps it: motion.js finds where it came from)
  if (card.face_up && !card.empty) node.dataset.face = [card.short, card.colour, card.owner].join("|");
  if (mover !== undefined) lastMark(node, mover, colours);
  node.innerHTML = svg;
  if (colour) {
    paintSeat(node, colour);
    node.append(el("span", { class: "cf-owner-badge", "aria-hidden": "true", title: colour.name }, colour.mark));
  }
  if (card.marks && card.marks.length) {
    node.append(el("span", { class: "cf-marks", "aria-hidden": "true" }, card.marks.join(" · ")));
  }
  return node;
}

/** The colour of the seat whose move ``node`` shows (``--cf-last``; a step of no seat: grey). */
function lastMark(node, seat, colours) {
  const colour = colours && colours.get(seat);
  node.dataset.lastSeat = String(seat);
  node.style.setProperty("--cf-last", colour ? colour.fill : "#6e6253");
  return node;
}

/** A zone heading's mark of who moved there last: the colour is never the only sign. */
function lastBadge(seat, colours) {
  const colour = colours && colours.get(seat);
  const name = colour ? colour.name : "";
  const title = name ? t("web.table.last_move", { name }) : t("web.table.last_move.game");
  const badge = el("span", { class: "cf-last-badge", title, "aria-label": title, role: "img" }, colour ? colour.mark : "•");
  if (colour) paintSeat(badge, colour);
  return badge;
}

function cardsText(count) {
  return plural("web.table.cards", count);
}

function zoneCount(zone) {
  return zone.count ?? zone.cards.length;
}

const bare = (text) => String(text).toLocaleLowerCase().replace(/[\s!.:…,;]+$/u, "").trim();

/**
 * The words before the prompt in the banner: "Your turn!" for the seat to act, else "Waiting
 * for …" — or "" when the prompt says it already ("Your turn: play a card…", "Waiting for Ann
 * to peek…"), so the banner never says it twice.
 */
export function headline(display, mine) {
  const prompt = String(display.prompt || "").toLocaleLowerCase();
  if (mine) {
    const yours = t("web.table.your_turn");
    // how the games' prompts say it in this language ("Your turn:"; "|" between several)
    const said = [yours, ...t("web.table.your_turn.said").split("|")].map(bare).filter(Boolean);
    return said.some((words) => prompt.startsWith(words)) ? "" : yours;
  }
  const waitingFor = (display.players || []).filter((p) => p.to_act && !p.you).map((p) => p.name);
  if (!waitingFor.length) return "";
  const waiting = t("web.table.waiting", { names: waitingFor.join(", ") });
  const said = waitingFor.every((name) => prompt.includes(String(name).toLocaleLowerCase()));
  return said ? "" : waiting;
}

/** Draw ``display`` into ``container``; see the module's comment for ``options``. */
export function renderTable(container, display, options = {}) {
  const state = container.__cf || (container.__cf = { selected: null, menu: null, key: null });
  const interactive = typeof options.onAction === "function";
  const all = interactive ? choices(display, options) : [];
  // a new decision (new actions) clears a half-made choice
  const key = all.map((a) => a.notation).join("|");
  if (key !== state.key) {
    state.key = key;
    state.selected = null;
    state.menu = null;
  }
  const onScreen = new Set();
  for (const zone of display.zones || []) {
    onScreen.add(zone.id);
    for (const card of zone.cards || []) onScreen.add(card.id);
  }
  const sources = new Set(all.filter((a) => a.source && onScreen.has(a.source)).map((a) => a.source));
  if (state.selected && !sources.has(state.selected)) state.selected = null;

  const choose = (choice) => {
    state.selected = null;
    state.menu = null;
    options.onAction({ ...choice, notation: notationOf(choice, options) });
  };
  // the actions that pointing at ``target`` may choose now
  const candidates = (target) =>
    all.filter(
      (a) =>
        a.target === target &&
        (a.source && onScreen.has(a.source) ? a.source === state.selected : true),
    );
  const redraw = () => renderTable(container, display, options);
  const pick = (target, label) => {
    const found = candidates(target);
    if (found.length === 1) choose(found[0]);
    else if (found.length > 1) {
      state.menu = { target, label };
      redraw();
      const first = container.querySelector(".cf-menu button");
      if (first) first.focus();
    }
  };
  const actFor = (card) => {
    if (!interactive) return null;
    const targets = candidates(card.id);
    if (sources.has(card.id)) {
      const selected = state.selected === card.id;
      return {
        source: true,
        selected,
        label: selected
          ? t("web.table.selected", { label: cardName(card) })
          : t("web.table.choose", { label: cardName(card) }),
        run: (event) => {
          state.selected = selected ? null : card.id;
          state.menu = null;
          redraw();
          // picked up by keyboard (a click without a pointer: detail 0), the focus goes on to its
          // first place (Tab to the others, Escape puts it back); by pointer, or put back, it
          // stays on the card (the page does not jump under a finger)
          const keyboard = Boolean(event) && event.detail === 0;
          const place = state.selected && keyboard ? container.querySelector(".cf-hint") : null;
          const again = place || container.querySelector(`[data-card="${CSS.escape(card.id)}"]`);
          if (again) again.focus();
        },
      };
    }
    if (targets.length === 0) return null;
    const label = targets.length === 1 ? targets[0].label : t("web.table.choose", { label: cardName(card) });
    return { label, hint: Boolean(state.selected), run: () => pick(card.id, cardName(card)) };
  };

  const root = el("div", { class: "cf-table-view", "data-game": display.game });
  // whose turn: unmistakable
  const me = display.seat;
  const mine = interactive && all.length > 0;
  const banner = el("div", { class: `cf-banner ${mine ? "cf-banner-you" : ""}` });
  const head = headline(display, mine);
  if (display.over) banner.append(el("strong", {}, t("web.table.over")));
  else if (head) banner.append(el(mine ? "strong" : "span", { class: "cf-headline" }, head), " ");
  if (!display.over) banner.append(el(mine && !head ? "strong" : "span", { class: "cf-prompt" }, display.prompt));
  if (display.progress) banner.append(el("span", { class: "cf-progress" }, ` (${display.progress})`));
  root.append(el("div", { class: "cf-status" }, display.status), banner);
  // the end: each player's rank, score and breakdown, first thing on the page
  if (display.over) root.append(resultNode(display, options.outcome));

  // tabindex: on a phone the row of players scrolls sideways, and the keyboard scrolls it too
  const players = el("ol", { class: "cf-players", tabindex: "0", "aria-label": t("web.table.players") });
  const colours = seatColours(display);
  for (const p of display.players || []) players.append(playerPanel(p, display, options, colours));
  root.append(players);

  // zones
  const zones = el("div", { class: "cf-zones" });
  const changed = new Set(options.changed || []);
  const lastBy = options.lastBy || {};
  for (const zone of display.zones || []) {
    const zoneTargets = interactive ? candidates(zone.id) : [];
    const classes = ["cf-zone", `cf-zone-${zone.kind}`];
    if (changed.has(zone.id)) classes.push("cf-changed");
    // the last moves here: the zone's own id, else its cards' (the newest move's seat)
    const movers = [zone.id, ...(zone.cards || []).map((c) => c.id)].filter((id) => Object.hasOwn(lastBy, id));
    const mover = Object.hasOwn(lastBy, zone.id) ? lastBy[zone.id] : movers.length ? lastBy[movers[movers.length - 1]] : undefined;
    if (Object.hasOwn(lastBy, zone.id)) classes.push("cf-last");
    if (zone.owner !== null && zone.owner !== undefined && zone.owner === me) classes.push("cf-mine");
    if (zoneTargets.length) classes.push("cf-targetable");
    const section = el("section", { class: classes.join(" "), "data-zone": zone.id, "aria-label": zone.label });
    const head = el("h2", { class: "cf-zone-label" }, zone.label);
    if (mover !== undefined) {
      lastMark(section, mover, colours);
      head.append(lastBadge(mover, colours));
    }
    section.append(head);
    const body = el("div", { class: "cf-zone-body" });
    const shown = (card) => {
      const over = options.shown && options.shown[card.id];
      if (!over || card.empty) return card;
      const marks = [...new Set([...(card.marks || []), ...(over.marks || [])])];
      return { ...over, id: card.id, peek: true, marks };
    };
    if (zone.kind === "counter") {
      body.append(
        el("div", { class: "cf-counter", role: "img", "aria-label": t("web.table.count", { label: zone.label, count: zoneCount(zone) }) }, String(zoneCount(zone))),
      );
    } else if (zone.kind === "stack" || (zone.kind === "hidden" && !zone.cards.length)) {
      const n = zoneCount(zone);
      const top = zone.cards.length ? zone.cards[zone.cards.length - 1] : n ? { id: `${zone.id}:top`, face_up: false, label: "", short: "" } : { id: `${zone.id}:none`, empty: true, short: "" };
      const pile = el("div", { class: "cf-pile" }, cardNode(shown(top), top.id === zone.id ? null : actFor(top), changed, colours, zone.owner, lastBy));
      pile.append(el("span", { class: "cf-pile-count" }, cardsText(n)));
      body.append(pile);
    } else {
      const wrap = el("div", { class: zone.kind === "grid" ? "cf-grid" : "cf-row" });
      if (zone.kind === "grid" && zone.columns) wrap.style.setProperty("--cf-columns", zone.columns);
      for (const card of zone.cards) wrap.append(cardNode(shown(card), actFor(card), changed, colours, zone.owner, lastBy));
      if (zone.count !== null && zone.count !== undefined && zone.count > zone.cards.length && zone.kind !== "grid") {
        wrap.append(el("span", { class: "cf-more" }, cardsText(zone.count)));
      }
      if (!zone.cards.length && !zone.count) wrap.append(el("p", { class: "cf-none" }, t("web.table.none")));
      body.append(wrap);
    }
    if (zoneTargets.length) {
      const label = zoneTargets.length === 1 ? zoneTargets[0].label : t("web.table.choose", { label: zone.label });
      head.append(
        el("button", {
          type: "button",
          "data-zone": zone.id,
          class: `cf-zone-button ${state.selected ? "cf-hint" : ""}`,
          "aria-label": label,
          title: label,
          onclick: () => pick(zone.id, zone.label),
          text: label,
        }),
      );
    }
    section.append(body);
    if (zone.note) section.append(el("p", { class: "cf-note" }, zone.note));
    zones.append(section);
  }

  // the actions that point at nothing on screen, a menu of several, the step in progress
  const panel = el("div", { class: "cf-actions", role: "group", "aria-label": t("web.table.moves") });
  if (interactive) {
    if (state.menu) {
      const menu = el("div", { class: "cf-menu", role: "group", "aria-label": t("web.table.choose", { label: state.menu.label }) });
      menu.append(el("p", { class: "cf-menu-title" }, t("web.table.choose", { label: state.menu.label })));
      for (const choice of candidates(state.menu.target)) {
        menu.append(el("button", { type: "button", class: "cf-action", onclick: () => choose(choice), "data-notation": choice.notation, text: choice.label }));
      }
      panel.append(menu);
    }
    if (state.selected || state.menu) {
      panel.append(
        el("button", {
          type: "button",
          class: "cf-action cf-cancel",
          onclick: (event) => {
            // by keyboard (Escape, or Enter here) the focus goes back to where the step began:
            // the card put back, else the card or place whose menu closes
            const back = state.selected || (state.menu && state.menu.target);
            state.selected = null;
            state.menu = null;
            redraw();
            if (!back || event.detail !== 0) return;
            const id = CSS.escape(back);
            const node = container.querySelector(`button[data-card="${id}"], button[data-zone="${id}"]`);
            if (node) node.focus();
          },
          text: t("web.table.cancel"),
        }),
      );
    }
    const loose = all.filter((a) => !(a.target && onScreen.has(a.target)) && !(a.source && onScreen.has(a.source)));
    for (const choice of loose) {
      panel.append(el("button", { type: "button", class: "cf-action", onclick: () => choose(choice), "data-notation": choice.notation, text: choice.label }));
    }
  }
  root.append(panel, zones);

  // keep the keyboard's place: the same card or move if it is still there, else the first move
  const active = document.activeElement;
  const hadFocus = active && active !== document.body && container.contains(active);
  const focusKey = hadFocus ? active.dataset.card || active.dataset.notation || active.dataset.zone : null;
  container.replaceChildren(root);
  if (hadFocus) {
    const same = focusKey
      ? [...root.querySelectorAll("button")].find(
          (b) => (b.dataset.card || b.dataset.notation || b.dataset.zone) === focusKey,
        )
      : null;
    const next = same || root.querySelector(".cf-menu button, .cf-hint, button.cf-actionable, .cf-actions button, .cf-zone-button");
    if (next) next.focus({ preventScroll: true });
  }
  tickClocks(container);
  return root;
}

function resultNode(display, outcome) {
  const box = el("section", { class: "cf-result", "aria-label": t("web.table.result") });
  box.append(el("h2", {}, t("web.table.result")));
  if (outcome && Array.isArray(outcome.scores)) {
    const order = outcome.scores.map((_, i) => i).sort((a, b) => (outcome.ranks[a] ?? 0) - (outcome.ranks[b] ?? 0));
    const table = el("table", { class: "cf-scores" });
    for (const seat of order) {
      const player = (display.players || []).find((p) => p.seat === seat);
      // the presenter's result lines say how each score was made, in the reader's language;
      // without them the outcome's details (as the engine names them) stand in
      const details = display.result && display.result.length ? {} : (outcome.details || [])[seat] || {};
      const breakdown = Object.entries(details)
        .map(([k, v]) => `${k.replaceAll("_", " ")}: ${typeof v === "object" ? JSON.stringify(v) : v}`)
        .join("; ");
      const winner = (outcome.winners || []).includes(seat);
      table.append(
        el(
          "tr",
          { class: winner ? "cf-winner" : "" },
          el("td", {}, t("web.table.rank", { rank: outcome.ranks[seat] })),
          el("th", { scope: "row" }, player ? player.name : String(seat + 1), winner ? ` — ${t("web.table.winner")}` : ""),
          el("td", { class: "cf-total" }, String(outcome.scores[seat])),
          el("td", { class: "cf-breakdown" }, breakdown),
        ),
      );
    }
    box.append(table);
  }
  if (display.result && display.result.length) {
    const list = el("ul", { class: "cf-result-lines" });
    for (const line of display.result) list.append(el("li", {}, line));
    box.append(list);
  }
  return box;
}

/** Draw the log ``messages`` (oldest first) into ``container``, newest in view. */
export function renderLog(container, messages) {
  const list = container.querySelector("ol.cf-log") || el("ol", { class: "cf-log", "aria-live": "polite" });
  const have = list.children.length;
  const cleared = have > messages.length;
  if (cleared) list.replaceChildren();
  for (let i = list.children.length; i < messages.length; i++) {
    const m = messages[i];
    list.append(el("li", { "data-id": m.id || "" }, m.text));
  }
  const added = cleared || list.children.length !== have || !list.parentNode;
  if (!list.parentNode) container.replaceChildren(list);
  // the newest line in view; reading the heights makes the browser lay the page out at once,
  // so only when lines came (a draw that changed nothing else in the log costs no layout),
  // and just before the next frame is painted, when the rest of the page is drawn too (read
  // in the middle of drawing, the page would be laid out twice)
  if (added && !scrolling.has(container)) {
    scrolling.add(container);
    requestAnimationFrame(() => {
      scrolling.delete(container);
      const shown = container.querySelector("ol.cf-log");
      if (!shown) return;
      shown.scrollTop = shown.scrollHeight;
      if (container.scrollHeight > container.clientHeight) container.scrollTop = container.scrollHeight;
    });
  }
  return list;
}

/** The log containers whose scroll to the newest line waits for the next frame. */
const scrolling = new Set();
