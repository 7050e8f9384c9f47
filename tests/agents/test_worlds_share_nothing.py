"""A determinisation shares no mutable object with the true state (issue 11, item 7).

Agents receive determinisations (their observation's world and every sample of it). If a world
shared a list or a dict with the true state, an agent could change the real game by writing to
its world (Dudab's last-round report once was such a shared dict).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import campfire
from campfire.core import Game, Options

GAMES = campfire.all_games()
_MUTABLE = (list, dict, set, bytearray, random.Random)


def mutable_ids(root: Any) -> set[int]:
    """The ids of every mutable container reachable from ``root``'s attributes."""
    seen: set[int] = set()
    found: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, Game | Options | str | bytes | int | float):
            continue
        seen.add(id(obj))
        if isinstance(obj, _MUTABLE):
            found.add(id(obj))
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            stack.extend(obj)
        elif obj is not root and not hasattr(obj, "__dict__") and not hasattr(obj, "__slots__"):
            continue
        else:
            stack.extend(getattr(obj, "__dict__", {}).values())
            for cls in type(obj).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(obj, name):
                        stack.append(getattr(obj, name))
    found.discard(id(root))
    return found


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_determinisation_shares_no_mutable_object_with_the_true_state(game: Game[Any]) -> None:
    rng = random.Random(5)
    n = min(3, game.max_players)
    state = game.new_game(n, seed=11)
    checked = 0
    while not state.is_terminal():
        if rng.random() < 0.05:
            truth = mutable_ids(state)
            for seat in range(n):
                world = state.determinize(seat, random.Random(seat))
                shared = truth & mutable_ids(world)
                assert not shared, f"{game.name}: seat {seat}'s world shares mutable objects"
                view = world.view(seat)
                assert not truth & mutable_ids(view), f"{game.name}: the world's view shares"
            checked += 1
        seat = rng.choice(state.seats_to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 0
