"""Apache's kept display parts (table, piles, board, panels, claim choices): kept equals fresh."""

from __future__ import annotations

import random

import pytest

from campfire.core import get
from campfire.games.apache import present
from campfire.server.protocol import speaking
from tests.games.present_cache import check_kept_displays


@pytest.mark.slow  # about 30 s: started first (tests/conftest.py)
def test_kept_parts_are_those_made_afresh_for_every_seat_and_language() -> None:
    check_kept_displays("apache", (2, 3, 5), 12, present._KEPT.clear)


def test_kept_claim_choices_are_those_made_afresh_in_each_language() -> None:
    game = get("apache")
    presenter = game.presenter()
    state = game.new_game(3, seed=8)
    rng = random.Random(8)
    windows = 0
    for _ in range(200):
        if state.is_terminal():
            break
        to_act = list(state.seats_to_act())
        if len(to_act) > 1:  # a claim window: every type at every reaction time
            windows += 1
            seat = to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            shown = {}
            for language in ("en", "hu", "cs", "en"):
                with speaking(language):
                    kept = presenter.display(view, legal, ["A", "B", "C"])
                    present._KEPT.clear()
                    fresh = presenter.display(view, legal, ["A", "B", "C"])
                assert kept == fresh
                shown[language] = [a.label for a in kept.actions if a.notation.startswith("claim")]
            assert shown["en"] and shown["hu"] != shown["en"] and shown["cs"] != shown["en"]
        mover = rng.choice(to_act)
        state.apply(mover, rng.choice(state.legal_actions(mover)))
    assert windows > 0
