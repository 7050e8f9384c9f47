"""Graceful restarts (issue 31, item 3; ``campfire.server.graceful``, ``.supervisor``).

- A rolling restart (SIGHUP to ``campfire serve --workers 2``'s supervisor) in the middle of
  10 running tables with clients playing (``benchmarks/restart.py`` runs 20): no action a
  client was acknowledged (a delta of its own step) is lost, every client closed with 1012 is
  back (reconnected, snapshot read), a process accepts throughout, and every game finishes.
  How soon the clients are back (the issue's bound: 5 s) is measured, not asserted:
  ``benchmarks/restart.py`` (benchmarks/README.md, "Rolling restarts"; the longest gap
  measured there is 0.28 s).
- SIGTERM to a single process: the action in flight is committed, its clients get 1012, and
  the process exits with status 0; a stop that hangs ends at ``--stop-timeout`` or at a second
  signal (status 1); SIGHUP to a single process only logs that it cannot restart without a gap.

Real processes, PostgreSQL and Redis (the rolling restart); waiting loops are bounded in count.
No duration is asserted (the project's tests assert no timing).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from campfire.core.records import replay_text

from .conftest import REDIS
from .helpers import check_frame, wait_for
from .live_server import LiveServer, free_port, http
from .test_cluster import _new_table, _workers
from .test_kill9 import _choice

TABLES = 10
#: before the restart is over, each table steps at most this often (seconds between steps)
PACE = 0.25
#: a table that gets this far before the restart is over waits for it (its game goes on after)
HOLD = 120


@dataclass
class Seat:
    """One seat's connection, with what it was acknowledged and how long it was away."""

    server: LiveServer
    table: int
    seat: int
    token: str
    ws: Any = None
    last: dict[str, Any] = field(default_factory=dict)
    #: (seq, notation) of each of its own actions whose delta it read
    acked: list[tuple[int, str]] = field(default_factory=list)
    #: seconds from each close (1012) to the snapshot of its reconnect
    gaps: list[float] = field(default_factory=list)
    #: when the current connection was closed (noted the moment it is, ``time.monotonic``)
    closed_at: float | None = None
    watchers: set[asyncio.Task[None]] = field(default_factory=set)

    async def connect(self) -> None:
        since = f"&since={self.last['seq']}" if self.last else ""
        self.ws = await websockets.connect(
            f"{self.server.ws}/ws/tables/{self.table}?token={self.token}{since}"
        )
        self.closed_at = None
        watcher = asyncio.get_running_loop().create_task(self._note_close(self.ws))
        self.watchers.add(watcher)
        watcher.add_done_callback(self.watchers.discard)
        frame = await self._recv()
        assert frame["type"] == "snapshot", frame
        self.last = frame

    async def _note_close(self, ws: Any) -> None:
        await ws.wait_closed()
        if ws is self.ws:
            self.closed_at = time.monotonic()

    async def _recv(self) -> dict[str, Any]:
        frame = check_frame(json.loads(await asyncio.wait_for(self.ws.recv(), 60)))
        assert frame["type"] in ("snapshot", "delta"), frame
        return frame

    async def send(self, message: dict[str, Any]) -> bool:
        """Send ``message``; ``False``: the connection was closed (and is open again now)."""
        try:
            await self.ws.send(json.dumps(message))
        except websockets.ConnectionClosed:
            await self.read()  # the close (1012), then the reconnect
            return False
        return True

    async def read(self) -> dict[str, Any]:
        """The next frame; after a close with 1012, the snapshot of a reconnect."""
        try:
            frame = await self._recv()
        except websockets.ConnectionClosed as closed:
            closed_at = min(self.closed_at or time.monotonic(), time.monotonic())
            assert closed.rcvd is not None and closed.rcvd.code == 1012, closed
            for _ in range(400):  # bounded: as the browser client, try again at once
                try:
                    await self.connect()
                    break
                except (OSError, websockets.InvalidStatus, websockets.ConnectionClosed):
                    await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"table {self.table} seat {self.seat} never came back")
            self.gaps.append(time.monotonic() - closed_at)
            return self.last
        self.last = frame
        return frame


async def _drive(seats: list[Seat], restarted: asyncio.Event) -> None:
    """Play the table to its end, slowly until the restart is over, then at full speed."""
    for _ in range(5000):
        top = max(s.last["seq"] for s in seats)
        for s in seats:  # both at the same step (one may have missed a delta: it reads on)
            while s.last["seq"] < top:
                await s.read()
        if seats[0].last["outcome"] is not None:
            return
        mover = next((s for s in seats if s.last["legal"]), None)
        assert mover is not None, seats[0].last
        seq, choice = mover.last["seq"], _choice(mover.last)
        if not await mover.send({"type": "action", "seq": seq, "action": choice}):
            continue  # closed by the restart: look where the table is again
        frame = await mover.read()
        if frame["type"] == "delta" and frame["seq"] == seq + 1:
            mover.acked.append((seq + 1, choice))
        elif frame["seq"] == seq:
            # closed by the restart before the action reached the table (its connection went
            # through a process that stopped): it was not played, nobody else gets a delta;
            # look where the table is again
            continue
        for s in seats:
            if s is not mover:
                await s.read()
        if not restarted.is_set():
            await _idle(seats, restarted, None if seq >= HOLD else PACE)
    raise AssertionError("the game did not end")


async def _idle(seats: list[Seat], until: asyncio.Event, seconds: float | None) -> None:
    """Wait until ``until`` is set or ``seconds`` are up; a seat closed meanwhile comes back
    at once (as a client that waits for its opponent reconnects the moment it is closed)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    while not until.is_set():
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return
        waits = [asyncio.ensure_future(until.wait())]
        waits += [asyncio.ensure_future(s.ws.wait_closed()) for s in seats]
        await asyncio.wait(waits, timeout=left, return_when=asyncio.FIRST_COMPLETED)
        for w in waits:
            w.cancel()
        for s in seats:
            if s.ws.close_code is not None or s.ws.state.name == "CLOSED":
                await s.read()  # the close (1012), then the reconnect


class Health(threading.Thread):
    """Asks ``/healthz`` over and over: every answer's status, and every failure."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.base = base
        self.answers: list[int] = []
        self.failures: list[str] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=30) as answer:
                    self.answers.append(answer.status)
            except urllib.error.HTTPError as exc:
                self.answers.append(exc.code)
            except OSError as exc:
                self.failures.append(repr(exc))
            time.sleep(0.05)


#: a bounded wait (1200 looks 0.1 s apart; no duration asserted)
_wait = functools.partial(wait_for, tries=1200, pause=0.1)


def test_a_rolling_restart_of_two_workers_loses_no_action_and_every_closed_client_comes_back(
    pg_only: str, tmp_path: Path
) -> None:
    server = LiveServer(pg_only, tmp_path, args=("--workers", "2", "--redis-url", REDIS))
    health = Health(server.base)
    try:
        _wait(lambda: len(_workers(server)) == 2, "two workers")
        old = _workers(server)
        tables = []
        for _ in range(TABLES):
            table, tokens = _new_table(server.base)
            assert http("POST", f"{server.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200
            tables.append((table, tokens))

        async def go() -> list[list[Seat]]:
            restarted = asyncio.Event()
            everyone = [
                [Seat(server, table, s, tokens[s]) for s in sorted(tokens)]
                for table, tokens in tables
            ]
            for seats in everyone:
                for s in seats:
                    await s.connect()
            games = [asyncio.create_task(_drive(seats, restarted)) for seats in everyone]
            for _ in range(600):  # bounded: every table has been played a little
                if all(sum(len(s.acked) for s in seats) >= 3 for seats in everyone):
                    break
                await asyncio.sleep(0.1)
            health.start()
            os.kill(server.proc.pid, signal.SIGHUP)  # the rolling restart
            for _ in range(1800):  # bounded: two new workers serve, the old ones are gone
                now = _workers(server)
                if len(now) == 2 and not now & old:
                    break
                await asyncio.sleep(0.1)
            health.done.set()
            running = sum(not g.done() for g in games)
            restarted.set()
            await asyncio.gather(*games)
            assert running == TABLES, f"only {running} tables were still playing at the restart"
            for seats in everyone:
                for s in seats:
                    await s.ws.close()
            return everyone

        everyone = asyncio.run(go())
        new = _workers(server)
        assert len(new) == 2 and not new & old, (old, new)
        records = {}
        for table, _ in tables:
            status, text = http("GET", f"{server.base}/api/tables/{table}/record")
            assert status == 200, text
            records[table] = text
    finally:
        health.done.set()
        server.stop()
    assert server.proc.returncode == 0

    # a process accepted throughout: every health check was answered
    assert health.failures == [], health.failures
    assert 200 in health.answers
    # 0 acknowledged actions lost: each is in the game's record at its step
    acked = 0
    for seats in everyone:
        rec, _ = replay_text(records[seats[0].table])
        for s in seats:
            for seq, notation in s.acked:
                assert rec.actions[seq - 1] == (s.seat, notation), (s.table, seq, notation)
                acked += 1
    assert acked > TABLES * 100
    # clients were closed by the restart, and every one came back with a snapshot (``read``
    # fails the test otherwise); how soon is measured, not asserted: benchmarks/restart.py
    # (issue 31's bound of 5 s: the longest gap measured there is 0.28 s)
    gaps = [gap for seats in everyone for s in seats for gap in s.gaps]
    assert gaps, "no client was closed by the rolling restart"


def test_sigterm_to_one_process_commits_the_action_in_flight_closes_1012_and_exits_0(
    db_url: str, tmp_path: Path
) -> None:
    server = LiveServer(db_url, tmp_path)
    try:
        table, tokens = _new_table(server.base)
        assert http("POST", f"{server.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200

        async def go() -> tuple[int, int]:
            seats = [Seat(server, table, s, tokens[s]) for s in sorted(tokens)]
            for s in seats:
                await s.connect()
            for _ in range(10):
                await _drive_one(seats)
            mover = next(s for s in seats if s.last["legal"])
            seq = mover.last["seq"]
            action = {"type": "action", "seq": seq, "action": _choice(mover.last)}
            await mover.ws.send(json.dumps(action))  # in flight as the signal comes
            server.proc.send_signal(signal.SIGTERM)
            codes = []
            for s in seats:
                try:
                    for _ in range(10):  # the delta (if sent before the close), then the close
                        await asyncio.wait_for(s.ws.recv(), 30)
                except websockets.ConnectionClosed as closed:
                    codes.append(closed.rcvd.code if closed.rcvd is not None else None)
            assert codes == [1012, 1012], codes
            return seq, await asyncio.to_thread(server.proc.wait, 60)

        seq, status = asyncio.run(go())
        assert status == 0, server.log.read_text()[-3000:]
    finally:
        server.stop()
    server = LiveServer(db_url, tmp_path)  # the same database: the action in flight is there
    try:
        status, text = http("GET", f"{server.base}/api/tables/{table}")
        assert status == 200, text
        assert json.loads(text)["table"]["seq"] == seq + 1, text
    finally:
        server.stop()


async def _drive_one(seats: list[Seat]) -> None:
    """One step: the mover acts, both read the delta."""
    mover = next(s for s in seats if s.last["legal"])
    seq, choice = mover.last["seq"], _choice(mover.last)
    await mover.ws.send(json.dumps({"type": "action", "seq": seq, "action": choice}))
    for s in seats:
        frame = await s.read()
        assert frame["type"] == "delta" and frame["seq"] == seq + 1, frame


#: A server whose application's shutdown hangs (blocking the event loop), for the bounds
HANGING = """
import sys, time, contextlib
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from campfire.server.graceful_server import GracefulServer

@contextlib.asynccontextmanager
async def lifespan(app):
    yield
    print("hanging", flush=True)
    time.sleep(600)  # a shutdown that never ends (the event loop blocked)

async def ok(request):
    return PlainTextResponse("ok")

app = Starlette(routes=[Route("/", ok)], lifespan=lifespan)
config = uvicorn.Config(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
GracefulServer(config, stop_timeout=float(sys.argv[2])).run()
"""


def _hanging(tmp_path: Path, stop_timeout: float) -> tuple[subprocess.Popen[bytes], Path]:
    port = free_port()
    log = tmp_path / f"hanging-{port}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", HANGING, str(port), str(stop_timeout)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    _wait(lambda: _answers(f"http://127.0.0.1:{port}/"), "the server", tries=600)
    return proc, log


def _answers(url: str) -> bool:
    try:
        return http("GET", url)[0] == 200
    except OSError:
        return False


def test_a_stop_that_hangs_ends_at_the_bound_and_a_second_signal_ends_it_at_once(
    tmp_path: Path,
) -> None:
    # the bound (--stop-timeout 1): the process exits with status 1 (forced)
    proc, log = _hanging(tmp_path, 1)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=120) == 1, log.read_text()
    assert "took longer than 1 s" in log.read_text()
    # a bound far away (600 s): a second SIGTERM ends the hanging stop at once
    proc, log = _hanging(tmp_path, 600)
    proc.send_signal(signal.SIGTERM)
    _wait(lambda: "hanging" in log.read_text(), "the stop to hang", tries=600)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=120) == 1, log.read_text()
    assert "again: exiting now" in log.read_text()


def test_sighup_to_one_process_only_logs_that_it_cannot_restart_without_a_gap(
    tmp_path: Path,
) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'campfire.db'}", tmp_path)
    try:
        server.proc.send_signal(signal.SIGHUP)
        _wait(lambda: "SIGHUP (reload)" in server.log.read_text(), "the warning", tries=600)
        assert server.proc.poll() is None
        assert http("GET", f"{server.base}/healthz")[0] == 200
    finally:
        server.stop()
    assert server.proc.returncode == 0


#: On the server's PYTHONPATH: each worker a rolling restart starts (a fresh interpreter,
#: CAMPFIRE_SERVE_WORKER set) reads "the installed code's version" from a file at its start
#: and notes it; "broken" is an upgrade whose workers cannot start.
SITECUSTOMIZE = """
import os
here = os.path.dirname(os.path.abspath(__file__))
if os.environ.get("CAMPFIRE_SERVE_WORKER"):
    with open(os.path.join(here, "version")) as f:
        version = f.read().strip()
    if version == "broken":
        os._exit(3)
    with open(os.path.join(here, f"worker-{os.getpid()}"), "w") as f:
        f.write(version)
"""


def test_a_rolling_restart_runs_the_code_installed_now_and_a_broken_one_changes_nothing(
    pg_only: str, tmp_path: Path, monkeypatch: Any
) -> None:
    code = tmp_path / "code"
    code.mkdir()
    (code / "sitecustomize.py").write_text(SITECUSTOMIZE)
    (code / "version").write_text("v1")
    paths = [str(code), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    server = LiveServer(pg_only, tmp_path, args=("--workers", "2", "--redis-url", REDIS))
    try:
        _wait(lambda: len(_workers(server)) == 2, "two workers")
        old = _workers(server)
        # a broken upgrade: its first new worker exits at start; the old ones go on serving
        (code / "version").write_text("broken")
        os.kill(server.proc.pid, signal.SIGHUP)
        _wait(lambda: "rolling restart abandoned" in server.log.read_text(), "the abandonment")
        _wait(lambda: len(_workers(server)) == 2, "the old workers alone")
        assert _workers(server) == old
        assert http("GET", f"{server.base}/healthz")[0] == 200
        # the upgrade mended: every new worker runs it
        (code / "version").write_text("v2")
        os.kill(server.proc.pid, signal.SIGHUP)
        _wait(lambda: "rolling restart done" in server.log.read_text(), "the rolling restart")
        new = _workers(server)
        assert len(new) == 2 and not new & old, (old, new)
        assert {(code / f"worker-{pid}").read_text() for pid in new} == {"v2"}
        table, tokens = _new_table(server.base)
        assert http("POST", f"{server.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200
    finally:
        server.stop()
    assert server.proc.returncode == 0
