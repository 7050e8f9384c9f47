"""Kept rows (``Encoder.update_state_into``) always equal the encoding made afresh.

A batch keeps one observation row per game and seat and brings a seat's row up to date only
when it reads it (when that seat is to act), so an incremental encoder must catch up over any
number of moves: here each seat's row is brought up to date after every move of seeded random
games for some seats and only now and then for others (at random), at every player count of
every game and the option variants, and compared with ``encode_state`` each time.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from campfire.adapters.session import Session
from campfire.core import Belief
from campfire.core.encoding import Part
from campfire.games.tracker.bots import TrackerMemory
from tests.compiled_build import is_compiled

from .conftest import GAMES
from .test_state_encoders import CASES, _slot_at


def _caught_up(
    session: Session, seat: int, rows: np.ndarray[Any, Any], memo: list[Part] | None
) -> list[Part]:
    encoder = session.encoder
    flat = rows.data.cast("B").cast("f")
    size = encoder.size
    state, belief = session.state, session.beliefs[seat]
    memo = encoder.update_state_into(
        state, seat, belief, flat[seat * size : (seat + 1) * size], memo
    )
    fresh = encoder.encode_state(state, seat, belief)
    if not np.array_equal(rows[seat], fresh):
        differ = np.flatnonzero(rows[seat] != fresh).tolist()
        names = sorted({_slot_at(encoder, i) for i in differ})
        pytest.fail(f"seat {seat}, move {session.moves}: the kept row differs in {names}")
    return memo


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_a_kept_row_equals_the_encoding_made_afresh_whenever_it_is_read(
    game: str, players: int, options: dict[str, Any]
) -> None:
    for seed in range(2):
        session = Session(game, players, options, seed=300 * players + seed)
        encoder = session.encoder
        rows = np.tile(encoder.blank, (players, 1))
        memos: list[list[Part] | None] = [None] * players
        rng = random.Random(seed)
        # seat 0 reads its row after every move; the others when they act, or now and then
        while True:
            current = session.current_seat()
            for seat in range(players):
                if seat == 0 or seat == current or rng.random() < 0.1:
                    memos[seat] = _caught_up(session, seat, rows, memos[seat])
            if current is None:
                break
            session.apply(current, rng.choice(session.legal(current)))


@pytest.mark.parametrize("game", GAMES)
def test_an_encoder_that_is_not_incremental_writes_the_whole_row_again(game: str) -> None:
    """The base's path for any other encoder (a plugin's): the row is the blank, then encoded."""
    session = Session(game, 2, seed=5)
    cls = type(session.encoder)
    if is_compiled(cls.__module__):
        pytest.skip("a compiled encoder class cannot be subclassed by interpreted code")
    whole = type("Whole", (cls,), {"incremental": False})(2)
    rows = np.full((1, whole.size), 7.0, dtype=np.float32)  # an older vector everywhere
    flat = rows.data.cast("B").cast("f")
    rng = random.Random(5)
    while (seat := session.current_seat()) is not None:
        state, belief = session.state, session.beliefs[seat]
        assert whole.update_state_into(state, seat, belief, flat, []) == []
        assert np.array_equal(rows[0], whole.encode_state(state, seat, belief))
        session.apply(seat, rng.choice(session.legal(seat)))


@pytest.mark.parametrize("game", GAMES)
def test_a_row_written_whole_is_kept_again_from_the_blank(game: str) -> None:
    """A state of another class is written whole (an empty memo); the game's own next call
    starts its memo again from the blank, whatever the whole write left in the row."""
    session = Session(game, 2, seed=17)
    encoder = session.encoder
    cls = type(session.state)
    if is_compiled(cls.__module__):
        pytest.skip("a compiled state class cannot be subclassed by interpreted code")
    other = type("Other", (cls,), {})  # a class the encoder does not know: the whole write
    rows = np.tile(encoder.blank, (1, 1))
    flat = rows.data.cast("B").cast("f")
    memo: list[Part] | None = None
    rng = random.Random(17)
    wholes = 0
    while (current := session.current_seat()) is not None:
        state, belief = session.state, session.beliefs[0]
        if session.moves % 5 == 2:
            state = state.clone()
            state.__class__ = other
        memo = encoder.update_state_into(state, 0, belief, flat, memo)
        wholes += memo == []
        assert np.array_equal(rows[0], encoder.encode_state(session.state, 0, belief))
        session.apply(current, rng.choice(session.legal(current)))
    assert wholes


@pytest.mark.parametrize("memory", ["none", "3", "5/0.3"])
def test_a_kept_row_follows_a_forgetful_memory(memory: str) -> None:
    """Tracker's rows read its memory's change log: forgetting (capacity, decay) is a change."""
    for players in (2, 4):
        session = Session("tracker", players, seed=77 + players, memory=memory)
        rows = np.tile(session.encoder.blank, (players, 1))
        memos: list[list[Part] | None] = [None] * players
        rng = random.Random(players)
        while True:
            current = session.current_seat()
            for seat in range(players):
                if seat == current or rng.random() < 0.2:
                    memos[seat] = _caught_up(session, seat, rows, memos[seat])
            if current is None:
                break
            session.apply(current, rng.choice(session.legal(current)))


def test_a_kept_row_follows_a_memory_of_another_kind() -> None:
    """A memory that is not the game's own (no change log): its dicts are compared whole."""

    class Notes(Belief):  # what a researcher's own memory might hold: the same two dicts
        def __init__(self, seat: int) -> None:
            super().__init__(seat)
            self.known: dict[int, int] = {}
            self.interest: dict[int, int] = {}

    session = Session("tracker", 2, seed=91)
    encoder = session.encoder
    rows = np.tile(encoder.blank, (1, 1))
    flat = rows.data.cast("B").cast("f")
    notes = Notes(0)
    memo: list[Part] | None = None
    rng = random.Random(91)
    compared = 0
    while (current := session.current_seat()) is not None:
        real = session.beliefs[0]
        notes.known, notes.interest = dict(real.known), dict(real.interest)  # type: ignore[attr-defined]
        memo = encoder.update_state_into(session.state, 0, notes, flat, memo)
        assert np.array_equal(rows[0], encoder.encode_state(session.state, 0, notes))
        compared += bool(notes.known)
        session.apply(current, rng.choice(session.legal(current)))
    assert compared  # the notes held known cards at some point


def test_a_kept_row_follows_memories_of_both_kinds_in_turn() -> None:
    """Tracker's row follows its own memory's change log and compares another's dicts whole:
    handed one and then the other (every move, then every few), it shows the one it is handed."""

    class Notes(Belief):  # the same two dicts as the game's own memory, without its change log
        def __init__(self, seat: int) -> None:
            super().__init__(seat)
            self.known: dict[int, int] = {}
            self.interest: dict[int, int] = {}

    for every in (1, 3):
        session = Session("tracker", 2, seed=40 + every)
        encoder = session.encoder
        rows = np.tile(encoder.blank, (1, 1))
        flat = rows.data.cast("B").cast("f")
        notes = Notes(0)
        memo: list[Part] | None = None
        rng = random.Random(every)
        moves = 0
        while (current := session.current_seat()) is not None:
            real = session.beliefs[0]
            assert isinstance(real, TrackerMemory)
            # the notes remember a little less than the memory: the rows differ
            notes.known = dict(list(real.known.items())[1:])
            notes.interest = dict(real.interest)
            belief: Belief = real if (moves // every) % 2 == 0 else notes
            memo = encoder.update_state_into(session.state, 0, belief, flat, memo)
            assert np.array_equal(rows[0], encoder.encode_state(session.state, 0, belief))
            session.apply(current, rng.choice(session.legal(current)))
            moves += 1


@pytest.mark.parametrize("game", GAMES)
def test_reset_parts_bring_a_blank_row_up_to_date_as_new_ones_do(game: str) -> None:
    """A batch resets a finished game's parts (``Part.reset``) and puts its row back to the
    blank; the next game's row is then written as with a new memo."""
    first = Session(game, 2, seed=11)
    rows = np.tile(first.encoder.blank, (2, 1))
    memos: list[list[Part] | None] = [None, None]
    rng = random.Random(3)
    for _ in range(40):  # memos with parts written, part of the way into a game
        seat = first.current_seat()
        if seat is None:
            break
        memos[seat] = _caught_up(first, seat, rows, memos[seat])
        first.apply(seat, rng.choice(first.legal(seat)))
    for memo in memos:
        for part in memo or []:
            part.reset()
    rows[:] = first.encoder.blank
    second = Session(game, 2, seed=12)
    while (seat := second.current_seat()) is not None:  # each update checked (_caught_up)
        memos[seat] = _caught_up(second, seat, rows, memos[seat])
        second.apply(seat, rng.choice(second.legal(seat)))
