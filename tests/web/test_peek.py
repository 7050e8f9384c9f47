"""Tracker's peek in the browser: the card is shown to the peeker only, for a few seconds.

The player to act peeks at a position by clicking it: their page lays the card face up there
(its name read from the event addressed to them alone), the other player's page shows the same
place face down with the "peeked" mark, and a few seconds later the peeker's card is turned back.
"""

from __future__ import annotations

import re
from typing import Any

from .people import create_table, join_table, start, until

FACE = re.compile(r"scout|false track")


def test_a_peeked_card_is_shown_to_the_peeker_only_then_turned_back(
    server: Any, new_page: Any
) -> None:
    ann, bob = new_page(), new_page(390, 844)
    table = create_table(ann, server.base, "tracker", 2, ["open"], name="Ann")
    join_table(bob, server.base, table, "Bob")
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    peek = re.compile(r"^Peek at position (\d+)$")
    peeker = until(
        ann,
        lambda: next((p for p in (ann, bob) if p.get_by_role("button", name=peek).count()), None),
    )
    if peeker is None:
        raise AssertionError("nobody could peek")
    other = bob if peeker is ann else ann
    button = peeker.get_by_role("button", name=peek).nth(9)
    position = peek.match(button.get_attribute("aria-label") or "")
    assert position is not None
    place = f'#cf-board [data-card="pos:{position.group(1)}"]'
    button.press("Enter")  # by keyboard: the cards are buttons
    shown = peeker.locator(place)
    until(peeker, lambda: FACE.search(shown.get_attribute("aria-label") or ""))
    label = shown.get_attribute("aria-label") or ""
    assert FACE.search(label), label
    # the face the page draws for the peeker (``data-face``: its short code|colour|owner)
    face = shown.get_attribute("data-face")
    assert face, label
    # the other player: the same place face down, marked as peeked, its card nowhere on the page
    seen = other.locator(place)
    until(other, lambda: "peeked" in (seen.get_attribute("aria-label") or ""))
    assert "peeked" in (seen.get_attribute("aria-label") or "")
    assert not FACE.search(seen.get_attribute("aria-label") or "")
    assert seen.get_attribute("data-face") is None  # drawn face down: no face to read
    # a few seconds later the peeker's card is turned back
    until(peeker, lambda: not FACE.search(shown.get_attribute("aria-label") or ""))
    assert not FACE.search(shown.get_attribute("aria-label") or "")
    assert shown.get_attribute("data-face") is None  # face down again
    assert ann.errors == [] and bob.errors == []
