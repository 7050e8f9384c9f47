"""Big Manitou positions and setups: the strict position loader, and setups that hold every draw.

Positions are built through the public format (``to_position`` / ``state_from_position``).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.core import GameRng, IllegalActionError, PositionError, Record, SetupError, replay
from campfire.games.manitou import GAME, ManitouState
from campfire.games.manitou import position as manitou_position
from campfire.games.manitou.cards import NUM_HUNTERS
from campfire.games.manitou.state import selection_sizes

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


def test_a_short_deck_order_is_the_selection_its_cards_are_the_legal_picks() -> None:
    """A short order (a selection typed in from a table) fixes what the seat selects: the
    legal picks are its cards, as often as it holds them, so every legal pick is accepted
    and every position reached still loads (``_check_deal_holds_the_selection``)."""
    seven = ["h1", "h2", "h3", "h4", "h5", "h6", "h7"]
    nine = ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "chief"]
    state = GAME.new_game(2, setup={"dealer": 0, "tiles": FIXTURE, "decks": [[seven, nine]]})
    assert [str(a) for a in state.legal_actions(0)] == [f"pick {c}" for c in seven]
    assert [str(a) for a in state.legal_actions(1)] == [f"pick {c}" for c in nine]
    before = state.to_position()
    with pytest.raises(IllegalActionError, match="does not hold another h10 to select"):
        state.apply(0, "pick h10")  # the first pick already: seat 0's order has no h10
    assert state.to_position() == before
    for card in seven[:3]:
        state.apply(0, f"pick {card}")
        assert f"pick {card}" not in [str(a) for a in state.legal_actions(0)]  # held once
        assert GAME.state_from_position(state.to_position()).to_position() == state.to_position()
    state.apply(1, "pick chief")
    assert "pick chief" not in [str(a) for a in state.legal_actions(1)]  # the pool has two


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_games_from_short_deck_orders_offer_only_what_they_accept(players: int, seed: int) -> None:
    """Every hunt's order cut to the seat's selection (a game typed in from a table): random
    play from the legal actions never meets a refusal and ends. The first hunt of a cycle keeps
    back the cards the next hunt's selection needs once the seat has none to spare, so the next
    selection can always be made (docs/notation/manitou.md, "Setup")."""
    setup = GAME.random_setup(players, GAME.options({}), GameRng(seed))
    for hunt, deal in enumerate(setup["decks"]):
        sizes = selection_sizes(players, (setup["dealer"] + hunt) % players)
        setup["decks"][hunt] = [order[: sizes[p]] for p, order in enumerate(deal)]
    state = GAME.new_game(players, setup=setup)
    rng = random.Random(seed)
    while not state.is_terminal():
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act with no legal action"
        state.apply(seat, rng.choice(legal))  # never refused
    assert state.hunt == state.hunts


def test_the_first_hunt_keeps_back_a_card_the_next_short_order_needs() -> None:
    """Seat 0's order for hunt 2 is the eight cards it selects there: it cannot spare any, so
    in hunt 1 it may not play the h1 it holds (a played card stays used for the cycle)."""
    first = [["h1", "h2", "h3", "h4", "h5", "h6", "h7"], ["h1", "h2", "h3", "h4", "h5", "h6"]]
    first[1] += ["h7", "h8"]
    second = [["h1", "h8", "h9", "h10", "chief", "squaw", "shaman", "spy"], ["h9", "h10"]]
    second[1] += ["chief", "squaw", "shaman", "spy", "healer", "h1"]  # 8 where 7 are selected
    state = GAME.new_game(2, setup={"dealer": 0, "tiles": FIXTURE, "decks": [first, second]})
    for seat in (0, 1):
        for card in first[seat]:
            state.apply(seat, f"pick {card}")
    assert state.view(0)["you"]["hand"] == ["h1", "h2", "h3"]
    assert state.short_order_slack(0) == (0, ANY, ANY)  # hunt 2 (dealer 1) selects 8
    assert state.short_order_slack(1) == (1, ANY, ANY)  # one card to spare
    if state.seat != 0:
        state.apply(state.seat, state.legal_actions(state.seat)[0])
    plays = {str(a).split()[1] for a in state.legal_actions(0)}
    assert plays == {"h2", "h3"}
    with pytest.raises(IllegalActionError, match="needs the h1 in this seat's pool"):
        state.apply(0, "play h1 g1")


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
    with pytest.raises(
        IllegalActionError, match=r"does not hold another h10.*pick one of pick h7$"
    ):
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


# ----- each named check of the position reader refuses the position that breaks its invariant ---

_HEROES = ("chief", "squaw", "shaman", "spy", "healer")


def _in_deck_heroes(state: ManitouState, p: int) -> int:
    return sum(1 for c in state.decks[p] if c >= NUM_HUNTERS)


def _a_contest(state: ManitouState) -> bool:
    owners = {g: up[0] >> 4 for g, up in enumerate(state.up) if up}
    n = state.num_players
    return any(_in_deck_heroes(state, p) for q in owners.values() for p in range(n) if p != q)


#: the legal positions the rows start from: a 3-player game (seeds 0, 1, …, random moves) in
#: the first position that has what the name says (``state.hunt`` counts from 0)
_SOURCES: dict[str, Callable[[ManitouState], bool]] = {
    "select": lambda s: s.phase_name == "select" and s.hunt == 0 and not any(s.picked),
    "select in hunt 2": lambda s: s.phase_name == "select" and s.hunt == 1 and not any(s.picked),
    "select, one pick left": lambda s: (
        s.phase_name == "select" and sum(s.picked) == sum(s.sel_size) - 1
    ),
    "play": lambda s: s.phase_name == "play" and s.turn == 4,
    "play, 3 heroes in a deck": lambda s: (
        s.phase_name == "play" and any(_in_deck_heroes(s, p) >= 3 for p in range(s.num_players))
    ),
    "play, a hero in a deck and another seat's face up": lambda s: (
        s.phase_name == "play" and _a_contest(s)
    ),
    "totem": lambda s: s.phase_name == "totem",
    "horse": lambda s: s.phase_name == "horse",
    "thief": lambda s: s.phase_name == "thief",
    "take at ground 2 or 3": lambda s: s.phase_name == "take" and s.ev_ground > 0,
    "game over": lambda s: s.is_terminal(),
}


@cache
def _source_json(kind: str) -> str:
    want = _SOURCES[kind]
    for seed in range(100):
        state = GAME.new_game(3, seed=seed)
        rng = random.Random(seed)
        while True:
            if want(state):
                return json.dumps(state.to_position())
            if state.is_terminal():
                break
            _play(state, rng, 1)
    raise AssertionError(f"no seeded game reaches a position: {kind}")


Break = Callable[[dict[str, Any]], str]

#: one row per ``_check_*`` function of ``position.py``: (its name, the source position, the
#: change that breaks the check's invariant, returning the message it must raise)
_BREAKS: list[tuple[str, str, Break]] = []


def _breaks(check: str, source: str) -> Callable[[Break], Break]:
    def register(change: Break) -> Break:
        _BREAKS.append((check, source, change))
        return change

    return register


@_breaks("_check_hunt_fits_phase", "game over")
def _over_in_the_last_hunt(position: dict[str, Any]) -> str:
    position["state"]["hunt"] = 3
    return "hunt must be 1–3 during the game and 4 once it is over (got 3 in phase game_over)"


@_breaks("_check_seat_null_when_no_single_seat_acts", "select")
def _a_seat_to_act_in_the_selection(position: dict[str, Any]) -> str:
    position["state"]["seat"] = 1
    return (
        "seat must be null in the phases select and game_over and a seat otherwise "
        "(got 1 in phase select)"
    )


@_breaks("_check_no_selection_in_draw_variant", "select")
def _a_selection_in_the_draw_variant(position: dict[str, Any]) -> str:
    position["options"]["draw_cards"] = True
    return "there is no select phase in the DRAW variant (draw_cards)"


@_breaks("_check_ground_tiles_at_most_k", "select")
def _a_tile_too_many(position: dict[str, Any]) -> str:
    position["state"]["grounds"][0].append("tipi1")
    return "grounds[0] holds 4 tiles; a ground gets at most 3"


@_breaks("_check_used_cards_from_one_deck", "select in hunt 2")
def _a_used_card_twice(position: dict[str, Any]) -> str:
    used = position["state"]["used_this_cycle"][0]
    card = next(c for c in used if c not in ("chief", "squaw"))  # one of them in a deck
    used.append(card)
    return f"used_this_cycle[0] holds 2 {card} but a deck has 1"


@_breaks("_check_used_cards_of_one_hunt", "select in hunt 2")
def _nine_cards_used(position: dict[str, Any]) -> str:
    used = position["state"]["used_this_cycle"][0]
    unused = [f"h{i}" for i in range(1, 11) if f"h{i}" not in used]
    used += unused[: 9 - len(used)]
    return (
        "used_this_cycle[0] holds 9 cards; a seat plays at most 8 in a hunt "
        "(used_this_cycle holds one hunt's, or after the game the last cycle's)"
    )


@_breaks("_check_used_empty_in_first_hunt_of_cycle", "select")
def _a_card_used_before_the_cycle(position: dict[str, Any]) -> str:
    position["state"]["used_this_cycle"][0] = ["h1"]
    return "used_this_cycle[0] must be empty in hunt 1, the first of a cycle (manitou rules §4.4)"


@_breaks("_check_hunters_face_up", "play")
def _a_hunter_face_down(position: dict[str, Any]) -> str:
    table = position["state"]["table"]
    g, card = next((g, card) for g in range(3) for card in table[g] if card[1] not in _HEROES)
    card[2] = False
    return f"table[{g}]: hunters are never face down (got {card[1]} face down)"


@_breaks("_check_hero_limit", "play, 3 heroes in a deck")
def _three_heroes_at_a_ground(position: dict[str, Any]) -> str:
    s = position["state"]
    p = next(p for p in range(3) if sum(c in _HEROES for c in s["decks"][p]) >= 3)
    heroes = [c for c in s["decks"][p] if c in _HEROES][:3]
    for card in heroes:  # from the seat's deck onto the table: every card still in one place
        s["decks"][p].remove(card)
    s["table"][2] += [[p, card, True] for card in heroes]
    return "table[2]: a seat has at most two heroes at a ground"


@_breaks("_check_face_up_heroes_of_one_seat", "play, a hero in a deck and another seat's face up")
def _face_up_heroes_of_two_seats(position: dict[str, Any]) -> str:
    s = position["state"]
    g, q = next(
        (g, seat) for g in range(3) for seat, card, up in s["table"][g] if up and card in _HEROES
    )
    p, hero = next((p, c) for p in range(3) if p != q for c in s["decks"][p] if c in _HEROES)
    s["decks"][p].remove(hero)
    s["table"][g].append([p, hero, True])
    return f"table[{g}]: face-up heroes of two seats at one ground"


@_breaks("_check_every_card_once", "play")
def _a_card_in_hand_and_on_the_table(position: dict[str, Any]) -> str:
    s = position["state"]
    card = next(c for c in s["hands"][0] if c not in ("chief", "squaw"))
    s["table"][1].append([0, card, card in _HEROES])
    s["selected"][0].append(card)  # selected twice too: the selection is what is in play
    return (
        f"seat 0's cards (used_this_cycle, table, hands and decks together) holds 2 {card} "
        "but a deck has 1"
    )


@_breaks("_check_hand_at_most_three", "horse")
def _four_cards_in_hand(position: dict[str, Any]) -> str:
    s = position["state"]
    hand = s["hands"][0]
    for g in range(3):  # cards of the table back in hand (no refill is due after the play)
        while len(hand) < 4 and any(seat == 0 for seat, _, _ in s["table"][g]):
            i = next(i for i, (seat, _, _) in enumerate(s["table"][g]) if seat == 0)
            hand.append(s["table"][g].pop(i)[1])
    return "hands[0] holds 4 cards; at most 3"


@_breaks("_check_nothing_dealt_during_selection", "select")
def _a_card_in_hand_during_the_selection(position: dict[str, Any]) -> str:
    position["state"]["hands"][0] = ["h1"]
    return "seat 0 has cards in hand, deck or on the table during the selection"


@_breaks("_check_selection_from_pool", "select in hunt 2")
def _a_used_card_selected(position: dict[str, Any]) -> str:
    s = position["state"]
    card = next(c for c in s["used_this_cycle"][0] if c not in ("chief", "squaw"))
    s["selected"][0] = [card]
    return f"selected[0] (with used_this_cycle) holds 2 {card} but a deck has 1"


@_breaks("_check_selection_size", "select")
def _one_card_too_many_selected(position: dict[str, Any]) -> str:
    size = selection_sizes(3, position["state"]["dealer"])[0]
    position["state"]["selected"][0] = [f"h{i}" for i in range(1, size + 2)]
    return f"selected[0] holds {size + 1} cards; seat 0 selects {size}"


@_breaks("_check_nothing_left_after_the_game", "game over")
def _a_card_selected_after_the_game(position: dict[str, Any]) -> str:
    position["state"]["selected"][0] = ["h1"]
    return "once the game is over, no card is selected, held or played"


@_breaks("_check_selection_is_dealt", "play")
def _a_card_missing_from_the_selection(position: dict[str, Any]) -> str:
    position["state"]["selected"][0].pop()
    return "selected[0] must be seat 0's cards on the table, in hand and in deck"


@_breaks("_check_hand_refilled", "play")
def _a_card_back_into_the_deck(position: dict[str, Any]) -> str:
    s = position["state"]
    s["decks"][0].append(s["hands"][0].pop())
    return "hands[0] must hold 3 cards while its deck has any (draws refill it)"


@_breaks("_check_selection_unfinished", "select, one pick left")
def _the_last_card_selected(position: dict[str, Any]) -> str:
    s = position["state"]
    sizes = selection_sizes(3, s["dealer"])
    p = next(p for p in range(3) if len(s["selected"][p]) < sizes[p])
    s["selected"][p].append(next(f"h{i}" for i in range(1, 11) if f"h{i}" not in s["selected"][p]))
    return "every seat has selected its cards: the deal follows at once"


@_breaks("_check_deal_holds_the_selection", "select, one pick left")
def _a_selected_card_taken_out_of_the_deal(position: dict[str, Any]) -> str:
    s = position["state"]
    p = next(p for p in range(3) if s["selected"][p])
    card = s["selected"][p][0]
    s["deals"][0][p] = [c for c in s["deals"][0][p] if c != card]
    return f"deals[0][{p}] must hold seat {p}'s selected cards ({card} is not in it as often)"


#: a deck's 17 cards by name (the order a short deck order is taken from below)
_DECK_NAMES = [f"h{i}" for i in range(1, 11)] + ["chief", "chief", "squaw", "squaw"]
_DECK_NAMES += ["shaman", "spy", "healer"]


def _short_order(first: str, size: int, unavailable: list[str]) -> list[str]:
    """``first``, then cards of a deck not in ``unavailable``, ``size`` in all."""
    rest = list(_DECK_NAMES)
    for card in [first, *unavailable]:
        if card in rest:
            rest.remove(card)
    return [first, *rest[: size - 1]]


_NEEDS_ONE_MORE = (
    "deals[0][0] needs 1 more card(s) than seat 0's pool holds for its selection (a card "
    "played stays used until the cycle ends)"
)


@_breaks("_check_short_orders_can_be_selected", "select in hunt 2")
def _a_used_card_in_a_short_deck_order(position: dict[str, Any]) -> str:
    s = position["state"]
    size = selection_sizes(3, s["dealer"])[0]
    used = s["used_this_cycle"][0]
    s["deals"][0][0] = _short_order(used[0], size, used)  # the first hunt played it
    return _NEEDS_ONE_MORE


def test_a_played_card_in_the_next_hunts_short_deck_order_is_refused() -> None:
    """The same check after the deal: a card on the table is used for the cycle's next hunt."""
    position = json.loads(_source_json("play"))
    s = position["state"]
    assert s["hunt"] == 1  # the first hunt of a cycle: its deals[0] is the second's
    size = selection_sizes(3, (s["dealer"] + 1) % 3)[0]
    played = [card for cards in s["table"] for seat, card, _ in cards if seat == 0]
    s["deals"][0][0] = _short_order(played[0], size, played)
    with pytest.raises(PositionError) as refused:
        GAME.state_from_position(position)
    assert str(refused.value) == _NEEDS_ONE_MORE
    s["deals"][0][0] = _short_order(played[0], size + 1, played)  # one card to spare
    assert GAME.state_from_position(position).short_order_slack(0) == (0, ANY, ANY)


@_breaks("_check_play_turn_fits_phase", "select")
def _a_play_during_the_selection(position: dict[str, Any]) -> str:
    position["state"]["play_turn"] = 3
    return "play_turn must be 0 in phase select"


@_breaks("_check_turn_is_consistent", "play")
def _the_next_seat_to_play(position: dict[str, Any]) -> str:
    s = position["state"]
    due = s["seat"]
    s["seat"] = (due + 1) % 3
    return f"seat must be {due}, whose turn play_turn {s['play_turn']} is"


@_breaks("_check_totem_seat", "totem")
def _the_totem_with_another_seat(position: dict[str, Any]) -> str:
    s = position["state"]
    s["totem_holder"] = (s["seat"] + 1) % 3
    return "in phase totem the seat is the totem holder, with cards in hand"


@_breaks("_check_horse_seat", "horse")
def _the_horse_with_another_seat(position: dict[str, Any]) -> str:
    s = position["state"]
    s["horse_holder"] = (s["seat"] + 1) % 3
    return "in phase horse the seat is the horse holder"


@_breaks("_check_thief_queue_names_seats_once", "thief")
def _a_seat_robbed_twice(position: dict[str, Any]) -> str:
    s = position["state"]
    s["thief_queue"].append(s["seat"])
    return "thief_queue names a seat twice"


@_breaks("_check_thief_queue_fits_phase", "play")
def _a_thief_queue_during_the_play(position: dict[str, Any]) -> str:
    position["state"]["thief_queue"] = [0]
    return "thief_queue must be empty outside the thief phase"


@_breaks("_check_robbed_seat_has_a_choice", "thief")
def _one_tile_to_lose(position: dict[str, Any]) -> str:
    s = position["state"]
    s["tiles_owned"][s["seat"]] = ["tipi1"]
    return f"seat {s['seat']} has no choice of tile to lose (manitou rules §5.1)"


@_breaks("_check_tomahawks_counted_fits_phase", "play")
def _tomahawks_counted_during_the_play(position: dict[str, Any]) -> str:
    position["state"]["tomahawks_counted"] = [0, 0, 0]
    return "tomahawks_counted must be empty in phase play"


@_breaks("_check_sharing_fits_phase", "play")
def _a_ground_shared_during_the_play(position: dict[str, Any]) -> str:
    position["state"]["sharing"] = [2, "start", None, 0, None]
    return "sharing must be [1, 'start', null, 0, null] in phase play"


@_breaks("_check_shared_grounds_empty", "take at ground 2 or 3")
def _a_tile_left_at_a_shared_ground(position: dict[str, Any]) -> str:
    position["state"]["grounds"][0] = ["tipi1"]
    return "grounds shared already must be empty"


#: a check whose broken invariant breaks others too: without them all, the row's position loads
_IMPLIES: dict[str, tuple[str, ...]] = {
    # a card used twice is a card in two places, and during the selection not in the pool
    "_check_used_cards_from_one_deck": ("_check_every_card_once", "_check_selection_from_pool"),
}


@pytest.mark.parametrize(
    ("check", "source", "change"), [pytest.param(*row, id=row[0]) for row in _BREAKS]
)
def test_each_check_refuses_the_position_that_breaks_its_invariant(
    check: str, source: str, change: Break, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A legal position, changed in one thing, is refused by the check with its message.

    Without that check (and those it implies, :data:`_IMPLIES`) the position loads: the
    change breaks exactly that invariant.
    """
    legal = json.loads(_source_json(source))
    GAME.state_from_position(legal)  # the source itself is legal
    position = copy.deepcopy(legal)
    message = change(position)
    with pytest.raises(PositionError) as refused:
        GAME.state_from_position(position)
    assert str(refused.value) == message
    for name in (check, *_IMPLIES.get(check, ())):
        monkeypatch.setattr(manitou_position, name, lambda *args: None)
    GAME.state_from_position(position)


def test_every_check_of_the_position_reader_has_a_row() -> None:
    checks = {
        name
        for name, value in vars(manitou_position).items()
        if name.startswith("_check_") and callable(value)
    }
    rows = [check for check, _, _ in _BREAKS]
    assert sorted(rows) == sorted(checks)  # each check once, and no row without its check
