"""The simulation arena: many games between agents, their statistics, plots and ratings.

:func:`prepare` validates a run, :func:`run` plays it (in worker processes or on Ray, with the
same results whatever the number of jobs), :func:`summarize` computes the statistics, and
:func:`rate_records` rates agents from saved records. The ``campfire sim`` and ``campfire rate``
commands sit on top (see ``docs/arena.md``).

>>> from campfire import all_games
>>> from campfire.arena import prepare, run, summarize
>>> config = prepare(all_games()[0].name, players=2, agents=["random"], games=6, seed=3)
>>> summary = summarize(run(config, jobs=1))
>>> summary.completed, round(sum(s.win_share for s in summary.seats), 6)
(6, 1.0)
"""

from .ratings import Leaderboard, RatingRow, load_records, rate_records
from .runner import (
    BACKENDS,
    Failure,
    GameResult,
    GameTask,
    SimConfig,
    SimResult,
    derive_seed,
    make_tasks,
    play_game,
    prepare,
    run,
)
from .stats import AgentStats, SeatStats, Summary, summarize, wilson_interval

__all__ = [
    "BACKENDS",
    "AgentStats",
    "Failure",
    "GameResult",
    "GameTask",
    "Leaderboard",
    "RatingRow",
    "SeatStats",
    "SimConfig",
    "SimResult",
    "Summary",
    "derive_seed",
    "load_records",
    "make_tasks",
    "play_game",
    "prepare",
    "rate_records",
    "run",
    "summarize",
    "wilson_interval",
]
