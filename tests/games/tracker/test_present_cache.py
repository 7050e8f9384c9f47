"""Tracker's kept display parts (board, piles, panels, choices): a kept part equals a fresh one.

The server builds a display per seat and language at every step; the presenter keeps each part
by everything it is made from, so the kept display of every seat, the spectator and every
language, at every step of random games of 2 to 6 players, must equal one made afresh.
"""

from __future__ import annotations

import random

from campfire.core import get
from campfire.games.tracker import present
from campfire.server.protocol import speaking


def test_kept_parts_are_those_made_afresh_for_every_seat_and_language() -> None:
    game = get("tracker")
    presenter = game.presenter()
    rng = random.Random(14)
    steps = 0
    for players in (2, 4, 6):
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
                    present._KEPT.clear()
                    fresh = presenter.display(view, legal, names)
                    again = presenter.display(view, legal, names)  # from the kept parts
                assert kept == fresh == again, (players, seat, steps, language)
            if state.is_terminal():
                break
            mover = rng.choice(list(state.seats_to_act()))
            state.apply(mover, rng.choice(state.legal_actions(mover)))
            steps += 1
    assert steps > 100
