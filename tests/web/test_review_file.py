"""A record file opened on the replay page is reviewed by the server, clicked as a person would.

The file is sent to ``POST /api/review`` by *Review this game*; the page then shows the same
graph, summary and marks as for a table's game, in the page's language, and a change of
language shows the same review (by its id) in the new words. Its own module: its own server,
whose worker pool no other test's hint or review shares. No duration is asserted.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .test_replay import saved_game


def test_a_record_file_opened_on_the_replay_page_is_reviewed(
    server: Any, new_page: Any, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    saved_game(server.base, "manitou", 2, path)
    page = new_page(390, 844)
    page.goto(f"{server.base}/replay")
    page.locator("#cf-lang").select_option("cs")
    page.locator("#cf-replay-file").set_input_files(str(path))
    page.wait_for_function("() => Number(document.body.dataset.steps) > 0")
    start = page.locator("#cf-review-start")
    start.wait_for()
    assert page.locator("#cf-review-moves").count() == 0  # nothing is sent before the click
    start.click()
    graph = page.locator("#cf-review-graph")
    graph.wait_for(timeout=600_000)
    assert graph.locator("polyline.cf-review-line").count() == 2
    summary = page.locator("#cf-review-summary li")
    assert summary.count() == 2 and "hrubé chyby" in summary.first.inner_text()  # in Czech
    # another language: the same review (by its id), in the new words, with no new click
    page.locator("#cf-lang").select_option("en")
    page.locator("#cf-review-summary li").first.get_by_text(re.compile("blunders")).wait_for()
    assert page.locator("#cf-review-start").is_hidden()
    assert page.errors == []
