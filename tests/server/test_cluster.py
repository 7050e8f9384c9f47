"""Several server processes on one PostgreSQL database and one Redis (``campfire.server.cluster``).

Real ``campfire serve`` processes (``--redis-url``: each joins the others), real WebSocket
clients. A table is owned by one process; a client may connect to any, and a lobby request
may go to any. A process killed with SIGKILL loses nothing: another takes its tables over
once their leases expire, the clients reconnect, and the record equals an uninterrupted game.
Display patches through the relay are checked with two cluster members in one process (fast).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import websockets

from campfire.core.records import replay_text
from campfire.server.tables import Connection

from .conftest import REDIS
from .helpers import check_frame
from .live_server import LiveServer, http
from .test_kill9 import GAME, PLAYERS, Client, _choice, _uninterrupted

#: short leases: a stalled process's tables are taken over within about three seconds
ARGS = ("--redis-url", REDIS, "--lease-seconds", "2")
#: long leases: a killed process is noticed by its closed Redis connection, not by its leases
LONG = ("--redis-url", REDIS, "--lease-seconds", "120")


def _new_table(base: str) -> tuple[int, dict[int, str]]:
    seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(PLAYERS)]
    status, text = http("POST", f"{base}/api/tables", {"game": GAME, "seats": seats})
    assert status == 201, text
    created = json.loads(text)
    return created["table"]["id"], {int(k): v for k, v in created["tokens"].items()}


class Player(Client):
    """A client that does what a real one does when closed with 1012 (the table moved): it
    connects again, to the same process, with ``since=`` its last sequence number."""

    def __init__(self, ws: Any, seat: int, server: LiveServer, table: int, query: str) -> None:
        super().__init__(ws, seat)
        self.server = server
        self.table = table
        self.query = query
        #: how many times it was closed with 1012 and came back
        self.resumed = 0

    async def resume(self) -> None:
        """Connect again with ``since=`` the last sequence number seen; read the snapshot."""
        with contextlib.suppress(Exception):
            await self.ws.close()
        again = await _open(
            self.server, self.table, self.seat, f"{self.query}&since={self.last['seq']}"
        )
        self.ws, self.last = again.ws, again.last
        self.resumed += 1

    async def reach(self, seq: int) -> bool:
        """Read the deltas up to ``seq``, each in turn, coming back after a 1012.

        ``False``: it came back to a table that has not got there (the step was lost with the
        move, and is to be played again).
        """
        while self.last["seq"] < seq:
            before = self.last["seq"]
            try:
                frame = await self.read()
            except websockets.ConnectionClosed as closed:
                if closed.rcvd is None or closed.rcvd.code != 1012:
                    raise
                await self.resume()
                if self.last["seq"] < seq:
                    return False
                continue
            assert frame["type"] == "delta" and frame["seq"] == before + 1, frame
        return True


async def _open(server: LiveServer, table: int, seat: int, query: str) -> Player:
    """A connection that has read its snapshot; retried while the table changes process."""
    for _ in range(40):  # bounded: a takeover takes a few lease checks
        ws = await websockets.connect(f"{server.ws}/ws/tables/{table}?{query}")
        client = Player(ws, seat, server, table, query)
        try:
            frame = await client.read()
        except (websockets.ConnectionClosed, TimeoutError):
            await ws.close()
            await asyncio.sleep(0.5)
            continue
        assert frame["type"] == "snapshot", frame
        return client
    raise AssertionError("no snapshot: the table was never served again")


async def _play(movers: list[Player], readers: list[Player]) -> int:
    """Play to the end; every reader reads every delta (or comes back after a 1012 with
    ``since=``, as a real client does). The number of steps."""
    steps = 0
    while movers[0].last["outcome"] is None and steps < 5000:
        await _play_one(movers, readers)
        steps += 1
    return steps


def test_clients_on_two_processes_play_a_game_at_one_table(pg_only: str, tmp_path: Path) -> None:
    a = LiveServer(pg_only, tmp_path, args=ARGS)
    b = LiveServer(pg_only, tmp_path, args=ARGS)
    try:
        table, tokens = _new_table(a.base)  # a owns it
        # the lobby works on the other process: it asks the owner
        status, text = http("POST", f"{b.base}/api/tables/{table}/start", {}, tokens[0])
        assert status == 200, text
        assert http("GET", f"{b.base}/api/tables/{table}")[0] == 200

        async def go() -> dict[str, list[dict[str, Any]]]:
            seat0 = await _open(a, table, 0, f"token={tokens[0]}")  # at the owner
            seat1 = await _open(b, table, 1, f"token={tokens[1]}")  # through the other
            seat1_at_owner = await _open(a, table, 1, f"token={tokens[1]}")
            watcher_b = await _open(b, table, -1, "")
            watcher_a = await _open(a, table, -1, "")
            clients = [seat0, seat1, seat1_at_owner, watcher_b, watcher_a]
            frames: dict[str, list[dict[str, Any]]] = {
                "seat1": [seat1.last],
                "seat1_at_owner": [seat1_at_owner.last],
                "watcher_b": [watcher_b.last],
                "watcher_a": [watcher_a.last],
            }
            real_read = Client.read

            async def keep(client: Client) -> dict[str, Any]:
                frame = await real_read(client)
                for name, c in (
                    ("seat1", seat1),
                    ("seat1_at_owner", seat1_at_owner),
                    ("watcher_b", watcher_b),
                    ("watcher_a", watcher_a),
                ):
                    if c is client:
                        frames[name].append(frame)
                return frame

            for c in clients:
                c.read = lambda c=c: keep(c)  # type: ignore[method-assign,misc]
            assert await _play([seat0, seat1], clients) > 10
            for c in clients:
                await c.ws.close()
            return frames

        frames = asyncio.run(go())
        # a proxied connection gets exactly the frames the owner sends its own connections:
        # the seat's own view and events, never another seat's (tests/server/test_hidden.py)
        assert frames["seat1"] == frames["seat1_at_owner"]
        assert frames["watcher_b"] == frames["watcher_a"]
        assert all(f.get("seat") in (1, None) for f in frames["seat1"])
        status, record = http("GET", f"{b.base}/api/tables/{table}/record")
        assert status == 200, record
        assert http("GET", f"{a.base}/api/tables/{table}/record") == (200, record)
        listed = json.loads(http("GET", f"{b.base}/api/tables?status=finished")[1])["tables"]
        assert [t["id"] for t in listed] == [table]

        # refusals come back through the other process as the owner words them
        async def refused() -> tuple[dict[str, Any], int | None]:
            ws = await websockets.connect(f"{b.ws}/ws/tables/{table}?token=forged")
            frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 30)
            return frame, closed.value.rcvd.code if closed.value.rcvd else None

        frame, code = asyncio.run(refused())
        assert frame["type"] == "error" and frame["code"] == "bad_token" and code == 4401
        # joining a seat of a table the other process owns
        status, text = http("POST", f"{a.base}/api/tables", {"game": GAME, "players": 2})
        other = json.loads(text)["table"]["id"]
        status, text = http("POST", f"{b.base}/api/tables/{other}/join", {"nickname": "Bea"})
        assert status == 201, text
        seat = json.loads(text)["seat"]
        shown = json.loads(http("GET", f"{a.base}/api/tables/{other}")[1])
        assert shown["table"]["seats"][seat]["nickname"] == "Bea"
    finally:
        a.stop()
        b.stop()


def test_a_killed_process_s_tables_are_taken_over_and_the_game_replays_exactly(
    pg_only: str, tmp_path: Path
) -> None:
    a = LiveServer(pg_only, tmp_path, args=ARGS)
    b = LiveServer(pg_only, tmp_path, args=ARGS)
    try:
        table, tokens = _new_table(a.base)  # a owns it
        assert http("POST", f"{a.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200

        async def first_half() -> dict[int, int]:
            seat0 = await _open(a, table, 0, f"token={tokens[0]}")
            seat1 = await _open(b, table, 1, f"token={tokens[1]}")
            for _ in range(20):
                await _play_one([seat0, seat1], [seat0, seat1])
            a.kill()  # mid-game, without warning
            # the client of the other process is told to reconnect once the table has moved
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(100):
                    await asyncio.wait_for(seat1.ws.recv(), 30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            return {0: seat0.last["seq"], 1: seat1.last["seq"]}

        seen = asyncio.run(first_half())

        async def second_half() -> list[dict[str, Any]]:
            clients = [
                await _open(b, table, s, f"token={tokens[s]}&since={seen[s]}") for s in (0, 1)
            ]
            snapshots = [c.last for c in clients]
            await _play(clients, clients)
            for c in clients:
                await c.ws.close()
            return snapshots

        snapshots = asyncio.run(second_half())
        status, record = http("GET", f"{b.base}/api/tables/{table}/record")
        assert status == 200, record
    finally:
        a.stop()
        b.stop()
    for snap in snapshots:
        assert snap["seq"] == 20 and snap["missed"] == []  # nothing acknowledged was lost
    _check_record(record)


async def _snapshot_at_once(server: LiveServer, table: int, query: str) -> dict[str, Any]:
    """Connect once: the first frame is the snapshot (no retry, no silence)."""
    async with websockets.connect(f"{server.ws}/ws/tables/{table}?{query}") as ws:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
    return frame


def test_a_killed_owner_s_table_is_served_again_at_once_whatever_its_lease(
    pg_only: str, tmp_path: Path
) -> None:
    """Leases of two minutes: the owner's death is noticed by its Redis connection closing.

    The client proxied through the survivor is closed with 1012 (not left hanging until the
    lease expires), and a reconnect, to the survivor, gets its snapshot on the first try.
    """
    a = LiveServer(pg_only, tmp_path, args=LONG)
    b = LiveServer(pg_only, tmp_path, args=LONG)
    try:
        table, tokens = _new_table(a.base)  # a owns it
        assert http("POST", f"{a.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200

        async def go() -> list[dict[str, Any]]:
            seat0 = await _open(a, table, 0, f"token={tokens[0]}")  # at the owner
            seat1 = await _open(b, table, 1, f"token={tokens[1]}")  # through b
            for _ in range(10):
                await _play_one([seat0, seat1], [seat0, seat1])
            a.kill()
            code, frames = await _closed_with(seat1)
            assert code == 1012 and frames == []
            snapshots = [
                await _snapshot_at_once(b, table, f"token={tokens[s]}&since=10") for s in (0, 1)
            ]
            clients = [await _open(b, table, s, f"token={tokens[s]}&since=10") for s in (0, 1)]
            await _play(clients, clients)
            for c in clients:
                await c.ws.close()
            return snapshots

        snapshots = asyncio.run(go())
        status, record = http("GET", f"{b.base}/api/tables/{table}/record")
        assert status == 200, record
    finally:
        a.stop()
        b.stop()
    for seat, snap in enumerate(snapshots):
        assert snap["type"] == "snapshot" and snap["seat"] == seat, snap
        assert snap["seq"] == 10 and snap["missed"] == []  # nothing acknowledged was lost
    _check_record(record)


def test_serve_workers_2_plays_a_game(pg_only: str, tmp_path: Path) -> None:
    server = LiveServer(pg_only, tmp_path, args=("--workers", "2", "--redis-url", REDIS))
    try:
        table, tokens = _new_table(server.base)
        assert http("POST", f"{server.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200

        async def go() -> None:
            clients = [await _open(server, table, s, f"token={tokens[s]}") for s in (0, 1)]
            await _play(clients, clients)
            for c in clients:
                await c.ws.close()

        asyncio.run(go())
        assert http("GET", f"{server.base}/api/tables/{table}/record")[0] == 200
    finally:
        server.stop()


def _workers(server: LiveServer) -> set[int]:
    """The worker processes of ``campfire serve --workers N`` (its children)."""
    pid = server.proc.pid
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return {int(p) for p in found}


def test_serve_workers_replaces_workers_that_die_even_all_of_them(
    pg_only: str, tmp_path: Path
) -> None:
    """Both workers killed one after the other: the supervisor starts two new ones, each the
    moment its predecessor exits; the table is served again, and a clean stop ends them all."""
    server = LiveServer(pg_only, tmp_path, args=("--workers", "2", "--redis-url", REDIS))
    try:
        for _ in range(200):  # bounded: both workers are up
            first = _workers(server)
            if len(first) == 2:
                break
            time.sleep(0.05)
        assert len(first) == 2, first
        table, tokens = _new_table(server.base)
        assert http("POST", f"{server.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200
        for pid in sorted(first):
            os.kill(pid, signal.SIGKILL)
        for _ in range(600):  # bounded: two new workers
            now = _workers(server)
            if len(now) == 2 and not now & first:
                break
            time.sleep(0.05)
        assert len(now) == 2 and not now & first, (first, now)

        async def go() -> None:
            clients = [await _open(server, table, s, f"token={tokens[s]}") for s in (0, 1)]
            assert await _play(clients, clients) > 10
            for c in clients:
                await c.ws.close()

        asyncio.run(go())
    finally:
        workers = _workers(server) if server.proc.poll() is None else set()
        server.stop()
    assert server.proc.returncode == 0
    for pid in workers:  # none left behind
        assert (
            not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
        )


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "campfire.cli", "serve", "--port", "0", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_several_processes_refuse_sqlite_and_an_unreachable_redis(tmp_path: Path) -> None:
    from campfire.core import OptionError
    from campfire.server.app import create_app
    from campfire.server.cluster import check_redis

    done = _serve("--workers", "2", "--database-url", f"sqlite:///{tmp_path / 'x.db'}")
    assert done.returncode != 0
    assert "needs PostgreSQL" in done.stderr and "SQLite" in done.stderr
    with pytest.raises(OptionError, match="need PostgreSQL"):
        create_app(f"sqlite:///{tmp_path / 'y.db'}", redis_url=REDIS)
    with pytest.raises(OptionError, match="cannot reach Redis at"):
        check_redis("redis://127.0.0.1:1/0")


def test_leases_one_owner_at_a_time_taken_over_once_expired(pg_only: str) -> None:
    from sqlalchemy import text

    from campfire.server.cluster import Cluster, Elsewhere
    from campfire.server.db import make_engine, migrate, session_factory
    from campfire.server.tables import SeatInfo, Store

    engine = make_engine(pg_only)
    migrate(engine, shared=True)
    sessions = session_factory(engine)
    store = Store(sessions)
    running, waiting = (store.create(GAME, {}, 2, [SeatInfo(0), SeatInfo(1)]) for _ in range(2))
    store.start(running, 1, 5)
    # leases long enough not to run out on a loaded machine while the test reads them; their
    # running out is made to happen (the database's clock passes them), not waited for
    a = Cluster(sessions, REDIS, lease_seconds=60, worker="a")
    b = Cluster(sessions, REDIS, lease_seconds=60, worker="b")
    assert a.orphans() == [running]  # nobody holds the running table yet
    assert a.claim(running) and a.claim(waiting)
    assert a.claim(running)  # the owner renews
    assert a.claim(999_999) is False  # no such table
    with pytest.raises(Elsewhere) as held:
        b.claim(running)
    assert held.value.owner == "a" and held.value.status == 503
    assert a.orphans() == [] and a.owners([running, waiting]) == {running: "a", waiting: "a"}
    assert a.renew() == {running, waiting}
    with sessions.begin() as session:  # a stops renewing (as if killed): its leases expire
        session.execute(text("UPDATE table_leases SET expires = now() - interval '1 second'"))
    assert b.orphans() == [running] and b.owners([running]) == {}
    assert b.claim(running)
    assert a.renew() == {waiting}  # a learns that it lost the table
    with pytest.raises(Elsewhere):
        a.claim(running)
    b.release()
    assert a.orphans() == [running]
    engine.dispose()


def _lease_owner(url: str, table: int) -> str | None:
    """The process holding ``table``'s lease (expired or not) as the database has it."""
    from sqlalchemy import text

    from campfire.server.db import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            owner = conn.execute(
                text("SELECT owner FROM table_leases WHERE table_id = :t"), {"t": table}
            ).scalar()
    finally:
        engine.dispose()
    return None if owner is None else str(owner)


async def _closed_with(client: Client) -> tuple[int | None, list[dict[str, Any]]]:
    """Read until the server closes the connection: its close code and the frames before."""
    frames = []
    with pytest.raises(websockets.ConnectionClosed) as closed:
        for _ in range(1000):
            frames.append(json.loads(await asyncio.wait_for(client.ws.recv(), 30)))
    return (closed.value.rcvd.code if closed.value.rcvd else None), frames


def _check_record(record: str) -> None:
    """The record is the uninterrupted game of its seed and the tests' choices."""
    rec, match = replay_text(record)
    assert rec.seed is not None
    expected = _uninterrupted(rec.seed)
    assert rec.actions == [(s, str(a)) for s, a in expected.actions]
    assert match.state.outcome() == expected.state.outcome()


def test_the_clients_of_a_proxying_process_that_dies_resume_elsewhere_and_lose_nothing(
    pg_only: str, tmp_path: Path
) -> None:
    a = LiveServer(pg_only, tmp_path, args=ARGS)
    b = LiveServer(pg_only, tmp_path, args=ARGS)
    try:
        table, tokens = _new_table(a.base)  # a owns it; b only relays
        assert http("POST", f"{a.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200

        async def go() -> list[tuple[dict[str, Any], int]]:
            seat0 = await _open(a, table, 0, f"token={tokens[0]}")
            seat1 = await _open(b, table, 1, f"token={tokens[1]}")  # through b
            watcher = await _open(b, table, -1, "")  # through b
            for _ in range(40):  # at least 10 steps, up to seat 0's turn
                if seat0.last["seq"] >= 10 and seat0.last["legal"]:
                    break
                await _play_one([seat0, seat1], [seat0, seat1, watcher])
            b.kill()  # the relay dies; the owner lives
            seen = {"seat1": seat1.last["seq"], "watcher": watcher.last["seq"]}
            # seat 0 plays on while it is its turn; seat 1 and the watcher see nothing of it
            while seat0.last["legal"] and seat0.last["seq"] < seen["seat1"] + 3:
                await _play_one([seat0], [seat0])
            assert seat0.last["seq"] > seen["seat1"]
            # they reconnect (to the owner) from the last sequence number they saw
            seat1 = await _open(a, table, 1, f"token={tokens[1]}&since={seen['seat1']}")
            watcher = await _open(a, table, -1, f"since={seen['watcher']}")
            snapshots = [(seat1.last, seen["seat1"]), (watcher.last, seen["watcher"])]
            await _play([seat0, seat1], [seat0, seat1, watcher])
            for c in (seat0, seat1, watcher):
                await c.ws.close()
            return snapshots

        snapshots = asyncio.run(go())
        status, record = http("GET", f"{a.base}/api/tables/{table}/record")
        assert status == 200, record
    finally:
        a.stop()
        b.stop()
    for snap, since in snapshots:  # every step the relay never passed on is in the snapshot
        assert snap["seq"] > since >= 10
        assert [m["seq"] for m in snap["missed"]] == list(range(since + 1, snap["seq"] + 1))
    _check_record(record)


async def _play_one(movers: list[Player], readers: list[Player]) -> None:
    """The mover among ``movers`` plays its choice; every reader reads the delta.

    A client closed with 1012 comes back with ``since=`` (:meth:`Player.reach`); a step lost
    with a move is played again.
    """
    for _ in range(20):  # bounded: each try follows a move of the table
        mover = next(c for c in movers if c.last["legal"])
        seq = mover.last["seq"]
        action = {"type": "action", "seq": seq, "action": _choice(mover.last)}
        try:
            await mover.ws.send(json.dumps(action))
        except websockets.ConnectionClosed:
            await mover.resume()
            continue
        if not await mover.reach(seq + 1):
            continue
        for c in readers:
            assert await c.reach(seq + 1), "the mover saw the step: it was stored"
        return
    raise AssertionError("the step was never played")


def test_an_owner_that_stalls_past_its_lease_stops_and_the_game_goes_on_at_the_new_owner(
    pg_only: str, tmp_path: Path
) -> None:
    a = LiveServer(pg_only, tmp_path, args=ARGS)
    b = LiveServer(pg_only, tmp_path, args=ARGS)
    try:
        table, tokens = _new_table(a.base)  # a owns it
        assert http("POST", f"{a.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200
        stalled_owner = _lease_owner(pg_only, table)

        async def first_half() -> tuple[int, list[dict[str, Any]], tuple[int, str]]:
            seat0 = await _open(a, table, 0, f"token={tokens[0]}")  # at the owner
            seat1 = await _open(b, table, 1, f"token={tokens[1]}")  # through b
            for _ in range(10):
                await _play_one([seat0, seat1], [seat0, seat1])
            a.proc.send_signal(signal.SIGSTOP)  # a stalls: it renews nothing any more
            try:
                # a lobby read at b waits for the stalled owner, then follows the table to b
                read = asyncio.create_task(
                    asyncio.to_thread(http, "GET", f"{b.base}/api/tables/{table}/settings")
                )
                # b takes the table over once a's lease has run out, and tells its client
                code, _ = await _closed_with(seat1)
                assert code == 1012
                settings = await read
                for _ in range(200):  # bounded
                    if _lease_owner(pg_only, table) != stalled_owner:
                        break
                    await asyncio.sleep(0.05)
            finally:
                a.proc.send_signal(signal.SIGCONT)
            # a wakes up: it may still try to play seat 0's move, but it writes nothing more
            # for the table; it drops it and closes its client, which reconnects
            if seat0.last["legal"]:
                await seat0.ws.send(
                    json.dumps({"type": "action", "seq": 10, "action": _choice(seat0.last)})
                )
            code, frames = await _closed_with(seat0)
            assert code == 1012
            return code, frames, settings

        _, frames, settings = asyncio.run(first_half())
        assert all(f["type"] != "delta" for f in frames), frames  # nothing more from a
        assert settings[0] == 200 and "modes" in json.loads(settings[1]), settings
        assert _lease_owner(pg_only, table) not in (None, stalled_owner)

        async def second_half() -> list[dict[str, Any]]:
            clients = [  # back with their sequence numbers, at either process
                await _open(a, table, 0, f"token={tokens[0]}&since=10"),
                await _open(b, table, 1, f"token={tokens[1]}&since=10"),
            ]
            snapshots = [c.last for c in clients]
            await _play(clients, clients)
            for c in clients:
                await c.ws.close()
            return snapshots

        snapshots = asyncio.run(second_half())
        status, record = http("GET", f"{a.base}/api/tables/{table}/record")
        assert status == 200, record
    finally:
        for server in (a, b):
            if server.proc.poll() is None:
                server.proc.send_signal(signal.SIGCONT)
        a.stop()
        b.stop()
    for snap in snapshots:  # nothing the old owner acknowledged was lost, nothing was doubled
        assert snap["seq"] == 10 and snap["missed"] == []
    _check_record(record)


# ----- display patches through the relay -------------------------------------------------------


async def _relayed(conn: Connection) -> dict[str, Any]:
    """The next frame the owner sent ``conn`` (a connection of the relaying process)."""
    text = await asyncio.wait_for(conn.queue.get(), 10)
    assert isinstance(text, str), text  # frames come from the owner as it encoded them
    frame: dict[str, Any] = check_frame(json.loads(text))
    return frame


def test_a_client_of_patches_served_through_another_process_rebuilds_every_model(
    pg_only: str,
) -> None:
    """Two cluster members in one process (fast): the owner serves the relay's clients.

    For each seat and the spectator, a client of patches and one of whole models (in the same
    language) connect through the relay; after every step, the model the first rebuilds from
    its patches is the one the second gets whole (and so is the rest of the frame).
    """
    import secrets

    from campfire.server.cluster import Cluster
    from campfire.server.db import make_engine, migrate, session_factory
    from campfire.server.patches import apply_patch
    from campfire.server.tables import TableManager

    engine = make_engine(pg_only)
    migrate(engine, shared=True)
    sessions = session_factory(engine)

    async def go() -> tuple[int, int, int]:
        at_owner, at_relay = TableManager(sessions, bot_workers=1), TableManager(sessions)
        owner = Cluster(sessions, REDIS, 30, f"owner-{secrets.token_hex(3)}")
        relay = Cluster(sessions, REDIS, 30, f"relay-{secrets.token_hex(3)}")
        await owner.start(at_owner, None)
        await relay.start(at_relay, None)
        try:
            live, tokens = at_owner.create(
                {
                    "game": GAME,
                    "seats": [{"kind": "reserved", "nickname": f"P{i}"} for i in range(PLAYERS)],
                }
            )
            at_owner.start(live, tokens[0], seed=12)
            readers: list[int | None] = [*range(PLAYERS), None]
            languages = {0: "en", 1: "hu", None: "cs"}
            pairs: dict[int | None, tuple[Connection, Connection]] = {}
            ids: dict[int | None, str] = {}
            held: dict[int | None, dict[str, Any]] = {}  # the frames rebuilt from patches
            for seat in readers:
                token = None if seat is None else tokens[seat]
                patched = Connection(None, language=languages[seat], patches=True)
                plain = Connection(None, language=languages[seat])
                ids[seat] = relay.open_proxy(patched, live.id, owner.me, token, None)
                relay.open_proxy(plain, live.id, owner.me, token, None)
                pairs[seat] = (patched, plain)
                snapshot, expected = await _relayed(patched), await _relayed(plain)
                assert snapshot["type"] == "snapshot" and snapshot["display"] is not None
                assert snapshot == expected
                held[seat] = snapshot
            sent = whole = steps = 0

            async def read_step(seq: int) -> None:
                nonlocal sent, whole
                for seat, (patched, plain) in pairs.items():
                    delta, expected = await _relayed(patched), await _relayed(plain)
                    assert delta["type"] == expected["type"] == "delta"
                    assert delta["seq"] == seq and "display" not in delta
                    assert "patch" not in expected  # a client that did not ask: as before
                    # the first delta too starts from the model of the snapshot, not from none
                    assert all(path for path, _ in delta["patch"]), delta["patch"]
                    model = apply_patch(held[seat]["display"], delta["patch"])
                    rebuilt = {k: v for k, v in delta.items() if k != "patch"}
                    held[seat] = {**rebuilt, "display": model}
                    assert held[seat] == expected, (seat, seq)
                    sent += len(json.dumps(delta["patch"]))
                    whole += len(json.dumps(expected["display"]))

            while held[0]["outcome"] is None and steps < 30:
                mover = next(s for s in range(PLAYERS) if held[s]["legal"])
                seq = held[mover]["seq"]
                action = {"type": "action", "seq": seq, "action": _choice(held[mover])}
                relay.forward(ids[mover], json.dumps(action))
                await read_step(seq + 1)
                steps += 1
                if steps == 10:  # sync: a whole model again, and the patches go on from it
                    relay.forward(ids[None], json.dumps({"type": "sync"}))
                    again = await _relayed(pairs[None][0])
                    assert again["type"] == "snapshot" and again["display"] is not None
                    assert again["display"] == held[None]["display"]
                    held[None] = again
            return steps, sent, whole
        finally:
            await relay.close()
            await owner.close()
            await at_relay.close()
            await at_owner.close()

    try:
        steps, sent, whole = asyncio.run(go())
    finally:
        engine.dispose()
    assert steps > 10
    assert sent * 3 < whole  # the relay keeps the saving: patches, not whole models


async def _presence_frame(ws: Any, seat: int, connected: bool) -> dict[str, Any]:
    """The first ``presence`` frame on ``ws`` that shows ``seat`` connected (or not); the
    frames before it are validated and passed over (bounded: it fails, never hangs)."""
    for _ in range(50):
        frame = check_frame(json.loads(await asyncio.wait_for(ws.recv(), 30)))
        if frame["type"] == "presence" and frame["seats"][seat]["connected"] is connected:
            return frame
    raise AssertionError(f"no presence frame with seat {seat} connected={connected}")


def test_presence_is_measured_for_connections_through_another_process(
    pg_only: str, tmp_path: Path
) -> None:
    a = LiveServer(pg_only, tmp_path, args=ARGS)
    b = LiveServer(pg_only, tmp_path, args=ARGS)
    try:
        table, tokens = _new_table(a.base)  # a owns it; not started: the waiting room

        async def go() -> None:
            query = "presence=1&token="
            ann = await websockets.connect(f"{a.ws}/ws/tables/{table}?{query}{tokens[0]}")
            snap = check_frame(json.loads(await asyncio.wait_for(ann.recv(), 30)))
            assert snap["type"] == "snapshot"
            assert snap["seats"][1]["presence"] == {"connected": False, "away_ms": None}
            # Bob comes through the other process: the owner counts him as here, and both
            # hear of it (his presence frames are relayed by the process he is connected to)
            bob = await websockets.connect(f"{b.ws}/ws/tables/{table}?{query}{tokens[1]}")
            came = await _presence_frame(ann, 1, True)
            assert came["seats"][0]["connected"] is True
            bob_sees = await _presence_frame(bob, 1, True)
            assert bob_sees["seats"][0]["connected"] is True
            # a spectator at the other process sees no presence frames unasked, but its
            # snapshot shows both here
            watcher = await websockets.connect(f"{b.ws}/ws/tables/{table}")
            seen = check_frame(json.loads(await asyncio.wait_for(watcher.recv(), 30)))
            assert [s["presence"]["connected"] for s in seen["seats"][:2]] == [True, True]
            await watcher.close()
            # Bob closes his tab: the owner sees him go, as it would at its own connection
            await bob.close()
            gone = await _presence_frame(ann, 1, False)
            assert isinstance(gone["seats"][1]["away_ms"], int)
            await ann.close()

        asyncio.run(go())
    finally:
        a.stop()
        b.stop()
