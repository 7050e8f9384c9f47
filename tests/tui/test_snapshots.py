"""Snapshot tests of the main screens at 80×24 (``pytest --snapshot-update`` to accept)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.pilot import Pilot

from campfire.core import Match, Outcome, get
from campfire.tui.app import CSS, CampfireApp, GameScreen, ScoreScreen, WatchApp

from .helpers import SIZE, make_app, seats


def test_start_screen(snap_compare: Any) -> None:
    assert snap_compare(CampfireApp(), terminal_size=SIZE)


def test_tracker_screen_with_a_peek(snap_compare: Any, tmp_path: Path) -> None:
    app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
    assert snap_compare(app, press=["1"], terminal_size=SIZE)


def test_dudab_screen(snap_compare: Any, tmp_path: Path) -> None:
    app, _ = make_app("dudab", seats(None, "random", "random"), tmp_path, seed=1)
    assert snap_compare(app, terminal_size=SIZE)


def test_manitou_screen(snap_compare: Any, tmp_path: Path) -> None:
    app, _ = make_app("manitou", seats(None, "random"), tmp_path, seed=1)
    assert snap_compare(app, press=["1", "1"], terminal_size=SIZE)


def test_apache_claim_window(snap_compare: Any, tmp_path: Path) -> None:
    app, clock = make_app(
        "apache", seats(None, "random", "random"), tmp_path, {"claim_order": "arrival"}, seed=2
    )

    async def reveal(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        clock.advance(screen.config.reveal_delay)
        screen._tick()
        await pilot.pause()

    assert snap_compare(app, run_before=reveal, terminal_size=SIZE)


def test_hot_seat_privacy_screen(snap_compare: Any, tmp_path: Path) -> None:
    app, _ = make_app("dudab", seats(None, None), tmp_path, seed=1)
    assert snap_compare(app, terminal_size=SIZE)


class _ScoreApp(App[None]):
    CSS = CSS
    ENABLE_COMMAND_PALETTE = False

    def on_mount(self) -> None:
        details = [{"enemy_scouts_captured": n, "false_tracks_captured": 2} for n in (4, 2, 3)]
        outcome = Outcome.from_scores([12, 7, 12], tiebreak=[2, 0, 1], details=details)
        names = ["You", "Bot 2 (easy)", "Bot 3 (hard)"]
        self.push_screen(ScoreScreen("Tracker", outcome, names, "Record saved to game.json"))

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
