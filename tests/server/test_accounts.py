"""Accounts: sign-up, sign-in and out, cookies, CSRF, Origin, rate limits, password changes,
deletion (games kept, "deleted player"), export, claiming a guest's seats, rehashing, expiry
(``docs/accounts.md``). The e-mail side is ``test_account_mail.py``.
"""

from __future__ import annotations

import datetime
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from campfire.server.account_routes import COOKIE, AccountSettings, load_secret
from campfire.server.accounts import (
    DELETED_PLAYER,
    MAX_CLAIMS,
    NAME_MAX,
    PASSWORD_MAX,
    Accounts,
    check_user_name,
    make_hasher,
)
from campfire.server.app import create_app
from campfire.server.db import make_engine, migrate, session_factory
from campfire.server.lobby import ERROR_CODES
from campfire.server.models import ChatRow, RecordRow, SeatRow, TableRow, UserRow
from campfire.server.proxy import ProxySettings
from campfire.server.security import RateLimits

from .helpers import check_answer, new_table

#: cheap Argon2 for the tests (time 1, 64 KiB, 1 lane); the parameters' own test is below
CHEAP = (1, 64, 1)
KEY = "k" * 48
PASSWORD = "correct horse battery"


def settings(**kwargs: Any) -> AccountSettings:
    """The accounts' settings of a test app."""
    kwargs.setdefault("secret_key", KEY)
    kwargs.setdefault("hash_cost", CHEAP)
    return AccountSettings(**kwargs)


@contextmanager
def client(
    url: str, *, accounts: AccountSettings | None = None, **kwargs: Any
) -> Iterator[TestClient]:
    """A started test client of an app on ``url`` with cheap hashing."""
    app = create_app(url, accounts=accounts or settings(), **kwargs)
    with TestClient(app) as c:
        c.event_hooks = {"request": [], "response": [check_answer]}  # every answer's schema
        yield c


def sign_up(c: TestClient, name: str = "Ann", password: str = PASSWORD, **extra: Any) -> Any:
    """Sign up; the answer's JSON (201 asserted)."""
    answer = c.post("/api/account/signup", json={"user_name": name, "password": password, **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def csrf(c: TestClient) -> dict[str, str]:
    """The CSRF header of ``c``'s session."""
    token = c.get("/api/account").json()["csrf"]
    assert token
    return {"X-CSRF-Token": token}


def error(answer: Any, status: int, code: str) -> str:
    """Assert ``answer`` is the JSON error ``code`` with ``status``; its message."""
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code and code in ERROR_CODES, body
    assert body["message"]
    return str(body["message"])


# ----- signing up, in and out --------------------------------------------------------------------


def test_sign_up_sign_out_sign_in(db_url: str) -> None:
    with client(db_url) as c:
        assert c.get("/api/account").json() == {"user": None, "csrf": None, "mail": False}
        made = sign_up(c)
        assert made["user"]["name"] == "Ann" and made["csrf"] and made["claimed"] == []
        me = c.get("/api/account").json()
        assert me["user"]["name"] == "Ann" and me["csrf"] == made["csrf"]
        out = c.post("/api/account/signout", headers={"X-CSRF-Token": made["csrf"]})
        assert out.status_code == 200 and out.json()["user"] is None
        assert c.get("/api/account").json()["user"] is None
        # the old cookie, sent again, is a session that was deleted
        c.cookies.set(COOKIE, out.request.headers["cookie"].split("=", 1)[1])
        assert c.get("/api/account").json()["user"] is None
        back = c.post("/api/account/signin", json={"user_name": "ann", "password": PASSWORD})
        assert back.status_code == 200, back.text
        assert back.json()["user"]["name"] == "Ann"  # as written at sign-up; found in any case
        assert back.json()["csrf"] != made["csrf"]  # a new session, a new token


def test_user_names_are_checked_and_unique_in_any_case(db_url: str) -> None:
    with client(db_url) as c:
        for bad in ("ab", "x" * (NAME_MAX + 1), "-ann", "ann smith", "Zoltán", "", 5, None):
            answer = c.post("/api/account/signup", json={"user_name": bad, "password": PASSWORD})
            message = error(answer, 400, "bad_user_name")
            assert f"{NAME_MAX}" in message
        for reserved in ("admin", "Root", "Deleted.Player", "campfire"):
            answer = c.post(
                "/api/account/signup", json={"user_name": reserved, "password": PASSWORD}
            )
            assert "reserved" in error(answer, 400, "bad_user_name")
        sign_up(c, "Ann.B-1_x")
        c.cookies.clear()
        taken = c.post("/api/account/signup", json={"user_name": "ANN.b-1_X", "password": PASSWORD})
        assert "taken" in error(taken, 409, "name_taken")
    assert check_user_name("  Bob  ") == "Bob"


def test_passwords_and_bodies_are_bounded(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        for bad in ("short", "x" * (PASSWORD_MAX + 1), " " * 10, 12345678, None):
            answer = c.post("/api/account/signup", json={"user_name": "Ann", "password": bad})
            assert str(PASSWORD_MAX) in error(answer, 400, "bad_password")
        extra = c.post(
            "/api/account/signup", json={"user_name": "Ann", "password": PASSWORD, "admin": True}
        )
        assert "admin" in error(extra, 400, "bad_request")
        error(c.post("/api/account/signin", content=b"[1, 2]"), 400, "bad_json")
        error(c.post("/api/account/signin", content=b"{nope"), 400, "bad_json")
        huge = c.post("/api/account/signin", content=b"{" + b" " * 40_000 + b"}")
        error(huge, 413, "too_large")
        long_name = c.post("/api/account/signin", json={"user_name": "a" * 100, "password": "x"})
        error(long_name, 400, "bad_request")


def test_a_wrong_password_and_an_unknown_user_read_the_same(db_url: str) -> None:
    with client(db_url) as c:
        sign_up(c)
        c.cookies.clear()
        wrong = c.post(
            "/api/account/signin", json={"user_name": "Ann", "password": "not it at all"}
        )
        unknown = c.post("/api/account/signin", json={"user_name": "Nobody", "password": PASSWORD})
        assert error(wrong, 401, "bad_credentials") == error(unknown, 401, "bad_credentials")
        assert COOKIE not in wrong.cookies and c.get("/api/account").json()["user"] is None


def test_errors_speak_the_request_language(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        english = c.post("/api/account/signin", json={"user_name": "x", "password": "y"})
        czech = c.post("/api/account/signin?lang=cs", json={"user_name": "x", "password": "y"})
        assert error(english, 401, "bad_credentials") != error(czech, 401, "bad_credentials")


# ----- cookies, CSRF, Origin --------------------------------------------------------------------


def _cookie_flags(answer: Any) -> dict[str, str]:
    header = next(v for k, v in answer.headers.multi_items() if k == "set-cookie")
    name_value, *attributes = (part.strip() for part in header.split(";"))
    assert name_value.startswith(f"{COOKIE}=")
    flags = {}
    for attribute in attributes:
        key, _, value = attribute.partition("=")
        flags[key.lower()] = value
    return flags


def test_the_session_cookie_is_signed_httponly_samesite(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        answer = c.post("/api/account/signup", json={"user_name": "Ann", "password": PASSWORD})
        flags = _cookie_flags(answer)
        assert "httponly" in flags and flags["samesite"].lower() == "lax" and flags["path"] == "/"
        assert int(flags["max-age"]) == 30 * 86400
        assert "secure" not in flags  # no https public origin: the cookie must work over http
        # a cookie whose signature does not hold is nobody's
        value = c.cookies[COOKIE]
        c.cookies.clear()
        c.cookies.set(COOKIE, value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
        assert c.get("/api/account").json()["user"] is None
    https = ProxySettings(public_origin="https://games.example.org")
    with client(sqlite_url, proxy=https) as c:
        answer = c.post("/api/account/signup", json={"user_name": "Bob", "password": PASSWORD})
        assert "secure" in _cookie_flags(answer)


def test_every_cookie_authenticated_write_needs_the_csrf_token(db_url: str) -> None:
    mail = settings(mail=None)
    with client(db_url, accounts=mail) as c:
        token = sign_up(c)["csrf"]
        writes = [
            ("POST", "/api/account/signout", {}),
            ("POST", "/api/account/password", {"old_password": PASSWORD, "new_password": "n" * 10}),
            ("DELETE", "/api/account", {"password": PASSWORD}),
        ]
        for method, path, body in writes:
            for headers in ({}, {"X-CSRF-Token": "forged"}, {"X-CSRF-Token": ""}):
                answer = c.request(method, path, json=body, headers=headers)
                assert "X-CSRF-Token" in error(answer, 403, "bad_csrf")
        assert c.get("/api/account").json()["user"]["name"] == "Ann"  # nothing happened
        # signed out, the same writes are 401 whatever header they carry
        c.cookies.clear()
        for method, path, body in writes:
            answer = c.request(method, path, json=body, headers={"X-CSRF-Token": token})
            error(answer, 401, "signed_out")


def test_account_writes_from_another_origin_are_refused(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        evil = {"Origin": "https://evil.example"}
        answer = c.post(
            "/api/account/signup", json={"user_name": "Ann", "password": PASSWORD}, headers=evil
        )
        error(answer, 403, "bad_origin")
        own = {"Origin": "http://testserver"}
        made = c.post(
            "/api/account/signup", json={"user_name": "Ann", "password": PASSWORD}, headers=own
        )
        assert made.status_code == 201
        headers = {**evil, "X-CSRF-Token": made.json()["csrf"]}
        error(c.post("/api/account/signout", headers=headers), 403, "bad_origin")
    public = ProxySettings(public_origin="https://games.example.org")
    with client(sqlite_url, proxy=public) as c:
        own = {"Origin": "http://testserver"}  # the Host's, but not the public origin
        answer = c.post(
            "/api/account/signin", json={"user_name": "Ann", "password": PASSWORD}, headers=own
        )
        error(answer, 403, "bad_origin")
        ok = c.post(
            "/api/account/signin",
            json={"user_name": "Ann", "password": PASSWORD},
            headers={"Origin": "https://games.example.org"},
        )
        assert ok.status_code == 200, ok.text


def test_a_signed_in_page_of_another_origin_cannot_open_a_table_socket(sqlite_url: str) -> None:
    # the table socket's Origin check (proxy.py) stands whatever cookie the upgrade carries
    from starlette.testclient import WebSocketDenialResponse

    public = ProxySettings(public_origin="https://games.example.org")
    with client(sqlite_url, proxy=public) as c:
        sign_up(c)
        table, tokens = new_table(c, "dudab", 2)
        with (
            pytest.raises(WebSocketDenialResponse) as refused,
            c.websocket_connect(
                f"/ws/tables/{table}?token={tokens[0]}", headers={"Origin": "https://evil.example"}
            ),
        ):
            pass
        assert refused.value.status_code == 403
        assert refused.value.json()["error"]["code"] == "bad_origin"
        with c.websocket_connect(
            f"/ws/tables/{table}?token={tokens[0]}", headers={"Origin": "https://games.example.org"}
        ) as ws:
            assert ws.receive_json()["type"] == "snapshot"


# ----- rate limits -------------------------------------------------------------------------------


def test_sign_ins_and_sign_ups_are_limited_per_address(sqlite_url: str) -> None:
    limits = RateLimits(0, 0, exempt="none", account_per_minute=3)
    with client(sqlite_url, rate_limits=limits) as c:
        sign_up(c)
        for _ in range(2):
            c.post("/api/account/signin", json={"user_name": "Ann", "password": "wrong one!"})
        answer = c.post("/api/account/signin", json={"user_name": "Ann", "password": PASSWORD})
        message = error(answer, 429, "rate_limited")
        assert "3 a minute" in message and int(answer.headers["retry-after"]) >= 1
        again = c.post("/api/account/signup", json={"user_name": "Bob", "password": PASSWORD})
        error(again, 429, "rate_limited")
        assert c.get("/api/account").json()["user"]["name"] == "Ann"  # reads are not limited
    with TestClient(
        create_app(sqlite_url, accounts=settings(), rate_limits=limits), client=("10.9.8.7", 5)
    ) as elsewhere:
        answer = elsewhere.post(
            "/api/account/signin", json={"user_name": "Ann", "password": PASSWORD}
        )
        assert answer.status_code == 200  # another address, another bucket


# ----- the account -------------------------------------------------------------------------------


def test_changing_the_password_needs_the_old_one_and_ends_other_sessions(db_url: str) -> None:
    app = create_app(db_url, accounts=settings())
    with TestClient(app) as here, TestClient(app) as there:
        sign_up(here)
        there.post("/api/account/signin", json={"user_name": "Ann", "password": PASSWORD})
        assert there.get("/api/account").json()["user"]["name"] == "Ann"
        wrong = here.post(
            "/api/account/password",
            json={"old_password": "not the one", "new_password": "brand new pass"},
            headers=csrf(here),
        )
        error(wrong, 401, "bad_credentials")
        short = here.post(
            "/api/account/password",
            json={"old_password": PASSWORD, "new_password": "short"},
            headers=csrf(here),
        )
        assert "new_password" in error(short, 400, "bad_password")
        changed = here.post(
            "/api/account/password",
            json={"old_password": PASSWORD, "new_password": "brand new pass"},
            headers=csrf(here),
        )
        assert changed.status_code == 200, changed.text
        assert here.get("/api/account").json()["user"]["name"] == "Ann"  # this browser stays
        assert there.get("/api/account").json()["user"] is None  # the other was signed out
        old = there.post("/api/account/signin", json={"user_name": "Ann", "password": PASSWORD})
        error(old, 401, "bad_credentials")
        new = there.post(
            "/api/account/signin", json={"user_name": "Ann", "password": "brand new pass"}
        )
        assert new.status_code == 200


def _guest_table(c: TestClient) -> tuple[int, dict[int, str]]:
    """A running two-person table created by a guest (both tokens)."""
    return new_table(c, "dudab", 2)


def test_a_guest_claims_their_games_at_sign_up(db_url: str) -> None:
    with client(db_url) as c:
        first, tokens = _guest_table(c)
        second, others = _guest_table(c)
        claim = [
            {"table": first, "token": tokens[0]},
            {"table": first, "token": "not-a-token"},  # refused quietly: not claimed
            {"table": second, "token": tokens[1]},  # another table's token: not claimed
            {"table": 999_999, "token": tokens[0]},
        ]
        made = sign_up(c, claim=claim)
        assert made["claimed"] == [{"table": first, "seat": 0}]
        c.cookies.clear()
        # the same seat cannot become a second account's
        again = sign_up(
            c,
            "Bob",
            claim=[{"table": first, "token": tokens[0]}, {"table": second, "token": others[1]}],
        )
        assert again["claimed"] == [{"table": second, "seat": 1}]
        c.cookies.clear()
        for bad in (
            "nope",
            [{"table": first}],
            [{"table": "1", "token": "x"}],
            [{"table": first, "token": "x" * 201}],
            [{"table": first, "token": "x"}] * (MAX_CLAIMS + 1),
        ):
            answer = c.post(
                "/api/account/signup", json={"user_name": "Cy1", "password": PASSWORD, "claim": bad}
            )
            assert str(MAX_CLAIMS) in error(answer, 400, "bad_request")


def test_export_holds_everything_stored_about_the_user(db_url: str) -> None:
    with client(db_url) as c:
        table, tokens = _guest_table(c)
        with c.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "chat", "text": "good luck"}))
            while ws.receive_json()["type"] != "chat":
                pass
        sign_up(c, claim=[{"table": table, "token": tokens[0]}])
        answer = c.get("/api/account/export")
        assert answer.status_code == 200
        assert "attachment" in answer.headers["content-disposition"]
        data = answer.json()
        assert data["user"]["name"] == "Ann" and data["user"]["email"] is None
        assert data["user"]["created"] and data["user"]["last_sign_in"] is None
        assert len(data["sessions"]) == 1 and data["sessions"][0]["expires"]
        [seat] = data["seats"]
        assert seat["table"] == table and seat["seat"] == 0 and seat["game"] == "dudab"
        assert seat["nickname"] == "P0" and [x["text"] for x in seat["chat"]] == ["good luck"]
        text = answer.text
        assert "argon2id$" not in text and tokens[0] not in text  # no hash, no token
        c.cookies.clear()
        error(c.get("/api/account/export"), 401, "signed_out")


def test_deleting_the_account_keeps_its_games_as_deleted_player(db_url: str) -> None:
    with client(db_url) as c:
        table, tokens = _guest_table(c)
        with c.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "chat", "text": "hello"}))
            while ws.receive_json()["type"] != "chat":
                pass
        engine = make_engine(db_url)
        with session_factory(engine).begin() as s:  # a finished game's record at the table
            s.add(
                RecordRow(
                    table_id=table,
                    game_number=0,
                    record=json.dumps(
                        {"game": "dudab", "players": [{"name": "P0"}, {"name": "P1"}]}
                    ),
                    finished=datetime.datetime.now(datetime.UTC),
                )
            )
        sign_up(c, claim=[{"table": table, "token": tokens[0]}])
        wrong = c.request(
            "DELETE", "/api/account", json={"password": "not mine at all"}, headers=csrf(c)
        )
        error(wrong, 401, "bad_credentials")
        gone = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf(c))
        assert gone.status_code == 200 and gone.json() == {"deleted": True, "seats": 1}
        assert c.get("/api/account").json()["user"] is None
        # the table in memory, and the database, name the seat "deleted player"
        seats = c.get(f"/api/tables/{table}").json()["table"]["seats"]
        assert [s["nickname"] for s in seats] == [DELETED_PLAYER, "P1"]
        with session_factory(engine)() as s:
            assert s.get(SeatRow, (table, 0)).nickname == DELETED_PLAYER  # type: ignore[union-attr]
            assert s.get(TableRow, table) is not None  # the table and its games stay
            names = {
                line.name for line in s.scalars(select(ChatRow).where(ChatRow.table_id == table))
            }
            assert names == {DELETED_PLAYER}
            record = json.loads(s.scalars(select(RecordRow)).one().record)
            assert [p["name"] for p in record["players"]] == [DELETED_PLAYER, "P1"]
            assert s.scalars(select(UserRow)).all() == []
        engine.dispose()
        back = c.post("/api/account/signin", json={"user_name": "Ann", "password": PASSWORD})
        error(back, 401, "bad_credentials")
        # the name is free again; the seat token still plays its seat (the game goes on)
        sign_up(c)
        with c.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            assert ws.receive_json()["seat"] == 0
    # after a restart too (from the database)
    with client(db_url) as c:
        seats = c.get(f"/api/tables/{table}").json()["table"]["seats"]
        assert seats[0]["nickname"] == DELETED_PLAYER


# ----- hashing and sessions ----------------------------------------------------------------------


def test_the_documented_argon2_parameters() -> None:
    hasher = make_hasher()
    digest = hasher.hash("a password")
    assert digest.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert hasher.verify(digest, "a password")


def test_a_hash_of_other_parameters_is_made_anew_at_sign_in(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        sign_up(c)
    engine = make_engine(sqlite_url)
    with session_factory(engine)() as s:
        before = s.scalars(select(UserRow)).one().password_hash
    assert "t=1," in before
    with client(sqlite_url, accounts=settings(hash_cost=(2, 128, 1))) as c:
        answer = c.post("/api/account/signin", json={"user_name": "Ann", "password": PASSWORD})
        assert answer.status_code == 200
    with session_factory(engine)() as s:
        after = s.scalars(select(UserRow)).one().password_hash
    engine.dispose()
    assert after != before and "m=128,t=2,p=1" in after


def test_sessions_expire(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    now = [datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)]
    accounts = Accounts(session_factory(engine), make_hasher(*CHEAP), clock=lambda: now[0])
    user, _ = accounts.sign_up("Ann", PASSWORD)
    session_id, token = accounts.open_session(user.id)
    assert accounts.session(session_id) == (user, token)
    now[0] += datetime.timedelta(days=29)
    assert accounts.session(session_id) is not None
    later, _ = accounts.open_session(user.id)
    now[0] += datetime.timedelta(days=2)
    assert accounts.session(session_id) is None  # 31 days: gone
    assert accounts.session(later) is not None
    now[0] += datetime.timedelta(days=30)
    assert accounts.sweep() == 1  # the later one, expired, swept
    engine.dispose()


def test_the_secret_key_is_made_once_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAMPFIRE_DATA_DIR", str(tmp_path))
    url = f"sqlite:///{tmp_path / 'campfire.db'}"
    with client(url, accounts=AccountSettings(hash_cost=CHEAP)) as c:
        sign_up(c)
        cookie = c.cookies[COOKIE]
    path = tmp_path / "secret_key"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    key = path.read_text()
    with client(url, accounts=AccountSettings(hash_cost=CHEAP)) as c:
        c.cookies.set(COOKIE, cookie)
        assert c.get("/api/account").json()["user"]["name"] == "Ann"  # survives the restart
    assert path.read_text() == key
    assert load_secret(path) == key.strip().encode()
    own = tmp_path / "own_key"
    own.write_text("s" * 40)
    with client(url, accounts=AccountSettings(secret_key_file=str(own), hash_cost=CHEAP)) as c:
        c.cookies.set(COOKIE, cookie)
        assert c.get("/api/account").json()["user"] is None  # another key: not our cookie


def test_serve_reads_the_account_settings() -> None:
    from campfire.cli import build_parser
    from campfire.server.cli import apply_settings, serve_accounts, serve_rate_limits

    args = build_parser().parse_args(
        [
            "serve",
            "--account-rate",
            "5",
            "--smtp-host",
            "mail.example.org",
            "--smtp-port",
            "2525",
            "--smtp-from",
            "games@example.org",
            "--secret-key-file",
            "/etc/campfire/key",
        ]
    )
    apply_settings(args)
    accounts = serve_accounts(args)
    assert accounts.mail is not None and accounts.mail.port == 2525
    assert (
        accounts.mail.sender == "games@example.org"
        and accounts.secret_key_file == "/etc/campfire/key"
    )
    assert serve_rate_limits(args).account_per_minute == 5
    assert AccountSettings.from_environment() is None
    os.environ["CAMPFIRE_SERVE_ACCOUNTS"] = accounts.to_json()
    try:
        assert AccountSettings.from_environment() == accounts
    finally:
        del os.environ["CAMPFIRE_SERVE_ACCOUNTS"]
    plain_args = build_parser().parse_args(["serve"])
    apply_settings(plain_args)
    plain = serve_accounts(plain_args)
    assert plain.mail is None and plain.secret_key_file is None


def test_purging_a_table_drops_its_claims_and_keeps_the_account(db_url: str) -> None:
    from campfire.server.admin.purge import _delete

    with client(db_url) as c:
        table, tokens = _guest_table(c)
        sign_up(c, claim=[{"table": table, "token": tokens[0]}])
    engine = make_engine(db_url)
    sessions = session_factory(engine)
    with sessions.begin() as s:
        row = s.get(TableRow, table)
        assert row is not None
        row.status = "finished"
    assert _delete(sessions, table, 1)  # campfire admin purge's deletion of one table
    with sessions() as s:
        assert s.get(TableRow, table) is None and len(s.scalars(select(UserRow)).all()) == 1
    engine.dispose()
    with client(db_url) as c:
        c.post("/api/account/signin", json={"user_name": "Ann", "password": PASSWORD})
        assert c.get("/api/account/export").json()["seats"] == []


def test_the_secret_key_files_path_is_no_secret_itself() -> None:
    from campfire.server.settings import settings_of
    from campfire.server.settings_table import serve_parser

    found = {s.key: s for s in settings_of(serve_parser())}
    assert not found["secret_key_file"].secret  # a path: --print-config shows it


def test_two_sign_ups_of_one_name_at_once_give_one_account(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import IntegrityError

    engine = make_engine(sqlite_url)
    migrate(engine)
    accounts = Accounts(session_factory(engine), make_hasher(*CHEAP))
    real = Accounts._sign_up
    calls: list[str] = []

    def racing(self: Accounts, name: str, *args: Any) -> Any:
        calls.append(name)
        if len(calls) == 1:  # another sign-up of the name commits between the check and ours
            real(self, name.upper(), *args)
            raise IntegrityError("INSERT", {}, Exception("uq_users_name_key"))
        return real(self, name, *args)

    monkeypatch.setattr(Accounts, "_sign_up", racing)
    with pytest.raises(Exception) as refused:
        accounts.sign_up("Ann", PASSWORD)
    assert getattr(refused.value, "code", None) == "name_taken" and calls == ["Ann", "Ann"]
    engine.dispose()


def test_signing_in_again_ends_the_browsers_previous_session(sqlite_url: str) -> None:
    from campfire.server.models import UserSessionRow

    with client(sqlite_url) as c:
        sign_up(c)
        for _ in range(3):
            answer = c.post("/api/account/signin", json={"user_name": "Ann", "password": PASSWORD})
            assert answer.status_code == 200
        engine = make_engine(sqlite_url)
        with session_factory(engine)() as s:
            assert len(s.scalars(select(UserSessionRow)).all()) == 1  # not four
        engine.dispose()
        assert c.get("/api/account").json()["user"]["name"] == "Ann"


def test_every_process_of_serve_workers_2_knows_a_session(pg_only: str, tmp_path: Path) -> None:
    """The processes share the secret key (made once in the data folder) and the database: a
    session opened on one is a session on the other."""
    import urllib.request

    from .conftest import REDIS
    from .live_server import LiveServer

    server = LiveServer(pg_only, tmp_path, args=("--workers", "2", "--redis-url", REDIS))
    try:
        request = urllib.request.Request(
            f"{server.base}/api/account/signup",
            data=json.dumps({"user_name": "Ann", "password": PASSWORD}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 201
            cookie = answer.headers["Set-Cookie"].split(";", 1)[0]
        names = set()
        for _ in range(12):  # a new connection each, spread over the processes
            ask = urllib.request.Request(f"{server.base}/api/account", headers={"Cookie": cookie})
            with urllib.request.urlopen(ask, timeout=10) as answer:
                names.add(json.loads(answer.read())["user"]["name"])
        assert names == {"Ann"}
        assert (tmp_path / "data" / "campfire" / "secret_key").exists()
    finally:
        server.stop()
