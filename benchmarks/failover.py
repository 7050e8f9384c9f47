"""Fail-over of ``campfire serve`` processes: how soon a killed owner's table is served again.

Two real server processes (``python -m campfire.cli serve --redis-url ...``, subprocesses on
free ports of 127.0.0.1) share a fresh PostgreSQL schema and Redis. For each of ``--kills``
rounds: a table is created at one process (which owns it), started, and played for a few
steps by two clients, seat 0 connected to the owner and seat 1 to the other process (proxied).
Then the owner is killed (SIGKILL) and, at once:

- seat 1, whose socket the survivor holds, waits for its close (code 1012 expected) and
  reconnects to the survivor with ``since=``;
- seat 0, whose socket died with the owner (1006, unavoidable), reconnects to the survivor
  straight away, as a client behind a load balancer does, and again every 0.05 s until it gets
  a snapshot.

With ``--workers``, the group is instead one ``campfire serve --workers 2`` (the supervisor and
its two forked workers), and each round kills *both* workers, one right after the other (a
worker that dies before its predecessor's replacement is up): the time is from the first kill
to a client's snapshot, that client reconnecting every 0.05 s from the moment of the kills.

Each client's time is from just before the kill to the moment its snapshot (from the new owner,
with every acknowledged step) is read. The killed process is started again for the next round,
so each round kills a fresh owner. The figures: median and worst over the rounds, the close
codes, and how many connection attempts a snapshot took. Everything created (the schema, the
processes' logs) is removed at the end.

    .venv/bin/python benchmarks/failover.py --kills 10
    .venv/bin/python benchmarks/failover.py --kills 10 --lease-seconds 10 --json
    .venv/bin/python benchmarks/failover.py --kills 10 --workers
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets

PG = os.environ.get("CAMPFIRE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("CAMPFIRE_TEST_REDIS", "redis://127.0.0.1:6379/0")
GAME, STEPS = "tracker", 6


def _http(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One ``campfire serve`` process of the group, ready."""

    def __init__(self, url: str, args: list[str], logs: Path) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "campfire.cli", "serve", "--port", str(self.port)]
        with (logs / f"server-{self.port}.log").open("ab") as out:
            self.proc = subprocess.Popen(
                [*command, "--database-url", url, *args], stdout=out, stderr=subprocess.STDOUT
            )
        for _ in range(1200):
            if self.proc.poll() is not None:
                raise SystemExit(f"a server exited at start; see {logs}")
            try:
                if _http("GET", f"{self.base}/healthz")["status"] == "ok":
                    return
            except (OSError, urllib.error.HTTPError):
                pass
            time.sleep(0.05)
        raise SystemExit("a server did not become ready")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc.wait(10)


async def _snapshot(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 60))
    return frame


async def _round(owner: Server, survivor: Server) -> dict[str, Any]:
    seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(2)]
    created = _http("POST", f"{owner.base}/api/tables", {"game": GAME, "seats": seats})
    table, tokens = created["table"]["id"], created["tokens"]
    _http("POST", f"{owner.base}/api/tables/{table}/start", {}, tokens["0"])
    path = f"/ws/tables/{table}?token="
    direct = await websockets.connect(f"{owner.ws}{path}{tokens['0']}")
    proxied = await websockets.connect(f"{survivor.ws}{path}{tokens['1']}")
    last = [await _snapshot(direct), await _snapshot(proxied)]
    for _ in range(STEPS):
        mover = next(i for i in (0, 1) if last[i]["legal"])
        ws = (direct, proxied)[mover]
        seq = last[mover]["seq"]
        action = last[mover]["legal"][0]["notation"]
        await ws.send(json.dumps({"type": "action", "seq": seq, "action": action}))
        last = [await _snapshot(direct), await _snapshot(proxied)]
    seq = last[0]["seq"]

    async def proxied_client(start: float) -> tuple[float, int, int | None]:
        code: int | None = None
        try:
            while True:
                await asyncio.wait_for(proxied.recv(), 60)
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
        return (*await _reconnect(survivor, f"{path}{tokens['1']}&since={seq}", start), code)

    async def direct_client(start: float) -> tuple[float, int, int | None]:
        code: int | None = None
        try:
            await asyncio.wait_for(direct.recv(), 60)
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else 1006
        return (*await _reconnect(survivor, f"{path}{tokens['0']}&since={seq}", start), code)

    start = time.perf_counter()
    owner.kill()
    (t1, tries1, code1), (t0, tries0, code0) = await asyncio.gather(
        proxied_client(start), direct_client(start)
    )
    owner.proc.wait(10)
    return {
        "proxied_s": t1,
        "proxied_close": code1,
        "proxied_tries": tries1,
        "direct_s": t0,
        "direct_close": code0,
        "direct_tries": tries0,
    }


def _children(server: Server) -> list[int]:
    pid = server.proc.pid
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


async def _both_workers(server: Server) -> dict[str, Any]:
    """Kill both workers of ``server`` (``--workers 2``); the time to a snapshot again."""
    seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(2)]
    created = _http("POST", f"{server.base}/api/tables", {"game": GAME, "seats": seats})
    table, tokens = created["table"]["id"], created["tokens"]
    _http("POST", f"{server.base}/api/tables/{table}/start", {}, tokens["0"])
    for _ in range(1200):
        workers = _children(server)
        if len(workers) == 2:
            break
        time.sleep(0.05)
    start = time.perf_counter()
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    seconds, tries = await _reconnect(server, f"/ws/tables/{table}?token={tokens['0']}", start)
    for _ in range(1200):  # both replaced before the next round
        if len(set(_children(server)) - set(workers)) == 2:
            break
        time.sleep(0.05)
    return {"both_s": seconds, "both_tries": tries}


async def _reconnect(server: Server, path: str, start: float) -> tuple[float, int]:
    """Connect until a snapshot comes (every 0.05 s); the time since ``start`` and the tries."""
    for tries in range(1, 2001):
        try:
            async with websockets.connect(f"{server.ws}{path}") as ws:
                frame = await _snapshot(ws)
                if frame["type"] == "snapshot":
                    return time.perf_counter() - start, tries
        except (websockets.ConnectionClosed, OSError, TimeoutError):
            pass
        await asyncio.sleep(0.05)
    raise SystemExit("the table was never served again")


def run_benchmark(
    kills: int, lease_seconds: int = 10, workers: bool = False, echo: bool = False
) -> dict[str, Any]:
    """Run ``kills`` rounds; the summary (median, worst, best per client) and the rounds."""
    import psycopg

    schema = f"campfire_failover_{os.getpid()}_{secrets.token_hex(3)}"
    base = PG.replace("postgresql://", "postgresql+psycopg://", 1)
    url = f"{base}?options=-csearch_path%3D{schema}"
    serve = ["--redis-url", REDIS, "--lease-seconds", str(lease_seconds)]
    rounds: list[dict[str, Any]] = []
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    servers: list[Server] = []
    try:
        with tempfile.TemporaryDirectory(prefix="campfire-failover-") as logs:
            if workers:
                servers = [Server(url, [*serve, "--workers", "2"], Path(logs))]
                for _ in range(kills):
                    rounds.append(asyncio.run(_both_workers(servers[0])))
                    if echo:
                        print(json.dumps(rounds[-1]), flush=True)
            else:
                servers = [Server(url, serve, Path(logs)), Server(url, serve, Path(logs))]
            for k in range(0 if workers else kills):
                owner, survivor = servers[k % 2], servers[1 - k % 2]
                rounds.append(asyncio.run(_round(owner, survivor)))
                servers[k % 2] = Server(url, serve, Path(logs))  # the killed one comes back
                if echo:
                    print(json.dumps(rounds[-1]), flush=True)
            for server in servers:
                server.stop()
    finally:
        for server in servers:
            server.stop()
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    summary: dict[str, Any] = {"kills": len(rounds), "lease_seconds": lease_seconds}
    for who in ("both",) if workers else ("proxied", "direct"):
        times = [r[f"{who}_s"] for r in rounds]
        summary[who] = {
            "median_s": round(statistics.median(times), 3),
            "worst_s": round(max(times), 3),
            "best_s": round(min(times), 3),
            "close_codes": sorted({r.get(f"{who}_close") for r in rounds}, key=str),
            "most_tries": max(r[f"{who}_tries"] for r in rounds),
        }
    return {"summary": summary, "rounds": rounds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--lease-seconds", type=int, default=10)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--workers", action="store_true", help="kill both workers of campfire serve --workers 2"
    )
    args = parser.parse_args(argv)
    report = run_benchmark(args.kills, args.lease_seconds, args.workers, echo=not args.json)
    summary, rounds = report["summary"], report["rounds"]
    if args.json:
        print(json.dumps({"summary": summary, "rounds": rounds}, indent=2))
    else:
        labels = {
            "proxied": "client held by the survivor",
            "direct": "client of the killed owner",
            "both": "both workers killed",
        }
        for who, label in labels.items():
            if who not in summary:
                continue
            s = summary[who]
            print(
                f"{label}: kill -> snapshot median {s['median_s']:.3f} s, worst "
                f"{s['worst_s']:.3f} s, best {s['best_s']:.3f} s over {len(rounds)} kills; "
                f"closed with {s['close_codes']}; at most {s['most_tries']} connection tries"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
