"""Perfect-recall information states: a seat's view plus everything it did and saw, in order."""

import json
import random
from typing import cast

import pytest

from campfire.adapters.session import Session

from .conftest import GAMES


def _play(session: Session, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        seat = session.current_seat()
        if seat is None:
            return
        session.apply(seat, rng.choice(session.legal(seat)))


@pytest.mark.parametrize("game", GAMES)
def test_a_history_only_grows_and_holds_what_the_seat_did_and_saw(game: str) -> None:
    players = 3
    session = Session(game, players, seed=7)
    rng = random.Random(7)
    before: list[list[str]] = [[] for _ in range(players)]
    while (seat := session.current_seat()) is not None and session.moves < 150:
        index = rng.choice(session.legal(seat))
        events = session.apply(seat, index)
        for s in range(players):
            history = session.history(s)
            assert history[: len(before[s])] == before[s]  # perfect recall: nothing forgotten
            new = [json.loads(entry) for entry in history[len(before[s]) :]]
            seen = [[e.type, e.data] for e in events if e.to is None or s in e.to]
            if s == seat:
                assert new == [{"act": index, "seen": seen}]
            else:  # another seat's move: only the events addressed to s, never its action
                assert new == ([{"seen": seen}] if seen else [])
            before[s] = history[:]


@pytest.mark.parametrize("game", GAMES)
def test_another_own_move_gives_another_information_state(game: str) -> None:
    """Two pasts that differ only in one of the seat's own moves are told apart."""
    first = Session(game, 2, seed=3)
    while len(first.legal(seat := cast(int, first.current_seat()))) < 2:
        first.apply(seat, first.legal(seat)[0])
    legal = first.legal(seat)
    second = first.clone()
    first.apply(seat, legal[0])
    second.apply(seat, legal[-1])
    assert first.information_state_string(seat) != second.information_state_string(seat)
    view = json.loads(first.information_state_string(seat))["view"]
    assert view == json.loads(json.dumps(first.state.view(seat)))


def test_a_determinisation_keeps_only_what_the_seat_saw() -> None:
    session = Session("dudab", 3, seed=5)
    _play(session, random.Random(5), 40)
    seat = session.current_seat()
    assert seat is not None
    other = session.determinize(seat, random.Random(1))
    assert other.history(seat) == session.history(seat)
    for s in range(3):
        if s == seat:
            continue
        for entry in map(json.loads, other.history(s)):
            assert entry.get("act", -1) == -1  # the others' actions are not carried over
    for actor, index, events in other._log:  # nothing the seat could not see
        assert all(e.to is None or seat in e.to for e in events)
        assert index == -1 or actor == seat
    # the copy goes on recording its own moves (the seat is to act: the next entry is its own)
    _play(other, random.Random(2), 5)
    new = [json.loads(entry) for entry in other.history(seat)[len(session.history(seat)) :]]
    assert new and new[0]["act"] >= 0
