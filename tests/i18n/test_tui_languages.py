"""The terminal app in every language at 80×24: each screen's own texts are shown whole.

The harness draws the start screen, a game screen, the hot-seat privacy screen and the quit
confirmation in each language and reads the text on the terminal back from a screenshot; every
string of the screen (in that language) must appear in full, so a translation that is too long
for its button or line shows up as a failure. (Snapshot images in three languages follow once the
catalogs are complete; English is checked against the same strings now.)
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult

from campfire.i18n import LANGUAGES, _, use_language
from campfire.tui.app import ConfirmQuit, PrivacyScreen, StartScreen

from ..tui.helpers import SIZE, make_app, seats

CSS = str(Path(__file__).parents[2] / "src" / "campfire" / "tui" / "app.tcss")
_TEXT = re.compile(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', re.S)


def screen_lines(app: App[Any]) -> list[str]:
    """The rows of text on the app's terminal, from its screenshot."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for x, y, text in _TEXT.findall(app.export_screenshot()):
        rows.setdefault(float(y), []).append((float(x), html.unescape(text)))
    return [
        "".join(t for _x, t in sorted(parts)).replace("\xa0", " ")
        for _y, parts in sorted(rows.items())
    ]


def shown_whole(text: str, lines: list[str]) -> bool:
    """Whether ``text`` is on the screen in full (its lines may wrap at spaces)."""
    flat = " ".join(" ".join(line.split()) for line in lines)
    return all(" ".join(part.split()) in flat for part in text.split("\n") if part.strip())


class _ScreenApp(App[None]):
    CSS_PATH = CSS
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, make: Callable[[], Any]) -> None:
        super().__init__()
        self.make = make

    def on_mount(self) -> None:
        self.push_screen(self.make())

    def compose(self) -> ComposeResult:
        return iter(())


def _check(app: App[Any], texts: list[str]) -> list[str]:
    async def run() -> list[str]:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            lines = screen_lines(app)
            assert all(len(line.rstrip()) <= SIZE[0] for line in lines)
            return [t for t in texts if not shown_whole(t, lines)]

    return asyncio.run(run())


@pytest.mark.parametrize("language", LANGUAGES)
def test_start_screen_fits(language: str) -> None:
    with use_language(language):
        texts = [
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
        assert _check(_ScreenApp(StartScreen), texts) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_privacy_and_quit_screens_fit(language: str) -> None:
    with use_language(language):
        privacy = _(
            "Pass the keyboard to {name}.\n\nEverybody else, look away.\n\n"
            "{name}: press Enter when you are ready."
        ).format(name="Anna")
        assert _check(_ScreenApp(lambda: PrivacyScreen("Anna")), [privacy, _("I am ready")]) == []
        question = _(
            "Leave the game?\n\nIt is saved, and\n  {command}\ncontinues it where you left."
        )
        text = question.format(command="campfire play --resume")
        assert (
            _check(_ScreenApp(lambda: ConfirmQuit(text)), [text, _("Leave (y)"), _("Stay (n)")])
            == []
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_game_screen_fits(language: str, tmp_path: Path) -> None:
    with use_language(language):
        app, _clock = make_app("tracker", seats(None, "random"), tmp_path, seed=1)
        hint = _("type a move (Tab completes) · arrows point · Enter chooses")
        assert _check(app, [hint]) == []


def test_the_harness_notices_a_text_that_is_not_shown_whole() -> None:
    class _Narrow(App[None]):
        CSS = "Static { width: 20; height: 1; }"

        def compose(self) -> ComposeResult:
            from textual.widgets import Static

            yield Static("a sentence much too long for twenty columns")

    missing = "a sentence much too long for twenty columns"
    assert _check(_Narrow(), [missing, "not on the screen"]) == [missing, "not on the screen"]
