"""Several server processes: a table's lease moving while the table is in use.

In one process, against the real PostgreSQL and Redis: the other processes are played by the
test (a lease row it takes, a Redis channel it listens on), so every moment of a move is made
to happen, in order, instead of being waited for.

- A process whose lease was taken (it stalled, the lease expired, another took it) writes
  nothing more for the table: the log's writes are fenced by the lease rows
  (:meth:`Cluster.fence`); it drops the table and closes its clients with 1012; the new owner
  rebuilds the table from the log.
- A proxying process that dies: the owner ends its clients' connections (no task, no
  connection left behind); the clients reconnect and resume from their sequence number.
- A lobby request caught in a move is run again where the table is, and answered 503
  ``table_moved`` (JSON, translated, ``Retry-After``) only when it cannot be.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import secrets
import threading
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from campfire.server import cluster as cluster_module
from campfire.server import forwarding, protocol
from campfire.server.app import attach, create_app
from campfire.server.cluster import Cluster
from campfire.server.db import make_engine, migrate, session_factory
from campfire.server.tables import Connection, SeatInfo, Store, TableManager
from campfire.server.writer import LeaseLost, LogWriter, PendingAction

from .conftest import REDIS
from .test_kill9 import GAME, _choice


@pytest.fixture
def sessions(pg_only: str) -> Iterator[sessionmaker[Session]]:
    """Sessions on a fresh, migrated PostgreSQL schema (with the leases' table)."""
    engine = make_engine(pg_only)
    migrate(engine, shared=True)
    yield session_factory(engine)
    engine.dispose()


def _lease(sessions: sessionmaker[Session], table: int) -> tuple[str, bool] | None:
    """The lease of ``table``: its owner and whether it is still valid."""
    with sessions() as session:
        row = session.execute(
            text("SELECT owner, expires >= now() FROM table_leases WHERE table_id = :t"),
            {"t": table},
        ).one_or_none()
    return None if row is None else (str(row[0]), bool(row[1]))


def _set_lease(sessions: sessionmaker[Session], table: int, owner: str, seconds: float) -> None:
    """Make ``owner`` hold the lease of ``table`` for ``seconds`` (negative: expired)."""
    with sessions.begin() as session:
        session.execute(
            text(
                "UPDATE table_leases SET owner = :o, expires = now() + make_interval(secs => :s) "
                "WHERE table_id = :t"
            ),
            {"o": owner, "s": seconds, "t": table},
        )


def _worker() -> str:
    return f"test-{secrets.token_hex(4)}"


async def _until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` (bounded: a missed condition fails, it never hangs)."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never happened: {what}")


def _frames(conn: Connection) -> list[dict[str, Any] | None]:
    """What is queued on ``conn`` (``None``: it was closed), decoded."""
    out: list[dict[str, Any] | None] = []
    while not conn.queue.empty():
        frame = conn.queue.get_nowait()
        out.append(json.loads(frame) if isinstance(frame, str) else frame)
    return out


# ----- the fence ------------------------------------------------------------------------------


def test_the_fence_refuses_every_write_for_a_table_whose_lease_another_process_took(
    sessions: sessionmaker[Session],
) -> None:
    store = Store(sessions)
    moved, kept = (store.create(GAME, {}, 2, [SeatInfo(0), SeatInfo(1)]) for _ in range(2))
    for table in (moved, kept):
        store.start(table, 1, 5)
    a, b = Cluster(sessions, REDIS, 30, _worker()), Cluster(sessions, REDIS, 30, _worker())
    writer = LogWriter(sessions)
    writer.fence = store.fence = a.fence
    assert a.claim(moved) and a.claim(kept)
    writer.commit([PendingAction(moved, 1, 0, 0, "first"), PendingAction(kept, 1, 0, 0, "k")])
    _set_lease(sessions, moved, a.me, -1)  # a stalled: its lease ran out; nobody took it yet
    writer.commit([PendingAction(moved, 1, 1, 1, "second")])  # still a's to write
    assert b.claim(moved)  # now b takes it

    with pytest.raises(LeaseLost) as lost:
        writer.commit([PendingAction(kept, 1, 1, 1, "k2"), PendingAction(moved, 1, 2, 0, "x")])
    assert lost.value.table_id == moved and lost.value.code == "table_moved"
    with pytest.raises(LeaseLost):
        store.save_seat(moved, SeatInfo(0, "human", None, "Mallory", "0" * 64))
    with pytest.raises(LeaseLost):
        store.finish(moved, 1, "{}")
    with pytest.raises(LeaseLost):
        store.start(moved, 2, 6)
    # nothing of the refused transactions was written: not even the other table's action
    assert [e.notation for e in store.actions(moved, 1)] == ["first", "second"]
    assert [e.notation for e in store.actions(kept, 1)] == ["k"]
    found = store.table(moved)
    assert found is not None and found[0].status == "running" and found[0].game_number == 1
    assert found[1][0].nickname is None and store.record(moved, 1) is None
    # the new owner writes on; the old one still writes for the table it kept
    writer_b = LogWriter(sessions)
    writer_b.fence = b.fence
    writer_b.commit([PendingAction(moved, 1, 2, 0, "third")])
    writer.commit([PendingAction(kept, 1, 1, 1, "k2")])
    assert [e.notation for e in store.actions(moved, 1)] == ["first", "second", "third"]
    assert [e.notation for e in store.actions(kept, 1)] == ["k", "k2"]


def test_a_takeover_waits_for_the_old_owner_s_write_and_then_reads_it(
    sessions: sessionmaker[Session], pg_only: str
) -> None:
    store = Store(sessions)
    table = store.create(GAME, {}, 2, [SeatInfo(0), SeatInfo(1)])
    store.start(table, 1, 5)
    a = Cluster(sessions, REDIS, 30, _worker())
    name = f"campfire-b-{secrets.token_hex(3)}"
    b_engine = make_engine(f"{pg_only}&application_name={name}")
    b = Cluster(session_factory(b_engine), REDIS, 30, _worker())
    assert a.claim(table)
    _set_lease(sessions, table, a.me, -1)  # a's lease has run out, a does not know it
    claimed: list[bool] = []
    with sessions.begin() as session:  # a's write transaction: the fence first
        a.fence(session, {table})
        claiming = threading.Thread(target=lambda: claimed.append(b.claim(table)))
        claiming.start()
        for _ in range(2000):  # b's claim waits for a's transaction (its row lock)
            with sessions() as watch:  # (one transaction sees one snapshot of the activity)
                waiting = watch.execute(
                    text(
                        "SELECT count(*) FROM pg_stat_activity "
                        "WHERE application_name = :n AND wait_event_type = 'Lock'"
                    ),
                    {"n": name},
                ).scalar()
            if waiting:
                break
            claiming.join(0.005)
        else:
            raise AssertionError("b's claim did not wait for a's write")
        assert not claimed
        session.execute(
            text(
                "INSERT INTO actions (table_id, game_number, seq, seat, notation, received) "
                "VALUES (:t, 1, 0, 0, 'peek', now())"
            ),
            {"t": table},
        )
    claiming.join(30)
    assert claimed == [True]  # after a's commit: b owns the table and reads a's action
    assert [e.notation for e in Store(b.sessions).actions(table, 1)] == ["peek"]
    with pytest.raises(LeaseLost), sessions.begin() as session:
        a.fence(session, {table})
    b_engine.dispose()


# ----- an owner that loses its lease while it plays ---------------------------------------------


def _manager(sessions: sessionmaker[Session], worker: str) -> TableManager:
    """A table manager fenced by a (not started) cluster member ``worker``."""
    manager = TableManager(sessions, bot_workers=1)
    cluster = Cluster(sessions, REDIS, 30, worker)
    manager.cluster = cluster
    manager.writer.fence = manager.store.fence = cluster.fence
    return manager


def test_an_owner_whose_lease_was_taken_stops_and_the_new_owner_goes_on_from_the_log(
    sessions: sessionmaker[Session],
) -> None:
    async def go() -> None:
        old = _manager(sessions, _worker())
        live, tokens = old.create(
            {"game": GAME, "seats": [{"kind": "reserved", "nickname": f"P{i}"} for i in (0, 1)]}
        )
        old.start(live, tokens[0], seed=7)
        conns = {s: Connection(None) for s in (0, 1)}
        for s, conn in conns.items():
            assert await attach(old, conn, str(live.id), tokens[s], None) is live
        last = {s: [f for f in _frames(conn) if f][-1] for s, conn in conns.items()}
        for _ in range(3):  # a few actions while it owns the table
            seat = next(s for s, f in last.items() if f["legal"])
            message = {"type": "action", "seq": live.seq, "action": _choice(last[seat])}
            await old.act(live, seat, message)
            last = {s: [f for f in _frames(c) if f][-1] for s, c in conns.items()}
        assert live.seq == 3 and live.table is not None
        position = live.table.state.to_position()
        new = _manager(sessions, _worker())
        assert new.cluster is not None and old.cluster is not None
        _set_lease(sessions, live.id, old.cluster.me, -1)  # the old owner stalled...
        assert new.cluster.claim(live.id)  # ...and the new one took the table

        seat = next(s for s, f in last.items() if f["legal"])
        message = {"type": "action", "seq": 3, "action": _choice(last[seat])}
        with pytest.raises(LeaseLost):
            await old.act(live, seat, message)
        # it stopped acting for the table: dropped, its clients closed with 1012, no delta
        assert live.id not in old.tables
        for conn in conns.values():
            assert _frames(conn) == [None] and conn.close_code == protocol.CLOSE_MOVED
        assert len(old.store.actions(live.id, 1)) == 3  # its step was not written

        # the new owner rebuilt the table from the log: the same position, and it plays on
        moved = new.load(live.id)
        assert moved is not None and moved.seq == 3 and moved is not live
        assert moved.table is not None and moved.table.state.to_position() == position
        conn = Connection(None)
        assert await attach(new, conn, str(live.id), tokens[seat], 3) is moved
        snapshot = _frames(conn)[0]
        assert snapshot is not None and snapshot["seq"] == 3 and snapshot["missed"] == []
        await new.act(moved, seat, message)
        assert [f["seq"] for f in _frames(conn) if f] == [4]
        assert len(new.store.actions(live.id, 1)) == 4
        await old.close()
        await new.close()

    asyncio.run(go())


def test_bots_of_an_owner_whose_lease_was_taken_stop_without_an_error(
    sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    async def go() -> None:
        old = _manager(sessions, _worker())
        assert old.cluster is not None
        live, _ = old.create(
            {"game": GAME, "seats": [{"kind": "bot", "level": "easy"} for _ in (0, 1)]}
        )
        old.start(live, None, seed=11)
        await _until(lambda: live.seq >= 3, "the bots played")
        # the lease is taken while the bots play (this coroutine holds the event loop)
        _set_lease(sessions, live.id, _worker(), 30)
        await _until(lambda: live.id not in old.tables, "the old owner dropped the table")
        assert live.bot_task is not None
        await _until(live.bot_task.done, "the bots stopped")
        logged = len(old.store.actions(live.id, 1))
        assert logged <= live.seq  # the step it could not write is the only one not logged
        assert live.table is not None
        notations = [str(s.action) for s in live.table.steps[:logged]]
        assert [e.notation for e in old.store.actions(live.id, 1)] == notations
        await old.close()

    with caplog.at_level(logging.WARNING):
        asyncio.run(go())
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []


# ----- a proxying process that dies -----------------------------------------------------------


def test_the_owner_ends_the_connections_of_a_proxying_process_that_died(
    sessions: sessionmaker[Session],
) -> None:
    import redis.asyncio as aioredis

    async def go() -> None:
        manager = TableManager(sessions, bot_workers=1)
        owner = Cluster(sessions, REDIS, 30, _worker())
        await owner.start(manager, None)
        live, tokens = manager.create(
            {
                "game": GAME,
                "seats": [{"kind": "reserved", "nickname": f"P{i}"} for i in (0, 1)],
                "bot_after_leave": 600,
            }
        )
        manager.start(live, tokens[0], seed=3)
        # the relay: a process that listens on its channel and is alive, played by the test
        relay = _worker()
        client = aioredis.Redis.from_url(REDIS, decode_responses=True)
        await client.set(f"campfire:alive:{relay}", "1", ex=60)
        pubsub = client.pubsub()
        await pubsub.subscribe(f"campfire:w:{relay}")

        async def frame_for_relay() -> tuple[str, str]:
            for _ in range(400):
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.05)
                if message is not None:
                    kind_id, _, rest = str(message["data"]).partition("\n")
                    return kind_id, rest
            raise AssertionError("the owner sent the relay nothing")

        tasks_before = set(owner._tasks)
        for seat in (0, 1):
            await client.publish(
                f"campfire:w:{owner.me}",
                json.dumps(
                    {
                        "op": "open",
                        "conn": f"{relay}/{seat}",
                        "worker": relay,
                        "table": live.id,
                        "token": tokens[seat],
                        "since": None,
                        "lang": "en",
                    }
                ),
            )
        seen = {}
        for _ in (0, 1):
            head, body = await frame_for_relay()
            frame = json.loads(body)
            assert head.startswith("F") and frame["type"] == "snapshot"
            seen[frame["seat"]] = frame
        await _until(lambda: len(owner.remotes) == 2, "the owner serves both connections")
        remotes = list(owner.remotes.values())
        # the relay dies: its alive key is gone, its channel has no listener
        await pubsub.unsubscribe()
        await client.delete(f"campfire:alive:{relay}")
        await owner.check()
        await _until(lambda: not owner.remotes, "the owner ended the relay's connections")
        await _until(lambda: set(owner._tasks) == tasks_before, "their tasks ended")
        assert all(r.closed for r in remotes) and not live.connections
        assert set(live.leave_tasks) == {0, 1}  # its clients count as gone (bot_after_leave)

        # the people play on elsewhere: one moves, the other reconnects and resumes by seq
        mover = next(f for f in seen.values() if f["legal"])
        other = 1 - mover["seat"]
        here = Connection(None)
        assert await attach(manager, here, str(live.id), tokens[mover["seat"]], 0) is live
        message = {"type": "action", "seq": 0, "action": _choice(mover)}
        await manager.act(live, mover["seat"], message)
        back = Connection(None)
        assert await attach(manager, back, str(live.id), tokens[other], seen[other]["seq"]) is live
        snapshot = _frames(back)[0]
        assert snapshot is not None and snapshot["seq"] == 1
        assert [s["seq"] for s in snapshot["missed"]] == [1]  # nothing was lost
        assert not live.leave_tasks  # both are back: no bot takes their seats over
        await client.aclose()
        await owner.close()
        await manager.close()

    asyncio.run(go())


# ----- lobby requests during a move -------------------------------------------------------------


class Ghost:
    """Another server process, played by a thread: it listens on its channel and answers
    forwarded requests with ``answer(op)`` (``None``: it stays silent)."""

    def __init__(self, answer: Callable[[dict[str, Any]], dict[str, Any] | None]) -> None:
        import redis

        self.me = _worker()
        self.answer = answer
        self.asked: list[dict[str, Any]] = []
        self.client = cast(Any, redis.Redis.from_url(REDIS, decode_responses=True))
        self.pubsub = self.client.pubsub()
        self.pubsub.subscribe(f"campfire:w:{self.me}")
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            message = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=0.05)
            if message is None:
                continue
            op = json.loads(message["data"])
            self.asked.append(op)
            reply = self.answer(op)
            if reply is not None:
                reply = {"op": "reply", "id": op["id"], **reply}
                self.client.publish(f"campfire:w:{op['worker']}", json.dumps(reply))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        self.pubsub.close()
        self.client.close()


def _in_loop(client: TestClient, function: Callable[..., Any], *args: Any) -> Any:
    """Call ``function`` in the application's event loop (the test runs in another thread)."""
    assert client.portal is not None

    async def call() -> Any:
        return function(*args)

    return client.portal.call(call)


def _reply(status: int, body: Any) -> dict[str, Any]:
    return {
        "status": status,
        "headers": [["content-type", "application/json"]],
        "body": base64.b64encode(json.dumps(body).encode()).decode("ascii"),
    }


def test_lobby_requests_caught_in_a_move_are_run_again_where_the_table_is(
    pg_only: str, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(pg_only, redis_url=REDIS, lease_seconds=30)
    ghosts: list[Ghost] = []
    try:
        with TestClient(app) as client:
            me = app.state.manager.cluster.me
            made = client.post("/api/tables", json={"game": GAME, "players": 2})
            table = made.json()["table"]["id"]
            assert _lease(sessions, table) == (me, True)

            # this process's lease was taken while it had the table: a join it runs is refused
            # by the fence (nothing written), and run again at the new owner
            joined = {"table": {"id": table}, "seat": 0, "token": "t"}
            ghost = Ghost(lambda op: _reply(201, joined) if op["op"] == "http" else None)
            ghosts.append(ghost)
            _set_lease(sessions, table, ghost.me, 30)
            answer = client.post(f"/api/tables/{table}/join", json={"nickname": "Ann"})
            assert answer.status_code == 201 and answer.json() == joined
            assert [(op["method"], op["path"]) for op in ghost.asked] == [
                ("POST", f"/api/tables/{table}/join")
            ]
            assert json.loads(base64.b64decode(ghost.asked[0]["body"])) == {"nickname": "Ann"}
            assert table not in app.state.manager.tables  # dropped when the fence refused
            found = Store(sessions).table(table)
            assert found is not None and found[1][0].nickname is None  # not joined here

            # the owner answers that it no longer has the table: the request follows it back
            def gone(op: dict[str, Any]) -> dict[str, Any]:
                _set_lease(sessions, table, me, 30)
                return _reply(503, {"error": {"code": "table_moved", "message": "moved"}})

            ghost.answer = gone
            answer = client.get(f"/api/tables/{table}/settings")
            assert answer.status_code == 200 and "modes" in answer.json()
            assert len(ghost.asked) == 2 and table in app.state.manager.tables

            # a request forwarded to a process that lost the table: JSON, never a plain 500
            _set_lease(sessions, table, ghost.me, 30)
            _in_loop(client, app.state.manager.drop, table)
            for path in ("settings", "replay", ""):
                answer = client.get(
                    f"/api/tables/{table}/{path}".rstrip("/"),
                    headers={"x-campfire-forwarded": "1", "accept-language": "hu"},
                )
                assert answer.status_code == 503, (path, answer.text)
                assert answer.json()["error"]["code"] == "table_moved"
                assert answer.json()["error"]["message"] == (
                    f"a(z) {table}. asztalt most egy másik szerverfolyamat szolgálja ki: "
                    "próbáld újra"
                )

            # an owner that is gone (nobody listens on its channel), its lease still valid for
            # 30 s: this process takes the table over at once and answers
            gone_owner = _worker()
            _set_lease(sessions, table, gone_owner, 30)
            _in_loop(client, app.state.manager.drop, table)
            answer = client.get(f"/api/tables/{table}/settings")
            assert answer.status_code == 200 and "modes" in answer.json()
            assert _lease(sessions, table) == (me, True) and table in app.state.manager.tables

            # the answer that says so, as the forwarding process passes it on (in Czech)
            monkeypatch.setattr(forwarding, "FORWARD_TIMEOUT", 0.5)
            _set_lease(sessions, table, ghost.me, 30)
            _in_loop(client, app.state.manager.drop, table)
            answer = client.get(
                f"/api/tables/{table}/settings?lang=cs", headers={"x-campfire-forwarded": "1"}
            )
            assert answer.status_code == 503
            assert answer.json() == {
                "error": {
                    "code": "table_moved",
                    "message": f"stůl {table} teď obsluhuje jiný serverový proces: zkuste to znovu",
                }
            }

            # an owner that listens but does not answer in time
            ghost.answer = lambda op: None
            _set_lease(sessions, table, ghost.me, 30)
            answer = client.post(f"/api/tables/{table}/join?lang=hu", json={"nickname": "Bo"})
            assert answer.status_code == 503 and answer.headers["retry-after"] == "10"
            assert answer.json()["error"] == {
                "code": "table_moved",
                "message": f"a(z) {table}. asztalt kiszolgáló szerverfolyamat nem válaszolt "
                "időben: próbáld újra kicsit később",
            }
            # a body over the lobby's limit is refused before it is sent anywhere
            asked = len(ghost.asked)
            answer = client.post(f"/api/tables/{table}/join", content=b" " * (65 * 1024))
            assert answer.status_code == 413 and answer.json()["error"]["code"] == "too_large"
            assert len(ghost.asked) == asked
    finally:
        for ghost in ghosts:
            ghost.close()


def test_a_read_waiting_on_a_stalled_owner_follows_the_table_when_its_lease_moves(
    pg_only: str, sessions: sessionmaker[Session]
) -> None:
    app = create_app(pg_only, redis_url=REDIS, lease_seconds=1.5)
    moved = threading.Event()
    ghost: Ghost | None = None
    try:
        with TestClient(app) as client:
            me = app.state.manager.cluster.me
            table = client.post("/api/tables", json={"game": GAME, "players": 2}).json()
            table = table["table"]["id"]

            def stall(op: dict[str, Any]) -> None:
                # it received the request and stalls; meanwhile the table moves back
                _set_lease(sessions, table, me, 30)
                moved.set()
                return None

            ghost = Ghost(stall)
            _set_lease(sessions, table, ghost.me, 30)
            _in_loop(client, app.state.manager.drop, table)
            answer = client.get(f"/api/tables/{table}")
            assert moved.is_set() and len(ghost.asked) == 1
            assert answer.status_code == 200 and answer.json()["table"]["id"] == table
            assert _lease(sessions, table) == (me, True)
    finally:
        if ghost is not None:
            ghost.close()


# ----- an owner that is gone ------------------------------------------------------------------


def test_a_gone_owner_s_table_is_taken_over_at_once_and_a_client_gets_its_snapshot(
    sessions: sessionmaker[Session],
) -> None:
    """An owner that no longer listens on its channel is gone, whatever its lease says.

    A client whose ``open`` reached nobody gets its snapshot all the same (the table is taken
    over and the connection opened here); a client the gone owner had served is closed with
    1012 once the table is served again, and its reconnect gets a snapshot at once.
    """

    async def go() -> None:
        manager = TableManager(sessions, bot_workers=1)
        cluster = Cluster(sessions, REDIS, 30, _worker())
        await cluster.start(manager, None)
        try:
            live, tokens = manager.create(
                {
                    "game": GAME,
                    "seats": [{"kind": "reserved", "nickname": f"P{i}"} for i in (0, 1)],
                }
            )
            manager.start(live, tokens[0], seed=5)
            # the table belongs to a process that died (no listener) with 30 s of lease left
            gone = _worker()
            _set_lease(sessions, live.id, gone, 30)
            manager.drop(live.id)
            conn = Connection(None)
            cluster.open_proxy(conn, live.id, gone, tokens[0], None)
            frame = json.loads(str(await asyncio.wait_for(conn.queue.get(), 10)))
            assert frame["type"] == "snapshot" and frame["seat"] == 0 and frame["seq"] == 0
            assert _lease(sessions, live.id) == (cluster.me, True)

            # a proxy the owner had answered: closed with 1012 once the table is served here
            other = _worker()
            _set_lease(sessions, live.id, other, 30)
            manager.drop(live.id)
            served = Connection(None)
            cluster.open_proxy(served, live.id, other, tokens[1], None)
            cluster.proxies[next(reversed(cluster.proxies))].answered = True
            await _until(lambda: served.close_code is not None, "the proxy was closed")
            assert served.close_code == protocol.CLOSE_MOVED
            assert live.id in manager.tables and _lease(sessions, live.id) == (cluster.me, True)
            back = Connection(None)
            assert await attach(manager, back, str(live.id), tokens[1], 0) is not None
            snapshot = _frames(back)[0]
            assert snapshot is not None and snapshot["type"] == "snapshot"
        finally:
            await cluster.close()
            await manager.close()

    asyncio.run(go())


def test_an_owner_whose_event_loop_is_busy_keeps_its_tables(
    sessions: sessionmaker[Session],
) -> None:
    """The leases are renewed in a thread of their own: an event loop held for longer than a
    lease (a long rebuild, a starved machine) does not let another process take the tables,
    which then bounced back and forth between processes under load."""
    import time

    async def go() -> None:
        manager = TableManager(sessions, bot_workers=1)
        cluster = Cluster(sessions, REDIS, 3, _worker())
        await cluster.start(manager, None)
        other = Cluster(sessions, REDIS, 3, _worker())
        try:
            live, tokens = manager.create(
                {"game": GAME, "seats": [{"kind": "reserved", "nickname": "A"}] * 2}
            )
            manager.start(live, tokens[0], seed=7)
            time.sleep(6)  # holds the event loop for two lease times
            with pytest.raises(cluster_module.Elsewhere):
                other.claim(live.id)
            assert _lease(sessions, live.id) == (cluster.me, True)
            assert not other.orphans()
        finally:
            await cluster.close()
            await manager.close()

    asyncio.run(go())
