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
>>> config = SimConfig("pile", 2, ("a", "b"), 2, 0)
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
from campfire.i18n import DEFAULT_LANGUAGE, N_, Translator, current, game_title, translator

from .runner import Failure, GameResult, SimConfig, SimResult

__all__ = ["AgentStats", "SeatStats", "Summary", "summarize", "text_table", "wilson_interval"]

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

    def to_text(self, tr: Translator | None = None) -> str:
        """The summary tables as printed by ``campfire sim``, in ``tr``'s language.

        The default is the current language (``campfire --lang``); numbers are written as that
        language writes them, and every column is as wide as its heading or its widest value.
        """
        tr = tr or current()
        cfg = self.config
        title = game_title(get(cfg.game), tr)
        opts = ", ".join(f"{k}={_fmt_option(v)}" for k, v in cfg.options.items())
        players = tr.ngettext("{count} player", "{count} players", cfg.players)
        games_n = tr.ngettext("{count} game", "{count} games", cfg.games)
        head = tr.gettext(N_("{title}, {players}, {games}, seed {seed}")).format(
            title=title,
            players=players.format(count=cfg.players),
            games=games_n.format(count=cfg.games),
            seed=cfg.seed,
        )
        if opts:
            head += tr.gettext(N_(", options {options}")).format(options=opts)
        lines = [
            head,
            tr.gettext(N_("lineup: {agents}  (seats rotate every game)")).format(
                agents=", ".join(cfg.lineup)
            ),
            "",
        ]

        def share(value: float) -> str:
            return tr.number(value, 3)

        def interval(ci: tuple[float, float]) -> str:
            return f"{share(ci[0])}–{share(ci[1])}"

        lines += text_table(
            [
                (tr.gettext(N_("agent")), "<"),
                (tr.gettext(N_("seats")), ">"),
                (tr.gettext(N_("win share")), ">"),
                (tr.gettext(N_("95% interval")), ">"),
                (tr.gettext(N_("score")), ">"),
                (tr.gettext(N_("sd")), ">"),
                (tr.gettext(N_("rank")), ">"),
                (tr.gettext(N_("failed")), ">"),
            ],
            [
                [
                    a.agent,
                    str(a.slots),
                    share(a.win_share),
                    interval(a.win_share_ci),
                    tr.number(a.score_mean, 2),
                    tr.number(a.score_sd, 2),
                    tr.number(a.rank_mean, 2),
                    str(a.failures),
                ]
                for a in self.agents
            ],
        )
        lines.append(
            tr.gettext(N_("(win share per seat held; fair share {share})")).format(
                share=share(self.fair_share)
            )
        )
        lines.append("")
        lines += text_table(
            [
                (tr.gettext(N_("seat")), "<"),
                (tr.gettext(N_("win share")), ">"),
                (tr.gettext(N_("95% interval")), ">"),
            ],
            [[str(s.seat), share(s.win_share), interval(s.win_share_ci)] for s in self.seats],
        )
        lines.append("")
        games = self.completed + self.failed
        t = self.throughput()
        if t["games_per_second"] is not None:
            speed = tr.gettext(N_("{games} games/s, {actions} actions/s")).format(
                games=tr.number(t["games_per_second"], 1),
                actions=tr.number(t["actions_per_second"], 0),
            )
        else:
            speed = tr.gettext(N_("speed not measured"))
        jobs = tr.ngettext("{count} job", "{count} jobs", self.jobs).format(count=self.jobs)
        lines.append(
            tr.ngettext(
                "{count} game ({completed} completed, {failed} failed) in {seconds} s: {speed} "
                "({jobs}, {backend} backend)",
                "{count} games ({completed} completed, {failed} failed) in {seconds} s: {speed} "
                "({jobs}, {backend} backend)",
                games,
            ).format(
                count=games,
                completed=self.completed,
                failed=self.failed,
                seconds=tr.number(self.seconds, 1),
                speed=speed,
                jobs=jobs,
                backend=self.backend,
            )
        )
        if games:
            lines.append("")
            lines += text_table(
                [
                    (tr.gettext(N_("thinking time")), "<"),
                    (tr.gettext(N_("per move")), ">"),
                    (tr.gettext(N_("with a choice")), ">"),
                    (tr.gettext(N_("longest")), ">"),
                ],
                [
                    [
                        a.agent,
                        _secs(a.seconds_per_move, tr),
                        _secs(a.seconds_per_decision, tr),
                        _secs(a.slowest_move, tr),
                    ]
                    for a in self.agents
                ],
            )
        for f in self.failures:
            lines.append(tr.gettext(N_("failed: {failure}")).format(failure=f.describe(tr)))
        return "\n".join(lines)


def text_table(columns: list[tuple[str, str]], rows: list[list[str]]) -> list[str]:
    """A heading line and one line per row, each column as wide as its widest cell.

    A column is aligned ``"<"`` (left) or ``">"`` (right); columns are two spaces apart.

    >>> text_table([("agent", "<"), ("seats", ">")], [["random", "12"]])
    ['agent   seats', 'random     12']
    """
    widths = [max([len(head), *(len(r[i]) for r in rows)]) for i, (head, _) in enumerate(columns)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            f"{cell:{align}{width}}"
            for cell, (_, align), width in zip(cells, columns, widths, strict=True)
        ).rstrip()

    return [line([head for head, _ in columns]), *(line(r) for r in rows)]


def _fmt_option(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _secs(seconds: float, tr: Translator | None = None) -> str:
    """A thinking time, readable from microseconds to minutes (``tr``: English by default).

    >>> _secs(0.3261), _secs(0.00012), _secs(12.5)
    ('0.33 s', '0.1 ms', '12.5 s')
    """
    tr = tr or translator(DEFAULT_LANGUAGE)
    if seconds < 0.01:
        return f"{tr.number(seconds * 1000, 1)} ms"
    return f"{tr.number(seconds, 2 if seconds < 10 else 1)} s"


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
