"""A rematch asks the others: two people at a real-time Apache table finish a game; Ann asks
for another, Bob sees her proposal with Accept and Decline and declines (both pages say so);
then Bob proposes, Ann accepts, and the next game starts on both pages, where each of them gets
the new game's first claim window.

The first game is played over the table's socket with the seats the pages hold, the pages
following it (``people.play_by_socket``): a whole real-time Apache game by clicks is
``test_play``'s, and here it took a loaded machine 40 s more. The rematch is by clicks."""

from __future__ import annotations

import random
import re
from typing import Any

from .people import create_table, join_table, must, over, play_by_socket, start

AGAIN = "Play again (same seats)"


def _box(page: Any) -> str:
    box = page.locator("#cf-rematch-box")
    return "" if box.is_hidden() else str(box.inner_text())


def test_a_rematch_is_proposed_declined_then_accepted(server: Any, new_page: Any) -> None:
    ann, bob = new_page(), new_page(390, 844)
    table = create_table(ann, server.base, "apache", 2, ["open"], name="Ann", realtime=True)
    join_table(bob, server.base, table, "Bob")
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    assert play_by_socket(server.ws, table, [ann, bob], random.Random(3)) > 0
    for page in (ann, bob):
        must(page, lambda: over(page), "the end of the game")  # noqa: B023 (called now)

    # Ann proposes; Bob is asked, and nothing starts until he answers
    ann.get_by_role("button", name=AGAIN).click()
    must(bob, lambda: "Ann proposes a rematch" in _box(bob), "Ann's proposal on Bob's page")
    assert "Accepted so far: Ann" in _box(bob) and "Waiting for: Bob" in _box(bob)
    must(ann, lambda: "You proposed a rematch" in _box(ann), "Ann's own proposal")
    assert "Waiting for: Bob" in _box(ann)
    assert ann.get_by_role("button", name=AGAIN).is_hidden()
    assert over(ann) and over(bob)  # still the summary: no new game yet
    # Bob declines: both pages say so, and Ann may ask again
    bob.get_by_role("button", name="Decline").click()
    for page in (ann, bob):
        declined = "Bob declined the rematch."
        must(page, lambda: declined in _box(page), "the decline")  # noqa: B023 (called now)
    assert ann.get_by_role("button", name=AGAIN).is_visible()
    assert over(ann) and over(bob)

    # Bob proposes, Ann accepts: the next game starts on both pages
    bob.get_by_role("button", name=AGAIN).click()
    must(ann, lambda: "Bob proposes a rematch" in _box(ann), "Bob's proposal on Ann's page")
    ann.get_by_role("button", name="Accept").click()
    must(ann, lambda: not over(ann) and not over(bob), "the new game on both pages")
    assert _box(ann) == "" and _box(bob) == ""

    # the new game's first claim window reaches each of them
    reveal = re.compile("^Turn up the next prairie card")

    def turned() -> bool:
        for page in (ann, bob):
            button = page.get_by_role("button", name=reveal)
            if button.count():
                button.click()
                return True
        return False

    must(ann, turned, "the first card to turn up")
    must(
        ann,
        lambda: (
            ann.locator("#cf-realtime button").count()
            and bob.locator("#cf-realtime button").count()
        ),
        "the first claim window on both pages",
    )
    assert ann.errors == [] and bob.errors == []
