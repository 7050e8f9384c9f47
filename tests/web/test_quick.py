"""Play now and moderation in the browser, by clicking: two people who press Play now for the
same game land at one table; a lone player gets bots after the wait; a player blocked on the
account page cannot join the blocker's table, and a report is sent from the account page."""

from __future__ import annotations

import re
import secrets
from typing import Any

from .people import create_table, must, sign_up, until


def _play_now(page: Any, base: str, game: str, players: int, wait: str) -> None:
    page.goto(f"{base}/")
    page.get_by_label("What to play").select_option(game)
    page.get_by_label("How many of you").select_option(str(players))
    page.get_by_label("Bots fill the empty seats after").select_option(label=wait)
    page.get_by_role("button", name="Play now").click()
    page.wait_for_url(re.compile(r"/play\?"))


def _name(page: Any, name: str) -> None:
    page.add_init_script(f"localStorage.setItem('campfire.nickname', {name!r})")


def test_two_people_who_press_play_now_land_at_one_table(server: Any, new_page: Any) -> None:
    ann, bob = new_page(), new_page()
    _name(ann, "Ann")
    _name(bob, "Bob")
    _play_now(ann, server.base, "manitou", 2, "5 minutes")
    waiting = ann.locator("#cf-play-waiting")
    must(ann, lambda: "Ann" in waiting.inner_text(), "Ann waits")
    assert "Bots fill the empty seats in" in ann.locator("#cf-play-countdown").inner_text()
    _play_now(bob, server.base, "manitou", 2, "5 minutes")
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/t/\d+$"))
        page.locator("#cf-board .cf-table-view").wait_for()
    assert ann.url == bob.url
    names = ann.locator(".cf-player").all_inner_texts()
    assert any("Ann" in n for n in names) and any("Bob" in n for n in names)
    assert ann.errors == [] and bob.errors == []


def test_a_lone_player_gets_bots_after_the_wait(server: Any, new_page: Any) -> None:
    cy = new_page()
    _name(cy, "Cyd")
    _play_now(cy, server.base, "dudab", 3, "10 seconds")
    assert until(cy, lambda: "/t/" in cy.url, seconds=120), "bots never came"
    cy.locator("#cf-board .cf-table-view").wait_for()
    players = cy.locator(".cf-player").all_inner_texts()
    assert len(players) == 3 and any("Cyd" in p for p in players)
    assert sum("easy" in p.lower() for p in players) == 2  # the default level
    assert cy.errors == []


def _notice(page: Any, text: str) -> None:
    notice = page.locator("#cf-notice")
    must(page, lambda: text in (notice.inner_text() if notice.is_visible() else ""), text)


def test_a_blocked_player_cannot_join_and_a_report_is_sent(server: Any, new_page: Any) -> None:
    ann_name, bob_name = f"Ann{secrets.token_hex(3)}", f"Bob{secrets.token_hex(3)}"
    ann, bob = new_page(), new_page()
    sign_up(bob, server.base, bob_name)
    sign_up(ann, server.base, ann_name)
    blocks = ann.locator("#cf-blocks-panel")
    # the list is read after sign-up: wait for it (visible), as for the button after a block
    blocks.get_by_text("You block nobody.").wait_for()
    blocks.get_by_label("User name").fill(bob_name)
    blocks.get_by_role("button", name="Block").click()
    _notice(ann, f"{bob_name} is blocked.")
    blocks.get_by_role("button", name=f"Unblock {bob_name}").wait_for()
    report = ann.locator("#cf-report")
    report.get_by_label("Player (user name)").fill(bob_name)
    report.get_by_label("What happened", exact=True).select_option("spam")
    report.get_by_label("Tell the operator what happened").fill("He sends links in the chat.")
    report.get_by_role("button", name="Send the report").click()
    _notice(ann, "the report was sent to the operator")

    table = create_table(ann, server.base, "tracker", 2, ["open"], name="Ann")
    bob.goto(f"{server.base}/t/{table}")
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Take this seat").first.click()
    _notice(bob, "has blocked you, or you have blocked them")
    assert bob.get_by_role("button", name="Leave the seat").count() == 0

    ann.goto(f"{server.base}/account")  # unblocked, Bob may sit with Ann
    ann.get_by_role("button", name=f"Unblock {bob_name}").click()
    _notice(ann, f"{bob_name} is no longer blocked.")
    bob.get_by_role("button", name="Take this seat").first.click()
    bob.get_by_role("button", name="Leave the seat").wait_for()

    # at the table, the Players panel reports and blocks a player by their seat
    ann.goto(f"{server.base}/t/{table}")
    panel = ann.locator("#cf-moderate")
    must(ann, panel.is_visible, "the Players panel")
    panel.locator("summary").click()  # (folded at first)
    must(ann, lambda: "Bob" in panel.inner_text(), "Bob in Players")
    panel.get_by_role("button", name="Report Bob").click()
    form = panel.get_by_role("form", name="Report Bob")
    form.get_by_label("What happened", exact=True).select_option("abuse")
    form.get_by_label("Tell the operator what happened").fill("Insults at table.")
    form.get_by_role("button", name="Send the report").click()
    _notice(ann, "the report was sent to the operator")
    panel.get_by_role("button", name="Block Bob").click()
    _notice(ann, "Bob is blocked")
    ann.goto(f"{server.base}/account")
    ann.get_by_role("button", name=f"Unblock {bob_name}").wait_for()
    assert ann.errors == [] and bob.errors == []
