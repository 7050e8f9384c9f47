"""The round scoring of dudab §7, property-tested against a brute-force reference."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from campfire.games.dudab.cards import BABY, DUDAB, JUNGLE, KIND, NUMBER, SHAMAN, VALUE
from campfire.games.dudab.scoring import BABY_POINTS, round_score

BABY_TABLE = [0, -1, -3, -6, -11, -19, -32, -51, -81]


def reference_score(hand: list[int], pile: list[int]) -> int:
    """dudab §7.1 step by step; tries every set of Number cards the leftover Dudabs may take."""
    score = 5 * sum(1 for c in hand if KIND[c] == DUDAB)
    cards = pile + [c for c in hand if KIND[c] != DUDAB]
    dudabs = sum(1 for c in cards if KIND[c] == DUDAB)
    shamans = sum(1 for c in cards if KIND[c] == SHAMAN)
    jungles = sum(1 for c in cards if KIND[c] == JUNGLE)
    babies = sum(1 for c in cards if KIND[c] == BABY)
    numbers = [VALUE[c] for c in cards if KIND[c] == NUMBER]
    pairs = min(dudabs, shamans)
    dudabs -= pairs
    shamans -= pairs
    best: int | None = None
    # every choice of which Number cards the Dudabs take (a Dudab may also stay unpaired)
    for k in range(min(dudabs, len(numbers)) + 1):
        for taken in combinations(range(len(numbers)), k):
            points = -sum(numbers[i] for i in taken)
            free = [numbers[i] for i in range(len(numbers)) if i not in taken]
            kinds = sorted(set(free))
            removed = set(kinds[:jungles])
            points += sum(v for v in free if v not in removed)
            if jungles <= len(kinds):
                points += 5 * shamans
            best = points if best is None else min(best, points)
    assert best is not None
    return score + best + BABY_TABLE[babies]


def test_baby_table_matches_the_spec() -> None:
    assert list(BABY_POINTS) == BABY_TABLE


cards_st = st.lists(st.integers(min_value=0, max_value=95), unique=True, max_size=22)


@settings(max_examples=400, deadline=None)
@given(cards_st, st.integers(min_value=0, max_value=6))
def test_round_score_equals_brute_force(cards: list[int], hand_size: int) -> None:
    hand, pile = cards[:hand_size], cards[hand_size:]
    assert round_score(hand, pile).total == reference_score(hand, pile)


@settings(max_examples=200, deadline=None)
@given(cards_st)
def test_breakdown_adds_up(cards: list[int]) -> None:
    result = round_score([], cards)
    assert result.total == (
        5 * result.hand_dudabs
        - sum(result.dudab_numbers)
        + result.shaman_points
        + result.baby_points
        + result.number_points
    )
