"""Turn-based play in the browser: the lobby's form and the header's "your turn" badge.

A person creates a turn-based table (two days a move, the player loses on time) against a bot,
goes back to the lobby, where the header says it is their turn, opens the table from the
badge's list and moves there.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from tests.server.live_server import http

from .people import click_something, seq_of, start, until
from .test_axe import check


def test_a_person_plays_a_turn_based_table_from_the_your_turn_badge(
    server: Any, new_page: Any
) -> None:
    ann = new_page()
    ann.goto(f"{server.base}/")
    ann.get_by_label("Game").select_option("tracker")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_label("Seat 2", exact=True).select_option("easy")
    assert not ann.get_by_label("Time for each move").is_visible()
    ann.get_by_label("Clock", exact=True).select_option(
        label="Turn-based: hours or days for each move"
    )
    ann.get_by_label("Time for each move").fill("2")
    ann.get_by_label("Unit").select_option(label="days")
    ann.get_by_label("When the time runs out").select_option(label="the player loses the game")
    ann.get_by_role("button", name="Create table").click()
    ann.wait_for_url(re.compile(r"/t/\d+$"))
    table = int(ann.url.rsplit("/", 1)[1])
    status, text = http("GET", f"{server.base}/api/tables/{table}/settings")
    assert status == 200
    assert json.loads(text)["clock"] == {"kind": "turn", "seconds": 172800.0, "on_timeout": "loss"}
    start(ann)
    # a turn's clock shows days and hours
    until(ann, lambda: ann.locator('.cf-clock[data-running="1"]').count())
    assert re.fullmatch(
        r"\d+ d \d+ h", ann.locator('.cf-clock[data-running="1"]').first.inner_text()
    )
    # once the bot has moved (if it was first), it is Ann's turn: the lobby says so
    until(ann, lambda: ann.locator("#cf-board button:not(.cf-cancel)").count())
    ann.goto(f"{server.base}/")
    badge = ann.get_by_text(re.compile(r"^Your turn: \d+ tables?$"))
    badge.wait_for()
    badge.click()  # opens the list of the tables waiting for her
    link = ann.get_by_role("link", name=re.compile(rf"^Table {table}: Tracker, until "))
    link.wait_for()
    check(ann, "the lobby with the your-turn list open")  # axe-core: nothing serious
    ann.get_by_label("Clock", exact=True).select_option(
        label="Turn-based: hours or days for each move"
    )
    check(ann, "the lobby's form with a turn-based clock")
    link.click()
    ann.wait_for_url(f"**/t/{table}")
    ann.locator("#cf-board .cf-table-view").wait_for()
    before = seq_of(ann)
    rng = random.Random(3)
    until(ann, lambda: click_something(ann, rng))
    until(ann, lambda: seq_of(ann) > before)
    assert ann.errors == []
