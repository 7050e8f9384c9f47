"""Big Manitou positions and setups: the strict position loader, and setups that hold every draw.

Positions are built through the public format (``to_position`` / ``state_from_position``).
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.core import GameRng, PositionError, Record, SetupError, replay
from campfire.games.manitou import GAME, ManitouState

from ..position_fuzz import BASIC_VALUES, check_a_mutated_position, sample_positions
from .helpers import fresh

FIXTURE = ["tipi1", "buffalo1", "totem", "horse", "tomahawk", "tipi2"] * 10


def _play(state: ManitouState, rng: random.Random, steps: int) -> list[tuple[int, str]]:
    log = []
    for _ in range(steps):
        if state.is_terminal():
            break
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        log.append((seat, str(action)))
    return log


def _without_rng(state: ManitouState) -> dict[str, Any]:
    position = state.to_position()
    del position["state"]["rng"]
    return position


# ----- setups that hold every draw --------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"draw_cards": True}, {"leftover_tiles": "bag"}])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_seeded_game_and_its_setup_without_the_seed_play_identically(
    players: int, options: dict[str, Any]
) -> None:
    setup = GAME.random_setup(players, GAME.options(options), GameRng(11))
    seeded = GAME.new_game(players, options, seed=11)
    typed = GAME.new_game(players, options, setup=json.loads(json.dumps(setup)))  # no seed
    rng_a, rng_b = random.Random(4), random.Random(4)
    while not seeded.is_terminal():
        assert _without_rng(seeded) == _without_rng(typed)
        assert _play(seeded, rng_a, 1) == _play(typed, rng_b, 1)
    assert typed.is_terminal() and typed.outcome() == seeded.outcome()


def test_the_setup_deck_order_is_the_draw_order_of_the_selected_cards() -> None:
    order = ["h10", "spy", "h1", "chief", "h2", "h3", "squaw", "h4", "h5", "h6", "h7", "h8"]
    order += ["h9", "chief", "squaw", "shaman", "healer"]
    decks = [[order, list(reversed(order))]]
    state = GAME.new_game(2, setup={"dealer": 0, "tiles": FIXTURE, "decks": decks})
    for card in ["h1", "h2", "h3", "h4", "spy", "chief", "squaw"]:
        state.apply(0, f"pick {card}")
    for card in ["h10", "h9", "h8", "h7", "h6", "healer", "shaman", "squaw"]:
        state.apply(1, f"pick {card}")
    assert state.view(0)["you"]["hand"] == ["spy", "h1", "chief"]
    assert state.view(1)["you"]["hand"] == ["healer", "shaman", "squaw"]
    state.apply(1, "play healer g1")
    assert state.view(1)["you"]["hand"] == ["shaman", "squaw", "h9"]  # h9 is drawn next


def test_a_setup_deck_order_without_a_selected_card_is_refused_and_changes_nothing() -> None:
    decks = [[["h1", "h2", "h3", "h4", "h5", "h6", "h7"], ["h1", "h2", "h3", "h4", "h5"] * 0]]
    with pytest.raises(SetupError, match=r"decks\[0\]\[1\]"):  # too short for 8 cards
        GAME.new_game(2, setup={"dealer": 0, "tiles": FIXTURE, "decks": decks})
    seven = ["h1", "h2", "h3", "h4", "h5", "h6", "h7"]
    eight = ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8"]
    state = GAME.new_game(2, setup={"dealer": 0, "tiles": FIXTURE, "decks": [[seven, eight]]})
    for card in eight:
        state.apply(1, f"pick {card}")
    for card in seven[:-1]:
        state.apply(0, f"pick {card}")
    before = state.to_position()
    with pytest.raises(SetupError, match="does not hold"):
        state.apply(0, "pick h10")  # seat 0's deck order has no h10
    assert state.to_position() == before
    state.apply(0, "pick h7")
    assert state.phase_name == "play"


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ({"decks": "h1"}, "decks"),
        ({"decks": [[["h1"] * 9, ["h2"] * 9]]}, "a deck has 1"),
        ({"decks": [[["chief"] * 3 + ["h1"] * 0]]}, "one deck order per seat"),
        ({"decks": [[[1, 2], []]]}, "names"),
        ({"decks": [[["h1"] * 0, []]] * 5}, "at most the 4 hunt"),
        ({"returns": [1, 2]}, "leftover_tiles=bag"),
        ({"returns": [True]}, "whole numbers"),
        ({"dealer": True}, "dealer"),
        ({"shuffles": []}, "unknown setup field"),
    ],
)
def test_bad_setups_are_refused_with_the_field_named(setup: dict[str, Any], field: str) -> None:
    with pytest.raises(SetupError, match=field):
        GAME.new_game(2, setup={"dealer": 0, "tiles": FIXTURE, **setup})


def test_the_draw_variant_needs_whole_decks_in_the_setup() -> None:
    with pytest.raises(SetupError, match="whole shuffled deck"):
        GAME.new_game(
            2, {"draw_cards": True}, setup={"tiles": FIXTURE, "decks": [[["h1"] * 1, []]]}
        )


def test_the_example_record_is_typed_in_without_a_seed() -> None:
    path = Path(__file__).resolve().parents[3] / "examples/records/manitou-explicit-setup.json"
    record = Record.load(path)
    assert record.seed is None and len(record.setup["decks"]) == 3  # type: ignore[index]
    match = replay(record)
    assert match.state.is_terminal() and match.state.outcome() == record.outcome


# ----- the strict loader --------------------------------------------------------------------


def _select_position() -> dict[str, Any]:
    return fresh(3, 0, FIXTURE).to_position()


def _play_position() -> dict[str, Any]:
    state = GAME.new_game(3, seed=5)
    while state.phase_name == "select":
        _play(state, random.Random(1), 1)
    _play(state, random.Random(2), 4)
    return state.to_position()


def _edit(position: dict[str, Any], **fields: Any) -> dict[str, Any]:
    position = copy.deepcopy(position)
    position["state"].update(fields)
    return position


def test_a_card_in_two_places_is_refused() -> None:
    position = _play_position()
    s = position["state"]
    seat, card = next(  # a hunter: one of each strength in a deck
        (p, c) for p in range(3) for c in s["hands"][p] if c.startswith("h") and c != "healer"
    )
    table = copy.deepcopy(s["table"])
    table[2].append([seat, card, True])  # in the hand and on the table
    with pytest.raises(PositionError, match=f"seat {seat}'s cards .* holds 2 {card}"):
        GAME.state_from_position(_edit(position, table=table))


def test_cards_not_conserved_between_selection_and_hands_are_refused() -> None:
    position = _play_position()
    s = position["state"]
    selected = copy.deepcopy(s["selected"])
    selected[0] = selected[0][1:]
    with pytest.raises(PositionError, match=r"selected\[0\]"):
        GAME.state_from_position(_edit(position, selected=selected))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"hunt": 0}, "hunt"),
        ({"hunt": True}, "hunt"),
        ({"dealer": 3}, "dealer"),
        ({"seat": 1}, "seat must be null"),
        ({"phase": "lunch"}, "phase"),
        ({"bag": "tipi1"}, "bag must be a list"),
        ({"grounds": [["tipi1"] * 4, [], []]}, r"grounds\[0\]"),
        ({"used_this_cycle": [["h1"], [], []]}, "first of a cycle"),
        ({"selected": [["h1"] * 2, [], []]}, r"selected\[0\]"),
        ({"hands": [["h1"], [], []]}, "during the selection"),
        ({"play_turn": 3}, "play_turn"),
        ({"thief_queue": [0]}, "thief_queue"),
        ({"tomahawks_counted": [0, 0, 0]}, "tomahawks_counted"),
        ({"sharing": [2, "start", None, 0, None]}, "sharing"),
        ({"totem_holder": 5}, "totem_holder"),
        ({"deals": [[["h1"], [], []]]}, r"deals\[0\]\[0\]"),
        ({"returns": [-1]}, "returns"),
        ({"rng": [1, 2, 3]}, "generator"),
        ({"colour": "red"}, "unknown state field"),
    ],
)
def test_impossible_positions_are_refused_with_the_field_named(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(PositionError, match=message):
        GAME.state_from_position(_edit(_select_position(), **fields))


def test_a_missing_field_is_named() -> None:
    position = _select_position()
    del position["state"]["hands"]
    with pytest.raises(PositionError, match="'hands'"):
        GAME.state_from_position(position)


# ----- property: random mutations are accepted and playable, or refused --------------------


def _keep(state: ManitouState, rng: random.Random) -> bool:
    return rng.random() < 0.08 or state.phase_name in ("thief", "take", "totem", "horse")


@cache
def _positions() -> tuple[str, ...]:
    runs: list[tuple[int, int, dict[str, Any]]] = [
        (1, 2, {}),
        (2, 3, {}),
        (3, 4, {"draw_cards": True}),
        (4, 5, {"leftover_tiles": "bag"}),
    ]
    return sample_positions(GAME, runs, _keep, lambda state, rng: _play(state, rng, 1))


#: the samples a mutation writes: the common ones and this game's words and numbers
_VALUES: list[Any] = [
    *BASIC_VALUES,
    7,
    99,
    "h1",
    "chief",
    "tipi1",
    "totem",
    "select",
    "play",
    "take",
    ["h1"],
    {"a": 1},
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_positions_are_playable_or_refused(data: st.DataObject) -> None:
    """The selection's seats choose at once: every seat to act must have a legal move."""
    check_a_mutated_position(GAME, _positions(), data.draw, _VALUES, simultaneous=True)
