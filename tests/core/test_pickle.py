"""Actions, events and memories pickle and unpickle to equal objects, in either build.

An adapter's session is pickled with its seats' memories and its log of events (OpenSpiel's
serialisation, ``campfire.adapters.session``); the compiled build's classes cannot be made empty
and filled field by field as the default does, so each says how it is rebuilt
(``docs/compiled.md``). This runs in whichever build is loaded; ``tests/test_compiled.py``
compares the builds.
"""

from __future__ import annotations

import pickle
import random

import pytest

import campfire
from campfire.core import Event, visible_events
from tests.built_in import built_in_names


@pytest.mark.parametrize("name", built_in_names())
def test_every_action_event_and_memory_of_a_game_pickles(name: str) -> None:
    game = campfire.get_game(name)
    state = game.new_game(2, seed=5)
    memories = [game.new_belief(s, 2, state.options, "perfect", 9 + s) for s in range(2)]
    rng = random.Random(5)
    seen_events = 0
    for _ in range(60):
        if state.is_terminal():
            break
        seat = min(state.seats_to_act())
        legal = state.legal_actions(seat)
        for action in legal:
            copy = pickle.loads(pickle.dumps(action))
            assert copy == action and type(copy) is type(action) and hash(copy) == hash(action)
        events = state.apply(seat, rng.choice(legal))
        for event in events:
            copy = pickle.loads(pickle.dumps(event))
            assert isinstance(copy, Event) and copy == event
            seen_events += 1
        for memory in memories:
            memory.observe(visible_events(events, memory.seat))
    assert seen_events > 0
    for memory in memories:
        copy = pickle.loads(pickle.dumps(memory))
        assert type(copy) is type(memory) and copy.seat == memory.seat
        assert pickle.dumps(copy) == pickle.dumps(memory)  # the same state, field by field
