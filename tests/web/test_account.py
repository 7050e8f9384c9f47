"""Accounts in the browser, by clicking: sign up (claiming the guest's game), sign out, sign
in, change the password, delete the account (the game stays, "deleted player")."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

import pytest

from tests.server.live_server import http

from .people import create_table, must


def _notice(page: Any, text: str) -> None:
    notice = page.locator("#cf-notice")
    must(page, lambda: text in (notice.inner_text() if notice.is_visible() else ""), text)


def _sign_in(page: Any, name: str, password: str) -> None:
    form = page.locator("#cf-signin")
    form.get_by_label("User name").fill(name)
    form.get_by_label("Password", exact=True).fill(password)
    form.get_by_role("button", name="Sign in").click()


def test_sign_up_out_in_change_the_password_and_delete_by_clicking(
    server: Any, new_page: Any
) -> None:
    name = f"Ann{secrets.token_hex(3)}"
    ann = new_page()
    table = create_table(ann, server.base, "dudab", 2, ["easy"], name="Ann")  # as a guest
    ann.goto(f"{server.base}/")
    ann.get_by_role("link", name="Sign in").click()  # the lobby's header offers it
    ann.wait_for_url("**/account")
    signup = ann.locator("#cf-signup")
    signup.get_by_label("User name").fill(name)
    signup.get_by_label("Password", exact=True).fill("first password")
    assert signup.get_by_label("Make the games this browser plays mine").is_checked()
    assert not ann.locator("#cf-signup-email-row").is_visible()  # no SMTP: no e-mail asked for
    signup.get_by_role("button", name="Sign up").click()
    _notice(ann, f"Welcome, {name}! 1 game of this browser is yours now.")
    assert ann.get_by_role("heading", name=f"Signed in as {name}").is_visible()

    ann.get_by_role("link", name="Lobby").click()  # the lobby shows who is signed in
    ann.wait_for_url(f"{server.base}/")
    must(ann, lambda: ann.get_by_label("Your name").input_value() == "Ann", "the kept name")
    ann.get_by_role("link", name=re.compile(f"^Signed in as {name}")).click()
    ann.wait_for_url("**/account")

    ann.get_by_role("button", name="Sign out").click()
    _notice(ann, "You are signed out.")
    assert ann.locator("#cf-signin").is_visible()

    _sign_in(ann, name, "not the password")
    _notice(ann, "not right")
    _sign_in(ann, name, "first password")
    must(ann, ann.get_by_role("heading", name=f"Signed in as {name}").is_visible, "signed in")

    change = ann.locator("#cf-password")
    change.get_by_label("Current password").fill("first password")
    change.get_by_label("New password").fill("second password")
    change.get_by_role("button", name="Change the password").click()
    _notice(ann, "The password was changed")
    ann.get_by_role("button", name="Sign out").click()
    _notice(ann, "You are signed out.")
    _sign_in(ann, name, "second password")
    must(ann, ann.get_by_role("heading", name=f"Signed in as {name}").is_visible, "signed in")

    remove = ann.locator("#cf-delete")
    remove.get_by_label("Password", exact=True).fill("second password")
    remove.get_by_role("button", name="Delete my account").click()
    _notice(ann, "Your account was deleted.")
    assert ann.locator("#cf-signup").is_visible()
    status, text = http("GET", f"{server.base}/api/tables/{table}")
    assert status == 200
    seats = json.loads(text)["table"]["seats"]
    assert seats[0]["nickname"] == "deleted player"  # the game stays
    ann.goto(f"{server.base}/")
    assert ann.get_by_role("link", name="Sign in").is_visible()  # a guest again
    assert ann.errors == []


def test_the_account_page_passes_the_accessibility_check(server: Any, new_page: Any) -> None:
    from .test_axe import at_each_size

    page = new_page()
    page.goto(f"{server.base}/account")
    page.locator("#cf-signup").wait_for()
    at_each_size(page, "the account page, signed out")
    signup = page.locator("#cf-signup")
    signup.get_by_label("User name").fill(f"Axe{secrets.token_hex(3)}")
    signup.get_by_label("Password", exact=True).fill("a password here")
    signup.get_by_role("button", name="Sign up").click()
    page.locator("#cf-delete").wait_for()
    at_each_size(page, "the account page, signed in")


def test_a_forgotten_password_is_reset_by_email(
    new_page: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """With an SMTP server (a local aiosmtpd here), the page offers an e-mail address and a
    reset link; the link from the e-mail sets a new password."""
    from tests.server.live_server import LiveServer
    from tests.server.test_account_mail import Inbox, _body, _free_port

    controller = pytest.importorskip("aiosmtpd.controller")
    inbox = Inbox()
    smtp = controller.Controller(inbox, hostname="127.0.0.1", port=_free_port())
    smtp.start()
    server = LiveServer(
        None,
        tmp_path_factory.mktemp("mail"),
        args=("--smtp-host", "127.0.0.1", "--smtp-port", str(smtp.port)),
    )
    try:
        name = f"Bea{secrets.token_hex(3)}"
        bea = new_page()
        bea.goto(f"{server.base}/account")
        signup = bea.locator("#cf-signup")
        signup.get_by_label("User name").fill(name)
        signup.get_by_label("Password", exact=True).fill("forgotten soon")
        signup.get_by_label(re.compile("^E-mail address")).fill("bea@example.org")
        signup.get_by_role("button", name="Sign up").click()
        must(bea, bea.get_by_role("heading", name=f"Signed in as {name}").is_visible, "in")
        bea.get_by_role("button", name="Sign out").click()
        _notice(bea, "You are signed out.")
        forgot = bea.locator("#cf-forgot")
        forgot.get_by_label("User name").fill(name)
        forgot.get_by_role("button", name="E-mail me a reset link").click()
        _notice(bea, "a link is on its way")
        must(bea, lambda: inbox.messages, "the e-mail")
        found = re.search(r"(http://\S+/account#reset=[A-Za-z0-9_-]+)", _body(inbox.messages[0]))
        assert found is not None and inbox.recipients == [["bea@example.org"]]
        bea.goto(found.group(1))
        reset = bea.locator("#cf-reset")
        reset.get_by_label("New password").fill("remembered now")
        reset.get_by_role("button", name="Save the new password").click()
        _notice(bea, "The password was changed. Sign in with it.")
        assert "#reset" not in bea.url  # the spent token left the address bar
        _sign_in(bea, name, "remembered now")
        must(bea, bea.get_by_role("heading", name=f"Signed in as {name}").is_visible, "in")
        assert bea.errors == []
    finally:
        server.stop()
        smtp.stop()
