"""``campfire admin``: tables, close (through a running server and without one), purge, restore's
refusals, errors, and the migration that adds a table's close message (SQLite and PostgreSQL).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, select

from campfire.cli import main
from campfire.core.records import replay_text
from campfire.server.db import make_engine, session_factory
from campfire.server.models import ActionRow, RecordRow, TableRow

from .helpers import app_client, new_table, seats
from .old_database import OldDatabase


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["--lang", "en", "admin", *args])
    out, err = capsys.readouterr()
    return status, out, err


def _play(clients: Any, steps: int) -> None:
    for _ in range(steps):
        mover = next(c for c in clients if c.last["legal"])
        mover.act(mover.last["legal"][0]["notation"])
        for c in clients:
            assert c.receive()["type"] == "delta"


def test_tables_lists_every_table_as_text_and_json(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with app_client(db_url) as client:
        running, tokens = new_table(client, "tracker", 2)
        waiting, _ = new_table(client, "tracker", 2, start=False)
        with seats(client, running, tokens, spectator=False) as clients:
            _play(clients, 3)
    status, out, _ = _run(capsys, "tables", "--database-url", db_url, "--json")
    assert status == 0
    listed = {t["id"]: t for t in json.loads(out)}
    assert listed[running]["status"] == "running" and listed[running]["seq"] == 3
    assert listed[running]["players"] == ["P0", "P1"] and listed[running]["last_action"]
    assert listed[waiting]["status"] == "open" and listed[waiting]["last_action"] is None
    status, out, _ = _run(capsys, "tables", "--database-url", db_url, "--status", "open")
    assert status == 0 and f"\n{waiting} " in out and f"\n{running} " not in out
    status, _, err = _run(capsys, "tables", "--database-url", db_url, "--status", "gone")
    assert status == 2 and "open, running, finished" in err


def test_close_reaches_the_running_server_and_its_players_read_the_message(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with app_client(db_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as clients:
            _play(clients, 4)
            status, out, err = _run(
                capsys, "close", str(table), "--message", "Server upgrade", "--database-url", db_url
            )
            assert status == 0, err
            assert "its players were told" in out
            for c in clients:  # a snapshot (finished), then the message
                snapshot = c.receive()
                assert snapshot["type"] == "snapshot" and snapshot["status"] == "finished"
                assert snapshot["legal"] == []
                assert c.receive() == {
                    "type": "closed",
                    "table": table,
                    "game_number": 1,
                    "seq": 4,
                    "message": "Server upgrade",
                }
            clients[0].send({"type": "action", "seq": 4, "action": "peek 0"})
            refused = clients[0].receive()
            assert refused["code"] == "not_running" and "Server upgrade" in refused["message"]
        # a client who comes later reads it too
        with seats(client, table, tokens, spectator=False) as clients:
            assert clients[0].receive()["type"] == "closed"
        answer = client.post(
            f"/api/tables/{table}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "table_closed"
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        rec, match = replay_text(record.text)
        assert len(rec.actions) == 4 and not match.state.is_terminal()
        assert rec.meta["closed"]["message"] == "Server upgrade"
    status, _, err = _run(
        capsys, "close", str(table), "--message", "again", "--database-url", db_url
    )
    assert status == 2 and "closed already" in err


def test_close_without_a_server_closes_the_table_itself(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens, spectator=False) as clients:
            _play(clients, 2)
    status, out, err = _run(
        capsys, "close", str(table), "--message", "Cheating", "--database-url", sqlite_url
    )
    assert status == 0, err
    assert "no server was running" in out
    with app_client(sqlite_url) as client:  # the next server does not resume it
        assert client.get(f"/api/tables/{table}").json()["table"]["status"] == "finished"
        with seats(client, table, tokens, spectator=False) as clients:
            closed = clients[0].receive()
            assert closed["type"] == "closed" and closed["message"] == "Cheating"


def test_close_refuses_unknown_tables_and_bad_messages(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with app_client(sqlite_url):
        pass
    status, _, err = _run(capsys, "close", "99", "--message", "x", "--database-url", sqlite_url)
    assert status == 2 and "there is no table 99" in err
    status, _, err = _run(capsys, "close", "1", "--message", " ", "--database-url", sqlite_url)
    assert status == 2 and "1–500 printable characters" in err


def _finished_tables(url: str, count: int) -> list[int]:
    """``count`` tables closed mid-game (finished, each with a record), and one running."""
    ids = []
    with app_client(url) as client:
        for _ in range(count + 1):
            table, tokens = new_table(client, "tracker", 2)
            with seats(client, table, tokens, spectator=False) as clients:
                _play(clients, 2)
            ids.append(table)
    for table in ids[:count]:
        assert main(["admin", "close", str(table), "--message", "done", "--database-url", url]) == 0
    return ids


def test_purge_exports_every_record_first_then_deletes(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = _finished_tables(db_url, 3)
    capsys.readouterr()
    export = tmp_path / "export"
    status, _, err = _run(
        capsys, "purge", "--finished-before", "2000-01-01", "--database-url", db_url
    )
    assert status == 2 and "--export" in err and "--no-export" in err  # one of them is needed
    status, out, _ = _run(
        capsys, "purge", "--finished-before", "2999-01-01", "--export", str(export),
        "--dry-run", "--database-url", db_url,
    )  # fmt: skip
    assert status == 0 and "would be purged: 3" in out and not export.exists()
    # an export that cannot be written keeps its table
    export.mkdir()
    (export / f"table-{ids[0]}-game-1.json").write_text("something else")
    status, out, err = _run(
        capsys, "purge", "--finished-before", "2999-01-01", "--export", str(export),
        "--database-url", db_url,
    )  # fmt: skip
    assert status == 1 and "purged: 2" in out and f"table {ids[0]}: export failed" in err
    for table in ids[1:3]:
        rec, _ = replay_text((export / f"table-{table}-game-1.json").read_text())
        assert rec.meta["table"] == table and len(rec.actions) == 2
    engine = make_engine(db_url)
    with session_factory(engine)() as session:
        left = set(session.scalars(select(TableRow.id)))
        assert left == {ids[0], ids[3]}  # the one whose export failed, the running one
        assert {r.table_id for r in session.scalars(select(RecordRow))} == {ids[0]}
        assert {a.table_id for a in session.scalars(select(ActionRow))} == {ids[0], ids[3]}
    engine.dispose()
    status, out, _ = _run(
        capsys, "purge", "--finished-before", "2000-01-01", "--no-export", "--database-url", db_url
    )
    assert status == 0 and "purged: 0" in out


def test_restore_never_replaces_a_database_without_force_and_keeps_it(
    sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _finished_tables(sqlite_url, 1)  # 2 tables
    backup = tmp_path / "backup.db"
    status, out, err = _run(capsys, "backup", str(backup), "--database-url", sqlite_url)
    assert status == 0 and "(tables: 2," in out, err
    status, _, err = _run(capsys, "backup", str(backup), "--database-url", sqlite_url)
    assert status == 2 and "--force" in err  # an existing backup is not overwritten
    with app_client(sqlite_url) as client:
        new_table(client, "tracker", 2)  # 3 tables now
    status, _, err = _run(capsys, "restore", str(backup), "--database-url", sqlite_url)
    assert status == 2 and "--force" in err
    status, out, err = _run(capsys, "restore", str(backup), "--database-url", sqlite_url, "--force")
    assert status == 0 and "(tables: 2," in out, err
    database = Path(sqlite_url.removeprefix("sqlite:///"))
    (kept,) = database.parent.glob("campfire.db.before-restore-*")
    with sqlite3.connect(kept) as db:
        assert db.execute("SELECT count(*) FROM game_tables").fetchone()[0] == 3
    not_a_backup = tmp_path / "notes.txt"
    not_a_backup.write_text("hello")
    status, _, err = _run(capsys, "restore", str(not_a_backup), "--database-url", sqlite_url)
    assert status == 2 and "not an SQLite database" in err


def test_postgresql_backup_gives_the_pg_dump_command(
    pg_schema: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from .conftest import fresh_schema

    with fresh_schema(pg_schema) as url:
        status, _, err = _run(capsys, "backup", str(tmp_path / "x.dump"), "--database-url", url)
        schema = url.rpartition("%3D")[2]
        assert status == 2 and "pg_dump --format=custom" in err and f"--schema={schema}" in err
        status, _, err = _run(capsys, "restore", str(tmp_path / "x.dump"), "--database-url", url)
        assert status == 2 and "pg_restore --clean" in err


def test_errors_say_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = f"sqlite:///{tmp_path / 'none.db'}"
    status, _, err = _run(capsys, "tables", "--database-url", missing)
    assert status == 2 and "there is no database at" in err
    assert not (tmp_path / "none.db").exists()  # nothing created
    unreachable = "postgresql+psycopg://campfire:secret@127.0.0.1:1/campfire"
    status, _, err = _run(capsys, "tables", "--database-url", unreachable)
    assert status == 2 and "cannot reach the database" in err and "secret" not in err
    status, _, err = _run(
        capsys, "purge", "--finished-before", "last week", "--no-export", "--database-url", missing
    )
    assert status == 2 and "YYYY-MM-DD" in err


def test_the_default_database_is_that_of_serve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CAMPFIRE_DATA_DIR", str(tmp_path))
    with app_client(f"sqlite:///{tmp_path / 'campfire.db'}") as client:
        table, _ = new_table(client, "tracker", 2, start=False)
    status, out, _ = _run(capsys, "tables", "--json")
    assert status == 0 and [t["id"] for t in json.loads(out)] == [table]


def test_the_close_migration_upgrades_a_database_without_losing_a_game(db_url: str) -> None:
    old = OldDatabase(db_url, "0003")  # a database of the release before
    assert old.upgrade().closed is None
    columns = {c["name"] for c in inspect(old.engine).get_columns("game_tables")}
    assert {"close_message", "close_requested", "closed"} <= columns
    old.downgrade("0003")
    assert "closed" not in {c["name"] for c in inspect(old.engine).get_columns("game_tables")}
    old.engine.dispose()


def test_close_with_several_processes_is_done_by_the_owner_and_reaches_every_client(
    pg_only: str, tmp_path: Path
) -> None:
    import asyncio
    import subprocess
    import sys

    import websockets

    from .helpers import check_frame
    from .live_server import LiveServer, http
    from .test_cluster import ARGS, _new_table

    a = LiveServer(pg_only, tmp_path, args=ARGS)
    b = LiveServer(pg_only, tmp_path, args=ARGS)
    try:
        table, tokens = _new_table(a.base)  # a owns it
        assert http("POST", f"{a.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200

        async def go() -> list[list[dict[str, Any]]]:
            at_owner = await websockets.connect(f"{a.ws}/ws/tables/{table}?token={tokens[0]}")
            proxied = await websockets.connect(f"{b.ws}/ws/tables/{table}?token={tokens[1]}")
            sockets = [at_owner, proxied]

            async def read(ws: Any) -> dict[str, Any]:
                return check_frame(json.loads(await asyncio.wait_for(ws.recv(), 30)))

            frames: list[list[dict[str, Any]]] = [[await read(ws)] for ws in sockets]
            closing = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "campfire.cli", "admin", "close", str(table),
                "--message", "Maintenance", "--database-url", pg_only,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )  # fmt: skip
            out, err = await asyncio.wait_for(closing.communicate(), 60)
            assert closing.returncode == 0, (out, err)
            assert b"its players were told" in out
            for ws, got in zip(sockets, frames, strict=True):
                got.append(await read(ws))
                got.append(await read(ws))
                await ws.close()
            return frames

        for frames in asyncio.run(go()):
            assert [f["type"] for f in frames] == ["snapshot", "snapshot", "closed"]
            assert frames[1]["status"] == "finished" and frames[2]["message"] == "Maintenance"
        status, record = http("GET", f"{b.base}/api/tables/{table}/record")
        assert status == 200 and json.loads(record)["meta"]["closed"]["message"] == "Maintenance"
    finally:
        a.stop()
        b.stop()


def test_restore_asks_at_a_terminal_before_it_replaces_a_database(
    sqlite_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with app_client(sqlite_url) as client:
        new_table(client, "tracker", 2, start=False)
    backup = tmp_path / "backup.db"
    assert _run(capsys, "backup", str(backup), "--database-url", sqlite_url)[0] == 0
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter(["n", "y"])
    monkeypatch.setattr("builtins.input", lambda question: next(answers))
    status, _, err = _run(capsys, "restore", str(backup), "--database-url", sqlite_url)
    assert status == 2 and "--force" in err  # "n": nothing replaced
    database = Path(sqlite_url.removeprefix("sqlite:///"))
    assert not list(database.parent.glob("*.before-restore-*"))
    status, out, err = _run(capsys, "restore", str(backup), "--database-url", sqlite_url)
    assert status == 0 and "kept as" in out, err
    assert len(list(database.parent.glob("*.before-restore-*"))) == 1


def test_admin_speaks_hungarian_and_czech(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "hu", "admin", "--help"]) == 0
    assert "adatbázisának kezelése" in capsys.readouterr().out
    assert main(["admin", "tables", "--lang", "cs", "--status", "x"]) == 2
    assert "oddělený čárkami" in capsys.readouterr().err


def test_the_admin_benchmark_runs_at_a_tiny_size() -> None:
    from tests.benchmark_scripts import load_script

    figures = load_script("admin_ops").run(tables=3, runs=1)
    assert figures["tables"] == 3 and figures["actions"] > 0


def test_the_closed_frame_s_schema_allows_the_longest_message() -> None:
    from campfire.server.admin import MAX_MESSAGE
    from campfire.server.protocol import SERVER_SCHEMAS

    assert SERVER_SCHEMAS["closed"]["properties"]["message"]["maxLength"] == MAX_MESSAGE
