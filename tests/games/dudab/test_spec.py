"""Rules, decisions and options of dudab.md that the worked examples do not pin down.

Each test names the spec section (``s4_1`` = §4.1) or decision (``d17``) it checks; the worked
examples WE-… and scenarios S… are in ``test_rules.py``, more decisions in ``test_decisions.py``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import product
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campfire.core import IllegalActionError, NotationError, OptionError
from campfire.games.dudab import GAME, DudabState, round_score
from campfire.games.dudab.actions import NUM_ACTIONS, DudabAction, DudabKind, action_from_index
from campfire.games.dudab.cards import (
    BABY,
    COLOUR,
    DUDAB,
    FACE,
    FACE_NAMES,
    JUNGLE,
    KIND,
    NUMBER,
    SHAMAN,
    SYMBOL,
    VALUE,
    card_name,
    cards_in_use,
    parse_card,
)
from campfire.games.dudab.options import DudabOptions
from tests.compiled_build import skip_compiled

from .table import A, B, C, D, column, hand, legal, make, pile

JUNGLE_OPT = {"use_jungle": True}
BABY_OPT = {"use_baby": True}
BOTH = {"use_jungle": True, "use_baby": True}
CALLS = ["blue", "red", "yellow", "green", "hand", "mammoth", "club", "fur", "1", "2", "3", "4"]


def _as_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _dudab_actions(col: int, calls: bool = True) -> list[str]:
    base = f"p dudab c{col}"
    return [base, *(f"{base} call={c}" for c in CALLS)] if calls else [base]


def _fits(card: str, col: Any, options: dict[str, bool] | None = None) -> bool:
    """Whether A may place ``card`` on column 1 in a TURN (A also holds a Dudab)."""
    state = make(hands=[[card, "dudab"]], columns=[col], options=options)
    return state.is_legal(A, f"p {card} c1")


def _rule(state: DudabState, seat: int, text: str) -> str:
    """Apply an illegal action; check that nothing changed and return the rule it names."""
    before = _as_json(state.to_position())
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, text)
    assert _as_json(state.to_position()) == before
    return info.value.rule


# ----- §1 components, §2 setup --------------------------------------------------------------------


def test_s1_components_and_d1_every_number_card_once() -> None:
    numbers = [c for c in range(96) if KIND[c] == NUMBER]
    assert len({(COLOUR[c], SYMBOL[c], VALUE[c]) for c in numbers}) == 64 == len(numbers)
    assert Counter(KIND[c] for c in range(96)) == {
        NUMBER: 64,
        DUDAB: 8,
        SHAMAN: 8,
        JUNGLE: 8,
        BABY: 8,
    }
    assert Counter(COLOUR[c] for c in range(96) if KIND[c] == SHAMAN) == {0: 2, 1: 2, 2: 2, 3: 2}
    names = [card_name(c) for c in range(96)]
    assert "N-red-fur-3" in names and "SHAMAN-green-2" in names
    assert {n for n in names if not n.startswith(("N-", "SHAMAN-"))} == {
        f"{kind}-{i}" for kind in ("DUDAB", "JUNGLE", "BABY") for i in range(1, 9)
    }
    assert [parse_card(n) for n in names] == list(range(96))


@pytest.mark.parametrize(
    ("jungle", "baby", "size"),
    [(False, False, 80), (True, False, 88), (False, True, 88), (True, True, 96)],
)
def test_s1_6_d2_deck_in_use_and_independent_expansions(
    jungle: bool, baby: bool, size: int
) -> None:
    deck = cards_in_use(jungle, baby)
    kinds = Counter(KIND[c] for c in deck)
    assert len(deck) == size
    assert kinds[JUNGLE] == (8 if jungle else 0) and kinds[BABY] == (8 if baby else 0)
    assert DudabOptions() == DudabOptions(use_jungle=False, use_baby=False, start_player=-1)
    state = GAME.new_game(2, {"use_jungle": jungle, "use_baby": baby}, seed=1)
    assert len(state.draw) + 6 + 2 == size


def test_s8_options_are_validated() -> None:
    with pytest.raises(OptionError, match="start_player"):
        GAME.new_game(3, {"start_player": 9}, seed=1)
    with pytest.raises(OptionError, match="true or false"):
        GAME.new_game(3, {"use_baby": "maybe"}, seed=1)
    with pytest.raises(OptionError, match="unknown option"):
        GAME.new_game(3, {"num_columns": 3}, seed=1)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", [{}, JUNGLE_OPT, BABY_OPT, BOTH])
def test_s2_3_setup_table_and_d3_no_jungle_or_baby_dealt(
    players: int, options: dict[str, bool]
) -> None:
    size = len(cards_in_use(bool(options.get("use_jungle")), bool(options.get("use_baby"))))
    columns = 2 if players <= 4 else 3  # D35
    for seed in range(12):
        state = GAME.new_game(players, options, seed=seed)
        assert state.ncols == columns and [len(v) for v in state.vis] == [1] * columns
        assert [len(h) for h in state.hands] == [3] * players
        assert len(state.draw) == size - 3 * players - columns  # the table of §2.3
        assert len(state.decks) == players - 1  # §2.1: as many rounds as players
        dealt = [c for h in state.hands for c in h] + [v[0] for v in state.vis]
        assert all(KIND[c] not in (JUNGLE, BABY) for c in dealt)  # D3
        assert sorted(dealt + state.draw) == sorted(cards_in_use(**_flags(options)))


def _flags(options: dict[str, bool]) -> dict[str, bool]:
    return {
        "use_jungle": bool(options.get("use_jungle")),
        "use_baby": bool(options.get("use_baby")),
    }


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_s2_1_s2_2_s7_4_rounds_rotation_and_totals(players: int) -> None:
    state = GAME.new_game(players, BOTH, seed=players)
    rng = random.Random(players)
    starts = [state.round_start_player()]
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
            if event.type == "round_start":
                starts.append(event.data["start_player"])
    first = starts[0]
    assert starts == [(first + r) % players for r in range(players)]  # each seat starts once
    assert all(len(s) == players for s in state.scores)
    outcome = state.outcome()
    totals = [sum(s) for s in state.scores]
    assert list(outcome.scores) == totals
    assert set(outcome.winners) == {p for p in range(players) if totals[p] == min(totals)}


# ----- §4.1 placement on an ordinary column -------------------------------------------------------


def test_s4_1_d4_a_dudab_goes_on_every_top_with_or_without_a_call() -> None:
    state = make(
        5,
        hands=[["dudab", "blue/hand/1"]],
        columns=[["red/fur/3"], ["green/club/2", "shaman/green"], ["dudab"]],
    )
    expected = [a for col in (1, 2, 3) for a in _dudab_actions(col)]
    assert [a for a in legal(state) if "dudab" in a] == expected


def test_s4_1_shaman_on_a_shaman_only_as_a_reaction() -> None:
    state = make(
        hands=[["shaman/red", "blue/hand/1"]],
        columns=[["red/fur/1", "shaman/blue"], ["red/hand/3"]],
    )
    assert "p shaman/red c1" not in legal(state)
    assert "p shaman/red c2" in legal(state)  # on a red Number card
    assert _rule(state, A, "p shaman/red c1") == "dudab rules §4.2"


def test_s4_1_called_dudab_accepts_only_matching_cards() -> None:
    hand_b = ["blue/club/3", "green/fur/2", "shaman/blue", "red/hand/4"]
    cases = {
        "club": {"p blue/club/3 c1"},
        "2": {"p green/fur/2 c1"},
        "blue": {"p blue/club/3 c1", "p shaman/blue c1"},
        "mammoth": {"draw"},  # no match: fail
    }
    for call, expected in cases.items():
        state = make(
            hands=[[], hand_b],
            columns=[["red/fur/1", "dudab"], ["red/club/3"]],
            obligation=("call", 1, call),
            actor=B,
        )
        assert set(legal(state)) == expected, call
    # red/hand/4 fits column 2 in a TURN, but not while the call is pending
    assert _rule(state, B, "p red/hand/4 c2") == "dudab rules §5.1"
    assert _rule(state, B, "p red/hand/4 c1") == "dudab rules §5.4"


# ----- §4.2 Jungle columns ------------------------------------------------------------------------


def test_d17_capturing_card_needs_only_the_sequence_rule() -> None:
    col = {"above": ["yellow/club/2"], "below": ["green/mammoth/2"], "jungle": True}
    # position 2 = A + 1: no mirror partner; after green/mammoth/2 a 1 or 3, not green, not mammoth
    assert _fits("blue/hand/1", col, JUNGLE_OPT)  # shares nothing with yellow/club/2: fine
    assert _fits("red/fur/3", col, JUNGLE_OPT)
    assert not _fits("red/fur/4", col, JUNGLE_OPT)  # value
    assert not _fits("green/fur/3", col, JUNGLE_OPT)  # colour
    assert not _fits("red/mammoth/1", col, JUNGLE_OPT)  # symbol
    assert _fits("shaman/green", col, JUNGLE_OPT)  # a Shaman of the previous card's colour
    assert not _fits("shaman/red", col, JUNGLE_OPT)


def test_s4_2_mirror_and_sequence_both_apply_in_the_middle() -> None:
    above = ["yellow/club/2", "red/fur/3", "blue/mammoth/4"]
    col = {"above": above, "below": ["green/mammoth/2"], "jungle": True}
    # position 2 mirrors red/fur/3 and follows green/mammoth/2
    assert _fits("yellow/fur/1", col, JUNGLE_OPT)
    assert not _fits("yellow/hand/1", col, JUNGLE_OPT)  # sequence fine, mirror fails
    assert not _fits("red/fur/2", col, JUNGLE_OPT)  # mirror fine, sequence fails
    assert not _fits("shaman/green", col, JUNGLE_OPT)  # a Number mirror needs a Number card


def test_d37_a_capturing_dudab_makes_no_call_and_is_uncalled() -> None:
    col = {"above": ["yellow/club/2"], "below": ["green/mammoth/2"], "jungle": True}
    state = make(
        hands=[["dudab", "red/fur/4", "blue/hand/3"], ["red/hand/4", "yellow/fur/1"]],
        columns=[col, ["blue/club/3"]],
        options=JUNGLE_OPT,
    )
    assert [a for a in legal(state) if a.startswith("p dudab c1")] == ["p dudab c1"]
    assert _rule(state, A, "p dudab c1 call=red") == "dudab rules §6.2"
    state.apply(A, "p dudab c1")
    assert pile(state, A) == sorted(["yellow/club/2", "jungle", "green/mammoth/2"])
    assert column(state, 1) == ["dudab"] and state.above[0] == -1
    assert state.obligation() is None  # the 3-card hand was 2 after placing: no discard
    assert state.seats_to_act() == (B,) and state.prompt() == "turn"
    # an uncalled Dudab accepts any Number card
    assert {"p red/hand/4 c1", "p yellow/fur/1 c1"} <= set(legal(state))


def test_s4_2_a_jungle_under_a_baby_heap_does_not_count() -> None:
    state = make(
        hands=[["red/fur/1", "blue/club/2", "green/hand/4"]],
        columns=[{"heap": ["red/club/1", "jungle", "baby"], "above": ["blue/hand/2"]}],
        draw=["jungle"],
        options=BOTH,
    )
    state.apply(A, "draw")
    assert state.prompt() == "jungle" and legal(state) == ["jungle c1", "jungle c2"]
    state.apply(A, "jungle c1")
    assert state.above[0] == 1 and len(state.heap[0]) == 3


# ----- §4.3 captures ------------------------------------------------------------------------------

FIVE = ["yellow/club/2", "red/fur/3", "blue/mammoth/4", "green/hand/3", "yellow/fur/2"]


def test_s4_3_capture_with_two_cards_left_asks_nothing() -> None:
    state = make(hands=[["red/club/1", "blue/hand/1", "green/fur/4"]], columns=[FIVE])
    state.apply(A, "p red/club/1 c1")
    assert pile(state, A) == sorted(FIVE) and hand(state, A) == ["blue/hand/1", "green/fur/4"]
    assert state.seats_to_act() == (B,) and state.prompt() == "turn"


def test_s4_3_capture_with_the_last_card_then_refill() -> None:
    state = make(hands=[["red/club/1"]], columns=[FIVE], draw=["blue/fur/4", "red/hand/2"])
    state.apply(A, "p red/club/1 c1")  # hand 0 after the capture: nothing to discard
    assert len(state.piles[A]) == 5 and hand(state, A) == ["blue/fur/4", "red/hand/2"]
    assert state.seats_to_act() == (B,) and state.prompt() == "turn"


# ----- §5.3 TURN ----------------------------------------------------------------------------------


def test_d6_call_is_optional_and_an_uncalled_dudab_takes_any_number() -> None:
    state = make(
        hands=[["dudab", "red/club/1", "blue/fur/2"], ["red/fur/4", "green/hand/1"]],
        columns=[["yellow/club/3"], ["blue/club/3"]],
    )
    state.apply(A, "p dudab c1")
    assert state.obligation() is None
    assert state.seats_to_act() == (B,) and state.prompt() == "turn"
    assert {"p red/fur/4 c1", "p green/hand/1 c1"} <= set(legal(state))


def test_d28_a_dudab_in_hand_forbids_the_five_card_draw() -> None:
    five = ["red/club/1", "red/hand/1", "red/mammoth/1", "green/club/1", "dudab"]
    state = make(hands=[five], columns=[["yellow/fur/4"], ["blue/mammoth/4"]])
    assert legal(state) == _dudab_actions(1) + _dudab_actions(2)
    assert _rule(state, A, "draw") == "dudab rules §5.3"


def test_s5_3_draw_with_four_cards_is_free_and_reveals_nothing() -> None:
    four = ["green/club/3", "red/hand/1", "red/mammoth/1", "blue/hand/1"]
    state = make(hands=[four], columns=[["yellow/fur/2"], ["blue/mammoth/4"]], draw=["red/fur/2"])
    assert "p green/club/3 c1" in legal(state) and "draw" in legal(state)
    events = state.apply(A, "draw")
    assert "reveal_hand" not in [e.type for e in events]
    assert len(state.hands[A]) == 5 and state.seats_to_act() == (B,)
    drawn = [e for e in events if e.type == "drawn_card"]
    assert drawn and drawn[0].to == frozenset((A,)) and drawn[0].data["card"] == "red/fur/2"


# ----- §5.4 Shaman reaction -----------------------------------------------------------------------


def test_s5_4_d9_reaction_choices_and_the_free_penalty() -> None:
    state = make(
        hands=[[], ["shaman/red", "blue/fur/2", "dudab"]],
        columns=[["blue/hand/3", "shaman/blue"], ["red/hand/3"]],
        obligation=("shaman", 1),
        draw=["green/fur/1", "yellow/club/3"],
        actor=B,
    )
    # only the active column; Number cards never; the penalty is always allowed (D9)
    assert legal(state) == ["p shaman/red c1", *_dudab_actions(1), "penalty"]
    assert _rule(state, B, "p shaman/red c2") == "dudab rules §5.1"
    assert _rule(state, B, "p blue/fur/2 c2") == "dudab rules §5.1"
    assert _rule(state, B, "p blue/fur/2 c1") == "dudab rules §5.5"
    assert _rule(state, B, "draw") == "dudab rules §5.5"
    state.apply(B, "penalty")  # reveals green/fur/1, draws 1
    assert hand(state, B) == sorted(["blue/fur/2", "yellow/club/3", "shaman/red", "dudab"])
    assert state.obligation() is None and state.seats_to_act() == (C,)


def test_s5_4_a_dudab_without_a_call_ends_the_chain() -> None:
    state = make(
        hands=[[], ["dudab", "blue/fur/2", "red/club/1"], ["green/hand/1", "yellow/fur/4"]],
        columns=[["blue/hand/3", "shaman/blue"], ["red/hand/3"]],
        obligation=("shaman", 1),
        actor=B,
    )
    state.apply(B, "p dudab c1")
    assert state.obligation() is None
    assert state.seats_to_act() == (C,) and state.prompt() == "turn"
    assert {"p green/hand/1 c1", "p yellow/fur/4 c1"} <= set(legal(state))


def test_d14_d19_penalty_draws_count_a_jungle_which_may_go_on_the_old_column() -> None:
    state = make(
        hands=[[], [], ["red/fur/1", "green/club/4", "blue/hand/1"]],
        columns=[["blue/hand/2", "shaman/blue"], {"above": ["red/club/3"], "jungle": True}],
        obligation=("shaman", 1),
        draw=["green/fur/2", "jungle", "yellow/club/3", "blue/club/4"],
        actor=C,
        options=JUNGLE_OPT,
    )
    state.apply(C, "penalty")  # value 2: draws the Jungle (counts) and yellow/club/3
    assert state.prompt() == "jungle" and legal(state) == ["jungle c1"]  # no longer active
    state.apply(C, "jungle c1")
    assert state.above[0] == 2
    assert len(state.hands[C]) == 4 and "yellow/club/3" in hand(state, C)
    assert state.seats_to_act() == (D,) and state.prompt() == "turn"


# ----- §5.5 call answer ---------------------------------------------------------------------------


def test_d5_counter_dudab_only_on_the_called_dudab_and_may_drop_the_call() -> None:
    state = make(
        hands=[[], ["dudab", "red/hand/3"], ["blue/fur/4", "green/club/1"]],
        columns=[["red/fur/1", "dudab"], ["blue/club/2"]],
        obligation=("call", 1, "yellow"),
        actor=B,
    )
    assert legal(state) == [*_dudab_actions(1), "draw"]  # holding a Dudab does not force it (D8)
    assert _rule(state, B, "p dudab c2") == "dudab rules §5.1"
    state.apply(B, "p dudab c1")  # counter without a call: the obligation is gone
    assert state.obligation() is None
    assert state.seats_to_act() == (C,) and state.prompt() == "turn"
    assert {"p blue/fur/4 c1", "p green/club/1 c1"} <= set(legal(state))


def test_s5_5_fail_with_fewer_than_five_cards_reveals_and_draws_one() -> None:
    state = make(
        hands=[[], ["red/hand/3", "blue/fur/2", "dudab"]],
        columns=[["red/fur/1", "dudab"], ["blue/club/2"]],
        obligation=("call", 1, "yellow"),
        draw=["green/club/4"],
        actor=B,
    )
    events = state.apply(B, "draw")
    reveal = [e for e in events if e.type == "reveal_hand"]
    assert reveal and reveal[0].to is None
    assert reveal[0].data["cards"] == ["blue/fur/2", "red/hand/3", "dudab"]
    assert "swap" not in [p["task"] for p in state.view(None)["pending"]]
    assert len(state.hands[B]) == 4 and pile(state, B) == []
    assert state.obligation() == {"kind": "call", "column": 1, "call": "yellow"}
    assert state.seats_to_act() == (C,)


def test_s5_5_matching_shaman_as_sixth_card_captures_and_starts_a_chain() -> None:
    four = ["yellow/club/2", "red/fur/3", "blue/mammoth/4", "green/hand/3"]
    state = make(
        hands=[[], ["shaman/green", "red/hand/3", "blue/fur/2", "red/club/1"]],
        columns=[[*four, "dudab"], ["blue/club/2"]],
        obligation=("call", 1, "green"),
        actor=B,
    )
    state.apply(B, "p shaman/green c1")
    assert pile(state, B) == sorted([*four, "dudab"]) and column(state, 1) == ["shaman/green"]
    assert state.prompt() == "keep"
    state.apply(B, "keep red/hand/3")
    state.apply(B, "keep blue/fur/2")
    assert legal(state) == ["rest discard", "rest pile"]
    state.apply(B, "rest discard")
    assert state.discard[-1] == parse_card("N-red-club-1")
    assert state.obligation() == {"kind": "shaman_reaction", "column": 1}
    assert state.seats_to_act() == (C,)


# ----- §5.7.7 Baby --------------------------------------------------------------------------------


def test_d20_d21_baby_cover_is_a_baby_then_an_uncalled_dudab() -> None:
    state = make(
        hands=[[], ["red/hand/1", "green/fur/1"], ["red/fur/4", "shaman/blue"]],
        columns=[["blue/club/2"], ["red/club/3"]],
        draw=["baby", "baby", "dudab", "yellow/mammoth/2"],
        actor=B,
        options=BABY_OPT,
    )
    state.apply(B, "draw")
    events = state.apply(B, "baby c2")
    assert [e.data["card"] for e in events if e.type == "baby_cover"] == ["baby", "dudab"]
    assert len(state.heap[1]) == 3 and column(state, 2) == ["dudab"]  # red/club/3 + 2 Babies
    assert state.obligation() is None and not any(e.type == "draw" for e in events)
    assert state.seats_to_act() == (C,) and state.prompt() == "turn"
    assert "p red/fur/4 c2" in legal(state)  # any Number card on an uncalled Dudab
    assert "p shaman/blue c2" not in legal(state)  # D22


def test_d19_jungle_with_no_eligible_column_is_discarded() -> None:
    # column 1 holds the pending call, column 2 already shows a Jungle
    state = make(
        hands=[[], ["red/hand/3", "blue/fur/2"], ["red/fur/4", "blue/club/1"]],
        columns=[["red/fur/1", "dudab"], {"above": ["blue/club/2"], "jungle": True}],
        obligation=("call", 1, "yellow"),
        draw=["jungle", "green/club/4"],
        actor=B,
        options=JUNGLE_OPT,
    )
    events = state.apply(B, "draw")  # fails the call and draws a Jungle
    assert "jungle_discarded" in [e.type for e in events]
    assert FACE_NAMES[FACE[state.discard[-1]]] == "jungle"
    assert len(state.hands[B]) == 2  # the Jungle counted as the one card (D14)
    assert state.obligation() == {"kind": "call", "column": 1, "call": "yellow"}
    assert state.seats_to_act() == (C,)


def test_s5_7_7_baby_never_on_the_active_column_and_cover_draws_skip_the_baby_player() -> None:
    state = make(
        hands=[[], ["red/hand/1", "green/fur/1"], ["red/fur/4", "blue/club/1"], ["green/hand/4"]],
        columns=[["red/fur/1", "dudab"], ["red/club/3"]],
        obligation=("call", 1, "yellow"),
        draw=["baby", "blue/hand/1", "yellow/fur/3", "green/club/2", "red/mammoth/3"],
        actor=B,
        options=BABY_OPT,
    )
    state.apply(B, "draw")  # fails the call, draws a Baby
    assert legal(state) == ["baby c2"]
    assert _rule(state, B, "baby c1") == "dudab rules §7.1"
    state.apply(B, "baby c2")  # cover blue/hand/1: C, D, A draw 1 each; B does not
    assert len(state.hands[B]) == 2
    assert "yellow/fur/3" in hand(state, C) and "green/club/2" in hand(state, D)
    assert hand(state, A) == ["red/mammoth/3"]
    assert state.obligation() == {"kind": "call", "column": 1, "call": "yellow"}
    assert state.seats_to_act() == (C,) and state.prompt() == "call_answer"


# ----- §5.8, D13, D34: the round ends the moment the draw pile is empty ---------------------------


def _round_ended(events: list[Any]) -> bool:
    return any(e.type == "round_end" for e in events)


def test_d13_refill_takes_the_last_card() -> None:
    state = make(hands=[["dudab", "red/club/1"]], draw=["blue/fur/4"], draw_size=1)
    events = state.apply(A, "p dudab c1")
    assert _round_ended(events) and state.round == 1
    assert next(e for e in events if e.type == "round_end").data["hands"][A] == [
        "blue/fur/4",
        "red/club/1",
    ]


def test_d13_failed_answer_takes_the_last_card() -> None:
    state = make(
        hands=[[], ["red/hand/3", "blue/fur/2"], ["yellow/fur/4", "green/club/1"]],
        columns=[["red/fur/1", "dudab"], ["blue/club/2"]],
        obligation=("call", 1, "yellow"),
        draw=["green/club/4"],
        draw_size=1,
        actor=B,
    )
    events = state.apply(B, "draw")
    assert _round_ended(events) and state.round == 1
    assert state.obligation() is None  # the pending call died with the round


def test_d13_baby_effect_draw_takes_the_last_card() -> None:
    state = make(
        hands=[["red/club/1", "blue/club/1"], ["red/hand/1", "green/fur/1"], ["red/fur/4"]],
        columns=[["blue/club/2"], ["red/club/3"]],
        draw=["baby", "yellow/hand/2", "green/mammoth/4"],
        draw_size=3,
        actor=B,
        options=BABY_OPT,
    )
    state.apply(B, "draw")
    events = state.apply(B, "baby c2")  # cover value 2: C draws the last card, no one else
    end = next(e for e in events if e.type == "round_end")
    assert end.data["hands"][C] == ["red/fur/4", "green/mammoth/4"]
    assert end.data["hands"][D] == [] and end.data["hands"][A] == ["blue/club/1", "red/club/1"]


def test_d34_last_card_baby_stays_in_hand_and_scores() -> None:
    state = make(
        hands=[[], ["red/hand/1", "green/fur/1"]],
        draw=["baby"],
        draw_size=1,
        actor=B,
        options=BABY_OPT,
    )
    events = state.apply(B, "draw")
    end = next(e for e in events if e.type == "round_end")
    assert end.data["hands"][B] == ["red/hand/1", "green/fur/1", "baby"]
    assert end.data["scores"][B] == 1 + 1 - 1  # two 1s, one Baby
    assert not any(e.type == "baby_drawn" for e in events)


# ----- illegal actions leave the state unchanged --------------------------------------------------

PROMPTS = [
    "turn",
    "shaman_reaction",
    "call_answer",
    "keep",
    "rest",
    "swap",
    "trim",
    "jungle",
    "baby",
]


def _one_state_per_prompt() -> dict[str, DudabState]:
    found: dict[str, DudabState] = {}
    for seed in range(40):
        state = GAME.new_game(4 + seed % 3, BOTH, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and len(found) < len(PROMPTS):
            found.setdefault(state.prompt(), state.clone())
            seat = state.seats_to_act()[0]
            acts = state.legal_actions(seat)
            placing = [a for a in acts if str(a).startswith("p ")]
            state.apply(seat, rng.choice(placing if placing and rng.random() < 0.8 else acts))
        if len(found) == len(PROMPTS):
            break
    return found


def test_every_illegal_action_of_every_prompt_is_refused_without_change() -> None:
    states = _one_state_per_prompt()
    assert sorted(states) == sorted(PROMPTS)
    for prompt, state in states.items():
        seat = state.seats_to_act()[0]
        before = _as_json(state.to_position())
        views = [_as_json(state.view(s)) for s in [None, *range(state.num_players)]]
        ok = {GAME.action_index(a, state.num_players) for a in state.legal_actions(seat)}
        for index in range(NUM_ACTIONS):
            if index in ok:
                continue
            with pytest.raises(IllegalActionError) as info:
                state.apply(seat, action_from_index(index))
            assert info.value.rule.startswith("dudab rules §"), (prompt, index)
        other = (seat + 1) % state.num_players
        with pytest.raises(IllegalActionError, match="turn order"):
            state.apply(other, state.legal_actions(seat)[0])
        assert _as_json(state.to_position()) == before, prompt
        assert [_as_json(state.view(s)) for s in [None, *range(state.num_players)]] == views


@skip_compiled("campfire.games.dudab.actions")
def test_hand_built_actions_are_read_by_index() -> None:
    state = make(hands=[["red/fur/3", "dudab"]], columns=[["blue/club/2"], ["green/hand/4"]])
    before = _as_json(state.to_position())
    # built by hand with plain numbers for kinds (cast: for the type checker)
    with pytest.raises(NotationError, match="indices are 0"):
        # a bad face used to raise IndexError
        state.apply(A, DudabAction(9999, cast(DudabKind, 0), 999))
    # index 3 is "p blue/hand/2 c1": the other fields must agree with it (issue 26 item 7;
    # a "draw" with the fields of a placement used to draw)
    with pytest.raises(NotationError, match="its kind is 1, not 'p'"):
        state.apply(A, DudabAction(3, cast(DudabKind, 1)))
    with pytest.raises(NotationError, match="its kind is 'draw', not 'p'"):
        state.apply(A, DudabAction(3, DudabKind.DRAW))
    with pytest.raises(IllegalActionError, match="no blue/hand/2 in seat 0's hand"):
        state.apply(A, DudabAction(3, DudabKind.PLACE))  # face and column left at their defaults
    with pytest.raises(NotationError, match="its face is 5, not -1"):
        state.apply(A, DudabAction(243, DudabKind.DRAW, 5, 1))
    assert _as_json(state.to_position()) == before
    # index 243 = draw
    state.apply(A, DudabAction(action_from_index(243).index, DudabKind.DRAW))
    assert len(state.hands[A]) == 3


def test_a_finished_game_refuses_every_action() -> None:
    state = GAME.new_game(2, seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.seats_to_act() == () and state.legal_actions() == []
    before = _as_json(state.to_position())
    for seat in (A, B):
        with pytest.raises(IllegalActionError, match="game is over"):
            state.apply(seat, "draw")
    assert _as_json(state.to_position()) == before


# ----- §9 hidden information ----------------------------------------------------------------------


def test_s9_views_show_heap_sizes_not_contents() -> None:
    state = make(
        hands=[["red/fur/1", "blue/club/2"], ["green/hand/4", "yellow/club/1"]],
        columns=[{"heap": ["red/mammoth/2", "baby", "yellow/hand/3"], "above": ["blue/fur/4"]}],
        options=BABY_OPT,
    )
    for seat in (None, A, B):
        view = state.view(seat)
        assert view["columns"][0] == {
            "cards": ["blue/fur/4"],
            "owners": [None],
            "jungle": False,
            "jungle_owner": None,
            "above": None,
            "heap": 3,
        }
        text = _as_json(view) + state.render(seat)
        assert "red/mammoth/2" not in text and "yellow/hand/3" not in text
        assert "red mammoth 2" not in text and "yellow hand 3" not in text  # as rendered


def test_s9_public_events_carry_only_public_cards() -> None:
    public_cards = {"place", "penalty_reveal", "baby_cover", "to_pile", "reveal_hand", "capture"}
    public_cards |= {"rest", "round_start", "round_end", "game_over"}
    named = 0
    for seed in range(3):
        state = GAME.new_game(4, BOTH, seed=seed)
        rng = random.Random(seed)
        revealed: dict[int, list[str]] = {}
        while not state.is_terminal():
            seat = state.seats_to_act()[0]
            for e in state.apply(seat, rng.choice(state.legal_actions(seat))):
                if e.to is not None:
                    assert e.to == frozenset((e.data["seat"],))
                    continue
                if {"card", "cards", "columns", "hands"} & set(e.data):
                    assert e.type in public_cards, e
                if e.type == "reveal_hand":
                    revealed[e.data["seat"]] = e.data["cards"]
                if e.type == "rest":  # cards to the own pile stay private
                    assert ("cards" in e.data) == (e.data["to"] == "discard")
                if e.type == "to_pile" and e.data["card"] is not None:
                    # only the five-card swap names the card: that hand was just revealed
                    assert e.data["card"] in revealed.pop(e.data["seat"])
                    named += 1
    assert named > 0


def test_s9_determinize_keeps_what_the_seat_knows_and_resamples_the_rest() -> None:
    state = make(
        hands=[
            ["red/fur/1", "blue/club/2"],
            ["green/hand/4", "yellow/club/1", "dudab"],
            ["red/hand/2", "shaman/red"],
        ],
        piles=[["yellow/fur/4"], ["blue/mammoth/1", "green/club/3"]],
        columns=[{"heap": ["red/mammoth/2", "baby"], "above": ["blue/fur/4"]}, ["dudab"]],
        options=BABY_OPT,
    )
    changed = False
    for k in range(10):
        det = state.determinize(A, random.Random(k))
        assert det.hands[A] == state.hands[A] and det.piles[A] == state.piles[A]
        assert det.vis == state.vis and det.discard == state.discard
        assert [len(h) for h in det.hands] == [len(h) for h in state.hands]
        assert [len(p) for p in det.piles] == [len(p) for p in state.piles]
        assert [len(h) for h in det.heap] == [len(h) for h in state.heap]
        assert _as_json(det.view(A)) == _as_json(state.view(A))
        changed |= det.hands[B] != state.hands[B] or det.heap != state.heap
        GAME.state_from_position(det.to_position())  # every card exactly once
    assert changed


def test_s9_determinize_keeps_a_revealed_five_card_hand() -> None:
    five = ["red/club/1", "red/hand/1", "red/mammoth/1", "blue/hand/1", "green/club/1"]
    state = make(
        hands=[[], five, ["red/fur/2", "blue/club/3"]],
        columns=[["yellow/fur/4"], ["blue/mammoth/4"]],
        actor=B,
    )
    state.apply(B, "draw")
    revealed = state.view(C)["revealed"]
    assert state.prompt() == "swap" and revealed is not None and revealed["seat"] == B
    det = state.determinize(C, random.Random(3))
    assert sorted(det.hands[B]) == sorted(state.hands[B])
    assert det.legal_actions(B) == state.legal_actions(B)


# ----- §7.3: the spec's reference algorithm, transcribed literally --------------------------------

BABY_TABLE = [0, -1, -3, -6, -11, -19, -32, -51, -81]


def spec_reference(hand_: list[int], own_pile: list[int]) -> int:
    """dudab §7.3 as written: the Dudabs take exactly ``k_pairs`` Number cards."""
    score = 5 * sum(1 for c in hand_ if KIND[c] == DUDAB)
    cards = own_pile + [c for c in hand_ if KIND[c] != DUDAB]
    d = sum(1 for c in cards if KIND[c] == DUDAB)
    s = sum(1 for c in cards if KIND[c] == SHAMAN)
    j = sum(1 for c in cards if KIND[c] == JUNGLE)
    bb = sum(1 for c in cards if KIND[c] == BABY)
    n = {v: sum(1 for c in cards if KIND[c] == NUMBER and VALUE[c] == v) for v in (1, 2, 3, 4)}
    p = min(d, s)
    d -= p
    s -= p
    k_pairs = min(d, sum(n.values()))
    best: int | None = None
    for a in product(*(range(n[v] + 1) for v in (1, 2, 3, 4))):
        if sum(a) != k_pairs:
            continue
        total = -sum(v * a[v - 1] for v in (1, 2, 3, 4))
        rem = {v: n[v] - a[v - 1] for v in (1, 2, 3, 4)}
        kinds = sorted(v for v in (1, 2, 3, 4) if rem[v] > 0)
        removed = set(kinds[:j])
        total += sum(v * rem[v] for v in kinds if v not in removed)
        total += 0 if j > len(kinds) else 5 * s
        best = total if best is None else min(best, total)
    assert best is not None
    return score + best + BABY_TABLE[bb]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=95), unique=True, max_size=30),
    st.integers(min_value=0, max_value=6),
)
def test_s7_3_round_score_equals_the_spec_reference(cards: list[int], hand_size: int) -> None:
    hand_, own_pile = cards[:hand_size], cards[hand_size:]
    assert round_score(hand_, own_pile).total == spec_reference(hand_, own_pile)


def test_s7_1_hand_dudabs_score_five_and_do_not_pair() -> None:
    # a hand Dudab is removed before the pairing: it does not cancel the Shaman in the pile
    dudab, shaman, one = (
        parse_card("DUDAB-1"),
        parse_card("SHAMAN-red-1"),
        parse_card("N-red-fur-1"),
    )
    assert round_score([dudab], [shaman]).total == 5 + 5
    assert round_score([], [dudab, shaman]).total == 0
    assert round_score([dudab, one], []).total == 5 + 1
    assert [FACE_NAMES[FACE[c]] for c in (dudab, shaman)] == ["dudab", "shaman/red"]
