// Hints (docs/protocol.md "Hints", docs/learn.md): the "Hint" button (key ?) while this seat is to
// act at a table that allows hints, and the answer shown to this seat only. The server searches
// from this seat's knowledge alone and tells every connection that a hint was used (a log line);
// a refusal comes back as an error frame (a notice).

import { el } from "./dom.js";
import { t } from "./i18n.js";

export class HintPanel {
  /**
   * @param {HTMLElement} parent where the panel goes (first in it)
   * @param {object} hooks {ask()}
   */
  constructor(parent, hooks) {
    this.hooks = hooks;
    this.seq = null; // the sequence number the shown answer is for
    this.button = el(
      "button",
      { type: "button", class: "cf-button", id: "cf-hint-ask", title: t("web.hint.help"), "aria-keyshortcuts": "?", hidden: true, onclick: () => this.ask() },
      t("web.hint.button"),
    );
    this.box = el("p", { class: "cf-hint", id: "cf-hint", role: "status", "aria-live": "polite", hidden: true });
    this.panel = el("section", { class: "cf-hints", id: "cf-hints" }, this.button, this.box);
    parent.prepend(this.panel);
  }

  ask() {
    if (this.button.hidden || this.button.disabled) return;
    this.button.disabled = true; // one hint per click: the answer (or a refusal) says more
    this.box.textContent = t("web.hint.thinking");
    this.box.hidden = false;
    this.hooks.ask();
  }

  /** Show the button when ``allowed`` and this seat may act now; an old answer goes. */
  draw(state, allowed, mine) {
    const show = Boolean(allowed && state && state.seat !== null && state.status === "running" && mine);
    if (this.button.hidden === show) this.button.disabled = false;
    this.button.hidden = !show;
    if (this.seq !== null && state && state.seq !== this.seq) this.clear();
  }

  /** A ``hint`` frame: the answer for this seat. */
  receive(frame) {
    this.button.disabled = false;
    this.seq = frame.seq;
    // no iterations: the game's search had nothing to weigh here (the bot's rule of thumb)
    this.box.textContent = frame.iterations
      ? t("web.hint.answer", { move: frame.label, win: Math.round(frame.win * 100) })
      : t("web.hint.answer.plain", { move: frame.label });
    this.box.hidden = false;
  }

  /** The server refused the hint: the button works again. */
  refused() {
    this.button.disabled = false;
    if (this.seq === null) this.box.hidden = true;
  }

  clear() {
    this.seq = null;
    this.box.hidden = true;
    this.box.textContent = "";
    this.button.disabled = false;
  }
}
