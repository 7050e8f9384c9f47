// The lobby's HTTP API (docs/protocol.md) and the seats this browser holds (localStorage).

import { langHeaders } from "./i18n.js";

/** A lobby request: GET without a body, POST with one; ``{ok, status, body, message}``. */
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
    return { ok: answer.ok, status: answer.status, body: parsed, message };
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
