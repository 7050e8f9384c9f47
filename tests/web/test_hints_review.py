"""Hints and the post-game review in a real Chromium, clicked as a person would.

A hint: at a table created with hints allowed, the person to act clicks "Hint"; the suggestion
is shown on their page only, and the other person's log says that a hint was used (after a
reload too). The review:
the replay page of a bots' finished game, opened from its address with ``review=1``, runs the
review with a progress bar and draws each seat's line of chances, the marked moves and their
marks (a record file's review: ``test_review_file.py``). The waits are bounded; no duration
is asserted.
"""

from __future__ import annotations

import re
from typing import Any

from .people import create_table, join_table, start, until
from .test_replay import bot_game


def test_a_hint_is_shown_to_the_asker_and_logged_for_the_other(server: Any, new_page: Any) -> None:
    ann, bob = new_page(), new_page()
    # Tracker: its first player always has many cards to choose from (in Dudab a player may
    # have one move only, which the hint names by rule of thumb, without a chance to win)
    table = create_table(ann, server.base, "tracker", 2, ["open"], name="Ann", hints=True)
    join_table(bob, server.base, table, "Bob")
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    ann.locator("#cf-options").get_by_text(re.compile("Hints are allowed")).wait_for()
    pages = [ann, bob]
    mover = until(
        ann, lambda: next((p for p in pages if p.locator("#cf-hint-ask:visible").count()), None)
    )
    assert mover is not None, "nobody may ask for a hint"
    other = bob if mover is ann else ann
    name = "Ann" if mover is ann else "Bob"
    assert other.locator("#cf-hint-ask").is_hidden()  # not to act: no button
    mover.get_by_role("button", name="Hint").click()
    answer = mover.locator("#cf-hint")
    answer.get_by_text(re.compile(r"^Hint: .+ about \d+ % to win")).wait_for()
    other.locator("#cf-log").get_by_text(f"{name} used a hint").wait_for()
    mover.locator("#cf-log").get_by_text(f"{name} used a hint").wait_for()
    assert other.locator("#cf-hint").is_hidden()
    assert other.locator("#cf-hint").inner_text() == ""  # the suggestion never reached it
    # the key ? asks again (the same position: the same answer, and a second line in the log)
    mover.locator("#cf-log").click()
    mover.keyboard.press("?")
    lines = other.locator("#cf-log").get_by_text(f"{name} used a hint")
    counted = until(other, lambda: lines.count() == 2)
    assert counted, "the key ? did not ask for a hint"
    assert answer.get_by_text(re.compile(r"^Hint: ")).count() == 1
    # a page that reloads writes the lines again (its snapshot lists the game's hints)
    other.reload()
    again = other.locator("#cf-log").get_by_text(f"{name} used a hint")
    assert until(other, lambda: again.count() == 2), "the reloaded page lost the hint lines"


def test_the_review_page_draws_marks_and_the_graph(server: Any, new_page: Any) -> None:
    table = bot_game(server.base, "manitou", 2)
    page = new_page()
    page.goto(f"{server.base}/t/{table}")  # the table's end screen links the review
    page.get_by_role("link", name="Review the game").click()
    page.wait_for_url(re.compile(rf"/replay\?table={table}&game=1&.*review=1"))
    page.locator("#cf-review-title").get_by_text("Post-game review").wait_for()
    graph = page.locator("#cf-review-graph")
    graph.wait_for(timeout=600_000)  # the review runs in the server's pool (progress meanwhile)
    assert graph.locator("polyline.cf-review-line").count() == 2  # one line per seat
    moves = page.locator("#cf-review-moves li")
    assert moves.count() > 10
    marked = page.locator(
        "#cf-review-moves li.cf-mark-blunder, #cf-review-moves li.cf-mark-inaccuracy"
    )
    assert marked.count() >= 1 and graph.locator("circle.cf-review-dot").count() == marked.count()
    assert marked.first.locator(".cf-review-mark").inner_text() in ("blunder", "inaccuracy")
    summary = page.locator("#cf-review-summary li")
    assert summary.count() == 2 and "blunders" in summary.first.inner_text()
    assert page.locator("#cf-review-progress").is_hidden()
    # a marked move leads to the replay's step before it
    step = int(marked.first.locator("a").get_attribute("data-step") or "0")
    marked.first.locator("a").click()
    shown = until(page, lambda: page.evaluate("() => document.body.dataset.step") == str(step))
    assert shown, f"the replay did not go to step {step}"
