// The table's chat panel (docs/protocol.md "Chat", docs/web.md): the players' channel, and for
// a spectator the spectators' channel too. Lines are always shown as text (textContent: never
// HTML). Muting is this browser's alone: the seats muted at a table are kept in localStorage
// and their lines hidden; the server knows nothing of it. The panel is a <details>, folded on a
// phone, with the count of lines that came while it was folded.

import { el } from "./dom.js";
import { plural, t } from "./i18n.js";

const MAX_CHARS = 300; // the server's MAX_CHAT
const KEEP = 200; // lines kept on the page
const SPECTATORS = "spectators"; // the mute key of the spectators' lines (they have no seat)

const muteKey = (tableId) => `campfire.chat.muted.${tableId}`;

function loadMuted(tableId) {
  try {
    const stored = JSON.parse(localStorage.getItem(muteKey(tableId)) || "[]");
    return new Set(Array.isArray(stored) ? stored.map(String) : []);
  } catch (_) {
    return new Set(); // storage off or unreadable: nobody muted
  }
}

function saveMuted(tableId, muted) {
  try {
    localStorage.setItem(muteKey(tableId), JSON.stringify([...muted]));
  } catch (_) {
    /* storage may be off: muting lasts as long as the page */
  }
}

export class ChatPanel {
  /**
   * @param {HTMLElement} parent where the panel goes (after its game log, else at its end)
   * @param {number} tableId
   * @param {(message: object) => boolean} send sends a client message on the table socket
   */
  constructor(parent, tableId, send) {
    this.tableId = tableId;
    this.send = send;
    this.seat = null; // this page's seat (null: a spectator)
    this.seats = []; // the snapshot's seats (names of seats without a line yet)
    this.lines = [];
    this.muted = loadMuted(tableId);
    this.unread = 0;
    this.pending = false; // a line was sent and neither came back nor was refused yet
    this.count = el("span", { class: "cf-chat-unread", "aria-live": "polite" });
    this.list = el("ol", { class: "cf-chat-lines", id: "cf-chat-lines", tabindex: "0", "aria-label": t("web.chat.title") });
    this.empty = el("p", { class: "cf-help cf-chat-empty" }, t("web.chat.empty"));
    this.mutedLine = el("p", { class: "cf-help cf-chat-muted", hidden: true });
    this.note = el("p", { class: "cf-help cf-chat-note" });
    this.input = el("input", {
      type: "text",
      id: "cf-chat-input",
      maxlength: String(MAX_CHARS),
      autocomplete: "off",
      "aria-label": t("web.chat.say"),
    });
    this.form = el(
      "form",
      { class: "cf-chat-form", onsubmit: (event) => this.submit(event) },
      this.input,
      el("button", { type: "submit", class: "cf-button cf-primary", id: "cf-chat-send" }, t("web.chat.send")),
    );
    this.details = el(
      "details",
      { class: "cf-panel cf-chat", id: "cf-chat", ontoggle: () => this.toggled() },
      el("summary", {}, el("h2", { class: "cf-chat-title" }, t("web.chat.title")), " ", this.count),
      this.note,
      this.empty,
      this.list,
      this.mutedLine,
      this.form,
    );
    // open beside the board on a wide screen, folded under it on a phone
    this.details.open = !window.matchMedia("(max-width: 700px)").matches;
    const log = parent.querySelector(".cf-log-panel");
    if (log) log.after(this.details);
    else parent.append(this.details);
    this.setSeat(null, []);
  }

  /** The page's seat and the table's seats (from each snapshot): what the panel says. */
  setSeat(seat, seats) {
    this.seat = seat;
    this.seats = seats || [];
    const spectator = seat === null;
    this.note.textContent = spectator ? t("web.chat.note.spectator") : t("web.chat.note.player");
    this.input.placeholder = spectator ? t("web.chat.placeholder.spectator") : t("web.chat.placeholder.player");
  }

  /** A ``chat`` frame: history (replaces what is shown) or a new line. */
  receive(frame) {
    if (frame.history) this.lines = [];
    else if (frame.lines.some((l) => l.seat === this.seat)) this.pending = false;
    for (const line of frame.lines) if (!this.lines.some((l) => l.id === line.id)) this.lines.push(line);
    this.lines = this.lines.slice(-KEEP);
    if (!frame.history && !this.details.open) {
      this.unread += frame.lines.filter((l) => !this.isMuted(l) && l.seat !== this.seat).length;
    }
    this.draw();
  }

  /** Whether an ``error`` frame answers the line just sent (too long, too fast, empty). */
  concerns(frame) {
    if (!this.pending || !["rate_limited", "too_large", "bad_message"].includes(frame.code)) return false;
    this.pending = false;
    return true;
  }

  /** A refusal of the server that concerns the chat (too long, too fast): shown by the input. */
  refused(message) {
    this.note.textContent = message;
    this.note.classList.add("cf-chat-refused");
  }

  muteKeyOf(line) {
    return line.seat === null ? SPECTATORS : String(line.seat);
  }

  isMuted(line) {
    return this.muted.has(this.muteKeyOf(line));
  }

  nameOf(line) {
    if (line.seat === null) return t("web.chat.spectator");
    const seat = this.seats.find((s) => s.seat === line.seat);
    return line.name || (seat && seat.nickname) || t("web.lobby.seat", { number: line.seat + 1 });
  }

  setMuted(key, on) {
    if (on) this.muted.add(key);
    else this.muted.delete(key);
    saveMuted(this.tableId, this.muted);
    this.draw();
  }

  toggled() {
    if (this.details.open) this.unread = 0;
    this.draw();
  }

  submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    if (this.send({ type: "chat", text: text.slice(0, MAX_CHARS) })) {
      this.pending = true;
      this.input.value = "";
      this.note.classList.remove("cf-chat-refused");
      this.setSeat(this.seat, this.seats);
    }
  }

  draw() {
    const shown = this.lines.filter((line) => !this.isMuted(line));
    const items = shown.map((line) => {
      // no mute on one's own lines (a spectator's: any spectator's, they are not told apart)
      const mine = line.seat === this.seat;
      const name = this.nameOf(line);
      const mute = mine
        ? null
        : el(
            "button",
            {
              type: "button",
              class: "cf-chat-mute",
              title: t("web.chat.mute", { name }),
              "aria-label": t("web.chat.mute", { name }),
              "data-mute": this.muteKeyOf(line),
              onclick: () => this.setMuted(this.muteKeyOf(line), true),
            },
            t("web.chat.mute.short"),
          );
      return el(
        "li",
        { class: `cf-chat-line cf-chat-${line.channel}`, "data-seat": line.seat === null ? "" : String(line.seat) },
        el("span", { class: "cf-chat-name" }, name),
        line.channel === SPECTATORS ? el("span", { class: "cf-chat-channel" }, t("web.chat.channel.spectators")) : null,
        ": ",
        el("span", { class: "cf-chat-text" }, line.text), // text, never HTML
        mute,
      );
    });
    // (reading the heights lays the page out at once: not while the list is empty)
    const follow =
      !this.list.firstChild || this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 8;
    this.list.replaceChildren(...items);
    if (follow) this.list.scrollTop = this.list.scrollHeight;
    this.empty.hidden = shown.length > 0;
    this.count.textContent = this.unread ? plural("web.chat.unread", this.unread) : "";
    const muted = [...this.muted];
    this.mutedLine.hidden = muted.length === 0;
    this.mutedLine.replaceChildren(
      t("web.chat.muted"),
      " ",
      ...muted.map((key) => {
        const name = key === SPECTATORS ? t("web.chat.spectators") : this.nameOf({ seat: Number(key), name: null });
        return el(
          "button",
          { type: "button", class: "cf-button cf-chat-unmute", "data-unmute": key, onclick: () => this.setMuted(key, false) },
          t("web.chat.unmute", { name }),
        );
      }),
    );
  }
}
