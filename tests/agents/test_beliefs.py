"""Determinisations and beliefs, on every game: what a sampled world keeps and what it re-deals.

The contract (``docs/architecture.md``, "Determinisation"): a belief's sample keeps the seat's
view; it agrees with every fact the seat saw in public (Dudab's captures and Baby heaps,
Tracker's peeked cards followed into piles); and it is a function of the seat's information and
the generator only, so sampling from a sample gives the same world as sampling from the truth.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, cast

import pytest

import campfire
from campfire.core import Belief, Game, State, visible_events
from campfire.games.dudab.cards import FACE, parse_face
from campfire.games.dudab.state import T_KEEP, DudabState
from campfire.games.tracker.cards import parse_card
from campfire.games.tracker.state import TrackerState

GAMES = campfire.all_games()


def _playout(game: Game[Any], players: int, seed: int, every: int) -> Any:
    """Random play with a perfect-memory belief per seat; yields (state, beliefs, history)."""
    state = game.new_game(players, seed=seed)
    beliefs = [game.new_belief(s, players, state.options) for s in range(players)]
    history: list[list[Any]] = [[] for _ in range(players)]
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state, beliefs, history
        seat = state.seats_to_act()[0]
        actions = state.legal_actions(seat)
        before = state.clone()
        events = state.apply(seat, actions[rng.randrange(len(actions))])
        for s, belief in enumerate(beliefs):
            seen = visible_events(events, s)
            belief.observe(seen)
            history[s].append((before, seen, state.clone()))
        step += 1


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_sample_keeps_the_view_and_depends_only_on_what_the_seat_knows(game: Game[Any]) -> None:
    checked = 0
    for players in sorted({game.min_players, min(game.max_players, 4)}):
        for seed in range(2):
            for state, beliefs, _ in _playout(game, players, seed, every=5):
                for seat, belief in enumerate(beliefs):
                    world = belief.sample(state, random.Random(1000 + seat))
                    assert world is not state
                    assert world.view(seat) == state.view(seat)
                    # the same generator gives the same sample from the truth and from a world
                    direct = belief.sample(state, random.Random(7)).to_position()
                    again = belief.sample(world, random.Random(7)).to_position()
                    assert direct == again
                    checked += 1
    assert checked > 20


def _new_column_cards(before: DudabState, after: DudabState) -> set[int]:
    """The cards that appeared on a column (visible, Jungle or heap) during one action."""

    def on_columns(s: DudabState) -> set[int]:
        cards = {c for v in s.vis for c in v} | {c for h in s.heap for c in h}
        return cards | {j for j in s.jungle if j >= 0}

    return on_columns(after) - on_columns(before)


def _faces(cards: list[int] | set[int]) -> Counter[int]:
    return Counter(FACE[c] for c in cards)


def test_dudab_samples_agree_with_every_card_seen_going_into_piles_and_heaps() -> None:
    """A card seen on the table that went into a pile or a heap is sampled there (dudab §9)."""
    game = campfire.get_game("dudab")
    checked = 0
    for players, options in ((3, {}), (4, {"use_baby": True, "use_jungle": True})):
        for seed in range(3):
            state = game.new_game(players, options, seed=seed)
            beliefs = [game.new_belief(s, players, state.options) for s in range(players)]
            seen: set[int] = set()  # what every seat saw land on the table this round
            rng = random.Random(seed)
            while not state.is_terminal():
                assert isinstance(state, DudabState)
                seat = state.seats_to_act()[0]
                world = beliefs[seat].sample(state, random.Random(checked))
                assert isinstance(world, DudabState)
                for p in range(players):
                    if p == seat:
                        continue
                    known = _faces(set(state.piles[p]) & seen)
                    assert not known - _faces(world.piles[p]), (p, known)
                for col in range(state.ncols):
                    known = _faces(set(state.heap[col]) & seen)
                    assert not known - _faces(world.heap[col]), (col, known)
                checked += 1
                actions = state.legal_actions(seat)
                before = state.clone()
                events = state.apply(seat, actions[rng.randrange(len(actions))])
                if state.is_terminal():
                    break
                assert isinstance(state, DudabState)
                if state.round != before.round:
                    seen = set()
                seen |= _new_column_cards(before, state)
                for s, belief in enumerate(beliefs):
                    belief.observe(visible_events(events, s))
    assert checked > 500


def test_dudab_samples_keep_a_revealed_hand_in_that_hand() -> None:
    """Cards shown by a failed call or a five-card draw stay in that hand until they leave it."""
    game = campfire.get_game("dudab")
    checked = 0
    for seed in range(8):
        state = game.new_game(3, seed=seed)
        beliefs = [game.new_belief(s, 3, state.options) for s in range(3)]
        shown: dict[int, Counter[int]] = {}  # revealer → faces still known to be in its hand
        rng = random.Random(seed)
        while not state.is_terminal():
            assert isinstance(state, DudabState)
            seat = state.seats_to_act()[0]
            capturer = state.tasks[-1][1] if state.tasks and state.tasks[-1][0] == T_KEEP else -1
            for revealer, faces in shown.items():
                if revealer == seat or revealer == state.revealed:
                    continue  # the seat's own hand, or a hand on show, is in the view
                world = beliefs[seat].sample(state, random.Random(checked))
                assert isinstance(world, DudabState)
                held = world.hands[revealer] + (world.kept if revealer == capturer else [])
                assert not faces - _faces(held), (revealer, faces)
                checked += 1
            actions = state.legal_actions(seat)
            events = state.apply(seat, actions[rng.randrange(len(actions))])
            for s, belief in enumerate(beliefs):
                belief.observe(visible_events(events, s))
            for e in events:
                who = e.data.get("seat")
                if e.type == "round_end":
                    shown.clear()
                elif e.type == "reveal_hand":
                    shown[cast(int, who)] = Counter(parse_face(f) for f in e.data["cards"])
                elif who not in shown:
                    continue
                elif e.type in ("place", "to_pile") and e.data["card"] is not None:
                    shown[who][parse_face(e.data["card"])] -= 1
                elif e.type == "rest" and e.data["to"] == "discard":
                    shown[who] -= Counter(parse_face(f) for f in e.data["cards"])
                elif e.type in ("to_pile", "rest"):  # hand to pile unseen: no longer certain
                    del shown[who]
                if who in shown:
                    shown[who] = +shown[who]
    assert checked > 20


def test_tracker_samples_follow_a_peeked_card_into_its_collectors_pile() -> None:
    """A perfect memory knows where every card it peeked is, on the board or in a pile."""
    game = campfire.get_game("tracker")
    checked = 0
    for seed in range(4):
        state = game.new_game(3, {"peek_count": 3}, seed=seed)
        beliefs = [game.new_belief(s, 3, state.options) for s in range(3)]
        peeked: list[set[int]] = [set() for _ in range(3)]
        rng = random.Random(seed)
        while not state.is_terminal():
            assert isinstance(state, TrackerState)
            seat = state.seats_to_act()[0]
            world = beliefs[seat].sample(state, random.Random(checked))
            assert isinstance(world, TrackerState)
            for card in peeked[seat]:
                if card in state.board:
                    assert world.board[state.board.index(card)] == card
                else:
                    owner = next(p for p, pile in enumerate(state.captured) if card in pile)
                    assert card in world.captured[owner]
                checked += 1
            actions = state.legal_actions(seat)
            events = state.apply(seat, actions[rng.randrange(len(actions))])
            for s, belief in enumerate(beliefs):
                seen = visible_events(events, s)
                belief.observe(seen)
                for e in seen:
                    if e.type == "peek_card" and e.data["seat"] == s:
                        peeked[s].add(parse_card(e.data["card"]))
    assert checked > 100


def test_games_without_a_belief_of_their_own_keep_what_became_public_in_the_view() -> None:
    """Apache and Big Manitou: nothing seen in public is hidden again, so no belief is needed.

    Apache's won cards lie face down, but they were won in view of everyone and every view
    names them; Big Manitou's turned-down heroes keep their identity in the view, and no card
    shown to the table ever returns to a hand.
    """
    for name in ("apache", "manitou"):
        game = campfire.get_game(name)
        assert type(game.new_belief(0, 3, game.options())) is Belief
        state: State = game.new_game(3, seed=1)
        rng = random.Random(1)
        while not state.is_terminal():
            seat = state.seats_to_act()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randrange(len(actions))])
            position = state.to_position()["state"]
            for s in range(3):
                view = state.view(s)
                if name == "apache":
                    assert view["piles"] == position["piles"]
                else:
                    on_grounds = [[c[1] for c in g["cards"]] for g in view["grounds"]]
                    assert on_grounds == [[c[1] for c in g] for g in _manitou_table(state)]


def _manitou_table(state: State) -> list[list[tuple[int, str]]]:
    """Every card on Big Manitou's grounds, face-down heroes included: (seat, card name)."""
    from campfire.games.manitou.cards import CARD_NAMES
    from campfire.games.manitou.state import ManitouState

    assert isinstance(state, ManitouState)
    return [[((code & 255) >> 4, CARD_NAMES[code & 15]) for code in g] for g in state.table]
