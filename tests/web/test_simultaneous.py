"""A simultaneous step in two browsers: an answer on its way is not offered again.

In Big Manitou's selection both people choose at once. Ann's answer is held on its way to the
server (a routed WebSocket) while Bob's arrives: the step Bob made reaches Ann's page, and her
choice, unchanged by it, is not offered again (a second answer would be refused). Released, her
answer to the earlier step is accepted by the server (issue 26, item 2).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from .people import _PICK, click_something, create_table, join_table, seq_of, start, until


def _offered(page: Any) -> int:
    """How many things the page's table offers to click now."""
    count: int = page.evaluate(_PICK, [0.0, 0.0, None])["n"]
    return count


def test_an_answer_on_its_way_is_not_offered_again_after_another_seats_answer(
    server: Any, new_page: Any
) -> None:
    ann, bob = new_page(), new_page(390, 844)
    held: list[str] = []
    to_server: list[Any] = []

    def route(ws: Any) -> None:  # Ann's table socket: her actions wait until released
        upstream = ws.connect_to_server()
        to_server.append(upstream)

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "action":
                held.append(message)
            else:
                upstream.send(message)

        ws.on_message(from_page)

    ann.route_web_socket(re.compile(r"/ws/tables/"), route)
    table = create_table(ann, server.base, "manitou", 2, ["open"], name="Ann")
    join_table(bob, server.base, table, "Bob")
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    rng = random.Random(3)
    assert until(ann, lambda: _offered(ann) and _offered(bob)), "both select at once"
    for _ in range(10):  # a pick may take a click on the card, then one on its move
        if held:
            break
        click_something(ann, rng)
        until(ann, lambda: held, seconds=0.3)
    assert len(held) == 1 and seq_of(ann) == 0
    assert until(ann, lambda: not _offered(ann)), "Ann's answer is on its way"
    for _ in range(10):
        if seq_of(bob) == 1:
            break
        click_something(bob, rng)
        until(bob, lambda: seq_of(bob) == 1, seconds=0.3)
    # (the page draws its choices with the step's seq, data-seq: in the same redraw)
    assert until(ann, lambda: seq_of(ann) == 1), "Ann's page shows Bob's step"
    assert _offered(ann) == 0 and len(held) == 1
    to_server[-1].send(held.pop())  # on its way again: it answers step 0, the table is at 1
    assert until(ann, lambda: seq_of(ann) == 2), "the server took Ann's answer"
    assert until(ann, lambda: _offered(ann)), "Ann's next choice"
    assert ann.errors == [] and bob.errors == []
