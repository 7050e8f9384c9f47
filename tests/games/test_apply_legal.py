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


#: the games of this package (a plugin's, such as the tests' example, may leave it out)
BUILT_IN = sorted(g.name for g in all_games() if type(g).__module__.startswith("campfire.games."))


@pytest.mark.parametrize("name", sorted(g.name for g in all_games()))
def test_legal_action_indices_are_those_of_the_legal_actions_and_their_objects(name: str) -> None:
    """``State.legal_action_indices`` keeps its promise for every seat, to act or not, whether
    it is asked before the legal actions were computed or after."""
    game = next(g for g in all_games() if g.name == name)
    rng = random.Random(f"legal-indices/{name}")
    checked = 0
    for seed in range(4):
        players = rng.randint(game.min_players, game.max_players)
        state = game.new_game(players, seed=seed)
        steps = 0
        while not state.is_terminal() and steps < 2000:
            for seat in range(players):
                # asked first (a clone has computed nothing), as a batch of games asks
                first = state.clone().legal_action_indices(seat)
                legal = state.legal_actions(seat)
                known = state.legal_action_indices(seat)
                if known is None:  # the default: the adapters look each action up
                    assert name not in BUILT_IN  # (each built-in game gives them)
                    continue
                assert list(known) == [game.action_index(a, players) for a in legal]
                assert first is not None and list(first) == list(known)
                table = [game.action_from_index(i, players) for i in known]
                assert all(a is b for a, b in zip(table, legal, strict=True))
                checked += 1
            seat = rng.choice(list(state.seats_to_act()))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1
        if state.is_terminal():  # over: nothing is legal
            assert not state.legal_action_indices(0)
    assert checked or name not in BUILT_IN
