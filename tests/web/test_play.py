"""Two people in two browsers (and bots) play a complete game of every game, by clicking.

Player one creates the table in the lobby, player two opens the invitation link and takes the
open seat, player one starts; both then play only by clicking the cards, places and buttons
their table offers, until each page shows the end-of-game summary. The finished record replays
to the outcome the pages show.

Hidden information in the browser: every WebSocket frame each person's page received, and what
the page showed every few clicks, is checked against the replayed game (``watch.Witness``): no
card from a place that seat cannot look at, unless the seat may know it then.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import campfire
from campfire.core.records import Record, replay

from .people import RESULT, create_table, join_table, play_to_the_end, record, start
from .watch import Witness

#: game → (players, the other seats after the two people, the moves these people like)
GAMES: dict[str, tuple[int, list[str], str | None]] = {
    "tracker": (
        3,
        ["open", "easy"],
        r"^(Play \d+ trackers?|Collect|Stop collecting|Choose: Centre)",
    ),
    "dudab": (3, ["open", "easy"], r"^(Play|Choose)"),
    "manitou": (3, ["open", "easy"], None),
    "apache": (2, ["open"], None),
}


#: the long games (hundreds of clicks; 20-45 s each): still run by make test, started first
SLOW = {"apache", "dudab", "manitou", "tracker"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW else []) for n in sorted(GAMES)]
)
def test_two_people_and_bots_play_a_whole_game(name: str, server: Any, new_page: Any) -> None:
    players, seats, prefer = GAMES[name]
    ann, bob = new_page(), new_page(390, 844)
    eyes = [Witness(ann, 0), Witness(bob, 1)]
    # (two people: Apache's claims are timed by the server, the lobby's box is ticked and fixed)
    table = create_table(ann, server.base, name, players, seats, name="Ann")
    join_table(bob, server.base, table, "Bob")
    ann.get_by_text("Bob").first.wait_for()  # Ann sees who has joined
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    clicks = play_to_the_end(
        [ann, bob], random.Random(name), look=lambda i: eyes[i].look(), prefer=prefer
    )
    assert clicks > 5
    data = record(server.base, table)
    match = replay(Record.from_json(data), game=campfire.get_game(name))
    outcome = match.state.outcome()
    for page in (ann, bob):
        summary = page.locator(RESULT).inner_text()
        for seat, score in enumerate(outcome.scores):
            assert data["players"][seat]["name"] in summary
            assert f"{score:g}" in summary
        assert page.errors == []
    assert [p["name"] for p in data["players"]][:2] == ["Ann", "Bob"]
    for eye in eyes:
        eye.look()
        assert eye.check(data) > clicks // 4
