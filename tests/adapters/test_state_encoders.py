"""Encoders that read the engine state directly equal the encoders of the seat's view.

``Encoder.encode_state`` skips building the view's JSON; the hidden-information guarantee holds
because it equals ``encode(state.view(seat), belief)`` — here after every step of seeded random
games, for every seat, at every player count of every game (``test_encoders.py`` also checks
that a state and its determinisations encode identically through it).
"""

import random
from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import pytest

from campfire.adapters.encoders import Encoder, encoder_for
from campfire.adapters.session import Session
from campfire.core import State
from tests.compiled_build import skip_compiled

from .conftest import GAME_PLAYERS

#: options whose views differ: Apache's public answers, Dudab's expansion cards
VARIANTS: list[tuple[str, int, dict[str, Any]]] = [
    ("apache", 3, {"claim_order": "arrival"}),
    ("apache", 2, {"sharing": True}),
    ("dudab", 3, {"use_jungle": True, "use_baby": True}),
    ("dudab", 6, {"use_jungle": True, "use_baby": True}),
]


#: every game at every player count with its default options, then the variants
CASES: list[tuple[str, int, dict[str, Any]]] = [(*gp, {}) for gp in GAME_PLAYERS] + VARIANTS


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_the_state_path_equals_the_view_path_after_every_step(
    game: str, players: int, options: dict[str, Any]
) -> None:
    seat: int | None
    for seed in range(2):
        session = Session(game, players, options, seed=100 * players + seed)
        encoder = session.encoder
        rng = random.Random(seed)
        while True:
            state, beliefs = session.state, session.beliefs
            for seat in range(players):
                direct = encoder.encode_state(state, seat, beliefs[seat])
                via_view = encoder.encode(state.view(seat), beliefs[seat])
                if not np.array_equal(direct, via_view):
                    differ = np.flatnonzero(direct != via_view).tolist()
                    slots = sorted({_slot_at(encoder, i) for i in differ})
                    pytest.fail(f"seat {seat}, move {session.moves}: slots {slots} differ")
            seat = session.current_seat()
            if seat is None:
                break
            session.apply(seat, rng.choice(session.legal(seat)))


def _slot_at(encoder: Encoder, index: int) -> str:
    for name, offset, shape in ((s.name, s.offset, s.shape) for s in encoder._layout.slots):
        if offset <= index < offset + int(np.prod(shape)):
            return name
    return "?"


@skip_compiled("campfire.core.encoding")  # a stand-in that is no State, on purpose
def test_another_state_class_is_encoded_through_its_view() -> None:
    encoder = encoder_for("apache", 2)

    class ViewOnly:
        def __init__(self, view: Mapping[str, Any]) -> None:
            self.view_of = view
            self.asked: list[int | None] = []

        def view(self, seat: int | None) -> Mapping[str, Any]:
            self.asked.append(seat)
            return self.view_of

    apache = Session("apache", 2, seed=1)
    stand_in = ViewOnly(apache.state.view(1))
    out = encoder.encode_state(cast(State, stand_in), 1, None)  # no State: on purpose
    assert stand_in.asked == [1]
    assert np.array_equal(out, encoder.encode(apache.state.view(1), None))
