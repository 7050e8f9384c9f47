"""The public boundary of every game: only legal actions get in, and seats are validated.

Every registered game runs through these checks: hand-built action objects with out-of-range
or garbage fields, objects that are no action at all, and values that are no seat are refused
with the project's errors (``CampfireError`` subclasses, never ``IndexError`` or ``TypeError``)
and leave the state unchanged.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import campfire
from campfire.core import Action, CampfireError, Game, IllegalActionError, SeatError, State

GAMES = campfire.all_games()
PLAYER_CASES = [
    pytest.param(game, players, id=f"{game.name}-{players}p")
    for game in GAMES
    for players in range(game.min_players, game.max_players + 1)
]

#: values put into the fields of a legal action to hand-build garbage
GARBAGE_FIELDS: tuple[Any, ...] = (-1, 99, 10**6, True, 1.5, "x", None, [1])
#: objects that are no action of any game
NOT_ACTIONS: tuple[Any, ...] = (None, 3, 1.5, object(), b"pass", ["pass"], ("peek", 1))
#: values that are no seat (besides ``players`` itself, out of range)
BAD_SEATS: tuple[Any, ...] = (True, False, 1.0, "0", -1, 10**9, [0])


def snapshot(state: State) -> str:
    return json.dumps(state.to_position(), sort_keys=True)


def walk(game: Game[Any], players: int, seed: int, every: int) -> Iterator[State]:
    """Every ``every``-th state of one random game."""
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        step += 1
    yield state


def hand_built(action: Action) -> Iterator[Action]:
    """Copies of ``action`` with one field replaced by a garbage value."""
    assert dataclasses.is_dataclass(action)
    for f in dataclasses.fields(action):
        for value in GARBAGE_FIELDS:
            try:
                yield dataclasses.replace(action, **{f.name: value})
            except (TypeError, ValueError):
                continue


@pytest.mark.parametrize(("game", "players"), PLAYER_CASES)
def test_hand_built_actions_are_refused_unless_legal_and_leave_the_state_unchanged(
    game: Game[Any], players: int
) -> None:
    rng = random.Random(4)
    for state in walk(game, players, seed=4, every=7):
        before = snapshot(state)
        for seat in state.seats_to_act():
            legal = state.legal_actions(seat)
            for action in rng.sample(legal, min(3, len(legal))):
                for built in hand_built(action):
                    if state.is_legal(seat, built):
                        # equal to a legal action: accepted, as that action
                        state.clone().apply(seat, built)
                        continue
                    with pytest.raises(CampfireError):
                        state.apply(seat, built)
                # one comparison for the copies of one action (the snapshot is the costly part)
                assert snapshot(state) == before, f"a garbled copy of {action!r} changed the state"
            for thing in NOT_ACTIONS:
                assert not state.is_legal(seat, thing)
                with pytest.raises(CampfireError):
                    state.apply(seat, thing)
        assert snapshot(state) == before


@pytest.mark.parametrize(("game", "players"), PLAYER_CASES)
def test_values_that_are_no_seat_are_refused_at_every_entry_point(
    game: Game[Any], players: int
) -> None:
    rng = random.Random(6)
    for state in walk(game, players, seed=6, every=11):
        before = snapshot(state)
        to_act = state.seats_to_act()
        action = state.legal_actions(to_act[0])[0] if to_act else None
        for bad in (*BAD_SEATS, players):
            if action is not None:
                with pytest.raises(IllegalActionError) as info:
                    state.apply(bad, action)
                assert info.value.rule == "seat"
                assert not state.is_legal(bad, action)
            with pytest.raises(SeatError):
                state.legal_actions(bad)
            with pytest.raises(SeatError):
                state.view(bad)
            with pytest.raises(SeatError):
                state.render(bad)
            with pytest.raises(SeatError):
                state.determinize(bad, rng)
        if action is not None:
            with pytest.raises(IllegalActionError, match="seat"):
                state.apply(None, action)  # type: ignore[arg-type]
        with pytest.raises(SeatError):
            state.determinize(None, rng)  # type: ignore[arg-type]
        state.view(None)  # a spectator may view
        state.render(None)
        assert snapshot(state) == before


@pytest.mark.parametrize(("game", "players"), PLAYER_CASES)
def test_legal_actions_are_in_index_order(game: Game[Any], players: int) -> None:
    # apply finds an action in the cached legal list by its index (a binary search)
    for state in walk(game, players, seed=8, every=1):
        for seat in state.seats_to_act():
            indices = [game.action_index(a, players) for a in state.legal_actions(seat)]
            assert indices == sorted(indices)
