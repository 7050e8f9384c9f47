"""Tracker worked examples WE-1…WE-9 and scenarios S1…S7 of rules/tracker.md (§9, §10).

Players A, B, C are seats 0, 1, 2 (clockwise); tribes A = T0, B = T1, C = T2 unless said otherwise.
"""

from __future__ import annotations

import pytest

from campfire.core import IllegalActionError, Outcome, visible_events
from campfire.games.tracker import GAME
from campfire.games.tracker.cards import NUM_CARDS, card_name, tribe_of

from .helpers import capture_turn, captured_names, new_state, play, position_of

A, B, C = 0, 1, 2


def test_we1_setup() -> None:
    state = GAME.new_game(3, seed=2024)
    assert len(set(state.tribes)) == 3
    assert state.hands == [3, 3, 3]
    assert sum(state.hands) == 9  # 9 trackers in play
    assert sorted(state.board) == list(range(NUM_CARDS))  # all 60 cards, face down
    unplayed = {t for t in range(6) if t not in state.tribes}
    assert len(unplayed) == 3
    assert sum(1 for c in state.board if tribe_of(c) in unplayed) == 30
    view = state.view(A)
    assert view["tribes"] == [f"T{t}" for t in state.tribes]  # chiefs are face up
    assert "board" not in view  # no card is visible


def test_we2_peek() -> None:
    state = new_state(placements={12: "S-T3-1", 40: "F-T1-5"})
    first = state.apply(A, "peek 12")
    second = state.apply(A, "peek 40")
    events = first + second
    seen_by_a = [e.data["card"] for e in visible_events(events, A) if e.type == "peek_card"]
    assert seen_by_a == ["S-T3-1", "F-T1-5"]
    for other in (B, C, None):
        visible = visible_events(events, other)
        assert [(e.type, e.data["pos"]) for e in visible] == [("peek", 12), ("peek", 40)]
        assert "S-T3-1" not in repr([e.to_json() for e in visible])
    # both cards return face down to their places; the turn passes to B
    assert card_name(state.board[12]) == "S-T3-1"
    assert card_name(state.board[40]) == "F-T1-5"
    assert state.seats_to_act() == (B,)
    # the view holds no memory of the peek
    assert "S-T3-1" not in repr(state.view(A))


def test_we3_capture_turn() -> None:
    state = new_state()
    state.apply(A, "peek 0")
    state.apply(A, "peek 1")
    moved_from_7, moved_from_55 = state.board[7], state.board[55]
    taken = [state.board[p] for p in (12, 13, 40)]
    events = capture_turn(state, B, positions=[12, 13, 40], moves=[(7, 12), (55, 40)])
    assert state.hands[B] == 2
    assert state.centre == 1
    assert state.captured[B] == taken
    assert state.board[12] == moved_from_7 and state.board[40] == moved_from_55
    empty = {p for p in range(60) if state.board[p] < 0}
    assert empty == {7, 55, 13}
    relocations = [(e.data["from"], e.data["to"]) for e in events if e.type == "relocate"]
    assert relocations == [(7, 12), (55, 40)]
    # nobody, not even B, sees the captured or moved cards
    assert all(e.to is None for e in events if e.type != "game_over")
    assert state.seats_to_act() == (C,)


def test_we4_relocation_limits() -> None:
    # B may move 0 cards
    state = new_state(start_player=B)
    capture_turn(state, B, positions=[0, 1, 2, 3])
    assert state.seats_to_act() == (C,) and state.captured[B] and state.board[0] < 0
    # only into empty positions
    state = new_state(start_player=B)
    play(state, B, "track 1", "take 0", "done", "lift 10")
    with pytest.raises(IllegalActionError, match=r"tracker rules §4\.4.*occupied"):
        state.apply(B, "drop 11")
    # at most 3 moves with the base rule: the turn ends after the third
    state = new_state(start_player=B)
    play(state, B, "track 1", "take 0", "take 1", "take 2", "take 3", "done")
    play(state, B, "lift 10", "drop 0", "lift 11", "drop 1", "lift 12", "drop 2")
    assert state.seats_to_act() == (C,)
    with pytest.raises(IllegalActionError, match="turn order"):
        state.apply(B, "lift 13")
    # with max_relocations = 5, five moves are legal
    state = new_state(start_player=B, max_relocations=5)
    play(state, B, "track 1", *[f"take {p}" for p in range(6)], "done")
    for i in range(5):
        assert state.seats_to_act() == (B,)
        play(state, B, f"lift {10 + i}", f"drop {i}")
    assert state.seats_to_act() == (C,)
    assert [state.board[p] >= 0 for p in range(5)] == [True] * 5


def test_we5_dropping_out() -> None:
    state = new_state()
    for turn in range(3):
        play(state, A, "peek 50", "peek 51")
        play(state, B, "peek 50", "peek 51")
        capture_turn(state, C, positions=[turn])
    assert state.hands[C] == 0
    order = []
    for _ in range(4):
        seat = state.current_seat()
        order.append(seat)
        play(state, seat, "peek 50", "peek 51")
    assert order == [A, B, A, B]
    assert len(state.captured[C]) == 3
    # C's captured cards count at the end
    capture_turn(state, A, trackers=3)
    play(state, B, "decline", "track 3", "done")
    assert state.is_terminal()
    # cards 0, 1, 2 are the T0 scouts: +9 for C, whose three T2 scouts are still on the board
    assert state.outcome().details[C]["enemy_scouts_captured"] == 3
    assert state.outcome().scores[C] == 3 * 3 + 2 * 3


def test_we6_two_players_left() -> None:
    state = new_state(("T0", "T1"))
    capture_turn(state, A, positions=[0])
    capture_turn(state, B, positions=[1], trackers=2)
    play(state, A, "peek 5", "peek 6")
    # B plays the last tracker in a capture turn, collects and relocates
    events = capture_turn(state, B, positions=[2, 3], moves=[(20, 2)])
    assert any(e.type == "player_out" and e.data["seat"] == B for e in events)
    assert any(e.type == "final_turns" and e.data["seat"] == A for e in events)
    assert state.phase_name == "final_peek" and state.last_player == A
    # A's two extra turns: (1) peek at 2 cards
    play(state, A, "peek 30", "peek 31")
    assert state.phase_name == "final_capture" and state.seats_to_act() == (A,)
    # (2) all remaining trackers, any number of cards, no relocation
    assert [str(a) for a in state.legal_actions(A)] == ["track 2"]
    with pytest.raises(IllegalActionError, match=r"tracker rules §5\.1"):
        state.apply(A, "track 1")
    play(state, A, "track 2", "take 30", "take 31", "done")
    assert state.is_terminal()
    assert state.hands == [0, 0] and state.centre == 6


def test_we7_rushing_the_end() -> None:
    state = new_state(("T0", "T1"))
    capture_turn(state, A, positions=[0])
    assert state.hands == [2, 3]
    capture_turn(state, B, positions=[1, 2], trackers=3, moves=[(10, 1)])
    assert state.hands[B] == 0 and state.phase_name == "final_peek"
    play(state, A, "peek 11", "peek 12")
    play(state, A, "track 2", "done")
    assert state.is_terminal()


def test_we8_scoring() -> None:
    enemy = ["S-T1-1", "S-T2-1", "S-T3-1", "S-T4-1"]
    own = ["S-T0-1"]
    false = ["F-T1-1", "F-T2-2", "F-T5-7"]
    setup = dict(enumerate(enemy + own + false))
    setup[20] = "S-T0-3"  # B captures it
    setup[21] = "S-T0-2"  # stays on the board
    state = new_state(("T0", "T1"), placements=setup)
    capture_turn(state, A, positions=range(8))
    capture_turn(state, B, positions=[20])
    capture_turn(state, A, trackers=2)
    play(state, B, "decline", "track 2", "done")
    outcome = state.outcome()
    assert outcome.scores[A] == 4 * 3 + 1 * 2 - 1 * 3 - 3 * 2 == 5
    assert outcome.details[A] == {
        "enemy_scouts_captured": 4,
        "own_scouts_on_board": 1,
        "own_scouts_captured": 1,
        "false_tracks_captured": 3,
    }
    assert outcome.details[B]["enemy_scouts_captured"] == 1  # +3 for that T0 scout
    assert outcome.scores[B] == 3 + 2 * 2  # B's S-T1-2 and S-T1-3 are still on the board


def test_we9_variants() -> None:
    state = new_state(peek_count=4)
    events = play(state, A, "peek 0", "peek 1", "peek 2")
    assert state.seats_to_act() == (A,)  # a fourth distinct card is still to be chosen
    with pytest.raises(IllegalActionError, match="already peeked"):
        state.apply(A, "peek 1")
    events += state.apply(A, "peek 3")
    assert sum(1 for e in events if e.type == "peek_card") == 4
    assert state.seats_to_act() == (B,)
    # with only 3 cards on the board a peek shows those 3
    state = new_state(("T0", "T1"), peek_count=4)
    capture_turn(state, A, positions=range(57))
    assert state.cards_left == 3
    events = play(state, B, "peek 57", "peek 58", "peek 59")
    assert sum(1 for e in events if e.type == "peek_card") == 3
    assert state.seats_to_act() == (A,)


# ----- §10 scenarios ---------------------------------------------------------------------------


def test_s1_never_capturing() -> None:
    state = new_state(("T0", "T1"))
    # B captures three cards that are not T0 scouts; A captures nothing
    capture_turn(state, A, trackers=3)  # A sheds all trackers, collecting nothing
    play(state, B, "decline", "track 3", "take 3", "take 4", "done")
    outcome = state.outcome()
    assert captured_names(state, A) == []
    assert outcome.details[A]["own_scouts_on_board"] == 3
    assert outcome.scores[A] == 6


def test_s2_greedy_blind_grab() -> None:
    names = ["S-T0-1", "S-T2-1"] + [f"F-T{t}-{i}" for t, i in [(0, 1), (0, 2), (1, 1), (2, 3)]]
    names += ["F-T3-1", "F-T4-4", "F-T5-5", "F-T5-6"]
    own = {50: "S-T1-1", 51: "S-T1-2", 52: "S-T1-3"}
    state = new_state(("T0", "T1"), placements={**dict(enumerate(names)), **own}, start_player=A)
    capture_turn(state, A, positions=[50, 51, 52])  # A removes all T1 scouts from the board
    capture_turn(state, B, positions=range(10), trackers=3)
    assert len(state.captured[B]) == 10
    play(state, A, "decline", "track 2", "done")
    outcome = state.outcome()
    assert outcome.details[B] == {
        "enemy_scouts_captured": 2,
        "own_scouts_on_board": 0,
        "own_scouts_captured": 0,
        "false_tracks_captured": 8,
    }
    assert outcome.scores[B] == 6 - 16 == -10


def test_s3_own_scouts_split() -> None:
    placements = {
        0: "S-T2-1",  # C captures its own scout
        1: "S-T0-1",
        2: "S-T1-1",
        3: "S-T3-1",  # three enemy scouts for C
        4: "F-T4-1",  # a false track for C
        10: "S-T2-2",  # A captures it
        # S-T2-3 stays on the board
    }
    state = new_state(placements=placements)
    capture_turn(state, A, positions=[10], trackers=3)
    capture_turn(state, B, trackers=3)
    play(state, C, "decline", "track 3", *[f"take {p}" for p in range(5)], "done")
    outcome = state.outcome()
    assert outcome.details[C] == {
        "enemy_scouts_captured": 3,
        "own_scouts_on_board": 1,
        "own_scouts_captured": 1,
        "false_tracks_captured": 1,
    }
    assert outcome.scores[C] == 9 + 2 - 3 - 2 == 6
    assert outcome.details[A]["enemy_scouts_captured"] == 1


def _two_player_game(a_takes: list[str], b_takes: list[str], on_board_note: str) -> Outcome:
    placements = dict(enumerate(a_takes))
    placements.update({20 + i: name for i, name in enumerate(b_takes)})
    state = new_state(("T0", "T1"), placements=placements)
    capture_turn(state, A, positions=range(len(a_takes)))
    capture_turn(state, B, positions=range(20, 20 + len(b_takes)))
    capture_turn(state, A, trackers=2)
    play(state, B, "decline", "track 2", "done")
    assert state.is_terminal(), on_board_note
    return state.outcome()


def test_s4_tie_break() -> None:
    # A = 9 with 3 enemy scouts; B = 9 with 4 enemy scouts (and its own S-T1-3) → B wins
    outcome = _two_player_game(
        ["S-T1-1", "S-T1-2", "S-T2-1"],
        ["S-T0-1", "S-T0-2", "S-T0-3", "S-T3-1", "S-T1-3"],
        "B wins on enemy scouts",
    )
    assert outcome.scores == (9, 9)
    assert outcome.winners == (B,)
    assert outcome.ranks == (2, 1)
    # both with 3 enemy scouts → shared win (S-T1-3 stays on the board: +2, one false track: −2)
    outcome = _two_player_game(
        ["S-T1-1", "S-T1-2", "S-T2-1"],
        ["S-T0-1", "S-T0-2", "S-T0-3", "F-T5-1"],
        "shared win",
    )
    assert outcome.scores == (9, 9)
    assert outcome.winners == (A, B)
    assert outcome.win_shares() == (0.5, 0.5)


def test_s5_board_emptied() -> None:
    state = new_state(("T0", "T1"))
    capture_turn(state, A, positions=range(30))
    capture_turn(state, B, positions=range(30, 55))
    play(state, A, "track 1", *[f"take {p}" for p in range(55, 59)])
    assert not state.is_terminal()
    events = state.apply(A, "take 59")
    assert state.is_terminal()  # immediately, without 'done'
    assert events[-1].type == "game_over"
    assert state.hands == [1, 2]  # B's remaining trackers are irrelevant
    assert sum(len(p) for p in state.captured) == 60
    outcome = state.outcome()
    assert outcome.details[A]["own_scouts_on_board"] == 0


def test_s6_endgame_peek_declined() -> None:
    state = new_state(("T0", "T1"))
    capture_turn(state, A, positions=[0])
    capture_turn(state, B, positions=[1, 2], trackers=3)
    assert state.last_player == A and state.hands[A] == 2
    before = state.score()
    play(state, A, "decline")
    assert state.phase_name == "final_capture"
    play(state, A, "track 2", "done")
    assert state.is_terminal()
    assert state.centre == 6 and state.hands == [0, 0]
    assert state.outcome().scores == before.scores


def test_s7_three_players_endgame_timing() -> None:
    state = new_state()
    capture_turn(state, A, positions=[0], trackers=3)  # A drops out first
    assert state.phase_name == "normal" and state.seats_to_act() == (B,)
    capture_turn(state, B, positions=[1])
    capture_turn(state, C, positions=[2], trackers=2)
    play(state, B, "peek 10", "peek 11")
    assert state.seats_to_act() == (C,)
    capture_turn(state, C, positions=[3])  # C plays the last tracker
    assert state.phase_name == "final_peek" and state.last_player == B
    assert state.seats_to_act() == (B,)
    play(state, B, "peek 10", "peek 11")
    assert state.phase_name == "final_capture"
    play(state, B, "track 2", "take 10", "done")
    assert state.is_terminal()


def test_position_helper() -> None:
    state = new_state(placements={33: "S-T5-2"})
    assert position_of(state, "S-T5-2") == 33
