// Cards as SVG, drawn by us from a display model's CardFace: label, short code, colour,
// symbol (a letter that tells the colour without seeing it), face up or down, empty place,
// marks, and the pictogram the presenter names (``icon``, one of ICONS) with the value drawn
// big above it (``rank``). Nothing here reads a game's codes or knows a game: a card whose
// icon is not in ICONS (or has none) but that has a rank is a number card (the rank big, in its
// colour); one with neither is drawn with its short code alone.

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

export function escapeXml(text) {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

/** The accessible name of a card: its label, else its code, else "face down"/"empty". */
export function cardName(card) {
  const marks = card.marks && card.marks.length ? ` (${card.marks.join(", ")})` : "";
  if (card.empty && card.label) return card.label + marks; // a place the game names in words
  if (card.empty) return (card.short ? `${card.short}: ${t("web.table.empty")}` : t("web.table.empty")) + marks;
  if (!card.face_up && !card.label) {
    return (card.short ? `${card.short}: ${t("web.table.face_down")}` : t("web.table.face_down")) + marks;
  }
  return (card.label || card.short) + marks;
}

const drawn = new Map();

/** SVG markup of one card (60×84 units; the page sizes it); the same face is drawn once. */
export function cardSvg(card) {
  const key = `${card.label}|${card.short}|${card.face_up}|${card.colour}|${card.symbol}|${card.empty}|${card.icon}|${card.rank}`;
  let svg = drawn.get(key);
  if (svg === undefined) {
    svg = drawCard(card);
    if (drawn.size > 2000) drawn.clear();
    drawn.set(key, svg);
  }
  return svg;
}

function drawCard(card) {
  const W = 60;
  const H = 84;
  const parts = [`<svg class="cf-card-svg" viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false">`];
  if (card.empty) {
    parts.push(
      `<rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="6" class="cf-empty-place"/>`,
    );
    const art = pictogram(card);
    if (art) {
      // a place that counts something (a game's centre): its pictogram faint, the count above
      parts.push(
        `<g class="cf-art cf-empty-art" data-art="${escapeXml(art.name)}" transform="translate(14 37)" fill="#b9a78e" stroke="#b9a78e">${art.svg("#b9a78e", false)}</g>`,
      );
      if (art.big) {
        parts.push(`<text x="${W / 2}" y="28" font-size="20" class="cf-face-text cf-value cf-empty-count" fill="#6b5a45">${escapeXml(art.big)}</text>`);
      }
    } else if (card.short) {
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
    const ink0 = coloured ? ink : "#222";
    const art = pictogram(card);
    if (art) {
      // the pictogram in the middle, the value (a number, ×2…) big above it
      parts.push(
        `<g class="cf-art" data-art="${escapeXml(art.name)}" transform="${art.big ? "translate(14 37)" : "translate(10 24) scale(1.25)"}" ` +
          `fill="${ink0}" stroke="${ink0}">${art.svg(ink0, coloured)}</g>`,
      );
      if (art.big) {
        const size = art.big.length <= 2 ? 22 : 17;
        parts.push(
          `<text x="${W / 2}" y="${15 + size / 2}" font-size="${size}" class="cf-face-text cf-value" fill="${ink0}">${escapeXml(art.big)}</text>`,
        );
      }
    } else if (card.rank !== null && card.rank !== undefined && card.rank !== "") {
      // a number card (a rank, no pictogram of ours): the rank big in the middle, in the ink of
      // its colour, and small in the two free corners
      const rank = String(card.rank);
      const size = rank.length <= 2 ? 34 : rank.length === 3 ? 24 : 17;
      parts.push(
        `<text x="${W / 2}" y="${H / 2 + size / 3}" font-size="${size}" class="cf-face-text cf-value cf-number" fill="${ink0}">${escapeXml(rank)}</text>`,
      );
      if (rank.length <= 2) {
        parts.push(
          `<text x="${W - 10}" y="17" font-size="10" class="cf-corner" fill="${ink0}">${escapeXml(rank)}</text>`,
          `<text x="10" y="${H - 9}" font-size="10" class="cf-corner" fill="${ink0}">${escapeXml(rank)}</text>`,
        );
      }
    } else {
      const short = card.short || (card.label || "").slice(0, 4);
      const size = short.length <= 2 ? 22 : short.length === 3 ? 17 : 13;
      parts.push(
        `<text x="${W / 2}" y="${H / 2 + size / 3}" font-size="${size}" class="cf-face-text" fill="${ink0}">${escapeXml(short)}</text>`,
      );
    }
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

// ----- pictograms, drawn by us -------------------------------------------------------------
// Each icon draws in a 32×32 box with the card's ink as fill and stroke (``ink``); on an
// uncoloured card (``coloured`` false) it may use its own natural colours instead.

const line = (d, w = 2) => `<path d="${d}" fill="none" stroke-width="${w}" stroke-linecap="round" stroke-linejoin="round"/>`;
const natural = (coloured, ink, own) => (coloured ? ink : own);

function figure(ink, { dress = false } = {}) {
  const body = dress ? "M8 31 L13 17 Q16 15 19 17 L24 31 Z" : "M10 31 L12 17 Q16 14 20 17 L22 31 Z";
  return `<circle cx="16" cy="11" r="4.2" stroke="none"/><path d="${body}" stroke="none"/>`;
}

/**
 * The icons a presenter may name (CardFace ``icon``): ``(ink, coloured) → SVG markup``. The
 * names are listed in docs/web.md ("Card faces"); a new icon is added here and there.
 */
export const ICONS = {
  chief: (ink) =>
    figure(ink) +
    line("M9 10 L9.5 3 M12 7 L12.5 0.5 M16 6 L16 -1 M20 7 L19.5 0.5 M23 10 L22.5 3", 2.2),
  maiden: (ink) => figure(ink, { dress: true }) + line("M11.5 11 L10 21 M20.5 11 L22 21", 1.8),
  warrior: (ink) =>
    figure(ink) + line("M22 30 L29 11", 2) + `<path d="M26 9 L32 11 L30 16 Z" stroke-width="1"/>`,
  hunter: (ink) =>
    figure(ink) + line("M25 5 Q33 18 25 31", 2) + line("M25 5 L25 31", 0.8) + line("M18 18 L31 18", 1.2),
  scout: (ink) => figure(ink) + line("M24 31 L24 2", 1.8) + `<path d="M21.5 6 L24 0 L26.5 6 Z" stroke="none"/>`,
  shaman: (ink) =>
    figure(ink, { dress: true }) +
    line("M25 31 L25 4", 1.8) +
    `<circle cx="25" cy="4" r="3" stroke="none"/>` +
    line("M13 7 L11 1 M19 7 L21 1", 1.6),
  baby: (ink) =>
    `<ellipse cx="16" cy="22" rx="12" ry="8" stroke="none" opacity="0.85"/>` +
    `<circle cx="16" cy="10" r="6" stroke="none"/>` +
    line("M6 30 Q16 36 26 30", 2),
  spy: (ink) =>
    `<path d="M1 16 Q16 3 31 16 Q16 29 1 16 Z" fill="none" stroke-width="2"/>` +
    `<circle cx="16" cy="16" r="5" stroke="none"/>`,
  healer: (ink, coloured) =>
    `<path d="M6 20 Q16 30 26 20 Z" stroke="none" fill="${natural(coloured, ink, "#8a5a2b")}"/>` +
    `<path d="M16 20 Q6 10 16 1 Q26 10 16 20 Z" stroke="none" fill="${natural(coloured, ink, "#2e9e5b")}"/>` +
    line("M16 19 L16 5", 1),
  imp: (ink) =>
    `<circle cx="16" cy="17" r="11" stroke="none"/>` +
    `<path d="M7 10 L3 1 L12 7 Z M25 10 L29 1 L20 7 Z" stroke="none"/>` +
    `<circle cx="12" cy="15" r="2.2" fill="#fff" stroke="none"/><circle cx="20" cy="15" r="2.2" fill="#fff" stroke="none"/>` +
    `<path d="M10 21 Q16 26 22 21" fill="none" stroke="#fff" stroke-width="2"/>`,
  jungle: (ink, coloured) =>
    `<rect x="14" y="16" width="4" height="15" stroke="none" fill="${natural(coloured, ink, "#8a5a2b")}"/>` +
    `<path d="M16 1 Q30 6 28 16 Q16 22 4 16 Q2 6 16 1 Z" stroke="none" fill="${natural(coloured, ink, "#2e9e5b")}"/>`,
  mammoth: (ink, coloured) =>
    `<path d="M6 12 Q7 3 15 4 Q20 6 24 8 Q31 10 30 20 L29 30 L25 30 L24 23 L15 23 L14 30 L10 30 L10 21 Q5 20 6 12 Z" stroke="none"/>` +
    line("M7 16 Q1 22 3 29", 3.2) +
    `<path d="M9 19 Q8 27 15 26 Q11 25 12 19 Z" stroke="none" fill="${coloured ? "#fffdf7" : "#d9c9a8"}"/>` +
    `<circle cx="10" cy="11" r="1.3" fill="${coloured ? "#0008" : "#fff"}" stroke="none"/>`,
  hand: () =>
    `<rect x="8" y="14" width="16" height="16" rx="5" stroke="none"/>` +
    `<rect x="8" y="4" width="3.6" height="13" rx="1.8" stroke="none"/>` +
    `<rect x="12.4" y="2" width="3.6" height="14" rx="1.8" stroke="none"/>` +
    `<rect x="16.8" y="3" width="3.6" height="14" rx="1.8" stroke="none"/>` +
    `<rect x="21" y="6" width="3.4" height="12" rx="1.7" stroke="none"/>` +
    `<rect x="1" y="16" width="10" height="3.6" rx="1.8" transform="rotate(35 8 18)" stroke="none"/>`,
  club: () =>
    `<g transform="rotate(28 16 16)"><path d="M14.6 32 L13.4 16 Q7 12 9 5 Q12 -1 17 0.5 Q24 2 23 9 Q22 14 18 16 L17.4 32 Z" stroke="none"/>` +
    `<circle cx="9" cy="9" r="2.6" stroke="none"/><circle cx="22.5" cy="5" r="2.4" stroke="none"/><circle cx="20" cy="13" r="2.2" stroke="none"/>` +
    `<rect x="13" y="24" width="6" height="2" fill="#fff" stroke="none" opacity="0.6"/></g>`,
  fur: () =>
    `<path d="M6 5 Q16 1 26 5 L30 11 Q25 16 30 22 L26 29 Q16 32 6 29 L2 22 Q7 16 2 11 Z" stroke="none"/>` +
    `<path d="M10 10 L14 14 M18 9 L22 13 M11 20 L15 24 M19 19 L23 23" stroke="#fff" stroke-width="1.6" opacity="0.7"/>`,
  tracks: () =>
    `<ellipse cx="10" cy="22" rx="4.5" ry="6.5" stroke="none"/>` +
    `<circle cx="6" cy="13" r="1.6" stroke="none"/><circle cx="10" cy="12" r="1.6" stroke="none"/><circle cx="14" cy="13" r="1.6" stroke="none"/>` +
    `<ellipse cx="22" cy="12" rx="4.5" ry="6.5" stroke="none"/>` +
    `<circle cx="18" cy="3" r="1.6" stroke="none"/><circle cx="22" cy="2" r="1.6" stroke="none"/><circle cx="26" cy="3" r="1.6" stroke="none"/>`,
  totem: (ink, coloured) => {
    const wood = natural(coloured, ink, "#8a5a2b");
    const paint = coloured ? "none" : "#f2c230";
    return (
      `<rect x="10" y="3" width="12" height="28" rx="1" stroke="none" fill="${wood}"/>` +
      `<path d="M2 9 L10 6 L10 12 Z M30 9 L22 6 L22 12 Z" stroke="none" fill="${natural(coloured, ink, "#d64541")}"/>` +
      `<path d="M10 12 L22 12 M10 21 L22 21" stroke="${coloured ? "#0005" : "#3b2a1c"}" stroke-width="1.2"/>` +
      `<circle cx="13.5" cy="7.5" r="1.5" fill="${paint}" stroke="none"/><circle cx="18.5" cy="7.5" r="1.5" fill="${paint}" stroke="none"/>` +
      `<circle cx="13.5" cy="16" r="1.5" fill="${paint}" stroke="none"/><circle cx="18.5" cy="16" r="1.5" fill="${paint}" stroke="none"/>` +
      `<path d="M13 26 L19 26" stroke="${paint === "none" ? "#0005" : paint}" stroke-width="1.5"/>`
    );
  },
  necklace: (ink, coloured) => {
    const beads = [];
    for (let i = 0; i <= 8; i++) {
      const a = Math.PI * (i / 8);
      const x = 16 - 13 * Math.cos(a);
      const y = 6 + 20 * Math.sin(a);
      const fill = coloured ? ink : i % 2 ? "#d64541" : "#2aa6a0";
      beads.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="2.8" fill="${fill}" stroke="none"/>`);
    }
    return line("M3 6 Q16 52 29 6", 1) + beads.join("");
  },
  tomahawk: (ink, coloured) =>
    `<path d="M5 30 L24 4" stroke-width="3.2" stroke-linecap="round" stroke="${natural(coloured, ink, "#8a5a2b")}"/>` +
    `<path d="M17 6 Q22 -1 30 5 Q26 11 29 16 Q21 15 17 6 Z" stroke="none" fill="${natural(coloured, ink, "#7b8794")}"/>`,
  buffalo: (ink, coloured) => {
    const fur = natural(coloured, ink, "#5b3a1e");
    return (
      `<g fill="${fur}" stroke="${fur}"><ellipse cx="19" cy="17" rx="11" ry="8" stroke="none"/>` +
      `<circle cx="12" cy="12" r="7" stroke="none"/><circle cx="6" cy="18" r="4.5" stroke="none"/>` +
      `<rect x="10" y="22" width="3.5" height="8" stroke="none"/><rect x="24" y="22" width="3.5" height="8" stroke="none"/></g>` +
      line("M3 14 Q1 9 4 8 M9 14 Q11 9 8 8", 1.6)
    );
  },
  teepee: (ink, coloured) =>
    `<path d="M16 4 L30 31 L2 31 Z" stroke="none" fill="${natural(coloured, ink, "#d9a066")}"/>` +
    line("M13 0 L19 9 M19 0 L13 9", 1.6) +
    `<path d="M16 19 L20 31 L12 31 Z" stroke="none" fill="${coloured ? "#0006" : "#5b3a1e"}"/>` +
    `<path d="M8 22 L24 22" stroke="${coloured ? "#0004" : "#d64541"}" stroke-width="2"/>`,
  horse: (ink, coloured) => {
    const coat = natural(coloured, ink, "#8a5a2b");
    return (
      `<path d="M8 31 L10 20 Q6 16 4 14 L3 9 Q10 2 18 3 L26 1 L24 6 Q30 12 28 20 L26 31 Z" stroke="none" fill="${coat}"/>` +
      `<path d="M18 3 Q24 10 26 20" fill="none" stroke="${coloured ? "#0005" : "#3b2a1c"}" stroke-width="2.5"/>` +
      `<circle cx="9" cy="9" r="1.3" fill="#fff" stroke="none"/>`
    );
  },
};

/** The pictogram of a card, or null: the fallback draws a number card, or the short code. */
export function pictogram(card) {
  const name = card.icon;
  if (!name || !Object.hasOwn(ICONS, name)) return null;
  return { name, big: card.rank ?? null, svg: ICONS[name] };
}
