"""``Display.to_json`` gives exactly what ``dataclasses.asdict`` gives (it is a faster copy)."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from enum import StrEnum
from typing import Any

import pytest

from campfire.core import all_games
from campfire.core.present import CardFace, Display, PlayerPanel, Zone


def _same(a: Any, b: Any) -> None:
    assert a == b
    assert repr(a) == repr(b)  # same types too: tuples stay tuples, lists lists
    assert json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


@pytest.mark.parametrize("name", [g.name for g in all_games()])
def test_every_seats_display_of_random_games_is_what_asdict_gives(name: str) -> None:
    game = next(g for g in all_games() if g.name == name)
    checked = 0
    for players in (game.min_players, game.max_players):
        rng = random.Random(players)
        state = game.new_game(players, seed=players)
        presenter = game.presenter()
        names = [f"P{i}" for i in range(players)]
        for step in range(120):
            if state.is_terminal():
                break
            if step % 10 == 0:
                for seat in [*range(players), None]:
                    to_act = seat is not None and seat in state.seats_to_act()
                    legal = state.legal_actions(seat) if to_act else []
                    display = presenter.display(state.view(seat), legal, names)
                    _same(display.to_json(), asdict(display))
                    checked += 1
            mover = rng.choice(list(state.seats_to_act()))
            state.apply(mover, rng.choice(state.legal_actions(mover)))
    assert checked >= 10


class _Colour(StrEnum):
    RED = "red"


class _Marks(tuple[str, ...]):
    pass


def test_unusual_values_are_copied_as_asdict_copies_them() -> None:
    card = CardFace("c1", colour=_Colour.RED, marks=_Marks(("a", "b")))
    display = Display(
        game="g",
        seat=None,
        status="",
        prompt="",
        to_act=(0,),
        players=(PlayerPanel(0, "Ann", facts=(("trackers", "3"),)),),
        zones=(Zone("z", "Z", cards=(card,), count=1),),
    )
    out = display.to_json()
    _same(out, asdict(display))
    assert out["zones"][0]["cards"][0]["colour"] is _Colour.RED
    assert type(out["zones"][0]["cards"][0]["marks"]) is _Marks
