"""Learn to play in the terminal (tui/learn.py): the menu entry, lessons finished by pointing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, OptionList, Static

from campfire.core import Game, all_games
from campfire.core.tutorial import Tutorial, lessons
from campfire.tui.app import CampfireApp, GameScreen, PlayConfig, StartScreen
from campfire.tui.clock import FakeClock
from campfire.tui.learn import ASKED, LessonsScreen, TutorialScreen, fold_answers
from campfire.tui.widgets import Board, Choices, StatusBar, card_text

from ..built_in import built_in_games
from .helpers import BIG

GAMES = built_in_games()


def _app(tmp_path: Path) -> CampfireApp:
    config = PlayConfig(
        "", [], {}, save=tmp_path / "game.json", unfinished_dir=tmp_path / "u", bot_delay=0
    )
    return CampfireApp(config, clock=FakeClock())


async def _open_lesson(pilot: Any, app: CampfireApp, game: Game[Any], index: int) -> TutorialScreen:
    """From the start screen: Learn to play, then the lesson picked in the list."""
    assert isinstance(app.screen, StartScreen)
    await pilot.click("#learn")
    screen = app.screen
    assert isinstance(screen, LessonsScreen)
    wanted = (game.name, lessons(game)[index].id)
    position = screen.entries.index(wanted)
    listing = screen.query_one("#lessons", OptionList)
    listing.highlighted = position
    await pilot.press("enter")
    await pilot.pause()
    tutorial = app.screen
    assert isinstance(tutorial, TutorialScreen)
    return tutorial


def _note(screen: TutorialScreen) -> str:
    return str(screen.query_one("#lesson-note", Static).render())


async def _finish(pilot: Any, screen: TutorialScreen, *, wrong_first: bool = False) -> int:
    """Play the lesson on ``screen`` to its end: Continue past texts, the asked move chosen in
    the list (where it is first and marked); with ``wrong_first``, first another move."""
    asks = 0
    tried_wrong = not wrong_first
    while not screen.tutorial.finished:
        if screen.tutorial.asked is None:
            await pilot.click("#continue")
            continue
        choices = screen.query_one("#actions", Choices)
        assert screen.offered[0].label.startswith(ASKED)
        assert screen.offered[0].notation == screen.tutorial.asked
        index = screen.tutorial.index
        choices.focus()
        if not tried_wrong and len(screen.offered) > 1:
            choices.highlighted = 1
            await pilot.press("enter")
            assert screen.tutorial.index == index
            assert screen.wrong
            assert screen.tutorial.move_label() in _note(screen)
            tried_wrong = True
        choices.highlighted = 0
        await pilot.press("enter")
        assert screen.tutorial.index > index
        assert not screen.wrong
        asks += 1
    return asks


def test_learn_to_play_lists_every_lesson_of_every_game(tmp_path: Path) -> None:
    """The start screen's "Learn to play" opens the list of every game's lessons; Esc goes back."""

    async def run() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=BIG) as pilot:
            assert "Learn to play" in str(app.screen.query_one("#learn", Button).label)
            await pilot.click("#learn")
            screen = app.screen
            assert isinstance(screen, LessonsScreen)
            expected = [(g.name, each.id) for g in all_games() for each in lessons(g)]
            assert screen.entries == expected
            assert screen.query_one("#lessons", OptionList).option_count == len(expected)
            await pilot.press("escape")
            assert isinstance(app.screen, StartScreen)

    asyncio.run(run())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_learner_finishes_the_first_lesson_of_each_game(game: Game[Any], tmp_path: Path) -> None:
    """The first lesson, from the menu to its end: a wrong move explained, then the asked ones."""

    async def run() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=BIG) as pilot:
            screen = await _open_lesson(pilot, app, game, 0)
            status = screen.query_one("#status", StatusBar).text
            assert "Lesson 1 of" in status
            asks = await _finish(pilot, screen, wrong_first=True)
            assert asks == sum(s.kind == "ask" for s in screen.tutorial.lesson.steps)
            assert screen.query_one("#next", Button).display
            await pilot.click("#next")
            await pilot.pause()
            following = app.screen
            assert isinstance(following, TutorialScreen)
            assert following.number == 1

    asyncio.run(run())


def test_a_click_on_the_highlighted_card_plays_the_asked_move(tmp_path: Path) -> None:
    """The asked move's card is highlighted on the board; clicking it plays the move."""
    game = next(g for g in GAMES if _first_asked_choices(g))

    async def run() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=BIG) as pilot:
            screen = await _open_lesson(pilot, app, game, 0)
            while screen.tutorial.asked is None:
                await pilot.click("#continue")
            choice = screen.tutorial.choice()
            assert choice is not None and choice.target is not None
            board = screen.query_one("#board", Board)
            spot = next(s for s in board.spots if s.id == choice.target)
            card = next(
                c for z in screen.tutorial.display().zones for c in z.cards if c.id == spot.id
            )
            line = board.text.splitlines()[spot.row]
            index = screen.tutorial.index
            await pilot.click("#board", offset=(line.index(card_text(card)) + 1, spot.row))
            assert screen.tutorial.index > index

    asyncio.run(run())


def _first_asked_choices(game: Game[Any]) -> list[Any]:
    """The first asked move of the game's first lesson, if it targets a card (not a zone)."""
    tutorial = Tutorial(game, lessons(game)[0])
    while tutorial.asked is None:
        tutorial.go_on()
    choice = tutorial.choice()
    cards = {c.id for zone in tutorial.display().zones for c in zone.cards}
    return [choice] if choice is not None and choice.target in cards else []


def test_the_last_lesson_offers_a_first_game_against_easy(tmp_path: Path) -> None:
    """After the tutorial's last lesson, one button starts a game against the easy bot."""
    game = GAMES[-1]

    async def run() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=BIG) as pilot:
            screen = await _open_lesson(pilot, app, game, len(lessons(game)) - 1)
            await _finish(pilot, screen)
            result = screen.tutorial.display().result  # the game's end: its scores shown
            assert result and result[0] in str(screen.query_one("#lesson-text", Static).render())
            assert not screen.query_one("#next", Button).display
            assert screen.query_one("#first-game", Button).display
            await pilot.click("#first-game")
            await pilot.pause()
            playing = app.screen
            assert isinstance(playing, GameScreen)
            assert playing.session.game.name == game.name
            assert [s.agent for s in playing.session.seats][1:] == ["easy"] * (
                len(playing.session.seats) - 1
            )

    asyncio.run(run())


def test_timed_answers_are_offered_once() -> None:
    """Variants of one answer (claims at several reaction times) are one choice in the list."""
    from campfire.core.present import ActionChoice, Answer

    claim = Answer("claim x", "Claim x", "x")
    actions = (
        ActionChoice(0, "pass", "Pass"),
        ActionChoice(1, "claim x 0", "Claim x after 0 ms", answer=claim, delay_ms=0),
        ActionChoice(2, "claim x 50", "Claim x after 50 ms", answer=claim, delay_ms=50),
    )
    folded = fold_answers(actions, "claim x 50")
    assert [c.notation for c in folded] == ["claim x 50", "pass"]
    assert folded[0].label == ASKED + "Claim x"
