"""Big Manitou clones share the generator until one of them draws (copy-on-write).

A clone costs almost nothing for the generator (ISMCTS clones constantly), yet a clone and its
original draw independently: drawing in one never changes the other's future draws.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from campfire.games.manitou import GAME, ManitouState

from .helpers import fresh

TILES = ["tipi1", "buffalo2", "totem", "horse", "tomahawk", "tipi3"] * 10


def _undealt(seed: int) -> ManitouState:
    """A game whose setup gives no deck orders or bag places: every deal and return is drawn."""
    state = fresh(3, 0, TILES, seed=seed, leftover_tiles="bag")
    assert not state.deals and not state.returns
    return state


def _play_out(state: ManitouState, seed: int) -> list[Any]:
    """Play ``state`` to the end with seeded random choices; its positions on the way."""
    rng = random.Random(seed)
    positions = []
    while not state.is_terminal():
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        positions.append(state.to_position())
    return positions


def _copy(state: ManitouState) -> ManitouState:
    """An independent copy made through JSON (no generator shared)."""
    return GAME.state_from_position(json.loads(json.dumps(state.to_position())))


@pytest.mark.parametrize("first", ["clone", "original"])
def test_drawing_in_a_clone_never_changes_the_original_draws_and_vice_versa(first: str) -> None:
    state = _undealt(3)
    rng = random.Random(1)
    for _ in range(25):  # the selection is over: the next hunts' deals are drawn
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    reference = _copy(state)
    clone = state.clone()
    assert clone.rng is state.rng  # shared until one of them draws
    one, other = (clone, state) if first == "clone" else (state, clone)
    _play_out(one, 99)  # other choices: other deals, other bag places
    assert one.rng.getstate() != reference.rng.getstate()  # it drew
    # the other draws exactly what it would have drawn had there been no clone
    assert _play_out(other, 5) == _play_out(reference, 5)


def test_a_clone_draws_what_its_original_would_have_drawn() -> None:
    state = _undealt(4)
    clone = state.clone()
    assert _play_out(clone, 7) == _play_out(state, 7)


def test_a_determinisation_has_its_own_generator() -> None:
    state = _undealt(5)
    world = state.determinize(0, random.Random(2))
    assert world.rng is not state.rng and not world._rng_shared
    before = state.rng.getstate()
    _play_out(world, 1)
    assert state.rng.getstate() == before
