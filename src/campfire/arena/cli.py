"""The ``campfire sim`` and ``campfire rate`` commands (added to the parser by ``campfire.cli``).

Bad input raises :class:`~campfire.core.CampfireError`, which the ``campfire`` command prints as
one line with exit status 2. ``sim`` exits with 1 when some games failed (an agent raised or
returned an illegal action), 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

from campfire.core import CampfireError, OptionError, Record, parse_option_assignments
from campfire.core.validate import MAX_PLAYERS_ARG, int_arg, seed_arg
from campfire.i18n import _, current, ngettext
from campfire.progress import progress_bar

__all__ = ["MAX_GAMES", "MAX_JOBS", "add_arena_commands", "split_agents"]

#: The most games one ``campfire sim`` run plays.
MAX_GAMES = 10_000_000
#: The most worker processes of one run.
MAX_JOBS = 1024


def split_agents(items: list[str]) -> list[str]:
    """Split ``--agents`` values at commas, keeping each agent's ``key=value`` parameters.

    An item with ``=`` but no ``:`` continues the parameters of the agent before it.

    >>> split_agents(["ismcts:iterations=500,rollout=heuristic,random", "heuristic"])
    ['ismcts:iterations=500,rollout=heuristic', 'random', 'heuristic']
    """
    agents: list[str] = []
    for value in items:
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            if "=" in item and ":" not in item and agents:
                agents[-1] += "," + item
            else:
                agents.append(item)
    return agents


def add_arena_commands(sub: Any) -> None:
    """Add ``sim`` and ``rate`` to the ``campfire`` command's subparsers."""
    p = sub.add_parser(
        "sim",
        help=_("simulate many games between agents and print statistics"),
        description=_(
            "Play GAMES games of GAME between agents, in parallel, and print per-agent and "
            "per-seat statistics. Seats rotate every game; the results depend only on the "
            "seed, not on --jobs or --backend. See docs/arena.md."
        ),
    )
    p.add_argument("game", metavar="GAME", help=_("the game's name (see 'campfire games')"))
    p.add_argument(
        "--players",
        type=int_arg("the player count", 0, MAX_PLAYERS_ARG),
        required=True,
        help=_("number of players"),
    )
    p.add_argument(
        "--agents",
        action="append",
        required=True,
        metavar="AGENT[,AGENT...]",
        help=_(
            "agents with optional parameters (e.g. ismcts:iterations=500,random) or levels "
            "easy/medium/hard; the list repeats to fill the seats"
        ),
    )
    p.add_argument(
        "--games",
        type=int_arg("the number of games", 1, MAX_GAMES),
        required=True,
        help=_("number of games, at most {most}").format(most=current().number(MAX_GAMES)),
    )
    p.add_argument(
        "--seed", type=seed_arg, default=None, help=_("run seed (default: random, printed)")
    )
    p.add_argument(
        "--jobs",
        type=int_arg("the number of jobs", 1, MAX_JOBS),
        default=None,
        help=_("worker processes (default: all cores)"),
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_("a game option (repeatable; see 'campfire rules GAME')"),
    )
    p.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help=_("local worker processes (default) or a Ray cluster"),
    )
    p.add_argument(
        "--address", default=None, help=_("address of an existing Ray cluster (with --backend ray)")
    )
    p.add_argument(
        "--json",
        metavar="PATH",
        default=None,
        help=_("write the statistics as JSON ('-': standard output)"),
    )
    p.add_argument(
        "--plot",
        metavar="PATH",
        default=None,
        help=_("write a plot of the statistics (PATH ends in .png, .svg or .pdf)"),
    )
    p.add_argument(
        "--records", metavar="DIR", default=None, help=_("save every game's record in DIR")
    )
    p.set_defaults(func=cmd_sim)

    p = sub.add_parser(
        "rate",
        help=_("rate agents from saved game records (openskill)"),
        description=_(
            "Rate the players of the finished game records in DIR (for example written by "
            "'campfire sim --records DIR') with openskill and print a leaderboard per game."
        ),
    )
    p.add_argument("dir", metavar="DIR", help=_("a folder of JSON game records"))
    p.add_argument("--verify", action="store_true", help=_("replay every record before rating it"))
    p.add_argument("--json", action="store_true", help=_("print the leaderboards as JSON"))
    p.set_defaults(func=cmd_rate)


#: the image formats ``--plot`` writes, by file name suffix
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def cmd_sim(args: argparse.Namespace) -> int:
    """Run ``campfire sim``."""
    from .runner import prepare, record_name, run
    from .stats import summarize

    options = parse_option_assignments(args.option)
    if args.plot is not None and Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
        raise OptionError(
            _("--plot writes an image: give a file name ending in {suffixes} (got {got})").format(
                suffixes=", ".join(PLOT_SUFFIXES), got=repr(args.plot)
            )
        )
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if args.address is not None and args.backend != "ray":
        raise OptionError(_("--address is for the Ray backend; add --backend ray"))
    if args.jobs is not None and args.jobs < 1:
        raise OptionError(_("--jobs must be at least 1 (got {got})").format(got=args.jobs))
    config = prepare(
        args.game,
        args.players,
        split_agents(args.agents),
        args.games,
        seed,
        options,
        records=args.records is not None,
    )
    to_stdout = args.json == "-"
    show_bar = not to_stdout and sys.stderr.isatty()
    with progress_bar(show_bar, _("games"), config.games) as progress:
        result = run(
            config,
            jobs=args.jobs,
            backend=args.backend,
            address=args.address,
            records_dir=args.records,
            progress=progress,
        )
    summary = summarize(result)
    failure_dir: Path | None = Path(args.records) if args.records is not None else None
    if summary.failures and failure_dir is None:
        failure_dir = Path(tempfile.mkdtemp(prefix="campfire-failures-"))
        for failure in summary.failures:
            Record.from_json(failure.record).save(
                failure_dir / record_name(failure.game, config.games, failed=True)
            )
    if args.json is not None:
        text = json.dumps(summary.to_json(), indent=1, ensure_ascii=False)
        if to_stdout:
            print(text)
        else:
            _write_text(Path(args.json), text + "\n")
    if args.plot is not None:
        from .plot import plot_summary

        plot_summary(summary, args.plot)
    if not to_stdout:
        print(summary.to_text())
    if summary.failures:
        failed = len(summary.failures)
        print(
            ngettext(
                "campfire: {count} game(s) failed; their partial records are in {folder} "
                "(replay one with 'campfire replay FILE')",
                "campfire: {count} game(s) failed; their partial records are in {folder} "
                "(replay one with 'campfire replay FILE')",
                failed,
            ).format(count=failed, folder=failure_dir),
            file=sys.stderr,
        )
        return 1
    return 0


def _write_text(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CampfireError(
            _("cannot write {path}: {reason}").format(path=path, reason=exc.strerror or exc)
        ) from None


def cmd_rate(args: argparse.Namespace) -> int:
    """Run ``campfire rate``."""
    from .ratings import load_records, rate_records

    records, skipped = load_records(args.dir)
    if not records:
        raise CampfireError(
            _(
                "no finished game records in {folder} (write some with 'campfire sim ... "
                "--records DIR')"
            ).format(folder=args.dir)
        )
    boards = rate_records(records, verify=args.verify)
    if args.json:
        print(json.dumps([b.to_json() for b in boards], indent=1, ensure_ascii=False))
        return 0
    print("\n\n".join(b.to_text() for b in boards))
    notes = []
    if n := skipped["unfinished"]:
        notes.append(
            ngettext("{count} unfinished record(s)", "{count} unfinished record(s)", n).format(
                count=n
            )
        )
    if n := skipped["not_a_record"]:
        notes.append(
            ngettext(
                "{count} file(s) that are not game records",
                "{count} file(s) that are not game records",
                n,
            ).format(count=n)
        )
    if notes:
        print(_("left out: {notes}").format(notes=", ".join(notes)))
    return 0
