// The page of a bad link (campfire/server/pages.py): the server wrote it in the language of
// ?lang= or Accept-Language; here it follows the language the other pages use (?lang=, else
// the switcher's saved choice, else the browser's), and gets the switcher. Each text is an
// element with data-t (its id) and data-params (its placeholders' values, JSON).

import { $ } from "./dom.js";
import { chosenLanguage, LANGUAGES, languageSwitcher, loadStrings, t } from "./i18n.js";

/** Fill the page's texts, its title and its rules links in the language loaded. */
async function fill(lang) {
  for (const node of document.querySelectorAll("[data-t]")) {
    let params = {};
    try {
      params = JSON.parse(node.dataset.params || "{}");
    } catch (_) {
      params = {};
    }
    node.textContent = t(node.dataset.t, params);
  }
  document.title = `${$("cf-missing-title").textContent} · ${t("web.app.title")}`;
  const links = document.querySelectorAll("a[data-game]");
  if (!links.length) return;
  let titles = {};
  try {
    const answer = await fetch("/api/games", { headers: { "Accept-Language": lang } });
    titles = Object.fromEntries((await answer.json()).map((g) => [g.name, g.title]));
  } catch (_) {
    titles = {}; // the titles the server wrote stay
  }
  for (const link of links) {
    link.href = `/rules/${link.dataset.game}?lang=${lang}`;
    if (titles[link.dataset.game]) link.textContent = titles[link.dataset.game];
  }
}

async function show(lang) {
  const served = document.documentElement.lang;
  const texts = await loadStrings(lang);
  if (Object.keys(texts).length) await fill(lang);
  else document.documentElement.lang = served; // not fetched: the server's texts stay
}

async function main() {
  const asked = new URLSearchParams(location.search).get("lang");
  const lang = asked && asked in LANGUAGES ? asked : chosenLanguage();
  if (lang !== document.documentElement.lang) await show(lang);
  else await loadStrings(lang); // the page is in it already: the texts for the switcher
  $("cf-lang-slot").replaceChildren(
    languageSwitcher(async (code) => {
      const params = new URLSearchParams(location.search);
      if (params.has("lang")) {
        params.delete("lang"); // the choice made now holds from here on
        const query = params.toString();
        history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}`);
      }
      document.body.dataset.ready = "0"; // until the texts are in the new language
      await show(code);
      document.body.dataset.ready = "1";
    }),
  );
  document.body.dataset.ready = "1";
}

main();
