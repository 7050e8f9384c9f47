"""The outcome of a finished game: scores, ranks and winners (shared wins allowed).

>>> o = Outcome.from_scores([9, 9, 4], tiebreak=[3, 4, 0])
>>> o.ranks, o.winners
((2, 1, 3), (1,))
>>> Outcome.from_scores([9, 9, 4], tiebreak=[3, 3, 0]).winners
(0, 1)
>>> Outcome.from_scores([5, 2], lower_is_better=True).winners
(1,)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Outcome", "tied_groups"]


def tied_groups(scores: Sequence[float]) -> list[list[int]]:
    """The groups of two or more seats with the same score (highest first, seats in order).

    A presenter uses them to say how a tie was decided (the game's own tie-break) or that the
    tied players share their place.

    >>> tied_groups([9, 4, 9, 4, 1])
    [[0, 2], [1, 3]]
    >>> tied_groups([3, 2, 1])
    []
    """
    groups: dict[float, list[int]] = {}
    for seat, score in enumerate(scores):
        groups.setdefault(score, []).append(seat)
    return [g for _, g in sorted(groups.items(), key=lambda kv: -kv[0]) if len(g) > 1]


@dataclass(frozen=True)
class Outcome:
    """Scores, ranks (1 is best; tied seats share a rank) and winners of a finished game.

    ``details`` holds a JSON-ready per-seat breakdown of the scores (game specific).
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    details: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[float],
        tiebreak: Sequence[float] | None = None,
        *,
        lower_is_better: bool = False,
        details: Sequence[dict[str, Any]] = (),
    ) -> Outcome:
        """Rank seats by score, then by ``tiebreak`` (higher is better); equal keys share."""
        sign = -1 if lower_is_better else 1
        keys = [
            (sign * s, tiebreak[i] if tiebreak is not None else 0) for i, s in enumerate(scores)
        ]
        ranks = tuple(1 + sum(1 for other in keys if other > k) for k in keys)
        winners = tuple(i for i, r in enumerate(ranks) if r == 1)
        return cls(tuple(scores), ranks, winners, tuple(details))

    def win_shares(self) -> tuple[float, ...]:
        """Each seat's share of the win: 1/len(winners) for a winner, 0 otherwise."""
        share = 1.0 / len(self.winners)
        return tuple(share if i in self.winners else 0.0 for i in range(len(self.scores)))

    def to_json(self) -> dict[str, Any]:
        """Return the outcome as a JSON-ready dict."""
        out: dict[str, Any] = {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
        }
        if self.details:
            out["details"] = [dict(d) for d in self.details]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """Build an outcome from :meth:`to_json` output."""
        return cls(
            tuple(data["scores"]),
            tuple(int(r) for r in data["ranks"]),
            tuple(int(w) for w in data["winners"]),
            tuple(data.get("details", ())),
        )
