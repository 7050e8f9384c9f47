// The client's texts: fetched from GET /api/strings?lang=xx (campfire.web.strings.STRINGS,
// translated by the server), filled here. The language comes from the switcher (kept in
// localStorage), else navigator.language, else English.

export const LANGUAGES = { en: "English", hu: "Magyar", cs: "Čeština" };
const KEY = "campfire.lang";
let texts = {};
let language = "en";

/** The language chosen in the switcher, else the browser's, else English. */
export function chosenLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch (_) {
    /* storage may be off */
  }
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return "en";
}

/** Remember ``code`` as the language of every page. */
function chooseLanguage(code) {
  try {
    localStorage.setItem(KEY, code);
  } catch (_) {
    /* storage may be off */
  }
}

/** The language of the texts in force. */
export function currentLanguage() {
  return language;
}

/** Fetch the texts of ``lang`` (the chosen language by default). */
export async function loadStrings(lang = chosenLanguage()) {
  language = lang;
  document.documentElement.lang = lang;
  try {
    const answer = await fetch(`/api/strings?lang=${encodeURIComponent(lang)}`, {
      headers: { "Accept-Language": lang },
    });
    const body = await answer.json();
    texts = body.strings || {};
  } catch (_) {
    texts = {}; // the ids themselves show; the page still works
  }
  return texts;
}

/** Set the texts directly (tests, pages that fetched them already). */
export function setStrings(strings, lang = language) {
  texts = strings || {};
  language = lang;
}

/** The text ``id`` with its ``{placeholders}`` filled from ``params``. */
export function t(id, params = {}) {
  const template = id in texts ? texts[id] : id;
  return template.replace(/\{(\w+)(?::[^}]*)?\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

/**
 * A counted text: the variant of ``id`` for ``count`` in the page's language (``id#one``,
 * ``id#few``, ``id#many``, ``id#other``, chosen by ``Intl.PluralRules``), ``{count}`` filled.
 */
export function plural(id, count, params = {}) {
  let category = "other";
  try {
    category = new Intl.PluralRules(language).select(Number(count));
  } catch (_) {
    /* an unknown language: other */
  }
  const key = `${id}#${category}` in texts ? `${id}#${category}` : `${id}#other`;
  return t(key, { ...params, count });
}

/** A bot seat's name in the page's language: ``Bot 2 (easy)``, ``Bot 2 (könnyű)``. */
export function botName(number, level) {
  const levelWord = level ? t(`web.level.${level}`) : "";
  return t("web.seat.bot", { number, level: levelWord.startsWith("web.") ? level : levelWord });
}

/** A language switcher (a labelled <select>) that reloads the page in the chosen language. */
export function languageSwitcher(onChange = () => location.reload()) {
  const label = document.createElement("label");
  label.className = "cf-lang";
  label.append(t("web.lang.label") + " ");
  const select = document.createElement("select");
  select.id = "cf-lang";
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, false, code === language);
    select.append(option);
  }
  select.addEventListener("change", () => {
    chooseLanguage(select.value);
    onChange(select.value);
  });
  label.append(select);
  return label;
}

/** Headers for lobby requests: the language (and a JSON body type). */
export function langHeaders(extra = {}) {
  return { "Accept-Language": language, ...extra };
}
