"""Two people in two browsers and a bot play a whole game of Sparks at a live server.

The server is ``campfire serve`` in a process of its own, which knows Sparks as an installed
plugin (its entry point). Player one creates the table in the lobby, player two takes the open
seat by the invitation link; both play by clicking until the pages show the summary. The
record replays to the outcome the pages show, and no frame a page received holds a card of
another hand, or of the cards dealt to nobody, before it was played.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the browser tests need the server extra")

from campfire_sparks import GAME

from campfire.core import Record, replay
from tests.server.live_server import LiveServer
from tests.web import conftest as web
from tests.web.people import RESULT, create_table, join_table, play_to_the_end, record, start
from tests.web.watch import Witness

ROOT = Path(__file__).resolve().parents[2]
#: the browser tests' fixtures: a headless Chromium per module, pages under the server's CSP
browser = web.browser
new_page = web.new_page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``campfire serve`` in a process of its own: it finds Sparks by its entry point (the
    test environment's ``PYTHONPATH`` reaches the plugin's metadata, tests/conftest.py)."""
    live = LiveServer(None, tmp_path_factory.mktemp("server"))
    try:
        yield live
    finally:
        live.stop()


def _hidden(position: dict[str, Any], seat: int) -> set[str]:
    s = position["state"]
    return {c for p, hand in enumerate(s["hands"]) if p != seat for c in hand} | set(s["unused"])


def _check_frames(eye: Witness, data: dict[str, Any]) -> int:
    rec = Record.from_json(data)
    state = GAME.new_game(len(rec.players), GAME.options(rec.options), seed=rec.seed)
    hidden_at = []
    for seat, text in [*rec.actions, (None, None)]:
        hidden_at.append(_hidden(state.to_position(), eye.seat))
        if seat is not None and text is not None:
            state.apply(seat, GAME.parse_action(text))
    checked = 0
    for frame in eye.frames:
        if frame.get("view") is None and frame["type"] == "snapshot":
            continue
        sent = set(re.findall(r"[\w/-]+", json.dumps(frame)))
        leaked = hidden_at[frame["seq"]] & sent
        assert not leaked, (eye.seat, frame["seq"], sorted(leaked))
        checked += 1
    return checked


def test_two_people_and_a_bot_play_a_whole_game(server: LiveServer, new_page: Any) -> None:
    ann, bob = new_page(), new_page(390, 844)
    eyes = [Witness(ann, 0), Witness(bob, 1)]
    table = create_table(ann, server.base, "sparks", 3, ["open", "easy"], name="Ann")
    join_table(bob, server.base, table, "Bob")
    ann.get_by_text("Bob").first.wait_for()
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    clicks = play_to_the_end([ann, bob], random.Random(5), look=lambda i: eyes[i].look())
    assert clicks >= 10  # each person plays a card in each of the 5 tricks
    data = record(server.base, table)
    match = replay(Record.from_json(data), game=GAME)
    outcome = match.state.outcome()
    for page in (ann, bob):
        summary = page.locator(RESULT).inner_text()
        for seat, score in enumerate(outcome.scores):
            assert data["players"][seat]["name"] in summary
            assert f"{score:g}" in summary
        assert page.errors == []
    for eye in eyes:
        assert _check_frames(eye, data) > 5
    # the finished game in the replay page, stepped to its end
    ann.goto(f"{server.base}/replay")
    ann.get_by_label("Finished games").select_option(label=f"Table {table}, game 1: Sparks")
    ann.get_by_role("button", name="To the end").click()
    result = ann.locator("#cf-board .cf-result")
    result.wait_for()
    for seat, score in enumerate(outcome.scores):
        assert data["players"][seat]["name"] in result.inner_text()
        assert f"{score:g}" in result.inner_text()
    assert ann.errors == []
