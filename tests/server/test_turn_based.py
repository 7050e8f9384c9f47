"""Turn-based tables (``campfire.server.turns``): deadlines that outlive the server process.

A turn-based table's clock is stored as wall-clock deadlines in the database. The tests stop
the server (the app's lifespan ends) and start a new one on the same database, with the wall
clock moved on (``create_app(wall=...)``) instead of waiting hours: a move made "days later"
works, a deadline that passed while no server ran applies its rule once at the start, an idle
table leaves memory and comes back for the next move, and ``POST /api/turns`` lists the tables
waiting for a player's move, for a guest (seat tokens) and for a signed-in user (their seats).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, select
from starlette.testclient import TestClient

from campfire.server.db import make_engine, session_factory
from campfire.server.models import ActionRow, RecordRow, TableRow

from .helpers import Seat, app_client, new_table, seats, wait_for
from .old_database import OldDatabase
from .test_accounts import PASSWORD
from .test_accounts import settings as account_settings

DAY = 86_400.0
TURN = {"kind": "turn", "seconds": DAY, "on_timeout": "loss"}


def _later(seconds: float) -> Callable[[], float]:
    """A wall clock ``seconds`` ahead of the real one."""
    return lambda: time.time() + seconds


def _to_act(clients: list[Seat]) -> Seat:
    return next(c for c in clients if c.seat is not None and c.last["legal"])


def _seat_to_act(clients: list[Seat]) -> int:
    seat = _to_act(clients).seat
    assert seat is not None
    return seat


def _move(client: TestClient, table: int, tokens: dict[int, str]) -> int:
    """Connect every seat, let the seat to act play its first legal action; the new seq."""
    with seats(client, table, tokens, spectator=False) as clients:
        mover = _to_act(clients)
        seq = mover.last["seq"]
        mover.act(mover.last["legal"][0]["index"])
        for c in clients:
            frame = c.receive()
            assert frame["type"] == "delta", frame
            assert frame["seq"] == seq + 1
        clocks = clients[0].last["clocks"]
        assert clocks["control"]["kind"] == "turn" and clocks["running"]
        return int(seq + 1)


def _hand_over(client: TestClient, table: int, tokens: dict[int, str]) -> int:
    """Play the first legal actions of the seat to act until another seat is to act; it."""
    with seats(client, table, tokens, spectator=False) as clients:
        mover = _to_act(clients)
        for _ in range(100):
            mover.act(mover.last["legal"][0]["index"])
            for c in clients:
                assert c.receive()["type"] == "delta"
            if not mover.last["legal"]:
                return _seat_to_act(clients)
    raise AssertionError("the seat kept the turn")


def _row(url: str, table: int) -> TableRow:
    engine = make_engine(url)
    try:
        with session_factory(engine)() as session:
            row = session.get_one(TableRow, table)
            session.expunge(row)
            return row
    finally:
        engine.dispose()


def test_a_move_days_later_works_after_a_restart(db_url: str) -> None:
    with app_client(db_url) as client:
        table, tokens = new_table(client, "tracker", 2, clock=TURN)
        assert _move(client, table, tokens) == 1
    first = _row(db_url, table)
    assert first.turn_deadline is not None and first.turn
    # a new server process, 20 hours later (within the day each move has)
    with app_client(db_url, wall=_later(20 * 3600)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert table not in manager.tables  # left in the database until needed
        assert _move(client, table, tokens) == 2
    second = _row(db_url, table)
    assert second.status == "running"
    assert second.turn and second.turn[0][1] > first.turn[0][1] + 19 * 3600


def test_a_time_out_that_passed_while_stopped_applies_once_at_the_start(db_url: str) -> None:
    with app_client(db_url) as client:
        lost, lost_tokens = new_table(client, "tracker", 2, clock=TURN)
        rand, rand_tokens = new_table(client, "tracker", 2, clock={**TURN, "on_timeout": "random"})
        waiting, waiting_tokens = new_table(
            client, "tracker", 2, clock={**TURN, "seconds": 5 * DAY}
        )
        for table, tokens in ((lost, lost_tokens), (rand, rand_tokens), (waiting, waiting_tokens)):
            _move(client, table, tokens)
    engine = make_engine(db_url)
    sessions = session_factory(engine)

    def logged(table: int) -> list[ActionRow]:
        with sessions() as session:
            return list(
                session.scalars(
                    select(ActionRow).where(ActionRow.table_id == table).order_by(ActionRow.seq)
                )
            )

    try:
        # two days later: the day of the moves ran out while no server ran
        for _ in range(2):  # a second start applies nothing again
            with app_client(db_url, wall=_later(2 * DAY + 60)) as client:
                manager = client.app.state.manager  # type: ignore[attr-defined]
                wait_for(lambda: _row(db_url, lost).status == "finished", "the lost table finished")
                wait_for(lambda: len(logged(rand)) == 2, "both lines logged")
                assert waiting not in manager.tables  # five days a move: still waiting
            with sessions() as session:
                records = session.scalars(select(RecordRow).where(RecordRow.table_id == lost))
                (record,) = list(records)
            meta = json.loads(record.record)["meta"]
            assert meta["forfeit"]["reason"] == "time" and meta["clock"] == TURN
            assert _row(db_url, lost).turn_deadline is None
            rows = logged(rand)
            assert [r.cause for r in rows] == [None, "timeout"]
            assert len(logged(waiting)) == 1 and _row(db_url, waiting).status == "running"
    finally:
        engine.dispose()


def test_idle_tables_leave_memory_and_come_back_for_the_next_move(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        tables = [new_table(client, "tracker", 2, clock=TURN) for _ in range(12)]
        for table, tokens in tables:
            _move(client, table, tokens)
        manager.turns.idle = 0.0
        assert manager.turns.sweep() == 12
        assert not any(t in manager.tables for t, _ in tables)
        listed = client.get("/api/tables?status=running").json()["tables"]
        assert {t["id"] for t in listed} >= {t for t, _ in tables}  # still in the lobby
        for table, tokens in tables:  # each is loaded again for its next move
            assert _move(client, table, tokens) == 2
        # a table with a connection stays
        table, tokens = tables[0]
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            ws.receive_json()
            manager.turns.sweep()
            assert table in manager.tables


def test_your_turn_lists_a_guests_and_a_users_waiting_tables(db_url: str) -> None:
    with app_client(db_url, accounts=account_settings()) as client:
        made = [new_table(client, "tracker", 2, clock=TURN) for _ in range(3)]
        live = new_table(client, "tracker", 2)  # not turn-based: not listed
        to_act = {}
        for table, tokens in [*made, live]:
            with seats(client, table, tokens, spectator=False) as clients:
                to_act[table] = _seat_to_act(clients)
        mine = [{"table": t, "token": tokens[to_act[t]]} for t, tokens in [*made, live]]
        # another table's token names no seat here
        mine.append({"table": made[0][0], "token": made[1][1][to_act[made[1][0]]]})
        answer = client.post("/api/turns", json={"seats": mine})
        assert answer.status_code == 200
        turns = answer.json()["turns"]
        assert [t["table"] for t in turns] == [t for t, _ in made]
        assert [t["seat"] for t in turns] == [to_act[t] for t, _ in made]
        assert turns[0]["game"] == "tracker"
        # the other seat's player waits for nobody
        theirs = [{"table": t, "token": tokens[1 - to_act[t]]} for t, tokens in made]
        assert client.post("/api/turns", json={"seats": theirs}).json()["turns"] == []
        # once their turn is over, a table leaves the list of the one who moved
        assert _hand_over(client, made[1][0], made[1][1]) == 1 - to_act[made[1][0]]
        left = client.post("/api/turns", json={"seats": mine}).json()["turns"]
        assert [t["table"] for t in left] == [made[0][0], made[2][0]]
        # a signed-in user: the seats of their account (claimed at sign-up here)
        up = client.post(
            "/api/account/signup",
            json={"user_name": "Ann", "password": PASSWORD, "claim": mine[:3]},
        )
        assert up.status_code == 201, up.text
        assert [t["table"] for t in client.post("/api/turns").json()["turns"]] == [
            made[0][0],
            made[2][0],
        ]
        # bounded, and every bad body says what is allowed
        for bad in (
            {"seats": "x"},
            {"seats": [{"table": 1}]},
            {"seats": [{"table": 1, "token": "t" * 201}]},
            {"seats": [{"table": 1, "token": "t"}] * 101},
            {"other": 1},
        ):
            answer = client.post("/api/turns", json=bad)
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"]["code"] == "bad_request"


def test_the_turn_migration_upgrades_a_database_without_losing_a_game(db_url: str) -> None:
    old = OldDatabase(db_url, "0006")  # a database of the schema before turn-based play
    assert old.upgrade().turn_deadline is None
    columns = {c["name"] for c in inspect(old.engine).get_columns("game_tables")}
    assert {"turn_deadline", "turn"} <= columns
    old.downgrade("0006")
    assert "turn" not in {c["name"] for c in inspect(old.engine).get_columns("game_tables")}
    old.engine.dispose()


def test_a_turn_based_table_goes_on_at_another_process_when_its_owner_dies(
    pg_only: str, tmp_path: Path
) -> None:
    """Two processes (PostgreSQL, Redis): the owner of a turn-based table is killed between
    moves; the table waits in the database (no process adopts it before it is needed) and the
    next move, at the other process, works with the clock running from its stored deadline."""
    import asyncio

    from .live_server import LiveServer, http
    from .test_cluster import ARGS, _open, _play_one

    a = LiveServer(pg_only, tmp_path, args=ARGS)
    b = LiveServer(pg_only, tmp_path, args=ARGS)
    try:
        seats_ = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(2)]
        body = {"game": "tracker", "seats": seats_, "clock": TURN}
        status, text = http("POST", f"{a.base}/api/tables", body)
        assert status == 201, text
        created = json.loads(text)
        table = created["table"]["id"]
        tokens = {int(k): v for k, v in created["tokens"].items()}
        assert http("POST", f"{a.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200

        async def at(server: LiveServer, moves: int) -> dict[str, Any]:
            clients = [await _open(server, table, s, f"token={tokens[s]}") for s in (0, 1)]
            for _ in range(moves):
                await _play_one(clients, clients)
            for c in clients:
                await c.ws.close()
            return clients[0].last

        before = asyncio.run(at(a, 3))
        a.kill()  # between moves, without warning
        after = asyncio.run(at(b, 2))
    finally:
        a.stop()
        b.stop()
    assert before["seq"] == 3 and after["seq"] == 5
    assert after["clocks"]["control"] == TURN and after["clocks"]["running"]
    assert _row(pg_only, table).turn_deadline is not None


def test_a_deadline_that_passes_while_the_table_is_out_of_memory_applies(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        table, tokens = new_table(client, "tracker", 2, clock={**TURN, "on_timeout": "random"})
        _move(client, table, tokens)
        manager.turns.idle = 0.0
        assert manager.turns.sweep() == 1 and table not in manager.tables
        portal = client.portal
        assert portal is not None
        assert portal.call(manager.turns.due) == 0  # not due yet
        manager.wall = _later(DAY + 60)  # a day later: the keeper's next look finds it due
        assert portal.call(manager.turns.due) == 1
        wait_for(lambda: len(manager.store.actions(table, 1)) == 2, "both actions stored")
        assert [e.cause for e in manager.store.actions(table, 1)] == [None, "timeout"]
        assert table in manager.tables  # loaded, with its next deadline a day after the timeout
        assert _row(sqlite_url, table).turn_deadline is not None
