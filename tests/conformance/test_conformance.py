"""The generic conformance suite: every registered game, every player count, every option set.

Each game added to the registry runs through these tests automatically. Random playouts and
replays run for every option combination at every player count. The checks made at every
step of a game run for every player count with the default options and for a set of rows in
which every pair of option values (and of an option value and a player count) appears; pass
``--all-option-combinations`` to run them for every option combination as well
(``benchmarks/README.md``, "Conformance at full size").
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import campfire
from campfire.core import (
    Action,
    CampfireError,
    Game,
    IllegalActionError,
    Match,
    Record,
    State,
    replay,
)

from .covering import covering_rows

GAMES = campfire.all_games()


def _cases() -> Iterator[Any]:
    for game in GAMES:
        for players in range(game.min_players, game.max_players + 1):
            for options in game.options_type.combinations():
                label = ",".join(f"{k}={v}" for k, v in options.non_default().items()) or "default"
                yield pytest.param(game, players, options, id=f"{game.name}-{players}p-{label}")


def _player_cases() -> Iterator[Any]:
    for game in GAMES:
        for players in range(game.min_players, game.max_players + 1):
            yield pytest.param(game, players, id=f"{game.name}-{players}p")


@functools.cache
def _step_cases(every_combination: bool) -> list[Any]:
    """The cases of the step-level checks.

    By default the covering rows of each game (:func:`covering_rows`); with
    ``--all-option-combinations``, every player count with the default options and every other
    option combination once, at a player count that cycles through the range.
    """
    cases = []
    for game in GAMES:
        default = game.options_type()
        if every_combination:
            rows = [(p, default) for p in range(game.min_players, game.max_players + 1)]
            span = game.max_players - game.min_players + 1
            others = [o for o in game.options_type.combinations() if o != default]
            rows += [(game.min_players + i % span, o) for i, o in enumerate(others)]
        else:
            rows = covering_rows(game)
        for players, options in rows:
            label = ",".join(f"{k}={v}" for k, v in options.non_default().items()) or "default"
            cases.append(pytest.param(game, players, options, id=f"{game.name}-{players}p-{label}"))
    return cases


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Give the tests marked ``step_cases`` their (game, players, options) cases."""
    if metafunc.definition.get_closest_marker("step_cases") is not None:
        every = bool(metafunc.config.getoption("all_option_combinations"))
        metafunc.parametrize(("game", "players", "options"), _step_cases(every))


CASES = list(_cases())
PLAYER_CASES = list(_player_cases())


def random_playout(match: Match, rng: random.Random, bound: int) -> None:
    """Play random legal actions until the end (or fail past ``bound`` actions)."""
    state = match.state
    for _ in range(bound):
        if state.is_terminal():
            return
        seats = state.seats_to_act()
        assert seats, "a running game must have a seat to act"
        assert len(seats) == 1 or match.game.simultaneous_steps, (
            f"seats {seats} act at once in a game that declares no simultaneous steps"
        )
        seat = seats[rng.randrange(len(seats))]
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        match.play(seat, legal[rng.randrange(len(legal))])
    pytest.fail(f"the game did not end within {bound} actions")


def as_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


# ----- declared facts ------------------------------------------------------------------------

#: the play modes and player aids user interfaces know (``Game.play_modes``, ``Game.assists``)
PLAY_MODES = {"turns", "timed-peek", "realtime-claims"}
ASSISTS = {"protect-me", "learning"}


@pytest.mark.parametrize(("game", "players"), PLAYER_CASES)
def test_declared_facts_are_ones_the_interfaces_know(game: Game[Any], players: int) -> None:
    assert game.play_modes and set(game.play_modes) <= PLAY_MODES
    assert len(set(game.play_modes)) == len(game.play_modes)
    assert set(game.assists) <= ASSISTS
    if "learning" in game.assists:  # marks what a seat was shown privately, for a while
        assert "timed-peek" in game.play_modes
    if "realtime-claims" in game.play_modes or "protect-me" in game.assists:
        assert game.simultaneous_steps  # both are about simultaneous answers
    assert isinstance(game.simultaneous_steps, bool)
    cap = game.move_cap(players)
    assert isinstance(cap, int) and not isinstance(cap, bool) and cap >= 1
    scores = game.public_scores(game.new_game(players, seed=3).view(None))
    assert scores is None or (len(scores) == players and all(isinstance(x, float) for x in scores))


# ----- playouts, determinism, records --------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_random_playout_terminates_and_replays(game: Game[Any], players: int, options: Any) -> None:
    for seed in range(2):
        match = Match(game, players, options, seed=seed)
        random_playout(match, random.Random(seed), game.playout_bound)
        outcome = match.state.outcome()
        assert len(outcome.scores) == players
        assert outcome.winners and all(outcome.ranks[w] == 1 for w in outcome.winners)
        record = match.record()
        data = json.loads(record.dumps())
        again = replay(Record.from_json(data))
        assert again.state.outcome() == outcome
        assert again.state.position_equal(match.state)


@pytest.mark.parametrize(("game", "players"), PLAYER_CASES)
def test_determinism_same_seed_same_record(game: Game[Any], players: int) -> None:
    records = []
    for _ in range(2):
        match = Match(game, players, seed=1234)
        random_playout(match, random.Random(99), game.playout_bound)
        rec = match.record().to_json()
        rec.pop("meta")
        records.append(as_json(rec))
    assert records[0] == records[1]


@pytest.mark.parametrize(("game", "players"), PLAYER_CASES)
def test_seeded_record_equals_explicit_setup(game: Game[Any], players: int) -> None:
    """The setup drawn from a seed, given explicitly, gives the same initial position."""
    seeded = game.new_game(players, seed=77)
    from campfire.core import GameRng

    setup = game.random_setup(players, game.options(), GameRng(77))
    explicit = game.new_game(players, setup=json.loads(json.dumps(setup)), seed=77)
    assert seeded.position_equal(explicit)


# ----- state contracts at every step ---------------------------------------------------------


def _walk(game: Game[Any], players: int, seed: int, options: Any = None) -> Iterator[State]:
    """Yield the states of one random game, from the start to the end."""
    state = game.new_game(players, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(game.playout_bound):
        yield state
        if state.is_terminal():
            return
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


@pytest.mark.step_cases
def test_position_round_trip_every_step(game: Game[Any], players: int, options: Any) -> None:
    for state in _walk(game, players, seed=3, options=options):
        position = state.to_position()
        text = json.dumps(position)
        restored = game.state_from_position(json.loads(text))
        assert as_json(restored.to_position()) == as_json(position)
        assert restored.seats_to_act() == state.seats_to_act()
        for seat in state.seats_to_act():
            assert restored.legal_actions(seat) == state.legal_actions(seat)
        for seat in [None, *range(players)]:
            assert restored.view(seat) == state.view(seat)


def _sample(items: list[Any], k: int, rng: random.Random) -> list[Any]:
    return items if len(items) <= k else rng.sample(items, k)


@pytest.mark.step_cases
def test_clone_independence_and_every_legal_action_applies(
    game: Game[Any], players: int, options: Any
) -> None:
    rng = random.Random(5)
    earlier: list[tuple[State, str]] = []
    for step, state in enumerate(_walk(game, players, seed=5, options=options)):
        snapshot = as_json(state.to_position())
        clone = state.clone()
        earlier.append((clone, snapshot))
        if step % 3 == 0 and not state.is_terminal():
            for seat in state.seats_to_act():
                legal = state.legal_actions(seat)
                # every legal action with the default options; a sample for the other options
                chosen = legal if options == game.options_type() else _sample(legal, 8, rng)
                for action in chosen:
                    child = state.clone()
                    events = child.apply(seat, action)
                    assert isinstance(events, list)
                    json.dumps([e.to_json() for e in events])
            assert as_json(state.to_position()) == snapshot, (
                "applying to a clone changed the original"
            )
        # earlier clones never change (two of them at each step, all of them at the end)
        for old, old_snapshot in _sample(earlier, 2, rng):
            assert as_json(old.to_position()) == old_snapshot
    for old, old_snapshot in earlier:
        assert as_json(old.to_position()) == old_snapshot


@pytest.mark.step_cases
def test_illegal_actions_raise_and_leave_state_unchanged(
    game: Game[Any], players: int, options: Any
) -> None:
    rng = random.Random(11)
    candidates = [
        game.action_from_index(i, players) for i in range(game.num_distinct_actions(players))
    ]
    for step, state in enumerate(_walk(game, players, seed=11, options=options)):
        if step % 4:
            continue
        snapshot = as_json(state.to_position())
        to_act = state.seats_to_act()
        for seat in range(players):
            legal = set(state.legal_actions(seat)) if seat in to_act else set()
            illegal = [a for a in candidates if a not in legal]
            tried = _sample(illegal, 6, rng)
            for action in tried:
                with pytest.raises(IllegalActionError) as info:
                    state.apply(seat, action)
                assert info.value.rule and str(info.value)
                assert not state.is_legal(seat, action)
            # one comparison for the seat's sample (the position is the costly part)
            assert as_json(state.to_position()) == snapshot, f"one of {tried} changed the state"
        for seat in to_act:
            for action in state.legal_actions(seat):
                assert state.is_legal(seat, action)


@pytest.mark.parametrize(("game", "players"), PLAYER_CASES)
def test_bad_notation_is_a_clear_error(game: Game[Any], players: int) -> None:
    state = game.new_game(players, seed=0)
    for text in ["", "xyzzy", "🙂", "peek -1 2 3"]:
        with pytest.raises(CampfireError):
            state.apply(state.seats_to_act()[0], text)


# ----- hidden information --------------------------------------------------------------------


@pytest.mark.step_cases
def test_determinisations_keep_what_a_seat_knows(
    game: Game[Any], players: int, options: Any
) -> None:
    rng = random.Random(21)
    for step, state in enumerate(_walk(game, players, seed=21, options=options)):
        if step % 5:
            continue
        snapshot = as_json(state.to_position())
        for seat in range(players):
            view = as_json(state.view(seat))
            spectator = as_json(state.view(None))
            legal = state.legal_actions(seat)
            for _ in range(4):
                det = state.determinize(seat, rng)
                assert as_json(det.view(seat)) == view
                assert as_json(det.view(None)) == spectator
                assert det.seats_to_act() == state.seats_to_act()
                assert det.legal_actions(seat) == legal
            assert as_json(state.to_position()) == snapshot, "determinize changed the original"


@pytest.mark.parametrize(("game", "players"), PLAYER_CASES)
def test_views_are_json_and_events_respect_visibility(game: Game[Any], players: int) -> None:
    state = game.new_game(players, seed=8)
    rng = random.Random(8)
    while not state.is_terminal():
        for seat in [None, *range(players)]:
            json.dumps(state.view(seat))
            assert isinstance(state.render(seat), str)
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        legal = state.legal_actions(seat)
        events = state.apply(seat, legal[rng.randrange(len(legal))])
        for event in events:
            json.dumps(event.to_json())
            if event.to is not None:
                assert event.to <= set(range(players))
    json.dumps(state.view(None))


# ----- action index space --------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), PLAYER_CASES)
def test_action_index_space_round_trips(game: Game[Any], players: int) -> None:
    size = game.num_distinct_actions(players)
    assert size > 0
    for index in range(size):
        action = game.action_from_index(index, players)
        assert isinstance(action, Action)
        assert game.action_index(action, players) == index
        assert game.parse_action(str(action)) == action
    with pytest.raises(ValueError):
        game.action_from_index(size, players)
    for state in _walk(game, players, seed=2):
        for seat in state.seats_to_act():
            for action in state.legal_actions(seat):
                index = game.action_index(action, players)
                assert 0 <= index < size
                assert game.action_from_index(index, players) == action
                assert game.parse_action(str(action)) == action


@pytest.mark.step_cases
def test_legal_actions_are_deterministic_and_distinct(
    game: Game[Any], players: int, options: Any
) -> None:
    for state in _walk(game, players, seed=4, options=options):
        for seat in state.seats_to_act():
            legal = state.legal_actions(seat)
            assert len(set(legal)) == len(legal)
            assert legal == state.clone().legal_actions(seat)
        for seat in range(players):
            if seat not in state.seats_to_act():
                assert state.legal_actions(seat) == []
