"""The arena's runner: many games between agents, in worker processes or on Ray.

A run is described by a :class:`SimConfig` (built and validated by :func:`prepare`): the game,
the player count, the options, the *lineup* (the agents given, repeated to fill the seats), the
number of games and the run seed. The run is cut into one :class:`GameTask` per game, each with
its own seeds derived from the run seed and the game's index, so a game's result depends only on
the run seed and its index, never on which worker plays it or when: the result of a run is the
same whatever the number of jobs or the backend.

Seats rotate: in game ``i`` the agent of lineup slot ``j`` sits at seat ``(j + i) % players``, so
over ``players`` consecutive games every agent plays every seat.

Each agent is created for its seat with its own seed, sees only its :class:`Observation` and the
events its seat may see. An agent that raises or returns an illegal action ends its game: the
game is reported as a :class:`Failure` with its seed and partial record, and the run goes on.

>>> from campfire import all_games
>>> name = all_games()[0].name
>>> config = prepare(name, players=2, agents=["random"], games=4, seed=1)
>>> config.lineup
('random', 'random')
>>> [task.seats for task in make_tasks(config)][:2]
[(0, 1), (1, 0)]
>>> result = run(config, jobs=1)
>>> len(result.results), result.failures
(4, [])
>>> run(config, jobs=2).results == result.results
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import random
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from campfire.agents import make_agent, parse_agent_spec
from campfire.core import (
    Agent,
    CampfireError,
    ErrorText,
    Match,
    OptionError,
    get,
)
from campfire.core.table import AgentError, Step, Table, TooLongError
from campfire.i18n import DEFAULT_LANGUAGE, N_, Translator, translator

__all__ = [
    "BACKENDS",
    "Failure",
    "GameResult",
    "GameTask",
    "SimConfig",
    "SimResult",
    "agent_label",
    "default_jobs",
    "derive_seed",
    "make_tasks",
    "play_chunk",
    "play_game",
    "prepare",
    "record_name",
    "run",
]

BACKENDS = ("process", "ray")

#: A game longer than this many times the game's ``playout_bound`` is stopped as a failure.
MAX_ACTIONS_FACTOR = 5

ProgressCallback = Callable[[int, int], None]


def derive_seed(run_seed: int, *parts: object) -> int:
    """A 63-bit seed derived from the run seed and ``parts`` (stable across machines).

    >>> derive_seed(7, 0) == derive_seed(7, 0) != derive_seed(7, 1)
    True
    """
    text = "/".join(["campfire-arena", str(run_seed), *(str(p) for p in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def agent_label(spec: str) -> str:
    """The canonical name of an agent spec: lower-case name, parameters as given.

    >>> agent_label(" ISMCTS: iterations = 50 ")
    'ismcts:iterations=50'
    """
    name, params = parse_agent_spec(spec)
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class SimConfig:
    """A validated description of a run (make it with :func:`prepare`).

    ``lineup`` holds one agent label per slot (the agents given, repeated to fill the seats);
    ``options`` holds the options that differ from the game's defaults.
    """

    game: str
    players: int
    lineup: tuple[str, ...]
    games: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    records: bool = False

    @property
    def agents(self) -> list[str]:
        """The distinct agents of the lineup, in order of first appearance."""
        return list(dict.fromkeys(self.lineup))

    def player_names(self) -> list[str]:
        """A display name per slot: the agent's label, numbered when it appears several times.

        >>> from campfire import all_games
        >>> game = next(g for g in all_games() if g.max_players >= 3)
        >>> prepare(game.name, 3, ["random", "ismcts:iterations=5"], 1, 0).player_names()
        ['random #1', 'ismcts:iterations=5', 'random #2']
        """
        counts: dict[str, int] = {}
        names = []
        for label in self.lineup:
            counts[label] = counts.get(label, 0) + 1
            total = self.lineup.count(label)
            names.append(label if total == 1 else f"{label} #{counts[label]}")
        return names

    def to_json(self) -> dict[str, Any]:
        """The configuration as a JSON-ready dict."""
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "lineup": list(self.lineup),
            "games": self.games,
            "seed": self.seed,
        }


def prepare(
    game: str,
    players: int,
    agents: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    records: bool = False,
) -> SimConfig:
    """Validate a run's parameters and return its :class:`SimConfig`.

    Raises a :class:`~campfire.core.CampfireError` that says what is allowed: an unknown game,
    a player count out of range, a bad option, an unknown agent or agent parameter, more agents
    than seats, or a number of games below 1.

    >>> from campfire import all_games
    >>> prepare(all_games()[0].name, 2, ["random", "random", "random"], 10, 0)
    Traceback (most recent call last):
    ...
    campfire.core.errors.OptionError: 3 agents given for 2 players; give 1 to 2 agents ...
    """
    spec = get(game)
    spec.check_players(players)
    opts = spec.options(dict(options or {}))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(
            ErrorText("the number of games must be a positive integer (got {got})", got=repr(games))
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OptionError(
            ErrorText("the seed must be a non-negative integer (got {got})", got=repr(seed))
        )
    labels = [agent_label(a) for a in agents]
    if not labels:
        raise OptionError(ErrorText("give at least one agent (for example --agents random)"))
    if len(labels) > players:
        raise OptionError(
            ErrorText(
                "{count} agents given for {players} players; give 1 to {players} agents "
                "(the list repeats to fill the seats)",
                count=len(labels),
                players=players,
            )
        )
    for label in dict.fromkeys(labels):
        make_agent(label, spec, 0, players, opts)  # raises on an unknown agent or parameter
    lineup = tuple(labels[i % len(labels)] for i in range(players))
    return SimConfig(spec.name, players, lineup, games, seed, opts.non_default(), records)


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game (plain, picklable values).

    ``seats[s]`` is the lineup slot playing seat ``s``; ``agent_seeds[s]`` the seed of its agent.
    """

    index: int
    game: str
    players: int
    options: Mapping[str, Any]
    seed: int
    agents: tuple[str, ...]
    names: tuple[str, ...]
    seats: tuple[int, ...]
    agent_seeds: tuple[int, ...]
    run_seed: int
    keep_record: bool


def make_tasks(config: SimConfig) -> Iterator[GameTask]:
    """The games of a run, in order, each with its seeds and seating."""
    n = config.players
    names = config.player_names()
    for i in range(config.games):
        seats = tuple((s - i) % n for s in range(n))
        yield GameTask(
            index=i,
            game=config.game,
            players=n,
            options=dict(config.options),
            seed=derive_seed(config.seed, i),
            agents=tuple(config.lineup[j] for j in seats),
            names=tuple(names[j] for j in seats),
            seats=seats,
            agent_seeds=tuple(derive_seed(config.seed, i, "agent", j) for j in seats),
            run_seed=config.seed,
            keep_record=config.records,
        )


#: the kinds of failure, as a summary names them
_FAILURE_KINDS = {
    "exception": N_("exception"),
    "illegal_action": N_("illegal action"),
    "engine_error": N_("engine error"),
    "too_long": N_("too long"),
}


@dataclass(frozen=True)
class Failure:
    """A game stopped by an agent that raised or returned an illegal action.

    ``kind`` is ``exception`` (the agent raised), ``illegal_action`` (it returned an action that
    is not legal), ``engine_error`` (the engine raised on a legal action) or ``too_long`` (the
    game did not end within the action limit). ``record`` is the partial game record: replaying
    it (``campfire replay``) reaches the position where the failure happened.
    """

    game: int
    seed: int
    seat: int | None
    agent: str | None
    kind: str
    message: str
    actions: int
    record: dict[str, Any]
    traceback: str = ""

    def describe(self, tr: Translator | None = None) -> str:
        """One line: which game, seed, seat and agent, and what went wrong.

        In ``tr``'s language (English by default); the error's own message stays as raised.
        """
        tr = tr or translator(DEFAULT_LANGUAGE)
        if self.seat is not None:
            who = tr.gettext(N_("seat {seat} ({agent})")).format(seat=self.seat, agent=self.agent)
        else:
            who = tr.gettext(N_("the game"))
        kind = tr.gettext(_FAILURE_KINDS.get(self.kind, self.kind.replace("_", " ")))
        return tr.ngettext(
            "game {game} (seed {seed}), {who} after {count} action: {kind}: {message}",
            "game {game} (seed {seed}), {who} after {count} actions: {kind}: {message}",
            self.actions,
        ).format(
            game=self.game,
            seed=self.seed,
            who=who,
            count=self.actions,
            kind=kind,
            message=self.message,
        )

    def to_json(self) -> dict[str, Any]:
        """The failure as a JSON-ready dict."""
        return {
            "game": self.game,
            "seed": self.seed,
            "seat": self.seat,
            "agent": self.agent,
            "kind": self.kind,
            "message": self.message,
            "actions": self.actions,
            "traceback": self.traceback,
            "record": self.record,
        }


@dataclass
class GameResult:
    """The result of one game: who sat where, the outcome, and timing.

    Equality ignores the timing and the record (whose ``meta`` holds a date), so results of the
    same game played twice compare equal.
    """

    index: int
    seed: int
    agents: tuple[str, ...]
    seats: tuple[int, ...]
    scores: tuple[float, ...] = ()
    ranks: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    actions: int = 0
    failure: Failure | None = field(default=None, compare=False)
    failed: bool = False
    record: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    seconds: float = field(default=0.0, compare=False)
    think_seconds: tuple[float, ...] = field(default=(), compare=False)
    moves: tuple[int, ...] = field(default=(), compare=False)
    #: per seat: the moves with a choice (more than one legal action), the time spent on them,
    #: and the longest time spent on one move
    decisions: tuple[int, ...] = field(default=(), compare=False)
    decision_seconds: tuple[float, ...] = field(default=(), compare=False)
    slowest: tuple[float, ...] = field(default=(), compare=False)

    def win_shares(self) -> list[float]:
        """Each seat's share of the win (shared wins split)."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return [share if s in self.winners else 0.0 for s in range(len(self.scores))]

    def to_json(self) -> dict[str, Any]:
        """The deterministic part of the result as a JSON-ready dict."""
        return {
            "game": self.index,
            "seed": self.seed,
            "agents": list(self.agents),
            "slots": list(self.seats),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "actions": self.actions,
            "failed": self.failed,
        }


class _Timing:
    """A table listener that adds up each seat's thinking time."""

    def __init__(self, n: int) -> None:
        self.think = [0.0] * n
        self.moves = [0] * n
        self.decisions = [0] * n
        self.decision_think = [0.0] * n
        self.slowest = [0.0] * n

    def on_step(self, table: Table, step: Step) -> None:
        spent = step.seconds or 0.0
        seat = step.seat
        self.think[seat] += spent
        self.moves[seat] += 1
        self.slowest[seat] = max(self.slowest[seat], spent)
        if step.choices > 1:
            self.decisions[seat] += 1
            self.decision_think[seat] += spent


def play_game(task: GameTask) -> GameResult:
    """Play one game of a run; never raises for a misbehaving agent (see :class:`Failure`)."""
    start = time.perf_counter()
    game = get(task.game)
    n = task.players
    timing = _Timing(n)
    limit = game.playout_bound * MAX_ACTIONS_FACTOR
    match = Match(
        game, n, task.options, seed=task.seed, names=list(task.names), agents=list(task.agents)
    )

    def finish(failure: Failure | None = None) -> GameResult:
        record = match.record(
            {
                "arena": {
                    "run_seed": task.run_seed,
                    "game": task.index,
                    "slots": list(task.seats),
                    "agent_seeds": list(task.agent_seeds),
                }
            }
        ).to_json()
        result = GameResult(
            index=task.index,
            seed=task.seed,
            agents=task.agents,
            seats=task.seats,
            actions=len(match.actions),
            failure=failure,
            failed=failure is not None,
            record=record if task.keep_record or failure is not None else None,
            seconds=time.perf_counter() - start,
            think_seconds=tuple(timing.think),
            moves=tuple(timing.moves),
            decisions=tuple(timing.decisions),
            decision_seconds=tuple(timing.decision_think),
            slowest=tuple(timing.slowest),
        )
        if failure is None:
            outcome = match.state.outcome()
            result.scores = tuple(outcome.scores)
            result.ranks = tuple(outcome.ranks)
            result.winners = tuple(outcome.winners)
        return result

    def fail(seat: int | None, kind: str, message: str, tb: str = "") -> GameResult:
        draft = Failure(
            task.index,
            task.seed,
            seat,
            task.agents[seat] if seat is not None else None,
            kind,
            message,
            len(match.actions),
            {},
            tb,
        )
        result = finish(draft)
        assert result.record is not None
        result.failure = dataclasses.replace(draft, record=result.record)
        return result

    agents: list[Agent | None] = []
    for seat in range(n):
        try:
            agents.append(
                make_agent(task.agents[seat], game, seat, n, match.options, task.agent_seeds[seat])
            )
        except Exception as exc:
            return fail(seat, "exception", _describe(exc), traceback.format_exc())
    # the table draws the world each observation holds (agents never see the true state)
    table = Table(
        game, match=match, agents=agents, observation_rng=random.Random(f"observations/{task.seed}")
    )
    table.listeners.append(timing)
    try:
        table.run(max_actions=limit)
    except TooLongError as exc:
        return fail(None, "too_long", str(exc))
    except AgentError as exc:
        return fail(exc.seat, exc.kind, exc.message, exc.details)
    except CampfireError as exc:  # the engine refused a legal action: a bug worth reporting
        culprit = table.agent_to_act()
        return fail(culprit, "engine_error", _describe(exc), traceback.format_exc())
    return finish()


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def play_chunk(tasks: Sequence[GameTask]) -> list[GameResult]:
    """Play several games in order (the unit of work sent to a worker)."""
    return [play_game(task) for task in tasks]


def chunked(tasks: Sequence[GameTask], jobs: int) -> list[list[GameTask]]:
    """Cut the tasks into chunks: about eight per job, at most 64 games each.

    Each job's first chunk is a single game, so progress shows from the first finished game
    even when games are slow.

    >>> [len(c) for c in chunked(list(range(40)), 2)]  # type: ignore[arg-type]
    [1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2]
    """
    first = [[t] for t in tasks[:jobs]]
    rest = tasks[jobs:]
    size = max(1, min(64, math.ceil(len(rest) / (jobs * 8)))) if rest else 1
    return first + [list(rest[i : i + size]) for i in range(0, len(rest), size)]


def record_name(index: int, games: int, failed: bool = False) -> str:
    """The file name of a game's record in the records folder.

    >>> record_name(7, 200), record_name(7, 200, failed=True)
    ('game-000007.json', 'game-000007-failed.json')
    """
    width = max(6, len(str(games - 1)))
    return f"game-{index:0{width}d}{'-failed' if failed else ''}.json"


@dataclass
class SimResult:
    """The games of a run, in order, with the run's wall time and how it ran."""

    config: SimConfig
    results: list[GameResult]
    seconds: float
    jobs: int
    backend: str

    @property
    def completed(self) -> list[GameResult]:
        """The games that ended normally."""
        return [r for r in self.results if not r.failed]

    @property
    def failures(self) -> list[Failure]:
        """The failed games' reports, in game order."""
        return [r.failure for r in self.results if r.failure is not None]


def run(
    config: SimConfig,
    *,
    jobs: int | None = None,
    backend: str = "process",
    address: str | None = None,
    records_dir: str | Path | None = None,
    progress: ProgressCallback | None = None,
) -> SimResult:
    """Play every game of ``config`` and return the results in game order.

    ``jobs`` worker processes (default: all cores; 1 plays in this process) or, with
    ``backend="ray"``, Ray tasks on the cluster at ``address`` (default: a local Ray started for
    the run). ``records_dir`` receives every game's record (failed games' partial records too);
    without it, a config made with ``records=True`` keeps the records in the results.
    ``progress(done, total)`` is called as games finish. The results are the same whatever
    ``jobs`` and ``backend``.
    """
    if backend not in BACKENDS:
        raise OptionError(
            ErrorText(
                "unknown backend {got}; backends: {known}",
                got=repr(backend),
                known=", ".join(BACKENDS),
            )
        )
    if address is not None and backend != "ray":
        raise OptionError(ErrorText("--address is for the Ray backend; add --backend ray"))
    if jobs is None:
        jobs = default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise OptionError(
            ErrorText("the number of jobs must be a positive integer (got {got})", got=repr(jobs))
        )
    folder = _records_folder(records_dir)
    if folder is not None and not config.records:
        config = SimConfig(**{**config.__dict__, "records": True})
    tasks = list(make_tasks(config))
    results: list[GameResult | None] = [None] * len(tasks)
    done = 0
    start = time.perf_counter()

    def collect(batch: list[GameResult]) -> None:
        nonlocal done
        for result in batch:
            if folder is not None and result.record is not None:
                name = record_name(result.index, config.games, result.failed)
                _write(folder / name, result.record)
                if result.failure is None:
                    result.record = None  # written; do not keep every record in memory
            results[result.index] = result
        done += len(batch)
        if progress is not None:
            progress(done, len(tasks))

    if progress is not None:
        progress(0, len(tasks))
    if backend == "ray":
        from .ray_backend import run_on_ray

        used = run_on_ray(tasks, jobs, address, collect)
    elif jobs == 1 or len(tasks) == 1:
        used = 1
        for task in tasks:
            collect([play_game(task)])
    else:
        used = min(jobs, len(tasks))
        _run_processes(chunked(tasks, used), used, collect)
    seconds = time.perf_counter() - start
    final = [r for r in results if r is not None]
    assert len(final) == len(tasks)
    return SimResult(config, final, seconds, used, backend)


def _run_processes(
    chunks: list[list[GameTask]], jobs: int, collect: Callable[[list[GameResult]], None]
) -> None:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    # spawn, not fork: a fresh interpreter per worker, safe with the threads of the caller
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_quiet_worker)
    try:
        pending: set[Future[list[GameResult]]] = {pool.submit(play_chunk, c) for c in chunks}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                collect(future.result())
    except BaseException:
        # interrupted (or a worker died): stop the workers now rather than finish their games
        processes = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        raise
    pool.shutdown()


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the main process, which stops them."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _records_folder(records_dir: str | Path | None) -> Path | None:
    if records_dir is None:
        return None
    folder = Path(records_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CampfireError(
            ErrorText(
                "cannot create the records folder {folder}: {reason}",
                folder=str(folder),
                reason=exc.strerror or str(exc),
            )
        ) from None
    return folder


def _write(path: Path, record: dict[str, Any]) -> None:
    from campfire.core import Record

    try:
        Record.from_json(record).save(path)
    except OSError as exc:
        raise CampfireError(
            ErrorText(
                "cannot write {path}: {reason}", path=str(path), reason=exc.strerror or str(exc)
            )
        ) from None
