// The lobby's HTTP API (docs/protocol.md) and the seats this browser holds (localStorage).

import { langHeaders, t } from "./i18n.js";

/** A lobby request: GET without a body, POST with one; ``{ok, status, body, message, code}``. */
export async function api(path, body, token) {
  const headers = langHeaders(body !== undefined ? { "Content-Type": "application/json" } : {});
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const answer = await fetch(path, {
      method: body !== undefined ? "POST" : "GET",
      headers,
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    let parsed = null;
    try {
      parsed = await answer.json();
    } catch (_) {
      parsed = null;
    }
    const message = parsed && parsed.error ? parsed.error.message : answer.statusText;
    const code = parsed && parsed.error ? parsed.error.code : null;
    return { ok: answer.ok, status: answer.status, body: parsed, message, code };
  } catch (exc) {
    return { ok: false, status: 0, body: null, message: String(exc) };
  }
}

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch (_) {
    return null;
  }
}

/** The seat this browser holds at ``table`` ({seat, token, invites?}) or null. */
export function seatFor(table) {
  return read(`campfire.seat.${table}`);
}

export function storeSeat(table, seat) {
  localStorage.setItem(`campfire.seat.${table}`, JSON.stringify(seat));
}

export function forgetSeat(table) {
  localStorage.removeItem(`campfire.seat.${table}`);
}

/** A friend's personal invitation: the table's page with the seat's token in the fragment. */
export function inviteLink(table, invite) {
  return `${location.origin}/t/${table}#seat=${invite.seat}&token=${encodeURIComponent(invite.token)}`;
}

let gamesCache = null;
/** The games by name (GET /api/games): title, players, options with help texts. */
export async function gameTitles() {
  if (!gamesCache) {
    const answer = await api("/api/games");
    gamesCache = answer.ok ? Object.fromEntries(answer.body.map((g) => [g.name, g])) : {};
  }
  return gamesCache;
}

// ----- options in words -------------------------------------------------------------------
// GET /api/games gives each option its ``label`` (its name in words), ``labels`` (words for
// choices, by the value written as text) and ``seat`` (its values are seats counted from 0).

/** A code word in a readable form: underscores as spaces. */
function readable(value) {
  return String(value).replaceAll("_", " ");
}

/** The option's name in words (its label, else its name made readable). */
export function optionLabel(option) {
  if (option.label) return option.label;
  const words = readable(option.name);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value of ``option`` in words: its label, a seat as "Player N", yes / no, else readable. */
export function choiceLabel(option, value) {
  const key = String(value);
  if (option.labels && key in option.labels) return option.labels[key];
  if (option.seat && Number.isInteger(value) && value >= 0) return t("web.option.player", { number: value + 1 });
  if (typeof value === "boolean") return t(value ? "web.option.yes" : "web.option.no");
  return readable(value);
}

/** The choices of ``option`` a table of ``players`` can take (a seat's: only its seats). */
export function choicesFor(option, players) {
  const all = option.choices || [];
  if (!option.seat) return all;
  return all.filter((v) => String(v) in (option.labels || {}) || (Number.isInteger(v) && v >= 0 && v < players));
}

/**
 * The options in force at a table, one line each ("Start player: Player 2"): ``values`` by
 * name (a table's ``options``, those that differ from the defaults), the words from ``game``
 * (GET /api/games); an option the game does not declare is shown made readable.
 */
export function optionLines(game, values) {
  const declared = Object.fromEntries(((game && game.options) || []).map((o) => [o.name, o]));
  return Object.entries(values || {}).map(([name, value]) => {
    const option = declared[name] || { name };
    return {
      name,
      text: t("web.option.value", { option: optionLabel(option), value: choiceLabel(option, value) }),
      help: option.help || "",
    };
  });
}

// ----- accounts (docs/accounts.md) --------------------------------------------------------
// The session is an HttpOnly cookie; a write it authenticates carries the CSRF token.

/** An account request (``method`` with a JSON ``body``, the session's ``csrf`` token). */
export async function accountCall(method, path, body, csrf) {
  const headers = langHeaders(body !== undefined ? { "Content-Type": "application/json" } : {});
  if (csrf) headers["X-CSRF-Token"] = csrf;
  try {
    const answer = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    let parsed = null;
    try {
      parsed = await answer.json();
    } catch (_) {
      parsed = null;
    }
    const message = parsed && parsed.error ? parsed.error.message : answer.statusText;
    return { ok: answer.ok, status: answer.status, body: parsed, message };
  } catch (exc) {
    return { ok: false, status: 0, body: null, message: String(exc) };
  }
}

/** Who is signed in: ``{user, csrf, mail}`` (GET /api/account). */
export function accountState() {
  return accountCall("GET", "/api/account");
}

/** The seats this browser holds as a guest, as a sign-up claims them: ``[{table, token}]``. */
export function guestSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const found = /^campfire\.seat\.(\d{1,12})$/.exec(key || "");
    const seat = found ? read(key) : null;
    if (seat && typeof seat.token === "string") out.push({ table: Number(found[1]), token: seat.token });
  }
  return out.slice(0, 100);
}
