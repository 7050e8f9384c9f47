"""Learn to play in the browser: from the lobby, a learner finishes lessons by clicking.

The learner reads each text (Continue), then clicks what the lesson highlights: the asked
move's card, place or button; a card to move first, then where it goes. One wrong click is
explained and changes nothing. The last lesson of a tutorial offers a first game against the
easy bot.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from campfire.core import Game
from campfire.core.tutorial import Tutorial, lessons
from tests.built_in import built_in_games
from tests.server.live_server import LiveServer, http

GAMES = built_in_games()


def _step(page: Any) -> str:
    return str(page.get_attribute("body", "data-lesson-step") or "")


def _wait_past(page: Any, before: str) -> None:
    """Wait until the page shows another step than ``before`` (a selector: no eval under CSP)."""
    page.wait_for_selector(f'body[data-lesson-step]:not([data-lesson-step="{before}"])')


def _click_asked(page: Any) -> None:
    """Click what the lesson asks for, as a person would: the highlighted thing(s)."""
    board = page.locator("#cf-board")
    asked = board.get_attribute("data-asked")
    assert asked
    frame = page.evaluate("window.__learnFrame")
    choice = frame["asked"]
    before = _step(page)
    clickable = '#cf-board button[data-card="{0}"], #cf-board button[data-zone="{0}"]'
    if choice["source"]:
        page.locator(clickable.format(choice["source"])).first.click()
    if choice["target"]:
        page.locator(clickable.format(choice["target"])).first.click()
    if _step(page) == before:  # several moves there, or no place: the button of the move
        button = page.locator(f'#cf-board button[data-notation="{asked}"]')
        if button.count():
            button.first.click()
    _wait_past(page, before)


def _finish(page: Any, *, wrong_first: bool) -> int:
    """Read and click through the lesson on ``page``; the number of moves made."""
    moves = 0
    tried_wrong = not wrong_first
    while not _step(page).endswith(":end"):
        if page.locator("#cf-continue").is_visible():
            before = _step(page)
            page.click("#cf-continue")
            _wait_past(page, before)
            continue
        frame = page.evaluate("window.__learnFrame")
        if not tried_wrong:
            other = page.evaluate(
                """(asked) => [...document.querySelectorAll('#cf-board button[data-notation]')]
                    .map((b) => b.dataset.notation).find((n) => n !== asked) || null""",
                frame["asked"]["notation"],
            )
            if other is not None:
                page.locator(f'#cf-board button[data-notation="{other}"]').first.click()
                page.wait_for_selector("#cf-lesson-wrong:not([hidden])")
                assert frame["asked"]["label"] in page.inner_text("#cf-lesson-wrong")
                assert _step(page) == f"{frame['lesson']}:{frame['step']}:"
                tried_wrong = True
        _click_asked(page)
        assert page.locator("#cf-lesson-wrong").is_hidden()
        moves += 1
    return moves


def _open_from_lobby(page: Any, server: LiveServer, game: Game[Any], index: int) -> None:
    page.goto(f"{server.base}/")
    page.click("#cf-learn")
    page.wait_for_url(re.compile(r"/learn$"))
    lesson = lessons(game)[index]
    page.click(f'[data-lesson="{game.name}/{lesson.id}"]')
    page.wait_for_selector("body[data-lesson-step]")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_learner_finishes_the_first_lesson_of_each_game_by_clicking(
    game: Game[Any], server: LiveServer, new_page: Any
) -> None:
    """Lobby → Learn to play → the first lesson, finished by clicking; a wrong click explained."""
    page = new_page()
    _open_from_lobby(page, server, game, 0)
    assert "1" in page.inner_text("#cf-lesson-title")
    moves = _finish(page, wrong_first=True)
    assert moves == sum(step.kind == "ask" for step in lessons(game)[0].steps)
    assert page.locator("#cf-next").is_visible()
    page.click("#cf-next")
    page.wait_for_url(re.compile(rf"lesson={re.escape(lessons(game)[1].id)}"))
    assert not page.errors


def test_the_last_lesson_offers_a_first_game_against_easy(
    server: LiveServer, new_page: Any
) -> None:
    """After a tutorial's last lesson: one button, and a table against the easy bot."""
    game = min(GAMES, key=lambda g: len(lessons(g)[-1].steps))
    page = new_page()
    _open_from_lobby(page, server, game, len(lessons(game)) - 1)
    _finish(page, wrong_first=False)
    assert page.locator("#cf-next").is_hidden()
    page.click("#cf-first-game")
    page.wait_for_url(re.compile(r"/t/\d+$"))
    table = int(page.url.rsplit("/", 1)[1])
    status, text = http("GET", f"{server.base}/api/tables/{table}")
    assert status == 200
    found = json.loads(text)
    seats = found.get("table", found)["seats"]
    assert seats[0]["kind"] != "bot"
    assert [seat.get("level") for seat in seats[1:]] == ["easy"] * (len(seats) - 1)
    assert not page.errors


def _no_card_to_move(game: Game[Any]) -> bool:
    """Whether no move of the game's first lesson moves a card onto a place (one press each)."""
    tutorial = Tutorial(game, lessons(game)[0])
    while not tutorial.finished:
        choice = tutorial.choice()
        if choice is not None and choice.source is not None:
            return False
        step = tutorial.step
        assert step is not None
        if step.kind == "ask":
            tutorial.answer(step.move)
        else:
            tutorial.go_on()
    return True


def test_a_lesson_is_played_with_the_keyboard_alone(server: LiveServer, new_page: Any) -> None:
    """Enter on what has the focus plays a lesson through: after each step the focus is on
    Continue or on the asked move's card, place or button."""
    game = next(g for g in GAMES if _no_card_to_move(g))
    lesson = lessons(game)[0]
    page = new_page()
    page.goto(f"{server.base}/learn?game={game.name}&lesson={lesson.id}")
    page.wait_for_selector("body[data-lesson-step]")
    while not _step(page).endswith(":end"):
        before = _step(page)
        page.keyboard.press("Enter")
        _wait_past(page, before)
    assert page.locator("#cf-lesson-wrong").is_hidden()
    assert page.evaluate("document.activeElement.id") == "cf-next"
