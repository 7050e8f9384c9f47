"""A backup taken mid-game, restored into a fresh location, and the game goes on to its end.

A real ``campfire serve`` runs a table whose two clients keep playing while
``campfire admin backup`` copies the database (another process, at the same time). The
backup is restored into a new location with ``campfire admin restore``, a new server starts
on it, the clients reconnect with their seat tokens and finish the game from the backed-up
point; the record equals an uninterrupted game of the same seed and choices.

SQLite (the backup API, WAL) and PostgreSQL (``pg_dump`` / ``pg_restore``, run by the
commands with ``--pg-dump`` / ``--pg-restore``).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from campfire.core.records import replay_text

from .live_server import LiveServer, http
from .test_kill9 import GAME, PLAYERS, Client, _connect, _step, _uninterrupted


def _admin(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "campfire.cli", "admin", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def _play_while_backing_up(
    server: LiveServer, table: int, tokens: dict[int, str], backup: list[str]
) -> dict[int, int]:
    """Play 10 steps, then keep playing while the backup runs, then 5 more; the seqs seen.

    The game has 179 steps: at most 120 are played while the backup runs.
    """
    clients = await _connect(server, table, tokens, {})
    for _ in range(10):
        await _step(clients)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "campfire.cli",
        "admin",
        "backup",
        *backup,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    steps = 0
    while process.returncode is None and steps < 120:  # clients play while it copies
        await _step(clients)
        steps += 1
        await asyncio.sleep(0.05)  # paced: the backup starts (a new process) meanwhile
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0, (out, err)
    assert steps > 0  # the clients played while the backup ran
    for _ in range(5):  # actions after the backup: the restored game does not have them
        await _step(clients)
    seen = {c.seat: c.last["seq"] for c in clients}
    for c in clients:
        await c.ws.close()
    return seen


async def _finish(
    server: LiveServer, table: int, tokens: dict[int, str], seen: dict[int, int]
) -> list[Client]:
    clients = await _connect(server, table, tokens, seen)
    for _ in range(5000):
        if clients[0].last["outcome"] is not None:
            break
        await _step(clients)
    for c in clients:
        await c.ws.close()
    return clients


def _new_table(server: LiveServer) -> tuple[int, dict[int, str]]:
    seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(PLAYERS)]
    status, text = http("POST", f"{server.base}/api/tables", {"game": GAME, "seats": seats})
    assert status == 201, text
    created = json.loads(text)
    table = created["table"]["id"]
    tokens = {int(k): v for k, v in created["tokens"].items()}
    assert http("POST", f"{server.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200
    return table, tokens


def _check_the_game_went_on(
    server: LiveServer, table: int, tokens: dict[int, str], seen: dict[int, int], backed: int
) -> None:
    status, text = http("GET", f"{server.base}/api/tables/{table}")
    assert status == 200 and json.loads(text)["table"]["seq"] == backed  # the backed-up point
    clients = asyncio.run(_finish(server, table, tokens, seen))
    assert all(c.last["outcome"] is not None for c in clients)
    status, record = http("GET", f"{server.base}/api/tables/{table}/record")
    assert status == 200, record
    rec, match = replay_text(record)
    assert rec.seed is not None
    expected = _uninterrupted(rec.seed)  # the choices depend on the seq only: same game
    assert rec.actions == [(s, str(a)) for s, a in expected.actions]
    assert match.state.outcome() == expected.state.outcome()


def test_an_sqlite_backup_taken_mid_game_is_restored_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    first = f"sqlite:///{tmp_path / 'live' / 'campfire.db'}"
    backup = tmp_path / "backups" / "campfire-backup.db"
    server = LiveServer(first, tmp_path)
    try:
        table, tokens = _new_table(server)
        seen = asyncio.run(
            _play_while_backing_up(server, table, tokens, [str(backup), "--database-url", first])
        )
        # a server holds the database: a restore into it is refused, and says how to stop it
        refused = _admin("restore", str(backup), "--database-url", first, "--force")
        assert refused.returncode == 2 and "stop it first" in refused.stderr
    finally:
        server.stop()
    with sqlite3.connect(backup) as db:  # one self-contained file, not in WAL mode
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        backed = db.execute("SELECT count(*) FROM actions").fetchone()[0]
    assert 10 <= backed < min(seen.values())

    fresh = f"sqlite:///{tmp_path / 'restored' / 'campfire.db'}"
    done = _admin("restore", str(backup), "--database-url", fresh)
    assert done.returncode == 0, done.stderr
    server = LiveServer(fresh, tmp_path)
    try:
        _check_the_game_went_on(server, table, tokens, seen, backed)
    finally:
        server.stop()


def test_a_postgresql_backup_taken_mid_game_is_restored_and_the_game_goes_on(
    pg_schema: str, tmp_path: Path
) -> None:
    import psycopg

    from .conftest import PG_DSN, fresh_schema

    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.fail(
            "pg_dump and pg_restore are needed: 'make pg-client' (or make test) installs the "
            "postgresql-client package"
        )
    backup = tmp_path / "campfire.dump"
    with fresh_schema(pg_schema) as url:
        schema = url.rpartition("%3D")[2]
        server = LiveServer(url, tmp_path)
        try:
            table, tokens = _new_table(server)
            seen = asyncio.run(
                _play_while_backing_up(
                    server, table, tokens, [str(backup), "--database-url", url, "--pg-dump"]
                )
            )
        finally:
            server.stop()
        # the fresh location: the schema is emptied (as a new database would be)
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
        done = _admin("restore", str(backup), "--database-url", url, "--pg-restore", "--force")
        assert done.returncode == 0, done.stderr
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            backed = conn.execute(f'SELECT count(*) FROM "{schema}".actions').fetchone()
        assert backed is not None and 10 <= backed[0] < min(seen.values())
        server = LiveServer(url, tmp_path)
        try:
            _check_the_game_went_on(server, table, tokens, seen, backed[0])
        finally:
            server.stop()
