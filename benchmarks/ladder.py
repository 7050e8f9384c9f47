"""The ladder of difficulty levels: a round robin per game, rated with openskill.

For every game, every pair of the levels (by default ``random``, ``easy``, ``medium``, ``hard``
and the game's ``heuristic`` bot, left out where a level *is* the heuristic) plays ``--games``
two-player games through the arena (:func:`campfire.arena.run`, seats rotating, seeds derived
from ``--seed``, the game and the pair). The records are rated together with openskill
(:func:`campfire.arena.rate_records`, Plackett–Luce), and for each pair the win share of the
first level with its Wilson 95% interval is kept, so that "each level clearly above the one
below" can be read off the adjacent pairs. The mean thinking time per move with a choice of
each level (the budget of ``docs/strength.md``) comes with it.

    .venv/bin/python benchmarks/ladder.py [GAME ...] [--games 10] [--search-games N]
        [--seed 5100] [--levels random,easy,medium,hard,heuristic] [--write docs/strength.md]
        [--json PATH]

A pair with a searching level (an agent other than ``random`` and ``heuristic``) costs up to a
thousand times the CPU of a pair of heuristic bots, so ``--search-games`` sets its games apart
(default: ``--games``): the cheap steps of a ladder can be played at a size that shows them
clearly while the searching pairs get what the machine affords. Each pair's line goes to
standard error as it finishes, with its time.

``--write`` replaces the part of the file between ``<!-- ladder:begin -->`` and
``<!-- ladder:end -->`` with the tables and the command that made them. A long ladder can be
played one game at a time (``--json``) and joined afterwards with ``--combine A.json B.json
--write docs/strength.md``, each game's table showing its own command. Games run one after the
other in this process (one core): the results depend only on the seed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import campfire
from campfire.arena import derive_seed, prepare, rate_records, run, summarize
from campfire.core import Record

LEVELS = ("random", "easy", "medium", "hard", "heuristic")
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"


def levels_for(game: str, levels: Sequence[str], players: int = 2) -> tuple[list[str], list[str]]:
    """The levels to play for ``game`` and those left out (a level that is the heuristic)."""
    specs = campfire.get_game(game).difficulty_levels(players)
    same = set(specs.values())
    kept, dropped = [], []
    for level in levels:
        if level == "heuristic" and "heuristic" in same:
            dropped.append(level)
        else:
            kept.append(level)
    return kept, dropped


def searches(game: str, level: str, players: int = 2) -> bool:
    """Whether ``level`` of ``game`` is a searching agent (not ``random`` or a ``heuristic``)."""
    return _spec(game, level, players).split(":", 1)[0] not in ("random", "heuristic")


def run_game(
    game: str,
    levels: Sequence[str],
    games: int,
    seed: int,
    players: int = 2,
    search_games: int | None = None,
) -> dict[str, Any]:
    """Play the round robin of ``levels`` for one game and rate it (see the module docstring).

    ``search_games`` (default ``games``) is the number of games of a pair with a searching level.
    """
    kept, dropped = levels_for(game, levels, players)
    records: list[Record] = []
    pairs = []
    think: dict[str, list[float]] = {lv: [0.0, 0.0] for lv in kept}  # seconds, decisions
    start = time.perf_counter()
    for low, high in itertools.combinations(kept, 2):
        # the stronger one first: a later level, or a level against the heuristic
        a, b = (low, high) if high == "heuristic" else (high, low)
        pair_seed = derive_seed(seed, "ladder", game, a, b)
        searching = searches(game, a, players) or searches(game, b, players)
        n = games if search_games is None or not searching else search_games
        began = time.perf_counter()
        config = prepare(game, players, [a, b], n, pair_seed, records=True)
        result = run(config, jobs=1)
        summary = summarize(result)
        for r in result.completed:
            assert r.record is not None
            records.append(Record.from_json(r.record))
            for seat, label in enumerate(r.agents):
                think[label][0] += r.decision_seconds[seat]
                think[label][1] += r.decisions[seat]
        first = next(s for s in summary.agents if s.agent == a)
        print(
            f"{game}: {a} vs {b}: {first.win_share:.3f} of {first.games} games "
            f"({time.perf_counter() - began:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
        pairs.append(
            {
                "a": a,
                "b": b,
                "seed": pair_seed,
                "games": first.games,
                "failed": summary.failed,
                "win_share": first.win_share,
                "interval": list(first.win_share_ci),
            }
        )
    (board,) = rate_records(records)
    rows = [
        {
            **row.to_json(),
            "spec": _spec(game, row.player, players),
            "s_per_choice": think[row.player][0] / max(1.0, think[row.player][1]),
        }
        for row in board.rows
    ]
    return {
        "game": game,
        "players": players,
        "games_per_pair": games,
        "search_games": games if search_games is None else search_games,
        "levels": kept,
        "left_out": dropped,
        "ratings": rows,
        "pairs": pairs,
        "seconds": time.perf_counter() - start,
    }


def _spec(game: str, level: str, players: int = 2) -> str:
    return campfire.get_game(game).difficulty_levels(players).get(level, level)


def run_ladder(
    games: Sequence[str],
    levels: Sequence[str],
    per_pair: int,
    seed: int,
    players: int = 2,
    search_games: int | None = None,
) -> list[dict[str, Any]]:
    """The ladder of every game in ``games``."""
    return [run_game(g, levels, per_pair, seed, players, search_games) for g in games]


def to_markdown(report: Sequence[dict[str, Any]], command: str | None = None) -> str:
    """The ladder as Markdown: per game a rating table and the pairs, with the command.

    ``command`` is the command line of the whole report; without it each game's entry shows the
    command that played it (its ``"command"``, kept in the JSON report).
    """
    lines = [f"Command: `{command}`", ""] if command else []
    for entry in report:
        title = campfire.get_game(entry["game"]).title
        per_pair = entry["games_per_pair"]
        searched = entry.get("search_games", per_pair)
        size = f"{per_pair} games per pair"
        if searched != per_pair:
            size += f", {searched} per pair with a searching level"
        lines.append(
            f"**{title}** ({entry['players']} players, {size}, {entry['seconds'] / 60:.1f} min)"
        )
        if not command and entry.get("command"):
            lines += ["", f"Command: `{entry['command']}`"]
        if entry["left_out"]:
            lines.append(f"(left out: {', '.join(entry['left_out'])}, the same bot as a level)")
        lines += [
            "",
            "| # | level | agent | rating (μ − 3σ) | μ | σ | games | win share "
            "| s/move with a choice |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for i, row in enumerate(entry["ratings"], 1):
            lines.append(
                f"| {i} | {row['player']} | `{row['spec']}` | {row['rating']:.2f} | "
                f"{row['mu']:.2f} | {row['sigma']:.2f} | {row['games']} | "
                f"{row['win_share']:.3f} | {row['s_per_choice']:.3f} |"
            )
        lines += [
            "",
            "| pair | games | win share of the first | 95% interval |",
            "|---|---|---|---|",
        ]
        for p in entry["pairs"]:
            low, high = p["interval"]
            failed = f" ({p['failed']} failed)" if p["failed"] else ""
            lines.append(
                f"| {p['a']} vs {p['b']} | {p['games']}{failed} | {p['win_share']:.3f} | "
                f"{low:.3f}–{high:.3f} |"
            )
        lines.append("")
    return "\n".join(lines)


def write_section(path: Path, markdown: str) -> None:
    """Replace the ladder section of ``path`` (between the markers) with ``markdown``."""
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{path} has no {BEGIN} … {END} section to replace")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n{markdown}\n{END}{tail}", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the ladder and print (or write) its tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=[g.name for g in campfire.all_games()])
    parser.add_argument("--games", dest="per_pair", type=int, default=10, help="games per pair")
    parser.add_argument(
        "--search-games",
        type=int,
        metavar="PER_PAIR",
        help="games per pair with a searching level (default: --games)",
    )
    parser.add_argument("--seed", type=int, default=5100, help="run seed (evaluation range)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--levels", default=",".join(LEVELS), help="agents, comma-separated")
    parser.add_argument("--write", type=Path, help="the Markdown file whose section to replace")
    parser.add_argument("--json", type=Path, help="write the full report as JSON")
    parser.add_argument(
        "--combine",
        type=Path,
        nargs="+",
        metavar="JSON",
        help="play nothing: join the JSON reports of earlier runs (each with its own command)",
    )
    args = parser.parse_args(argv)
    shown = ["benchmarks/ladder.py", *(sys.argv[1:] if argv is None else argv)]
    command = ".venv/bin/python " + shlex.join(shown)
    if args.combine:
        report = [e for path in args.combine for e in json.loads(path.read_text("utf-8"))]
        markdown = to_markdown(report)
    else:
        levels = [lv.strip() for lv in args.levels.split(",")]
        report = run_ladder(
            args.games, levels, args.per_pair, args.seed, args.players, args.search_games
        )
        for entry in report:
            entry["command"] = command
        markdown = to_markdown(report, command)
    print(markdown)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    if args.write:
        write_section(args.write, markdown)


if __name__ == "__main__":
    main()
