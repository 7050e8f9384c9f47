"""A small run-time checker of JSON values against the games' declared ``TypedDict`` shapes.

Used by each game's ``test_types.py``: a view (or an event's data) must hold exactly the keys
its ``TypedDict`` declares — every required key, optional keys only where declared — with values
of the declared types (``int``, ``str``, ``bool``, ``None``, ``Literal``, unions, ``list``,
``dict``, nested ``TypedDict``, and ``tuple`` for a fixed-shape JSON array).
"""

from __future__ import annotations

import functools
import random
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

from campfire.core import Event, Game, State

from ..conformance.covering import covering_rows


def _is_typeddict(tp: object) -> bool:
    return typing.is_typeddict(tp)


@functools.cache
def _hints(tp: type) -> tuple[dict[str, Any], list[str]]:
    """A TypedDict's declared keys with their types, and its required keys."""
    hints = typing.get_type_hints(tp, include_extras=True)
    return hints, [k for k, hint in hints.items() if get_origin(hint) is not NotRequired]


def problems(value: object, tp: Any, path: str = "view") -> list[str]:
    """What is wrong with ``value`` as a ``tp`` (``[]``: nothing), each naming its path."""
    if tp is int or tp is str:  # the common cases first: the checker runs on every step
        ok = value.__class__ is tp or (isinstance(value, tp) and not isinstance(value, bool))
        return [] if ok else [f"{path}: {value!r} is not of type {tp.__name__}"]
    origin = get_origin(tp)
    if origin in (NotRequired, Required):
        return problems(value, get_args(tp)[0], path)
    if tp is Any:
        return []
    if tp is None or tp is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    if origin is Literal:
        return [] if value in get_args(tp) else [f"{path}: {value!r} is none of {get_args(tp)}"]
    if origin in (Union, types.UnionType):
        for option in get_args(tp):
            if not problems(value, option, path):
                return []
        return [f"{path}: {value!r} matches no member of {tp}"]
    if _is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not a {tp.__name__} dict"]
        hints, required = _hints(tp)
        out = [f"{path}: {k!r} is not declared by {tp.__name__}" for k in value if k not in hints]
        out += [f"{path}: {tp.__name__} key {k!r} is missing" for k in required if k not in value]
        for key, hint in hints.items():
            if key in value:
                out += problems(value[key], hint, f"{path}[{key!r}]")
        return out
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__} is not a list"]
        (item,) = get_args(tp)
        if (item is int or item is str) and all(x.__class__ is item for x in value):
            return []
        return [p for i, x in enumerate(value) for p in problems(x, item, f"{path}[{i}]")]
    if origin is tuple:  # a fixed-shape JSON array, declared as the tuple it is read as
        shape = get_args(tp)
        if not isinstance(value, list | tuple) or len(value) != len(shape):
            return [f"{path}: {value!r} is not an array of {len(shape)} items"]
        return [p for i, x in enumerate(value) for p in problems(x, shape[i], f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not a dict"]
        key_tp, value_tp = get_args(tp)
        out = []
        for k, x in value.items():
            out += problems(k, key_tp, f"{path} key")
            out += problems(x, value_tp, f"{path}[{k!r}]")
        return out
    if tp in (bool, float):
        return [] if isinstance(value, tp) else [f"{path}: {value!r} is not of type {tp.__name__}"]
    raise TypeError(f"{path}: the checker does not know {tp!r}")


def option_sets(game: Game[Any], every: bool) -> list[Any]:
    """The option combinations checked: with ``every``, all of them; else the covering ones.

    The covering ones are those of the conformance suite's covering rows (each pair of two
    options' values together in at least one), each once, in the rows' order: 13 of the 288 for
    the game with the most. ``--all-option-combinations`` asks for every one.
    """
    if every:
        return list(game.options_type.combinations())
    seen: dict[str, Any] = {}
    for _players, options in covering_rows(game):
        seen.setdefault(repr(options), options)
    return list(seen.values())


def random_states(
    game: Game[Any],
    players: int,
    *,
    games: int,
    seed: int,
    max_steps: int = 400,
    every: bool = False,
) -> Iterator[tuple[State, list[Event]]]:
    """Random games for the option combinations: each state with the events that led to it.

    ``every``: for every option combination, else for the covering ones (:func:`option_sets`).
    """
    rng = random.Random(seed)
    for options in option_sets(game, every):
        for _ in range(games):
            state = game.new_game(players, options, seed=rng.randrange(2**32))
            events: list[Event] = []
            yield state, events
            for _step in range(max_steps):
                if state.is_terminal():
                    break
                seat = rng.choice(state.seats_to_act())
                events = state.apply(seat, rng.choice(state.legal_actions(seat)))
                yield state, events
            while not state.is_terminal():  # play on to the end, so that the end is checked
                seat = rng.choice(state.seats_to_act())
                events = state.apply(seat, rng.choice(state.legal_actions(seat)))
            yield state, events


def check_game(
    game: Game[Any],
    view_type: type,
    event_data: dict[str, type],
    players: int,
    *,
    games: int = 2,
    seed: int = 0,
    extra: Callable[[State], None] | None = None,
    every: bool = False,
) -> tuple[set[str], set[str]]:
    """Check every view (each seat and the spectator) and every event against the declarations.

    The games are played with the covering option combinations, or with ``every`` one (the
    ``every_option_combination`` fixture: ``--all-option-combinations``). Returns the event
    types met and the view keys met, so a test can check coverage too.
    """
    met_events: set[str] = set()
    met_keys: set[str] = set()
    for state, events in random_states(game, players, games=games, seed=seed, every=every):
        for seat in (None, *range(players)):
            view = state.view(seat)
            met_keys.update(view)
            found = problems(view, view_type, f"view({seat})")
            assert not found, found[:5]
        for event in events:
            met_events.add(event.type)
            assert event.type in event_data, f"event {event.type!r} has no declared data type"
            found = problems(event.data, event_data[event.type], f"{event.type} data")
            assert not found, found[:5]
        if extra is not None:
            extra(state)
    return met_events, met_keys
