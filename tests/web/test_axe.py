"""Every page checked by axe-core in a real Chromium: no serious or critical violation.

axe-core (``tests/web/vendor/axe-core``, the npm package's ``axe.min.js``, for the tests only)
is put into the page through the browser's debugging protocol (``page.evaluate``), which the
server's Content-Security-Policy does not stop; the page itself runs under that policy as
always, and a violation of it still fails the test (``new_page``). The pages are the ones a
person sees: the lobby with tables listed, the waiting room of a table's creator, a table of
every game part of the way in (the person's turn: the moves shown, a hand), the replay viewer
with a finished game open, and a bad link's page; at a laptop's size (1280×800) and a phone's
(390×844), and in Hungarian as well as English.

A violation is reported with its rule, its help text and the elements it found.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.benchmark_scripts import load_script
from tests.server.live_server import http

from .people import create_table, join_table, start, until, wait_for_js
from .test_replay import bot_game

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
#: the impacts that fail a page
GRAVE = ("serious", "critical")
#: rules of a lesser impact the pages keep too (headings go down one level at a time: a
#: screen reader's list of headings reads as the page's outline)
KEPT = ("heading-order",)
#: the sizes: a laptop and a phone
SIZES = ((1280, 800), (390, 844))
#: game → players (three: the panels of others, their cards)
GAMES = {"apache": 3, "dudab": 3, "manitou": 3, "tracker": 3}

#: axe on the whole document; every violation with its impact, help and the elements found.
#: ``label-content-name-mismatch`` (WCAG 2.5.3) leaves out the buttons that show a card's
#: picture (a card to choose, a claim with the hand card it claims with): the characters
#: printed on a card (its rank, its colour's letter in the corners, a mark) are part of its
#: picture, not the button's label; its accessible name is the move (docs/web.md,
#: "Accessibility checks"). Every other control is checked by it.
_RUN = """async () => {
  const rule = "label-content-name-mismatch";
  const all = await axe.run(document, {
    resultTypes: ["violations"], rules: { [rule]: { enabled: false } },
  });
  const cards = await axe.run(
    { include: [["body"]], exclude: [["button.cf-card"], ["button.cf-claim:not(.cf-claim-pass)"]] },
    { resultTypes: ["violations"], runOnly: { type: "rule", values: [rule] } },
  );
  return [...all.violations, ...cards.violations].map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary.replace(/\\s+/g, " ")}`),
  }));
}"""


@cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def grave_violations(page: Any) -> list[dict[str, Any]]:
    """The serious and critical violations axe-core finds on the page as it is now (and those
    of the rules in ``KEPT``)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    found: list[dict[str, Any]] = page.evaluate(_RUN)
    return [v for v in found if v["impact"] in GRAVE or v["id"] in KEPT]


def check(page: Any, where: str) -> None:
    """Fail with every serious or critical violation of ``page`` (``where``: which page)."""
    found = grave_violations(page)
    lines = [
        f"{v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in found
    ]
    assert not found, f"axe-core on {where}:\n" + "\n".join(lines)


def at_each_size(page: Any, where: str) -> None:
    """Check the page at a laptop's size, then at a phone's (the same page, resized)."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # the layout of the new size settled (not an assertion)
        check(page, f"{where} at {width}×{height}")


def choose_hungarian(page: Any, base: str) -> None:
    """Pick Hungarian in the lobby's switcher; the browser keeps it for every page."""
    page.goto(f"{base}/")
    page.get_by_label("Language").select_option("hu")
    wait_for_js(page, "document.documentElement?.lang === 'hu'")


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_lobby_with_tables_listed(lang: str, server: Any, new_page: Any) -> None:
    seats = [{"kind": "open"}, {"kind": "bot", "level": "easy"}]
    status, text = http(
        "POST", f"{server.base}/api/tables", {"game": "tracker", "players": 2, "seats": seats}
    )
    assert status == 201, text
    page = new_page()
    if lang == "hu":
        choose_hungarian(page, server.base)
    page.goto(f"{server.base}/")
    page.locator(".cf-table-item").first.wait_for()
    page.locator("#cf-create select").first.wait_for()
    at_each_size(page, f"the lobby ({lang})")


def test_the_waiting_room_of_a_tables_creator(server: Any, new_page: Any) -> None:
    page = new_page()
    create_table(page, server.base, "dudab", 3, ["friend", "open"], name="Ann", friends=["Cleo"])
    page.locator("#cf-waiting").wait_for()
    page.get_by_role("button", name="Copy link").first.wait_for()
    at_each_size(page, "the waiting room")


def _table_in_play(server: Any, new_page: Any, game: str) -> Any:
    """A page of a person at a table of ``game`` with bots, some steps in, at their turn."""
    bench = load_script("web_browser")
    table, token = bench.person_table(server.base, game, GAMES[game])
    page = new_page()
    page.goto(bench.seat_link(server.base, table, token))
    page.locator("#cf-board .cf-table-view").wait_for()
    bench.play_until(page, 12, random.Random(f"axe/{game}"))
    return page


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_table_of_each_game_in_play(game: str, server: Any, new_page: Any) -> None:
    page = _table_in_play(server, new_page, game)
    assert page.locator("#cf-board button").count(), "no move shown to check"
    at_each_size(page, f"a table of {game}")


def test_the_claim_panel_of_a_real_time_table(server: Any, new_page: Any) -> None:
    """Real-time Apache between two people: the claim panel, beside the board on a laptop and
    a bottom sheet on a phone."""
    ann, bob = new_page(), new_page(390, 844)
    table = create_table(ann, server.base, "apache", 2, ["open"], name="Ann", realtime=True)
    join_table(bob, server.base, table, "Bob")
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    reveal = ann.get_by_role("button", name="Turn up the next prairie card")
    if not until(ann, reveal.count, 5):
        reveal = bob.get_by_role("button", name="Turn up the next prairie card")
    reveal.click()
    for page in (ann, bob):
        page.locator("#cf-realtime button").first.wait_for()
    check(ann, "a real-time claim window at 1280×800")
    check(bob, "a real-time claim window at 390×844")


def test_a_table_in_hungarian(server: Any, new_page: Any) -> None:
    page = new_page()
    choose_hungarian(page, server.base)
    bench = load_script("web_browser")
    table, token = bench.person_table(server.base, "manitou", 3)
    page.goto(bench.seat_link(server.base, table, token))
    page.locator("#cf-board .cf-table-view").wait_for()
    bench.play_until(page, 6, random.Random("axe/hu"))
    assert page.evaluate("document.documentElement.lang") == "hu"
    at_each_size(page, "a table in Hungarian")


def test_a_finished_table_with_its_summary(server: Any, new_page: Any) -> None:
    table = bot_game(server.base, "dudab", 2)
    page = new_page()
    page.goto(f"{server.base}/t/{table}")
    page.locator("#cf-board .cf-result").wait_for()
    at_each_size(page, "a finished table")


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_replay_viewer_with_a_game_open(lang: str, server: Any, new_page: Any) -> None:
    table = bot_game(server.base, "tracker", 2)
    page = new_page()
    if lang == "hu":
        choose_hungarian(page, server.base)
    page.goto(f"{server.base}/replay?table={table}&game=1&seat=0&step=5")
    wait_for_js(page, "document.body.dataset.step === '5'")
    at_each_size(page, f"the replay viewer ({lang})")


def test_the_replay_viewer_before_a_game_is_chosen(server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{server.base}/replay")
    page.locator("#cf-slider").wait_for(state="attached")
    at_each_size(page, "the empty replay viewer")


def test_the_lessons_and_a_lesson_asking_for_a_move(server: Any, new_page: Any) -> None:
    """Learn to play: the list of lessons, then a lesson with a move asked (outlined)."""
    page = new_page()
    page.goto(f"{server.base}/learn")
    page.locator("[data-lesson]").first.wait_for()
    at_each_size(page, "the list of lessons")
    page.locator("[data-lesson]").first.click()
    page.locator("body[data-lesson-step]").wait_for(state="attached")
    while page.locator("#cf-continue").is_visible():
        before = page.get_attribute("body", "data-lesson-step")
        page.click("#cf-continue")
        page.locator(f'body:not([data-lesson-step="{before}"])').wait_for(state="attached")
    page.locator("#cf-board .cf-asked").first.wait_for(state="attached")
    at_each_size(page, "a lesson asking for a move")


@pytest.mark.parametrize("address", ["/t/abc", "/rules/nothing", "/nowhere?lang=hu"])
def test_a_bad_links_page(address: str, server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{server.base}{address}")
    wait_for_js(page, "Boolean(document.getElementById('cf-lang-slot')?.children.length)")
    at_each_size(page, f"the page of {address}")


def test_the_check_finds_a_violation(server: Any, new_page: Any) -> None:
    """The check itself: a button without a name, put into the lobby, is reported."""
    page = new_page()
    page.goto(f"{server.base}/")
    page.locator("#cf-create select").first.wait_for()
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    found = grave_violations(page)
    assert [v["id"] for v in found] == ["button-name"], json.dumps(found, indent=1)


def test_the_play_now_waiting_page(server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{server.base}/play?game=apache&players=5&wait=300")
    page.locator(".cf-play-person").first.wait_for()  # waiting: the list and the countdown
    at_each_size(page, "the Play now waiting page")
    page.get_by_role("button", name="Stop waiting").click()
    page.wait_for_url(f"{server.base}/")
