"""Speed of ``campfire admin backup`` and ``campfire admin purge --export`` on an SQLite file.

It builds a database of ``--tables`` finished Tracker tables (two players, one whole game
each, about 130 actions and its record, played by the engine with a random legal action at
every step), then times, ``--runs`` times each:

- ``backup``: the online copy (SQLite's backup API in one step, the copy checked with
  ``integrity_check``, synced and renamed) — what ``campfire admin backup`` does;
- ``purge``: ``campfire admin purge --finished-before 2999-01-01 --export DIR`` of every table
  (each record written, synced, read back and replayed, then the table deleted), on a fresh
  copy of the database each run.

Everything lives in a temporary directory, removed at the end.

    .venv/bin/python benchmarks/admin_ops.py --tables 500 --runs 5
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert

import campfire
from campfire.cli import main
from campfire.core import Match
from campfire.server.admin.backup import copy_sqlite
from campfire.server.db import make_engine, migrate
from campfire.server.models import ActionRow, RecordRow, SeatRow, TableRow


def build(path: Path, tables: int) -> int:
    """A database of ``tables`` finished games; the number of actions."""
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    game = campfire.get_game("tracker")
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    total = 0
    with engine.begin() as connection:
        for table in range(1, tables + 1):
            rng = random.Random(table)
            match = Match(game, 2, seed=table)
            while not match.state.is_terminal():
                seat = match.state.seats_to_act()[0]
                match.play(seat, rng.choice(match.state.legal_actions(seat)))
            connection.execute(
                insert(TableRow).values(
                    id=table, game="tracker", options={}, players=2, status="finished",
                    created=when, game_number=1, seed=table,
                )
            )  # fmt: skip
            connection.execute(
                insert(SeatRow),
                [{"table_id": table, "seat": s, "kind": "human", "nickname": f"P{s}"}
                 for s in (0, 1)],
            )  # fmt: skip
            connection.execute(
                insert(ActionRow),
                [
                    {"table_id": table, "game_number": 1, "seq": i, "seat": seat,
                     "notation": str(action), "received": when}
                    for i, (seat, action) in enumerate(match.actions)
                ],
            )  # fmt: skip
            connection.execute(
                insert(RecordRow).values(
                    table_id=table, game_number=1, record=match.record({"table": table}).dumps(),
                    finished=when,
                )
            )  # fmt: skip
            total += len(match.actions)
    engine.dispose()
    return total


def _spread(times: list[float]) -> dict[str, float]:
    return {
        "median_s": round(statistics.median(times), 3),
        "min_s": round(min(times), 3),
        "max_s": round(max(times), 3),
    }


def run(tables: int, runs: int) -> dict[str, Any]:
    """Build the database and time both operations; the figures."""
    with tempfile.TemporaryDirectory(prefix="campfire-admin-bench-") as folder:
        base = Path(folder)
        database = base / "campfire.db"
        actions = build(database, tables)
        backups = []
        for i in range(runs):
            target = base / f"backup-{i}.db"
            start = time.perf_counter()
            copy_sqlite(database, target)
            backups.append(time.perf_counter() - start)
            target.unlink()
        purges = []
        for i in range(runs):
            copy = base / f"purge-{i}.db"
            copy_sqlite(database, copy)
            export = base / f"export-{i}"
            argv = ["admin", "purge", "--finished-before", "2999-01-01", "--export", str(export)]
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                status = main([*argv, "--database-url", f"sqlite:///{copy}"])
            purges.append(time.perf_counter() - start)
            assert status == 0 and len(list(export.iterdir())) == tables
        return {
            "tables": tables,
            "actions": actions,
            "database_bytes": database.stat().st_size,
            "runs": runs,
            "backup": _spread(backups),
            "purge_with_export": _spread(purges),
            "purge_per_table_ms": round(statistics.median(purges) / tables * 1000, 2),
        }


def _main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps(run(args.tables, args.runs), indent=2))


if __name__ == "__main__":
    _main()
