"""The hidden-information witness of the browser tests catches what it is meant to catch."""

from __future__ import annotations

from typing import Any

import pytest

import campfire
from campfire.core.records import Match

from .watch import Witness


class _Page:
    """Enough of a Playwright page for a Witness: what it shows is set by the test."""

    def __init__(self) -> None:
        self.shown = {"seq": 0, "text": ""}

    def on(self, event: str, callback: Any) -> None:
        pass

    def evaluate(self, script: str) -> dict[str, Any]:
        return dict(self.shown)


def _game() -> tuple[dict[str, Any], Any]:
    match = Match(campfire.get_game("tracker"), 2, seed=3, names=["Ann", "Bob"])
    for _ in range(3):
        seat = match.state.seats_to_act()[0]
        match.play(seat, match.state.legal_actions(seat)[0])
    return match.record().to_json(), match


def _frame(match: Any, seat: int, seq: int, extra: str = "") -> dict[str, Any]:
    return {  # as the browser gets it: no raw view (protocol version 4)
        "type": "snapshot",
        "seat": seat,
        "seq": seq,
        "display": {"note": extra},
        "legal": [],
        "missed": [],
    }


def test_a_clean_frame_and_page_pass_and_a_leak_is_caught() -> None:
    record, match = _game()
    seq = len(record["actions"])
    board = match.state.to_position()["state"]["board"]
    hidden = next(c for c in board if c)
    page = _Page()
    eye = Witness(page, 1)
    eye.frames.append(_frame(match, 1, seq))
    eye.look()
    assert eye.check(record) == 2
    eye.frames.append(_frame(match, 1, seq, extra=f"psst: {hidden}"))
    with pytest.raises(AssertionError):
        eye.check(record)
    eye.frames.pop()
    page.shown = {"seq": seq, "text": f"<span>{hidden}</span>"}
    eye.look()
    with pytest.raises(AssertionError):
        eye.check(record)
