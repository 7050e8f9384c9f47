"""Round scoring (dudab §7): lowest is best.

:func:`round_score` follows the reference algorithm of dudab §7.3: it tries every way the
leftover Dudabs can take Number cards (as value counts) and keeps the lowest score (D23).

>>> from .cards import number_card
>>> red_hand_2 = number_card(1, 0, 2)
>>> pile = [64, 65, 72] + [number_card(0, 0, v) for v in (4, 3, 1)] + [number_card(2, 1, 4)]
>>> pile += [number_card(3, 2, 1)]
>>> round_score([66, red_hand_2], pile).total   # scenario S1
12
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Final

from campfire.core.values import Value

from .cards import BABY, DUDAB, JUNGLE, KIND, NUMBER, SHAMAN, VALUE

__all__ = [
    "BABY_POINTS",
    "RoundScore",
    "round_score",
    "round_total",
    "round_totals",
    "score_counts",
]

#: dudab §7.2: points for 0..8 Babies in the own pile
BABY_POINTS: Final = (0, -1, -3, -6, -11, -19, -32, -51, -81)


class RoundScore(Value):
    """One player's round score and how it was made up (dudab §7.1).

    ``dudab_numbers`` are the values of the Number cards taken by leftover Dudabs (each scores
    minus its value), ``jungle_values`` the values whose free Number cards were removed by
    Jungles (one Jungle per value).
    """

    __slots__ = (
        "baby_points",
        "dudab_numbers",
        "dudab_shaman_pairs",
        "hand_dudabs",
        "jungle_values",
        "number_points",
        "shaman_points",
        "shamans_removed",
        "total",
    )
    _fields = (
        "total",
        "hand_dudabs",
        "dudab_shaman_pairs",
        "dudab_numbers",
        "jungle_values",
        "shamans_removed",
        "shaman_points",
        "baby_points",
        "number_points",
    )

    def __init__(
        self,
        total: int,
        hand_dudabs: int,
        dudab_shaman_pairs: int,
        dudab_numbers: tuple[int, ...],
        jungle_values: tuple[int, ...],
        shamans_removed: bool,
        shaman_points: int,
        baby_points: int,
        number_points: int,
    ) -> None:
        self.total: Final = total
        self.hand_dudabs: Final = hand_dudabs
        self.dudab_shaman_pairs: Final = dudab_shaman_pairs
        self.dudab_numbers: Final = dudab_numbers
        self.jungle_values: Final = jungle_values
        self.shamans_removed: Final = shamans_removed
        self.shaman_points: Final = shaman_points
        self.baby_points: Final = baby_points
        self.number_points: Final = number_points

    def to_json(self) -> dict[str, Any]:
        """The breakdown as a JSON-ready dict."""
        return {
            "total": self.total,
            "hand_dudabs": self.hand_dudabs,
            "dudab_shaman_pairs": self.dudab_shaman_pairs,
            "dudab_numbers": list(self.dudab_numbers),
            "jungle_values": list(self.jungle_values),
            "shamans_removed": self.shamans_removed,
            "shaman_points": self.shaman_points,
            "baby_points": self.baby_points,
            "number_points": self.number_points,
        }


@lru_cache(maxsize=1 << 14)  # a search ends many simulated rounds with the same counts
def score_counts(
    hand_dudabs: int,
    dudabs: int,
    shamans: int,
    jungles: int,
    babies: int,
    numbers: tuple[int, int, int, int],
) -> RoundScore:
    """Score a round from counts: ``numbers[v - 1]`` Number cards of value v in the own pile.

    ``dudabs`` etc. count the own pile after the rest of the hand has joined it (§7.1 step 2).
    The scores are kept: the same counts give the same (immutable) :class:`RoundScore`.
    """
    pairs = min(dudabs, shamans)  # dudab §7.1 step 4
    d = dudabs - pairs
    s = shamans - pairs
    n1, n2, n3, n4 = numbers
    k = min(d, n1 + n2 + n3 + n4)  # §7.1 step 5: Dudabs that get a Number card
    best: tuple[int, tuple[int, int, int, int]] | None = None
    for a1 in range(min(n1, k) + 1):
        for a2 in range(min(n2, k - a1) + 1):
            for a3 in range(min(n3, k - a1 - a2) + 1):
                a4 = k - a1 - a2 - a3
                if a4 > n4:
                    continue
                value = _rest_score((n1 - a1, n2 - a2, n3 - a3, n4 - a4), jungles, s)
                value -= a1 + 2 * a2 + 3 * a3 + 4 * a4
                if best is None or value < best[0]:
                    best = (value, (a1, a2, a3, a4))
    assert best is not None
    taken = best[1]
    rem = [numbers[i] - taken[i] for i in range(4)]
    kinds = [v + 1 for v in range(4) if rem[v] > 0]
    removed = kinds[:jungles]  # dudab §7.1 step 6 (D26)
    surplus = jungles > len(kinds)  # D25: one surplus Jungle removes every leftover Shaman
    shaman_points = 0 if surplus else 5 * s  # step 7
    number_points = sum(v * rem[v - 1] for v in kinds if v not in removed)  # step 9
    baby_points = BABY_POINTS[babies]  # step 8
    hand_points = 5 * hand_dudabs  # step 1
    dudab_numbers = tuple(v + 1 for v in range(4) for _ in range(taken[v]))
    total = hand_points - sum(dudab_numbers) + shaman_points + baby_points + number_points
    assert total == hand_points + best[0] + baby_points
    return RoundScore(
        total,
        hand_dudabs,
        pairs,
        dudab_numbers,
        tuple(removed),
        surplus and s > 0,
        shaman_points,
        baby_points,
        number_points,
    )


def _rest_score(rem: tuple[int, int, int, int], jungles: int, shamans: int) -> int:
    """Points of the free Number cards and leftover Shamans after the Jungle step (§7.1 6–9)."""
    kinds = [v for v in range(4) if rem[v] > 0]
    points = sum((v + 1) * rem[v] for v in kinds[jungles:])
    return points if jungles > len(kinds) else points + 5 * shamans


def round_score(hand: Iterable[int], pile: Iterable[int]) -> RoundScore:
    """Score one player's round from the cards in hand and in the own pile (dudab §7.1)."""
    hand_dudabs = 0
    counts = [0] * 5
    numbers = [0, 0, 0, 0]
    for card in hand:
        if KIND[card] == DUDAB:
            hand_dudabs += 1  # §7.1 step 1: +5 each, removed
        else:
            counts[KIND[card]] += 1  # step 2: the rest of the hand joins the own pile
            if KIND[card] == NUMBER:
                numbers[VALUE[card] - 1] += 1
    for card in pile:
        counts[KIND[card]] += 1
        if KIND[card] == NUMBER:
            numbers[VALUE[card] - 1] += 1
    return score_counts(
        hand_dudabs,
        counts[DUDAB],
        counts[SHAMAN],
        counts[JUNGLE],
        counts[BABY],
        (numbers[0], numbers[1], numbers[2], numbers[3]),
    )


#: where :func:`round_total` counts each card: 0–3 Number cards of value 1–4, then Dudab, Shaman,
#: Jungle and Baby
_SLOT: Final = tuple(
    VALUE[c] - 1 if KIND[c] == NUMBER else 4 + KIND[c] - DUDAB for c in range(len(KIND))
)
#: :func:`round_total`'s scores by counts, less the hand's Dudabs (at most :data:`_KEEP` kept)
_TOTALS: Final[dict[tuple[int, ...], int]] = {}
_KEEP: Final = 1 << 16


def round_total(hand: Iterable[int], pile: Iterable[int]) -> int:
    """``round_score(hand, pile).total``, faster: by card counts, each count's score kept.

    A search scores the position at the end of every simulated game; the counts repeat a lot.
    """
    counts = [0] * 8
    slot = _SLOT
    for card in pile:
        counts[slot[card]] += 1
    return _with_hand(counts, hand)[0]


def round_totals(hand: Iterable[int], pile: Iterable[int]) -> tuple[int, int, int]:
    """``round_total(hand, pile)``, ``round_total((), pile)`` and the Dudabs in ``hand``."""
    counts = [0] * 8
    slot = _SLOT
    for card in pile:
        counts[slot[card]] += 1
    pile_total = _kept_total(counts)
    total, dudabs = _with_hand(counts, hand)
    return total, pile_total, dudabs


def _with_hand(counts: list[int], hand: Iterable[int]) -> tuple[int, int]:
    """The total with ``hand`` added to the pile's ``counts`` (changed), and its Dudabs."""
    hand_dudabs = 0
    slot = _SLOT
    for card in hand:
        k = slot[card]
        if k == 4:
            hand_dudabs += 1  # §7.1 step 1: +5 each, removed
        else:
            counts[k] += 1  # step 2: the rest of the hand joins the own pile
    return 5 * hand_dudabs + _kept_total(counts), hand_dudabs


def _kept_total(counts: list[int]) -> int:
    """The total of a pile with these counts (no Dudab in hand), kept for the next time."""
    key = tuple(counts)
    total = _TOTALS.get(key)
    if total is None:
        total = _counts_total(*counts)
        if len(_TOTALS) >= _KEEP:
            _TOTALS.clear()
        _TOTALS[key] = total
    return total


def _counts_total(
    n1: int, n2: int, n3: int, n4: int, dudabs: int, shamans: int, jungles: int, babies: int
) -> int:
    """:func:`score_counts`'s total without Dudabs in hand: the same search, less the rest."""
    pairs = min(dudabs, shamans)
    d = dudabs - pairs
    s = shamans - pairs
    k = min(d, n1 + n2 + n3 + n4)
    if jungles == 0:
        # no Jungle removes a value: every Number card left scores its value, so the Dudabs do
        # best taking the highest values (each taken card scores minus its value, not plus)
        taken = 0
        for value, count in ((4, n4), (3, n3), (2, n2), (1, n1)):
            take = count if count < k else k
            taken += value * take
            k -= take
        points = n1 + 2 * n2 + 3 * n3 + 4 * n4 - 2 * taken + 5 * s
        return points + BABY_POINTS[babies]
    if k == 0:  # no leftover Dudab takes a Number card
        return _rest_score((n1, n2, n3, n4), jungles, s) + BABY_POINTS[babies]
    best = min(
        _rest_score((n1 - a1, n2 - a2, n3 - a3, n4 - a4), jungles, s)
        - (a1 + 2 * a2 + 3 * a3 + 4 * a4)
        for a1 in range(min(n1, k) + 1)
        for a2 in range(min(n2, k - a1) + 1)
        for a3 in range(min(n3, k - a1 - a2) + 1)
        for a4 in (k - a1 - a2 - a3,)
        if a4 <= n4
    )
    return best + BABY_POINTS[babies]
