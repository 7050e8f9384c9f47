"""Pilot tests: the terminal app driven by its keys and mouse, as a person plays."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, Select

from campfire.core import Action, Event, Game, Match, Record, get, replay, visible_events
from campfire.core.options import Options
from campfire.core.state import State
from campfire.tui.app import (
    CampfireApp,
    ConfirmQuit,
    GameScreen,
    PlayConfig,
    PrivacyScreen,
    RulesScreen,
    ScoreScreen,
    StartScreen,
    WatchApp,
    WatchScreen,
)
from campfire.tui.clock import FakeClock
from campfire.tui.launch import resume_config
from campfire.tui.modes import RealtimeClaimsMode, TimedPeekMode
from campfire.tui.session import SeatSpec
from campfire.tui.widgets import CHANGED_STYLE, Board, GameLog, StatusBar

from .helpers import SIZE, make_app, make_late_app, play_to_end, point_at, seats, type_text


def _finished_record(path: Path) -> Record:
    record = Record.load(path)
    assert record.outcome is not None
    assert replay(record).state.is_terminal()
    return record


#: game → where its pilot game starts (a position's ``state``, ``docs/notation/<game>.md``): the
#: last round, hunt or cards of the game, reached by random legal moves without a screen (a round
#: or hunt goes through every phase of its game; Dudab's starts in the middle of its last round
#: and plays it to its scoring). ``None``: from the first move (Tracker is short).
LATE_STARTS: dict[str, Callable[[Mapping[str, Any]], bool] | None] = {
    "tracker": None,
    # late in the last of two players' two rounds (§2): 40 cards left to draw
    "dudab": lambda state: state["round"] == 2 and len(state["draw"]) <= 40,
    "manitou": lambda state: state["hunt"] == 4,  # the last of two players' four hunts (§3)
    "apache": lambda state: state["phase"] == "reveal" and len(state["deck"]) <= 20,
}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(LATE_STARTS))
def test_a_full_game_at_80x24_by_pointing_and_typing_only(game: str, tmp_path: Path) -> None:
    """A game to its end at 80x24, every move chosen by pointing (arrows + Enter) or typing.

    Tracker is played from its first move; the longer games are resumed at their last round,
    hunt or twenty cards (``LATE_STARTS``; a resumed game, as ``campfire play --resume``), so
    that the test plays every phase of the game in a fraction of the keys. Playing a whole game of
    each by keys took minutes; the moves of a whole game are checked without a screen by the
    games' own tests and the soak (``tests/soak``).
    """
    late = LATE_STARTS[game]

    async def run() -> None:
        players = seats(None, "random")
        if late is None:
            app, clock = make_app(game, players, tmp_path, seed=3)
        else:
            app, clock = make_late_app(game, players, tmp_path, late, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            counts = await play_to_end(app, clock, pilot)
            assert counts["moves"] + counts["claims"] > 0
            screen = app.screen
            assert isinstance(screen, ScoreScreen)
            assert str(tmp_path / "game.json") in screen.note
            await pilot.press("n")
            assert isinstance(app.screen, StartScreen)

    asyncio.run(run())
    record = _finished_record(tmp_path / "game.json")
    assert record.game == game and [p.agent for p in record.players] == [None, "random"]


def _late_in_the_last_hunt(state: Mapping[str, Any]) -> bool:
    return bool(state["hunt"] == 3 and state["phase"] == "play" and state["play_turn"] >= 8)


@pytest.mark.slow
def test_hot_seat_names_go_into_the_record(tmp_path: Path) -> None:
    """Two people at one keyboard each type a name on their first privacy screen.

    The game is Big Manitou for three resumed late in its last hunt (the third, rules §3):
    both people still play turns, handing over the keyboard between them, to the end.
    """

    async def run() -> None:
        players = [SeatSpec("Player 1"), SeatSpec("Player 2"), SeatSpec("Bot 3", "random")]
        app, clock = make_late_app("manitou", players, tmp_path, _late_in_the_last_hunt, seed=2)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, PrivacyScreen) and screen.ask_name
            game_screen = app.screen_stack[-2]
            assert isinstance(game_screen, GameScreen) and game_screen.seat is None
            assert game_screen.offered == []  # behind the privacy screen: nobody's moves
            counts = await play_to_end(app, clock, pilot, names=("Ann", "Bob"))
            assert counts["privacy"] >= 2

    asyncio.run(run())
    record = _finished_record(tmp_path / "game.json")
    assert sorted(p.name for p in record.players[:2]) == ["Ann", "Bob"]


def test_a_peek_shows_for_a_few_seconds_then_hides(tmp_path: Path) -> None:
    async def run() -> None:
        app, clock = make_app("tracker", seats(None, "random"), tmp_path, seed=1, learning=True)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen) and isinstance(screen.mode, TimedPeekMode)
            before = screen.query_one("#board", Board).text
            await type_text(pilot, "12")
            shown = screen.mode.showing(0)
            assert list(shown) == ["pos:12"]
            assert screen.query_one("#board", Board).text != before
            clock.advance(screen.config.peek_seconds + 0.1)
            screen.refresh_view()
            assert screen.mode.showing(0) == {}
            peeked = shown["pos:12"].label  # "green scout (S-T3-1)": its id never in the log
            assert peeked.rpartition("(")[2].rstrip(")") not in "\n".join(screen.session.log(0))

    asyncio.run(run())


def test_pointing_with_the_mouse_plays_the_move(tmp_path: Path) -> None:
    async def run() -> None:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            board = screen.query_one("#board", Board)
            spot = next(s for s in board.spots if s.id == "pos:9")
            line = board.text.splitlines()[spot.row]
            x = line.index(" 9 ") + 1
            await pilot.click("#board", offset=(x, spot.row))
            assert [str(a) for s, a in screen.session.match.actions if s == 0] == ["peek 9"]

    asyncio.run(run())


def test_a_source_then_a_target_and_a_multi_step_progress(tmp_path: Path) -> None:
    async def run() -> None:
        app, _ = make_app("manitou", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            first = screen.offered[0]
            assert first.target is not None
            await point_at(pilot, screen, first.target)
            assert "chosen 1 of" in screen.query_one("#status", StatusBar).text

    asyncio.run(run())


def test_undo_takes_back_the_step_in_progress(tmp_path: Path) -> None:
    async def run() -> None:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await type_text(pilot, "t1")  # a tracker into the centre: public, still my turn
            mine = [a for s, a in screen.session.match.actions if s == 0]
            assert len(mine) == 1
            await pilot.press("ctrl+z")
            assert [a for s, a in screen.session.match.actions if s == 0] == []
            assert "take back" in screen.query_one("#log", GameLog).written[-1]
            await pilot.press("ctrl+z")  # nothing more to take back: said, not silent
            assert "nothing to take back" in screen.query_one("#status", StatusBar).text

    asyncio.run(run())


def test_a_peek_cannot_be_taken_back(tmp_path: Path) -> None:
    async def run() -> None:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await type_text(pilot, "5")
            await pilot.press("ctrl+z")
            assert len(screen.session.match.actions) >= 1
            assert "nothing to take back" in screen.query_one("#status", StatusBar).text

    asyncio.run(run())


def test_the_board_highlights_what_the_others_changed_since_the_seats_own_step(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        app, _ = make_app("dudab", seats(None, "random", "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            session = screen.session
            steps: list[tuple[int, list[Event]]] = []
            session.listeners.append(lambda seat, events: steps.append((seat, events)))
            board = screen.query_one("#board", Board)
            for _ in range(3):  # three turns of mine, the bots' steps between them
                steps.clear()
                await type_text(pilot, screen.offered[0].key)
                await pilot.pause()
                assert session.human_to_act() == 0 and steps[-1][0] != 0
                mine = max(i for i, (seat, _) in enumerate(steps) if seat == 0)
                presenter = session.presenter
                theirs: set[str] = set()
                for _seat, events in steps[mine + 1 :]:
                    seen = visible_events(events, 0)
                    theirs.update(presenter.step_display(seen, 0).changed)
                display = session.display(0)
                on_show = {z.id for z in display.zones} | {
                    c.id for z in display.zones for c in z.cards
                }
                assert set(board.marked) == theirs & on_show != set()
                assert CHANGED_STYLE in board._markup
            await pilot.press("ctrl+z")  # nothing to take back: the highlights stay
            assert set(board.marked) == theirs & on_show

    asyncio.run(run())


def test_a_replay_highlights_what_each_action_changed() -> None:
    match = Match(get("dudab"), 2, seed=3)
    for _ in range(4):
        seat = match.state.seats_to_act()[0]
        match.play(seat, match.state.legal_actions(seat)[0])

    async def run() -> None:
        app = WatchApp(match.record())
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, WatchScreen)
            board = screen.query_one("#board", Board)
            assert board.marked == []  # the deal: nothing has changed yet
            replayed = Match(get("dudab"), 2, seed=3)
            for seat, text in match.record().actions:
                await pilot.press("right")
                events = visible_events(replayed.play(seat, text), None)
                changed = set(screen.presenter.step_display(events, None).changed)
                assert changed and set(board.marked) <= changed
                assert set(board.marked) == changed & {
                    i
                    for z in screen.displays[screen.index].zones
                    for i in (z.id, *(c.id for c in z.cards))
                }

    asyncio.run(run())


def test_the_log_always_shows_the_newest_line(tmp_path: Path) -> None:
    async def run() -> None:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            log = screen.query_one("#log", GameLog)
            for n in range(30):
                screen.session.note(0, f"line number {n}")
                screen.refresh_view()
                await pilot.pause()
                shown = "\n".join(
                    log.render_line(y).text for y in range(log.scrollable_content_region.height)
                )
                assert f"line number {n}" in shown
            assert log.max_scroll_y > 0  # older lines are in the scrollback
            await pilot.press("pageup")
            assert log.scroll_y < log.max_scroll_y

    asyncio.run(run())


def test_a_log_reset_at_once_shows_what_writing_line_by_line_shows(tmp_path: Path) -> None:
    """``GameLog.reset`` (a hand-over in hot seat) writes the whole log as one text."""
    lines = [f"line {n}: " + "word " * (n % 23) for n in range(80)]

    async def run() -> None:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            log = app.screen.query_one("#log", GameLog)

            async def shown() -> tuple[list[str], list[str], float]:
                await pilot.pause()
                height = log.scrollable_content_region.height
                seen = [log.render_line(y).text for y in range(height)]
                return [strip.text.rstrip() for strip in log.lines], seen, log.max_scroll_y

            log.reset([])
            log.add(lines)
            one_by_one = await shown()
            log.reset(lines)
            assert await shown() == one_by_one
            assert log.written == lines and any(lines[-1] in line for line in one_by_one[1])

    asyncio.run(run())


def test_a_thinking_bot_is_shown_and_typed_input_waits(tmp_path: Path) -> None:
    async def run() -> None:
        app, _ = make_app("tracker", seats("random", None), tmp_path, seed=1, bot_delay=0.3)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            if screen.thinking is None:
                return  # pragma: no cover - the bot of this seed moves second
            assert screen.offered == []
            await type_text(pilot, "7")
            status = screen.query_one("#status", StatusBar).text
            assert "is thinking" in status and "waits" in status
            assert screen.query_one("#move", Input).value == "7"  # not lost
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.thinking is None or screen.session.human_to_act() is None

    asyncio.run(run())


def test_real_time_claims_record_the_measured_reaction_time(tmp_path: Path) -> None:
    async def run() -> None:
        app, clock = make_app("apache", seats(None, "random"), tmp_path, seed=2)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            mode = screen.mode
            assert isinstance(mode, RealtimeClaimsMode)
            await pilot.pause()
            assert not mode.window_open()  # nothing happens until the clock moves
            clock.advance(screen.config.reveal_delay)
            screen._tick()
            assert mode.window_open()
            clock.advance(0.35)
            await type_text(pilot, "hunter", enter=False)
            mine = [str(a) for s, a in screen.session.match.actions if s == 0]
            assert mine == ["claim hunter 350"]

    asyncio.run(run())


def test_protect_me_refusal_is_said_in_full(tmp_path: Path) -> None:
    async def run() -> None:
        app, clock = make_app("apache", seats(None, "random"), tmp_path, seed=2, protect_me=True)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            clock.advance(screen.config.reveal_delay)
            screen._tick()
            safe = screen.session.view(0)["protect_me"]
            unsafe = [k for k, ok in safe.items() if not ok]
            assert unsafe
            await type_text(pilot, unsafe[0], enter=False)
            assert "would be penalised" in screen.query_one("#log", GameLog).written[-1]

    asyncio.run(run())


def test_ctrl_q_asks_and_resume_continues_the_game(tmp_path: Path) -> None:
    async def run() -> int:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await type_text(pilot, "3")
            await pilot.press("ctrl+q")
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("n")  # stay
            assert app.screen_stack[-1] is screen  # the game screen again
            await pilot.press("ctrl+q", "y")
        return len(screen.session.match.actions)

    count = asyncio.run(run())
    saved = list((tmp_path / "unfinished").glob("tracker-*.json"))
    assert len(saved) == 1 and not (tmp_path / "game.json").exists()
    config = resume_config(saved[0])
    assert config.resume is not None and len(config.resume.actions) == count

    async def resume() -> None:
        app = CampfireApp(
            PlayConfig(**{**config.__dict__, "bot_delay": 0, "save": tmp_path / "game.json"}),
            clock=FakeClock(),
        )
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert len(screen.session.match.actions) == count
            assert screen.query_one("#log", GameLog).written  # the log is back
            await pilot.pause()

    asyncio.run(resume())


def test_a_small_terminal_says_what_size_it_needs(tmp_path: Path) -> None:
    async def run() -> None:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert screen.has_class("too-small")
            text = str(screen.query_one("#too-small").render())
            assert "needs 80×24" in text and "60×20" in text

    asyncio.run(run())


def test_start_screen_rules_names_and_play(tmp_path: Path) -> None:
    async def run() -> None:
        app = CampfireApp(PlayConfig("", [], unfinished_dir=tmp_path, bot_delay=0))
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, StartScreen)
            screen.query_one("#game", Select).value = "apache"
            await pilot.pause()
            assert "peek" not in screen.query_one("#options", Input).placeholder
            screen.query_one("#game", Select).value = "manitou"
            screen.query_one("#players", Select).value = 3
            await pilot.pause()
            assert screen.query_one("#seat2", Select).display
            assert not screen.query_one("#seat3", Select).display
            await pilot.click("#rules")
            assert isinstance(app.screen, RulesScreen)
            await pilot.press("escape")
            screen.query_one("#game", Select).value = "tracker"
            screen.query_one("#players", Select).value = 2
            await pilot.pause()
            screen.query_one("#options", Input).value = "peek_count=7"
            await pilot.click("#play")
            assert isinstance(app.screen, StartScreen)
            assert "peek_count" in str(screen.query_one("#error").render())
            screen.query_one("#options", Input).value = ""
            screen.query_one("#names", Input).value = "Ann"
            await pilot.press("ctrl+g")
            assert isinstance(app.screen, GameScreen)
            assert app.screen.session.names[0] == "Ann"
            assert {b.id for b in screen.query(Button)} >= {"play", "rules", "quit"}

    asyncio.run(run())


def test_watch_steps_through_a_record() -> None:
    import random

    match = Match(get("tracker"), 2, seed=3)
    rng = random.Random(0)
    while not match.state.is_terminal():
        seat = match.state.current_seat()
        match.play(seat, rng.choice(match.state.legal_actions(seat)))

    async def run() -> None:
        app = WatchApp(match.record())
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, WatchScreen)
            status = screen.query_one("#status", StatusBar)
            assert "action 0/" in status.text
            await pilot.press("right")
            assert screen.index == 1 and "action 1/" in status.text
            await pilot.press("left", "left")
            assert screen.index == 0
            await pilot.press("end")
            assert "won by" in status.text

    asyncio.run(run())


# ----- a toy game, registered by this test only, plays through the app unchanged ---------------


class _ToyAction(Action):
    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def notation(self) -> str:
        return f"take {self.n}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ToyAction) and other.n == self.n

    def __hash__(self) -> int:
        return hash(self.n)


@dataclass(frozen=True)
class _ToyOptions(Options):
    pass


class _ToyState(State):
    """Players take 1 or 2 sticks from 7 in turn; who takes the last one wins."""

    def __init__(self, players: int, options: Options, sticks: int = 7, turn: int = 0) -> None:
        self.num_players = players
        self.options = options
        self.sticks = sticks
        self.turn = turn

    def seats_to_act(self) -> tuple[int, ...]:
        return () if self.sticks == 0 else (self.turn,)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        return [_ToyAction(n) for n in (1, 2) if n <= self.sticks] if self.sticks else []

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        assert isinstance(action, _ToyAction) and action in self.legal_actions(seat)
        self.sticks -= action.n
        self.last = seat
        self.turn = (self.turn + 1) % self.num_players
        return [Event("take", {"seat": seat, "n": action.n})]

    def is_terminal(self) -> bool:
        return self.sticks == 0

    def outcome(self) -> Any:
        from campfire.core import Outcome

        return Outcome.from_scores([1 if s == self.last else 0 for s in range(self.num_players)])

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {
            "seat": seat,
            "players": self.num_players,
            "to_act": list(self.seats_to_act()),
            "sticks": self.sticks,
        }

    def clone(self) -> _ToyState:
        copy = _ToyState(self.num_players, self.options, self.sticks, self.turn)
        copy.__dict__.update(self.__dict__)
        return copy

    def determinize(self, seat: int, rng: Any) -> _ToyState:
        return self.clone()

    def to_position(self) -> dict[str, Any]:
        return {"sticks": self.sticks, "turn": self.turn}

    def render(self, seat: int | None = None) -> str:
        return str(self.sticks)


class _ToyGame(Game[_ToyState]):
    name = "toy-sticks"
    title = "Sticks"
    min_players = 2
    max_players = 2
    options_type = _ToyOptions

    def random_setup(self, players: int, options: Options, rng: Any) -> dict[str, Any]:
        return {}

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: Any
    ) -> _ToyState:
        _ToyState.game = self  # on the class, as every game links its state class (a ClassVar)
        return _ToyState(players, options)

    def state_from_position(self, data: Mapping[str, Any]) -> _ToyState:
        raise NotImplementedError

    def parse_action(self, text: str) -> Action:
        return _ToyAction(int(text.split()[1]))

    def num_distinct_actions(self, players: int) -> int:
        return 2

    def action_index(self, action: Action, players: int) -> int:
        assert isinstance(action, _ToyAction)
        return action.n - 1

    def action_from_index(self, index: int, players: int) -> Action:
        return _ToyAction(index + 1)


def test_a_toy_game_registered_here_plays_through_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from campfire.core import registry

    toy = _ToyGame()
    monkeypatch.setitem(registry._GAMES, toy.name, toy)

    async def run() -> None:
        app, clock = make_app(toy.name, seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            counts = await play_to_end(app, clock, pilot)
            assert counts["typed"] > 0
            assert isinstance(app.screen, ScoreScreen)

    asyncio.run(run())
    assert Record.load(tmp_path / "game.json").game == toy.name


def _unused(_: Sequence[Any]) -> None:  # keep imports honest for type checkers
    return None


def test_a_tab_that_completes_nothing_keeps_the_focus_and_says_so(tmp_path: Path) -> None:
    # A newcomer typed the start of a move that is not there and pressed Tab: the focus used to
    # go to the list of moves, the next keys went nowhere, and Enter chose the list's first
    # move (peek 0). Now the field keeps the focus, and the status line says why.
    async def run() -> None:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            move = screen.query_one("#move", Input)
            status = screen.query_one("#status", StatusBar)
            await type_text(pilot, "x", enter=False)
            await pilot.press("tab")
            assert screen.focused is move
            assert "no move begins with 'x'" in status.text
            await pilot.press("backspace")
            await type_text(pilot, "5", enter=False)
            await pilot.press("tab")  # a whole key: nothing to add, and said so
            assert screen.focused is move
            assert "'5' is a whole move: Enter chooses it" in status.text
            await pilot.press("enter")
            assert [str(a) for s, a in screen.session.match.actions if s == 0] == ["peek 5"]

    asyncio.run(run())


def test_tab_completes_at_once_and_moves_on_from_an_empty_field(tmp_path: Path) -> None:
    async def run() -> None:
        app, _ = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            move = screen.query_one("#move", Input)
            await type_text(pilot, "T", enter=False)
            await pilot.press("tab")  # at once: not waiting for the suggestion on show
            assert (move.value, screen.focused) == ("t1", move)
            move.value = ""
            await pilot.press("tab")  # nothing typed: the focus moves on, as Tab does elsewhere
            assert screen.focused is not move

    asyncio.run(run())
