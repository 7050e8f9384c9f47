"""A game goes on after a page reload and after a server restart.

Ann creates a Tracker table with a seat for a friend and sends Bob the friend's invitation
link (read from her waiting room); Bob opens it and is seated at once. They play a few moves by
clicking; Ann reloads her page and finds the same table, log and turn; the server is stopped and
started again on the same database, both pages reconnect by themselves (``since=``) and the
game goes on from where it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.live_server import LiveServer

from .people import click_something, create_table, seq_of, start, until


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of this test's own (the test stops it and starts another on its database)."""
    live = LiveServer(None, tmp_path)
    try:
        yield live
    finally:
        live.stop()


def _play(pages: list[Any], rng: random.Random, moves: int) -> None:
    """Click until ``moves`` steps were played (whoever is to act), and not one more.

    A page that shows the goal already clicks no more: the other page may still be a frame
    behind, and a click there answers an old step, which the server refuses as stale, so no
    move beyond the goal is on its way when this returns (the test compares what it saw then).
    """
    goal = seq_of(pages[0]) + moves
    for _ in range(400):
        behind = [p for p in pages if seq_of(p) < goal]
        if not behind:
            return
        if not any(click_something(p, rng) for p in behind):
            pages[0].wait_for_timeout(30)
    raise AssertionError(f"the game did not reach step {goal}")


def _settled(pages: list[Any]) -> int:
    """Wait until every page shows the same step, and still does a moment later; that step.

    A click sent just before the goal was seen may still be on its way (a loaded machine
    draws frames late): what the test then records is the step after it, not the one before.
    """
    for _ in range(100):
        steps = {seq_of(p) for p in pages}
        if len(steps) == 1:
            pages[0].wait_for_timeout(300)  # (no assertion on time: a move in flight lands)
            if {seq_of(p) for p in pages} == steps:
                return steps.pop()
        else:
            pages[0].wait_for_timeout(30)
    raise AssertionError("the pages never agreed on the step")


def _log(page: Any) -> list[str]:
    texts: list[str] = page.locator("#cf-log li").all_inner_texts()
    return texts


@pytest.mark.slow
def test_reload_and_server_restart_mid_game(
    server: LiveServer, new_page: Any, tmp_path: Path
) -> None:
    rng = random.Random(5)
    ann, bob = new_page(), new_page(390, 844)
    table = create_table(ann, server.base, "tracker", 2, ["friend"], name="Ann", friends=["Bob"])
    link = ann.get_by_label("For Bob (seat 2)").input_value()
    assert f"/t/{table}#seat=1&token=" in link
    bob.goto(link)
    bob.get_by_text("Seat 2: Bob").wait_for()  # seated by the link, nothing to type
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    _play([ann, bob], rng, 6)

    # a reload: the same seat, the whole log, the same step
    seq = _settled([ann, bob])
    log = _log(ann)
    ann.reload()
    ann.locator("#cf-board .cf-table-view").wait_for()
    until(ann, lambda: seq_of(ann) == seq and len(_log(ann)) == len(log))
    assert seq_of(ann) == seq and _log(ann) == log
    _play([ann, bob], rng, 4)

    # a restart of the server on the same database: both pages reconnect and go on
    seq = _settled([ann, bob])
    log = _log(bob)
    server.stop()
    again = LiveServer(None, tmp_path, port=server.port)
    try:
        for page in (ann, bob):
            page.locator('#cf-connection[data-status="connected"]').wait_for()
        _play([ann, bob], rng, 4)
        assert seq_of(bob) >= seq + 4
        after = _log(bob)
        assert after[: len(log)] == log and len(after) > len(log)  # no line lost, none twice
    finally:
        again.stop()
    assert ann.errors == [] and bob.errors == []
