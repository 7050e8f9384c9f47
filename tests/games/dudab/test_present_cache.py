"""Dudab's kept card faces: a display built from kept faces equals one made afresh.

Every seat's, the spectator's and every language's display at every step of random games of
2 and 3 players is built twice: with the faces kept so far, and after forgetting them all.
"""

from __future__ import annotations

import random

from campfire.core import get
from campfire.games.dudab import present
from campfire.server.protocol import speaking


def test_kept_faces_are_those_made_afresh_for_every_seat_and_language() -> None:
    game = get("dudab")
    presenter = game.presenter()
    rng = random.Random(6)
    steps = 0
    for players in (2, 3):
        state = game.new_game(players, seed=players)
        names = [f"P{i}" for i in range(players)]
        while True:
            language = ("en", "hu", "cs")[steps % 3]
            for seat in [*range(players), None]:
                acting = seat is not None and not state.is_terminal()
                legal = state.legal_actions(seat) if acting and seat in state.seats_to_act() else []
                view = state.view(seat)
                with speaking(language):
                    kept = presenter.display(view, legal, names)
                    present._FACES_KEPT.clear()
                    fresh = presenter.display(view, legal, names)
                assert kept == fresh, (players, seat, steps, language)
            if state.is_terminal():
                break
            mover = rng.choice(list(state.seats_to_act()))
            state.apply(mover, rng.choice(state.legal_actions(mover)))
            steps += 1
    assert steps > 100
