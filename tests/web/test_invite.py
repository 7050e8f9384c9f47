"""Invitations and presence, as people do them in two and three browsers.

The creator sees each reserved seat's own link, labelled with the friend's name, apart from the
link for anyone; a friend who first opened the table's plain address and then their personal
link in the same tab takes their seat without a reload, and keeps or changes their name; the
waiting room and the players' panels say who is here and who is away; a start with someone
missing asks the creator first.
"""

from __future__ import annotations

import random
import re
from typing import Any

from tests.server.live_server import LiveServer

from .people import click_something, create_table, until, wait_for_js


def _seat_line(page: Any, seat: int) -> str:
    text: str = page.locator(f"#cf-waiting li.cf-seat[data-seat='{seat}']").inner_text()
    return text


def test_personal_links_names_presence_and_a_start_that_waits_for_everyone(
    server: LiveServer, new_page: Any
) -> None:
    ann, bob = new_page(), new_page(390, 844)
    table = create_table(
        ann, server.base, "tracker", 3, ["friend", "friend"], friends=["Bob", "Cleo"]
    )
    # each friend's own link, labelled; no link for anyone (no seat is open)
    ann.get_by_text("Personal links").wait_for()
    bob_link = ann.get_by_label("For Bob (seat 2)").input_value()
    cleo_link = ann.get_by_label("For Cleo (seat 3)").input_value()
    assert bob_link != cleo_link and "#seat=1&token=" in bob_link and "#seat=2&token=" in cleo_link
    assert ann.get_by_text("Link for anyone").count() == 0
    assert "not here yet" in _seat_line(ann, 1)

    # Bob first opens the table's plain address (he watches), then his link in the same tab
    bob.goto(f"{server.base}/t/{table}")
    bob.locator("#cf-spectator").wait_for()
    bob.goto(bob_link)  # only the #fragment changes: no page loads
    bob.get_by_role("button", name="Leave the seat").wait_for()
    name = bob.get_by_label("Your name")
    assert name.input_value() == "Bob"  # the creator's name for him, to keep or change
    name.fill("Robert")
    bob.get_by_role("button", name="That is my name").click()
    until(ann, lambda: "Robert" in _seat_line(ann, 1))
    assert ann.locator("#cf-waiting [data-presence='1']").inner_text() == "here"
    assert bob.get_by_label("Your name").count() == 0

    # Cleo has not come: the start asks first, and Ann waits
    ann.get_by_role("button", name="Start the game").click()
    confirm = ann.locator("#cf-waiting .cf-confirm")
    confirm.wait_for()
    assert "Cleo" in confirm.inner_text() and "Robert" not in confirm.inner_text()
    ann.get_by_role("button", name="Wait").click()
    assert until(ann, lambda: confirm.count() == 0)

    cleo = new_page()
    cleo.goto(cleo_link)
    cleo.get_by_role("button", name="That is my name").click()  # she keeps "Cleo"
    until(ann, lambda: "not here yet" not in _seat_line(ann, 2))
    assert ann.locator("#cf-waiting [data-presence='2']").inner_text() == "here"
    ann.get_by_role("button", name="Start the game").click()
    for page in (ann, bob, cleo):
        page.locator("#cf-board .cf-table-view").wait_for()
    panel = ann.locator("#cf-board li.cf-player[data-seat='1']")
    assert "Robert" in panel.inner_text()
    assert panel.locator("[data-presence='1']").inner_text() == "here"

    # Cleo closes her tab: the others see her away, counting on
    cleo.close()
    away = ann.locator("#cf-board [data-presence='2']")
    until(ann, lambda: re.fullmatch(r"away \d+ s", away.inner_text()) is not None)
    assert re.fullmatch(r"away \d+ s", away.inner_text())
    # Ann and Bob play on until it is Cleo's turn: the table says whom it waits for
    rng = random.Random(3)
    waiting = ann.locator("#cf-waiting-for")
    for _ in range(300):
        if waiting.is_visible():
            break
        for page in (ann, bob):
            click_something(page, rng)
        ann.wait_for_timeout(30)
    assert re.fullmatch(r"Waiting for Cleo \(away \d+ s\)", waiting.inner_text())
    assert ann.errors == [] and bob.errors == []


def test_the_creator_starts_with_a_bot_in_a_missing_friends_seat(
    server: LiveServer, new_page: Any
) -> None:
    ann = new_page()
    create_table(ann, server.base, "tracker", 2, ["friend"], friends=["Dora"])
    ann.get_by_role("button", name="Start the game").click()
    confirm = ann.locator("#cf-waiting .cf-confirm")
    confirm.wait_for()
    assert "Dora" in confirm.inner_text()
    ann.get_by_role("button", name="Start with bots").click()
    ann.locator("#cf-board .cf-table-view").wait_for()
    panel = ann.locator("#cf-board li.cf-player[data-seat='1']")
    wait_for_js(
        ann,
        "() => document.querySelector(\"#cf-board li.cf-player[data-seat='1']\")"
        "?.textContent.includes('a bot plays for them')",
    )
    assert panel.locator("[data-presence='1']").inner_text() == "not here yet"
    assert ann.errors == []
