"""The step-level conformance checks cover every pair of values (tests/conformance)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import campfire
from campfire.core import Game

from .covering import covering_rows
from .test_conformance import _step_cases

GAMES = campfire.all_games()


def _factors(game: Game[Any], players: int, options: Any) -> list[tuple[str, Any]]:
    varied = [info.name for info in game.options_type.infos() if len(info.sweep) > 1]
    return [("players", players), *((name, getattr(options, name)) for name in varied)]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_covering_rows_hold_every_pair_some_valid_combination_holds(game: Game[Any]) -> None:
    counts = range(game.min_players, game.max_players + 1)
    every = [(p, o) for p in counts for o in game.options_type.combinations()]
    wanted = {pair for p, o in every for pair in itertools.combinations(_factors(game, p, o), 2)}
    rows = covering_rows(game)
    covered = {pair for p, o in rows for pair in itertools.combinations(_factors(game, p, o), 2)}
    assert wanted <= covered
    # only valid combinations, the defaults at every player count, no row twice
    assert all(row in every for row in rows)
    assert [(p, game.options_type()) for p in counts] == rows[: len(counts)]
    assert len(set(map(repr, rows))) == len(rows)
    assert len(rows) < len(every)


def test_all_option_combinations_gives_every_combination_once() -> None:
    cases = _step_cases(True)
    for game in GAMES:
        options = [case.values[2] for case in cases if case.values[0] is game]
        default = game.options_type()
        others = [o for o in options if o != default]
        assert sorted(map(repr, others)) == sorted(
            repr(o) for o in game.options_type.combinations() if o != default
        )
        assert options.count(default) == game.max_players - game.min_players + 1
