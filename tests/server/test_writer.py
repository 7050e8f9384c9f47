"""Group commit of the action log (``campfire.server.writer.LogWriter``), on both databases."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from campfire.server.db import make_engine, migrate, session_factory
from campfire.server.models import ActionRow, RecordRow, TableRow
from campfire.server.tables import Connection, SeatInfo, Store, TableManager
from campfire.server.writer import LogWriter, PendingAction


def _setup(url: str, tables: int) -> tuple[LogWriter, Store, list[int]]:
    engine = make_engine(url)
    migrate(engine)
    sessions = session_factory(engine)
    store = Store(sessions)
    ids = [store.create("tracker", {}, 2, [SeatInfo(0), SeatInfo(1)]) for _ in range(tables)]
    for i in ids:
        store.start(i, 1, 5)
    return LogWriter(sessions), store, ids


def test_actions_waiting_together_share_one_transaction(db_url: str) -> None:
    writer, store, ids = _setup(db_url, 5)

    async def go() -> None:
        first = [writer.submit(PendingAction(t, 1, 0, 0, "peek 1")) for t in ids]
        await asyncio.gather(*first)
        assert (writer.commits, writer.committed) == (1, 5)
        # the next actions, one of them ending its game: its record and status go with it
        second = [writer.submit(PendingAction(t, 1, 1, 1, "peek 2")) for t in ids[:4]]
        second.append(writer.submit(PendingAction(ids[4], 1, 1, 1, "peek 3", record="{}")))
        await asyncio.gather(*second)

    asyncio.run(go())
    assert (writer.commits, writer.committed) == (2, 10)
    for t in ids:
        assert next((e.seat, e.notation) for e in store.actions(t, 1)) == (0, "peek 1")
    assert [e.notation for e in store.actions(ids[4], 1)] == ["peek 1", "peek 3"]
    assert store.record(ids[4], 1) == "{}"
    assert store.table_ids(["finished"]) == [ids[4]]


def test_a_bad_action_fails_alone_and_the_rest_of_its_group_is_committed(db_url: str) -> None:
    writer, store, ids = _setup(db_url, 3)

    async def go() -> list[BaseException | None]:
        await writer.submit(PendingAction(ids[1], 1, 0, 0, "peek 1"))
        group = [
            writer.submit(PendingAction(ids[0], 1, 0, 0, "peek 4")),
            writer.submit(PendingAction(ids[1], 1, 0, 0, "peek 9")),  # seq 0 is taken
            writer.submit(PendingAction(ids[2], 1, 0, 1, "peek 5")),
        ]
        results = await asyncio.gather(*group, return_exceptions=True)
        return [r if isinstance(r, BaseException) else None for r in results]

    errors = asyncio.run(go())
    assert errors[0] is None and errors[2] is None
    assert errors[1] is not None
    assert [e.notation for e in store.actions(ids[0], 1)] == ["peek 4"]
    assert [e.notation for e in store.actions(ids[1], 1)] == ["peek 1"]
    assert [e.notation for e in store.actions(ids[2], 1)] == ["peek 5"]
    with store.sessions() as session:
        assert session.scalar(select(TableRow.status).where(TableRow.id == ids[1])) == "running"
        assert session.scalars(select(RecordRow)).all() == []
        assert len(session.scalars(select(ActionRow)).all()) == 3


def test_a_group_is_at_most_max_group_actions(sqlite_url: str) -> None:
    writer, store, ids = _setup(sqlite_url, 1)
    writer.max_group = 4

    async def go() -> None:
        await asyncio.gather(
            *(writer.submit(PendingAction(ids[0], 1, i, 0, f"peek {i}")) for i in range(10))
        )

    asyncio.run(go())
    assert (writer.commits, writer.committed) == (3, 10)
    assert [e.notation for e in store.actions(ids[0], 1)] == [f"peek {i}" for i in range(10)]


def test_many_tables_acting_at_once_through_the_server_share_commits(sqlite_url: str) -> None:
    tables = 6
    engine = make_engine(sqlite_url)
    migrate(engine)
    manager = TableManager(session_factory(engine))

    async def go() -> None:
        made = []
        for _ in range(tables):
            seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(2)]
            live, tokens = manager.create({"game": "tracker", "players": 2, "seats": seats})
            manager.start(live, tokens[0], seed=9)
            conn = Connection(None)
            live.connections.add(conn)
            made.append((live, conn))
        for _ in range(3):
            moves = []
            for live, _ in made:
                assert live.table is not None
                seat = live.table.state.seats_to_act()[0]
                action = str(live.table.state.legal_actions(seat)[0])
                message = {"type": "action", "seq": live.seq, "action": action}
                moves.append(manager.act(live, seat, message))
            await asyncio.gather(*moves)
        for live, conn in made:
            deltas = []
            while not conn.queue.empty():
                frame = conn.queue.get_nowait()
                if isinstance(frame, str):
                    deltas.append(frame)
            assert len(deltas) == 3
            assert len(manager.store.actions(live.id, 1)) == 3
        await manager.close()

    asyncio.run(go())
    assert manager.writer.committed == 3 * tables
    assert manager.writer.commits < manager.writer.committed


def test_a_table_is_listed_finished_only_once_its_record_is_committed(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    manager = TableManager(session_factory(engine))
    seen: list[tuple[str, str | None]] = []
    commit = manager.writer.commit

    def watching(actions: list[PendingAction]) -> None:
        # while the game's last step is being committed, the lobby still says "running" and
        # no record is asked for; the status changes once the record is there
        if any(a.record is not None for a in actions):
            live = manager.tables[actions[0].table_id]
            seen.append((live.public()["status"], manager.store.record(live.id, 1)))
        commit(actions)

    manager.writer.commit = watching  # type: ignore[method-assign]

    async def go() -> str:
        live, _ = manager.create(
            {"game": "tracker", "players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
        )
        manager.start(live, None, seed=4)
        for _ in range(20_000):  # bounded: the bots' game ends
            if live.status == "finished":
                break
            await asyncio.sleep(0.001)
        assert manager.record(live, None)  # the record answers as soon as the status says so
        await manager.close()
        return live.status

    assert asyncio.run(go()) == "finished"
    assert seen == [("running", None)]
