"""Persistence against SQLite and PostgreSQL: the log, records, migrations, restart recovery."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

import campfire
from campfire.core import Match
from campfire.core.records import replay_text
from campfire.server.db import make_engine, migrate, session_factory
from campfire.server.models import ActionRow, SeatRow, TableRow

from .helpers import Seat, app_client, new_table, seats

SEED = 21


def _pick(frame: dict[str, Any]) -> str:
    legal = frame["legal"]
    notation: str = legal[frame["seq"] % len(legal)]["notation"]
    return notation


def _play(clients: list[Seat], steps: int | None) -> None:
    done = 0
    while clients[0].last["outcome"] is None and (steps is None or done < steps):
        mover = next(c for c in clients if c.last["legal"])
        mover.act(_pick(mover.last))
        for c in clients:
            assert c.receive()["type"] == "delta"
        done += 1


def _uninterrupted(game: str, players: int) -> Match:
    match = Match(campfire.get_game(game), players, seed=SEED)
    while not match.state.is_terminal():
        seat = match.state.seats_to_act()[0]
        legal = match.state.legal_actions(seat)
        match.play(seat, legal[len(match.actions) % len(legal)])
    return match


def test_migrations_apply_twice_and_make_the_schema(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    migrate(engine)  # idempotent: the server migrates at every start
    with session_factory(engine)() as session:
        assert session.scalar(select(func.count()).select_from(TableRow)) == 0
    engine.dispose()


def test_every_action_is_committed_before_it_is_broadcast(db_url: str) -> None:
    engine = make_engine(db_url)
    sessions = session_factory(engine)
    with app_client(db_url, seed=SEED) as client:
        table, tokens = new_table(client, "tracker", 2)
        with sessions() as session:
            seat = session.get_one(SeatRow, (table, 0))
            assert seat.token_hash is not None and seat.token_hash != tokens[0]
        with seats(client, table, tokens, spectator=False) as clients:
            for _ in range(6):
                mover = next(c for c in clients if c.last["legal"])
                mover.act(_pick(mover.last))
                for c in clients:
                    frame = c.receive()
                    with sessions() as session:
                        stored = session.scalar(
                            select(func.count()).where(ActionRow.table_id == table)
                        )
                    assert stored is not None and stored >= frame["seq"]
    engine.dispose()


def test_a_restart_rebuilds_the_table_from_its_log_and_the_game_goes_on(db_url: str) -> None:
    with app_client(db_url, seed=SEED) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as clients:
            _play(clients, 25)
            halfway = clients[0].last["seq"]
            view_before = clients[0].last["view"]
    # a new server process on the same database
    with app_client(db_url, seed=999) as client:
        with seats(client, table, tokens) as clients:
            snapshot = clients[0].frames[0]
            assert snapshot["seq"] == halfway and snapshot["view"] == view_before
            _play(clients, None)
        record = client.get(f"/api/tables/{table}/record").text
    rec, match = replay_text(record)
    expected = _uninterrupted("tracker", 2)
    assert rec.actions == [(s, str(a)) for s, a in expected.actions]
    assert match.state.outcome() == expected.state.outcome()
    assert rec.seed == SEED


def test_bots_go_on_after_a_restart(db_url: str) -> None:
    bots = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    with app_client(db_url, seed=SEED) as client:
        table, _ = new_table(client, "manitou", 2, seats=bots)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Seat(ws, None, check_every=5)
            watcher.receive()
            for _ in range(10):
                watcher.receive()
        assert live.seq >= 10
    with app_client(db_url, seed=999) as client:
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Seat(ws, None, check_every=5)
            frame = watcher.receive()
            while frame["outcome"] is None:
                frame = watcher.receive()
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        _, match = replay_text(record.text)
        assert match.state.is_terminal()
        listed = client.get("/api/tables?status=finished").json()["tables"]
        assert [t["id"] for t in listed] == [table]
