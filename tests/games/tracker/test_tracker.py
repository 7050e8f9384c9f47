"""Tracker rules beyond the worked examples: errors, visibility, positions, rendering."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from campfire.core import (
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    SetupError,
)
from campfire.games.tracker import GAME, TrackerAction, parse_action
from campfire.games.tracker.actions import NUM_ACTIONS, TrackerKind, action_from_index
from campfire.games.tracker.cards import card_name

from .helpers import capture_turn, make_setup, new_state, play

A, B, C = 0, 1, 2


def test_notation_round_trip_and_errors() -> None:
    for i in range(NUM_ACTIONS):
        action = action_from_index(i)
        assert parse_action(str(action)) == action
    assert parse_action("  PEEK   7 ") == TrackerAction(TrackerKind.PEEK, 7, 7)
    for bad in ["peek", "peek 60", "take -1", "track 4", "jump", "done 3"]:
        with pytest.raises(NotationError, match="Tracker actions are: peek P"):
            parse_action(bad)


def test_first_action_is_peek_or_track_no_pass() -> None:
    state = new_state()
    kinds = {a.kind for a in state.legal_actions() if isinstance(a, TrackerAction)}
    assert kinds == {"peek", "track"}  # D4: no pass
    for text, rule in [
        ("done", r"tracker rules §4\.3"),
        ("take 3", r"tracker rules §4\.3"),
        ("lift 3", r"tracker rules §4\.4"),
        ("drop 3", r"tracker rules §4\.4"),
        ("decline", r"tracker rules §5\.1"),
    ]:
        with pytest.raises(IllegalActionError, match=rule):
            state.apply(A, text)


def test_peek_and_capture_not_in_the_same_turn() -> None:
    state = new_state()
    state.apply(A, "peek 3")
    with pytest.raises(IllegalActionError, match=r"tracker rules §4\.3"):
        state.apply(A, "track 1")
    state = new_state()
    play(state, A, "track 1", "take 3")
    with pytest.raises(IllegalActionError, match=r"tracker rules §4\.1"):
        state.apply(A, "peek 4")


def test_trackers_several_at_once_and_limits() -> None:
    state = new_state()
    play(state, A, "track 2", "done")
    assert state.hands[A] == 1 and state.centre == 2
    play(state, B, "peek 0", "peek 1")
    play(state, C, "peek 0", "peek 1")
    with pytest.raises(IllegalActionError, match="only 1 tracker"):
        state.apply(A, "track 2")
    assert [str(a) for a in state.legal_actions(A)][-1] == "track 1"


def test_capture_of_zero_cards_and_empty_positions() -> None:
    state = new_state()
    play(state, A, "track 1", "take 5")
    with pytest.raises(IllegalActionError, match="position 5 is empty"):
        state.apply(A, "take 5")
    play(state, A, "done", "done")
    with pytest.raises(IllegalActionError, match="position 5 is empty; peek"):
        state.apply(B, "peek 5")
    # no relocation step when no position is empty
    state = new_state()
    play(state, A, "track 1", "done")
    assert state.seats_to_act() == (B,)


def test_lifted_card_must_be_dropped() -> None:
    state = new_state()
    play(state, A, "track 1", "take 0", "done", "lift 9")
    assert [str(a) for a in state.legal_actions(A)] == ["drop 0"]
    with pytest.raises(IllegalActionError):
        state.apply(A, "done")
    card = state.board[9]
    state.apply(A, "drop 0")
    assert state.board[0] == card and state.board[9] == -1
    # a card may be moved twice
    play(state, A, "lift 0", "drop 9")
    assert state.board[9] == card


def test_turn_order_errors() -> None:
    state = new_state()
    with pytest.raises(IllegalActionError, match="seat 1 may not act now; seats to act: 0"):
        state.apply(B, "peek 0")
    assert state.legal_actions(B) == []


def test_views_hide_cards_until_the_end() -> None:
    state = new_state(placements={12: "S-T3-1"})
    play(state, A, "peek 12")
    for seat in (A, B, None):
        text = json.dumps(state.view(seat)) + state.render(seat)
        assert "S-T3-1" not in text and "S3" not in text
    assert state.view(B)["peeked_this_turn"] == [12]
    play(state, A, "peek 13")
    capture_turn(state, B, positions=[12])
    assert state.view(B)["captured_counts"] == [0, 1, 0]
    assert "S-T3-1" not in json.dumps(state.view(B))  # not even the captor sees it
    while not state.is_terminal():
        seat = state.current_seat()
        if state.phase_name == "normal":
            capture_turn(state, seat, trackers=state.hands[seat])
        else:
            play(state, seat, "decline", f"track {state.hands[seat]}", "done")
    view = state.view(C)
    assert view["captured"][B] == ["S-T3-1"]
    assert view["board"][13] == card_name(state.board[13])
    assert "wins with" in state.render(None)


def test_determinize_reshuffles_face_down_cards_and_keeps_pins() -> None:
    state = new_state()
    capture_turn(state, A, positions=[0, 1, 2])
    rng = random.Random(1)
    det = state.determinize(B, rng)
    assert det.view(B) == state.view(B)
    hidden = sorted([c for c in det.board if c >= 0] + [c for p in det.captured for c in p])
    assert hidden == list(range(60))
    assert det.board != state.board  # (astronomically unlikely to be equal)
    pinned = state.determinize(B, rng, known={10: state.board[10], 20: state.board[20]})
    assert pinned.board[10] == state.board[10] and pinned.board[20] == state.board[20]
    with pytest.raises(ValueError, match="cannot be on position"):
        state.determinize(B, rng, known={10: state.board[20], 20: state.board[20]})


def test_setup_errors() -> None:
    setup = make_setup()
    cases: list[tuple[Callable[[dict[str, Any]], object], str]] = [
        (lambda s: s.update(tribes=["T0", "T0", "T1"]), "different tribe"),
        (lambda s: s.update(tribes=["T0", "T9", "T1"]), "unknown tribe 'T9'"),
        (lambda s: s.update(start_player=3), "start_player must be a seat 0–2"),
        (lambda s: s["board"].__setitem__(0, s["board"][1]), "appears twice"),
        (lambda s: s["board"].pop(), "each of the 60 positions"),
        (lambda s: s["board"].__setitem__(0, "X-1"), "unknown card 'X-1'"),
        (lambda s: s.update(extra=1), "unknown setup field 'extra'"),
    ]
    for mutate, message in cases:
        bad = json.loads(json.dumps(setup))
        mutate(bad)
        with pytest.raises(SetupError, match=message):
            GAME.new_game(3, setup=bad)


def test_position_errors() -> None:
    state = new_state()
    position = state.to_position()
    with pytest.raises(PositionError, match="not a position of Tracker"):
        GAME.state_from_position({**position, "game": "dudab"})
    broken = json.loads(json.dumps(position))
    broken["state"]["captured"][0].append("S-T0-1")
    with pytest.raises(PositionError, match="appears twice"):
        GAME.state_from_position(broken)
    broken = json.loads(json.dumps(position))
    del broken["state"]["phase"]
    with pytest.raises(PositionError, match="the field 'phase' is missing"):
        GAME.state_from_position(broken)


def test_render_marks_peeks_centre_and_empty() -> None:
    state = new_state()
    play(state, A, "track 1", "take 0", "done", "done")
    state.apply(B, "peek 5")
    text = state.render(B)
    assert "*5" in text and "1 trackers in the centre" in text and "·" in text
    assert "1T" not in text and "··" not in text  # the centre is empty places, the count below
    assert "> Player 2 (" in text and "you)" in text  # seat 1 is to act and is the reader


def test_heuristic_bots_always_finish() -> None:
    """Regression: two heuristic bots that knew every card peeked forever (no rule ends that)."""
    from campfire.agents import make_agent
    from campfire.core import Observation, visible_events

    for seed in range(12):
        state = GAME.new_game(3, seed=seed)
        agents = [
            make_agent(s, GAME, i, 3, seed=seed + i)
            for i, s in enumerate(["heuristic", "heuristic", "random"])
        ]
        steps = 0
        while not state.is_terminal():
            seat = state.current_seat()
            action = agents[seat].act(Observation(state, seat, agents[seat].belief))
            events = state.apply(seat, action)
            for agent in agents:
                agent.observe(visible_events(events, agent.seat))
            steps += 1
            assert steps < 5_000, f"seed {seed}: the game does not end"


def test_hard_searches_less_at_more_players() -> None:
    """Tracker's ``hard`` runs fewer iterations with more than two players (a dearer model)."""
    from campfire.agents import make_agent
    from campfire.games.tracker.game import HARD_ITERATIONS

    assert set(HARD_ITERATIONS) == set(range(GAME.min_players, GAME.max_players + 1))
    assert HARD_ITERATIONS[2] == 1000  # the two-player level is the one measured before
    assert all(HARD_ITERATIONS[n] < 1000 for n in range(3, GAME.max_players + 1))
    for players, iterations in HARD_ITERATIONS.items():
        levels = GAME.difficulty_levels(players)
        assert levels["hard"] == f"ismcts:iterations={iterations}"
        assert levels["easy"] == "heuristic:memory=6/0.05"  # the heuristic levels do not change
        assert make_agent("hard", GAME, 0, players).spec() == levels["hard"]
    for players in (1, 7):
        with pytest.raises(OptionError, match="2–6 players"):
            GAME.difficulty_levels(players)
