"""A tied game's summary says how the tie was decided: a person opens the record of an Apache
game that ended 36 cards to 36 in the replay viewer, goes to the end, and reads that the two
share the place because Apache has no tie-break (Tracker's and Big Manitou's tie-breaks are
named in their lines: tests/games/test_tie_lines.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from campfire import get_game
from campfire.agents import make_agent
from campfire.core.table import Table

from .people import RESULT

TIE = "Ann and Bob tie on 36 cards: Apache has no tie-break, they share the place."


def _tied_record(path: Path) -> None:
    """A seeded bots' Apache game that ends in a tie, saved as a record file."""
    game = get_game("apache")
    agents = [make_agent("easy", game, s, 2, game.options(), seed=21 * 7 + s) for s in (0, 1)]
    table = Table(game, 2, seed=21, agents=agents, names=["Ann", "Bob"])
    outcome = table.run()
    assert outcome.scores == (36, 36) and outcome.winners == (0, 1)
    path.write_text(table.match.record({}).dumps(), encoding="utf-8")


def test_the_summary_of_a_tied_game_says_how_the_tie_stands(
    server: Any, new_page: Any, tmp_path: Path
) -> None:
    path = tmp_path / "tie.json"
    _tied_record(path)
    page = new_page()
    page.goto(f"{server.base}/replay")
    page.get_by_label("Open a record file").set_input_files(str(path))
    page.get_by_role("button", name="To the end").click()
    page.locator(RESULT).get_by_text(TIE).wait_for()
    assert page.errors == []
