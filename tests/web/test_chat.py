"""The table's chat in the browser: two players and a spectator.

Ann and Bob play; Cleo watches on a phone (390×844). The players' lines reach all three, as
text (markup in a line stays text); Cleo's line reaches the spectators only; Bob mutes Ann
and her lines stay hidden on his page after a reload (kept in his browser), until he unmutes
her. Cleo's panel starts folded on the phone and counts the lines that came meanwhile.
"""

from __future__ import annotations

from typing import Any

from tests.server.live_server import LiveServer

from .people import create_table, join_table, start, until

LINES = "#cf-chat .cf-chat-line"


def _say(page: Any, text: str) -> None:
    page.locator("#cf-chat-input").fill(text)
    page.get_by_role("button", name="Send").click()


def _texts(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(f"{LINES} .cf-chat-text").all_text_contents()]


def _shows(page: Any, text: str) -> bool:
    return text in _texts(page)


def _comes(page: Any, text: str) -> bool:
    """Wait until ``page`` shows the line ``text``; whether it did."""
    return bool(until(page, lambda: _shows(page, text)))


def test_two_players_and_a_spectator_chat(server: LiveServer, new_page: Any) -> None:
    ann, bob = new_page(), new_page()
    table = create_table(ann, server.base, "tracker", 2, ["open"], name="Ann")
    join_table(bob, server.base, table, "Bob")
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    cleo = new_page(390, 844)
    cleo.goto(f"{server.base}/t/{table}")
    cleo.locator("#cf-board .cf-table-view").wait_for()

    # on a phone the chat starts folded; opened, it reads as a player's or a spectator's
    chat = cleo.locator("#cf-chat")
    assert chat.get_attribute("open") is None and cleo.locator("#cf-chat-input").is_hidden()
    assert ann.locator("#cf-chat").get_attribute("open") is not None  # beside the board

    markup = 'Hello <b id="bold">Bob</b> <img src=x onerror="window.pwned=1">'
    _say(ann, markup)
    for page in (ann, bob):
        assert _comes(page, markup), "the line never came"
    assert bob.locator("#cf-chat #bold").count() == 0  # text, never HTML
    assert bob.evaluate("window.pwned === undefined")
    assert until(cleo, lambda: "1 new" in (cleo.locator("#cf-chat summary").text_content() or ""))

    cleo.locator("#cf-chat summary").click()
    assert until(cleo, lambda: _shows(cleo, markup))
    assert "1 new" not in (cleo.locator("#cf-chat summary").text_content() or "")
    cleo.locator("#cf-chat-input").wait_for()
    assert "spectators" in (cleo.locator("#cf-chat-input").get_attribute("placeholder") or "")
    _say(cleo, "Go Ann!")
    assert until(cleo, lambda: _shows(cleo, "Go Ann!"))

    # the players never get the spectators' line: Bob's next line comes, Cleo's does not
    _say(bob, "thanks, good luck")
    for page in (ann, bob, cleo):
        assert _comes(page, "thanks, good luck")
    assert not _shows(ann, "Go Ann!") and not _shows(bob, "Go Ann!")
    names = bob.locator(f"{LINES} .cf-chat-name").all_text_contents()
    assert names == ["Ann", "Bob"]

    # Bob mutes Ann: her lines go from his page, and stay gone after a reload
    bob.get_by_role("button", name="Mute Ann").first.click()
    assert until(bob, lambda: not _shows(bob, markup))
    _say(ann, "are you there?")
    assert until(ann, lambda: _shows(ann, "are you there?"))
    assert until(cleo, lambda: _shows(cleo, "are you there?"))
    bob.reload()
    assert until(bob, lambda: _shows(bob, "thanks, good luck"))  # the history came
    assert not _shows(bob, markup) and not _shows(bob, "are you there?")
    bob.get_by_role("button", name="Unmute Ann").click()
    assert until(bob, lambda: _shows(bob, "are you there?"))
    assert _texts(bob) == [markup, "thanks, good luck", "are you there?"]
    # the muting was Bob's alone
    assert _shows(cleo, markup) and _shows(ann, markup)

    # a line too long never leaves the page: the field holds at most 300 characters
    ann.locator("#cf-chat-input").fill("x" * 400)
    assert len(ann.locator("#cf-chat-input").input_value()) == 300
    for page in (ann, bob, cleo):
        assert page.errors == []
