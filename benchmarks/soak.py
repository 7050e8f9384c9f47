"""The soak: many bots-only games of every game, checking that every one ends and replays.

Every game, every player count, every option combination (``Options.combinations()``, as the
conformance suite enumerates them), with random agents and the game's bots at every difficulty
level. Each game is played by the arena's runner (``campfire.arena.runner.play_game``, the same
loop as ``campfire sim``) and then checked:

- it ended, within the game's ``playout_bound`` (the runner stops a game at 5 times that bound
  and reports it as too long);
- no agent raised or chose an illegal action, and the engine refused no legal action;
- its record survives JSON and replays (``campfire.core.replay``) to the same outcome;
- in every ``--deep-every``-th game, at some steps of a second replay (every ``--check-every``
  actions): a clone, with a legal action applied to it, leaves the original unchanged; the
  position round-trips through its JSON; and at the end, every earlier clone is still what it
  was.

The games of each game are split into three kinds:

- *bulk*: random agents and every level that does not search (and the default heuristic), in
  lineups of one kind and mixed, over every player count and option combination in turn;
- *search*: the levels that search (ISMCTS, or any agent configured by its ``iterations``),
  with their iterations cut to ``--search-iterations`` (the same search, rollouts and memory,
  only shorter), one search seat among fast agents;
- *levels*: every searching level's real configuration, ``--level-games`` games each (slow).

Run it from the repository root::

    .venv/bin/python benchmarks/soak.py                        # the full soak (10,000 per game)
    .venv/bin/python benchmarks/soak.py --games-per-game 200 --level-games 0
    .venv/bin/python benchmarks/soak.py --games tracker --json soak.json

The exit status is 0 when no game faulted, 1 otherwise (the faults are listed, and the records
of failed games written to ``--failures``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

import campfire
from campfire.agents import parse_agent_spec
from campfire.arena.runner import GameTask, agent_label, derive_seed, play_game
from campfire.core import Game, Match, Options, Record, State, replay

DEFAULT_GAMES = 10_000


@dataclass(frozen=True)
class Planned:
    """One game of the soak: its kind, player count, options and lineup (one spec per seat)."""

    kind: str
    players: int
    options: Options
    lineup: tuple[str, ...]


@dataclass
class GameFigures:
    """What the soak saw of one game (Tracker, Dudab, ...)."""

    game: str
    games: int = 0
    actions: int = 0
    longest: int = 0
    replays: int = 0
    clone_checks: int = 0
    seconds: float = 0.0
    by_kind: dict[str, int] = field(default_factory=dict)
    players: set[int] = field(default_factory=set)
    cases: set[str] = field(default_factory=set)
    agents: set[str] = field(default_factory=set)
    faults: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return {
            "game": self.game,
            "games": self.games,
            "actions": self.actions,
            "longest_game": self.longest,
            "replays": self.replays,
            "clone_checks": self.clone_checks,
            "seconds": round(self.seconds, 1),
            "by_kind": dict(self.by_kind),
            "player_counts": sorted(self.players),
            "option_cases": len(self.cases),
            "agents": sorted(self.agents),
            "faults": list(self.faults),
        }


@dataclass
class SoakSummary:
    """The whole soak: figures per game, and whether it stopped at its time limit."""

    figures: list[GameFigures]
    seconds: float
    command: str
    planned: int
    stopped_early: bool = False

    @property
    def games(self) -> int:
        """Games played."""
        return sum(f.games for f in self.figures)

    @property
    def faults(self) -> list[str]:
        """Every fault, one line each."""
        return [fault for f in self.figures for fault in f.faults]

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict."""
        return {
            "command": self.command,
            "planned": self.planned,
            "games": self.games,
            "actions": sum(f.actions for f in self.figures),
            "faults": len(self.faults),
            "seconds": round(self.seconds, 1),
            "stopped_early": self.stopped_early,
            "per_game": [f.to_json() for f in self.figures],
        }


def _label(options: Options) -> str:
    return ",".join(f"{k}={v}" for k, v in options.non_default().items()) or "default"


def _is_search(spec: str) -> bool:
    """Whether the agent searches: ISMCTS, or any agent configured by a number of iterations
    (a game's own simulating bot, such as a real-time game's claim search)."""
    name, params = parse_agent_spec(spec)
    return name == "ismcts" or "iterations" in params


def _shortened(spec: str, iterations: int) -> str:
    """A search spec with its iterations cut (its other parameters kept)."""
    name, params = parse_agent_spec(spec)
    params["iterations"] = str(iterations)
    params.pop("seconds", None)
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def _level_specs(game: Game[Any], players: int) -> tuple[list[str], list[str]]:
    """The fast agent specs (and the heuristic) and the searching ones at ``players``.

    A game's levels may differ with the player count (``Game.difficulty_levels``).
    """
    levels = game.difficulty_levels(players)
    fast = list(dict.fromkeys([s for s in levels.values() if not _is_search(s)] + ["heuristic"]))
    searching = [s for s in dict.fromkeys(levels.values()) if _is_search(s)]
    return fast, searching


def plan(
    game: Game[Any],
    games: int,
    seed: int,
    *,
    search_games: int,
    search_iterations: int,
    level_games: int,
) -> list[Planned]:
    """The games of the soak for ``game``: levels first, then search, then bulk (see the module).

    The bulk cycles through every (player count, options) case, player counts fastest, so a
    run of at least as many games as cases covers them all; lineups are drawn at random.
    """
    players = list(range(game.min_players, game.max_players + 1))
    fast, searching = _level_specs(game, players[0])
    combos = list(game.options_type.combinations())
    default = game.options_type()
    cases = [(p, o) for o in combos for p in players]
    lineups: list[list[str]] = [["random"]]
    lineups += [[s] for s in fast]
    lineups += [[s, "random"] for s in fast]
    lineups.append([*fast, "random"])
    rng = random.Random(derive_seed(seed, game.name, "plan"))

    def seats(lineup: Sequence[str], n: int) -> tuple[str, ...]:
        start = rng.randrange(len(lineup))  # seats rotate: every agent gets every seat
        return tuple(lineup[(start + i) % len(lineup)] for i in range(n))

    out: list[Planned] = []
    for i in range(level_games):
        n = players[i % len(players)]
        fast_n, searching_n = _level_specs(game, n)  # a level may differ with the player count
        for spec in searching_n:
            lineup = [fast_n[(i + s) % len(fast_n)] for s in range(n)]
            lineup[rng.randrange(n)] = spec  # one seat searches, as configured
            out.append(Planned("levels", n, default, tuple(lineup)))
    short = [_shortened(s, search_iterations) for s in searching]
    for i in range(search_games if short else 0):
        n = players[i % len(players)]
        options = combos[(i // len(players)) % len(combos)]
        lineup = [short[i % len(short)], *rng.sample(["random", *fast], k=1)]
        out.append(Planned("search", n, options, seats(lineup, n)))
    for i in range(max(0, games - len(out))):
        n, options = cases[i % len(cases)]
        out.append(Planned("bulk", n, options, seats(lineups[rng.randrange(len(lineups))], n)))
    return out


def _snapshot(state: State) -> str:
    return json.dumps(state.to_position(), sort_keys=True)


def check_record(
    game: Game[Any], record: dict[str, Any], check_every: int, rng: random.Random
) -> int:
    """Replay ``record``, then (if ``check_every`` > 0) replay it again checking clones and
    positions every ``check_every`` actions.

    Returns the number of clone checks; raises ``AssertionError`` (or the engine's error) on a
    fault.
    """
    text = json.dumps(record)
    parsed = Record.from_json(json.loads(text))
    replayed = replay(parsed, game=game)  # verifies every action and the recorded outcome
    outcome = replayed.state.outcome()
    if check_every <= 0:
        return 0
    n = len(parsed.players)
    state = Match(game, n, parsed.options, seed=parsed.seed, setup=parsed.setup).state
    clones: list[tuple[State, str]] = []
    checks = 0
    actions = parsed.actions
    for index, (seat, notation) in enumerate(actions):
        if index % check_every == check_every - 1:
            snapshot = _snapshot(state)
            restored = game.state_from_position(json.loads(json.dumps(state.to_position())))
            assert _snapshot(restored) == snapshot, f"action {index}: position round trip differs"
            clone = state.clone()
            clones.append((state.clone(), snapshot))
            movers = state.seats_to_act()
            mover = movers[rng.randrange(len(movers))]
            legal = clone.legal_actions(mover)
            clone.apply(mover, legal[rng.randrange(len(legal))])
            assert _snapshot(state) == snapshot, f"action {index}: a clone's move changed the state"
            checks += 1
        state.apply(seat, game.parse_action(notation))
    assert state.is_terminal(), "the replayed game did not end"
    assert state.outcome() == outcome, "a second replay reached another outcome"
    for old, snapshot in clones:
        assert _snapshot(old) == snapshot, "an earlier clone changed"
    return checks


def soak(
    games_per_game: int = DEFAULT_GAMES,
    *,
    games: Sequence[str] | None = None,
    seed: int = 0,
    search_games: int | None = None,
    search_iterations: int = 4,
    level_games: int = 2,
    check_every: int = 25,
    deep_every: int = 4,
    max_minutes: float | None = None,
    failures: Path | None = None,
    progress: bool = True,
    console: Console | None = None,
    command: str = "",
) -> SoakSummary:
    """Run the soak and return its summary (see the module docstring)."""
    console = console or Console(stderr=True)
    chosen = [campfire.get_game(g) for g in games] if games else campfire.all_games()
    if search_games is None:
        search_games = max(1, games_per_game // 500)
    plans = {
        g.name: plan(
            g,
            games_per_game,
            seed,
            search_games=search_games,
            search_iterations=search_iterations,
            level_games=level_games,
        )
        for g in chosen
    }
    planned = sum(len(p) for p in plans.values())
    deadline = time.monotonic() + max_minutes * 60 if max_minutes else None
    figures = [GameFigures(g.name) for g in chosen]
    start = time.perf_counter()
    stopped = False
    columns = (
        TextColumn("{task.description:<9}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[faults]} faults"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, disable=not progress) as bar:
        tasks = {g.name: bar.add_task(g.name, total=len(plans[g.name]), faults=0) for g in chosen}
        check_rngs = {g.name: random.Random(derive_seed(seed, g.name, "checks")) for g in chosen}
        # the games take turns, so a run stopped at its time limit has played each game alike
        for i in range(max(len(p) for p in plans.values())):
            for g, fig in zip(chosen, figures, strict=True):
                if i >= len(plans[g.name]):
                    continue
                if deadline is not None and time.monotonic() > deadline:
                    stopped = True
                    break
                every = check_every if i % deep_every == 0 else 0
                began = time.perf_counter()
                _play_one(g, fig, i, plans[g.name][i], seed, every, check_rngs[g.name], failures)
                fig.seconds += time.perf_counter() - began
                bar.update(tasks[g.name], advance=1, faults=len(fig.faults))
            if stopped:
                break
    return SoakSummary(figures, time.perf_counter() - start, command, planned, stopped)


def _play_one(
    game: Game[Any],
    fig: GameFigures,
    index: int,
    planned: Planned,
    seed: int,
    check_every: int,
    rng: random.Random,
    failures: Path | None,
) -> None:
    n = planned.players
    labels = tuple(agent_label(s) for s in planned.lineup)
    task = GameTask(
        index=index,
        game=game.name,
        players=n,
        options=planned.options.non_default(),
        seed=derive_seed(seed, game.name, index),
        agents=labels,
        names=tuple(f"{label} (seat {s})" for s, label in enumerate(labels)),
        seats=tuple(range(n)),
        agent_seeds=tuple(derive_seed(seed, game.name, index, "agent", s) for s in range(n)),
        run_seed=seed,
        keep_record=True,
    )
    result = play_game(task)
    fig.games += 1
    fig.actions += result.actions
    fig.longest = max(fig.longest, result.actions)
    fig.by_kind[planned.kind] = fig.by_kind.get(planned.kind, 0) + 1
    fig.players.add(n)
    fig.cases.add(f"{n}p-{_label(planned.options)}")
    fig.agents.update(labels)
    where = f"{game.name} {n}p {_label(planned.options)} [{', '.join(labels)}] game {index}"
    fault = ""
    if result.failure is not None:
        fault = result.failure.describe()
    elif result.actions > game.playout_bound:
        fault = f"{result.actions} actions, over the game's playout bound {game.playout_bound}"
    else:
        assert result.record is not None
        try:
            fig.clone_checks += check_record(game, result.record, check_every, rng)
            fig.replays += 1
        except Exception as exc:  # any fault is reported, never hidden
            fault = f"replay or clone check: {type(exc).__name__}: {exc}"
    if fault:
        fig.faults.append(f"{where}: {fault}")
        if failures is not None and result.record is not None:
            failures.mkdir(parents=True, exist_ok=True)
            name = f"{game.name}-{index:06d}-failed.json"
            (failures / name).write_text(json.dumps(result.record))


def report(summary: SoakSummary, console: Console) -> None:
    """Print the summary table and the faults."""
    table = RichTable(title="soak")
    for column in (
        "game",
        "games",
        "bulk/search/levels",
        "players",
        "cases",
        "actions",
        "longest",
        "replays",
        "clone checks",
        "faults",
        "seconds",
    ):
        table.add_column(column, justify="left" if column == "game" else "right")
    for f in summary.figures:
        kinds = "/".join(str(f.by_kind.get(k, 0)) for k in ("bulk", "search", "levels"))
        counts = sorted(f.players)
        table.add_row(
            f.game,
            f"{f.games:,}",
            kinds,
            f"{counts[0]}–{counts[-1]}" if counts else "-",
            f"{len(f.cases):,}",
            f"{f.actions:,}",
            f"{f.longest:,}",
            f"{f.replays:,}",
            f"{f.clone_checks:,}",
            str(len(f.faults)),
            f"{f.seconds:.0f}",
        )
    console.print(table)
    actions = sum(f.actions for f in summary.figures)
    console.print(
        f"{summary.games:,} of {summary.planned:,} planned games, {actions:,} actions, "
        f"{len(summary.faults)} faults, {summary.seconds:.0f} s"
        + (" (stopped at the time limit)" if summary.stopped_early else "")
    )
    for f in summary.figures:
        console.print(f"{f.game} agents: {', '.join(sorted(f.agents))}")
    for fault in summary.faults[:50]:
        console.print(f"[red]fault[/red] {fault}")


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the soak, print the summary, exit 1 on any fault."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games-per-game", type=int, default=DEFAULT_GAMES, help="games of each game (10,000)"
    )
    parser.add_argument("--games", nargs="+", metavar="GAME", help="only these games")
    parser.add_argument("--seed", type=int, default=0, help="the run seed (0)")
    parser.add_argument(
        "--search-games",
        type=int,
        default=None,
        help="games per game with a shortened search seat (default: 1 per 500 games, at least 1)",
    )
    parser.add_argument(
        "--search-iterations", type=int, default=4, help="iterations of the shortened search (4)"
    )
    parser.add_argument(
        "--level-games",
        type=int,
        default=2,
        help="games per searching level at its real configuration (2; slow: minutes each)",
    )
    parser.add_argument(
        "--check-every", type=int, default=25, help="clone and position checks every N actions"
    )
    parser.add_argument(
        "--deep-every",
        type=int,
        default=4,
        help="the clone and position checks in every Nth game (4; every game is replayed)",
    )
    parser.add_argument("--max-minutes", type=float, default=None, help="stop after this long")
    parser.add_argument("--json", type=Path, help="write the summary as JSON here")
    parser.add_argument(
        "--failures", type=Path, default=None, help="folder for failed games' records"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if min(args.games_per_game, args.check_every, args.deep_every, args.search_iterations) < 1:
        parser.error(
            "--games-per-game, --check-every, --deep-every and --search-iterations must be at "
            "least 1"
        )
    console = Console(stderr=True)
    command = "benchmarks/soak.py " + " ".join(argv if argv is not None else sys.argv[1:])
    failures = args.failures or Path(tempfile.gettempdir()) / "campfire-soak-failures"
    summary = soak(
        args.games_per_game,
        games=args.games,
        seed=args.seed,
        search_games=args.search_games,
        search_iterations=args.search_iterations,
        level_games=args.level_games,
        check_every=args.check_every,
        deep_every=args.deep_every,
        max_minutes=args.max_minutes,
        failures=failures,
        progress=not args.no_progress,
        console=console,
        command=command.strip(),
    )
    out = Console()
    if not out.is_terminal:  # a log file: wide enough for the table
        out = Console(width=132)
    report(summary, out)
    if args.json:
        args.json.write_text(json.dumps(summary.to_json(), indent=2) + "\n")
    if summary.faults:
        console.print(f"records of failed games: {failures}")
    return 1 if summary.faults else 0


if __name__ == "__main__":
    sys.exit(main())
