"""Rolling restarts of ``campfire serve --workers 2``: how long one takes, how long clients wait.

One real ``campfire serve --workers 2 --redis-url ...`` (a subprocess on a free port of
127.0.0.1) on a fresh PostgreSQL schema and Redis. ``--tables`` tables are created and
started, two clients each (one per seat), playing one step every ``--pace`` seconds. Then, for
each of ``--restarts`` rounds, SIGHUP goes to the supervisor (the rolling restart,
``docs/deploy.md``, "Graceful restarts and upgrades") and:

- the restart's time is from the signal until both old workers are gone and two new ones
  serve (the supervisor's children, looked at every 0.02 s);
- each client closed with 1012 reconnects at once with ``since=`` (and every 0.05 s until it
  gets in); its gap is from the close to the snapshot it reads.

A round ends 2 s after its restart (the games go on meanwhile). A game that ends is replaced by
a new table. At the end every action a client was acknowledged (the delta of its own step) is
looked up in the game's log (``/api/tables/<id>/record`` or, for a game still running, the
snapshot's ``seq``): none may be missing. The figures: per round the restart's time, the
clients closed, the longest gap; median and worst over the rounds. The schema and the
server's log are removed at the end.

    .venv/bin/python benchmarks/restart.py --restarts 5
    .venv/bin/python benchmarks/restart.py --restarts 5 --tables 20 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from failover import PG, REDIS, Server, _children, _http

GAME = "tracker"


class Seat:
    """One client: its connection, the actions it was acknowledged, its gaps."""

    def __init__(self, server: Server, table: int, seat: int, token: str) -> None:
        self.server, self.table, self.seat, self.token = server, table, seat, token
        self.ws: Any = None
        self.last: dict[str, Any] = {}
        self.acked: list[int] = []
        self.gaps: list[float] = []

    async def connect(self) -> None:
        since = f"&since={self.last['seq']}" if self.last else ""
        url = f"{self.server.ws}/ws/tables/{self.table}?token={self.token}{since}"
        for _ in range(200):  # at once, then every 0.05 s (closed again: a stopping process)
            try:
                self.ws = await websockets.connect(url)
                self.last = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
                break
            except (OSError, websockets.InvalidStatus, websockets.ConnectionClosed):
                await asyncio.sleep(0.05)
        else:
            raise SystemExit(f"table {self.table}: seat {self.seat} could not come back")
        assert self.last["type"] == "snapshot", self.last

    async def read(self) -> dict[str, Any]:
        try:
            frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
        except websockets.ConnectionClosed as closed:
            at = time.monotonic()
            assert closed.rcvd is not None and closed.rcvd.code == 1012, closed
            await self.connect()
            self.gaps.append(time.monotonic() - at)
            return self.last
        assert frame["type"] in ("snapshot", "delta"), frame
        self.last = frame
        return frame

    async def send(self, message: dict[str, Any]) -> bool:
        try:
            await self.ws.send(json.dumps(message))
        except websockets.ConnectionClosed:
            await self.read()
            return False
        return True


def _new_table(server: Server) -> tuple[int, dict[int, str]]:
    seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(2)]
    created = _http("POST", f"{server.base}/api/tables", {"game": GAME, "seats": seats})
    table, tokens = created["table"]["id"], {int(k): v for k, v in created["tokens"].items()}
    _http("POST", f"{server.base}/api/tables/{table}/start", {}, tokens[0])
    return table, tokens


async def _play(server: Server, pace: float, stop: asyncio.Event, seats_out: list[Seat]) -> None:
    """Play tables one after another (a new one when a game ends) until ``stop``."""
    while not stop.is_set():
        table, tokens = await asyncio.to_thread(_new_table, server)
        seats = [Seat(server, table, s, tokens[s]) for s in sorted(tokens)]
        seats_out.extend(seats)
        for s in seats:
            await s.connect()
        while not stop.is_set():
            top = max(s.last["seq"] for s in seats)
            for s in seats:
                while s.last["seq"] < top:
                    await s.read()
            if seats[0].last["outcome"] is not None:
                break
            mover = next(s for s in seats if s.last["legal"])
            seq = mover.last["seq"]
            legal = mover.last["legal"]
            choice = legal[seq % len(legal)]["notation"]
            if not await mover.send({"type": "action", "seq": seq, "action": choice}):
                continue
            for s in seats:
                frame = await s.read()
                if s is mover and frame["type"] == "delta" and frame["seq"] == seq + 1:
                    mover.acked.append(seq + 1)
            await asyncio.sleep(pace)
        for s in seats:
            with contextlib.suppress(Exception):
                await s.ws.close()


async def _rounds(server: Server, tables: int, restarts: int, pace: float) -> dict[str, Any]:
    stop = asyncio.Event()
    seats: list[Seat] = []
    players = [asyncio.create_task(_play(server, pace, stop, seats)) for _ in range(tables)]
    await asyncio.sleep(2)
    rounds = []
    for _ in range(restarts):
        old = set(_children(server))
        closed_before = sum(len(s.gaps) for s in seats)
        gaps_before = {id(s): len(s.gaps) for s in seats}
        start = time.monotonic()
        os.kill(server.proc.pid, signal.SIGHUP)
        for _ in range(6000):
            now = set(_children(server))
            if len(now) == 2 and not now & old:
                break
            await asyncio.sleep(0.02)
        took = time.monotonic() - start
        await asyncio.sleep(2)
        gaps = [g for s in seats for g in s.gaps[gaps_before.get(id(s), 0) :]]
        rounds.append(
            {
                "restart_s": round(took, 3),
                "clients_closed": sum(len(s.gaps) for s in seats) - closed_before,
                "longest_gap_s": round(max(gaps), 3) if gaps else None,
            }
        )
    stop.set()
    await asyncio.gather(*players)
    lost = 0
    for table in sorted({s.table for s in seats}):
        mine = [s for s in seats if s.table == table]
        info = await asyncio.to_thread(_http, "GET", f"{server.base}/api/tables/{table}")
        logged = int(info["table"]["seq"])
        lost += sum(1 for s in mine for seq in s.acked if seq > logged)
    acked = sum(len(s.acked) for s in seats)
    return {"rounds": rounds, "acknowledged": acked, "lost": lost}


def run_benchmark(restarts: int, tables: int, pace: float) -> dict[str, Any]:
    """Run the rounds; the summary and the rounds."""
    import psycopg

    schema = f"campfire_restart_{os.getpid()}_{secrets.token_hex(3)}"
    base = PG.replace("postgresql://", "postgresql+psycopg://", 1)
    url = f"{base}?options=-csearch_path%3D{schema}"
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    server: Server | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="campfire-restart-") as logs:
            server = Server(url, ["--redis-url", REDIS, "--workers", "2"], Path(logs))
            report = asyncio.run(_rounds(server, tables, restarts, pace))
            server.stop()
    finally:
        if server is not None:
            server.stop()
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    rounds = report["rounds"]
    took = [r["restart_s"] for r in rounds]
    gaps = [r["longest_gap_s"] for r in rounds if r["longest_gap_s"] is not None]
    summary = {
        "restarts": len(rounds),
        "tables": tables,
        "restart_median_s": round(statistics.median(took), 3),
        "restart_worst_s": round(max(took), 3),
        "gap_median_s": round(statistics.median(gaps), 3) if gaps else None,
        "gap_worst_s": round(max(gaps), 3) if gaps else None,
        "acknowledged": report["acknowledged"],
        "lost": report["lost"],
    }
    return {"summary": summary, "rounds": rounds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--pace", type=float, default=0.2, help="seconds between a table's steps")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    report = run_benchmark(args.restarts, args.tables, args.pace)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for r in report["rounds"]:
        print(json.dumps(r))
    s = report["summary"]
    print(
        f"rolling restart of --workers 2 with {s['tables']} tables playing, {s['restarts']} "
        f"restarts: median {s['restart_median_s']:.2f} s, worst {s['restart_worst_s']:.2f} s; "
        f"longest client gap (1012 -> snapshot) per restart: median {s['gap_median_s']} s, "
        f"worst {s['gap_worst_s']} s; {s['acknowledged']} actions acknowledged, {s['lost']} lost"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
