"""Turn-based load: N turn-based tables, one move per table per minute, and what they cost.

The server's table services (``campfire.server.tables.TableManager`` on a real database: an
SQLite file by default, or ``--database-url``) hold ``--tables`` turn-based tables of two people
(Tracker, one day a move). Each is started and played ``--warm-moves`` actions deep first (not
measured), so that rebuilding it replays a log of some length; then every table is dropped from
memory, as an idle turn-based table is (``campfire.server.turns``).

The measured window lasts ``--minutes`` minutes, after ``--settle-minutes`` minutes of the same
play not measured. Each table gets one move a minute, the tables' moves spread evenly over the
minute (1,000 tables: a move every 60 ms). A move goes the way a
person's does once their message is read: the table is looked up (loaded from the database and
its log replayed when it is not in memory), the action checked and applied, committed to the
log with the table's new deadlines, its frames built (nobody is connected) and the clock's timer
armed. Meanwhile the server's turn keeper runs as in ``campfire serve``: every
``--check-seconds`` it drops the tables idle for ``--idle-seconds`` and looks for passed
deadlines. With the server's default (300 s) a table moved every minute stays in memory; with
``--idle-seconds 20`` every table is out of memory between its moves, the costliest case: each
move loads its table from the database and replays its log.

The figure is the process's CPU time (``time.process_time``: the event loop, the log writer's
threads, everything) over the window's wall time: the share of one core. The WebSocket's
handshake and frame I/O of the person's connection are not in it (a browser connects, reads a
snapshot, sends one action; ``benchmarks/server_load.py`` measures that path for live play).
The driver's own work (choosing an action) is in it and small.

    .venv/bin/python benchmarks/turn_based_load.py --tables 1000 --minutes 2
    .venv/bin/python benchmarks/turn_based_load.py --tables 1000 --minutes 2 --idle-seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from campfire.server.db import make_engine, migrate, session_factory
from campfire.server.tables import TableManager
from campfire.server.turns import TURN_IDLE_SECONDS

TURN = {"kind": "turn", "seconds": 86_400, "on_timeout": "loss"}


async def _move(manager: TableManager, table: int, rng: random.Random) -> bool:
    """One person's move at ``table`` (loaded if need be); whether one was made."""
    live = manager.load(table)
    if live is None or live.table is None or live.status != "running":
        return False
    state = live.table.state
    seats = [s for s in state.seats_to_act() if s not in live.table.agents]
    if not seats:
        return False
    seat = seats[0]
    action = str(rng.choice(state.legal_actions(seat)))
    await manager.act(live, seat, {"type": "action", "seq": live.seq, "action": action})
    return True


async def run(args: argparse.Namespace) -> dict[str, float]:
    """Set the tables up, then measure the window; the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'turns.db'}"
        engine = make_engine(url)
        migrate(engine)
        manager = TableManager(session_factory(engine), bot_workers=1)
        manager.turns.interval = args.check_seconds
        manager.turns.idle = args.idle_seconds
        rng = random.Random(args.seed)
        ids = []
        for i in range(args.tables):
            seats = [{"kind": "reserved", "nickname": f"P{i}-{s}"} for s in range(2)]
            live, tokens = manager.create(
                {"game": "tracker", "players": 2, "seats": seats, "clock": TURN}
            )
            manager.start(live, tokens[0], seed=args.seed + i)
            for _ in range(args.warm_moves):
                await _move(manager, live.id, rng)
            ids.append(live.id)
        manager.turns.idle = 0.0
        manager.turns.sweep()  # every table waits in the database, as idle ones do
        manager.turns.idle = args.idle_seconds
        assert not manager.tables
        keeper = manager.spawn(manager.turns.run())
        period = 60.0 / args.tables
        moves = skipped = 0
        in_memory: list[int] = []
        durations: list[float] = []
        loop = asyncio.get_running_loop()
        begin = loop.time()
        settle = args.settle_minutes * args.tables
        start_wall, start_cpu = begin, time.process_time()
        for k in range((args.settle_minutes + args.minutes) * args.tables):
            if k == settle:
                start_wall, start_cpu = loop.time(), time.process_time()
                moves = skipped = 0
                in_memory, durations = [], []
            due = begin + k * period
            await asyncio.sleep(max(0.0, due - loop.time()))
            began = time.perf_counter()
            if await _move(manager, ids[k % args.tables], rng):
                moves += 1
                durations.append(time.perf_counter() - began)
            else:
                skipped += 1
            if k % 50 == 0:
                in_memory.append(len(manager.tables))
        end = begin + (args.settle_minutes + args.minutes) * 60.0
        await asyncio.sleep(max(0.0, end - loop.time()))
        wall = loop.time() - start_wall
        cpu = time.process_time() - start_cpu
        keeper.cancel()
        await manager.close()
        engine.dispose()
    durations.sort()
    return {
        "tables": args.tables,
        "minutes": args.minutes,
        "moves": moves,
        "skipped (game over)": skipped,
        "wall s": round(wall, 1),
        "cpu s": round(cpu, 2),
        "share of a core %": round(100 * cpu / wall, 2),
        "move ms median": round(1000 * statistics.median(durations), 2),
        "move ms p99": round(1000 * durations[int(0.99 * (len(durations) - 1))], 2),
        "tables in memory (mean of samples)": round(statistics.mean(in_memory), 1),
        "tables in memory (most)": max(in_memory),
        "max RSS MiB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--minutes", type=int, default=2)
    parser.add_argument("--warm-moves", type=int, default=20)
    parser.add_argument("--settle-minutes", type=int, default=1)
    parser.add_argument("--idle-seconds", type=float, default=TURN_IDLE_SECONDS)
    parser.add_argument("--check-seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="an empty database (default: SQLite)")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args))
    for key, value in figures.items():
        print(f"{key:36} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
