// What every page shares: building DOM nodes, the notice line, and the page's start (its texts
// in the chosen language, the [data-t] elements filled, the language switcher in its slot).

import { chosenLanguage, languageSwitcher, loadStrings, t } from "./i18n.js";

/** The element with ``id``. */
export const $ = (id) => document.getElementById(id);

/**
 * A new ``tag`` element. ``attrs``: ``class``, ``text`` (its text), ``on<event>`` (a listener),
 * any other attribute (``true``: present without a value; ``null``/``undefined``/``false``: left
 * out). ``children``: nodes or texts; ``null``/``undefined``/``false`` are skipped.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Show ``text`` in the page's #cf-notice (empty: hide it); hidden again after ``hideAfterMs``. */
export function notice(text, kind = "info", hideAfterMs = 0) {
  const box = $("cf-notice");
  box.textContent = text;
  box.className = `cf-notice cf-notice-${kind}`;
  box.hidden = !text;
  clearTimeout(notice.timer);
  if (text && hideAfterMs) notice.timer = setTimeout(() => (box.hidden = true), hideAfterMs);
}

/** Fill every ``[data-t]`` element with its text. */
export function fillTexts() {
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
}

/**
 * Start a page: fetch the texts of the chosen language, fill the ``[data-t]`` elements and put
 * the language switcher (``onChange``: what a new choice does; reloading by default) in
 * #cf-lang-slot.
 */
export async function startPage(onChange) {
  await loadStrings(chosenLanguage());
  fillTexts();
  $("cf-lang-slot").replaceChildren(languageSwitcher(onChange));
}
