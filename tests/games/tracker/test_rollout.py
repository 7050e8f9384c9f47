"""Tracker's search model with more than two players: who remembers what, and the estimate.

With three or more players the search's rollout model gives each other seat the cards at the
positions *that seat* peeked (not every seat's peeks), lets the other seats peek where others
looked (as the heuristic bot does), and its estimate shares a remembered enemy scout among the
seats that could collect it; the memory samples other seats' piles as their enemy scouts. With
two players nothing changes.
"""

from __future__ import annotations

import random
from collections import Counter

from campfire.core import Event, visible_events
from campfire.games.tracker import TrackerState
from campfire.games.tracker.bots import TrackerMemory, TrackerRollout
from campfire.games.tracker.cards import is_enemy_scout, parse_card
from campfire.games.tracker.state import EMPTY

from .helpers import capture_turn, new_state, position_of


def _peek(seat: int, pos: int) -> Event:
    return Event("peek", {"seat": seat, "pos": pos})


def test_memory_follows_which_seats_peeked_where() -> None:
    memory = TrackerMemory(0)
    memory.observe([_peek(1, 3), _peek(2, 3), _peek(2, 7), _peek(0, 9)])
    assert memory.peekers == {3: {1, 2}, 7: {2}}  # its own peeks are not interest
    assert memory.interest == {3: 2, 7: 1}
    memory.observe([Event("relocate", {"seat": 1, "from": 7, "to": 10})])
    memory.observe([Event("take", {"seat": 2, "pos": 3})])
    assert memory.peekers == {10: {2}}
    assert set(memory.peekers) == set(memory.interest)
    copy = memory.clone()
    copy.observe([_peek(1, 10)])
    assert copy.peekers == {10: {1, 2}}
    assert memory.peekers == {10: {2}}  # the clone is independent
    memory.observe([Event("game_over", {})])
    assert memory.peekers == {}


def test_each_other_seat_knows_only_the_cards_it_peeked() -> None:
    state = new_state(("T0", "T1", "T2"))
    memory = TrackerMemory(0)
    memory.observe([_peek(1, 5), _peek(2, 9), _peek(2, 11)])
    memory.remember(20, state.board[20])
    policy = TrackerRollout(0, memory)
    policy.evaluate(state)  # the policy starts from the memory on first use
    board = state.board
    assert policy.known == [{board[20]}, {board[5]}, {board[9], board[11]}]


def test_two_players_other_seat_knows_every_peeked_card() -> None:
    state = new_state(("T0", "T1"))
    memory = TrackerMemory(1)
    memory.observe([_peek(0, 5), _peek(0, 9)])
    policy = TrackerRollout(1, memory)
    policy.evaluate(state)
    assert policy.known[0] == {state.board[5], state.board[9]}
    assert policy.known[1] == set()


def _estimate(tribes: tuple[str, ...], knowers: tuple[int, ...]) -> tuple[list[float], float]:
    """The estimate when ``knowers`` remember a T5 scout, and seat 0's score without it."""
    state = new_state(tribes, {0: "S-T5-1"})
    scout = position_of(state, "S-T5-1")
    memory = TrackerMemory(0)
    memory.observe([_peek(s, scout) for s in knowers if s != 0])
    if 0 in knowers:
        memory.remember(scout, parse_card("S-T5-1"))
    estimate = TrackerRollout(0, memory).evaluate(state)
    assert estimate is not None
    return list(estimate.scores), float(state.score().scores[0])


def test_a_scout_several_seats_remember_is_shared_with_three_players() -> None:
    scores, base = _estimate(("T0", "T1", "T2"), (0, 1))
    assert scores[0] == base + 1.5 and scores[1] == base + 1.5 and scores[2] == base
    alone, _ = _estimate(("T0", "T1", "T2"), (0,))
    assert alone[0] == base + 3


def test_a_scout_both_seats_remember_counts_fully_for_both_with_two_players() -> None:
    scores, base = _estimate(("T0", "T1"), (0, 1))
    assert scores == [base + 3, base + 3]


def _peek_counts(players: int, draws: int = 3000) -> tuple[int, float]:
    """How often the last seat's rollout peeks hit the card the searching seat (0) peeked.

    Returns that count and the mean count of the 59 other cards.
    """
    tribes = ("T0", "T1", "T2", "T3")[:players]
    state = new_state(tribes)
    memory = TrackerMemory(0)
    memory.remember(5, state.board[5])
    policy = TrackerRollout(0, memory)
    rng = random.Random(7)
    hits = Counter(str(policy.act(state, players - 1, rng)) for _ in range(draws))
    others = [n for a, n in hits.items() if a != "peek 5"]
    return hits["peek 5"], sum(others) / 59


def test_other_seats_peek_where_others_looked_with_more_than_two_players() -> None:
    """Like the heuristic bot: a card another seat peeked weighs 3 against 1 (about 150 : 48)."""
    interesting, usual = _peek_counts(3)
    assert interesting > 2 * usual


def test_two_player_rollout_peeks_stay_uniform() -> None:
    interesting, usual = _peek_counts(2)
    assert interesting < 1.5 * usual


def _after_captures(players: int) -> tuple[TrackerState, TrackerMemory]:
    """Seat 0 peeks at position 30, collects 2 cards, then seat 1 its own 3 scouts.

    Seat 0 never saw what either took (the board is in card order: 10–12 are T1's scouts).
    """
    state = new_state(("T0", "T1", "T2", "T3")[:players])
    memory = TrackerMemory(0)
    memory.remember(30, state.board[30])
    for seat, positions in ((0, (0, 1)), (1, (10, 11, 12))):
        memory.observe(visible_events(capture_turn(state, seat, positions), 0))
    return state, memory


def _all_cards(state: TrackerState) -> list[int]:
    return sorted([c for c in state.board if c != EMPTY] + [c for p in state.captured for c in p])


def test_other_seats_piles_are_sampled_as_their_enemy_scouts_with_more_than_two_players() -> None:
    state, memory = _after_captures(3)
    tribe = state.tribes[1]
    assert not any(is_enemy_scout(c, tribe) for c in state.captured[1])
    for seed in range(20):
        world = memory.sample(state, random.Random(seed))
        assert isinstance(world, TrackerState)
        assert all(is_enemy_scout(c, tribe) for c in world.captured[1])
        assert _all_cards(world) == _all_cards(state)
        # the memory's own pins stay: nothing seat 0 remembers was moved
        assert all(world.board[p] == c for p, c in memory.known.items())


def test_two_player_piles_stay_uniform() -> None:
    """With two players the sample is the plain determinisation with the memory's pins."""
    state, memory = _after_captures(2)
    memory.known.clear()
    memory.in_piles.clear()
    for seed in range(5):
        world = memory.sample(state, random.Random(seed))
        assert isinstance(world, TrackerState)
        plain = state.determinize(0, random.Random(seed))
        assert world.captured == plain.captured and world.board == plain.board


def test_a_decaying_memory_forgets_as_its_seed_says_and_so_do_its_copies() -> None:
    """The generator of forgetting is made when first drawn from, seeded with the memory's seed.

    A copy made before that draw, or after some, forgets the same positions as the memory.
    """
    decay, seed = 0.3, 5
    memory = TrackerMemory(0, decay=decay, seed=seed)
    for pos in range(12):
        memory.remember(pos, pos)
    copies = [memory, memory.clone()]  # the copy made before anything was drawn
    reference = random.Random(seed)  # what the memory must draw, in order
    expected = dict(memory.known)
    for turn in range(4):
        others = [_peek(1, 40 + turn)]  # another seat acted: each known card may be forgotten
        for copy in copies:
            copy.observe(others)
        for pos in list(expected):
            if reference.random() < decay:
                del expected[pos]
        assert [dict(copy.known) for copy in copies] == [expected] * len(copies)
        if turn == 0:
            copies.append(memory.clone())  # a copy made after the first draws
    assert 0 < len(expected) < 12  # something was forgotten, not everything
