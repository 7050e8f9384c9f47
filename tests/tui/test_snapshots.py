"""Snapshot tests of the main screens at 80×24 and 120×40 (``pytest --snapshot-update`` to accept).

Every game screen is drawn from the game's presenter only; the snapshots show its colours, the
letters that tell colours apart without seeing them, the pointer and the log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from campfire.core import Match, get
from campfire.tui.app import GameScreen, ScoreScreen, StartScreen, WatchApp

from .helpers import BIG, SIZE, make_app, seats

SIZES = pytest.mark.parametrize("size", [SIZE, BIG], ids=["80x24", "120x40"])


class _StartApp(App[None]):
    CSS_PATH = str(Path(__file__).parents[2] / "src" / "campfire" / "tui" / "app.tcss")
    ENABLE_COMMAND_PALETTE = False

    def on_mount(self) -> None:
        self.push_screen(StartScreen())


@SIZES
def test_start_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(_StartApp(), terminal_size=size)


@SIZES
def test_tracker_screen_with_a_peek(snap_compare: Any, tmp_path: Path, size: Any) -> None:
    app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)

    async def peek(pilot: Pilot[None]) -> None:
        await pilot.press("1", "2", "enter")
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(app, run_before=peek, terminal_size=size)


@SIZES
def test_dudab_screen(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    app, _ = make_app("dudab", seats(None, "random", "random"), tmp_path, seed=1)
    assert snap_compare(app, terminal_size=size)


@SIZES
def test_manitou_screen(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    app, _ = make_app("manitou", seats(None, "random"), tmp_path, seed=1)
    assert snap_compare(app, press=["right", "enter"], terminal_size=size)


@SIZES
def test_apache_claim_window(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    app, clock = make_app("apache", seats(None, "random", "random"), tmp_path, seed=2)

    async def reveal(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        clock.advance(screen.config.reveal_delay)
        screen._tick()
        await pilot.pause()

    assert snap_compare(app, run_before=reveal, terminal_size=size)


def test_hot_seat_privacy_screen(snap_compare: Any, tmp_path: Path) -> None:
    app, _ = make_app("dudab", seats(None, None), tmp_path, seed=1)
    assert snap_compare(app, terminal_size=SIZE)


def test_quit_confirmation(snap_compare: Any, tmp_path: Path) -> None:
    app, _ = make_app("dudab", seats(None, "random"), tmp_path, seed=1)
    assert snap_compare(app, press=["ctrl+q"], terminal_size=SIZE)


def test_terminal_too_small(snap_compare: Any, tmp_path: Path) -> None:
    app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
    assert snap_compare(app, terminal_size=(60, 18))


class _ScoreApp(App[None]):
    CSS_PATH = _StartApp.CSS_PATH
    ENABLE_COMMAND_PALETTE = False

    def on_mount(self) -> None:
        text = "Tracker — game over\n\nAnn: 12 points (4 enemy scouts +12)\nBob: 7 points"
        self.push_screen(ScoreScreen(text, "Record saved to game.json"))

    def compose(self) -> ComposeResult:
        return iter(())


def test_score_screen(snap_compare: Any) -> None:
    assert snap_compare(_ScoreApp(), terminal_size=SIZE)


def test_watch_screen(snap_compare: Any) -> None:
    match = Match(get("manitou"), 2, seed=5, names=["Ann", "Bob"])
    for _ in range(30):
        seat = match.state.seats_to_act()[0]
        match.play(seat, match.state.legal_actions(seat)[-1])
    assert snap_compare(WatchApp(match.record()), press=["end"], terminal_size=SIZE)
