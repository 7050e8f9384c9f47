"""The covering rows of a game's option combinations: every pair of two factors' values once.

The conformance suite's step-level checks and each game's type checks (``tests/games``) play
these rows by default; ``--all-option-combinations`` plays every combination instead.
"""

from __future__ import annotations

import itertools
from typing import Any

from campfire.core import Game


def covering_rows(game: Game[Any]) -> list[tuple[int, Any]]:
    """The (player count, options) rows the step-level checks run by default.

    First the default options at every player count; then, greedily, the valid combinations
    that cover the most value pairs not covered yet, until every pair of values of two factors
    (the player count, and each option with more than one sweep value) that some valid
    combination holds appears together in at least one row. Deterministic: ties go to the
    first row in ``combinations()`` order.
    """
    default = game.options_type()
    names = [info.name for info in game.options_type.infos() if len(info.sweep) > 1]
    counts = range(game.min_players, game.max_players + 1)

    def pairs(players: int, options: Any) -> set[tuple[tuple[str, Any], tuple[str, Any]]]:
        factors = [("players", players), *((name, getattr(options, name)) for name in names)]
        return set(itertools.combinations(factors, 2))

    candidates = [(p, o) for p in counts for o in game.options_type.combinations()]
    candidate_pairs = [pairs(p, o) for p, o in candidates]
    uncovered: set[tuple[tuple[str, Any], tuple[str, Any]]] = set().union(*candidate_pairs)
    rows = [(p, default) for p in counts]
    for p, o in rows:
        uncovered -= pairs(p, o)
    while uncovered:
        best = max(range(len(candidates)), key=lambda k: len(candidate_pairs[k] & uncovered))
        rows.append(candidates[best])
        uncovered -= candidate_pairs[best]
    return rows
