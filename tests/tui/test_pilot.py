"""Pilot tests: complete games of every game played through the terminal UI against bots."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Button, Input, OptionList, Select

from campfire.core import Match, Record, get, replay
from campfire.tui.app import (
    Board,
    CampfireApp,
    GameScreen,
    PrivacyScreen,
    RulesScreen,
    ScoreScreen,
    StartScreen,
    Status,
    WatchApp,
    WatchScreen,
)

from .helpers import SIZE, make_app, offered, play_to_end, seats


def _finished_record(path: Path) -> Record:
    record = Record.load(path)
    assert record.outcome is not None
    assert replay(record).state.is_terminal()
    return record


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "opponent"),
    [("tracker", "easy"), ("dudab", "easy"), ("manitou", "easy")],
)
def test_complete_turn_based_game_against_a_bot(game: str, opponent: str, tmp_path: Path) -> None:
    async def run() -> None:
        app, clock = make_app(game, seats(None, opponent), tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            counts = await play_to_end(app, clock, pilot)
            assert counts["moves"] > 0
            assert counts["privacy"] == 0
            screen = app.screen
            assert isinstance(screen, ScoreScreen)
            assert "final scores" in screen.text
            assert str(tmp_path / "game.json") in screen.note
            await pilot.press("n")  # another game: back to the start screen
            assert isinstance(app.screen, StartScreen)

    asyncio.run(run())
    record = _finished_record(tmp_path / "game.json")
    assert record.game == game
    assert [p.agent for p in record.players] == [None, opponent]


@pytest.mark.slow
def test_hot_seat_shows_a_privacy_screen_between_humans(tmp_path: Path) -> None:
    async def run() -> None:
        app, clock = make_app("manitou", seats(None, None, "random"), tmp_path, seed=2)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, PrivacyScreen)
            game_screen = app.screen_stack[-2]
            assert isinstance(game_screen, GameScreen)
            # behind the privacy screen nobody's hand is on the board
            assert game_screen.seat is None
            assert "your hand" not in game_screen.query_one("#board", Board).current
            assert offered(game_screen) == []
            counts = await play_to_end(app, clock, pilot)
            assert counts["privacy"] >= 2

    asyncio.run(run())
    record = _finished_record(tmp_path / "game.json")
    assert [p.agent for p in record.players] == [None, None, "random"]


@pytest.mark.slow
def test_apache_in_real_time_with_a_fake_clock(tmp_path: Path) -> None:
    async def run() -> None:
        app, clock = make_app("apache", seats(None, "easy"), tmp_path, {"claim_order": "arrival"})
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.realtime is not None
            assert screen.realtime.phase() == "reveal"
            await pilot.pause()
            assert screen.realtime.phase() == "reveal"  # nothing happens until the clock moves
            clock.advance(screen.config.reveal_delay)
            screen._tick()
            assert screen.realtime.phase() == "claim"
            await pilot.press("h")
            assert screen.session.view(0)["answers"][0] == "claim hunter"
            counts = await play_to_end(app, clock, pilot)
            assert counts["claims"] > 10

    asyncio.run(run())
    record = _finished_record(tmp_path / "game.json")
    assert record.options == {"claim_order": "arrival"}
    assert [1 if s == 0 else 0 for s, t in record.actions if t.startswith("claim")].count(1) > 10


def test_tracker_peek_is_shown_for_a_few_seconds_then_hidden(tmp_path: Path) -> None:
    async def run() -> None:
        app, clock = make_app("tracker", seats(None, "easy"), tmp_path, seed=1, learning=True)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.seat == 0
            assert offered(screen)[0] == "1. peek 0"
            await pilot.press("1")
            card, _until = screen._shown[0][0]  # what the peek_card event of seat 0 said
            short = ":".join(card.split("-")[:2])
            board = screen.query_one("#board", Board).current
            assert short in board
            clock.advance(screen.config.peek_seconds + 0.1)
            screen.refresh_view()
            board = screen.query_one("#board", Board).current
            assert short not in board
            assert "*0" in board  # peeked this turn: public, as at the table
            assert card not in "\n".join(screen.session.log(0))  # the log never repeats it

    asyncio.run(run())


def test_start_screen_rules_and_play(tmp_path: Path) -> None:
    async def run() -> None:
        app = CampfireApp()
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, StartScreen)
            app.screen.query_one("#game", Select).value = "manitou"
            app.screen.query_one("#players", Select).value = 3
            await pilot.pause()
            assert app.screen.query_one("#seat2", Select).display
            assert not app.screen.query_one("#seat3", Select).display
            await pilot.click("#rules")
            assert isinstance(app.screen, RulesScreen)
            await pilot.press("escape")
            assert isinstance(app.screen, StartScreen)
            config = app.screen.config()
            assert config.game == "manitou" and len(config.seats) == 3
            app.screen.query_one("#game", Select).value = "tracker"
            await pilot.pause()
            app.screen.query_one("#options", Input).value = "peek_count=7"
            await pilot.click("#play")
            assert isinstance(app.screen, StartScreen)
            assert "peek_count" in str(app.screen.query_one("#error").render())
            app.screen.query_one("#options", Input).value = ""
            await pilot.press("ctrl+g")
            assert isinstance(app.screen, GameScreen)
            assert app.screen.session.game.name == "tracker"

    asyncio.run(run())


def test_clicking_a_choice_plays_it(tmp_path: Path) -> None:
    async def run() -> None:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert offered(screen)[2] == "3. peek 2"
            await pilot.click("#actions", offset=(4, 3))  # the third line inside the border
            mine = [a for seat, a in screen.session.match.actions if seat == 0]
            assert mine == [get("tracker").parse_action("peek 2")]
            screen.query_one("#actions", OptionList).highlighted = 0
            await pilot.press("enter")  # the highlighted choice: peek 0
            mine = [a for seat, a in screen.session.match.actions if seat == 0]
            assert [str(a) for a in mine] == ["peek 2", "peek 0"]

    asyncio.run(run())


def test_watch_steps_through_a_record() -> None:
    game = get("tracker")
    match = Match(game, 2, seed=3)
    import random

    rng = random.Random(0)
    while not match.state.is_terminal():
        seat = match.state.current_seat()
        match.play(seat, rng.choice(match.state.legal_actions(seat)))
    record = match.record()

    async def run() -> None:
        app = WatchApp(record)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, WatchScreen)
            assert "action 0/" in screen.query_one("#status", Status).current
            await pilot.press("right")
            assert screen.index == 1
            assert "action 1/" in screen.query_one("#status", Status).current
            await pilot.press("left", "left")
            assert screen.index == 0
            await pilot.press("end")
            assert "won by" in screen.query_one("#status", Status).current

    asyncio.run(run())


def test_buttons_exist_on_the_start_screen() -> None:
    async def run() -> None:
        app = CampfireApp()
        async with app.run_test(size=SIZE):
            ids = {b.id for b in app.screen.query(Button)}
            assert {"play", "rules", "quit"} <= ids

    asyncio.run(run())


def test_hot_seat_tracker_lets_the_peek_show_before_the_next_player(tmp_path: Path) -> None:
    async def run() -> None:
        app, clock = make_app("tracker", seats(None, None), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, PrivacyScreen)
            await pilot.press("enter")
            screen = app.screen
            assert isinstance(screen, GameScreen)
            first = screen.seat
            assert first is not None
            await pilot.press("1", "1")  # two peeks end the turn
            assert app.screen is screen and screen.seat == first
            cards = [card for card, _ in screen._shown[first].values()]
            assert len(cards) == 2
            board = screen.query_one("#board", Board).current
            assert all(":".join(c.split("-")[:2]) in board for c in cards)
            assert "remember it" in screen.query_one("#status", Status).current
            clock.advance(screen.config.peek_seconds)
            screen._tick()
            await pilot.pause()
            assert isinstance(app.screen, PrivacyScreen)
            await pilot.press("enter")
            assert screen.seat == 1 - first
            board = screen.query_one("#board", Board).current
            assert not any(":".join(c.split("-")[:2]) in board for c in cards)

    asyncio.run(run())
