"""Tracker positions and setups: the setup holds every draw, and the strict position loader.

Positions are built through the public format (``to_position`` / ``state_from_position``).
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.core import GameRng, PositionError, Record, replay
from campfire.games.tracker import GAME, TrackerState

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
    documented = {name for row in rows for name in re.findall(r"`(\w+)`", row.split("|")[1])}
    assert documented == set(new_state().to_position()["state"])


def test_the_documented_example_is_the_engines_position() -> None:
    block = _doc_position_section().split("```json\n")[1].split("```")[0]
    state = GAME.new_game(2, seed=3)
    play(state, 0, "peek 10", "peek 11")
    play(state, 1, "track 2", "take 10", "take 11", "done", "lift 20")
    assert json.loads(block) == state.to_position()
    assert [str(a) for a in state.legal_actions()] == ["drop 10", "drop 11"]
