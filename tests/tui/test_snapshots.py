"""Snapshot tests of the main screens (``pytest --snapshot-update`` to accept).

Every screen is drawn at 80×24 in English, Hungarian and Czech (the language put in force with
``campfire.i18n.use_language``, as ``--lang`` does), the start and game screens in English at
120×40 too. Every game screen is drawn from the game's presenter only; the snapshots show its
colours, the letters that tell colours apart without seeing them, the pointer and the log.

Beside the image, each snapshot checks that the screen's own texts (its buttons and labels,
the status and prompt, the players' names, a dialogue's question) are on the terminal in full:
a translation too long for its line or button shows up as a failure, not only as a changed
picture (``screen_text``).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Input, Static

from campfire.core import Match, get
from campfire.i18n import LANGUAGES, _, use_language
from campfire.i18n.names import bot_name
from campfire.tui.app import (
    MIN_SIZE,
    GameScreen,
    ScoreScreen,
    StartScreen,
    WatchApp,
    WatchScreen,
    score_text,
)
from campfire.tui.session import PlaySession, SeatSpec, player_name
from campfire.tui.widgets import StatusBar

from .helpers import BIG, SIZE, make_app
from .screen_text import not_shown_whole, screen_lines, svg_lines

CSS = str(Path(__file__).parents[2] / "src" / "campfire" / "tui" / "app.tcss")

#: (language, size): each language at 80×24, English at 120×40 too
CASES = pytest.mark.parametrize(
    ("language", "size"),
    [("en", SIZE), ("en", BIG), ("hu", SIZE), ("cs", SIZE)],
    ids=["80x24", "120x40", "hu-80x24", "cs-80x24"],
)
LANGS = pytest.mark.parametrize("language", LANGUAGES)

Texts = Callable[[App[Any]], list[str]]


def shoot(
    snap_compare: Any,
    make: Callable[[], App[Any]],
    language: str,
    size: tuple[int, int] = SIZE,
    *,
    press: Sequence[str] = (),
    before: Callable[[Pilot[Any]], Awaitable[None]] | None = None,
    whole: Texts = lambda app: [],
) -> None:
    """Compare the snapshot of the app ``make`` builds in ``language`` after ``before`` and
    ``press``; the texts ``whole`` names (read from the app then) must be shown in full."""
    missing: list[str] = []

    async def run(pilot: Pilot[Any]) -> None:
        if before is not None:
            await before(pilot)
        await pilot.pause()
        await pilot.press(*press)
        for field in pilot.app.screen.query(Input):  # a blinking cursor: a different picture
            field.cursor_blink = False
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        missing.extend(not_shown_whole(whole(pilot.app), screen_lines(pilot.app)))

    with use_language(language):
        assert snap_compare(make(), run_before=run, terminal_size=size)
    assert missing == []


def named_seats(*agents: str | None) -> list[SeatSpec]:
    """Seats named as the app names them (``Player 1``, ``Bot 2 (random)``), in the language."""
    return [
        SeatSpec(player_name(i + 1) if a is None else bot_name(i + 1, a), a)
        for i, a in enumerate(agents)
    ]


def game_texts(app: App[Any]) -> list[str]:
    """A game screen's status and prompt, the players' names and the move field's hint."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    names = [p.name for p in screen.session.display(None).players]
    hint = _("type a move (Tab completes) · arrows point · Enter chooses")
    return [screen.query_one("#status", StatusBar).text, *names, hint]


def _game(
    game: str, agents: tuple[str | None, ...], tmp_path: Path, seed: int
) -> Callable[[], App[Any]]:
    return lambda: make_app(game, named_seats(*agents), tmp_path, seed=seed)[0]


class _StartApp(App[None]):
    CSS_PATH = CSS
    ENABLE_COMMAND_PALETTE = False

    def on_mount(self) -> None:
        self.push_screen(StartScreen())


def start_texts(app: App[Any]) -> list[str]:
    """The start screen's headings, labels and buttons."""
    return [
        _("Campfire — pick a game"),
        _("Names of the people playing (comma separated, in seat order):"),
        _("Options (key=value, space separated; see Rules):"),
        _("Other seats (2–{players}): a level, or human for a friend at this keyboard").format(
            players=2
        ),
        _("Play"),
        _("Rules"),
        _("Quit"),
    ]


@CASES
def test_start_screen(snap_compare: Any, language: str, size: tuple[int, int]) -> None:
    shoot(snap_compare, _StartApp, language, size, whole=start_texts)


@CASES
def test_tracker_screen_with_a_peek(
    snap_compare: Any, tmp_path: Path, language: str, size: tuple[int, int]
) -> None:
    shoot(
        snap_compare,
        _game("tracker", (None, "random"), tmp_path, 1),
        language,
        size,
        press=["1", "2", "enter"],
        whole=game_texts,
    )


@CASES
def test_dudab_screen(
    snap_compare: Any, tmp_path: Path, language: str, size: tuple[int, int]
) -> None:
    make = _game("dudab", (None, "random", "random"), tmp_path, 1)
    shoot(snap_compare, make, language, size, whole=game_texts)


@CASES
def test_manitou_screen(
    snap_compare: Any, tmp_path: Path, language: str, size: tuple[int, int]
) -> None:
    make = _game("manitou", (None, "random"), tmp_path, 1)
    shoot(snap_compare, make, language, size, press=["right", "enter"], whole=game_texts)


@CASES
def test_apache_claim_window(
    snap_compare: Any, tmp_path: Path, language: str, size: tuple[int, int]
) -> None:
    with use_language(language):
        app, clock = make_app("apache", named_seats(None, "random", "random"), tmp_path, seed=2)

    async def reveal(pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        clock.advance(screen.config.reveal_delay)
        screen._tick()
        await pilot.pause()

    shoot(snap_compare, lambda: app, language, size, before=reveal, whole=game_texts)


@LANGS
def test_hot_seat_privacy_screen(snap_compare: Any, tmp_path: Path, language: str) -> None:
    def texts(app: App[Any]) -> list[str]:
        privacy = _(
            "Pass the keyboard to {name}.\n\nEverybody else, look away.\n\n"
            "{name}: press Enter when you are ready."
        ).format(name=player_name(1))
        return [privacy, _("I am ready")]

    shoot(snap_compare, _game("dudab", (None, None), tmp_path, 1), language, whole=texts)


@LANGS
def test_quit_confirmation(snap_compare: Any, tmp_path: Path, language: str) -> None:
    def texts(app: App[Any]) -> list[str]:
        question = _(
            "Leave the game?\n\nIt is saved, and\n  {command}\ncontinues it where you left."
        ).format(command="campfire play --resume")
        return [question, _("Leave (y)"), _("Stay (n)")]

    make = _game("dudab", (None, "random"), tmp_path, 1)
    shoot(snap_compare, make, language, press=["ctrl+q"], whole=texts)


@LANGS
def test_terminal_too_small(snap_compare: Any, tmp_path: Path, language: str) -> None:
    def texts(app: App[Any]) -> list[str]:
        need = "{}×{}".format(*MIN_SIZE)
        return [
            _(
                "Terminal too small: this game needs {need}, and it is {size}.\n"
                "Enlarge the window (the game waits)."
            ).format(need=need, size="60×18")
        ]

    make = _game("tracker", (None, "random"), tmp_path, 1)
    shoot(snap_compare, make, language, (60, 18), whole=texts)


def _finished_tracker() -> PlaySession:
    """A finished game of Tracker (a person against a bot, moves chosen at random)."""
    session = PlaySession(get("tracker"), named_seats(None, "random"), seed=3)
    rng = random.Random(3)
    while not session.is_over():
        seat = session.human_to_act()
        if seat is None:
            session.bot_step()
        else:
            session.play(seat, rng.choice(session.legal_actions(seat)))
    return session


class _ScoreApp(App[None]):
    CSS_PATH = CSS
    ENABLE_COMMAND_PALETTE = False

    def __init__(self) -> None:
        super().__init__()
        self.text = score_text(_finished_tracker())
        self.note = _("Record saved to {path}").format(path="game.json")

    def on_mount(self) -> None:
        self.push_screen(ScoreScreen(self.text, self.note))

    def compose(self) -> ComposeResult:
        return iter(())


@LANGS
def test_score_screen(snap_compare: Any, language: str) -> None:
    def texts(app: App[Any]) -> list[str]:
        assert isinstance(app, _ScoreApp)
        return [app.text, app.note]

    shoot(snap_compare, _ScoreApp, language, whole=texts)


@LANGS
def test_watch_screen(snap_compare: Any, language: str) -> None:
    # an English record: the bot's name is said in the reader's language
    match = Match(get("manitou"), 2, seed=5, names=["Ann", "Bot 2 (easy)"], agents=[None, "easy"])
    for _step in range(30):
        seat = match.state.seats_to_act()[0]
        match.play(seat, match.state.legal_actions(seat)[-1])

    def texts(app: App[Any]) -> list[str]:
        screen = app.screen
        assert isinstance(screen, WatchScreen)
        names = [p.name for p in screen.displays[screen.index].players]
        return [screen.query_one("#status", StatusBar).text, *names]

    shoot(snap_compare, lambda: WatchApp(match.record()), language, press=["end"], whole=texts)


def test_the_fit_check_notices_a_text_that_is_not_shown_whole() -> None:
    class _Narrow(App[None]):
        CSS = "Static { width: 20; height: 1; }"

        def compose(self) -> ComposeResult:
            yield Static("a sentence much too long for twenty columns")

    async def run() -> list[str]:
        app = _Narrow()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            lines = svg_lines(app.export_screenshot())
        return not_shown_whole(["a sentence much too long for twenty columns", "absent"], lines)

    assert asyncio.run(run()) == ["a sentence much too long for twenty columns", "absent"]
