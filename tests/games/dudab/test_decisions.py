"""Decisions of dudab §12 that the worked examples do not cover, by decision id."""

from __future__ import annotations

from .table import A, B, C, D, column, hand, legal, make, pile

BOTH = {"use_jungle": True, "use_baby": True}


def test_d19_no_jungle_or_baby_on_the_active_column() -> None:
    state = make(
        hands=[[], [], ["red/fur/1", "green/club/4"], ["red/club/2", "blue/fur/3"]],
        columns=[["red/fur/2", "dudab"], ["blue/club/2"]],
        obligation=("call", 1, "yellow"),
        draw=["jungle", "baby", "red/hand/2"],
        actor=C,
        options=BOTH,
    )
    state.apply(C, "draw")  # fails the call, draws the Jungle
    assert state.prompt() == "jungle" and legal(state) == ["jungle c2"]
    state.apply(C, "jungle c2")
    # the call persists; D answers (refill of C does not happen: C still holds 2)
    assert state.seats_to_act() == (D,)
    assert legal(state) == ["draw"]
    state.apply(D, "draw")  # D fails with nothing and draws the Baby
    assert state.prompt() == "baby" and legal(state) == ["baby c2"]


def test_d20_jungle_cover_captures_the_next_card() -> None:
    state = make(
        hands=[
            ["red/club/1", "blue/fur/3"],
            ["red/hand/1", "green/fur/1"],
            ["yellow/fur/2", "blue/hand/4"],
        ],
        columns=[["blue/club/2"], ["red/club/3", "green/hand/2"]],
        draw=["baby", "jungle", "red/fur/2"],
        actor=B,
        options=BOTH,
    )
    state.apply(B, "draw")
    state.apply(B, "baby c2")
    assert state.above[1] == 0 and column(state, 2) == []
    assert state.view(None)["columns"][1] == {
        "cards": [],
        "owners": [],
        "jungle": True,
        "jungle_owner": None,  # turned up under the Baby: nobody laid it
        "above": 0,
        "heap": 3,
    }
    # the next card placed there captures the whole column (heap + Jungle)
    assert state.seats_to_act() == (C,)
    state.apply(C, "p yellow/fur/2 c2")
    assert pile(state, C) == ["baby", "green/hand/2", "jungle", "red/club/3"]
    assert column(state, 2) == ["yellow/fur/2"] and state.above[1] == -1


def test_d34_baby_cover_empties_the_pile() -> None:
    state = make(
        hands=[[], ["red/hand/1", "green/fur/1"]],
        columns=[["blue/club/2"], ["red/club/3"]],
        draw=["baby", "green/mammoth/4"],
        draw_size=2,
        actor=B,
        options=BOTH,
    )
    state.apply(B, "draw")
    events = state.apply(B, "baby c1")
    assert [e.type for e in events][-1] != "draw"
    assert any(e.type == "round_end" for e in events)  # nobody draws 4: the round is over
    assert state.round == 1


def test_d38_baby_buries_a_jungle_column() -> None:
    state = make(
        hands=[[], ["red/hand/1", "green/fur/1"]],
        columns=[{"above": ["blue/club/2", "red/fur/3"], "below": ["dudab"], "jungle": True}],
        draw=["baby", "shaman/blue"],
        actor=B,
        options=BOTH,
    )
    state.apply(B, "draw")
    state.apply(B, "baby c1")
    assert state.above[0] == -1 and len(state.heap[0]) == 5  # 2 above, Jungle, 1 below, Baby
    assert column(state, 1) == ["shaman/blue"]


def test_d14_refill_does_not_count_jungle_or_baby() -> None:
    state = make(
        hands=[
            ["dudab", "red/club/1"],
            ["red/hand/1", "green/club/2"],
            ["blue/fur/1", "yellow/club/3"],
            ["green/hand/3", "yellow/mammoth/4"],
        ],
        columns=[["blue/club/2"], ["red/club/3"]],
        draw=["baby", "yellow/hand/1", "jungle", "green/fur/2", "blue/hand/4", "red/mammoth/3"],
        options=BOTH,
    )
    state.apply(A, "p dudab c1")  # A holds 1 → refill draws the Baby
    assert state.prompt() == "baby" and state.seats_to_act() == (A,)
    state.apply(A, "baby c2")  # cover yellow/hand/1: B, C, D draw 1 each, in that order
    assert state.prompt() == "jungle" and state.seats_to_act() == (B,)
    state.apply(B, "jungle c1")  # B's one card was the Jungle: it counts in a Baby draw
    assert len(state.hands[B]) == 2
    assert "green/fur/2" in hand(state, C) and "blue/hand/4" in hand(state, D)
    # A's refill goes on: the Baby did not count
    assert hand(state, A) == ["red/club/1", "red/mammoth/3"]
    assert state.seats_to_act() == (B,) and state.prompt() == "turn"


def test_d11_shaman_capture_during_a_reaction_keeps_the_chain() -> None:
    five = ["red/club/1", "blue/hand/2", "green/fur/3", "yellow/club/4", "shaman/yellow"]
    state = make(
        hands=[[], ["shaman/red", "blue/fur/1", "green/club/2", "red/hand/4"]],
        columns=[five, ["blue/club/3"]],
        obligation=("shaman", 1),
        actor=B,
    )
    state.apply(B, "p shaman/red c1")
    assert pile(state, B) == sorted(five) and column(state, 1) == ["shaman/red"]
    state.apply(B, "keep blue/fur/1")
    state.apply(B, "keep red/hand/4")
    state.apply(B, "rest pile")
    assert hand(state, B) == ["blue/fur/1", "red/hand/4"]
    assert state.obligation() == {"kind": "shaman_reaction", "column": 1}
    assert state.seats_to_act() == (C,) and state.prompt() == "shaman_reaction"


def test_d36_caller_may_counter_own_call() -> None:
    state = make(
        players=2,
        hands=[["dudab", "dudab", "red/club/1"], ["red/hand/3", "blue/fur/2"]],
        columns=[["blue/club/2"], ["red/club/3"]],
        draw=["green/hand/1", "green/fur/4"],
    )
    state.apply(A, "p dudab c1 call=yellow")
    state.apply(B, "draw")
    assert state.seats_to_act() == (A,)  # back round in a two-player game
    assert "p dudab c1 call=red" in legal(state) and "draw" in legal(state)
    state.apply(A, "p dudab c1 call=red")
    assert state.obligation() == {"kind": "call", "column": 1, "call": "red"}
    assert state.seats_to_act() == (B,)
    assert legal(state) == ["p red/hand/3 c1"]


def test_d12_penalty_reveal_empties_the_pile() -> None:
    state = make(
        hands=[[], [], ["red/fur/1", "green/club/4"]],
        columns=[["blue/hand/2", "shaman/blue"], ["blue/club/3"]],
        obligation=("shaman", 1),
        draw=["dudab", "shaman/red"],
        draw_size=2,
        actor=C,
    )
    events = state.apply(C, "penalty")
    assert [e.data["card"] for e in events if e.type == "penalty_reveal"] == ["dudab", "shaman/red"]
    assert any(e.type == "round_end" for e in events) and state.round == 1


def test_d22_shaman_not_on_an_uncalled_dudab_but_after_a_dudab_below_a_jungle() -> None:
    state = make(hands=[["shaman/red", "blue/fur/1"]], columns=[["dudab"], ["blue/club/3"]])
    assert "p shaman/red c1" not in legal(state)
    state = make(
        hands=[["shaman/red", "blue/fur/1"]],
        columns=[{"above": ["red/club/1"], "below": ["dudab"], "jungle": True}],
        options={"use_jungle": True},
    )
    assert "p shaman/red c1" in legal(state)  # the capturing card after a Dudab
