"""The games' position fuzzing: random mutations of real positions are playable, or refused.

Used by each game's ``test_positions.py``, which keeps what is its own: the positions (taken
from seeded games), the sample values that a mutation writes (the game's cards, phases and
numbers) and the hypothesis settings. A mutated position must either be refused with a
:class:`~campfire.core.PositionError`, or load into a state that round-trips, shows every
seat, and lets every seat to act make a legal move (:func:`check_playable`).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

from campfire.core import Game, PositionError, SetupError, State

#: Every kind of change :func:`mutate` makes: replace a value with a sample, change a number,
#: delete an item, duplicate a list item, swap two list items, move a scalar (a card, a number)
#: into another list, add a sample (a new key of a mapping, or an item of a list).
MUTATIONS = ("replace", "number", "delete", "duplicate", "swap", "move", "add")

#: the samples every game's mutations write (wrong types, small and negative numbers, empty
#: containers); each game adds its own words (cards, phases) and numbers
BASIC_VALUES: tuple[Any, ...] = (None, True, False, 0, 1, 2, -1, 2.5, "", "x", [], [0], {})

Draw = Callable[[st.SearchStrategy[Any]], Any]

S = TypeVar("S", bound=State)


def sample_positions(
    game: Game[S],
    runs: Sequence[tuple[int, int, Mapping[str, Any]]],
    keep: Callable[[S, random.Random], bool],
    step: Callable[[S, random.Random], object],
) -> tuple[str, ...]:
    """Positions (as JSON text) of seeded games, to mutate.

    Each run ``(seed, players, options)`` is played with ``step`` and a generator seeded with
    ``seed``; a position is kept where ``keep`` says so (it may draw from the generator), and
    the final one always.
    """
    found = []
    for seed, players, options in runs:
        state = game.new_game(players, options, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if keep(state, rng):
                found.append(json.dumps(state.to_position()))
            step(state, rng)
        found.append(json.dumps(state.to_position()))
    return tuple(found)


def mutate(data: Any, draw: Draw, values: Sequence[Any]) -> Any:
    """Make one random change (one of :data:`MUTATIONS`) somewhere in ``data``, in place.

    ``values`` are the samples a replacement or an addition writes; each is deep-copied, so
    that no two places (and no two examples) ever share one. Returns ``data``.
    """
    containers: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, (dict, list)):
            containers.append(node)
            for child in node.values() if isinstance(node, dict) else node:
                walk(child)

    walk(data)
    node = draw(st.sampled_from(containers))
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    kind = draw(st.sampled_from(MUTATIONS))
    if kind == "add" or not keys:
        value = copy.deepcopy(draw(st.sampled_from(values)))  # never share the samples
        if isinstance(node, dict):
            node[draw(st.sampled_from(["extra", *keys]))] = value
        else:
            node.insert(draw(st.integers(0, len(node))), value)
        return data
    key = draw(st.sampled_from(keys))
    if kind == "replace":
        node[key] = copy.deepcopy(draw(st.sampled_from(values)))
    elif kind == "number" and isinstance(node[key], int):
        node[key] += draw(st.sampled_from([-1, 1, 4]))
    elif kind == "delete":
        del node[key]
    elif kind == "duplicate" and isinstance(node, list):
        node.insert(draw(st.integers(0, len(node))), copy.deepcopy(node[key]))
    elif kind == "swap" and isinstance(node, list):
        other = draw(st.sampled_from(keys))
        node[key], node[other] = node[other], node[key]
    elif kind == "move" and isinstance(node, list):  # a card (or number) into another list
        lists = [c for c in containers if isinstance(c, list) and c is not node]
        if lists and not isinstance(node[key], (dict, list)):
            target = draw(st.sampled_from(lists))
            target.insert(draw(st.integers(0, len(target))), node.pop(key))
    else:
        node[key] = copy.deepcopy(node[draw(st.sampled_from(keys))])
    return data


def check_playable(
    game: Game[Any], state: State, rng: random.Random, *, simultaneous: bool | None = None
) -> None:
    """Check that a loaded ``state`` round-trips, shows every seat and can be played on.

    Every seat to act (several during a simultaneous step, which only a game that declares
    ``simultaneous_steps`` may have, or ``simultaneous=True``; otherwise exactly one) has a
    legal action, can be determinised, and each of its moves (one, drawn with ``rng``) leads
    to a position that loads again. A move that an explicit setup cannot serve (a deck order
    without the card picked) may be refused with :class:`SetupError`, the state unchanged;
    then another legal move must play.
    """
    position = state.to_position()
    assert game.state_from_position(json.loads(json.dumps(position))).to_position() == position
    for seat in (None, *range(state.num_players)):
        json.dumps(state.view(seat))
        state.render(seat)
    if state.is_terminal():
        state.outcome()
        return
    seats = state.seats_to_act()
    assert seats, "nobody is to act in a game that is not over"
    if not (game.simultaneous_steps if simultaneous is None else simultaneous):
        assert len(seats) == 1, f"seats {seats} act at once in a game that takes turns"
    for seat in seats:
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        json.dumps(state.determinize(seat, rng).to_position())
        before = state.to_position()
        for action in [rng.choice(legal), *legal]:  # the drawn one, else the first that plays
            after = state.clone()
            try:
                after.apply(seat, action)
            except SetupError:
                # an explicit setup's part still to come cannot serve this move (a Big Manitou
                # deck order without a card the seat picks): refused, and nothing changed
                assert after.to_position() == before, "a refused move changed the position"
                continue
            game.state_from_position(json.loads(json.dumps(after.to_position())))
            break
        else:
            raise AssertionError(f"seat {seat}: every legal action was refused")


def check_a_mutated_position(
    game: Game[Any],
    positions: Sequence[str],
    draw: Draw,
    values: Sequence[Any],
    *,
    simultaneous: bool | None = None,
) -> None:
    """One example of the property: a position (JSON text) changed one to three times.

    The changed position is refused with a :class:`PositionError`, or it is playable
    (:func:`check_playable`).
    """
    position = json.loads(positions[draw(st.integers(0, len(positions) - 1))])
    for _ in range(draw(st.integers(1, 3))):
        position = mutate(position, draw, values)
    try:
        state = game.state_from_position(position)
    except PositionError:
        return
    check_playable(game, state, random.Random(0), simultaneous=simultaneous)
