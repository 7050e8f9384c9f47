// The last move on the board (docs/web.md, "The last move"): which cards and zones the last
// steps changed, in the colour of the seat that made each one, and the cards they moved
// sliding from where they were to where they are (a FLIP animation). Data only: the ids come
// from each step's display (``changed``, ``moved``: docs/protocol.md), the faces from the
// drawn cards; the module knows no game.
//
//   const moves = new LastMoves();          moves.step(seat, ids) per step; moves.clear()
//   moves.byId()                            {id: seat} of the moves still shown
//   const before = cardPlaces(board);       before a redraw: where each card and zone was
//   slide(board, before, moved)             after it: the moved cards slide (none when the
//                                           person asked for reduced motion)

/** How long an earlier move stays highlighted once a later one came (ms). */
export const LAST_MS = 5000;
/** How long a moved card takes to slide to its place (ms). */
export const SLIDE_MS = 250;

/**
 * The moves shown on the board: each seat's last step (its ``changed`` ids). A seat's step
 * replaces its previous one; an earlier step than the newest fades after ``LAST_MS`` (the
 * newest stays until another comes, so the move a person is to answer is always shown).
 */
export class LastMoves {
  constructor() {
    this.moves = new Map(); // seat (or -1: a step no seat made) -> {ids, at, n}
    this.count = 0;
  }

  /** A step by ``seat`` (null: the game's own) changed ``ids``; ``now``: performance.now(). */
  step(seat, ids, now = performance.now()) {
    if (!ids || !ids.length) return;
    this.moves.set(seat ?? -1, { ids: [...ids], at: now, n: ++this.count });
  }

  clear() {
    this.moves.clear();
  }

  /** The ids to highlight now, each with the seat whose step changed it last ({id: seat}). */
  byId(now = performance.now()) {
    const newest = this.count;
    for (const [seat, move] of this.moves) {
      if (move.n !== newest && now - move.at > LAST_MS) this.moves.delete(seat);
    }
    const out = {};
    const order = [...this.moves.entries()].sort((a, b) => a[1].n - b[1].n);
    for (const [seat, move] of order) for (const id of move.ids) out[id] = seat;
    return out;
  }

  /** When the next earlier move fades (ms from ``now``), or null when none will. */
  nextFade(now = performance.now()) {
    const ends = [...this.moves.values()].filter((m) => m.n !== this.count).map((m) => m.at + LAST_MS - now);
    return ends.length ? Math.max(0, Math.min(...ends)) : null;
  }
}

/** Whether the person asked for less motion (the system's setting: no card slides). */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where each card (by ``data-card``, with its face) and zone (``data-zone``) of ``board`` is. */
export function cardPlaces(board) {
  const cards = new Map();
  for (const node of board.querySelectorAll(".cf-card[data-card]")) {
    cards.set(node.dataset.card, { rect: node.getBoundingClientRect(), face: node.dataset.face || "" });
  }
  const zones = new Map();
  for (const node of board.querySelectorAll("section[data-zone]")) zones.set(node.dataset.zone, node.getBoundingClientRect());
  return { cards, zones };
}

/**
 * Slide the cards that moved from where they were (``before``: ``cardPlaces`` before the
 * redraw) to where they are now: each ``[from, to]`` pair of the steps' ``moved`` (from a card,
 * else from a zone), and each face-up card that now lies where it did not, when exactly one
 * place showed that face before and no longer does (a card played from a hand to a column
 * keeps its face; places are named by position, so the face tells where it came from). The
 * cards that slid, or none when the person asked for reduced motion.
 */
export function slide(board, before, moved = []) {
  if (!before || reducedMotion()) return [];
  const now = cardPlaces(board);
  const nodeOf = (id) => board.querySelector(`.cf-card[data-card="${CSS.escape(id)}"]`);
  const starts = new Map(); // card id now -> the rect it starts from
  for (const [from, to] of moved) {
    const rect = before.cards.has(from) ? before.cards.get(from).rect : before.zones.get(from);
    if (rect && now.cards.has(to)) starts.set(to, rect);
  }
  // a face that left exactly one place and came to exactly one other
  const left = new Map();
  const came = new Map();
  for (const [id, was] of before.cards) {
    const is = now.cards.get(id);
    if (was.face && (!is || is.face !== was.face)) left.set(was.face, [...(left.get(was.face) || []), id]);
  }
  for (const [id, is] of now.cards) {
    const was = before.cards.get(id);
    if (is.face && (!was || was.face !== is.face)) came.set(is.face, [...(came.get(is.face) || []), id]);
  }
  for (const [face, ids] of came) {
    const from = left.get(face) || [];
    if (ids.length === 1 && from.length === 1 && !starts.has(ids[0])) starts.set(ids[0], before.cards.get(from[0]).rect);
  }
  const slid = [];
  for (const [id, start] of starts) {
    const node = nodeOf(id);
    if (!node) continue;
    const end = now.cards.get(id).rect;
    const dx = start.left + start.width / 2 - (end.left + end.width / 2);
    const dy = start.top + start.height / 2 - (end.top + end.height / 2);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    // the Web Animations API: no style attribute (the Content-Security-Policy allows it)
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
      duration: SLIDE_MS,
      easing: "cubic-bezier(0.2, 0.7, 0.3, 1)",
    });
    node.classList.add("cf-sliding");
    setTimeout(() => node.classList.remove("cf-sliding"), SLIDE_MS + 20);
    slid.push(id);
  }
  return slid;
}
