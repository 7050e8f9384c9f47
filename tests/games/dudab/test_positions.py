"""Dudab positions and setups: setups that hold every draw, and the strict position loader.

Positions are built through the public format (``to_position`` / ``state_from_position``).
"""

from __future__ import annotations

import ast
import copy
import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.core import GameRng, PositionError, Record, SetupError, replay
from campfire.games.dudab import GAME, DudabState
from campfire.games.dudab import position as dudab_position

from ..position_fuzz import BASIC_VALUES, check_a_mutated_position, sample_positions
from .table import make, owned_columns


def _play(state: DudabState, rng: random.Random, steps: int) -> list[tuple[int, str]]:
    log = []
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.seats_to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        log.append((seat, str(action)))
    return log


# ----- setups that hold every draw --------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{}, {"use_jungle": True}, {"use_baby": True}, {"use_jungle": True, "use_baby": True}],
)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_seeded_game_and_its_setup_without_the_seed_play_identically(
    players: int, options: dict[str, Any]
) -> None:
    setup = GAME.random_setup(players, GAME.options(options), GameRng(11))
    assert len(setup["decks"]) == players  # the deck of every round
    seeded = GAME.new_game(players, options, seed=11)
    typed = GAME.new_game(players, options, setup=json.loads(json.dumps(setup)))  # no seed
    rng_a, rng_b = random.Random(4), random.Random(4)
    while not seeded.is_terminal():
        assert seeded.to_position() == typed.to_position()
        assert _play(seeded, rng_a, 1) == _play(typed, rng_b, 1)
    assert typed.is_terminal() and typed.outcome() == seeded.outcome()


def test_a_setup_with_every_deck_uses_no_seed() -> None:
    setup = GAME.random_setup(3, GAME.options({}), GameRng(5))
    one = GAME.new_game(3, setup=setup, seed=1)
    two = GAME.new_game(3, setup=setup, seed=2)
    rng_a, rng_b = random.Random(0), random.Random(0)
    while not one.is_terminal():
        assert _play(one, rng_a, 1) == _play(two, rng_b, 1)
    assert one.to_position() == two.to_position()


def test_a_later_round_is_dealt_from_its_setup_deck() -> None:
    setup = GAME.random_setup(2, GAME.options({}), GameRng(3))
    state = GAME.new_game(2, setup=setup)
    rng = random.Random(1)
    while state.round == 0:
        _play(state, rng, 1)
    deck = setup["decks"][1]
    start = state.round_start_player()  # one seat left of round 1's (dudab §2.2)
    position = state.to_position()["state"]
    assert start == (setup["start_player"] + 1) % 2
    assert position["hands"][start] == [deck[0], deck[2], deck[4]]
    assert position["hands"][1 - start] == [deck[1], deck[3], deck[5]]
    assert [c["cards"] for c in position["columns"]] == [[deck[6]], [deck[7]]]
    assert position["draw"] == deck[8:]


def test_a_setup_with_the_first_decks_only_draws_the_others_from_the_seed() -> None:
    setup = GAME.random_setup(3, GAME.options({}), GameRng(5))
    setup["decks"] = setup["decks"][:1]  # the older form: later rounds from the seed
    one = GAME.new_game(3, setup=setup, seed=1).to_position()["state"]["decks"]
    two = GAME.new_game(3, setup=setup, seed=2).to_position()["state"]["decks"]
    assert len(one) == len(two) == 2 and one != two


def test_the_example_record_is_typed_in_without_a_seed() -> None:
    path = Path(__file__).resolve().parents[3] / "examples/records/dudab-explicit-setup.json"
    record = Record.load(path)
    assert record.seed is None and record.setup is not None
    assert len(record.setup["decks"]) == len(record.players)  # every round's deck
    match = replay(record)
    assert match.state.is_terminal() and match.state.outcome() == record.outcome


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.update(decks="N-red-fur-3"), "decks must list"),
        (lambda s: s.update(decks=[]), "decks must list"),
        (lambda s: s["decks"].append(s["decks"][0]), "decks must list"),
        (lambda s: s["decks"][1].append("DUDAB-1"), r"deck 2: card DUDAB-1 appears 2 times"),
        (lambda s: s["decks"][2].pop(), "deck 3: card .* is missing"),
        (lambda s: s["decks"][1].__setitem__(0, 7), "unknown card 7"),
        (lambda s: s.update(start_player=True), "start_player must be a seat"),
        (lambda s: s.update(start_player=3), "start_player must be a seat 0–2"),
        (lambda s: s.update(seed=3), "unknown setup field 'seed'"),
    ],
)
def test_bad_setups_are_refused_with_the_field_named(change: Any, message: str) -> None:
    setup = GAME.random_setup(3, GAME.options({}), GameRng(5))
    change(setup)
    with pytest.raises(SetupError, match=message):
        GAME.new_game(3, setup=setup)


def test_a_jungle_among_the_dealt_cards_of_a_later_deck_is_refused() -> None:
    options = {"use_jungle": True}
    setup = GAME.random_setup(2, GAME.options(options), GameRng(5))
    deck = setup["decks"][1]
    i = next(i for i, c in enumerate(deck) if c.startswith("JUNGLE"))
    deck[0], deck[i] = deck[i], deck[0]
    with pytest.raises(SetupError, match=r"deck 2: JUNGLE-\d is among the first 8 cards"):
        GAME.new_game(2, options, setup=setup)


# ----- the strict loader ------------------------------------------------------------------------


def _position(players: int = 3, options: dict[str, Any] | None = None, steps: int = 12) -> Any:
    state = GAME.new_game(players, options, seed=2)
    _play(state, random.Random(2), steps)
    return json.loads(json.dumps(state.to_position()))


def _first(s: dict[str, Any], prefix: str) -> str:
    """The first card id starting with ``prefix`` in the draw pile."""
    card: str = next(c for c in s["draw"] if c.startswith(prefix))
    return card


def _move_draw_card(s: dict[str, Any], zone: str) -> None:
    card = s["draw"].pop()
    s[zone][0].append(card)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["draw"].append(s["draw"][0]), r"the cards of the round: card .* 2 times"),
        (lambda s: s["draw"].pop(), r"the cards of the round: card .* is missing"),
        (lambda s: s["piles"][1].append(s["hands"][0][0]), "appears 2 times"),
        (lambda s: s["decks"][0].pop(), r"decks\[0\] \(round 2\): card .* is missing"),
        (lambda s: s.update(decks=s["decks"][:1]), "decks must have 2 entries"),
        (lambda s: s.update(round=0), "round must be 1–3"),
        (lambda s: s.update(round=True), "round must be a whole number"),
        (lambda s: s.update(round="1"), "round must be a whole number"),
        (lambda s: s.update(phase="lunch"), "phase must be 'playing' or 'game_over'"),
        (lambda s: s.update(actor=3), "actor must be 0–2"),
        (lambda s: s.update(actor=None), r"actor must be a whole number 0–2 \(got None\)"),
        (lambda s: s.update(start_player=-1), "start_player must be 0–2"),
        (lambda s: s.update(revealed=1), "revealed is the seat"),
        (lambda s: s.update(hands="abc"), "hands must be a JSON list"),
        (lambda s: s.update(hands=s["hands"][:2]), "hands must have 3 entries"),
        (lambda s: s["hands"][0].append("N-red-fur-9"), r"hands\[0\]: unknown card"),
        (lambda s: s.update(scores=[[1], [], []]), r"scores\[0\] must have 0 entries"),
        (lambda s: s.update(last_round={"round": 1}), "last_round must be null"),
        (lambda s: s.update(kept=[s["draw"].pop()]), "kept: cards are kept only while"),
        (lambda s: s.update(tasks=[{"task": "nap", "seat": 0}]), "a task is an object"),
        (lambda s: s.update(tasks=[{"task": "trim", "seat": 5}]), "task 'trim': seat must be"),
        (lambda s: s.update(tasks=[{"task": "draw", "seat": 0, "count": 1}]), "the top task"),
        (lambda s: s.update(tasks=[{"task": "trim", "seat": 0}]), "the bottom task is the end"),
        (
            lambda s: s.update(
                tasks=[{"task": "end_step", "seat": s["actor"]}, {"task": "trim", "seat": 0}]
            ),
            "a trim needs more than 5",
        ),
        (
            lambda s: s.update(
                tasks=[
                    {"task": "end_step", "seat": s["actor"]},
                    {"task": "trim", "seat": 0},
                    {"task": "draw", "seat": 1, "count": 2},
                    {"task": "baby", "seat": 1, "card": "BABY-1"},
                ]
            ),
            r"tasks\[2\]: a 'draw' task sits on a 'trim' or 'end_step' of the same seat",
        ),
        (lambda s: s.update(obligation={"kind": "call", "column": 1}), "'call' is missing"),
        (lambda s: s.update(obligation={"kind": "nap"}), "obligation is null or an object"),
        (
            lambda s: s.update(obligation={"kind": "call", "column": 1, "call": "pink"}),
            "obligation.call must be one of",
        ),
        (lambda s: s["columns"][0].update(cards=[]), r"columns\[0\]\.cards: a column without"),
        (lambda s: s["columns"][0].update(above=1), r"columns\[0\]: 'above' counts"),
        (lambda s: s["columns"][0].update(colour="red"), r"columns\[0\]: unknown field"),
        (lambda s: s["columns"].pop(), "columns must have 2 entries"),
        (lambda s: s.update(draw=[]), "the cards of the round|the round ends when the draw"),
        (lambda s: s.update(extra=1), "unknown field 'extra'"),
        (
            lambda s: s.update(obligation={"kind": "shaman_reaction", "column": 3}),
            r"obligation\.column must be 1–2 \(got 3\)",
        ),
        (lambda s: s.update(scores=[["7"], [], []]), r"scores\[0\]\[0\] must be a whole number"),
        (
            lambda s: s.update(tasks=[{"task": "end_step", "seat": 0}] * 129),
            "tasks: 129 pending tasks; a round never has more than 128",
        ),
        (lambda s: s["columns"][1].update(jungle="N-red-fur-3"), "must be a Jungle card"),
        (lambda s: s.pop("discard"), "the field 'discard' is missing"),
    ],
)
def test_impossible_positions_are_refused_with_the_field_named(change: Any, message: str) -> None:
    position = _position()
    change(position["state"])
    with pytest.raises(PositionError, match=message):
        GAME.state_from_position(position)


def test_a_jungle_in_a_hand_is_refused() -> None:
    position = _position(2, {"use_jungle": True})
    s = position["state"]
    card = _first(s, "JUNGLE")
    s["draw"].remove(card)
    s["hands"][0].append(card)
    with pytest.raises(PositionError, match=r"hands\[0\]: JUNGLE-\d cannot be there"):
        GAME.state_from_position(position)


def test_a_baby_in_a_visible_column_is_refused() -> None:
    position = _position(2, {"use_baby": True})
    s = position["state"]
    card = _first(s, "BABY")
    s["draw"].remove(card)
    s["columns"][0]["cards"].append(card)
    with pytest.raises(PositionError, match=r"columns\[0\]\.cards: BABY-\d cannot be there"):
        GAME.state_from_position(position)


def test_more_cards_below_a_jungle_than_above_are_refused() -> None:
    position = _position(2, {"use_jungle": True})
    s = position["state"]
    s["columns"][0]["jungle"] = card = _first(s, "JUNGLE")
    s["draw"].remove(card)
    s["columns"][0]["above"] = 0
    with pytest.raises(PositionError, match="more below than above captures"):
        GAME.state_from_position(position)


def test_an_obligation_must_come_from_the_card_on_its_column() -> None:
    position = _position()
    s = position["state"]
    s["obligation"] = {"kind": "shaman_reaction", "column": 1}
    s["columns"][0]["cards"] = s["columns"][0]["cards"][:1]
    s["draw"].extend(s["columns"][0]["cards"][1:])
    card = next(c for c in s["draw"] if c.startswith("N-"))
    s["draw"].remove(card)
    s["discard"].extend(s["columns"][0]["cards"])
    s["columns"][0]["cards"] = [card]
    s["owners"][0]["cards"] = [None]
    with pytest.raises(PositionError, match="column 1 must end with the Shaman"):
        GAME.state_from_position(position)


def test_a_later_deck_with_a_baby_dealt_is_refused() -> None:
    position = _position(3, {"use_baby": True})
    deck = position["state"]["decks"][0]
    i = next(i for i, c in enumerate(deck) if c.startswith("BABY"))
    deck[0], deck[i] = deck[i], deck[0]
    with pytest.raises(PositionError, match=r"decks\[0\] \(round 2\): BABY-\d is among the first"):
        GAME.state_from_position(position)


def test_the_last_round_report_must_match_the_scores() -> None:
    state = GAME.new_game(2, seed=4)
    rng = random.Random(0)
    while state.round == 0:
        _play(state, rng, 1)
    position = json.loads(json.dumps(state.to_position()))
    assert GAME.state_from_position(position).to_position() == position
    position["state"]["scores"][0][0] += 1
    with pytest.raises(PositionError, match="last_round: the round's scores"):
        GAME.state_from_position(position)
    position = json.loads(json.dumps(state.to_position()))
    position["state"]["last_round"]["details"][0]["total"] += 1
    with pytest.raises(PositionError, match="last_round must be the scoring"):
        GAME.state_from_position(position)


def test_a_finished_game_has_nobody_to_act_and_no_decks() -> None:
    state = GAME.new_game(2, seed=4)
    _play(state, random.Random(0), 10_000)
    position = json.loads(json.dumps(state.to_position()))
    assert GAME.state_from_position(position).outcome() == state.outcome()
    bad = copy.deepcopy(position)
    bad["state"]["round"] = 1
    with pytest.raises(PositionError, match="a finished game ends after round 2"):
        GAME.state_from_position(bad)
    bad = copy.deepcopy(position)
    bad["state"]["tasks"] = [{"task": "trim", "seat": 0}]
    with pytest.raises(PositionError, match="tasks"):
        GAME.state_from_position(bad)


def test_every_position_of_random_games_and_their_determinisations_loads() -> None:
    for seed, players, options in [
        (1, 2, {"use_jungle": True, "use_baby": True}),
        (2, 4, {"use_baby": True}),
        (3, 6, {"use_jungle": True, "use_baby": True}),
    ]:
        state = GAME.new_game(players, options, seed=seed)
        rng = random.Random(seed)
        while True:
            position = json.loads(json.dumps(state.to_position()))
            assert GAME.state_from_position(position).to_position() == position
            if state.is_terminal():
                break
            seat = state.seats_to_act()[0]
            GAME.state_from_position(state.determinize(seat, rng).to_position())
            _play(state, rng, 1)


# ----- who played the column cards (``owners``) ---------------------------------------------


def test_the_columns_record_who_played_each_card_and_laid_the_jungle() -> None:
    state = owned_columns()
    assert state.owners == [(-1, 0, 1), (-1,)] and state.jungle_owners == [-1, 2]
    columns = state.view(None)["columns"]
    assert [(c["owners"], c["jungle_owner"]) for c in columns] == [
        ([None, 0, 1], None),
        ([None], 2),
    ]
    owners = state.to_position()["state"]["owners"]
    assert owners == [{"cards": [None, 0, 1], "jungle": None}, {"cards": [None], "jungle": 2}]


def test_a_capture_leaves_the_capturing_card_owned_by_the_capturer() -> None:
    column = ["yellow/club/2", "red/fur/3", "blue/mammoth/4", "green/hand/3", "yellow/fur/2"]
    state = make(2, hands=[["red/club/1", "blue/hand/2"]], columns=[column])
    state.apply(0, "p red/club/1 c1")
    assert len(state.vis[0]) == 1 and state.owners[0] == (0,)


def test_owners_survive_a_position_round_trip_and_a_clone() -> None:
    state = owned_columns()
    position = json.loads(json.dumps(state.to_position()))
    again = GAME.state_from_position(position)
    assert again.owners == state.owners and again.jungle_owners == state.jungle_owners
    assert again.to_position() == position
    clone = state.clone()
    clone.apply(0, "p red/fur/1 c2")  # below the Jungle: it mirrors blue hand 1
    assert clone.owners == [(-1, 0, 1), (-1, 0)] and clone.jungle_owners == [-1, 2]
    assert state.owners == [(-1, 0, 1), (-1,)]


def test_a_position_written_before_owners_were_recorded_loads_with_owners_unknown() -> None:
    state = owned_columns()
    position = json.loads(json.dumps(state.to_position()))
    del position["state"]["owners"]
    old = GAME.state_from_position(position)
    assert old.owners == [(-1, -1, -1), (-1,)] and old.jungle_owners == [-1, -1]
    assert [c["owners"] for c in old.view(None)["columns"]] == [[None, None, None], [None]]
    assert old.legal_actions() == state.legal_actions()
    assert old.to_position()["state"]["owners"] == [
        {"cards": [None, None, None], "jungle": None},
        {"cards": [None], "jungle": None},
    ]
    position["state"]["owners"] = None  # absent is the old format; null is no list of owners
    with pytest.raises(PositionError, match="owners must be a JSON list"):
        GAME.state_from_position(position)


# ----- every named check of the reader, each refusing a position that breaks its invariant ------


@cache
def _base_text(base: str) -> str:
    """A legal position (JSON text) of a seeded game, to break one invariant of."""
    if base in ("after_round_one", "finished"):
        state = GAME.new_game(2, seed=4)
        rng = random.Random(0)
        while state.round == 0 if base == "after_round_one" else not state.is_terminal():
            _play(state, rng, 1)
        return json.dumps(state.to_position())
    players, options = {
        "three": (3, {}),  # round 1, seat 0 to act, no tasks, hands of 2, 5 and 5 cards
        "jungle": (2, {"use_jungle": True}),  # a Jungle on column 1, none on column 2
        "baby": (2, {"use_baby": True}),
        "baby3": (3, {"use_baby": True}),
    }[base]
    return json.dumps(_position(players, options))


def _take(s: dict[str, Any], prefix: str) -> str:
    """Take the first card id starting with ``prefix`` out of the draw pile."""
    card = _first(s, prefix)
    s["draw"].remove(card)
    return card


def _tasks(s: dict[str, Any], *tasks: tuple[str, int]) -> None:
    s["tasks"] = [{"task": task, "seat": seat} for task, seat in tasks]


def _jungle_with_1_above_3_below(s: dict[str, Any]) -> None:
    s["columns"][1].update(jungle=_take(s, "JUNGLE"), above=1)


def _a_keep_below_a_trim(s: dict[str, Any]) -> None:
    _tasks(s, ("end_step", 0), ("keep", 0), ("trim", 1))
    s["hands"][1].append(s["draw"].pop())


def _swap_of_a_two_card_hand(s: dict[str, Any]) -> None:
    s["tasks"] = [
        {"task": "end_step", "seat": 0},
        {"task": "draw", "seat": 0, "count": 1},
        {"task": "swap", "seat": 0},
    ]
    s["revealed"] = 0


def _three_kept(s: dict[str, Any]) -> None:
    _tasks(s, ("end_step", 0), ("keep", 0))
    s["kept"] = [s["draw"].pop() for _ in range(3)]


def _obligation_on_a_shaman(s: dict[str, Any]) -> None:
    column = next(i for i, c in enumerate(s["columns"]) if c["cards"][-1].startswith("SHAMAN-"))
    s["obligation"] = {"kind": "shaman_reaction", "column": column + 1}


def _empty_draw_pile(s: dict[str, Any]) -> None:
    s["discard"] += s["draw"]
    s["draw"] = []


def _a_baby_dealt_in_round_2(s: dict[str, Any]) -> None:
    deck = s["decks"][0]
    i = next(i for i, c in enumerate(deck) if c.startswith("BABY"))
    deck[0], deck[i] = deck[i], deck[0]


def _a_jungle_with_no_column_for_it(s: dict[str, Any]) -> None:
    for column in s["columns"]:
        if column["jungle"] is None:
            column.update(jungle=_take(s, "JUNGLE"), above=len(column["cards"]))
    _tasks(s, ("end_step", s["actor"]))
    s["tasks"].append({"task": "jungle", "seat": s["actor"], "card": _take(s, "JUNGLE")})


#: one row per ``_check_*`` function of ``position.py`` (the row's id): the legal position it
#: starts from, the one change that breaks the check's invariant, and the check's message
_CHECKS = [
    pytest.param(
        "finished",
        lambda s: s.update(round=1),
        r"a finished game ends after round 2 \(round is 1\)",
        id="_check_a_finished_game_ends_after_the_last_round",
    ),
    pytest.param(
        "three",
        lambda s: s.update(actor=None),
        r"actor must be a whole number 0–2 \(got None\)",
        id="_check_someone_acts_during_a_round",
    ),
    pytest.param(
        "baby",
        lambda s: s["columns"][0]["cards"].append(_take(s, "BABY")),
        r"columns\[0\]\.cards: BABY-\d cannot be there during a round \(a drawn Jungle or Baby "
        r"is laid at once, dudab rules §6\.1, §7\.1\)",
        id="_check_no_jungle_or_baby_shows_in_a_column",
    ),
    pytest.param(
        "three",
        lambda s: s["owners"][0]["cards"].append(0),
        r"owners\[0\]\.cards must have one entry for each card of columns\[0\]\.cards "
        r"\(got 5 for 4\)",
        id="_check_each_card_of_a_column_has_an_owner_entry",
    ),
    pytest.param(
        "three",
        lambda s: s["owners"][1].update(jungle=2),
        r"owners\[1\]\.jungle: null without a Jungle on columns\[1\]",
        id="_check_a_jungle_owner_only_with_a_jungle",
    ),
    pytest.param(
        "three",
        lambda s: s["columns"][0]["cards"].extend([s["draw"].pop(), s["draw"].pop()]),
        r"columns\[0\]\.cards: a column without a Jungle shows 1–5 cards \(the 6th captures, "
        r"dudab rules §4\.4; got 6\)",
        id="_check_a_column_without_a_jungle_shows_1_to_5_cards",
    ),
    pytest.param(
        "jungle",
        _jungle_with_1_above_3_below,
        r"columns\[1\]: 3 cards below the Jungle and 1 above; more below than above captures "
        r"\(dudab rules §6\.3\)",
        id="_check_no_more_cards_below_a_jungle_than_above",
    ),
    pytest.param(
        "jungle",
        lambda s: s["hands"][0].append(_take(s, "JUNGLE")),
        r"hands\[0\]: JUNGLE-\d cannot be there during a round",
        id="_check_no_jungle_or_baby_in_a_hand_or_kept",
    ),
    pytest.param(
        "three",
        _a_keep_below_a_trim,
        r"tasks\[1\]: a keep choice is made at once \(only on top\)",
        id="_check_only_the_top_task_is_a_choice_made_at_once",
    ),
    pytest.param(
        "three",
        lambda s: _tasks(s, ("end_step", 0)),
        r"tasks: the top task must wait for a choice \(trim, keep, swap, jungle, baby\); "
        r"'end_step' would already have been carried out",
        id="_check_the_top_task_waits_for_a_choice",
    ),
    pytest.param(
        "finished",
        lambda s: _tasks(s, ("keep", 0)),
        r"tasks: a finished game has no pending tasks",
        id="_check_a_finished_game_has_no_tasks",
    ),
    pytest.param(
        "three",
        lambda s: _tasks(s, ("end_step", 1), ("keep", 1)),
        r"tasks: the bottom task is the end of the actor's step \('end_step' or 'advance' of "
        r"seat 0\)",
        id="_check_the_bottom_task_ends_the_actors_step",
    ),
    pytest.param(
        "three",
        lambda s: _tasks(s, ("end_step", 0), ("keep", 1)),
        r"tasks\[1\]: a 'keep' task sits on the 'end_step' of the same seat",
        id="_check_each_task_sits_on_the_task_that_caused_it",
    ),
    pytest.param(
        "three",
        lambda s: s.update(revealed=1),
        r"revealed is the seat whose revealed five-card hand waits for its 'pile' choice \(the "
        r"seat of a pending 'swap' task: None\)",
        id="_check_revealed_is_the_seat_of_the_swap",
    ),
    pytest.param(
        "three",
        _swap_of_a_two_card_hand,
        r"tasks: a five-card swap needs 5 cards in hands\[0\]",
        id="_check_a_swap_reveals_five_cards",
    ),
    pytest.param(
        "three",
        lambda s: _tasks(s, ("end_step", 0), ("trim", 0)),
        r"tasks: a trim needs more than 5 cards in hands\[0\]",
        id="_check_a_trim_has_more_than_five_cards",
    ),
    pytest.param(
        "three",
        lambda s: _tasks(s, ("end_step", 0), ("keep", 0)),
        r"tasks: keeping after a capture needs more than 2 cards in hands\[0\] and kept",
        id="_check_a_keep_has_more_than_two_cards",
    ),
    pytest.param(
        "three",
        lambda s: s.update(kept=[s["draw"].pop()]),
        r"kept: cards are kept only while a 'keep' task is pending",
        id="_check_cards_are_kept_only_while_keeping",
    ),
    pytest.param(
        "three",
        _three_kept,
        r"kept: at most 2 cards are kept \(dudab rules §4\.5\)",
        id="_check_at_most_two_cards_are_kept",
    ),
    pytest.param(
        "three",
        lambda s: s["hands"][1].append(s["draw"].pop()),
        r"hands\[1\]: 6 cards; a hand holds at most 5 unless a trim for seat 1 is pending "
        r"\(dudab rules §5\.6\)",
        id="_check_hand_sizes",
    ),
    pytest.param(
        "three",
        lambda s: s.update(obligation={"kind": "shaman_reaction", "column": 1}),
        r"obligation: column 1 must end with the Shaman that made it",
        id="_check_the_obligation_comes_from_its_column",
    ),
    pytest.param(
        "finished",
        _obligation_on_a_shaman,
        r"obligation: a finished game has none",
        id="_check_a_finished_game_has_no_obligation",
    ),
    pytest.param(
        "three",
        _empty_draw_pile,
        r"draw: the round ends when the draw pile empties \(dudab rules §8\.1\)",
        id="_check_the_draw_pile_is_not_empty",
    ),
    pytest.param(
        "three",
        lambda s: s.update(scores=[[1], [], []]),
        r"scores\[0\] must have 0 entries \(got 1\)",
        id="_check_a_score_for_every_finished_round",
    ),
    pytest.param(
        "three",
        lambda s: s.update(last_round={"round": 1}),
        r"last_round must be null before the first round has ended",
        id="_check_no_report_before_the_first_round_ends",
    ),
    pytest.param(
        "after_round_one",
        lambda s: s["scores"][0].__setitem__(0, s["scores"][0][0] + 1),
        r"last_round: the round's scores \[.*\] \(from its hands and piles\) must be the last "
        r"entries of scores",
        id="_check_the_report_scores_are_the_last_scores",
    ),
    pytest.param(
        "after_round_one",
        lambda s: s["last_round"]["details"][0].update(total=s["last_round"]["scores"][0] + 1),
        r"last_round must be the scoring of the last round as the engine writes it",
        id="_check_the_report_is_the_engines_scoring",
    ),
    pytest.param(
        "after_round_one",
        lambda s: s["last_round"]["hands"][0].extend(["BABY"] * 9),
        r"last_round holds 9 cards of baby; the deck has 0",
        id="_check_the_report_holds_cards_of_the_deck",
    ),
    pytest.param(
        "finished",
        lambda s: s["piles"][0].append(s["discard"].pop()),
        r"last_round: seat 0's hand and pile must be those of the finished game",
        id="_check_the_final_report_is_of_the_final_hands",
    ),
    pytest.param(
        "three",
        lambda s: s.update(decks=s["decks"][:1]),
        r"decks must have 2 entries \(got 1\)",
        id="_check_a_deck_for_every_later_round",
    ),
    pytest.param(
        "three",
        lambda s: s["decks"][0].pop(),
        r"decks\[0\] \(round 2\): card .* is missing \(1 missing\)",
        id="_check_a_later_deck_holds_every_card_once",
    ),
    pytest.param(
        "baby3",
        _a_baby_dealt_in_round_2,
        r"decks\[0\] \(round 2\): BABY-\d is among the first 11 cards \(the deal and the column "
        r"starters\)",
        id="_check_a_later_deck_deals_no_jungle_or_baby",
    ),
    pytest.param(
        "three",
        lambda s: s["draw"].append(s["draw"][0]),
        r"the cards of the round: card .* appears 2 times; each card appears once",
        id="_check_every_card_once",
    ),
    pytest.param(
        "jungle",
        _a_jungle_with_no_column_for_it,
        r"seat 1 would have no legal step in this position",
        id="_check_the_seat_to_act_can_move",
    ),
]


@pytest.mark.parametrize(("base", "change", "message"), _CHECKS)
def test_each_check_refuses_a_position_that_breaks_its_invariant(
    base: str, change: Any, message: str, request: pytest.FixtureRequest
) -> None:
    position = json.loads(_base_text(base))
    GAME.state_from_position(copy.deepcopy(position))  # legal before the change
    change(position["state"])
    with pytest.raises(PositionError, match=message) as refused:
        GAME.state_from_position(position)
    name = request.node.callspec.id
    assert any(entry.name == name for entry in refused.traceback), f"not raised by {name}"


def test_the_table_has_a_row_for_every_check_of_the_reader() -> None:
    checks = {name for name in vars(dudab_position) if name.startswith("_check_")}
    rows = [row.id for row in _CHECKS]
    assert len(rows) == len(set(rows))
    assert set(rows) == checks


def test_no_function_of_the_reader_is_over_60_lines() -> None:
    tree = ast.parse(Path(dudab_position.__file__).read_text(encoding="utf-8"))
    lengths = {
        node.name: (node.end_lineno or node.lineno) - node.lineno + 1
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
    }
    assert {name: n for name, n in lengths.items() if n > 60} == {}


# ----- property: random mutations are accepted and playable, or refused --------------------


def _keep(state: DudabState, rng: random.Random) -> bool:
    s = state.to_position()["state"]
    return bool(rng.random() < 0.05 or s["tasks"] or s["obligation"] or s["revealed"] is not None)


@cache
def _positions() -> tuple[str, ...]:
    runs = [
        (1, 2, {"use_jungle": True, "use_baby": True}),
        (2, 3, {}),
        (3, 5, {"use_jungle": True, "use_baby": True}),
    ]
    return sample_positions(GAME, runs, _keep, lambda state, rng: _play(state, rng, 1))


#: the samples a mutation writes: the common ones and this game's words and numbers
_VALUES: list[Any] = [
    *BASIC_VALUES,
    5,
    99,
    "playing",
    "game_over",
    "N-red-fur-3",
    "DUDAB-1",
    "SHAMAN-red-1",
    "JUNGLE-1",
    "BABY-1",
    "red",
    "trim",
    "keep",
    ["DUDAB-1"],
    {"task": "trim", "seat": 0},
    {"kind": "shaman_reaction", "column": 1},
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_positions_are_playable_or_refused(data: st.DataObject) -> None:
    check_a_mutated_position(GAME, _positions(), data.draw, _VALUES)


# ----- the documented position format -------------------------------------------------------

DOC = Path(__file__).resolve().parents[3] / "docs" / "notation" / "dudab.md"


def _doc_section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end]


def test_the_documented_fields_are_the_position_fields() -> None:
    section = _doc_section("Position")
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    documented = {name for row in rows for name in re.findall(r"`(\w+)`", row.split("|")[1])}
    position = GAME.new_game(3, seed=1).to_position()
    assert documented == set(position["state"])


def test_the_documented_example_is_the_engines_position() -> None:
    block = _doc_section("Position").split("```json\n")[1].split("```")[0]
    documented = json.loads(block)
    state = GAME.new_game(2, seed=0)
    for seat, action in [(1, "draw"), (0, "draw"), (1, "p dudab c1"), (0, "p shaman/yellow c2")]:
        state.apply(seat, action)
    state.apply(1, "penalty")
    position = state.to_position()
    shortened = ("draw", "decks")
    assert {k: v for k, v in documented["state"].items() if k not in shortened} == {
        k: v for k, v in position["state"].items() if k not in shortened
    }
    assert {k: v for k, v in documented.items() if k != "state"} == {
        k: v for k, v in position.items() if k != "state"
    }
    assert documented["state"]["draw"][:2] == position["state"]["draw"][:2]
    assert len(position["state"]["draw"]) == 64
    assert documented["state"]["decks"][0][:2] == position["state"]["decks"][0][:2]
    assert all(str(a).startswith("pile ") for a in state.legal_actions())
