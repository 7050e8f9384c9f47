"""The rules screen shows the game's rules document (docs/rules/<game>.md) rendered as Markdown."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import MarkdownViewer, Select

from campfire.core import get
from campfire.i18n import use_language
from campfire.i18n.rules import option_help
from campfire.tui.app import CampfireApp, RulesScreen, StartScreen

from .helpers import SIZE


def test_rules_screen_shows_the_rules_document() -> None:
    async def run() -> None:
        app = CampfireApp()
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, StartScreen)
            app.screen.query_one("#game", Select).value = "dudab"
            await pilot.pause()
            await pilot.press("ctrl+r")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, RulesScreen)
            viewer = screen.query_one(MarkdownViewer)
            text = get("dudab").rules_text()
            # the whole document, rendered: its source and one heading widget per heading
            assert viewer.document.source.startswith(text.rstrip())
            assert "use_jungle=false" in viewer.document.source  # the options, as typed
            headings = [line for line in text.splitlines() if line.startswith(("## ", "### "))]
            rendered = [label for _level, label, _id in viewer.document.table_of_contents or []]
            assert [h.lstrip("#").strip().replace("`", "") for h in headings] == [
                label for label in rendered if label[:1].isdigit()
            ]
            # scrollable: the document is longer than the screen, and the end can be reached
            assert viewer.max_scroll_y > 0
            viewer.scroll_end(animate=False)
            await pilot.pause()
            assert viewer.scroll_y > 0
            await pilot.press("t")  # the table of contents
            await pilot.pause()
            assert viewer.show_table_of_contents
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)

    asyncio.run(run())


@pytest.mark.parametrize(
    ("language", "heading"),
    [("hu", "# Nyomkereső (Stopař) — játékszabály"), ("cs", "# Stopař (Tracker) – pravidla")],
)
def test_rules_screen_speaks_the_users_language(language: str, heading: str) -> None:
    game = get("tracker")
    info = game.options_type.infos()[0]
    with use_language(language):
        source = RulesScreen(game).markdown()
        translated = option_help(game, info.name, info.help)
    assert source.startswith(heading)  # the translated document, without the English note
    assert translated != info.help and translated in source  # the options' help too
