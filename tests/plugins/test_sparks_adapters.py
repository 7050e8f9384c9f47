"""Sparks in the research adapters: OpenSpiel's ``random_sim_test``, PettingZoo's ``api_test``.

The adapters ask the game for its observation encoder (``Game.encoder``, the plugin contract of
issue 27). Where Campfire predates that contract, the encoder is handed to the adapters' own
table of encoders for the test, the one place a game outside Campfire could not reach.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import numpy as np
import pyspiel
from campfire_sparks import GAME, SparksState
from campfire_sparks.encoder import SparksEncoder
from pettingzoo.test import api_test

from campfire.adapters import encoders
from campfire.adapters import openspiel as cs
from campfire.adapters.pettingzoo import env
from campfire.adapters.session import Session
from campfire.core import Game

PLAYERS = range(GAME.min_players, GAME.max_players + 1)


@pytest.fixture(autouse=True)
def encoder_known(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if not hasattr(Game, "encoder") and hasattr(encoders, "_ENCODERS"):
        monkeypatch.setitem(encoders._ENCODERS, GAME.name, SparksEncoder)
    cs.register()  # OpenSpiel learns the games registered now (done on import for the rest)
    yield


@pytest.mark.parametrize("players", PLAYERS)
def test_openspiel_random_sim_test_passes(players: int) -> None:
    game = cs.load("sparks", players, trumps=True)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [GAME.min_players, GAME.max_players])
def test_pettingzoo_api_test_passes(players: int) -> None:
    api_test(env("sparks", players=players), num_cycles=200, verbose_progress=False)


def test_the_observation_is_the_encoding_of_the_view_and_hides_other_hands() -> None:
    session = Session("sparks", 3, seed=5)
    encoder = GAME.encoder(3)
    for seat in range(3):
        assert np.array_equal(
            session.observation(seat), encoder.encode(session.state.view(seat), None)
        )
    world = session.state.determinize(0, random.Random(1))
    assert isinstance(world, SparksState) and isinstance(session.state, SparksState)
    assert world.hands[1] != session.state.hands[1] or world.hands[2] != session.state.hands[2]
    assert np.array_equal(encoder.encode(world.view(0), None), session.observation(0))
