"""The Dudab rollout model used by the search: legal, rule-of-thumb moves and a round estimate."""

from __future__ import annotations

import random

import pytest

from campfire.agents import make_agent
from campfire.core import Observation
from campfire.games.dudab import GAME, DudabState
from campfire.games.dudab.actions import K_PLACE, DudabAction
from campfire.games.dudab.rollout import DudabRollout

from .table import A, make

FIVE = ["yellow/club/2", "red/fur/3", "blue/mammoth/4", "green/hand/3", "yellow/fur/2"]


class _Greedy(DudabRollout):
    greedy = 1.0  # always the rule of thumb, never a random move


def _act(state: DudabState, seed: int = 0) -> str:
    policy = _Greedy()
    return str(policy.act(state, state.to_act(), random.Random(seed)))


def test_sheds_the_highest_card() -> None:
    state = make(
        3,
        hands=[["red/fur/1", "yellow/mammoth/2", "green/hand/4"]],
        columns=[["blue/club/3"], ["dudab"]],
    )
    assert _act(state).startswith("p green/hand/4 ")


def test_does_not_place_the_sixth_card() -> None:
    state = make(3, hands=[["red/club/1", "blue/hand/1"]], columns=[FIVE, ["green/club/2"]])
    # red/club/1 fits only column 1, as its 6th card (a capture); blue/hand/1 fits column 2
    assert _act(state) == "p blue/hand/1 c2"


def test_draws_rather_than_capture_with_a_low_card() -> None:
    state = make(3, hands=[["red/club/1", "blue/hand/2"]], columns=[FIVE, ["green/club/4"]])
    # both placements are the 6th card of column 1 or do not fit at all: drawing is cheaper
    assert _act(state) == "draw"


def test_keeps_the_dudab_while_the_pile_is_long_and_sheds_it_at_the_end() -> None:
    hands = [["dudab", "red/fur/1"]]
    columns = [["blue/club/3"], ["green/hand/2"]]
    young = make(3, hands=hands, columns=columns)
    assert not _act(young).startswith("p dudab")
    late = make(3, hands=hands, columns=columns, draw_size=3)
    assert _act(late).startswith("p dudab")  # +5 in hand when the round ends


@pytest.mark.parametrize("options", [None, {"use_jungle": True, "use_baby": True}])
def test_rollouts_play_legal_games_to_the_end(options: dict[str, bool] | None) -> None:
    state = GAME.new_game(3, options, seed=4)
    policy = DudabRollout()
    rng = random.Random(1)
    steps = 0
    while not state.is_terminal():
        seat = state.to_act()
        action = policy.act(state, seat, rng)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
        steps += 1
    assert steps > 100


class _AsItStands(DudabRollout):
    ramp = 0.0  # the hand counts in full however long the draw pile


def test_evaluate_scores_the_round_as_it_stands() -> None:
    state = make(2, hands=[["dudab", "red/fur/1"], ["blue/club/4"]], piles=[[], ["green/hand/3"]])
    estimate = _AsItStands().evaluate(state)
    assert estimate is not None
    assert estimate.scores == (6, 7)  # Dudab in hand +5 and the 1; 4 + 3
    assert estimate.winners == (A,)  # fewer points win


def test_the_search_plays_legal_moves_with_it() -> None:
    state = GAME.new_game(2, seed=2)
    agent = make_agent("ismcts:iterations=30,reward=margin", GAME, 0, 2, state.options, seed=1)
    for _ in range(8):
        seat = state.to_act()
        if seat == 0:
            action = agent.act(Observation(state, 0, agent.belief))
        else:
            action = state.legal_actions(seat)[0]
        assert action in state.legal_actions(seat)
        state.apply(seat, action)


def test_the_default_reward_is_the_games_margin() -> None:
    """``reward=auto`` searches exactly as ``reward=margin`` in Dudab (the policy's choice)."""
    assert DudabRollout.reward == "margin" and DudabRollout.margin_scale == 20.0
    choices: dict[str, list[str]] = {}
    for spec in ("ismcts:iterations=40", "ismcts:iterations=40,reward=margin"):
        state = GAME.new_game(2, seed=5)
        agent = make_agent(spec, GAME, 0, 2, state.options, seed=3)
        log = []
        for _ in range(10):
            seat = state.to_act()
            if seat == 0:
                action = agent.act(Observation(state, 0, agent.belief))
            else:
                action = state.legal_actions(seat)[-1]
            log.append(str(action))
            state.apply(seat, action)
        choices[spec] = log
    assert choices["ismcts:iterations=40"] == choices["ismcts:iterations=40,reward=margin"]


class _Weighted(DudabRollout):
    hand_weight = 0.5
    dudab_credit = 2.0
    ramp = 20.0


def test_evaluate_discounts_the_hand_while_the_draw_pile_is_long() -> None:
    hands = [["dudab", "red/fur/1"], ["blue/club/4"]]
    piles: list[list[str]] = [[], ["green/hand/3"]]
    long = _Weighted().evaluate(make(2, hands=hands, piles=piles))
    assert long is not None
    # the 1 counts half, the Dudab is worth 2 points off; 4 counts half, plus the pile's 3
    assert long.scores == pytest.approx((0.5 - 2.0, 2.0 + 3.0))
    end = _Weighted().evaluate(make(2, hands=hands, piles=piles, draw_size=1))
    assert end is not None
    # one card left of the last 20: weights 0.975 of the hand, 0.95·5 − 0.05·2 for the Dudab
    assert end.scores == pytest.approx((0.975 + 4.65, 0.975 * 4 + 3.0))
    half = _Weighted().evaluate(make(2, hands=hands, piles=piles, draw_size=10))
    assert half is not None  # halfway through the last 20 cards: weights halfway
    assert half.scores == pytest.approx((0.75 + 1.5, 3.0 + 3.0))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_evaluate_counts_the_hand_in_full_from_four_players_on(players: int) -> None:
    hands = [["dudab", "red/fur/1"], ["blue/club/4"]]
    piles: list[list[str]] = [[], ["green/hand/3"]]
    estimate = _Weighted().evaluate(make(players, hands=hands, piles=piles))
    assert estimate is not None
    # with 2 or 3 players the 1 and the 4 count half; from 4 players on in full (the Dudab
    # in hand is worth 2 points off either way); the seats without cards score 0
    weight = 0.5 if players < 4 else 1.0
    rest = (0.0,) * (players - 2)
    assert estimate.scores == pytest.approx((weight - 2.0, 4 * weight + 3.0, *rest))
    assert DudabRollout.hand_weight == 0.5 and DudabRollout.hand_weight_many == 1.0


def test_evaluate_pairs_hand_numbers_with_pile_dudabs_as_the_round_score_does() -> None:
    state = make(2, hands=[["red/fur/4"], ["blue/club/1"]], piles=[["dudab"], []])
    estimate = _Weighted().evaluate(state)
    assert estimate is not None
    # the pile's Dudab takes the 4 at the end (-4); alone it scores 0: the hand's share is -4
    assert estimate.scores == pytest.approx((-2.0, 0.5))


class _TwoCalls(DudabRollout):
    calls = 2


def test_prune_keeps_the_best_calls_and_every_other_action() -> None:
    # everything red but the Shamans is out of sight of seat A except red/fur/4 in its hand,
    # so red is the call with the fewest unseen matching cards
    reds = [f"red/{s}/{v}" for s in ("hand", "mammoth", "club", "fur") for v in (1, 2, 3, 4)]
    state = make(2, hands=[["dudab", "red/fur/4"]], discard=reds[:-1])
    legal = state.legal_actions(A)
    kept = _TwoCalls().prune(state, A, legal, random.Random(0))
    calls = [a for a in legal if isinstance(a, DudabAction) and a.kind == K_PLACE and a.call]
    dropped = [str(a) for a in legal if a not in kept]
    assert len(calls) == 24 and len(dropped) == 20  # 2 calls of 12 kept on each column
    assert all(a in kept for a in legal if a not in calls)
    assert "p dudab c1 call=red" in [str(a) for a in kept]
    assert _AllCalls().prune(state, A, legal, random.Random(0)) == legal


class _AllCalls(DudabRollout):
    calls = 12
