// The table page's "Players" panel for a signed-in person (docs/accounts.md, "Moderation"):
// each other person at the table with *Report* (a category and a reason, sent to the operator)
// and *Block* (no shared tables, no chat from them; only a seat that is an account's can be
// blocked: the server says so otherwise). A guest sees nothing of it. The writes carry the
// session's CSRF token (GET /api/account), as the account page's do.

import { el, notice } from "./dom.js";
import { t } from "./i18n.js";
import { accountCall, accountState } from "./lobby-api.js";

const CATEGORIES = ["abuse", "cheating", "spam", "name", "other"];

export class ModeratePanel {
  /**
   * @param {Element} parent the side column (the panel goes last)
   * @param {number} tableId
   */
  constructor(parent, tableId) {
    this.tableId = tableId;
    this.csrf = null;
    this.seat = null;
    this.seats = [];
    this.open = null; // the seat whose report form is open
    this.list = el("ul", { class: "cf-moderate-list" });
    this.details = el(
      "details",
      { class: "cf-panel cf-moderate", id: "cf-moderate", hidden: true },
      el("summary", {}, el("h2", { class: "cf-moderate-title" }, t("web.moderate.title"))),
      el("p", { class: "cf-help" }, t("web.moderate.help")),
      this.list,
    );
    parent.append(this.details);
    accountState().then((answer) => {
      if (!answer.ok || !answer.body.user) return; // a guest: no panel
      this.csrf = answer.body.csrf;
      this.draw();
    });
  }

  /** The page's seat and the table's seats (from each snapshot). */
  setSeat(seat, seats) {
    const before = JSON.stringify([this.seat, this.seats]);
    this.seat = seat;
    this.seats = seats || [];
    if (JSON.stringify([this.seat, this.seats]) !== before) this.draw();
  }

  others() {
    return this.seats.filter((s) => s.kind === "human" && s.seat !== this.seat);
  }

  draw() {
    const people = this.others();
    this.details.hidden = !this.csrf || people.length === 0;
    if (this.details.hidden) return;
    this.list.replaceChildren(...people.map((s) => this.item(s)));
  }

  item(seat) {
    const name = seat.nickname || t("web.lobby.seat", { number: seat.seat + 1 });
    const row = el(
      "li",
      { class: "cf-moderate-person", "data-seat": String(seat.seat) },
      el("span", { class: "cf-moderate-name" }, name),
      " ",
      el("button", { type: "button", class: "cf-button", "aria-label": t("web.moderate.report.name", { name }), onclick: () => this.toggle(seat.seat) }, t("web.moderate.report")),
      " ",
      el("button", { type: "button", class: "cf-button", "aria-label": t("web.moderate.block.name", { name }), onclick: () => this.block(seat.seat, name) }, t("web.account.block")),
    );
    if (this.open === seat.seat) row.append(this.form(seat.seat, name));
    return row;
  }

  form(seat, name) {
    const category = el("select", { id: `cf-moderate-category-${seat}` });
    for (const key of CATEGORIES) category.append(new Option(t(`web.report.${key}`), key));
    const reason = el("textarea", { id: `cf-moderate-reason-${seat}`, maxlength: "1000", rows: "3", required: true });
    return el(
      "form",
      {
        class: "cf-moderate-form",
        "aria-label": t("web.moderate.report.name", { name }),
        onsubmit: (event) => {
          event.preventDefault();
          this.report(seat, category.value, reason.value.trim());
        },
      },
      el("p", {}, el("label", { for: category.id }, t("web.account.report.category")), " ", category),
      el("p", {}, el("label", { for: reason.id }, t("web.account.report.reason")), " ", reason),
      el("p", {}, el("button", { type: "submit", class: "cf-button cf-primary" }, t("web.account.report.send"))),
    );
  }

  toggle(seat) {
    this.open = this.open === seat ? null : seat;
    this.draw();
  }

  async report(seat, category, reason) {
    const body = { table: this.tableId, seat, category, reason };
    const answer = await accountCall("POST", "/api/account/report", body, this.csrf);
    if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
    this.open = null;
    this.draw();
    notice(t("web.account.reported"), "info", 5000);
  }

  async block(seat, name) {
    const answer = await accountCall("POST", "/api/account/blocks", { table: this.tableId, seat }, this.csrf);
    if (!answer.ok) return notice(t("web.error.server", { message: answer.message }), "error");
    notice(t("web.moderate.blocked", { name }), "info", 5000);
  }
}
