"""The last move on the board, and the log beside it, as people see them in the browser.

A move by another player outlines the cards and zones it changed in that player's colour, with
their mark in the zone's heading; a card that moved slides to its place, unless the person asked
for reduced motion (then nothing moves, and the highlight is still there). On a 1280×800 page
the log is a column beside the board that stays in view; on a 390×844 phone its latest line is
in a bar at the bottom of the screen, and one tap opens the whole log.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from tests.server.live_server import http

from .people import click_something, create_table, join_table, start, until, wait_for_js

#: what the page highlights as the last moves: each card's and zone's id, seat and colour, and
#: the marks in the zones' headings; the players' colours and marks
_LAST = """() => {
  const css = (node, name) => getComputedStyle(node).getPropertyValue(name).trim();
  const last = [...document.querySelectorAll("#cf-board .cf-last")].map((node) => ({
    id: node.dataset.card || node.dataset.zone, seat: node.dataset.lastSeat,
    colour: css(node, "--cf-last"), outline: getComputedStyle(node).outlineStyle,
  }));
  const badges = [...document.querySelectorAll("#cf-board .cf-last-badge")].map((b) => ({
    mark: b.textContent, title: b.title, seat: b.closest("[data-last-seat]").dataset.lastSeat,
  }));
  const panels = Object.fromEntries([...document.querySelectorAll("#cf-board .cf-player")].map(
    (p) => [p.dataset.seat, { colour: css(p, "--cf-seat"),
      mark: p.querySelector(".cf-seat-badge").textContent }]));
  return { last, badges, panels };
}"""


def test_a_move_by_another_player_is_highlighted_in_their_colour(
    server: Any, new_page: Any
) -> None:
    ann, bob = new_page(), new_page(390, 844)
    table = create_table(ann, server.base, "dudab", 2, ["open"], name="Ann")
    join_table(bob, server.base, table, "Bob")
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    rng = random.Random(7)

    def bob_moved() -> bool:
        seen = ann.evaluate(_LAST)
        if any(x["seat"] == "1" for x in seen["last"]):
            return True
        # whoever is to play clicks what their page offers (Ann's moves, then Bob's)
        click_something(ann, rng) or click_something(bob, rng)
        return False

    assert until(ann, bob_moved, 60), "Bob's move never showed on Ann's page"
    seen = ann.evaluate(_LAST)
    bobs = [x for x in seen["last"] if x["seat"] == "1"]
    assert bobs, seen
    # outlined, in Bob's colour (the colour of his panel), never only by colour: his mark too
    bob_panel = seen["panels"]["1"]
    for item in bobs:
        assert item["colour"] == bob_panel["colour"], item
        assert item["outline"] == "solid", item
    marks = [b for b in seen["badges"] if b["seat"] == "1"]
    assert marks and all(b["mark"] == bob_panel["mark"] for b in marks), seen["badges"]
    assert all(b["title"] == "Last move: Bob" for b in marks), marks
    assert ann.errors == [] and bob.errors == []


#: counts the animations the page starts (Element.animate, the Web Animations API), each with
#: the card's id and how many animations the card runs right after
_COUNT_ANIMATIONS = """
window.__animated = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const made = animate.apply(this, args);
  const card = this.dataset ? this.dataset.card || "" : "";
  window.__animated.push([card, this.getAnimations().length]);
  return made;
};
"""


def _seat_pages(server: Any, new_page: Any, game: str) -> tuple[Any, Any]:
    """Ann's seat (against a bot) on two pages: normal motion, and reduced motion."""
    seats = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "bot", "level": "easy"}]
    status, text = http(
        "POST", f"{server.base}/api/tables", {"game": game, "players": 2, "seats": seats}
    )
    assert status == 201, text
    made = json.loads(text)
    table, token = made["table"]["id"], made["tokens"]["0"]
    pages = []
    for reduce in (False, True):
        page = new_page()
        page.add_init_script(_COUNT_ANIMATIONS)
        if reduce:
            page.emulate_media(reduced_motion="reduce")
        page.goto(f"{server.base}/t/{table}#seat=0&token={token}")
        page.locator("#cf-waiting").wait_for()
        pages.append(page)
    status, text = http("POST", f"{server.base}/api/tables/{table}/start", {}, token=token)
    assert status == 200, text
    for page in pages:
        page.locator("#cf-board .cf-table-view").wait_for()
    return pages[0], pages[1]


def test_a_moved_card_slides_unless_reduced_motion_is_asked_for(server: Any, new_page: Any) -> None:
    normal, reduced = _seat_pages(server, new_page, "dudab")
    assert reduced.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    rng = random.Random(11)

    def slid() -> bool:
        if normal.evaluate("window.__animated.length"):
            return True
        click_something(normal, rng)  # Ann plays on the page with motion (a card to a column)
        return False

    assert until(normal, slid, 90), "no card of Ann's ever slid"
    animated = normal.evaluate("window.__animated")
    # a card of the board slid, and was animating right then
    assert all(card and running >= 1 for card, running in animated), animated
    # the page that asked for reduced motion got the same frames: nothing moved, the last move
    # is highlighted all the same
    seq = normal.evaluate("document.body.dataset.seq")
    wait_for_js(reduced, "(seq) => Number(document.body.dataset.seq) >= Number(seq)", seq)
    assert reduced.evaluate("window.__animated") == []
    assert reduced.evaluate("document.getAnimations().length") == 0
    assert reduced.evaluate("document.querySelectorAll('#cf-board .cf-last').length") > 0
    assert normal.errors == [] and reduced.errors == []


#: draws a display, then the next with a card moved (``[from, to]``: face down, so only the
#: step's ``moved`` says where it came from), as the table page does; what slid
_SLIDE = """async ([first, second, moved]) => {
  const { renderTable } = await import("/static/js/render.js");
  const { cardPlaces, slide } = await import("/static/js/motion.js");
  const box = document.createElement("div");
  document.body.append(box);
  renderTable(box, first, {});
  const before = cardPlaces(box);
  renderTable(box, second, {});
  const slid = slide(box, before, moved);
  return { slid, running: slid.map((id) =>
    box.querySelector(`[data-card="${id}"]`).getAnimations().length) };
}"""


def _grid(empty: int) -> dict[str, Any]:
    cards = [
        {"id": f"pos:{i}", "label": "", "short": str(i), "face_up": False, "empty": i == empty}
        for i in range(8)
    ]
    return {
        "game": "x", "seat": 0, "status": "", "prompt": "", "actions": [], "over": False,
        "players": [{"seat": 0, "name": "Ann", "score": "", "facts": [], "to_act": False,
                     "you": True}],
        "zones": [{"id": "board", "label": "Board", "kind": "grid", "columns": 4, "owner": None,
                   "cards": cards}],
    }  # fmt: skip


def test_a_step_that_says_a_card_moved_slides_it_from_where_it_was(
    server: Any, new_page: Any
) -> None:
    page = new_page()
    page.goto(f"{server.base}/")
    wait_for_js(page, "(document.documentElement?.lang ?? '') !== ''")
    # pos:6 moves to pos:1 (was empty there, is empty where it was)
    moved = [["pos:6", "pos:1"]]
    drawn = page.evaluate(_SLIDE, [_grid(1), _grid(6), moved])
    assert drawn == {"slid": ["pos:1"], "running": [1]}
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(_SLIDE, [_grid(1), _grid(6), moved]) == {"slid": [], "running": []}
    assert page.errors == []


#: where the log is: its panel, its last line, the board, the bottom bar (bounding boxes; null
#: when not shown) and the page's scroll
_WHERE = """() => {
  const box = (node) => {
    if (!node || !node.getClientRects().length) return null;
    const r = node.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  };
  const lines = [...document.querySelectorAll("#cf-log li")];
  const last = lines[lines.length - 1];
  return {
    panel: box(document.querySelector("#cf-log-panel")),
    title: box(document.querySelector("#cf-log-title")),
    logBox: box(document.querySelector("#cf-log")),
    last: box(last), lastText: last ? last.textContent : null, count: lines.length,
    board: box(document.querySelector("#cf-board")),
    bar: box(document.querySelector("#cf-bottom-bar")),
    latest: box(document.querySelector("#cf-log-latest .cf-log-line:last-child")),
    latestText: document.querySelector("#cf-log-latest .cf-log-line:last-child")?.textContent,
    height: innerHeight, width: innerWidth, scrollY,
  };
}"""


def _lines(page: Any, at_least: int) -> None:
    rng = random.Random(5)

    def enough() -> bool:
        if page.locator("#cf-log li").count() >= at_least:
            return True
        click_something(page, rng)
        return False

    assert until(page, enough, 60), "the log never grew"


def test_on_a_phone_the_log_opens_with_one_tap_and_shows_the_last_move(
    server: Any, new_page: Any
) -> None:
    ann = new_page(390, 844)
    create_table(ann, server.base, "apache", 2, ["easy"], name="Ann")
    start(ann)
    _lines(ann, 6)
    where = ann.evaluate(_WHERE)
    # the latest line is in sight at the bottom of the screen, the whole log is not
    assert where["panel"] is None, where
    assert where["latest"] and 0 <= where["latest"]["top"] < where["latest"]["bottom"] <= 844
    assert where["latestText"] == f"{where['count']}. {where['lastText']}"
    ann.get_by_role("button", name=re.compile("^Game log")).click()
    open_ = ann.evaluate(_WHERE)
    # one tap: the log is on the screen, its newest line in view inside it
    assert open_["panel"] and open_["panel"]["top"] >= 0 and open_["panel"]["bottom"] <= 844
    assert open_["logBox"]["top"] - 1 <= open_["last"]["top"]
    assert open_["last"]["bottom"] <= open_["logBox"]["bottom"] + 1, open_
    assert (
        ann.get_by_role("button", name=re.compile("^Game log")).get_attribute("aria-expanded")
        == "true"
    )
    ann.get_by_role("button", name="Close").click()
    assert ann.evaluate(_WHERE)["panel"] is None
    assert ann.errors == []


def test_on_a_desktop_the_log_is_beside_the_board_and_stays_in_view(
    server: Any, new_page: Any
) -> None:
    ann = new_page(1280, 800)
    create_table(ann, server.base, "tracker", 3, ["easy", "easy"], name="Ann")
    start(ann)
    _lines(ann, 4)
    where = ann.evaluate(_WHERE)
    assert where["bar"] is None, where  # no bar: the log itself is on the screen
    panel, board = where["panel"], where["board"]
    # beside the board, right of it, level with it
    assert panel and panel["left"] >= board["right"], where
    assert panel["top"] < board["bottom"] and board["top"] < panel["bottom"], where
    # the board scrolled to its end (a person looking at its last row): the log stays in view,
    # its title and newest line on the screen
    ann.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    scrolled = ann.evaluate(_WHERE)
    assert scrolled["scrollY"] > 0, scrolled
    assert scrolled["title"]["top"] >= 0 and scrolled["last"]["bottom"] <= 800, scrolled
    assert scrolled["logBox"]["top"] - 1 <= scrolled["last"]["top"], scrolled
    assert ann.errors == []
