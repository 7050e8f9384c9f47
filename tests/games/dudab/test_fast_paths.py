"""The search's fast paths of Dudab agree with the plain definitions they stand in for.

Each fast path (the tables of placements and their values,
the scores kept by card counts, the copy of the last round's report) must give exactly what the
plain code gives, random draws included, so that a search decides the same as before.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator
from itertools import product
from typing import Any

import pytest

from campfire.core import Action, visible_events
from campfire.games.dudab import GAME, DudabState
from campfire.games.dudab.actions import ACTIONS, K_PLACE, DudabAction
from campfire.games.dudab.belief import DudabMemory
from campfire.games.dudab.cards import FACE, FACE_DUDAB, KIND, SHAMAN, cards_in_use
from campfire.games.dudab.rollout import DudabRollout, _best_calls
from campfire.games.dudab.scoring import (
    _counts_total,
    round_score,
    round_total,
    round_totals,
    score_counts,
)
from campfire.games.dudab.state import (
    _REPR,
    _TURN_FITS,
    HAND_DEAL,
    NO_SEAT,
    OB_NONE,
    T_KEEP,
    TURN,
    _copy_json,
    _faces,
    random_deck,
)

OPTIONS = [None, {"use_jungle": True, "use_baby": True}]


def _positions(players: int, options: dict[str, bool] | None, seed: int) -> Iterator[DudabState]:
    """Every position of a game played by the rollout model (with its random moves)."""
    state = GAME.new_game(players, options, seed=seed)
    policy = DudabRollout()
    rng = random.Random(seed)
    while not state.is_terminal():
        yield state
        seat = state.to_act()
        state.apply(seat, policy.act(state, seat, rng))


def test_copy_json_is_a_deep_copy() -> None:
    report: dict[str, Any] = {
        "round": 1,
        "hands": [["dudab"], []],
        "details": [{"total": -3, "x": (1, [2])}],
    }
    report["extra"] = {"flag": True, "none": None, "ratio": 0.5}
    copied = _copy_json(report)
    assert copied == copy.deepcopy(report)
    assert copied["hands"][0] is not report["hands"][0]
    assert copied["details"][0]["x"][1] is not report["details"][0]["x"][1]


@pytest.mark.parametrize("expansions", [False, True])
def test_round_total_equals_round_score(expansions: bool) -> None:
    rng = random.Random(7)
    deck = cards_in_use(expansions, expansions)
    for _ in range(3000):
        cards = rng.sample(deck, rng.randrange(0, 30))
        cut = rng.randrange(0, min(len(cards), 7) + 1)
        hand, pile = cards[:cut], cards[cut:]
        assert round_total(hand, pile) == round_score(hand, pile).total
        assert round_total((), pile) == round_score((), pile).total
        dudabs = sum(1 for c in hand if FACE[c] == FACE_DUDAB)
        expected = (round_score(hand, pile).total, round_score((), pile).total, dudabs)
        assert round_totals(hand, pile) == expected


@pytest.mark.parametrize("options", OPTIONS)
def test_turn_table_agrees_with_the_placement_rules(options: dict[str, bool] | None) -> None:
    checked = 0
    for players in (2, 5):
        for state in _positions(players, options, seed=players):
            if state.tasks or state.ob != OB_NONE:
                continue
            for col in range(state.ncols):
                vis = state.vis[col]
                if state.above[col] >= 0 or not vis:
                    continue
                for face in range(len(_REPR)):
                    if face != FACE_DUDAB:
                        fits = state._fits(col, _REPR[face], TURN)
                        assert _TURN_FITS[vis[-1]][face] == fits
                        checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("options", OPTIONS)
def test_legal_now_and_values_agree_with_the_plain_definitions(
    options: dict[str, bool] | None,
) -> None:
    placements = 0
    for players in (2, 4):
        for state in _positions(players, options, seed=10 + players):
            seat = state.to_act()
            legal = state.legal_actions(seat)
            fresh = state.clone()
            fresh._legal = None
            assert fresh.legal_now() == legal
            assert all(ACTIONS[a.index] is a for a in fresh.legal_now())
            assert state.legal_now() == legal
            assert _faces(state.hands[seat]) == sorted({FACE[c] for c in state.hands[seat]})
            values = [DudabRollout._value(state, seat, a) for a in state.legal_now()]
            top = max(values)
            best = [a for a, v in zip(legal, values, strict=True) if v == top]
            assert DudabRollout._best(state, seat, state.legal_now()) == best
            placements += sum(1 for a in state.legal_now() if a.kind == K_PLACE)
    assert placements > 1000


def test_legal_now_is_empty_when_the_game_is_over() -> None:
    state = GAME.new_game(2, seed=1)
    policy = DudabRollout()
    rng = random.Random(1)
    while not state.is_terminal():
        seat = state.to_act()
        state.apply(seat, policy.act(state, seat, rng))
    assert state.legal_now() == []
    assert state.legal_actions() == []


def _plain_prune(state: DudabState, seat: int, actions: list[Action], keep: int) -> list[Action]:
    """The calling placements but the ``keep`` best calls left out, one action at a time."""
    rank: list[int] | None = None
    kept: list[Action] = []
    for a in actions:
        assert isinstance(a, DudabAction)
        if a.kind == K_PLACE and a.call:
            if rank is None:
                rank = _best_calls(state, seat)[:keep]
            if a.call not in rank:
                continue
        kept.append(a)
    return kept


@pytest.mark.parametrize("options", OPTIONS)
def test_prune_keeps_what_the_plain_loop_keeps(options: dict[str, bool] | None) -> None:
    policy = DudabRollout()
    pruned = 0
    for players in (2, 3):
        for state in _positions(players, options, seed=20 + players):
            seat = state.to_act()
            legal = state.legal_actions(seat)
            kept = policy.prune(state, seat, legal, random.Random(0))
            if len(legal) > policy.calls + 2:
                assert kept == _plain_prune(state, seat, legal, policy.calls)
                pruned += len(legal) - len(kept)
            else:
                assert kept == legal
    assert pruned > 100


def _plain_random_deck(cards: list[int], head: int, rng: random.Random) -> list[int]:
    normal = [c for c in cards if KIND[c] <= SHAMAN]
    special = [c for c in cards if KIND[c] > SHAMAN]
    rng.shuffle(normal)
    rest = normal[head:] + special
    rng.shuffle(rest)
    return normal[:head] + rest


def _plain_determinize(state: DudabState, seat: int, rng: random.Random) -> DudabState:
    """The determinisation written plainly: comprehensions, ``rng.shuffle`` and deepcopy."""
    other = state.clone()
    other.report = copy.deepcopy(state.report)
    if state.is_terminal():
        return other
    n = state.num_players
    capturer = state.tasks[-1][1] if state.tasks and state.tasks[-1][0] == T_KEEP else -1
    hand_zones = [other.hands[p] for p in range(n) if p != seat and p != state.revealed]
    if capturer >= 0 and capturer != seat:
        hand_zones.append(other.kept)
    other_zones = [other.piles[p] for p in range(n) if p != seat]
    other_zones.extend(other.heap)
    other_zones.append(other.draw)
    pool = sorted([c for z in hand_zones for c in z] + [c for z in other_zones for c in z])
    normal = [c for c in pool if KIND[c] <= SHAMAN]
    special = [c for c in pool if KIND[c] > SHAMAN]
    rng.shuffle(normal)
    slots = sum(len(z) for z in hand_zones)
    it = iter(normal[:slots])
    for z in hand_zones:
        z[:] = [next(it) for _ in z]
    rest = normal[slots:] + special
    rng.shuffle(rest)
    it = iter(rest)
    for z in other_zones:
        z[:] = [next(it) for _ in z]
    deck = cards_in_use(state.options.use_jungle, state.options.use_baby)
    head = HAND_DEAL * n + state.ncols
    other.decks = [_plain_random_deck(deck, head, rng) for _ in state.decks]
    return other


@pytest.mark.parametrize("options", OPTIONS)
def test_determinize_deals_as_the_plain_code(options: dict[str, bool] | None) -> None:
    compared = 0
    for players in (2, 4):
        for i, state in enumerate(_positions(players, options, seed=30 + players)):
            if i % 7:
                continue
            seat = (i // 7) % players
            fast_rng, plain_rng = random.Random(i), random.Random(i)
            fast = state.determinize(seat, fast_rng)
            plain = _plain_determinize(state, seat, plain_rng)
            assert fast_rng.getstate() == plain_rng.getstate()
            assert fast.to_position() == plain.to_position()
            assert fast.report == state.report
            if state.report is not None and fast.report is not None:
                assert fast.report is not state.report
                assert fast.report["hands"] is not state.report["hands"]
            compared += 1
    assert compared > 50


def test_determinisations_share_a_report_copy_only_while_it_is_unchanged() -> None:
    state = next(s for s in _positions(2, None, seed=3) if s.report is not None)
    first = state.determinize(0, random.Random(1))
    second = state.determinize(0, random.Random(2))
    assert first.report == state.report and first.report is not state.report
    assert second.report is first.report  # as clones share theirs: never changed, only replaced
    assert first.report is not None
    first.report["scores"].append(99)  # changed after all: the next copy is a fresh one
    third = state.determinize(0, random.Random(3))
    assert third.report == state.report and third.report is not first.report


def test_random_deck_deals_as_the_plain_code() -> None:
    for cards in (cards_in_use(False, False), cards_in_use(True, True)):
        for seed in range(30):
            fast_rng, plain_rng = random.Random(seed), random.Random(seed)
            assert random_deck(cards, 9, fast_rng) == _plain_random_deck(cards, 9, plain_rng)
            assert fast_rng.getstate() == plain_rng.getstate()


def test_counts_total_equals_score_counts_for_small_counts() -> None:
    for n1, n2, n3, n4 in product(range(4), repeat=4):
        for dudabs, shamans, jungles, babies in product(range(5), range(4), range(3), range(3)):
            counts = (n1, n2, n3, n4, dudabs, shamans, jungles, babies)
            score = score_counts(0, dudabs, shamans, jungles, babies, (n1, n2, n3, n4))
            assert _counts_total(*counts) == score.total


def _plain_deal(
    memory: DudabMemory, state: DudabState, rng: random.Random, either_in_hand_first: bool
) -> DudabState | None:
    """``DudabMemory._deal`` written plainly: ``rng.shuffle``, a card at a time."""
    seat = memory.seat
    n = state.num_players
    other = state.clone()
    capturer = state.tasks[-1][1] if state.tasks and state.tasks[-1][0] == T_KEEP else NO_SEAT
    hands: dict[int, list[int]] = {}  # seat → hidden hand slots (hand, then kept cards)
    hand_len: dict[int, int] = {}
    for p in range(n):
        if p == seat:
            continue
        hidden = other.hands[p] if p != state.revealed else []
        kept = other.kept if p == capturer else []
        if hidden or kept:
            hands[p] = hidden + kept
            hand_len[p] = len(hidden)
    piles = {p: other.piles[p] for p in range(n) if p != seat}
    heaps = other.heap
    pool = sorted(
        [c for h in hands.values() for c in h]
        + [c for p in piles.values() for c in p]
        + [c for h in heaps for c in h]
        + other.draw
    )
    by_face: dict[int, list[int]] = {}
    for c in reversed(pool):  # popping gives the lowest card of a face first
        by_face.setdefault(FACE[c], []).append(c)

    def take(faces: list[int]) -> list[int] | None:
        need = Counter(faces)
        if any(len(by_face.get(f, ())) < k for f, k in need.items()):
            return None
        return [by_face[f].pop() for f in faces]

    new_heaps: dict[int, list[int]] = {}
    for col, faces in memory._heaps(state).items():
        cards = take(faces)
        if cards is not None:
            new_heaps[col] = cards
    fixed_hand: dict[int, list[int]] = {}
    fixed_pile: dict[int, list[int]] = {}
    either: dict[int, list[int]] = {}
    for p in sorted(piles):
        known_pile = memory.piles.get(p, [])
        if len(known_pile) <= len(piles[p]):
            fixed_pile[p] = take(known_pile) or []
        if p in hands:
            known_hand = memory.in_hand.get(p, [])
            if len(known_hand) <= len(hands[p]):
                fixed_hand[p] = take(known_hand) or []
            free = (
                len(hands[p])
                + len(piles[p])
                - len(fixed_hand.get(p, []))
                - len(fixed_pile.get(p, []))
            )
            known_either = memory.hand_or_pile.get(p, [])
            if len(known_either) <= free:
                either[p] = take(known_either) or []
    rest = sorted(c for cards in by_face.values() for c in cards)
    # the seats' free places: hand slots must take cards that can be in a hand
    hand_free: dict[int, int] = {}
    pile_free: dict[int, int] = {}
    for p in sorted(piles):
        hand_slots = len(hands[p]) - len(fixed_hand.get(p, [])) if p in hands else 0
        pile_slots = len(piles[p]) - len(fixed_pile.get(p, []))
        hand_part: list[int] = []
        pile_part: list[int] = []
        cards = either.get(p, [])
        if cards:
            if either_in_hand_first:
                k = min(hand_slots, len(cards))
                hand_part, pile_part = cards[:k], cards[k:]
            else:
                spots = rng.sample(range(hand_slots + pile_slots), len(cards))
                for card, spot in zip(cards, spots, strict=True):
                    (hand_part if spot < hand_slots else pile_part).append(card)
            if len(pile_part) > pile_slots:
                return None
        fixed_hand.setdefault(p, []).extend(hand_part)
        fixed_pile.setdefault(p, []).extend(pile_part)
        hand_free[p] = hand_slots - len(hand_part)
        pile_free[p] = pile_slots - len(pile_part)
    normal = [c for c in rest if KIND[c] <= SHAMAN]
    special = [c for c in rest if KIND[c] > SHAMAN]
    rng.shuffle(normal)
    slots = sum(hand_free.values())
    if slots > len(normal):
        return None
    it = iter(normal[:slots])
    for p in sorted(hands):
        cards = fixed_hand.get(p, []) + [next(it) for _ in range(hand_free[p])]
        rng.shuffle(cards)
        h = hand_len[p]
        if h:
            other.hands[p][:] = cards[:h]
        if p == capturer:
            other.kept[:] = cards[h:]
    leftover = normal[slots:] + special
    rng.shuffle(leftover)
    it = iter(leftover)
    for p in sorted(piles):
        piles[p][:] = fixed_pile.get(p, []) + [next(it) for _ in range(pile_free[p])]
    for col, heap in enumerate(heaps):
        known = new_heaps.get(col, [])
        heap[:] = known + [next(it) for _ in range(len(heap) - len(known))]
    other.draw[:] = [next(it) for _ in other.draw]
    deck = cards_in_use(state.options.use_jungle, state.options.use_baby)
    head = HAND_DEAL * n + state.ncols
    other.decks = [_plain_random_deck(deck, head, rng) for _ in state.decks]
    other._legal = None
    return other


@pytest.mark.parametrize(("players", "options"), [(2, None), (3, OPTIONS[1]), (4, None)])
def test_deal_deals_as_the_plain_code(players: int, options: dict[str, bool] | None) -> None:
    """A memory that watched a game re-deals as the plain code, draw for draw."""
    state = GAME.new_game(players, options, seed=40 + players)
    memories = [DudabMemory(seat) for seat in range(players)]
    policy = DudabRollout()
    rng = random.Random(players)
    dealt = 0
    step = 0
    while not state.is_terminal():
        seat = state.to_act()
        if step % 5 == 0:
            memory = memories[seat]
            for first in (False, True):
                fast_rng, plain_rng = random.Random(step), random.Random(step)
                fast = memory._deal(state, fast_rng, either_in_hand_first=first)
                plain = _plain_deal(memory, state, plain_rng, either_in_hand_first=first)
                assert fast_rng.getstate() == plain_rng.getstate()
                assert (fast is None) == (plain is None)
                if fast is not None and plain is not None:
                    assert fast.to_position() == plain.to_position()
                    dealt += 1
        events = state.apply(seat, policy.act(state, seat, rng))
        for s, memory in enumerate(memories):
            memory.observe(visible_events(events, s))
        step += 1
    assert dealt > 50
