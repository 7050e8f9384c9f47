"""The accounts' e-mail, against a local SMTP server (``aiosmtpd``): password resets by a
one-time, expiring link; the notification hook; nothing of e-mail without SMTP.
"""

from __future__ import annotations

import asyncio
import datetime
import email
import json
import re
import socket
import time
from collections.abc import Iterator
from email.header import decode_header, make_header
from email.message import Message
from typing import Any

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient

from campfire.core import get as get_game
from campfire.server.accounts import RESET_MINUTES
from campfire.server.app import create_app
from campfire.server.db import make_engine, session_factory
from campfire.server.mail import Mailer, MailSettings
from campfire.server.models import PasswordResetRow
from campfire.server.proxy import ProxySettings
from campfire.server.turns import TurnKeeper

from .helpers import Seat, wait_for
from .test_accounts import PASSWORD, client, csrf, error, settings, sign_up

aiosmtpd = pytest.importorskip("aiosmtpd.controller", reason="the e-mail tests need aiosmtpd")


class Inbox:
    """An ``aiosmtpd`` handler that keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.recipients: list[list[str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        """Keep the message."""
        self.messages.append(email.message_from_bytes(envelope.content))
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, MailSettings]]:
    """A local SMTP server and the settings that send to it."""
    inbox = Inbox()
    controller = aiosmtpd.Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield inbox, MailSettings("127.0.0.1", controller.port, "games@example.org")
    finally:
        controller.stop()


def _body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")


def test_a_password_reset_goes_by_email_and_works_once(
    db_url: str, smtp: tuple[Inbox, MailSettings]
) -> None:
    inbox, mail = smtp
    with client(db_url, accounts=settings(mail=mail)) as c:
        assert c.get("/api/account").json()["mail"] is True
        sign_up(c, email="ann@example.org")
        c.cookies.clear()
        sign_up(c, "Bob")  # (Bob has no address: nothing is sent for him)
        c.cookies.clear()
        for name in ("Bob", "Nobody", "ann"):  # the same answer whoever asks
            answer = c.post("/api/account/reset", json={"user_name": name})
            assert answer.status_code == 202 and answer.json() == {"requested": True}
        [message] = inbox.messages
        assert inbox.recipients == [["ann@example.org"]]
        assert message["From"] == "games@example.org" and "password" in message["Subject"]
        text = _body(message)
        assert "Ann" in text and str(RESET_MINUTES) in text
        found = re.search(r"http://testserver/account#reset=([A-Za-z0-9_-]+)", text)
        assert found is not None, text
        token = found.group(1)
        short = c.post("/api/account/reset/confirm", json={"token": token, "new_password": "x"})
        error(short, 400, "bad_password")
        done = c.post(
            "/api/account/reset/confirm", json={"token": token, "new_password": "a fresh one!"}
        )
        assert done.status_code == 200, done.text
        again = c.post(
            "/api/account/reset/confirm", json={"token": token, "new_password": "another one!"}
        )
        error(again, 400, "bad_reset")
        old = c.post("/api/account/signin", json={"user_name": "Ann", "password": PASSWORD})
        error(old, 401, "bad_credentials")
        new = c.post("/api/account/signin", json={"user_name": "Ann", "password": "a fresh one!"})
        assert new.status_code == 200


def test_a_reset_link_expires(sqlite_url: str, smtp: tuple[Inbox, MailSettings]) -> None:
    inbox, mail = smtp
    with client(sqlite_url, accounts=settings(mail=mail)) as c:
        sign_up(c, email="ann@example.org")
        c.post("/api/account/reset", json={"user_name": "Ann"})
        token = re.findall(r"#reset=([A-Za-z0-9_-]+)", _body(inbox.messages[0]))[0]
        engine = make_engine(sqlite_url)
        with session_factory(engine).begin() as s:
            past = datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=1)
            s.execute(update(PasswordResetRow).values(expires=past))
        engine.dispose()
        answer = c.post(
            "/api/account/reset/confirm", json={"token": token, "new_password": "a fresh one!"}
        )
        assert str(RESET_MINUTES) in error(answer, 400, "bad_reset")


def test_the_email_address_is_set_and_removed(
    sqlite_url: str, smtp: tuple[Inbox, MailSettings]
) -> None:
    _, mail = smtp
    with client(sqlite_url, accounts=settings(mail=mail)) as c:
        sign_up(c)
        bad = c.post("/api/account/email", json={"email": "not an address"}, headers=csrf(c))
        error(bad, 400, "bad_email")
        error(c.post("/api/account/email", json={"email": "a@b.cd"}), 403, "bad_csrf")
        answer = c.post("/api/account/email", json={"email": "ann@example.org"}, headers=csrf(c))
        assert answer.json()["user"]["email"] == "ann@example.org"
        assert c.get("/api/account/export").json()["user"]["email"] == "ann@example.org"
        answer = c.post("/api/account/email", json={"email": None}, headers=csrf(c))
        assert answer.json()["user"]["email"] is None


def test_without_smtp_nothing_of_email_is_offered(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        assert c.get("/api/account").json()["mail"] is False
        with_address = c.post(
            "/api/account/signup",
            json={"user_name": "Ann", "password": PASSWORD, "email": "ann@example.org"},
        )
        error(with_address, 400, "no_mail")
        sign_up(c)
        error(c.post("/api/account/reset", json={"user_name": "Ann"}), 404, "no_mail")
        error(c.post("/api/account/email", json={"email": None}, headers=csrf(c)), 404, "no_mail")


def test_the_notification_hook_sends_to_a_user_with_an_address(
    smtp: tuple[Inbox, MailSettings],
) -> None:
    inbox, mail = smtp
    mailer = Mailer(mail)

    async def run() -> list[bool]:
        return [
            await mailer.notify("ann@example.org", "Campfire: your turn", "Table 3 waits for you."),
            await mailer.notify(None, "Campfire: your turn", "nobody to tell"),
        ]

    assert asyncio.run(run()) == [True, False]
    [message] = inbox.messages
    assert message["Subject"] == "Campfire: your turn" and message["To"] == "ann@example.org"
    assert message["Auto-Submitted"] == "auto-generated"
    assert "Table 3 waits for you." in _body(message)


def test_a_user_is_notified_at_their_address(
    sqlite_url: str, smtp: tuple[Inbox, MailSettings]
) -> None:
    inbox, mail = smtp
    app_settings = settings(mail=mail)
    with client(sqlite_url, accounts=app_settings) as c:
        sign_up(c, email="ann@example.org")
        c.cookies.clear()
        sign_up(c, "Bob")
        service = c.app.state.accounts  # type: ignore[attr-defined]
        sent = [
            asyncio.run(service.notify(1, "Campfire: your turn", "Table 1 waits for you.")),
            asyncio.run(service.notify(2, "Campfire: your turn", "Bob has no address")),
            asyncio.run(service.notify(99, "Campfire: your turn", "nobody")),
        ]
    assert sent == [True, False, False]
    assert inbox.recipients == [["ann@example.org"]]
    with client(sqlite_url) as c:  # no SMTP: nothing is sent
        assert asyncio.run(c.app.state.accounts.notify(1, "s", "b")) is False  # type: ignore[attr-defined]


def test_an_unreachable_smtp_server_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    mailer = Mailer(MailSettings("127.0.0.1", _free_port()))  # nothing listens there
    assert asyncio.run(mailer.send("ann@example.org", "s", "b")) is False
    assert "could not be sent" in caplog.text


def test_mail_settings_are_checked() -> None:
    from campfire.core import OptionError

    for host, port, sender in (("", 25, "a@b.c"), ("h", 70000, "a@b.c"), ("h", 25, "nobody")):
        with pytest.raises(OptionError):
            MailSettings(host, port, sender)
    settings_ = MailSettings("mail.example.org", 587, "games@example.org")
    assert MailSettings(**json.loads(settings_.to_json())) == settings_


# ----- "your turn" ------------------------------------------------------------------------------

TURN = {"kind": "turn", "seconds": 86_400, "on_timeout": "loss"}
PUBLIC = "https://games.example.org"


def _inbox_of(inbox: Inbox, address: str) -> list[Message]:
    return [m for m, to in zip(inbox.messages, inbox.recipients, strict=True) if address in to]


def test_your_turn_goes_by_email_to_the_player_away_once_in_their_language(
    db_url: str, smtp: tuple[Inbox, MailSettings]
) -> None:
    inbox, mail = smtp
    proxy = ProxySettings(public_origin=PUBLIC)
    with client(db_url, accounts=settings(mail=mail), proxy=proxy) as c:
        sign_up(c, "Bob", email="bob@example.org")
        bob = dict(c.cookies)
        c.cookies.clear()
        sign_up(c, "Ann", email="ann@example.org")
        body = {
            "game": "tracker",
            "players": 2,
            "seats": [{"kind": "reserved", "nickname": "Ann"}, {"kind": "open"}],
            "clock": TURN,
        }
        made = c.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        table, ann_token = made.json()["table"]["id"], made.json()["tokens"]["0"]
        c.cookies.clear()
        for name, value in bob.items():
            c.cookies.set(name, value)
        joined = c.post(f"/api/tables/{table}/join", json={"nickname": "Bob"})
        assert joined.status_code == 201, joined.text
        with c.websocket_connect(f"/ws/tables/{table}?token={joined.json()['token']}&lang=hu"):
            pass  # Bob's page was Hungarian; he is away now
        with c.websocket_connect(f"/ws/tables/{table}?token={ann_token}") as ws:
            ann = Seat(ws, 0)
            assert ann.receive()["type"] == "snapshot"
            started = c.post(
                f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {ann_token}"}
            )
            assert started.status_code == 200, started.text
            ann.receive()
            while ann.last["legal"]:  # Ann (here) plays until it is Bob's turn
                ann.act(ann.last["legal"][0]["notation"])
                ann.receive()
            told = wait_for(lambda: _inbox_of(inbox, "bob@example.org"), "Bob's e-mail")
            bobs_turn = (1, ann.last["seq"], 1)  # (game, position, seat): what was told
        assert len(told) == 1 and _inbox_of(inbox, "ann@example.org") == []  # she was here
        subject = str(make_header(decode_header(told[0]["Subject"])))
        assert subject == f"Campfire: te következel – Nyomkereső, {table}. asztal"
        text = _body(told[0])
        assert f"Az asztalod: {PUBLIC}/t/{table}" in text and "(UTC)" in text
    # the server again: within the turn's first minute Bob would be told again (a restart that
    # quick forgets it was done); two minutes later his turn is an old one, not told again
    for ahead, told_again in ((0.0, True), (120.0, False)):
        app = create_app(
            db_url,
            accounts=settings(mail=mail),
            proxy=proxy,
            wall=lambda ahead=ahead: time.time() + ahead,  # type: ignore[misc]
        )
        with TestClient(app) as again, again.websocket_connect(f"/ws/tables/{table}") as ws:
            assert ws.receive_json()["status"] == "running"  # a spectator: the table is loaded
            live = app.state.manager.tables[table]
            assert (bobs_turn in live.noticed) is told_again, ahead


def test_a_turn_email_without_a_public_origin_points_to_the_lobby_and_skips_guests() -> None:
    sent: list[tuple[int, str, str]] = []

    class Notices:
        public_origin: str | None = None

        async def notify(self, user_id: int, subject: str, body: str) -> bool:
            sent.append((user_id, subject, body))
            return True

    class Store:
        def owners(self, table_id: int) -> dict[int, int]:
            return {1: 7}  # seat 1 is user 7's; seat 0 a guest's

    class Hub:
        store = Store()

    keeper = TurnKeeper(Hub())  # type: ignore[arg-type]
    seats = {0: ("en", 0.0), 1: ("cs", 86_400.0)}
    asyncio.run(keeper._send(Notices(), 5, get_game("tracker"), seats))
    assert [user for user, _, _ in sent] == [7] and keeper.noticed == 1
    _, subject, body = sent[0]
    assert subject == "Campfire: jste na tahu – Stopař, stůl 5"
    assert "1970-01-02 00:00 (UTC)" in body and "Záhlaví lobby" in body and "http" not in body
