"""Taking back a move in the browser: two people, one asks, the other accepts by clicking.

Dudab for two: a draw shows the drawer a card (the undo is refused, and the page says why); a
card played from the hand onto a column shows nobody anything new (the undo is asked, accepted
and the board is back as it was).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from tests.server.live_server import http

from .people import (
    click_something,
    create_table,
    join_table,
    seq_of,
    start,
    until,
    wait_for_js,
)


def _mover(pages: list[Any]) -> tuple[Any, Any]:
    """The page whose person is to act now, and the other one."""
    found = until(
        pages[0],
        lambda: next((p for p in pages if p.locator("#cf-board .cf-banner-you").count()), None),
    )
    assert found is not None, "nobody is to act"
    return found, next(p for p in pages if p is not found)


def _play_a_card(page: Any) -> None:
    """Pick up a card of the hand and put it on the first place offered (a menu's first move)."""
    board = page.locator("#cf-board")
    board.locator("button.cf-card[aria-pressed]").first.click()
    board.locator(".cf-hint").first.click()
    menu = board.locator(".cf-menu button")
    if menu.count():
        menu.first.click()


def _zones(page: Any) -> list[str]:
    """The board's zones as text, without the marks of the last moves (a snapshot, as after
    an undo, starts without them)."""
    texts: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#cf-board [data-zone]')].map((zone) => {
          const copy = zone.cloneNode(true);
          copy.querySelectorAll('.cf-last-badge').forEach((badge) => badge.remove());
          return copy.textContent;
        })"""
    )
    return texts


def test_a_move_is_taken_back_when_the_other_person_accepts(server: Any, new_page: Any) -> None:
    ann, bob = new_page(), new_page()
    table = create_table(ann, server.base, "dudab", 2, ["open"], name="Ann")
    join_table(bob, server.base, table, "Bob")
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    pages = [ann, bob]
    # the table allows it by default (two people, no clock): its options say so
    ann.locator("#cf-options").get_by_text(re.compile("may be taken back")).wait_for()

    # a draw showed the drawer a card: refused, and the page says why
    drawer, other = _mover(pages)
    assert drawer.locator("#cf-undo-ask").is_hidden()  # nothing of theirs to take back yet
    before = seq_of(drawer)
    drawer.get_by_role("button", name=re.compile("^Draw")).first.click()
    wait_for_js(drawer, "(n) => +document.body.dataset.seq > n", before)
    drawer.get_by_role("button", name="Take back my move").click()
    notice = drawer.locator("#cf-notice")
    notice.get_by_text(re.compile("cannot be taken back")).wait_for()
    assert other.locator("#cf-undo-accept").count() == 0

    notice.wait_for(state="hidden")  # (it goes after a few seconds)

    # a card played from the hand: asked, accepted by a click, the board is back (a play that
    # captured and showed a card is refused like the draw: the next turn's play is tried)
    rng = random.Random(1)
    for _ in range(12):
        player, asked = _mover(pages)
        seq = seq_of(player)
        hand = player.locator("#cf-board button.cf-card[aria-pressed]").count()
        if not hand:  # no card of the hand to play at this step (a draw, a Jungle): play on
            for _ in range(50):  # bounded: a menu or a picked-up card takes a second click
                if seq_of(player) > seq:
                    break
                click_something(player, rng)
                player.wait_for_timeout(150)
            continue
        board_before = _zones(player)
        _play_a_card(player)
        wait_for_js(player, "(n) => +document.body.dataset.seq > n", seq)
        player.get_by_role("button", name="Take back my move").click()
        waiting = player.locator("#cf-undo-request").get_by_text(re.compile("Waiting for"))
        refused = player.locator("#cf-notice").get_by_text(re.compile("cannot be taken back"))
        until(player, lambda: waiting.count() or refused.count())  # noqa: B023
        if waiting.count():
            break
        refused.wait_for(state="hidden")
    else:
        raise AssertionError("every card played showed someone a card")
    request = asked.locator("#cf-undo-request")
    request.get_by_text(re.compile("asks to take back their move")).wait_for()
    asked.get_by_role("button", name="Accept").click()
    for page in pages:
        wait_for_js(page, "(n) => +document.body.dataset.seq === n", seq)
        page.locator("#cf-log").get_by_text(re.compile("took back a move")).wait_for()
        assert page.locator("#cf-undo-request").is_hidden()
    player.locator("#cf-board .cf-banner-you").wait_for()  # their turn again
    assert player.locator("#cf-board button.cf-card[aria-pressed]").count() == hand
    assert _zones(player) == board_before
    assert player.locator("#cf-undo-ask").is_hidden()
    assert ann.errors == [] and bob.errors == []


def test_the_lobby_offers_undo_at_a_casual_table_of_people_and_never_in_real_time(
    server: Any, new_page: Any
) -> None:
    page = new_page()
    page.goto(f"{server.base}/")
    box = page.get_by_label(re.compile("^Undo"))
    page.get_by_label("Game").select_option("dudab")
    page.get_by_label("Players").select_option("2")
    page.get_by_label("Seat 2", exact=True).select_option("easy")
    assert not box.is_checked()  # a bot's table: off
    page.get_by_label("Seat 2", exact=True).select_option("open")
    assert box.is_checked() and box.is_enabled()  # two people, no clock: on
    page.get_by_label("Clock", exact=True).select_option(label="60 s per move")
    assert not box.is_checked()  # a clock: off
    page.get_by_label("Clock", exact=True).select_option(label="No clock")
    assert box.is_checked()
    realtime = next(
        name
        for name, modes in json.loads(http("GET", f"{server.base}/api/play-modes")[1]).items()
        if "realtime-claims" in modes
    )
    page.get_by_label("Game").select_option(realtime)
    page.get_by_label("Seat 2", exact=True).select_option("open")
    assert not box.is_checked() and box.is_disabled()  # real time: never
    page.get_by_label("Seat 2", exact=True).select_option("easy")
    page.get_by_label(re.compile("^Real time")).set_checked(False)
    page.get_by_label("Seat 2", exact=True).select_option("open")  # (real time again)
    assert box.is_disabled()
    assert page.errors == []
