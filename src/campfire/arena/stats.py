"""Statistics of a run: win shares with 95% intervals, scores, ranks, seats, throughput.

Only games that ended normally count; failed games are counted apart. Win shares split shared
wins (two winners get 1/2 each). An agent's *win share* is its share of the wins per seat it
holds, so every agent's fair share is ``1 / players`` whatever the number of seats it holds: in
each game the agent's value is the mean win share of its seats, and the win share is the mean of
these values over the games. The 95% interval is the Wilson score interval of that mean over the
games; for values that are not only 0 or 1 (split wins, an agent on several seats) it is
conservative, since a variable in [0, 1] with mean p has a variance of at most p(1 − p).

>>> results = [
...     GameResult(0, 11, ("a", "b"), (0, 1), (5.0, 3.0), (1, 2), (0,), 10),
...     GameResult(1, 12, ("b", "a"), (1, 0), (4.0, 4.0), (1, 1), (0, 1), 12),
... ]
>>> config = SimConfig("tracker", 2, ("a", "b"), 2, 0)
>>> summary = summarize(SimResult(config, results, 2.0, 1, "process"))
>>> [(a.agent, a.win_share, a.score_mean, a.rank_mean) for a in summary.agents]
[('a', 0.75, 4.5, 1.0), ('b', 0.25, 3.5, 1.5)]
>>> [s.win_share for s in summary.seats]
[0.75, 0.25]
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

from campfire.core import get

from .runner import Failure, GameResult, SimConfig, SimResult

__all__ = ["AgentStats", "SeatStats", "Summary", "summarize", "wilson_interval"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

#: Version of the JSON document written by ``campfire sim --json`` (see ``docs/arena.md``).
JSON_FORMAT = "campfire-sim"
JSON_VERSION = 1


def wilson_interval(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` observed over ``n`` trials.

    >>> [round(x, 4) for x in wilson_interval(0.5, 100)]
    [0.4038, 0.5962]
    >>> wilson_interval(0.0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, p))
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if p == 0.0 else max(0.0, centre - half)
    hi = 1.0 if p == 1.0 else min(1.0, centre + half)
    return (lo, hi)


@dataclass(frozen=True)
class AgentStats:
    """The figures of one agent (all the seats it holds) over the completed games."""

    agent: str
    slots: int
    games: int
    wins: float
    win_share: float
    win_share_ci: tuple[float, float]
    score_mean: float
    score_sd: float
    rank_mean: float
    failures: int
    scores: tuple[float, ...] = field(repr=False)
    seconds_per_move: float = field(default=0.0, compare=False)
    #: the mean time of the moves with a choice (forced moves excluded)
    seconds_per_decision: float = field(default=0.0, compare=False)
    #: the longest time spent on one move
    slowest_move: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict (without the raw scores and timing)."""
        return {
            "agent": self.agent,
            "slots": self.slots,
            "games": self.games,
            "wins": self.wins,
            "win_share": self.win_share,
            "win_share_ci": list(self.win_share_ci),
            "score_mean": self.score_mean,
            "score_sd": self.score_sd,
            "rank_mean": self.rank_mean,
            "failures": self.failures,
        }


@dataclass(frozen=True)
class SeatStats:
    """The win share of one seat (seat 0 starts, unless the game's rules say otherwise)."""

    seat: int
    games: int
    win_share: float
    win_share_ci: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return {
            "seat": self.seat,
            "games": self.games,
            "win_share": self.win_share,
            "win_share_ci": list(self.win_share_ci),
        }


@dataclass(frozen=True)
class Summary:
    """Everything ``campfire sim`` reports about a run.

    :meth:`to_json` gives the document of ``--json`` (schema in ``docs/arena.md``), and
    :meth:`to_text` the printed tables.
    """

    config: SimConfig
    completed: int
    failed: int
    agents: list[AgentStats]
    seats: list[SeatStats]
    failures: list[Failure]
    results: list[GameResult]
    seconds: float = field(compare=False)
    jobs: int = field(compare=False)
    backend: str = field(compare=False)
    actions: int = 0

    @property
    def fair_share(self) -> float:
        """The win share of an agent in a fair game: one over the number of players."""
        return 1.0 / self.config.players

    def throughput(self) -> dict[str, Any]:
        """Wall time and speed of the run (the only figures that differ between runs)."""
        games = self.completed + self.failed
        secs = self.seconds if self.seconds > 0 else float("nan")
        return {
            "seconds": self.seconds,
            "games_per_second": games / secs if self.seconds > 0 else None,
            "actions_per_second": self.actions / secs if self.seconds > 0 else None,
            "actions_per_game": self.actions / games if games else None,
            "seconds_per_move": {a.agent: a.seconds_per_move for a in self.agents},
            "seconds_per_decision": {a.agent: a.seconds_per_decision for a in self.agents},
            "slowest_move": {a.agent: a.slowest_move for a in self.agents},
            "jobs": self.jobs,
            "backend": self.backend,
        }

    def to_json(self) -> dict[str, Any]:
        """The run as a JSON-ready dict (see ``docs/arena.md`` for the schema)."""
        return {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            **self.config.to_json(),
            "completed": self.completed,
            "failed": self.failed,
            "fair_share": self.fair_share,
            "confidence": 0.95,
            "interval": "wilson",
            "agents": [a.to_json() for a in self.agents],
            "seats": [s.to_json() for s in self.seats],
            "throughput": self.throughput(),
            "failures": [f.to_json() for f in self.failures],
            "results": [r.to_json() for r in self.results],
        }

    def to_text(self) -> str:
        """The summary tables as printed by ``campfire sim``."""
        cfg = self.config
        title = get(cfg.game).title
        opts = ", ".join(f"{k}={_fmt_option(v)}" for k, v in cfg.options.items())
        lines = [
            f"{title}, {cfg.players} players, {cfg.games} games, seed {cfg.seed}"
            + (f", options {opts}" if opts else ""),
            "lineup: " + ", ".join(cfg.lineup) + "  (seats rotate every game)",
            "",
        ]
        width = max([5, *(len(a.agent) for a in self.agents)])
        lines.append(
            f"{'agent':<{width}}  {'seats':>5}  {'win share':>9}  {'95% interval':>13}  "
            f"{'score':>8}  {'sd':>7}  {'rank':>5}  {'failed':>6}"
        )
        for a in self.agents:
            lo, hi = a.win_share_ci
            lines.append(
                f"{a.agent:<{width}}  {a.slots:>5}  {a.win_share:>9.3f}  "
                f"{f'{lo:.3f}–{hi:.3f}':>13}  {a.score_mean:>8.2f}  {a.score_sd:>7.2f}  "
                f"{a.rank_mean:>5.2f}  {a.failures:>6}"
            )
        lines.append(f"(win share per seat held; fair share {self.fair_share:.3f})")
        lines.append("")
        lines.append(f"{'seat':<5}  {'win share':>9}  {'95% interval':>13}")
        for s in self.seats:
            lo, hi = s.win_share_ci
            lines.append(f"{s.seat:<5}  {s.win_share:>9.3f}  {f'{lo:.3f}–{hi:.3f}':>13}")
        lines.append("")
        games = self.completed + self.failed
        t = self.throughput()
        speed = (
            f"{t['games_per_second']:,.1f} games/s, {t['actions_per_second']:,.0f} actions/s"
            if t["games_per_second"] is not None
            else "speed not measured"
        )
        lines.append(
            f"{games} games ({self.completed} completed, {self.failed} failed) in "
            f"{self.seconds:.1f} s: {speed} ({self.jobs} {'job' if self.jobs == 1 else 'jobs'}, "
            f"{self.backend} backend)"
        )
        if games:
            w = max(width, len("thinking time"))
            lines.append("")
            lines.append(
                f"{'thinking time':<{w}}  {'per move':>9}  {'with a choice':>13}  {'longest':>9}"
            )
            for a in self.agents:
                lines.append(
                    f"{a.agent:<{w}}  {_secs(a.seconds_per_move):>9}  "
                    f"{_secs(a.seconds_per_decision):>13}  {_secs(a.slowest_move):>9}"
                )
        for f in self.failures:
            lines.append("failed: " + f.describe())
        return "\n".join(lines)


def _fmt_option(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _secs(seconds: float) -> str:
    """A thinking time, readable from microseconds to minutes.

    >>> _secs(0.3261), _secs(0.00012), _secs(12.5)
    ('0.33 s', '0.1 ms', '12.5 s')
    """
    if seconds < 0.01:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def _sd(values: list[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def summarize(result: SimResult) -> Summary:
    """Compute the statistics of a run (see the module's documentation for the definitions)."""
    config = result.config
    done = result.completed
    n_games = len(done)
    agents = []
    for label in config.agents:
        per_game: list[float] = []
        scores: list[float] = []
        ranks: list[float] = []
        for r in done:
            shares = r.win_shares()
            held = [s for s, a in enumerate(r.agents) if a == label]
            per_game.append(sum(shares[s] for s in held) / len(held))
            scores.extend(float(r.scores[s]) for s in held)
            ranks.extend(float(r.ranks[s]) for s in held)
        think = decision_think = slowest = 0.0
        moves = decisions = 0
        for r in result.results:
            for s, a in enumerate(r.agents):
                if a == label and r.moves:
                    think += r.think_seconds[s]
                    moves += r.moves[s]
                if a == label and r.decisions:
                    decisions += r.decisions[s]
                    decision_think += r.decision_seconds[s]
                    slowest = max(slowest, r.slowest[s])
        win_share = _mean(per_game)
        slots = config.lineup.count(label)
        agents.append(
            AgentStats(
                agent=label,
                slots=slots,
                games=n_games,
                wins=sum(per_game) * slots,
                win_share=win_share,
                win_share_ci=wilson_interval(win_share, n_games),
                score_mean=_mean(scores),
                score_sd=_sd(scores),
                rank_mean=_mean(ranks),
                failures=sum(1 for f in result.failures if f.agent == label),
                scores=tuple(scores),
                seconds_per_move=think / moves if moves else 0.0,
                seconds_per_decision=decision_think / decisions if decisions else 0.0,
                slowest_move=slowest,
            )
        )
    seats = []
    for seat in range(config.players):
        share = _mean([r.win_shares()[seat] for r in done])
        seats.append(SeatStats(seat, n_games, share, wilson_interval(share, n_games)))
    return Summary(
        config=config,
        completed=n_games,
        failed=len(result.results) - n_games,
        agents=agents,
        seats=seats,
        failures=result.failures,
        results=result.results,
        seconds=result.seconds,
        jobs=result.jobs,
        backend=result.backend,
        actions=sum(r.actions for r in result.results),
    )
