"""Rules of dudab.md: every worked example WE-1…WE-20 and scenario S1…S10 by id."""

from __future__ import annotations

import random

import pytest

from campfire.core import IllegalActionError, Match
from campfire.games.dudab import GAME, DudabState, round_score
from campfire.games.dudab.cards import FACE_NAMES, cards_in_use, parse_card

from .table import A, B, C, D, can_place, column, hand, legal, make, pile, s7_final

# ----- WE-1, WE-2: setup ------------------------------------------------------------------------


def test_we1_setup_counts() -> None:
    state = GAME.new_game(4, seed=1)
    assert len(cards_in_use(False, False)) == 80
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]  # 12 dealt
    assert state.ncols == 2 and all(len(v) == 1 for v in state.vis)
    assert len(state.draw) == 66
    assert len(state.decks) + 1 == 4  # 4 rounds
    state = GAME.new_game(5, {"use_jungle": True, "use_baby": True}, seed=1)
    assert len(cards_in_use(True, True)) == 96
    assert sum(len(h) for h in state.hands) == 15
    assert state.ncols == 3
    assert len(state.draw) == 78
    assert len(state.decks) + 1 == 5


def test_we2_start_player_rotation() -> None:
    match = Match(GAME, 4, {"start_player": C}, seed=4)
    first = match.state
    assert isinstance(first, DudabState)
    starts = [first.round_start_player()]
    rng = random.Random(4)
    while not match.state.is_terminal():
        seat = match.state.seats_to_act()[0]
        for event in match.play(seat, rng.choice(match.state.legal_actions(seat))):
            if event.type == "round_start":
                starts.append(event.data["start_player"])
    assert starts == [C, D, A, B]


# ----- WE-3 … WE-5: placement on Number cards, Shamans, Dudabs ----------------------------------


def test_we3_number_on_number() -> None:
    top = ["red/fur/3"]
    for card in ["blue/mammoth/4", "green/club/2", "yellow/hand/4"]:
        assert can_place(card, top), card
    for card in ["red/hand/2", "blue/fur/4", "green/club/3", "green/club/1"]:
        assert not can_place(card, top), card
    assert can_place("red/hand/2", ["yellow/club/1"])
    assert not can_place("red/hand/3", ["yellow/club/1"])
    assert not can_place("green/club/1", ["yellow/club/1"])
    assert can_place("green/hand/3", ["red/fur/4"])
    assert not can_place("green/hand/1", ["red/fur/4"])  # values do not wrap


def test_we4_number_on_shaman() -> None:
    top = ["shaman/green"]
    assert can_place("green/fur/1", top)
    assert can_place("green/club/4", top)
    assert not can_place("red/fur/1", top)


def test_we5_number_on_starter_dudab() -> None:
    assert can_place("blue/hand/4", ["dudab"])
    assert can_place("red/club/1", ["dudab"])
    assert not can_place("shaman/blue", ["dudab"])  # D22


# ----- WE-6, WE-7: capture and the five-card draw -----------------------------------------------

FIVE = ["yellow/club/2", "red/fur/3", "blue/mammoth/4", "green/hand/3", "yellow/fur/2"]


def test_we6_sixth_card_captures_five() -> None:
    state = make(hands=[["red/club/1", "blue/hand/1", "green/fur/4", "dudab"]], columns=[FIVE])
    events = state.apply(A, "p red/club/1 c1")
    assert [e.type for e in events][:2] == ["place", "capture"]
    assert pile(state, A) == sorted(FIVE)
    assert column(state, 1) == ["red/club/1"]
    assert state.prompt() == "keep" and state.seats_to_act() == (A,)
    state.apply(A, "keep dudab")
    state.apply(A, "keep green/fur/4")
    assert legal(state) == ["rest discard", "rest pile"]
    state.apply(A, "rest discard")
    assert hand(state, A) == ["dudab", "green/fur/4"]
    assert FACE_NAMES.index("blue/hand/1") in [f for f in map(_face, state.discard)]
    assert state.actor == B and state.prompt() == "turn"


def test_we6_variant_five_cards_both_to_one_destination() -> None:
    cards = ["red/club/1", "blue/hand/1", "green/fur/4", "dudab", "shaman/red"]
    state = make(hands=[cards], columns=[FIVE])
    state.apply(A, "p red/club/1 c1")
    state.apply(A, "keep dudab")
    state.apply(A, "keep shaman/red")
    state.apply(A, "rest pile")
    assert hand(state, A) == ["dudab", "shaman/red"]
    assert pile(state, A) == sorted([*FIVE, "blue/hand/1", "green/fur/4"])
    assert state.actor == B


def test_we7_drawing_with_five_cards() -> None:
    five = ["red/club/1", "red/hand/1", "red/mammoth/1", "blue/hand/1", "green/club/3"]
    # green/club/3 fits on yellow/fur/2: Draw is illegal
    state = make(hands=[[], five], columns=[["yellow/fur/2"], ["blue/mammoth/4"]], actor=B)
    assert "draw" not in legal(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(B, "draw")
    assert info.value.rule == "dudab rules §5.3"
    # nothing fits: reveal, one chosen card to own pile, draw 1 → 5 cards
    five[-1] = "green/club/1"
    state = make(
        hands=[[], five],
        columns=[["yellow/fur/4"], ["blue/mammoth/4"]],
        draw=["yellow/hand/2"],
        actor=B,
    )
    assert legal(state) == ["draw"]
    events = state.apply(B, "draw")
    reveal = next(e for e in events if e.type == "reveal_hand")
    assert reveal.to is None and reveal.data["cards"] == sorted(five, key=FACE_NAMES.index)
    assert state.prompt() == "swap"
    revealed = state.view(C)["revealed"]
    assert revealed is not None and revealed["seat"] == B
    state.apply(B, "pile red/hand/1")
    assert pile(state, B) == ["red/hand/1"]
    assert len(state.hands[B]) == 5 and "yellow/hand/2" in hand(state, B)
    assert state.actor == C


# ----- WE-8: the round ends at once ---------------------------------------------------------------


def test_we8_round_ends_immediately() -> None:
    state = make(
        hands=[["dudab", "red/fur/3"], ["blue/club/1", "green/hand/2"], ["yellow/fur/4", "dudab"]],
        draw=["red/club/2"],
        draw_size=1,
        actor=C,
    )
    events = state.apply(C, "draw")
    end = next(e for e in events if e.type == "round_end")
    assert end.data["round"] == 1
    assert end.data["hands"][C] == ["red/club/2", "yellow/fur/4", "dudab"]
    # C: hand Dudab +5, then 4 + 2 from the rest of the hand
    assert end.data["scores"][C] == 11
    assert state.round == 1 and state.scores[C] == [11]


def test_we8_last_card_jungle_stays_in_hand() -> None:
    state = make(
        hands=[[], [], ["yellow/fur/4", "dudab"]],
        draw=["jungle"],
        draw_size=1,
        actor=C,
        options={"use_jungle": True},
    )
    events = state.apply(C, "draw")
    end = next(e for e in events if e.type == "round_end")
    # no effect: it stays in C's hand and joins C's own pile at scoring, where it removes the 4
    assert end.data["hands"][C] == ["yellow/fur/4", "dudab", "jungle"]
    assert end.data["scores"][C] == 5
    assert not any(e.type == "jungle_drawn" for e in events)


# ----- WE-9 … WE-13: Shamans and calls ------------------------------------------------------------


def test_we9_shaman_placement() -> None:
    assert can_place("shaman/blue", ["blue/hand/3"])
    assert not can_place("shaman/blue", ["red/hand/3"])
    assert can_place("shaman/red", ["red/fur/1", "dudab"], obligation=("call", 1, "red"))
    assert not can_place("shaman/red", ["red/fur/1", "dudab"], obligation=("call", 1, "3"))


def test_we10_shaman_chain_and_penalty() -> None:
    state = make(
        hands=[
            ["shaman/blue", "red/fur/1", "green/fur/1"],
            ["shaman/yellow", "red/fur/2", "green/club/4"],
            ["red/hand/4", "blue/club/4", "green/club/1", "yellow/club/3"],
            ["yellow/mammoth/1", "red/club/3"],
        ],
        columns=[["blue/hand/3"], ["red/club/4"]],
        draw=["dudab", "shaman/red", "green/fur/2", "blue/fur/1", "blue/fur/3"],
    )
    state.apply(A, "p shaman/blue c1")
    assert state.obligation() == {"kind": "shaman_reaction", "column": 1}
    assert state.seats_to_act() == (B,) and state.prompt() == "shaman_reaction"
    state.apply(B, "p shaman/yellow c1")  # any colour
    assert state.seats_to_act() == (C,)
    assert legal(state) == ["penalty"]
    events = state.apply(C, "penalty")
    revealed = [e.data["card"] for e in events if e.type == "penalty_reveal"]
    assert revealed == ["dudab", "shaman/red", "green/fur/2"]
    assert [FACE_NAMES[_face(c)] for c in state.discard[-3:]] == revealed
    assert len(state.hands[C]) == 6 and state.prompt() == "trim"
    state.apply(C, "pile red/hand/4")
    assert len(state.hands[C]) == 5 and pile(state, C) == ["red/hand/4"]
    assert state.obligation() is None
    assert state.seats_to_act() == (D,) and state.prompt() == "turn"
    assert state.is_legal(D, "p yellow/mammoth/1 c1")


def test_we10_variant_dudab_call_ends_chain() -> None:
    state = make(
        hands=[[], [], ["dudab", "red/hand/4"], ["blue/fur/4", "red/club/3"]],
        columns=[["blue/hand/3", "shaman/blue", "shaman/yellow"], ["red/club/4"]],
        obligation=("shaman", 1),
        actor=C,
    )
    state.apply(C, "p dudab c1 call=4")
    assert state.obligation() == {"kind": "call", "column": 1, "call": "4"}
    assert state.seats_to_act() == (D,) and state.prompt() == "call_answer"
    assert legal(state) == ["p blue/fur/4 c1"]


def test_we11_call_answering_order() -> None:
    state = make(
        hands=[
            ["dudab", "red/club/2", "blue/hand/1"],
            ["red/hand/3", "blue/fur/2"],
            ["yellow/hand/1", "green/club/4"],
            ["red/mammoth/2", "green/fur/3"],
        ],
        columns=[["red/fur/1"], ["blue/club/2", "green/hand/3"]],
        draw=["blue/club/4"],
    )
    state.apply(A, "p dudab c2 call=yellow")
    assert column(state, 2)[-1] == "dudab" and len(column(state, 2)) == 3
    assert state.seats_to_act() == (B,) and legal(state) == ["draw"]
    events = state.apply(B, "draw")
    assert any(e.type == "reveal_hand" and e.to is None for e in events)
    assert state.obligation() == {"kind": "call", "column": 2, "call": "yellow"}
    assert state.seats_to_act() == (C,)
    with pytest.raises(IllegalActionError) as info:
        state.apply(C, "draw")
    assert info.value.rule == "dudab rules §5.4"
    state.apply(C, "p yellow/hand/1 c2")
    assert state.obligation() is None
    assert state.seats_to_act() == (D,) and state.prompt() == "turn"


def test_we11_variant_caller_answers() -> None:
    state = make(
        hands=[
            ["dudab", "yellow/club/2", "blue/hand/1"],
            ["red/hand/3", "blue/fur/2"],
            ["red/hand/1", "green/club/4"],
            ["red/mammoth/2", "green/fur/3"],
        ],
        columns=[["red/fur/1"], ["blue/club/2", "green/hand/3"]],
        draw=["blue/club/4", "red/club/4", "green/hand/4", "blue/mammoth/3"],
    )
    state.apply(A, "p dudab c2 call=yellow")
    for seat in (B, C, D):
        assert state.seats_to_act() == (seat,)
        state.apply(seat, "draw")
    assert state.seats_to_act() == (A,) and state.prompt() == "call_answer"
    assert legal(state) == ["p yellow/club/2 c2"]  # the caller is bound too
    state.apply(A, "p yellow/club/2 c2")
    assert state.obligation() is None and state.seats_to_act() == (B,)


def test_we11_variant_caller_fails_too() -> None:
    state = make(
        hands=[
            ["dudab", "red/club/2", "blue/hand/1"],
            ["red/hand/3", "blue/fur/2"],
            ["red/hand/1", "green/club/4"],
            ["red/mammoth/2", "green/fur/3"],
        ],
        columns=[["red/fur/1"], ["blue/club/2", "green/hand/3"]],
        draw=["blue/club/4", "red/club/4", "green/hand/4", "blue/mammoth/3", "green/hand/1"],
    )
    state.apply(A, "p dudab c2 call=yellow")
    for seat in (B, C, D, A):
        state.apply(seat, "draw")
    assert state.seats_to_act() == (B,) and state.prompt() == "call_answer"


def test_we11_variant_five_cards() -> None:
    five = ["red/hand/3", "blue/fur/2", "green/club/1", "red/club/4", "blue/mammoth/4"]
    state = make(
        hands=[[], five],
        columns=[["red/fur/1"], ["blue/club/2", "green/hand/4", "dudab"]],
        obligation=("call", 2, "yellow"),
        draw=["green/hand/3"],
        actor=B,
    )
    state.apply(B, "draw")
    assert state.prompt() == "swap"
    state.apply(B, "pile blue/mammoth/4")
    assert len(state.hands[B]) == 5 and "green/hand/3" in hand(state, B)
    assert pile(state, B) == ["blue/mammoth/4"]
    assert state.seats_to_act() == (C,) and state.prompt() == "call_answer"


def test_we12_counter_call() -> None:
    state = make(
        hands=[
            ["dudab", "red/club/2", "blue/hand/1"],
            ["dudab", "red/hand/3", "blue/fur/2"],
            ["red/club/1", "green/fur/4", "blue/club/3"],
        ],
        columns=[["red/fur/1"], ["blue/club/2"]],
    )
    state.apply(A, "p dudab c1 call=4")
    state.apply(B, "p dudab c1 call=club")
    assert state.obligation() == {"kind": "call", "column": 1, "call": "club"}
    assert state.seats_to_act() == (C,)
    assert legal(state)[:2] == ["p blue/club/3 c1", "p red/club/1 c1"]
    assert "p green/fur/4 c1" not in legal(state)  # "value 4" no longer applies


def test_we13_dudab_as_fifth_card() -> None:
    four = ["yellow/club/2", "red/fur/3", "blue/mammoth/4", "green/hand/3"]
    state = make(
        hands=[
            ["dudab", "red/club/2", "blue/hand/1"],
            ["red/hand/3", "blue/fur/2"],
            ["green/mammoth/2", "green/fur/4", "blue/club/3", "red/club/1"],
        ],
        columns=[four, ["blue/club/2"]],
        draw=["blue/club/4"],
    )
    state.apply(A, "p dudab c1 call=mammoth")
    state.apply(B, "draw")
    state.apply(C, "p green/mammoth/2 c1")
    assert pile(state, C) == sorted([*four, "dudab"])
    assert column(state, 1) == ["green/mammoth/2"]
    assert state.prompt() == "keep"
    state.apply(C, "keep green/fur/4")
    state.apply(C, "keep red/club/1")
    state.apply(C, "rest discard")
    assert hand(state, C) == ["green/fur/4", "red/club/1"]
    assert state.seats_to_act() == (D,) and state.prompt() == "turn"


# ----- WE-14 … WE-17: the Jungle ------------------------------------------------------------------

JUNGLE = {"use_jungle": True}


def test_we14_jungle_on_five_card_column() -> None:
    state = make(
        hands=[
            ["dudab", "dudab", "red/club/1"],
            ["dudab", "blue/hand/1", "green/fur/2"],
            ["dudab", "dudab", "blue/club/2"],
            ["dudab", "red/hand/1", "yellow/fur/4"],
        ],
        columns=[FIVE, ["blue/club/3"]],
        draw=["jungle", "red/club/4", "green/hand/4", "blue/mammoth/3", "green/hand/1"],
        actor=B,
        options=JUNGLE,
    )
    state.apply(B, "draw")
    assert state.prompt() == "jungle" and legal(state) == ["jungle c1", "jungle c2"]
    state.apply(B, "jungle c1")
    assert state.above[0] == 5 and pile(state, B) == []  # no capture
    # five Dudabs below (a Dudab satisfies every mirror), then the sixth card captures
    for seat in (C, D, A, B, C):
        state.apply(seat, "p dudab c1")
    assert len(state.vis[0]) == 10 and pile(state, D) == []
    state.apply(D, "p red/hand/1 c1")  # after a Dudab below the Jungle: any card
    assert len(state.piles[D]) == 11  # 5 above + Jungle + 5 below
    assert "jungle" in pile(state, D)
    assert column(state, 1) == ["red/hand/1"] and state.above[0] == -1


def test_we15_jungle_mirroring() -> None:
    above = ["yellow/club/2", "red/fur/3", "blue/mammoth/4"]
    col = {"above": above, "jungle": True}
    opts = JUNGLE
    # position 1: shares blue, mammoth or 4; no sequence condition
    assert _jungle_fits("green/mammoth/2", col, opts)
    assert not _jungle_fits("yellow/hand/1", col, opts)
    # position 2, after green/mammoth/2: value 1 or 3, not green, not mammoth, red/fur/3 shared
    col2 = {**col, "below": ["green/mammoth/2"]}
    for card in ["red/hand/1", "yellow/fur/1", "blue/club/3"]:
        assert _jungle_fits(card, col2, opts), card
    for card in ["yellow/club/1", "blue/hand/1"]:
        assert not _jungle_fits(card, col2, opts), card
    # position 3, after red/hand/1
    col3 = {**col, "below": ["green/mammoth/2", "red/hand/1"]}
    assert _jungle_fits("blue/fur/2", col3, opts)
    # position 4 captures: 3 above + Jungle + 3 below = 7 cards
    col4 = {**col, "below": ["green/mammoth/2", "red/hand/1", "blue/fur/2"]}
    state = make(
        hands=[["green/club/3", "dudab", "red/club/1", "yellow/hand/4"]],
        columns=[col4],
        options=opts,
    )
    state.apply(A, "p green/club/3 c1")
    assert len(state.piles[A]) == 7 and "jungle" in pile(state, A)
    assert column(state, 1) == ["green/club/3"] and state.above[0] == -1
    assert state.prompt() == "keep"  # discard to 2


def test_we16_jungle_mirroring_shamans_and_dudabs() -> None:
    col = {"above": ["red/club/1", "green/hand/2", "shaman/green"], "jungle": True}
    assert _jungle_fits("shaman/red", col, JUNGLE)
    assert not _jungle_fits("green/fur/1", col, JUNGLE)
    state = make(
        hands=[["shaman/red", "dudab", "blue/fur/3"], ["dudab", "red/hand/2"]],
        columns=[col],
        options=JUNGLE,
    )
    assert "p dudab c1" in legal(state)
    assert not any(a.startswith("p dudab c1 call") for a in legal(state))  # no call (D37)
    state.apply(A, "p shaman/red c1")
    assert state.obligation() == {"kind": "shaman_reaction", "column": 1}
    # mirror card a Dudab: only a Dudab fits
    col_d = {"above": ["red/club/1", "dudab"], "jungle": True}
    assert not _jungle_fits("blue/fur/2", col_d, JUNGLE)
    assert not _jungle_fits("shaman/blue", col_d, JUNGLE)
    # after a Dudab below the Jungle the sequence is waived: only the mirror matters
    col_after = {"above": ["red/club/1", "green/hand/2", "blue/fur/3"], "jungle": True}
    col_after["below"] = ["dudab"]
    assert _jungle_fits("green/club/4", col_after, JUNGLE)  # shares green with green/hand/2
    assert not _jungle_fits("yellow/fur/4", col_after, JUNGLE)  # shares nothing


def test_we17_no_eligible_column_for_a_jungle() -> None:
    jcol = {"above": ["red/club/1"], "jungle": True}
    jcol2 = {"above": ["blue/club/1"], "jungle": True}
    state = make(
        hands=[[], [], [], ["red/fur/1", "green/club/4", "blue/hand/2"]],
        columns=[jcol, jcol2],
        draw=["jungle", "red/club/4"],
        actor=D,
        options=JUNGLE,
    )
    events = state.apply(D, "draw")
    assert "jungle_discarded" in [e.type for e in events]
    assert _face(state.discard[-1]) == FACE_NAMES.index("jungle")
    assert len(state.hands[D]) == 3 and state.actor == A
    # refilling from 1 card: D keeps drawing until holding 2
    state = make(
        hands=[[], [], [], ["red/fur/1", "dudab"]],
        columns=[jcol, jcol2],
        draw=["jungle", "red/club/4"],
        actor=D,
        options=JUNGLE,
    )
    state.apply(D, "p dudab c1")
    assert hand(state, D) == ["red/club/4", "red/fur/1"]


# ----- WE-18, WE-19: the Baby ---------------------------------------------------------------------

BABY = {"use_baby": True}


def test_we18_baby() -> None:
    four = ["yellow/club/2", "red/fur/3", "blue/mammoth/4", "green/hand/3"]
    state = make(
        hands=[
            ["red/club/1", "blue/club/1", "dudab"],
            ["red/hand/1", "green/fur/1"],
            ["red/mammoth/1", "blue/fur/1", "dudab", "green/club/1"],
            ["yellow/hand/1", "yellow/fur/1"],
        ],
        columns=[["blue/club/2"], four],
        draw=[
            "baby",
            "yellow/hand/3",
            *["red/hand/2", "green/mammoth/2", "blue/hand/2"],  # C
            *["yellow/mammoth/2", "green/club/2", "red/club/2"],  # D
            *["blue/fur/2", "green/fur/2", "yellow/fur/2"],  # A
        ],
        actor=B,
        options=BABY,
    )
    state.apply(B, "draw")
    assert state.prompt() == "baby" and legal(state) == ["baby c1", "baby c2"]
    events = state.apply(B, "baby c2")
    assert len(state.heap[1]) == 5 and column(state, 2) == ["yellow/hand/3"]
    assert [e.data["card"] for e in events if e.type == "baby_cover"] == ["yellow/hand/3"]
    # C draws 3 (7 cards) and trims to 5 first
    assert state.seats_to_act() == (C,) and state.prompt() == "trim"
    state.apply(C, "pile red/mammoth/1")
    state.apply(C, "pile blue/fur/1")
    assert len(state.hands[C]) == 5 and len(state.piles[C]) == 2
    # then D (5 cards: no trim), then A (6 cards: trim one)
    assert len(state.hands[D]) == 5
    assert state.seats_to_act() == (A,) and state.prompt() == "trim"
    state.apply(A, "pile red/club/1")
    assert len(state.hands[A]) == 5
    assert len(state.hands[B]) == 2 and state.seats_to_act() == (C,) and state.prompt() == "turn"
    # later, the 6th visible card captures heap (5) + 5 visible = 10 cards
    top = ["yellow/club/3"]
    later = make(
        hands=[["red/hand/2", "dudab"]],
        columns=[
            ["blue/club/2"],
            {
                "heap": [*four, "baby"],
                "above": ["yellow/hand/3", "red/club/2", "blue/mammoth/3", "green/hand/4", *top],
            },
        ],
        options=BABY,
    )
    later.apply(A, "p red/hand/2 c2")
    assert len(later.piles[A]) == 10 and "baby" in pile(later, A)
    assert column(later, 2) == ["red/hand/2"] and later.heap[1] == []


def test_we18_variant_shaman_cover_and_second_baby() -> None:
    state = make(
        hands=[["red/club/1", "blue/club/1"], ["red/hand/1", "green/fur/1"]],
        columns=[["blue/club/2"], ["red/club/3"]],
        draw=["baby", "shaman/green", "baby", "dudab", "red/fur/2"],
        actor=B,
        options=BABY,
    )
    state.apply(B, "draw")
    events = state.apply(B, "baby c2")
    assert column(state, 2) == ["shaman/green"]
    assert not any(e.type == "draw" for e in events)  # nobody draws
    assert state.obligation() is None  # no reaction (D21)
    assert len(state.hands[C]) == 0 and state.seats_to_act() == (C,)
    assert can_place("green/fur/1", ["shaman/green"])
    assert not can_place("red/fur/1", ["shaman/green"])
    # another Baby on column 2: the heap grows, a new cover is turned
    state.apply(C, "draw")
    assert state.prompt() == "baby"
    state.apply(C, "baby c2")
    assert len(state.heap[1]) == 4  # red/club/3 + Baby + green Shaman + Baby
    assert column(state, 2) == ["dudab"]


def test_we19_baby_table() -> None:
    def babies(k: int) -> int:
        return round_score([], [parse_card(f"BABY-{i + 1}") for i in range(k)]).total

    assert babies(3) == -6
    assert babies(5) == -19
    assert babies(8) == -81


def test_we20_surplus_jungle_removes_shamans() -> None:
    shamans = ["shaman/red", "shaman/blue", "shaman/green"]
    numbers = ["red/club/2", "red/fur/2", "blue/hand/4"]
    assert _score([], [*shamans, "jungle", "jungle", "jungle", *numbers]) == 0
    assert _score([], [*shamans, "jungle", "jungle", *numbers]) == 15


# ----- S1 … S10 -----------------------------------------------------------------------------------


def test_s1_base_scoring() -> None:
    pile_ = ["dudab", "dudab", "shaman/blue", "red/club/4", "blue/club/4", "red/hand/3"]
    pile_ += ["green/fur/1", "yellow/fur/1"]
    result = round_score(_cards(["dudab", "red/hand/2"]), _cards(pile_))
    assert result.hand_dudabs == 1 and result.dudab_shaman_pairs == 1
    assert result.dudab_numbers == (4,)
    assert result.number_points == 11
    assert result.total == 12


def test_s2_scoring_with_expansions() -> None:
    pile_ = ["dudab", "jungle", "jungle", "baby", "baby", "baby", "shaman/red"]
    pile_ += ["red/club/1", "blue/club/1", "red/hand/2", "green/fur/3", "yellow/hand/4"]
    result = round_score(_cards(["shaman/blue", "green/club/3"]), _cards(pile_))
    assert result.dudab_shaman_pairs == 1
    assert result.dudab_numbers == ()
    assert result.jungle_values == (1, 2)
    assert (result.shaman_points, result.baby_points, result.number_points) == (5, -6, 10)
    assert result.total == 9


def test_s3_surplus_jungle() -> None:
    pile_ = ["shaman/red", "shaman/blue", "shaman/green", "jungle", "jungle", "jungle"]
    pile_ += ["red/club/2", "red/fur/2", "blue/hand/4"]
    result = round_score([], _cards(pile_))
    assert result.shamans_removed and result.total == 0


def test_s4_dudab_choice_interacts_with_jungles() -> None:
    pile_ = ["dudab", "jungle", "red/club/1", "red/club/2", "red/fur/2", "blue/hand/2"]
    pile_ += ["green/hand/2"]
    result = round_score([], _cards(pile_))
    assert result.dudab_numbers == (1,) and result.jungle_values == (2,)
    assert result.total == -1


def test_s5_more_dudabs_than_numbers() -> None:
    assert _score([], ["dudab", "dudab", "dudab", "shaman/red", "red/club/4"]) == -4


def test_s6_empty_pile_dudabs_in_hand() -> None:
    assert _score(["dudab", "dudab", "blue/club/1"], []) == 11


def test_s7_game_total_and_tie() -> None:
    outcome = s7_final().outcome()
    assert outcome.scores == (20, 20, 22)
    assert outcome.winners == (A, B) and outcome.ranks == (1, 1, 3)


def test_s8_capture_by_counter_dudab() -> None:
    four = ["yellow/club/2", "red/fur/3", "blue/mammoth/4", "green/hand/3"]
    state = make(
        hands=[[], ["dudab", "red/hand/3", "blue/fur/2"], ["red/club/1", "green/fur/4"]],
        columns=[[*four, "dudab"], ["blue/club/2"]],
        obligation=("call", 1, "yellow"),
        actor=B,
    )
    state.apply(B, "p dudab c1 call=fur")
    assert pile(state, B) == sorted([*four, "dudab"])
    assert column(state, 1) == ["dudab"]
    assert state.obligation() == {"kind": "call", "column": 1, "call": "fur"}
    assert state.seats_to_act() == (C,) and legal(state) == ["p green/fur/4 c1"]


def test_s9_shaman_answering_a_colour_call_starts_a_chain() -> None:
    state = make(
        hands=[[], ["shaman/green", "red/hand/3"], ["red/club/1", "green/fur/4"]],
        columns=[["red/fur/1", "dudab"], ["blue/club/2"]],
        obligation=("call", 1, "green"),
        actor=B,
    )
    assert legal(state) == ["p shaman/green c1"]
    state.apply(B, "p shaman/green c1")
    assert state.obligation() == {"kind": "shaman_reaction", "column": 1}
    assert state.seats_to_act() == (C,) and legal(state) == ["penalty"]


def test_s10_last_card_during_a_penalty() -> None:
    state = make(
        hands=[[], [], ["red/club/1", "green/fur/4", "blue/hand/1", "yellow/club/4"]],
        columns=[["red/fur/1", "shaman/red"], ["blue/club/2"]],
        obligation=("shaman", 1),
        draw=["red/fur/3", "blue/mammoth/1", "green/hand/1"],
        draw_size=3,
        actor=C,
    )
    events = state.apply(C, "penalty")
    end = next(e for e in events if e.type == "round_end")
    assert len(end.data["hands"][C]) == 6  # not trimmed to 5
    assert state.round == 1 and state.prompt() == "turn"
    assert state.seats_to_act() == (state.round_start_player(),)


# ----- helpers ------------------------------------------------------------------------------------


def _face(card: int) -> int:
    from campfire.games.dudab.cards import FACE

    return FACE[card]


def _cards(names: list[str]) -> list[int]:
    """Physical cards for face names (copies numbered in order)."""
    from campfire.games.dudab.cards import FACE

    used: set[int] = set()
    out = []
    for name in names:
        face = FACE_NAMES.index(name)
        card = next(c for c in range(96) if FACE[c] == face and c not in used)
        used.add(card)
        out.append(card)
    return out


def _score(hand_: list[str], pile_: list[str]) -> int:
    cards = _cards(hand_ + pile_)
    return round_score(cards[: len(hand_)], cards[len(hand_) :]).total


def _jungle_fits(card: str, col: dict[str, object], options: dict[str, bool]) -> bool:
    state = make(hands=[[card, "red/fur/4"]], columns=[col], options=options)
    return state.is_legal(A, f"p {card} c1")
