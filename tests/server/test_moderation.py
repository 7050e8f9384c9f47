"""Moderation: reports, blocks (no shared tables, no chat from them), the operator's
``campfire admin reports|close-report|suspend|unsuspend`` and the migration that adds them
(``docs/accounts.md``, "Moderation").
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import inspect, select
from starlette.testclient import TestClient

from campfire.cli import main
from campfire.server.account_routes import COOKIE
from campfire.server.db import make_engine, session_factory
from campfire.server.models import BlockRow, ReportRow, UserRow
from campfire.server.moderation import REASON_MAX, REPORTS_PER_HOUR

from .helpers import Seat, new_table, seats
from .old_database import OldDatabase
from .test_accounts import PASSWORD, client, csrf, error, sign_up


def _as(c: TestClient, cookie: str) -> dict[str, str]:
    """Make ``c`` the browser of the session ``cookie``; its CSRF header."""
    c.cookies.clear()
    c.cookies.set(COOKIE, cookie)
    return csrf(c)


def _people(c: TestClient, *names: str) -> list[str]:
    """Sign each of ``names`` up; their cookies."""
    cookies = []
    for name in names:
        c.cookies.clear()
        sign_up(c, name)
        cookies.append(str(c.cookies.get(COOKIE)))
    return cookies


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["--lang", "en", "admin", *args])
    out, err = capsys.readouterr()
    return status, out, err


# ----- reports -----------------------------------------------------------------------------------


def test_a_report_is_stored_for_the_operator_who_lists_and_closes_it(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db_url) as c:
        ann, _bob = _people(c, "Ann", "Bob")
        c.cookies.clear()  # a guest's table
        table, tokens = new_table(c, "tracker", 2, start=False)
        head = _as(c, ann)
        answer = c.post(
            "/api/account/report",
            json={"user_name": "bob", "category": "abuse", "reason": "rude\nin the chat"},
            headers=head,
        )
        assert answer.status_code == 201 and answer.json() == {"reported": True}
        # a guest's seat, by its table and seat
        answer = c.post(
            "/api/account/report",
            json={"table": table, "seat": 1, "category": "name", "reason": "an offensive name"},
            headers=head,
        )
        assert answer.status_code == 201, answer.text
        # what is not allowed says what is
        bad = {"user_name": "bob", "category": "rude", "reason": "x"}
        assert "cheating" in error(
            c.post("/api/account/report", json=bad, headers=head), 400, "bad_request"
        )
        long = {"user_name": "bob", "category": "spam", "reason": "x" * (REASON_MAX + 1)}
        assert str(REASON_MAX) in error(
            c.post("/api/account/report", json=long, headers=head), 400, "bad_request"
        )
        me = {"user_name": "ANN", "category": "spam", "reason": "me"}
        error(c.post("/api/account/report", json=me, headers=head), 400, "bad_request")
        nobody = {"user_name": "Zed", "category": "spam", "reason": "who"}
        error(c.post("/api/account/report", json=nobody, headers=head), 404, "unknown_user")
        error(
            c.post("/api/account/report", json={**nobody, "user_name": "bob"}),
            403,
            "bad_csrf",
        )
        c.cookies.clear()
        error(c.post("/api/account/report", json={**nobody, "user_name": "bob"}), 401, "signed_out")
        del tokens
    status, out, _ = _run(capsys, "reports", "--database-url", db_url, "--json")
    assert status == 0
    listed = json.loads(out)
    assert [(r["reported"], r["reporter"], r["category"], r["account"]) for r in listed] == [
        ("Bob", "Ann", "abuse", True),
        ("P1", "Ann", "name", False),
    ]
    assert listed[0]["reason"] == "rude\nin the chat" and listed[1]["table"] == table
    first = listed[0]["id"]
    status, out, _ = _run(
        capsys, "close-report", str(first), "--note", "warned", "--database-url", db_url
    )
    assert status == 0 and f"closed report {first}" in out
    status, out, _ = _run(capsys, "reports", "--database-url", db_url)
    assert status == 0 and "Bob" not in out and "P1" in out and "an offensive name" in out
    status, out, _ = _run(capsys, "reports", "--status", "closed", "--database-url", db_url)
    assert "Bob" in out and "note: warned" in out
    status, _, err = _run(capsys, "close-report", "999", "--database-url", db_url)
    assert status != 0 and "no report 999" in err


def test_reports_are_limited_per_user(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        ann, _ = _people(c, "Ann", "Bob")
        head = _as(c, ann)
        body = {"user_name": "Bob", "category": "spam", "reason": "again"}
        for _ in range(REPORTS_PER_HOUR):
            assert c.post("/api/account/report", json=body, headers=head).status_code == 201
        message = error(c.post("/api/account/report", json=body, headers=head), 429, "rate_limited")
        assert str(REPORTS_PER_HOUR) in message
    engine = make_engine(sqlite_url)
    with session_factory(engine)() as session:
        assert len(session.scalars(select(ReportRow)).all()) == REPORTS_PER_HOUR
    engine.dispose()


# ----- blocks ------------------------------------------------------------------------------------


def test_block_list_and_unblock(db_url: str) -> None:
    with client(db_url) as c:
        ann, _ = _people(c, "Ann", "Bob")
        head = _as(c, ann)
        answer = c.post("/api/account/blocks", json={"user_name": "BOB"}, headers=head)
        assert answer.status_code == 200, answer.text
        assert [b["user_name"] for b in answer.json()["blocks"]] == ["Bob"]
        again = c.post("/api/account/blocks", json={"user_name": "Bob"}, headers=head)
        assert len(again.json()["blocks"]) == 1  # twice is once
        assert [b["user_name"] for b in c.get("/api/account/blocks").json()["blocks"]] == ["Bob"]
        error(
            c.post("/api/account/blocks", json={"user_name": "Ann"}, headers=head),
            400,
            "bad_request",
        )
        error(
            c.post("/api/account/blocks", json={"user_name": "Zed"}, headers=head),
            404,
            "unknown_user",
        )
        error(c.post("/api/account/blocks", json={"user_name": "Bob"}), 403, "bad_csrf")
        error(c.post("/api/account/blocks", json={"seat": 1}, headers=head), 400, "bad_request")
        gone = c.post("/api/account/unblock", json={"user_name": "bob"}, headers=head)
        assert gone.status_code == 200 and gone.json() == {"blocks": []}
        c.cookies.clear()
        error(c.get("/api/account/blocks"), 401, "signed_out")


def test_a_block_refuses_a_shared_table_both_ways(db_url: str) -> None:
    with client(db_url) as c:
        ann, bob, cy = _people(c, "Ann", "Bob", "Cyd")
        head = _as(c, ann)
        assert (
            c.post("/api/account/blocks", json={"user_name": "Bob"}, headers=head).status_code
            == 200
        )
        table, _ = new_table(c, "tracker", 3, seats=[{"kind": "open"}] * 3, start=False)
        joined = c.post(f"/api/tables/{table}/join", json={"nickname": "Ann"})
        assert joined.status_code == 201
        _as(c, bob)  # the blocked one cannot sit with the blocker
        message = error(
            c.post(f"/api/tables/{table}/join", json={"nickname": "Bob"}), 409, "blocked"
        )
        assert f"table {table}" in message
        _as(c, cy)  # anybody else can
        assert c.post(f"/api/tables/{table}/join", json={"nickname": "Cyd"}).status_code == 201
        # and the blocker cannot join the blocked one's table
        other, _ = new_table(c, "tracker", 2, seats=[{"kind": "open"}] * 2, start=False)
        _as(c, bob)
        assert c.post(f"/api/tables/{other}/join", json={"nickname": "Bob"}).status_code == 201
        _as(c, ann)
        error(c.post(f"/api/tables/{other}/join", json={"nickname": "Ann"}), 409, "blocked")
        # a seat given back is nobody's account's: Bob may take it once Ann has left
        _as(c, ann)
        _as(c, cy)
        third, _ = new_table(c, "tracker", 2, seats=[{"kind": "open"}] * 2, start=False)
        _as(c, ann)
        sat = c.post(f"/api/tables/{third}/join", json={"nickname": "Ann"}).json()["token"]
        _as(c, bob)
        error(c.post(f"/api/tables/{third}/join", json={"nickname": "Bob"}), 409, "blocked")
        left = c.post(f"/api/tables/{third}/leave", headers={"Authorization": f"Bearer {sat}"})
        assert left.status_code == 200
        assert c.post(f"/api/tables/{third}/join", json={"nickname": "Bob"}).status_code == 201
        # a signed-in creator's reserved seat is theirs: the blocked one cannot join it either
        _as(c, ann)
        own, _ = new_table(
            c,
            "tracker",
            2,
            seats=[{"kind": "reserved", "nickname": "Ann"}, {"kind": "open"}],
            start=False,
        )
        _as(c, bob)
        error(c.post(f"/api/tables/{own}/join", json={"nickname": "Bob"}), 409, "blocked")
        _as(c, ann)
        # the error speaks the person's language
        hu = c.post(f"/api/tables/{other}/join?lang=hu", json={"nickname": "Ann"})
        assert hu.status_code == 409 and "table" not in hu.json()["error"]["message"]


def test_the_blocker_gets_no_chat_line_from_the_blocked(db_url: str) -> None:
    with client(db_url) as c:
        ann, bob = _people(c, "Ann", "Bob")
        table, _ = new_table(c, "tracker", 2, seats=[{"kind": "open"}] * 2, start=False)
        tokens = {}
        for seat, (cookie, name) in enumerate(((ann, "Ann"), (bob, "Bob"))):
            _as(c, cookie)
            answer = c.post(f"/api/tables/{table}/join", json={"nickname": name})
            tokens[seat] = answer.json()["token"]
        # Ann blocks Bob during the game, from his seat
        head = _as(c, ann)
        answer = c.post("/api/account/blocks", json={"table": table, "seat": 1}, headers=head)
        assert [b["user_name"] for b in answer.json()["blocks"]] == ["Bob"]
        with seats(c, table, tokens) as (a, b, watcher):
            b.send({"type": "chat", "text": "from Bob"})
            a.send({"type": "chat", "text": "from Ann"})
            assert [x["text"] for x in _chat(b)["lines"]] == ["from Bob"]
            assert [x["text"] for x in _chat(b)["lines"]] == ["from Ann"]
            assert [x["text"] for x in _chat(watcher)["lines"]] == ["from Bob"]
            assert [x["text"] for x in _chat(watcher)["lines"]] == ["from Ann"]
            # Ann's next chat frame is her own line: Bob's never came
            assert [x["text"] for x in _chat(a)["lines"]] == ["from Ann"]
        with seats(c, table, {0: tokens[0], 1: tokens[1]}, spectator=False) as (a, b):
            assert [x["text"] for x in _chat(a)["lines"]] == ["from Ann"]  # the history too
            assert [x["text"] for x in _chat(b)["lines"]] == ["from Bob", "from Ann"]


def _chat(client: Seat) -> dict[str, Any]:
    frame = client.receive()
    assert frame["type"] == "chat", frame
    return frame


def test_a_guest_seat_cannot_be_blocked_and_deleting_keeps_reports(db_url: str) -> None:
    with client(db_url) as c:
        ann, bob = _people(c, "Ann", "Bob")
        c.cookies.clear()  # a guest's table
        table, _ = new_table(c, "tracker", 2, start=False)
        head = _as(c, ann)
        message = error(
            c.post("/api/account/blocks", json={"table": table, "seat": 0}, headers=head),
            400,
            "bad_request",
        )
        assert "guest" in message
        c.post("/api/account/blocks", json={"user_name": "Bob"}, headers=head)
        report = {"user_name": "Bob", "category": "cheating", "reason": "a bot"}
        assert c.post("/api/account/report", json=report, headers=head).status_code == 201
        exported = c.get("/api/account/export").json()
        assert [b["user_name"] for b in exported["blocks"]] == ["Bob"]
        assert exported["reports"][0]["reason"] == "a bot"
        head = _as(c, bob)  # Bob deletes his account: the block goes, the report stays
        answer = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=head)
        assert answer.status_code == 200, answer.text
    engine = make_engine(db_url)
    with session_factory(engine)() as session:
        assert session.scalars(select(BlockRow)).all() == []
        [row] = session.scalars(select(ReportRow)).all()
        assert row.reported_id is None and row.reported_name == "Bob" and row.reason == "a bot"
    engine.dispose()


# ----- suspensions -------------------------------------------------------------------------------


def test_a_suspended_account_cannot_sign_in_and_its_sessions_end(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db_url) as c:
        (ann,) = _people(c, "Ann")
        _as(c, ann)
        status, out, _ = _run(
            capsys, "suspend", "ann", "--reason", "cheating with a bot", "--database-url", db_url
        )
        assert status == 0 and "suspended Ann" in out
        assert c.get("/api/account").json()["user"] is None  # signed out at once
        signin = {"user_name": "Ann", "password": PASSWORD}
        message = error(c.post("/api/account/signin", json=signin), 403, "suspended")
        assert "cheating with a bot" in message
        status, out, _ = _run(capsys, "unsuspend", "Ann", "--database-url", db_url)
        assert status == 0 and "Ann may sign in again" in out
        assert c.post("/api/account/signin", json=signin).status_code == 200
        # a suspension with an end: refused until then, and it ends by itself
        status, out, _ = _run(
            capsys,
            "suspend",
            "Ann",
            "--reason",
            "spam",
            "--until",
            "2999-01-01",
            "--database-url",
            db_url,
        )
        assert status == 0 and "2999-01-01" in out
        assert "2999-01-01" in error(c.post("/api/account/signin", json=signin), 403, "suspended")
        status, _, _ = _run(
            capsys,
            "suspend",
            "Ann",
            "--reason",
            "spam",
            "--until",
            "2000-01-01",
            "--database-url",
            db_url,
        )
        assert c.post("/api/account/signin", json=signin).status_code == 200
    status, _, err = _run(capsys, "suspend", "Zed", "--reason", "x", "--database-url", db_url)
    assert status != 0 and "no user Zed" in err
    status, _, err = _run(capsys, "suspend", "Ann", "--reason", " ", "--database-url", db_url)
    assert status != 0 and "--reason" in err
    status, out, _ = _run(capsys, "unsuspend", "Ann", "--database-url", db_url)
    assert "was not suspended" not in out  # (the past one is lifted here)
    status, out, _ = _run(capsys, "unsuspend", "Ann", "--database-url", db_url)
    assert "was not suspended" in out


# ----- the migration -----------------------------------------------------------------------------


def test_the_community_migration_upgrades_a_database_without_losing_anything(db_url: str) -> None:
    old = OldDatabase(db_url, "0006")  # a database of the schema before accounts had more
    old.run(
        "INSERT INTO users (id, name, name_key, password_hash, created)"
        " VALUES (3, 'Ann', 'ann', 'hash', '2026-01-01 00:00:00')"
    )
    old.upgrade()
    assert {"reports", "blocks"} <= set(inspect(old.engine).get_table_names())
    columns = {c["name"] for c in inspect(old.engine).get_columns("users")}
    assert {"suspended", "suspended_until", "suspended_reason"} <= columns
    with session_factory(old.engine)() as session:
        user = session.get_one(UserRow, 3)
        assert user.name == "Ann" and user.password_hash == "hash" and user.suspended is None
    old.downgrade("0006")
    assert "reports" not in inspect(old.engine).get_table_names()
    assert "suspended" not in {c["name"] for c in inspect(old.engine).get_columns("users")}
    with session_factory(old.engine)() as session:
        assert session.execute(select(UserRow.name)).scalars().all() == ["Ann"]
    old.engine.dispose()
