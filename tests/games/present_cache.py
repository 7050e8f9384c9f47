"""Shared check of a presenter that keeps parts of its displays: kept parts equal fresh ones.

The server builds a display per seat and language at every step; a presenter that keeps parts
(card faces, boards, panels) by everything they are made from must give, for every seat, the
spectator and every language at every step of random games, the display it would make afresh.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from campfire.core import get
from campfire.server.protocol import speaking


def check_kept_displays(
    name: str, player_counts: Iterable[int], seed: int, forget: Callable[[], None]
) -> None:
    """Play random games of ``name``; at every step compare kept, fresh and re-kept displays.

    ``forget`` clears what the presenter keeps.
    """
    game = get(name)
    presenter = game.presenter()
    rng = random.Random(seed)
    steps = 0
    for players in player_counts:
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
                    forget()
                    fresh = presenter.display(view, legal, names)
                    again = presenter.display(view, legal, names)  # from the kept parts
                assert kept == fresh == again, (players, seat, steps, language)
            if state.is_terminal():
                break
            mover = rng.choice(list(state.seats_to_act()))
            state.apply(mover, rng.choice(state.legal_actions(mover)))
            steps += 1
    assert steps > 100
