"""The server's CPU per action without sockets: accept, store, build and encode every frame.

``benchmarks/server_load.py`` measures the whole server over real WebSockets, but its wall-clock
figures move with whatever else runs on the machine. This one runs the same path in one process
on CPU time, so that a change to the server can be measured on a busy machine: a
:class:`~campfire.server.tables.TableManager` on a fresh database (an SQLite file in a temporary
directory, or a fresh schema of a PostgreSQL database), ``--tables`` tables of ``--players``
reserved seats with one connection per seat plus ``--spectators`` spectators each; the seats
play random legal actions through ``TableManager.act`` (parse, legality, apply, the commit, one
delta per seat and language, each encoded once), round robin over the tables, ``--concurrent``
tables at once (their commits share transactions). Every frame pushed is taken as the
connection's writer would take it (the first round's are parsed back as a check); ``--patches``
makes every connection one of display patches. It reports the
CPU milliseconds per action (the process's CPU time: the event loop, the commit thread and the
database driver; PostgreSQL's own work is not counted) and the mean frame size; ``--profile
FILE`` writes cProfile statistics of the event loop's thread. ``--metrics`` counts as
``campfire serve`` does (``server/metrics.py``: the action latency, commits, bot queue);
``--metrics-cost N`` plays N rounds of a run without and a run with them, in alternating order,
and reports each run's CPU per action and the difference of the medians.

    .venv/bin/python benchmarks/server_frames.py --actions 2000
    .venv/bin/python benchmarks/server_frames.py --actions 2000 --metrics-cost 5
    .venv/bin/python benchmarks/server_frames.py --database-url \\
        postgresql+psycopg://postgres@127.0.0.1:5432/test --concurrent 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import _postgres_schema

from campfire.server.db import make_engine, migrate, session_factory
from campfire.server.tables import Connection, LiveTable, TableManager

try:
    from campfire.server.wire import encode
except ImportError:  # the server before frames were encoded once (to compare)

    def encode(frame: Mapping[str, Any]) -> str:
        return json.dumps(frame, ensure_ascii=False)


@contextlib.contextmanager
def _database(url: str | None) -> Iterator[str]:
    if url is not None and url.startswith("postgresql"):
        with _postgres_schema(url) as schema_url:
            yield schema_url
        return
    if url is not None:
        yield url
        return
    home = Path(tempfile.mkdtemp(prefix="campfire-frames-"))
    try:
        yield f"sqlite:///{home / 'campfire.db'}"
    finally:
        shutil.rmtree(home, ignore_errors=True)


async def _play_one(
    manager: TableManager, live: LiveTable, tokens: dict[int, str], rng: random.Random
) -> None:
    """One random legal action at ``live`` (a rematch first if its game is over)."""
    if live.status == "finished":
        seed = rng.getrandbits(32)
        for token in tokens.values():  # one proposes, every other person accepts
            if live.status == "finished":
                manager.rematch(live, token, seed=seed)
        return
    assert live.table is not None
    state = live.table.state
    seat = rng.choice(list(state.seats_to_act()))
    index = rng.randrange(len(state.legal_actions(seat)))
    action = str(state.legal_actions(seat)[index])
    await manager.act(live, seat, {"type": "action", "seq": live.seq, "action": action})


def _drain(connections: list[Connection], check: bool) -> tuple[int, int]:
    """Take the frames pushed (encoding those that are not text yet, as the writer would)."""
    frames = size = 0
    for conn in connections:
        while not conn.queue.empty():
            frame = conn.queue.get_nowait()
            assert frame is not None
            text = frame if isinstance(frame, str) else encode(frame)
            if check:  # not counted in the CPU per action
                assert json.loads(text)["type"] in ("snapshot", "delta")
            frames += 1
            size += len(text)
    return frames, size


async def run(
    *,
    actions: int,
    database_url: str | None,
    game: str,
    players: int,
    spectators: int,
    tables: int,
    concurrent: int,
    seed: int,
    profile: str | None,
    patches: bool = False,
    metrics: bool = False,
) -> dict[str, Any]:
    """Play ``actions`` actions; the report (CPU per action, frames, commits)."""
    with _database(database_url) as url:
        engine = make_engine(url)
        await asyncio.to_thread(migrate, engine)
        manager = TableManager(session_factory(engine))
        if metrics:
            from campfire.server.metrics import Metrics

            manager.metrics = manager.writer.metrics = Metrics()
        rng = random.Random(seed)
        made: list[tuple[LiveTable, dict[int, str], list[Connection]]] = []
        for _ in range(tables):
            seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(players)]
            live, tokens = manager.create({"game": game, "players": players, "seats": seats})
            manager.start(live, tokens[0], seed=rng.getrandbits(32))
            asks: dict[str, Any] = {"patches": True} if patches else {}  # (the server before
            conns = [Connection(s, **asks) for s in range(players)]  # patches takes none)
            conns += [Connection(None, **asks) for _ in range(spectators)]
            live.connections.update(conns)
            made.append((live, tokens, conns))
        for _, _, conns in made:
            _drain(conns, check=True)
        profiler = cProfile.Profile() if profile else None
        done = frames = size = 0
        cpu, wall = time.process_time(), time.perf_counter()
        if profiler is not None:
            profiler.enable()
        turn = 0
        while done < actions:
            group = [made[(turn + k) % tables] for k in range(min(concurrent, tables))]
            turn += len(group)
            await asyncio.gather(*(_play_one(manager, live, t, rng) for live, t, _ in group))
            for _, _, conns in group:
                f, s = _drain(conns, check=done == 0)
                frames, size = frames + f, size + s
            done += len(group)
        if profiler is not None and profile is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        writer = getattr(manager, "writer", None)  # (absent before group commit)
        await manager.close()
        engine.dispose()
    return {
        "game": game,
        "players": players,
        "spectators": spectators,
        "database": "sqlite" if database_url is None else database_url.split(":", 1)[0],
        "patches": patches,
        "metrics": metrics,
        "actions": done,
        "cpu_ms_per_action": 1000 * cpu / done,
        "wall_ms_per_action": 1000 * wall / done,
        "frames_per_action": frames / done,
        "mean_frame_chars": size / max(1, frames),
        "actions_per_commit": writer.committed / max(1, writer.commits) if writer else 1.0,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--actions", type=int, default=2000, help="actions to play (2000)")
    p.add_argument("--database-url", default=None, help="default: a temporary SQLite file")
    p.add_argument("--game", default="tracker", help="the game (tracker)")
    p.add_argument("--players", type=int, default=4, help="seats per table (4)")
    p.add_argument("--spectators", type=int, default=1, help="spectators per table (1)")
    p.add_argument("--tables", type=int, default=20, help="tables (20)")
    p.add_argument(
        "--concurrent", type=int, default=1, help="tables acting at once: commits share (1)"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the deals and choices (1)")
    p.add_argument("--profile", metavar="FILE", default=None, help="write cProfile statistics")
    p.add_argument(
        "--patches",
        action="store_true",
        help="connections of display patches (patch=1, as the browser client asks)",
    )
    p.add_argument("--metrics", action="store_true", help="count as campfire serve does")
    p.add_argument(
        "--metrics-cost",
        metavar="N",
        type=int,
        default=0,
        help="N rounds of a run without and one with --metrics, interleaved: their CPU per action",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)
    if min(args.actions, args.tables, args.concurrent, args.players) < 1 or args.spectators < 0:
        p.error("--actions, --tables, --concurrent and --players are at least 1")
    if args.metrics_cost > 0:
        return _metrics_cost(args)
    report = asyncio.run(
        run(
            actions=args.actions,
            database_url=args.database_url,
            game=args.game,
            players=args.players,
            spectators=args.spectators,
            tables=args.tables,
            concurrent=args.concurrent,
            seed=args.seed,
            profile=args.profile,
            patches=args.patches,
            metrics=args.metrics,
        )
    )
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"{report['database']}: {report['game']}, {report['players']} players + "
        f"{report['spectators']} spectators{', patches' if report['patches'] else ''}, "
        f"{report['actions']} actions: "
        f"{report['cpu_ms_per_action']:.2f} ms CPU an action "
        f"({report['wall_ms_per_action']:.2f} ms wall), "
        f"{report['frames_per_action']:.1f} frames of {report['mean_frame_chars']:.0f} chars, "
        f"{report['actions_per_commit']:.1f} actions a commit"
    )
    return 0


def _metrics_cost(args: argparse.Namespace) -> int:
    """Runs without and with metrics, alternating which comes first; their CPU per action."""
    import statistics

    cpu: dict[bool, list[float]] = {False: [], True: []}
    for round_ in range(args.metrics_cost):
        for counted in (False, True) if round_ % 2 == 0 else (True, False):
            report = asyncio.run(
                run(
                    actions=args.actions,
                    database_url=args.database_url,
                    game=args.game,
                    players=args.players,
                    spectators=args.spectators,
                    tables=args.tables,
                    concurrent=args.concurrent,
                    seed=args.seed + round_,
                    profile=None,
                    patches=args.patches,
                    metrics=counted,
                )
            )
            cpu[counted].append(report["cpu_ms_per_action"])
    off, on = statistics.median(cpu[False]), statistics.median(cpu[True])
    result = {
        "rounds": args.metrics_cost,
        "actions": args.actions,
        "cpu_ms_per_action": {"without": cpu[False], "with": cpu[True]},
        "median_ms": {"without": off, "with": on, "difference": on - off},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{args.metrics_cost} rounds of {args.actions} actions, CPU ms an action: without "
        f"metrics {', '.join(f'{x:.3f}' for x in cpu[False])} (median {off:.3f}); with "
        f"{', '.join(f'{x:.3f}' for x in cpu[True])} (median {on:.3f}); "
        f"difference {1000 * (on - off):+.1f} µs ({100 * (on - off) / off:+.1f} %)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
