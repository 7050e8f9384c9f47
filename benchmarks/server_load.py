"""Load benchmark of ``campfire serve``: N tables of random players over real WebSockets.

It starts a real server (``python -m campfire.cli serve``, a subprocess on a free port of
127.0.0.1) on a fresh database, creates ``--tables`` tables whose seats are all reserved, and
connects one WebSocket client per seat plus (by default) one spectator per table. Every seat is
a client: when a frame lists legal actions for it, it waits ``--think-ms`` (uniform between
half and one and a half times that; 0: at once) and sends one of them, drawn at random, by
index, once per choice (another seat's answer in a simultaneous step changes nothing for it).
So each action goes the whole way a person's does: parse, legality, apply, commit to the
database, one delta frame per connection built from that seat's view, sent over the socket.
The clients ask for display patches (``patch=1``) as the browser client does, and apply each
to the display model they hold (``--no-patches``: whole display models in every delta).
(Bot seats would measure the bots' thinking instead of the broadcast path.) A finished game is
followed by a rematch at the same table (every seat agrees to it over HTTP).

Latency: a client notes ``time.perf_counter()`` just before it sends an action; every client
of the table notes the same clock when ``recv()`` hands it the delta of that step (the step's
``seat`` and ``seq`` name the action). The latency is the last client's receipt minus the send,
all on one machine clock in one client process. It therefore measures from *before* the
action's arrival at the server (it adds the client-to-server hop of loopback, well under a
millisecond when idle) and includes the client process's own delays (its event loop serves
every connection of its tables); both make it an upper bound of arrival-to-last-receipt.

It stops by itself after ``--seconds`` of play or ``--max-actions`` actions, whichever comes
first, closes the connections, stops the server (SIGTERM, then SIGKILL) and removes what it
created: the temporary directory with the SQLite file and the server's log, or the PostgreSQL
schema. All traffic is on 127.0.0.1.

``--proxy nginx`` puts nginx in front of the server with the shipped configuration
(``deploy/nginx/campfire.conf``, ``benchmarks/nginx_front.py``: a self-signed certificate,
loopback ports) and the clients speak HTTPS and WSS to it, verifying the certificate.
``--compare-proxy ROUNDS`` measures the proxy's cost: one server and one nginx, the same tables,
``ROUNDS`` rounds of play directly and ``ROUNDS`` through nginx, interleaved (the order swapped
every round), each ``--seconds`` long.

    .venv/bin/python benchmarks/server_load.py --tables 50 --seconds 20
    .venv/bin/python benchmarks/server_load.py --tables 50 --seconds 20 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test
    .venv/bin/python benchmarks/server_load.py --tables 50 --seconds 15 --compare-proxy 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.util
import json
import os
import random
import secrets
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import websockets

try:  # the clients share the machine with the server: read frames as cheaply as it can be done
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - the server extra installs orjson
    _loads = json.loads  # type: ignore[assignment]

HOST = "127.0.0.1"


# ----- the server -------------------------------------------------------------------------------


def _http(
    method: str,
    url: str,
    body: Any = None,
    token: str | None = None,
    cafile: str | None = None,
    cookie: str | None = None,
) -> tuple[int, Any]:
    """One request; ``cafile``: the certificate an ``https://`` server is verified against;
    ``cookie``: a signed-in user's session cookie (``name=value``)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if cookie is not None:
        request.add_header("Cookie", cookie)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    context = ssl.create_default_context(cafile=cafile) if url.startswith("https:") else None
    try:
        with urllib.request.urlopen(request, timeout=30, context=context) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def _postgres_schema(url: str) -> Iterator[str]:
    """A fresh schema in the database of ``url`` (dropped afterwards); the URL that uses it."""
    import psycopg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if "options" in parsed.query:  # the caller chose the schema (search_path): use it as is
        yield url
        return
    dsn = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    schema = f"campfire_bench_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield parsed.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False
        )
    finally:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@contextlib.contextmanager
def serve(
    database_url: str | None,
    profile: str | None = None,
    workers: int = 1,
    compress_min: int | None = None,
    own_session: bool = False,
) -> Iterator[tuple[str, int]]:
    """``campfire serve`` in a subprocess on a free loopback port, ready; its URL and pid.

    ``profile``: run the server under cProfile and write its statistics to that file (when the
    server stops). ``workers``: ``campfire serve --workers`` (PostgreSQL and the Redis at
    127.0.0.1:6379). ``compress_min``: ``campfire serve --ws-compress-min`` (``None``: its
    default). ``own_session``: start the server in a session of its own (``setsid``), as a
    deployed server runs: where the kernel shares the CPU fairly between sessions (Linux's
    autogroup), the server's share is then not the load generator's too.
    """
    home = Path(tempfile.mkdtemp(prefix="campfire-load-"))
    try:
        with contextlib.ExitStack() as stack:
            if database_url is None:
                url = f"sqlite:///{home / 'campfire.db'}"
            elif database_url.startswith("postgresql"):
                url = stack.enter_context(_postgres_schema(database_url))
            else:
                url = database_url
            port = _free_port()
            log = home / "server.log"
            env = dict(os.environ, XDG_DATA_HOME=str(home / "data"))
            with log.open("wb") as out:
                proc = subprocess.Popen(
                    [
                        sys.executable,
                        *(("-m", "cProfile", "-o", profile) if profile else ()),
                        *("-m", "campfire.cli", "serve", "--host", HOST),
                        *("--port", str(port), "--database-url", url),
                        *(("--workers", str(workers)) if workers > 1 else ()),
                        *(
                            ("--ws-compress-min", str(compress_min))
                            if compress_min is not None
                            else ()
                        ),
                    ],
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=own_session,
                )
            try:
                base = f"http://{HOST}:{port}"
                for _ in range(1200):
                    if proc.poll() is not None:
                        raise RuntimeError(f"the server exited:\n{log.read_text()[-3000:]}")
                    with contextlib.suppress(OSError):
                        if _http("GET", f"{base}/healthz")[0] == 200:
                            break
                    time.sleep(0.05)
                else:
                    raise RuntimeError(f"the server did not start:\n{log.read_text()[-3000:]}")
                yield base, proc.pid
            finally:
                # uvicorn re-raises the signal it stopped on: SIGINT ends the profiled server
                # with KeyboardInterrupt, so cProfile still writes its file (SIGTERM would not)
                proc.send_signal(signal.SIGINT if profile else signal.SIGTERM)
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=15)
    finally:
        shutil.rmtree(home, ignore_errors=True)


@contextlib.contextmanager
def nginx_in_front(base: str) -> Iterator[tuple[str, str, int]]:
    """nginx with the shipped configuration in front of the server at ``base``.

    Its HTTPS address, the certificate to verify it against, and nginx's pid.
    """
    name = "campfire_bench_nginx_front"  # (the name tests/benchmark_scripts.py gives it)
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(
            name, Path(__file__).with_name("nginx_front.py")
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    with module.nginx_front(int(base.rsplit(":", 1)[1])) as front:
        yield front.base, str(front.cert), front.process.pid


def sign_up_players(base: str, players: int, cafile: str | None = None) -> list[str]:
    """Sign ``players`` users up (``load<tag>x0``, ``load<tag>x1``, ...); their session cookies.

    :func:`rated_games` reads the first one's name back from ``cookies[0]``.
    """
    cookies = []
    tag = secrets.token_hex(3)
    for i in range(players):
        body = json.dumps({"user_name": f"load{tag}x{i}", "password": "load benchmark"}).encode()
        request = urllib.request.Request(f"{base}/api/account/signup", data=body, method="POST")
        request.add_header("Content-Type", "application/json")
        context = ssl.create_default_context(cafile=cafile) if base.startswith("https:") else None
        with urllib.request.urlopen(request, timeout=60, context=context) as answer:
            header = answer.headers.get("Set-Cookie", "")
        cookies.append(header.split(";", 1)[0])
    return cookies


def create_tables(
    base: str,
    tables: int,
    game: str,
    players: int,
    cafile: str | None = None,
    cookies: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """Create and start ``tables`` tables of reserved seats: ``[{"id", "tokens"}]``.

    ``cookies`` (one per player, :func:`sign_up_players`): rated tables of those signed-in
    players (``docs/accounts.md``, "Ratings"), the same users at every table, the first
    creating it (its seat reserved), the others joining it with their session cookies; every
    finished game is rated.
    """
    out = []
    rated = bool(cookies)
    for _ in range(tables):
        seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(players)]
        if rated:
            seats = seats[:1] + [{"kind": "open"}] * (players - 1)
        status, data = _http(
            "POST",
            f"{base}/api/tables",
            {
                "game": game,
                "players": players,
                "seats": seats,
                **({"rated": True} if rated else {}),
            },
            cafile=cafile,
            cookie=cookies[0] if rated else None,
        )
        if status != 201:
            raise RuntimeError(f"creating a table failed ({status}): {data}")
        tokens = {int(k): v for k, v in data["tokens"].items()}
        table = data["table"]["id"]
        for i in range(1, players if rated else 0):
            status, joined = _http(
                "POST",
                f"{base}/api/tables/{table}/join",
                {"nickname": f"P{i}"},
                cafile=cafile,
                cookie=cookies[i],
            )
            if status != 201:
                raise RuntimeError(f"joining table {table} failed ({status}): {joined}")
            tokens[int(joined["seat"])] = joined["token"]
        status, data = _http("POST", f"{base}/api/tables/{table}/start", {}, tokens[0], cafile)
        if status != 200:
            raise RuntimeError(f"starting table {table} failed ({status}): {data}")
        out.append({"id": table, "tokens": tokens})
    return out


def rated_games(base: str, cookie: str, cafile: str | None = None, settle: float = 1.0) -> int:
    """How many games the first signed-in player has had rated (their profile's count).

    Every table seats that player, so this is the number of rated games. A finished game is
    rated in a worker thread after its record is committed: the count is read until it has not
    changed for ``settle`` seconds (20 s at most).
    """
    status, me = _http("GET", f"{base}/api/account", cafile=cafile, cookie=cookie)
    if status != 200 or not isinstance(me, dict) or not me.get("user"):
        raise RuntimeError(f"reading the signed-in player failed ({status}): {me}")
    name = me["user"]["name"]
    count, since, deadline = -1, time.monotonic(), time.monotonic() + 20
    while time.monotonic() < deadline:
        status, profile = _http("GET", f"{base}/api/players/{name}", cafile=cafile)
        if status != 200:
            raise RuntimeError(f"reading {name}'s profile failed ({status}): {profile}")
        now = sum(r["games"] for r in profile["ratings"] if r["players"] == 0)
        if now != count:
            count, since = now, time.monotonic()
        elif time.monotonic() - since >= settle:
            break
        time.sleep(0.2)
    return count


# ----- the clients ------------------------------------------------------------------------------


def apply_patch(model: Any, patch: list[Any]) -> Any:
    """``model`` (a display model as JSON) with a delta's ``patch`` applied, in place.

    What a client of patches does (``docs/protocol.md``, "Display patches"); the load
    generator has its own few lines, as the browser has, rather than the server's module.
    """
    for path, value in patch:
        if not path:
            model = value
            continue
        node = model
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return model


@dataclass
class _Run:
    """The measurements of one client process."""

    clients_per_table: int
    max_actions: int
    #: offer permessage-deflate (as browsers do); False: plain frames
    compression: bool = True
    #: ask for display patches (``patch=1``, as the browser client does) and apply them
    patches: bool = True
    #: (table, game number, seat) -> when that seat sent its answer now on its way
    sends: dict[tuple[int, int, int], float] = field(default_factory=dict)
    seen: Counter[tuple[int, int, int, int]] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    ready: int = 0
    games: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def receipt(self, key: tuple[int, int, int, int], now: float) -> None:
        """Every client of the table read the step ``key`` (table, game number, seq, seat)."""
        self.seen[key] += 1
        if self.seen[key] == self.clients_per_table:
            del self.seen[key]
            table, number, _, seat = key
            sent = self.sends.pop((table, number, seat), None)
            if sent is not None and not self.done.is_set():
                self.latencies.append(now - sent)
                if len(self.latencies) >= self.max_actions:
                    self.done.set()


async def _client(
    run: _Run,
    base: str,
    table: int,
    seat: int | None,
    token: str | None,
    think: float,
    rng: random.Random,
    cafile: str | None = None,
) -> None:
    query = [f"token={token}"] if token is not None else []
    if run.patches:
        query.append("patch=1")
    ws_url = "ws" + base.removeprefix("http") + f"/ws/tables/{table}?" + "&".join(query)
    context = ssl.create_default_context(cafile=cafile) if ws_url.startswith("wss:") else None
    # a seat answers each choice once: a choice is new with other legal actions, after the
    # seat's own step, or with a snapshot (another seat's answer in a simultaneous step leaves
    # it standing, and the server takes an answer to it then too: docs/protocol.md)
    answered: tuple[Any, ...] | None = None
    own = 0  # the seat's own steps and the snapshots seen
    pending: set[asyncio.Task[None]] = set()

    async def act(ws: Any, game_number: int, seq: int, index: int, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if run.done.is_set():
            return
        assert seat is not None
        run.sends[(table, game_number, seat)] = time.perf_counter()
        run.sent += 1
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps({"type": "action", "seq": seq, "action": index}))

    async with websockets.connect(
        ws_url,
        max_size=2**22,
        open_timeout=60,
        compression="deflate" if run.compression else None,
        ssl=context,
    ) as ws:
        frame = _loads(await ws.recv())  # the snapshot
        display = frame.get("display")  # the display model, kept up to date as a client does
        run.ready += 1
        await run.go.wait()
        while not run.done.is_set():
            kind = frame["type"]
            if kind == "error":
                run.errors[frame["code"]] += 1
                if frame["code"] == "rate_limited":
                    await asyncio.sleep(0.5)
                    await ws.send(json.dumps({"type": "sync"}))
            elif kind in ("snapshot", "delta"):
                number, seq = frame["game_number"], frame["seq"]
                if kind == "snapshot" or frame["step"]["seat"] == seat:
                    own += 1
                choice = (number, own, tuple(a["index"] for a in frame["legal"]))
                if frame["outcome"] is not None:
                    # (a snapshot of a finished game: an earlier round of --compare-proxy
                    # ended as the game did; its rematch is asked for now: every person
                    # agrees to it, the first proposes and the others accept)
                    if seat is not None:
                        run.games += kind == "delta" and seat == 0
                        status, _ = await asyncio.to_thread(
                            _http, "POST", f"{base}/api/tables/{table}/rematch", {}, token, cafile
                        )
                        if status != 200:
                            run.errors[f"rematch {status}"] += 1
                elif seat is not None and frame["legal"] and choice != answered:
                    answered = choice
                    index = rng.choice(frame["legal"])["index"]
                    delay = think * rng.uniform(0.5, 1.5)
                    task = asyncio.get_running_loop().create_task(
                        act(ws, number, seq, index, delay)
                    )
                    pending.add(task)
                    task.add_done_callback(pending.discard)
            try:
                raw = await ws.recv()
            except websockets.ConnectionClosed:
                run.errors["closed"] += 1
                return
            now = time.perf_counter()
            frame = _loads(raw)
            if frame["type"] == "delta":
                display = (
                    apply_patch(display, frame["patch"]) if "patch" in frame else frame["display"]
                )
                step = frame["step"]
                run.receipt((table, frame["game_number"], step["seq"] - 1, step["seat"]), now)
            elif frame["type"] == "snapshot":
                display = frame["display"]
        for task in list(pending):
            task.cancel()


async def _until_done(run: _Run, seconds: float) -> float:
    start = time.perf_counter()
    run.go.set()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(run.done.wait(), seconds)
    run.done.set()
    return time.perf_counter() - start


async def _play(
    base: str,
    tables: list[dict[str, Any]],
    spectators: bool,
    think: float,
    seconds: float,
    max_actions: int,
    seed: int,
    compression: bool = True,
    patches: bool = True,
    cafile: str | None = None,
) -> dict[str, Any]:
    players = len(tables[0]["tokens"])
    run = _Run(
        clients_per_table=players + (1 if spectators else 0),
        max_actions=max_actions,
        compression=compression,
        patches=patches,
    )
    rng = random.Random(seed)
    tasks = []
    connected = 0
    loop = asyncio.get_running_loop()
    for t in tables:
        seats: list[tuple[int | None, str | None]] = [
            (s, t["tokens"][s]) for s in sorted(t["tokens"])
        ]
        if spectators:
            seats.append((None, None))
        for seat, token in seats:
            tasks.append(
                loop.create_task(
                    _client(
                        *(run, base, t["id"], seat, token, think, random.Random(rng.random())),
                        cafile,
                    )
                )
            )
            connected += 1
    # every client has its snapshot before play starts: wait until they all wait on `go`
    while run.ready < connected and not any(task.done() for task in tasks):
        await asyncio.sleep(0.05)
    # the load generator's own pauses are not the server's latency: its garbage collector
    # (a full collection of 1,000 clients' display models took up to 0.5 s) waits until the
    # play is over, and what the set-up made is kept out of its sight
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        cpu = time.process_time()
        elapsed = await _until_done(run, seconds)
        cpu = time.process_time() - cpu
    finally:
        gc.enable()
        gc.unfreeze()
    failures = [repr(t.exception()) for t in tasks if t.done() and t.exception() is not None]
    for task in tasks:  # a client waits in recv(): leaving closes its connection
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "actions": len(run.latencies),
        "sent": run.sent,
        "games": run.games,
        "seconds": elapsed,
        "latencies": run.latencies,
        "errors": dict(run.errors),
        "failures": failures[:5],
        "connections": connected,
        "cpu": cpu,
    }


def _play_in_process(args: tuple[Any, ...]) -> dict[str, Any]:
    *play, fast_loop = args
    if fast_loop:
        try:  # the clients on uvloop (the server extra has it), as the server is
            import uvloop
        except ImportError:  # pragma: no cover - the server extra installs uvloop
            pass
        else:
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                result: dict[str, Any] = runner.run(_play(*play))
                return result
    return asyncio.run(_play(*play))


# ----- the benchmark ----------------------------------------------------------------------------


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used so far (Linux; else 0)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tree_cpu_seconds(pid: int) -> float:
    """The CPU time of process ``pid`` and its descendants (``--workers``: uvicorn's processes)."""
    total = _cpu_seconds(pid)
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return total
    for task in tasks:
        with contextlib.suppress(OSError, ValueError):
            for child in (task / "children").read_text().split():
                total += _tree_cpu_seconds(int(child))
    return total


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def run_benchmark(
    *,
    tables: int = 200,
    seconds: float = 30.0,
    max_actions: int = 1_000_000,
    database_url: str | None = None,
    game: str = "tracker",
    players: int = 4,
    spectators: bool = True,
    think_ms: float = 500.0,
    client_processes: int = 1,
    seed: int = 1,
    profile: str | None = None,
    compression: bool = True,
    workers: int = 1,
    patches: bool = True,
    compress_min: int | None = None,
    server_session: bool = False,
    fast_loop: bool = True,
    proxy: str | None = None,
    rated: bool = False,
) -> dict[str, Any]:
    """Run the load benchmark; the report (actions/s, latency percentiles in ms, counts).

    ``proxy="nginx"``: the clients go through nginx (HTTPS, WSS) with the shipped configuration.
    ``rated``: rated tables of signed-in players (:func:`create_tables`).
    """
    if tables < 1 or seconds <= 0 or max_actions < 1 or client_processes < 1:
        raise ValueError(
            "--tables, --max-actions and --client-processes are at least 1 and --seconds "
            f"above 0 (got {tables}, {max_actions}, {client_processes}, {seconds})"
        )
    client_processes = min(client_processes, tables)
    load = os.getloadavg()[0]
    nginx_cpu = 0.0
    with contextlib.ExitStack() as stack:
        base, pid = stack.enter_context(
            serve(database_url, profile, workers, compress_min, server_session)
        )
        cafile, nginx_pid = None, None
        if proxy == "nginx":
            base, cafile, nginx_pid = stack.enter_context(nginx_in_front(base))
        elif proxy is not None:
            raise ValueError(f"--proxy is nginx (got {proxy!r})")
        cookies = sign_up_players(base, players, cafile) if rated else []
        made = create_tables(base, tables, game, players, cafile, cookies)
        server_cpu = _tree_cpu_seconds(pid)
        if nginx_pid is not None:
            nginx_cpu = _tree_cpu_seconds(nginx_pid)
        parts = _play_all(
            base,
            made,
            client_processes,
            (spectators, think_ms / 1000, seconds, max_actions, seed, compression, patches),
            fast_loop,
            cafile,
        )
        server_cpu = _tree_cpu_seconds(pid) - server_cpu
        if nginx_pid is not None:
            nginx_cpu = _tree_cpu_seconds(nginx_pid) - nginx_cpu
        rated_count = rated_games(base, cookies[0], cafile) if rated else None
    latencies = [x for p in parts for x in p["latencies"]]
    errors: Counter[str] = Counter()
    for p in parts:
        errors.update(p["errors"])
    return {
        "database": "sqlite" if database_url is None else database_url.split(":", 1)[0],
        "game": game,
        "players": players,
        "tables": tables,
        "workers": workers,
        "connections": sum(p["connections"] for p in parts),
        "spectators": spectators,
        "compression": compression,
        "compress_min": compress_min,
        "server_session": server_session,
        "client_loop": "uvloop" if fast_loop and find_spec("uvloop") else "asyncio",
        "patches": patches,
        "think_ms": think_ms,
        "client_processes": client_processes,
        "seconds": max(p["seconds"] for p in parts),
        "actions": len(latencies),
        "actions_per_s": sum(p["actions"] / p["seconds"] for p in parts),
        "games": sum(p["games"] for p in parts),
        "sent": sum(p["sent"] for p in parts),
        "latency_ms": {
            "p50": _percentile(latencies, 50) * 1000,
            "p99": _percentile(latencies, 99) * 1000,
            "mean": statistics.fmean(latencies) * 1000 if latencies else 0.0,
            "max": max(latencies, default=0.0) * 1000,
        },
        "cpu_seconds": {
            "server": server_cpu,
            "clients": sum(p["cpu"] for p in parts),
            **({"nginx": nginx_cpu} if proxy else {}),
        },
        "proxy": proxy,
        "rated": rated,
        "games_rated": rated_count,
        "errors": dict(errors),
        "failures": [f for p in parts for f in p["failures"]],
        "load_average": {"start": load, "end": os.getloadavg()[0]},
    }


def _play_all(
    base: str,
    made: list[dict[str, Any]],
    client_processes: int,
    play: tuple[Any, ...],
    fast_loop: bool,
    cafile: str | None,
) -> list[dict[str, Any]]:
    """Play at the tables ``made``; each client process's measurements.

    ``play``: spectators, think (s), seconds, max actions, seed, compression, patches.
    """
    spectators, think, seconds, max_actions, seed, compression, patches = play
    share = max(1, max_actions // client_processes)
    jobs = [
        (
            *(base, made[i::client_processes], spectators, think, seconds, share),
            *(seed + i, compression, patches, cafile, fast_loop),
        )
        for i in range(client_processes)
    ]
    if client_processes == 1:
        return [_play_in_process(jobs[0])]
    with ProcessPoolExecutor(client_processes) as pool:
        return list(pool.map(_play_in_process, jobs))


def compare_proxy(
    rounds: int,
    *,
    tables: int = 50,
    seconds: float = 15.0,
    database_url: str | None = None,
    game: str = "tracker",
    players: int = 4,
    think_ms: float = 500.0,
    workers: int = 1,
    seed: int = 1,
) -> dict[str, Any]:
    """The proxy's cost: ``rounds`` rounds directly and as many through nginx, interleaved.

    One server and one nginx serve every round; the tables are made once and played on from
    round to round (a finished game is rematched). Each round connects every seat's client and a
    spectator afresh, plays ``seconds`` and closes them; the order (direct, nginx) is swapped
    every round, so that a drift of the machine's load weighs on both alike.
    """
    if rounds < 1 or tables < 1 or seconds <= 0:
        raise ValueError(
            f"--compare-proxy and --tables are at least 1, --seconds above 0 (got {rounds}, "
            f"{tables}, {seconds})"
        )
    load = os.getloadavg()[0]
    out: dict[str, list[dict[str, Any]]] = {"direct": [], "nginx": []}
    with (
        serve(database_url, None, workers) as (base, pid),
        nginx_in_front(base) as (front, cafile, nginx_pid),
    ):
        made = create_tables(base, tables, game, players)
        for r in range(rounds):
            for mode in ("direct", "nginx") if r % 2 == 0 else ("nginx", "direct"):
                url, ca = (base, None) if mode == "direct" else (front, cafile)
                cpu = _tree_cpu_seconds(pid), _tree_cpu_seconds(nginx_pid)
                play = (True, think_ms / 1000, seconds, 1_000_000, seed + r, True, True)
                parts = _play_all(url, made, 1, play, True, ca)
                latencies = parts[0]["latencies"]
                out[mode].append(
                    {
                        "round": r + 1,
                        "actions": len(latencies),
                        "actions_per_s": parts[0]["actions"] / parts[0]["seconds"],
                        "p50_ms": _percentile(latencies, 50) * 1000,
                        "p99_ms": _percentile(latencies, 99) * 1000,
                        "server_cpu_ms_per_action": 1000
                        * (_tree_cpu_seconds(pid) - cpu[0])
                        / max(1, len(latencies)),
                        "nginx_cpu_ms_per_action": 1000
                        * (_tree_cpu_seconds(nginx_pid) - cpu[1])
                        / max(1, len(latencies)),
                        "errors": parts[0]["errors"],
                        "failures": parts[0]["failures"],
                    }
                )
    return {
        "rounds": out,
        "tables": tables,
        "players": players,
        "game": game,
        "workers": workers,
        "seconds": seconds,
        "think_ms": think_ms,
        "database": "sqlite" if database_url is None else database_url.split(":", 1)[0],
        "load_average": {"start": load, "end": os.getloadavg()[0]},
    }


def _print_comparison(report: dict[str, Any]) -> None:
    print(
        f"{report['database']}: {report['tables']} tables of {report['game']} "
        f"({report['players']} players, a spectator), {report['workers']} server processes, "
        f"think {report['think_ms']:g} ms, rounds of {report['seconds']:g} s, "
        "direct and through nginx (HTTPS, WSS) interleaved"
    )
    for mode in ("direct", "nginx"):
        for r in report["rounds"][mode]:
            print(
                f"  round {r['round']} {mode:6}: {r['actions']} actions "
                f"({r['actions_per_s']:.1f}/s), p50 {r['p50_ms']:.1f} ms, "
                f"p99 {r['p99_ms']:.1f} ms, "
                f"server CPU {r['server_cpu_ms_per_action']:.2f} ms/action, nginx "
                f"{r['nginx_cpu_ms_per_action']:.2f} ms/action"
                + (
                    f", errors {r['errors']} {r['failures']}"
                    if r["errors"] or r["failures"]
                    else ""
                )
            )
    for mode in ("direct", "nginx"):
        rounds = report["rounds"][mode]
        p50 = [r["p50_ms"] for r in rounds]
        p99 = [r["p99_ms"] for r in rounds]
        print(
            f"  {mode:6} median of rounds: p50 {statistics.median(p50):.1f} ms "
            f"({min(p50):.1f}–{max(p50):.1f}), p99 {statistics.median(p99):.1f} ms "
            f"({min(p99):.1f}–{max(p99):.1f})"
        )
    load = report["load_average"]
    print(f"  load average (1 min): {load['start']:.2f} at the start, {load['end']:.2f} at the end")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200, help="tables played at once (200)")
    p.add_argument("--seconds", type=float, default=30.0, help="seconds of play at most (30)")
    p.add_argument("--max-actions", type=int, default=1_000_000, help="actions at most (1,000,000)")
    p.add_argument(
        "--database-url",
        default=None,
        help="default: an SQLite file in a temporary directory; a postgresql+psycopg:// URL "
        "gets a fresh schema in that database, dropped afterwards",
    )
    p.add_argument("--game", default="tracker", help="the game (tracker)")
    p.add_argument("--players", type=int, default=4, help="seats per table (4)")
    p.add_argument(
        "--think-ms",
        type=float,
        default=500.0,
        help="mean wait before a seat acts, uniform ±50%% (500; 0: at once, saturation)",
    )
    p.add_argument("--no-spectators", action="store_true", help="no spectator per table")
    p.add_argument(
        "--no-compression",
        action="store_true",
        help="clients do not offer permessage-deflate (browsers do; the server then compresses "
        "every frame for each connection)",
    )
    p.add_argument(
        "--no-patches",
        action="store_true",
        help="clients do not ask for display patches (patch=1; the browser client does): "
        "every delta carries the whole display model",
    )
    p.add_argument(
        "--client-processes", type=int, default=1, help="processes the clients run in (1)"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the players' choices (1)")
    p.add_argument(
        "--profile",
        metavar="FILE",
        default=None,
        help="run the server under cProfile and write its statistics to FILE "
        "(read them with python -m pstats FILE)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (campfire serve --workers; 2 or more: PostgreSQL and Redis)",
    )
    p.add_argument(
        "--ws-compress-min",
        metavar="BYTES",
        type=int,
        default=None,
        help="campfire serve --ws-compress-min: frames of fewer bytes go uncompressed "
        "(default: the server's; 0: every frame compressed, as before it)",
    )
    p.add_argument(
        "--server-session",
        action="store_true",
        help="start the server in a session of its own (setsid), as a deployed server runs: "
        "where the kernel shares the CPU between sessions (autogroup), its share is then "
        "apart from the load generator's",
    )
    p.add_argument(
        "--asyncio-clients",
        action="store_true",
        help="run the clients on asyncio's own event loop (default: uvloop, when installed)",
    )
    p.add_argument(
        "--proxy",
        choices=["nginx"],
        default=None,
        help="the clients go through nginx (deploy/nginx/campfire.conf; HTTPS and WSS with a "
        "self-signed certificate; nginx is installed with apt-get when missing)",
    )
    p.add_argument(
        "--compare-proxy",
        metavar="ROUNDS",
        type=int,
        default=0,
        help="measure the proxy's cost: ROUNDS rounds of --seconds directly and as many through "
        "nginx, interleaved, at the same server and tables (uses --tables, --seconds, "
        "--think-ms, --players, --game, --workers, --database-url, --seed)",
    )
    p.add_argument(
        "--rated",
        action="store_true",
        help="rated tables of signed-in players (the same users at every table; each "
        "finished game is rated)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)
    # a SIGTERM (``timeout``, a CI runner) still stops the server and removes what was created
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.compare_proxy:
        compared = compare_proxy(
            args.compare_proxy,
            tables=args.tables,
            seconds=args.seconds,
            database_url=args.database_url,
            game=args.game,
            players=args.players,
            think_ms=args.think_ms,
            workers=args.workers,
            seed=args.seed,
        )
        if args.json:
            print(json.dumps(compared, indent=2))
        else:
            _print_comparison(compared)
        return 0
    report = run_benchmark(
        tables=args.tables,
        seconds=args.seconds,
        max_actions=args.max_actions,
        database_url=args.database_url,
        game=args.game,
        players=args.players,
        spectators=not args.no_spectators,
        think_ms=args.think_ms,
        client_processes=args.client_processes,
        seed=args.seed,
        profile=args.profile,
        compression=not args.no_compression,
        workers=args.workers,
        patches=not args.no_patches,
        compress_min=args.ws_compress_min,
        server_session=args.server_session,
        fast_loop=not args.asyncio_clients,
        proxy=args.proxy,
        rated=args.rated,
    )
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    lat = report["latency_ms"]
    print(
        f"{report['database']}: {report['tables']} tables of {report['game']} "
        f"({report['players']} players{', a spectator' if report['spectators'] else ''}), "
        f"{report['connections']} connections, {report['workers']} server processes"
        f"{'' if report['compression'] else ' (no compression)'}"
        f"{', patches' if report['patches'] else ', whole displays'}, "
        f"think {report['think_ms']:g} ms, {report['seconds']:.1f} s"
        + (
            f", --ws-compress-min {report['compress_min']}"
            if report["compress_min"] is not None
            else ""
        )
        + (", the server in its own session" if report["server_session"] else "")
        + (", through nginx (HTTPS, WSS)" if report["proxy"] else "")
        + (", rated tables of signed-in players" if report["rated"] else "")
    )
    print(
        f"  {report['actions']} actions ({report['actions_per_s']:.1f}/s), "
        f"{report['games']} games finished"
        + (f", {report['games_rated']} rated" if report["rated"] else "")
    )
    print(
        f"  send → last client's receipt: p50 {lat['p50']:.1f} ms, p99 {lat['p99']:.1f} ms, "
        f"mean {lat['mean']:.1f} ms, max {lat['max']:.1f} ms"
    )
    cpu = report["cpu_seconds"]
    print(
        f"  CPU during play: server {cpu['server']:.1f} s, clients {cpu['clients']:.1f} s "
        f"({1000 * cpu['server'] / max(1, report['actions']):.2f} ms of server CPU an action)"
        + (f", nginx {cpu['nginx']:.1f} s" if "nginx" in cpu else "")
    )
    load = report["load_average"]
    print(f"  load average (1 min): {load['start']:.2f} at the start, {load['end']:.2f} at the end")
    if report["errors"] or report["failures"]:
        print(f"  errors: {report['errors']} {report['failures']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
