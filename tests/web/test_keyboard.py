"""Keyboard and screen readers: every move is a named button that Tab reaches and Enter plays."""

from __future__ import annotations

from typing import Any

from .people import create_table, seq_of, start

#: the accessible names of the focused element and of every move the table offers
_FOCUSED = "() => document.activeElement && document.activeElement.getAttribute('aria-label')"
#: the focused element's class names, one by one: a substring test would take another hand
#: card ("cf-actionable") for a place and pick it up instead of playing
_CLASSES = "() => [...document.activeElement.classList]"
_MOVES = """() => [...document.querySelectorAll('#cf-board button')].map(
  b => b.getAttribute('aria-label') || b.textContent.trim())"""


def test_moves_are_named_buttons_reached_by_tab_and_played_by_enter(
    server: Any, new_page: Any
) -> None:
    ann = new_page()
    create_table(ann, server.base, "dudab", 2, ["easy"], name="Ann")
    start(ann)
    ann.locator("#cf-board .cf-banner-you").wait_for()  # Ann's turn (the start player is drawn)
    moves = ann.evaluate(_MOVES)
    assert moves and all(name.strip() for name in moves)  # every move has a name
    cards = ann.locator("#cf-board [data-card]:not(button)")
    assert all(cards.nth(i).get_attribute("aria-label") for i in range(min(cards.count(), 20)))
    before = seq_of(ann)
    ann.locator("body").focus()
    named = None
    for _ in range(80):  # Tab through the page until a move has the focus
        ann.keyboard.press("Tab")
        focused = ann.evaluate(_FOCUSED)
        if focused in moves:
            named = focused
            break
    assert named is not None, moves
    ann.keyboard.press("Enter")
    # a move played, or a card picked up (then Tab to a place and Enter)
    ann.wait_for_function(
        """(before) => +document.body.dataset.seq > before
            || document.querySelector('#cf-board .cf-selected, #cf-board .cf-menu')""",
        arg=before,
    )
    if seq_of(ann) == before:
        for _ in range(80):
            ann.keyboard.press("Tab")
            classes = ann.evaluate(_CLASSES)
            if ("cf-hint" in classes or "cf-action" in classes) and "cf-cancel" not in classes:
                ann.keyboard.press("Enter")
                break
        else:
            raise AssertionError("Tab never reached a place for the picked-up card")
    ann.wait_for_function("(before) => +document.body.dataset.seq > before", arg=before)
    assert seq_of(ann) > before
    assert ann.errors == []
