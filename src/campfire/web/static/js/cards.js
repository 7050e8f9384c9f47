// Cards as SVG, drawn by us from a display model's CardFace: label, short code, colour,
// symbol (a letter that tells the colour without seeing it), face up or down, empty place,
// marks. A game may add its own art (registerArt) and a way to read a card code it was shown
// privately (registerDecoder: Tracker's peeked card); neither is needed to play.

import { t } from "./i18n.js";

/** The palette names presenters use → fill and ink colours (readable on white). */
export const PALETTE = {
  red: ["#d64541", "#fff"],
  blue: ["#2f6fd6", "#fff"],
  yellow: ["#f2c230", "#222"],
  green: ["#2e9e5b", "#fff"],
  purple: ["#8a4fc7", "#fff"],
  orange: ["#ee8a2b", "#222"],
  white: ["#f4f1ea", "#222"],
  black: ["#333", "#fff"],
};

const ART = {};
const DECODERS = {};

/** Optional art of a game: ``draw(card) → SVG markup or null`` drawn in the card's middle. */
export function registerArt(game, draw) {
  ART[game] = draw;
}

/** How a game's private card code (a peek) becomes a CardFace-like object. */
export function registerDecoder(game, decode) {
  DECODERS[game] = decode;
}

/** A CardFace for the card ``code`` a seat was shown privately, at the place ``id``. */
export function faceFromCode(game, code, id) {
  const decode = DECODERS[game];
  const face = decode ? decode(code) : null;
  return {
    id,
    label: String(code),
    short: String(code).slice(0, 4),
    face_up: true,
    colour: null,
    symbol: null,
    empty: false,
    marks: [],
    ...(face || {}),
  };
}

export function escapeXml(text) {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

/** The accessible name of a card: its label, else its code, else "face down"/"empty". */
export function cardName(card) {
  const marks = card.marks && card.marks.length ? ` (${card.marks.join(", ")})` : "";
  if (card.empty) return (card.short ? `${card.short}: ${t("web.table.empty")}` : t("web.table.empty")) + marks;
  if (!card.face_up && !card.label) {
    return (card.short ? `${card.short}: ${t("web.table.face_down")}` : t("web.table.face_down")) + marks;
  }
  return (card.label || card.short) + marks;
}

const drawn = new Map();

/** SVG markup of one card (60×84 units; the page sizes it); the same face is drawn once. */
export function cardSvg(card, game = "") {
  const key = `${game}|${card.label}|${card.short}|${card.face_up}|${card.colour}|${card.symbol}|${card.empty}`;
  let svg = drawn.get(key);
  if (svg === undefined) {
    svg = drawCard(card, game);
    if (drawn.size > 2000) drawn.clear();
    drawn.set(key, svg);
  }
  return svg;
}

function drawCard(card, game) {
  const W = 60;
  const H = 84;
  const parts = [`<svg class="cf-card-svg" viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false">`];
  if (card.empty) {
    parts.push(
      `<rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="6" class="cf-empty-place"/>`,
    );
    if (card.short) {
      parts.push(`<text x="${W / 2}" y="${H / 2 + 5}" class="cf-empty-text">${escapeXml(card.short)}</text>`);
    }
  } else if (!card.face_up && !card.label) {
    parts.push(
      `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="6" class="cf-back"/>`,
      `<rect x="6" y="6" width="${W - 12}" height="${H - 12}" rx="4" class="cf-back-inner"/>`,
      `<path d="M${W / 2} 18 L${W - 14} ${H / 2} L${W / 2} ${H - 18} L14 ${H / 2} Z" class="cf-back-diamond"/>`,
    );
    if (card.short) {
      parts.push(`<text x="${W / 2}" y="${H / 2 + 5}" class="cf-back-text">${escapeXml(card.short)}</text>`);
    }
  } else {
    const [fill, ink] = PALETTE[card.colour] || ["#fffdf7", "#222"];
    const coloured = card.colour in PALETTE;
    parts.push(`<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="6" class="cf-face"/>`);
    if (coloured) {
      parts.push(`<rect x="5" y="5" width="${W - 10}" height="${H - 10}" rx="4" fill="${fill}"/>`);
    }
    const art = ART[game] ? ART[game](card) : null;
    if (art) parts.push(art);
    const short = card.short || (card.label || "").slice(0, 4);
    const size = short.length <= 2 ? 22 : short.length === 3 ? 17 : 13;
    parts.push(
      `<text x="${W / 2}" y="${H / 2 + size / 3}" font-size="${size}" class="cf-face-text" fill="${coloured ? ink : "#222"}">${escapeXml(short)}</text>`,
    );
    if (card.symbol) {
      const ink2 = coloured ? ink : "#222";
      parts.push(
        `<text x="9" y="17" font-size="11" class="cf-corner" fill="${ink2}">${escapeXml(card.symbol)}</text>`,
        `<text x="${W - 9}" y="${H - 9}" font-size="11" class="cf-corner" fill="${ink2}">${escapeXml(card.symbol)}</text>`,
      );
    }
  }
  parts.push("</svg>");
  return parts.join("");
}

// ----- Tracker: the card a seat peeked at (its code reaches only that seat) ---------------
const TRIBES = ["red", "blue", "yellow", "green", "purple", "orange"];
const LETTERS = ["R", "B", "Y", "G", "P", "O"];
registerDecoder("tracker", (code) => {
  const m = /^([SF])-T(\d)-\d+$/i.exec(String(code));
  if (!m) return null;
  const tribe = Number(m[2]);
  const colour = TRIBES[tribe] || null;
  const scout = m[1].toUpperCase() === "S";
  const colourWord = colour ? t(`web.colour.${colour}`) : "";
  return {
    label: t(scout ? "web.tracker.scout" : "web.tracker.false", {
      colour: colourWord,
      card: String(code).toUpperCase(),
    }),
    short: scout ? `S:${LETTERS[tribe]}` : "f",
    colour,
    symbol: LETTERS[tribe] || null,
  };
});
