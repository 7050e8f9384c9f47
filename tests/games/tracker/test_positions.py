"""Tracker positions and setups: the setup holds every draw, and the strict position loader.

Positions are built through the public format (``to_position`` / ``state_from_position``).
"""

from __future__ import annotations

import inspect
import json
import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.core import GameRng, PositionError, Record, replay
from campfire.games.tracker import GAME, TrackerState
from campfire.games.tracker import position as reader

from ..position_fuzz import BASIC_VALUES, check_a_mutated_position, sample_positions
from .helpers import new_state, play


def _play(state: TrackerState, rng: random.Random, steps: int) -> list[tuple[int, str]]:
    log = []
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        captures = [a for a in legal if not str(a).startswith("peek")]
        action = rng.choice(captures if captures and rng.random() < 0.7 else legal)
        state.apply(seat, action)
        log.append((seat, str(action)))
    return log


# ----- the setup holds every draw ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seeded_game_and_its_setup_without_the_seed_play_identically(players: int) -> None:
    setup = GAME.random_setup(players, GAME.options({}), GameRng(11))
    seeded = GAME.new_game(players, seed=11)
    typed = GAME.new_game(players, setup=json.loads(json.dumps(setup)))  # no seed
    rng_a, rng_b = random.Random(4), random.Random(4)
    while not seeded.is_terminal():
        assert seeded.to_position() == typed.to_position()
        assert _play(seeded, rng_a, 1) == _play(typed, rng_b, 1)
    assert typed.is_terminal() and typed.outcome() == seeded.outcome()


def test_the_example_record_is_typed_in_without_a_seed() -> None:
    path = Path(__file__).resolve().parents[3] / "examples/records/tracker-explicit-setup.json"
    record = Record.load(path)
    assert record.seed is None and record.setup is not None
    match = replay(record)
    assert match.state.is_terminal() and match.state.outcome() == record.outcome


# ----- the strict loader ------------------------------------------------------------------------


def _position(state: TrackerState | None = None) -> Any:
    return json.loads(json.dumps((state or new_state()).to_position()))


def _refused(position: Any, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        GAME.state_from_position(position)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["captured"][0].append(s["board"][0]), "appears twice"),
        (lambda s: s["board"].__setitem__(0, None), "is missing"),
        (lambda s: s["board"].pop(), "board must have 60 entries"),
        (lambda s: s["board"].__setitem__(0, 5), r"board\[0\]: unknown card 5"),
        (lambda s: s.update(tribes=["T0", "T0", "T1"]), "different tribe"),
        (lambda s: s.update(tribes=["T0", "T9", "T1"]), "tribes: unknown tribe 'T9'"),
        (lambda s: s.update(start_player=3), "start_player must be 0–2"),
        (lambda s: s.update(start_player="0"), "start_player must be a whole number"),
        (lambda s: s.update(trackers=[3, 4, 3]), r"trackers\[1\] must be 0–3"),
        (lambda s: s.update(trackers=[3, True, 3]), r"trackers\[1\] must be a whole number"),
        (lambda s: s.update(trackers=[3, 3]), "trackers must have 3 entries"),
        (lambda s: s.update(phase="lunch"), "phase must be one of"),
        (lambda s: s.update(step=1), "step must be one of"),
        (lambda s: s.update(seat=3), "seat must be 0–2"),
        (lambda s: s.update(seat=None), "seat must be a whole number"),
        (lambda s: s.update(last_player=1), "last_player is set only once"),
        (lambda s: s.update(peeked=[3]), "peeked: positions are listed only during a peek"),
        (lambda s: s.update(relocations=1), "relocations: moves are counted only"),
        (lambda s: s.update(relocations=3), "relocations must be 0–2"),
        (lambda s: s.update(lifted=4), "lifted: a card is lifted only"),
        (lambda s: s.update(captured="abc"), "captured must be a JSON list"),
        (lambda s: s.update(colour="red"), "unknown field 'colour'"),
        (lambda s: s.pop("board"), "the field 'board' is missing"),
    ],
)
def test_impossible_positions_are_refused_with_the_field_named(change: Any, message: str) -> None:
    position = _position()
    change(position["state"])
    _refused(position, message)


def test_an_unknown_position_field_is_refused() -> None:
    position = _position()
    position["rng"] = 1
    _refused(position, "unknown position field 'rng'")


def test_captured_cards_need_played_trackers() -> None:
    position = _position()
    s = position["state"]
    s["captured"][1].append(s["board"][0])
    s["board"][0] = None
    _refused(position, r"captured\[1\]: seat 1 has captured cards but still holds all")


def test_a_player_without_trackers_takes_no_turn() -> None:
    position = _position()
    s = position["state"]
    s["trackers"][0] = 0
    s["captured"][0].append(s["board"][0])
    s["board"][0] = None
    _refused(position, r"trackers\[0\]: a player without trackers takes no more turns")


def test_one_player_left_with_trackers_means_the_final_turns() -> None:
    position = _position()
    s = position["state"]
    s["trackers"] = [3, 0, 0]
    for seat in (1, 2):
        s["captured"][seat].append(s["board"][seat])
        s["board"][seat] = None
    _refused(position, "phase must be final_peek")
    s["phase"], s["last_player"] = "final_peek", 0
    state = GAME.state_from_position(position)
    assert [str(a) for a in state.legal_actions()][-1] == "decline"
    s["step"] = "collecting"
    _refused(position, "step: a final_peek turn has no collecting step")


def test_a_peek_in_progress_lists_distinct_occupied_positions() -> None:
    state = new_state(peek_count=3)
    state.apply(0, "peek 4")
    position = _position(state)
    assert GAME.state_from_position(position).to_position() == position
    position["state"]["peeked"] = [4, 4]
    _refused(position, "peeked: distinct occupied positions")
    position["state"]["peeked"] = [4, 5, 6]
    _refused(position, "peeked: a peek turn in progress has looked at 1–2 cards")


def test_a_lifted_card_must_be_on_the_board() -> None:
    state = new_state()
    play(state, 0, "track 1", "take 0", "done", "lift 5")
    position = _position(state)
    assert GAME.state_from_position(position).to_position() == position
    position["state"]["lifted"] = 0  # the position emptied by the capture
    _refused(position, "lifted: the occupied position")


def test_a_finished_game_has_nobody_to_act() -> None:
    state = new_state()
    _play(state, random.Random(3), 100_000)
    position = _position(state)
    assert GAME.state_from_position(position).outcome() == state.outcome()
    position["state"]["seat"] = 0
    _refused(position, "seat: nobody is to act in a finished game")


def test_every_position_of_random_games_loads() -> None:
    for seed, players in [(1, 2), (2, 4), (3, 6)]:
        state = GAME.new_game(players, {"peek_count": 3, "max_relocations": 4}, seed=seed)
        rng = random.Random(seed)
        while True:
            position = json.loads(json.dumps(state.to_position()))
            assert GAME.state_from_position(position).to_position() == position
            if state.is_terminal():
                break
            _play(state, rng, 1)


# ----- one position per named check of position.py ----------------------------------------------
#
# Each row starts from a legal position of a game played to some point, changes one thing so that
# exactly the check's rule is broken, and expects the check's own error.


def _played(*turns: tuple[int, str], players: int = 3, **options: Any) -> Callable[[], Any]:
    """A base: the position after ``turns`` (seat, steps separated by commas) of a new game."""

    def build() -> Any:
        state = new_state(("T0", "T1", "T2")[:players], **options)
        for seat, steps in turns:
            play(state, seat, *steps.split(", "))
        return _position(state)

    return build


#: seat 0 at the start of the game
_START = _played()
#: seat 1 to act after seat 0 captured the card on position 0 (now empty)
_CAPTURED = _played((0, "track 1, take 0, done, done"))
#: seat 0 collecting, having played a tracker and taken nothing yet
_COLLECTING = _played((0, "track 1"))
#: seat 0 in a peek of 3 cards, having looked at position 4
_PEEKING = _played((0, "peek 4"), peek_count=3)
#: seat 0 moving the card on position 5 (position 0 is empty)
_PLACING = _played((0, "track 1, take 0, done, lift 5"))
#: two players: seat 0 played its last tracker, seat 1 (2 trackers) is in the final peek
_FINAL_PEEK = _played((0, "track 1, done"), (1, "track 1, done"), (0, "track 2, done"), players=2)


def _finished() -> Any:
    state = new_state()
    _play(state, random.Random(3), 100_000)
    assert state.is_terminal()
    return _position(state)


def _capture_board(seat: int, *positions: int) -> Callable[[Any], None]:
    """Move the cards on ``positions`` into ``seat``'s pile (it keeps its trackers)."""

    def change(s: Any) -> None:
        for p in positions:
            s["captured"][seat].append(s["board"][p])
            s["board"][p] = None

    return change


def _then(*changes: Callable[[Any], None]) -> Callable[[Any], None]:
    def change(s: Any) -> None:
        for one in changes:
            one(s)

    return change


def _set(**fields: Any) -> Callable[[Any], None]:
    return lambda s: s.update(fields)


def _set_item(key: str, index: int, value: Any) -> Callable[[Any], None]:
    return lambda s: s[key].__setitem__(index, value)


def _copy_card(source: int, target: int) -> Callable[[Any], None]:
    return lambda s: s["board"].__setitem__(target, s["board"][source])


#: (check, base position, the one change that breaks its rule, the check's message)
_CHECK_ROWS = [
    ("_check_every_card_once", _CAPTURED, _copy_card(1, 0), r"card S-T0-2 appears twice; each"),
    ("_check_every_card_once", _START, _set_item("board", 5, None), r"card F-T0-3 is missing;"),
    (
        "_check_captures_played_trackers",
        _START,
        _capture_board(1, 0),
        r"captured\[1\]: seat 1 has captured cards but still holds all its trackers",
    ),
    (
        "_check_someone_acts_before_the_end",
        _START,
        _set(seat=None),
        r"seat must be a whole number 0–2 \(got None\)",
    ),
    (
        "_check_nobody_acts_after_the_end",
        _finished,
        _set(seat=0),
        r"seat: nobody is to act in a finished game \(null\)",
    ),
    (
        "_check_last_player_only_in_final_turns",
        _START,
        _set(last_player=1),
        "last_player is set only once the final turns have begun",
    ),
    (
        "_check_final_turns_are_the_last_players",
        _FINAL_PEEK,
        _set(last_player=0),
        r"last_player: the final turns are the last player's \(seat\)",
    ),
    (
        "_check_one_holder_means_final_turns",
        _FINAL_PEEK,
        _set(phase="normal", last_player=None),
        "trackers: with one player left holding trackers .*; phase must be final_peek",
    ),
    (
        "_check_only_the_last_player_holds_trackers",
        _FINAL_PEEK,
        _set_item("trackers", 0, 1),
        "trackers: in the final turns only the last player holds trackers",
    ),
    (
        "_check_step_belongs_to_phase",
        _FINAL_PEEK,
        _set(step="collecting"),
        r"step: a final_peek turn has no collecting step \(allowed: turn_start, peeking\)",
    ),
    (
        "_check_board_not_empty_before_the_end",
        _START,
        _then(_capture_board(1, *range(60)), _set_item("trackers", 1, 2)),
        "board: the game ends when the board is empty",
    ),
    (
        "_check_turn_needs_trackers",
        _START,
        _then(_capture_board(0, 0), _set_item("trackers", 0, 0)),
        r"trackers\[0\]: a player without trackers takes no more turns",
    ),
    (
        "_check_capture_began_with_trackers",
        _COLLECTING,
        _set_item("trackers", 0, 3),
        r"trackers\[0\]: a capture turn begins by playing trackers",
    ),
    (
        "_check_peeked_distinct_and_occupied",
        _PEEKING,
        _set(peeked=[4, 4]),
        "peeked: distinct occupied positions",
    ),
    (
        "_check_peek_in_progress_not_complete",
        _PEEKING,
        _set(peeked=[4, 5, 6]),
        r"peeked: a peek turn in progress has looked at 1–2 cards \(got 3\)",
    ),
    (
        "_check_peeked_only_while_peeking",
        _START,
        _set(peeked=[3]),
        "peeked: positions are listed only during a peek turn",
    ),
    (
        "_check_relocation_has_an_empty_position",
        _COLLECTING,
        _set(step="relocating"),
        "step: relocation needs an empty position",
    ),
    (
        "_check_relocations_only_while_relocating",
        _START,
        _set(relocations=1),
        "relocations: moves are counted only while relocating",
    ),
    (
        "_check_lifted_card_on_the_board",
        _PLACING,
        _set(lifted=0),
        "lifted: the occupied position whose card is being moved",
    ),
    (
        "_check_lifted_only_while_placing",
        _START,
        _set(lifted=4),
        "lifted: a card is lifted only while placing it",
    ),
]

#: checks no position read through ``read_state`` can reach (tested on a state directly, below)
_BACKSTOPS = ("_check_seat_has_a_legal_step",)


def _row_ids() -> list[str]:
    """Each row's id: its check's name (``-2`` added for a check's second row)."""
    names = [row[0] for row in _CHECK_ROWS]
    return [
        n if names.index(n) == i else f"{n}-{names[: i + 1].count(n)}" for i, n in enumerate(names)
    ]


@pytest.mark.parametrize(("check", "base", "change", "message"), _CHECK_ROWS, ids=_row_ids())
def test_each_check_refuses_a_position_breaking_its_rule(
    check: str,
    base: Callable[[], Any],
    change: Callable[[Any], None],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    position = base()
    assert GAME.state_from_position(position).to_position() == position  # legal before
    change(position["state"])
    with pytest.raises(PositionError, match=message) as refused:
        GAME.state_from_position(position)
    assert check in [entry.name for entry in refused.traceback]  # raised by that check
    # and only its rule is broken: without the check, no other one refuses the position
    monkeypatch.setattr(reader, check, lambda fields: None)
    GAME.state_from_position(position)


def test_every_check_of_the_reader_has_a_position_that_breaks_it() -> None:
    checks = {name for name in vars(reader) if name.startswith("_check_")}
    assert {row[0] for row in _CHECK_ROWS} | set(_BACKSTOPS) == checks


def test_the_reader_runs_every_check() -> None:
    called = re.findall(r"\b(_check_\w+)\(", inspect.getsource(reader.read_state))
    assert sorted(called) == sorted({name for name in vars(reader) if name.startswith("_check_")})


def test_a_seat_without_a_legal_step_is_refused_by_the_backstop() -> None:
    state = new_state()
    play(state, 0, "track 1", "take 0", "done", "lift 5")
    state.board[0] = state.captured[0].pop()  # placing with no empty position to drop on
    state = state.clone()  # no cached legal steps
    assert state.legal_actions() == []
    with pytest.raises(PositionError, match="seat 0 would have no legal step in this position"):
        reader._check_seat_has_a_legal_step(state)
    # read as a position, an earlier check refuses it: the backstop is never reached
    _refused(_position(state), "step: relocation needs an empty position")


# ----- property: random mutations are accepted and playable, or refused --------------------


def _keep(state: TrackerState, rng: random.Random) -> bool:
    return rng.random() < 0.2 or state.step_name != "turn_start" or state.phase_name != "normal"


@cache
def _positions() -> tuple[str, ...]:
    runs = [(1, 2, {}), (2, 3, {"peek_count": 3}), (3, 5, {"max_relocations": 5})]
    return sample_positions(GAME, runs, _keep, lambda state, rng: _play(state, rng, 1))


#: the samples a mutation writes: the common ones and this game's words and numbers
_VALUES: list[Any] = [
    *BASIC_VALUES,
    3,
    59,
    60,
    "T1",
    "S-T0-1",
    "F-T5-7",
    "normal",
    "final_peek",
    "final_capture",
    "game_over",
    "turn_start",
    "peeking",
    "collecting",
    "relocating",
    "placing",
    ["S-T0-1"],
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_positions_are_playable_or_refused(data: st.DataObject) -> None:
    check_a_mutated_position(GAME, _positions(), data.draw, _VALUES)


# ----- the documented position format -------------------------------------------------------

DOC = Path(__file__).resolve().parents[3] / "docs" / "notation" / "tracker.md"


def _doc_position_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Position\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_the_documented_fields_are_the_position_fields() -> None:
    rows = [line for line in _doc_position_section().splitlines() if line.startswith("| `")]
    rows = [row for row in rows if not row.startswith("| `_check_")]  # the checks' table
    documented = {name for row in rows for name in re.findall(r"`(\w+)`", row.split("|")[1])}
    assert documented == set(new_state().to_position()["state"])


def test_the_documented_checks_are_the_readers_in_its_order() -> None:
    lines = _doc_position_section().splitlines()
    documented = [line.split("`")[1] for line in lines if line.startswith("| `_check_")]
    assert documented == re.findall(r"\b(_check_\w+)\(", inspect.getsource(reader.read_state))


def test_the_documented_example_is_the_engines_position() -> None:
    block = _doc_position_section().split("```json\n")[1].split("```")[0]
    state = GAME.new_game(2, seed=3)
    play(state, 0, "peek 10", "peek 11")
    play(state, 1, "track 2", "take 10", "take 11", "done", "lift 20")
    assert json.loads(block) == state.to_position()
    assert [str(a) for a in state.legal_actions()] == ["drop 10", "drop 11"]
