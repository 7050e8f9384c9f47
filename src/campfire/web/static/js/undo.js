// Taking back a move (docs/protocol.md "Undo", docs/web.md): the "Take back my move" button
// while this seat made the table's last step at a table that allows it, the request shown to the
// other people with Accept and Decline (to a spectator without them), and how it ended. The
// server decides what may be taken back; a refusal comes back as an error frame (a notice).

import { el } from "./dom.js";
import { t } from "./i18n.js";

export class UndoPanel {
  /**
   * @param {HTMLElement} parent where the panel goes (first in it)
   * @param {object} hooks {ask(), answer(seq, accept), name(seat)}
   */
  constructor(parent, hooks) {
    this.hooks = hooks;
    this.request = null; // the open request's undo frame (status "asked"), or null
    this.button = el("button", { type: "button", class: "cf-button", id: "cf-undo-ask", hidden: true, onclick: () => this.ask() }, t("web.undo.button"));
    this.box = el("div", { class: "cf-confirm cf-undo-request", id: "cf-undo-request", role: "alert", hidden: true });
    this.panel = el("section", { class: "cf-undo", id: "cf-undo" }, this.button, this.box);
    parent.prepend(this.panel);
  }

  ask() {
    this.button.disabled = true; // one request per click: the answer (or a refusal) says more
    this.hooks.ask();
  }

  /** Show the button when ``allowed`` and this seat made the last step (``lastSeat``). */
  draw(state, allowed, lastSeat) {
    const mine = state && state.seat !== null && state.status === "running" && lastSeat === state.seat;
    const show = Boolean(allowed && mine && !this.request);
    if (this.button.hidden === show) this.button.disabled = false;
    this.button.hidden = !show;
  }

  /** The server refused something this page sent (a request, an answer): the buttons work again. */
  refused() {
    this.button.disabled = false;
    for (const b of this.box.querySelectorAll("button")) b.disabled = false;
  }

  /** A snapshot for another game, or a new connection: a request shown is history. */
  reset() {
    this.request = null;
    this.box.hidden = true;
    this.box.replaceChildren();
  }

  /**
   * An ``undo`` frame; ``seat`` is this page's (null: a spectator), ``log`` the client's log
   * (the asker's move is named by its lines). Returns the line that ends it for the game log
   * (null: none).
   */
  receive(frame, seat, log) {
    const name = this.hooks.name(frame.seat);
    this.button.disabled = false;
    if (frame.status === "asked") {
      this.request = frame;
      const move = log.filter((m) => m.step === frame.seq).map((m) => m.text).join(" ");
      const parts = [];
      if (frame.seat === seat) {
        const names = frame.waiting.map((s) => this.hooks.name(s)).join(", ");
        parts.push(el("p", {}, t("web.undo.waiting", { names })));
      } else {
        parts.push(el("p", {}, move ? t("web.undo.asked", { name, move }) : t("web.undo.asked.last", { name })));
        if (seat !== null && frame.waiting.includes(seat)) {
          parts.push(
            el(
              "p",
              {},
              el("button", { type: "button", class: "cf-button cf-primary", id: "cf-undo-accept", onclick: () => this.answer(true) }, t("web.undo.accept")),
              " ",
              el("button", { type: "button", class: "cf-button", id: "cf-undo-decline", onclick: () => this.answer(false) }, t("web.undo.decline")),
            ),
          );
        }
      }
      this.box.replaceChildren(...parts);
      this.box.hidden = false;
      return null;
    }
    this.reset();
    if (frame.status === "accepted") return t("web.undo.accepted", { name });
    if (frame.status === "declined") return t("web.undo.declined", { name: this.hooks.name(frame.by) });
    return t(`web.undo.${frame.status}`);
  }

  answer(accept) {
    const request = this.request;
    if (!request) return;
    for (const b of this.box.querySelectorAll("button")) b.disabled = true;
    this.hooks.answer(request.seq, accept);
  }
}
