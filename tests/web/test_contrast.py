"""The contrast of every state of the pages' controls, measured in a real Chromium.

axe-core (``test_axe.py``) sees each control only as it is when it runs. Here every visible
control of the lobby, the waiting room, a table of each game (its moves, its cards, the chat),
the replay viewer and a bad link's page is put in each of its states as a person would put it
— as it is, under the mouse, focused from the keyboard, and where the page has them disabled,
picked up (a card pressed) and highlighted as a place to go — and its colours are read back
with ``getComputedStyle``, the backgrounds and opacities of every box behind them composed as
the browser paints them. WCAG's ratios are asked of each:

- text (the control's own, and any element inside it with text): 4.5:1, large text (24 px, or
  18.66 px bold) 3:1 — disabled controls too, though WCAG leaves them out;
- the focus indicator (the outline, or a ring drawn with ``box-shadow``) against what is around
  the control: 3:1; so are a card's rings (movable, under the mouse, picked up, a place to go)
  and a text field's edge; a field's placeholder 4.5:1.

A failure names the page, the control (tag, classes, text), its state and the colours found.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.benchmark_scripts import load_script
from tests.server.live_server import http

from .people import create_table, wait_for_js
from .test_replay import bot_game

#: the colour arithmetic and the readings, put in the page once (window.__contrast)
_TOOLS = """() => {
  if (window.__contrast) return;
  const parse = (text) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(text || "");
    if (!m) return null;
    const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const clear = { r: 0, g: 0, b: 0, a: 0 };
  const over = (top, bottom) => {
    const a = top.a + bottom.a * (1 - top.a);
    if (a === 0) return clear;
    const mix = (k) => (top[k] * top.a + bottom[k] * bottom.a * (1 - top.a)) / a;
    return { r: mix("r"), g: mix("g"), b: mix("b"), a };
  };
  // what the screen shows where ``node`` paints ``colour`` (over its own background or not):
  // every box from there out, its background under and its opacity over what it paints
  const paint = (node, colour, ownBackground) => {
    let value = colour;
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const style = getComputedStyle(n);
      if (n !== node || ownBackground) value = over(value, parse(style.backgroundColor) || clear);
      value = { ...value, a: value.a * Number(style.opacity) };
    }
    return over(value, { r: 255, g: 255, b: 255, a: 1 });
  };
  const luminance = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const ratio = (x, y) => {
    const [a, b] = [luminance(x), luminance(y)].sort((p, q) => q - p);
    return Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100;
  };
  const hex = (c) => "#" + [c.r, c.g, c.b]
    .map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  const visible = (n) => {
    const box = n.getBoundingClientRect();
    const style = getComputedStyle(n);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden"
      && !n.closest("[hidden]");
  };
  // the elements inside ``node`` (itself too) that hold text of their own, not in a picture
  const texts = (node) => {
    const found = [];
    const walk = (n) => {
      if (n.nodeType !== 1 || n.namespaceURI !== "http://www.w3.org/1999/xhtml") return;
      if (!visible(n) || n.classList.contains("cf-sr-only")) return;
      const own = [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
      const field = n.matches(
        "input:not([type=checkbox]):not([type=radio]):not([type=range]), select, textarea");
      if (own || field) found.push(n);
      for (const c of n.children) walk(c);
    };
    walk(node);
    return found;
  };
  const textReadings = (node) => texts(node).map((n) => {
    const style = getComputedStyle(n);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const fg = paint(n, parse(style.color), true);
    const bg = paint(n, clear, true);
    return { of: (n.textContent || n.value || "").trim().slice(0, 30), need: large ? 3 : 4.5,
             ratio: ratio(fg, bg), colours: `${hex(fg)} on ${hex(bg)}` };
  });
  // a ring drawn by the control itself (its outline, or a box-shadow with no blur), against
  // what is around it (its parent's painting)
  const rings = (node) => {
    const style = getComputedStyle(node);
    const around = paint(node.parentElement, clear, true);
    const found = [];
    if (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2) {
      const c = paint(node, parse(style.outlineColor), false);
      found.push({ kind: "outline", ratio: ratio(c, around), colours: `${hex(c)}/${hex(around)}` });
    }
    const number = String.raw`(-?[\\d.]+)px`;
    const shadow = new RegExp(String.raw`^(rgba?\\([^)]+\\)) ` + Array(4).fill(number).join(" "))
      .exec(style.boxShadow);
    if (shadow && Number(shadow[4]) === 0 && Number(shadow[5]) >= 2) {
      const c = paint(node, parse(shadow[1]), false);
      found.push({ kind: "ring", ratio: ratio(c, around), colours: `${hex(c)}/${hex(around)}` });
    }
    return found;
  };
  const describe = (n) => {
    const name = (n.getAttribute("aria-label") || n.textContent || n.value || "").trim();
    const tag = n.tagName.toLowerCase();
    return `<${tag} class="${n.className}"> ${JSON.stringify(name.slice(0, 40))}`;
  };
  window.__contrast = { textReadings, rings, describe, visible, paint, ratio, parse, clear };
}"""

#: the controls a person can use on the page now, visible, each with a kind (tag and classes)
_CONTROLS = """() => {
  const css = "a[href], button, select, input, textarea, summary, [tabindex='0']";
  return [...document.querySelectorAll(css)].filter((n) => window.__contrast.visible(n))
    .map((n, i) => { n.dataset.contrastId = String(i);
      return { id: String(i), kind: `${n.tagName} ${n.className} ${n.disabled ? "disabled" : ""}`,
               ring: n.matches("button.cf-card, .cf-zone-button"),
               field: n.matches("input[type=text], input:not([type]), textarea") }; });
}"""

#: one control's readings in the state it is in now
_READ = """([id, state, ring, field]) => {
  const c = window.__contrast;
  const node = document.querySelector(`[data-contrast-id="${id}"]`);
  if (!node) return null;
  const failures = [];
  const said = `${c.describe(node)} ${state}`;
  for (const t of c.textReadings(node)) {
    if (t.ratio < t.need) {
      const text = JSON.stringify(t.of);
      failures.push(`${said}: text ${text} ${t.ratio}:1 < ${t.need} (${t.colours})`);
    }
  }
  const rings = c.rings(node);
  const best = rings.reduce((m, r) => Math.max(m, r.ratio), 0);
  if (state === "focused" && best < 3) {
    failures.push(`${said}: focus indicator ${best}:1 < 3 ${JSON.stringify(rings)}`);
  } else if (ring && rings.length && best < 3) {
    failures.push(`${said}: ring ${best}:1 < 3 ${JSON.stringify(rings)}`);
  }
  if (field) {
    const style = getComputedStyle(node);
    const edge = c.paint(node, c.parse(style.borderTopColor), false);
    const around = c.paint(node.parentElement, c.clear, true);
    const r = c.ratio(edge, around);
    if (parseFloat(style.borderTopWidth) > 0 && r < 3) {
      failures.push(`${said}: the field's edge ${r}:1 < 3`);
    }
    if (node.placeholder && !node.value) {
      const hint = c.paint(node, c.parse(getComputedStyle(node, "::placeholder").color), true);
      const r2 = c.ratio(hint, c.paint(node, c.clear, true));
      if (r2 < 4.5) failures.push(`${said}: the placeholder ${r2}:1 < 4.5`);
    }
  }
  return { failures, hovered: node.matches(":hover"), focused: node.matches(":focus-visible") };
}"""

#: at most this many controls of one kind are put through their states (a Tracker board has
#: sixty cards of the same kind)
PER_KIND = 3


def _states(page: Any, control: dict[str, Any], where: str) -> list[str] | None:
    """One control as it is, under the mouse and focused; ``None`` when the page redrew it."""
    from playwright.sync_api import Error

    args = [control["id"], "as it is", control["ring"], control["field"]]
    page.mouse.move(0, 0)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    read = page.evaluate(_READ, args)
    if read is None:
        return None
    failures: list[str] = read["failures"]
    node = page.locator(f'[data-contrast-id="{control["id"]}"]')
    try:
        node.scroll_into_view_if_needed(timeout=2000)
        box = node.bounding_box(timeout=2000)
    except Error:
        return None
    if box:
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        read = page.evaluate(_READ, [control["id"], "under the mouse", *args[2:]])
        if read is None:
            return None
        if read["hovered"]:  # not when something else covers it (a sticky bar)
            failures += read["failures"]
        page.mouse.move(0, 0)
    if "disabled" not in control["kind"]:
        page.keyboard.press("Shift")  # a key: the focus that follows shows (:focus-visible)
        try:
            node.focus(timeout=2000)
        except Error:
            return None
        read = page.evaluate(_READ, [control["id"], "focused", *args[2:]])
        if read is None:
            return None
        assert read["focused"], f"{where}: {control['kind']} does not show its focus"
        failures += read["failures"]
    return failures


#: how many times one control is measured before its redrawing fails the test
ATTEMPTS = 12


def contrast_failures(page: Any, where: str) -> list[str]:
    """Every control of the page as it is, under the mouse and focused: what fails WCAG's ratios.

    A table may redraw itself while it is measured (a peeked card turned back): the controls
    are then found again, and the one being measured is measured again.
    """
    page.evaluate(_TOOLS)

    def controls() -> dict[tuple[str, int], dict[str, Any]]:
        found: dict[tuple[str, int], dict[str, Any]] = {}
        count: dict[str, int] = {}
        for control in page.evaluate(_CONTROLS):
            count[control["kind"]] = count.get(control["kind"], 0) + 1
            if count[control["kind"]] <= PER_KIND:
                found[(control["kind"], count[control["kind"]])] = control
        return found

    listed = controls()
    assert listed, f"{where}: no control to measure"
    failures: list[str] = []
    for key in list(listed):
        # (a loaded machine measures slowly: a control may be redrawn several times over)
        for attempt in range(ATTEMPTS):
            if key not in listed:
                break  # gone from the page as it is now
            measured = _states(page, listed[key], where)
            if measured is not None:
                failures += measured
                break
            page.wait_for_timeout(50 * attempt)  # let the redraws settle (not an assertion)
            listed = controls()
        else:
            raise AssertionError(f"{where}: {key} redrawn every time it was measured")
    return [f"{where}: {f}" for f in failures]


def check(page: Any, where: str) -> None:
    """Fail with every control of ``page`` whose contrast is too low in some state."""
    page.wait_for_timeout(100)  # the page's drawing settled (not an assertion)
    failures = contrast_failures(page, where)
    assert not failures, "\n".join(failures)


def test_the_lobby(server: Any, new_page: Any) -> None:
    seats = [{"kind": "open"}, {"kind": "bot", "level": "easy"}]
    status, text = http(
        "POST", f"{server.base}/api/tables", {"game": "apache", "players": 2, "seats": seats}
    )
    assert status == 201, text
    page = new_page()
    page.goto(f"{server.base}/")
    page.locator(".cf-table-item").first.wait_for()
    page.locator("#cf-create select").first.wait_for()
    check(page, "the lobby")


def test_the_waiting_room(server: Any, new_page: Any) -> None:
    page = new_page()
    create_table(page, server.base, "tracker", 3, ["friend", "open"], friends=["Cleo"])
    page.get_by_role("button", name="Copy link").first.wait_for()
    check(page, "the waiting room")


@pytest.mark.parametrize("game", ["apache", "dudab", "manitou", "tracker"])
def test_a_table_in_play_with_the_chat(game: str, server: Any, new_page: Any) -> None:
    bench = load_script("web_browser")
    table, token = bench.person_table(server.base, game, 3)
    page = new_page()
    page.goto(bench.seat_link(server.base, table, token))
    page.locator("#cf-board .cf-table-view").wait_for()
    bench.play_until(page, 10, random.Random(f"contrast/{game}"))
    page.get_by_label("Chat message").wait_for()
    check(page, f"a table of {game}")


def test_a_card_picked_up_and_its_places(server: Any, new_page: Any) -> None:
    """Dudab's moves are a card, then its place: the card pressed, the places highlighted."""
    bench = load_script("web_browser")
    table, token = bench.person_table(server.base, "dudab", 2)
    page = new_page()
    page.goto(bench.seat_link(server.base, table, token))
    page.locator("#cf-board .cf-table-view").wait_for()
    rng = random.Random("contrast/pick")
    for _ in range(200):
        wait_for_js(page, "Boolean(document.querySelector('#cf-board .cf-banner-you'))")
        if page.locator("#cf-board button[aria-pressed=false]").count():
            break
        bench.click_something(page, rng)
    page.locator("#cf-board button[aria-pressed=false]").first.click()
    page.locator("#cf-board button[aria-pressed=true]").wait_for()
    assert page.locator("#cf-board .cf-hint").count(), "no place highlighted"
    check(page, "a card picked up")


def test_the_replay_viewer_at_its_first_step(server: Any, new_page: Any) -> None:
    table = bot_game(server.base, "manitou", 3)
    page = new_page()
    page.goto(f"{server.base}/replay?table={table}&game=1&seat=0&step=0")
    wait_for_js(page, "document.body.dataset.step === '0'")
    assert page.locator("#cf-back[disabled]").count(), "the step back is not disabled at step 0"
    check(page, "the replay viewer")


def test_a_bad_links_page(server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{server.base}/rules/nothing")
    wait_for_js(page, "Boolean(document.getElementById('cf-lang-slot')?.children.length)")
    check(page, "a bad link's page")


def test_the_measure_finds_a_pale_state(server: Any, new_page: Any) -> None:
    """The check itself: a link pale under the mouse, and a faint focus ring, are reported."""
    page = new_page()
    page.goto(f"{server.base}/rules/nothing")
    wait_for_js(page, "Boolean(document.getElementById('cf-lang-slot')?.children.length)")
    page.evaluate("""() => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(`.cf-missing-ways a:hover { color: #bbb !important;
          background: #fff !important; }
        .cf-missing-ways a:focus-visible { outline-color: #f2eee6 !important; }`);
      document.adoptedStyleSheets = [sheet];
    }""")
    failures = contrast_failures(page, "pale")
    said = sorted(f.split('"Back to the lobby" ', 1)[-1].split(":")[0] for f in failures)
    assert said == ["focused", "under the mouse"], failures
    assert "text" in failures[0] + failures[1] and "focus indicator" in failures[0] + failures[1]
