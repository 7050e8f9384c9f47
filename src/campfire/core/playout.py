"""A random playout: a game played to its end by uniformly random legal actions.

:func:`random_playout` is the loop of ``campfire bench`` and of the benchmarks' random games:
at each step a seat among those to act (drawn at random when several may) picks one of its
legal actions at random. It is compiled with the engines (``docs/compiled.md``), so that the
loop around the engine costs little next to the engine itself; its draws are those of the
generator's own ``choice`` (:mod:`.draws`), so a seeded playout plays the same game in either
build.

>>> import random
>>> from campfire import all_games
>>> game = all_games()[0]
>>> state = game.new_game(game.min_players, seed=1)
>>> random_playout(state, random.Random(2)) > 0, state.is_terminal()
(True, True)
"""

from __future__ import annotations

import random

from .draws import choice
from .state import State

__all__ = ["random_playout"]


def random_playout(state: State, rng: random.Random) -> int:
    """Play ``state`` to its end with random legal actions drawn from ``rng``; the actions played.

    Each step: the one seat to act, or one drawn with ``choice(rng, seats)`` when several may;
    then its action, ``choice(rng, state.legal_actions(seat))``, applied with ``state.apply``.
    """
    actions = 0
    while not state.is_terminal():
        seats = state.seats_to_act()
        seat = seats[0] if len(seats) == 1 else choice(rng, seats)
        state.apply(seat, choice(rng, state.legal_actions(seat)))
        actions += 1
    return actions
