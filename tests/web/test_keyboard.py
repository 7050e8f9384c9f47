"""Keyboard and screen readers: every move is a named button that Tab reaches and Enter plays."""

from __future__ import annotations

import random
from typing import Any

import campfire
from campfire.server.protocol import seat_display

from .people import click_something, create_table, seq_of, start, wait_for_js

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
    wait_for_js(
        ann,
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
    wait_for_js(ann, "(before) => +document.body.dataset.seq > before", before)
    assert seq_of(ann) > before
    assert ann.errors == []


def test_a_card_picked_up_by_keyboard_takes_the_focus_to_its_places(
    server: Any, new_page: Any
) -> None:
    """Enter on a card picks it up and moves on to its first place; Escape puts it back and
    the focus with it; Enter at a place plays (through the menu when a place has several)."""
    ann = new_page()
    create_table(ann, server.base, "dudab", 2, ["easy"], name="Ann")
    start(ann)
    board = ann.locator("#cf-board")
    cards = board.locator("button.cf-card[aria-pressed]")  # cards that can be picked up
    rng = random.Random(7)
    for _ in range(1000):  # Ann's turn with a card to pick up (else she clicks another move)
        if board.locator(".cf-banner-you").count() and cards.count():
            break
        if not click_something(ann, rng):
            ann.wait_for_timeout(30)
    else:
        raise AssertionError("Ann never had a card to pick up")
    if board.locator(".cf-selected").count():  # one the last random click picked up: put back
        ann.keyboard.press("Escape")
    assert board.locator(".cf-selected").count() == 0
    before = seq_of(ann)
    card = cards.first.get_attribute("data-card")
    cards.first.focus()
    ann.keyboard.press("Enter")
    board.locator("button.cf-card[aria-pressed=true]").wait_for()
    assert "cf-hint" in ann.evaluate(_CLASSES), ann.evaluate(_FOCUSED)  # on a place
    assert (ann.evaluate(_FOCUSED) or "").strip()
    ann.keyboard.press("Escape")  # put back, and the focus with it
    assert board.locator(".cf-selected").count() == 0
    assert ann.evaluate("() => document.activeElement.dataset.card") == card
    ann.keyboard.press("Enter")  # picked up again: on to its first place
    assert "cf-hint" in ann.evaluate(_CLASSES)
    for _ in range(2):  # the place; a menu's first move if the place has several
        ann.keyboard.press("Enter")
        if board.locator(".cf-menu").count() == 0:
            break
        assert "cf-action" in ann.evaluate(_CLASSES)  # the menu's first move has the focus
    wait_for_js(ann, "(before) => +document.body.dataset.seq > before", before)
    assert seq_of(ann) > before
    assert ann.errors == []


#: draws a display model into a box on the page, interactive: the moves chosen are kept
_DRAW = """async (display) => {
  const { renderTable } = await import("/static/js/render.js");
  const box = document.createElement("div");
  box.id = "cf-test-board";
  document.body.append(box);
  window.played = [];
  renderTable(box, display, { onAction: (choice) => window.played.push(choice.notation) });
}"""


def test_cancelling_a_menu_by_keyboard_brings_the_focus_back_to_its_place(
    server: Any, new_page: Any
) -> None:
    """Enter on a place with several moves opens their menu (focus on the first); cancelling
    it by keyboard brings the focus back to that place, not to the first move of the page.

    Tracker's first turn (seed 0) offers several moves at the centre, none from a card.
    """
    game = campfire.get_game("tracker")
    state = game.new_game(2, game.options(), seed=0)
    seat = state.seats_to_act()[0]
    legal = state.legal_actions(seat)
    display = seat_display(game, state.view(seat), legal, ["Ann", "Bob"]).to_json()
    at_centre = [a["notation"] for a in display["actions"] if a.get("target") == "centre"]
    assert len(at_centre) > 1 and not any(
        a.get("source") for a in display["actions"] if a.get("target") == "centre"
    )
    page = new_page()
    page.goto(f"{server.base}/")
    wait_for_js(page, "(document.documentElement?.lang ?? '') !== ''")  # the texts are in
    page.evaluate(_DRAW, display)
    board = page.locator("#cf-test-board")
    centre = board.locator('button[data-zone="centre"]')
    first = board.locator("button.cf-actionable, .cf-zone-button").first
    assert first.get_attribute("data-zone") != "centre"  # else the old focus would pass too
    centre.focus()
    page.keyboard.press("Enter")
    board.locator(".cf-menu").wait_for()
    assert "cf-action" in page.evaluate(_CLASSES)  # the menu's first move has the focus
    board.locator(".cf-cancel").focus()
    page.keyboard.press("Enter")
    assert board.locator(".cf-menu").count() == 0
    assert page.evaluate("() => document.activeElement.dataset.zone") == "centre"
    page.keyboard.press("Enter")  # the menu again, and its first move played
    page.keyboard.press("Enter")
    played = page.evaluate("() => window.played")
    assert len(played) == 1 and played[0] in at_centre, played
    assert page.errors == []
