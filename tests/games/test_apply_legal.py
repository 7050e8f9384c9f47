"""The engines' unchecked path: ``apply_legal`` does what ``apply`` does for a legal action."""

from __future__ import annotations

import random

import pytest

from campfire.core import all_games


@pytest.mark.parametrize("name", sorted(g.name for g in all_games()))
def test_apply_legal_is_apply_without_the_checks(name: str) -> None:
    game = next(g for g in all_games() if g.name == name)
    rng = random.Random(f"apply-legal/{name}")
    for seed in range(3):
        players = rng.randint(game.min_players, game.max_players)
        checked = game.new_game(players, seed=seed)
        unchecked = checked.clone()
        steps = 0
        while not checked.is_terminal() and steps < 2000:
            seat = rng.choice(list(checked.seats_to_act()))
            legal = checked.legal_actions(seat)
            index = rng.randrange(len(legal))
            events = checked.apply(seat, legal[index])
            assert unchecked.apply_legal(seat, unchecked.legal_actions(seat)[index]) == events
            steps += 1
        assert unchecked.to_position() == checked.to_position()
        assert unchecked.is_terminal() == checked.is_terminal()
