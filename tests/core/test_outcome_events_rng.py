from __future__ import annotations

import json

import pytest

from campfire.core import Event, GameRng, Outcome, PositionError, visible_events


def test_outcome_ranks_and_shared_wins() -> None:
    o = Outcome.from_scores([3, 7, 7, 1])
    assert o.ranks == (3, 1, 1, 4)
    assert o.winners == (1, 2)
    assert o.win_shares() == (0.0, 0.5, 0.5, 0.0)
    low = Outcome.from_scores([10, 4, 4], lower_is_better=True)
    assert low.winners == (1, 2) and low.ranks == (3, 1, 1)
    assert Outcome.from_json(json.loads(json.dumps(o.to_json()))) == o


def test_events_visibility() -> None:
    public = Event("peek", {"pos": 1})
    private = Event("peek_card", {"card": "x"}, frozenset({2}))
    assert visible_events([public, private], 2) == [public, private]
    assert visible_events([public, private], 0) == [public]
    assert visible_events([public, private], None) == [public]
    assert private.to_json() == {"type": "peek_card", "data": {"card": "x"}, "to": [2]}


def test_rng_round_trip_and_copy() -> None:
    rng = GameRng(3)
    rng.random()
    copy = rng.copy()
    restored = GameRng.from_json(json.loads(json.dumps(rng.to_json())))
    assert rng.random() == copy.random() == restored.random()
    with pytest.raises(PositionError):
        GameRng.from_json("nonsense")
