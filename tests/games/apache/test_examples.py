"""The worked examples EX-A1 … EX-A11 of apache §12, each with an explicit table."""

from __future__ import annotations

import pytest

from campfire.core import Event, IllegalActionError
from campfire.games.apache import ApacheState

from .tables import names, play, poll, position, resolved


def _phase(state: ApacheState) -> str:
    phase: str = state.view(None)["phase"]
    return phase


def test_ex_a1_either_teepee_or_buffalo_not_both() -> None:
    state = position(2, ["red-hunter", "teepee"], reveal=["buffalo"], revealer=1)
    play(state, (1, "reveal"))
    poll(state, {0: "claim hunter 300"})
    # apache §4: NORMAL and TEEPEES are exclusive; red chooses at resolution
    assert _phase(state) == "choose"
    assert state.seats_to_act() == (0,)
    assert [str(a) for a in state.legal_actions(0)] == ["booty", "teepees"]
    for choice, taken, left in (("booty", "buffalo", "teepee"), ("teepees", "teepee", "buffalo")):
        branch = state.clone()
        play(branch, (0, choice))
        assert names(branch.piles[0]) == [taken, "red-hunter"]
        assert names(branch.table) == [left]
        # the claimant takes his hand card back and, as last placer, reveals next
        assert _phase(branch) == "reveal"
        assert branch.seats_to_act() == (0,)


def test_ex_a2_red_chief_example() -> None:
    state = position(
        3,
        [
            "yellow-hunter",
            "purple-hunter",
            "green-maiden",
            "totem",
            "totem",
            "totem",
            "buffalo",
            "teepee",
        ],
        colours=["yellow", "purple", "red"],
        reveal=["red-chief"],
        revealer=0,
    )
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim hunter 100", 1: "claim hunter 200", 2: "claim chief 300"})
    closed = next(e for e in events if e.type == "window_closed")
    assert [(c["seat"], c["type"], c["legal"]) for c in closed.data["queue"]] == [
        (0, "hunter", True),
        (1, "hunter", True),
        (2, "chief", True),  # totems and two male Indians face up at placement
    ]
    # 1. yellow may take the buffalo or the teepee: he takes the buffalo
    assert [str(a) for a in state.legal_actions(0)] == ["booty", "teepees"]
    events = play(state, (0, "booty"))
    results = resolved(events)
    assert [r["result"] for r in results] == ["won", "won", "starved"]
    assert names(state.piles[0]) == ["buffalo", "yellow-hunter"]
    # 2. purple: no buffalo left, the teepee option is his only one
    assert results[1]["option"] == "teepees"
    assert names(state.piles[1]) == ["teepee", "purple-hunter"]
    # 3. red: totems remain but no capturable male, no teepee: nothing, no penalty
    assert state.piles[2] == []
    assert sorted(names(state.table)) == ["green-maiden", "red-chief", "totem", "totem", "totem"]
    assert state.discard == []
    assert _phase(state) == "reveal"
    assert state.seats_to_act() == (2,)  # red placed last


@pytest.mark.parametrize(("size", "after"), [(5, 3), (1, 0), (0, 0)])
def test_ex_a3_penalty_with_a_short_pile(size: int, after: int) -> None:
    pile = ["buffalo", "necklace", "teepee", "tomahawk", "yellow-maiden"][:size]
    state = position(3, ["buffalo"], piles=[pile, ["totem"], []], reveal=["necklace"], revealer=1)
    play(state, (1, "reveal"))
    assert not state.claim_is_legal(0, "warrior")  # no red warrior face up
    events = poll(state, {0: "claim warrior 0"})
    result = resolved(events)[0]
    assert result["result"] == "penalty"
    # apache §8: the top two cards leave the game, the rest stays in order
    assert names(state.piles[0]) == pile[:after]
    assert result["discarded"] == list(reversed(pile[after:]))
    assert names(state.discard) == list(reversed(pile[after:]))
    # the penalised placer was the last one: he reveals next
    assert state.seats_to_act() == (0,)


def test_ex_a3_penalty_without_booty_and_last_placer_reveals() -> None:
    # red's own warrior is face up, but no tomahawk and no teepee: illegal, penalised
    state = position(
        3,
        ["red-warrior", "buffalo"],
        piles=[["totem", "necklace", "buffalo"], ["yellow-chief"], []],
        reveal=["yellow-hunter"],
    )
    play(state, (0, "reveal"))
    assert not state.claim_is_legal(0, "warrior")
    assert state.claim_is_legal(1, "hunter")
    events = poll(state, {1: "claim hunter 0", 0: "claim warrior 500"})
    results = resolved(events)
    assert [(r["seat"], r["result"]) for r in results] == [(1, "won"), (0, "penalty")]
    assert names(state.piles[0]) == ["totem"]
    assert names(state.piles[1]) == ["yellow-chief", "buffalo", "yellow-hunter"]
    assert state.seats_to_act() == (0,)


def test_ex_a4_identical_own_indians() -> None:
    state = position(2, ["red-hunter", "red-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim hunter 250"})
    assert resolved(events)[0]["cards"] == ["buffalo", "buffalo", "red-hunter"]
    assert len(state.piles[0]) == 3
    assert names(state.table) == ["red-hunter"]


def test_ex_a5_one_hand_card_per_reveal() -> None:
    state = position(3, ["red-maiden", "necklace"], reveal=["red-warrior"])
    play(state, (0, "reveal"), (0, "claim maiden 200"))
    before = state.to_position()
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "claim warrior 100")
    assert info.value.rule == "apache rules §4.3"
    assert "one hand card per reveal" in str(info.value)
    assert state.to_position() == before  # rejected: not queued, no penalty
    assert state.seats_to_act() == (1, 2)
    events = poll_rest(state)
    assert [(r["seat"], r["type"], r["result"]) for r in resolved(events)] == [(0, "maiden", "won")]


def poll_rest(state: ApacheState) -> list[Event]:
    return play(state, *((s, "pass") for s in state.seats_to_act()))


def test_ex_a6_priority_and_starvation() -> None:
    state = position(2, ["red-hunter", "yellow-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    events = poll(state, {1: "claim hunter 150", 0: "claim hunter 400"})
    results = resolved(events)
    assert [(r["seat"], r["result"]) for r in results] == [(1, "won"), (0, "starved")]
    assert names(state.piles[1]) == ["buffalo", "buffalo", "yellow-hunter"]
    assert state.piles[0] == [] and state.discard == []  # no penalty
    assert state.seats_to_act() == (0,)  # red placed last


def test_ex_a7_sharing_with_neutral_indians() -> None:
    state = position(
        3,
        [
            "blue-chief",
            "yellow-chief",
            "yellow-chief",
            "green-warrior",
            "blue-warrior",
            "totem",
            "totem",
        ],
        colours=["red", "green", "purple"],
        reveal=["red-chief"],
        options={"sharing": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim chief 300"})
    assert [str(a) for a in state.legal_actions(0)] == [
        "prisoner green-warrior",
        "prisoner blue-warrior",
    ]
    play(state, (0, "prisoner green-warrior"))
    assert names(state.piles[0]) == [
        "totem",
        "totem",
        "green-warrior",
        "blue-chief",
        "yellow-chief",
        "yellow-chief",
        "red-chief",
    ]
    # neutrals join only the played type: the neutral blue warrior stays
    assert names(state.table) == ["blue-warrior"]


def test_ex_a8a_war_tribute_three_players() -> None:
    yellow = ["buffalo", "buffalo", "buffalo", "yellow-hunter"]
    state = position(
        3,
        ["red-warrior", "tomahawk"],
        piles=[["necklace"], yellow, []],
        reveal=["tomahawk"],
        options={"war_tribute": True},
    )
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim warrior 0"})
    result = resolved(events)[0]
    assert result["cards"] == ["tomahawk", "tomahawk", "red-warrior"]
    assert result["tribute"] == [[1, 1], [2, 0]]
    # red +3 from the table, +1 buffalo of tribute (at the bottom of his pile, §7.1)
    assert names(state.piles[0]) == ["buffalo", "necklace", "tomahawk", "tomahawk", "red-warrior"]
    assert names(state.piles[1]) == ["buffalo", "buffalo", "yellow-hunter"]
    assert state.piles[2] == []


@pytest.mark.parametrize(("held", "given"), [(5, 2), (1, 1), (0, 0)])
def test_ex_a8b_war_tribute_two_players(held: int, given: int) -> None:
    state = position(
        2,
        ["red-warrior", "tomahawk"],
        piles=[[], ["buffalo"] * held + ["yellow-chief"]],
        reveal=["necklace"],
        options={"war_tribute": True},
    )
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim warrior 50"})
    assert resolved(events)[0]["tribute"] == [[1, given]]
    assert len(state.piles[0]) == 2 + given
    assert state.piles[1].count(23) == held - given  # 23 = buffalo


def test_ex_a8c_no_tribute_for_the_teepee_option() -> None:
    state = position(
        3,
        ["red-warrior", "tomahawk"],
        piles=[[], ["buffalo", "buffalo"], ["buffalo"]],
        reveal=["teepee"],
        options={"war_tribute": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim warrior 0"})
    events = play(state, (0, "teepees"))
    result = resolved(events)[0]
    assert result["option"] == "teepees" and "tribute" not in result
    assert names(state.piles[0]) == ["teepee", "red-warrior"]
    assert len(state.piles[1]) == 2 and len(state.piles[2]) == 1


def test_ex_a9_marriage() -> None:
    state = position(
        4,
        ["teepee", "red-maiden", "green-hunter"],
        reveal=["teepee"],
        options={"marriage": True},
    )
    play(state, (0, "reveal"))
    assert state.claim_is_legal(3, "hunter") and state.claim_is_legal(0, "maiden")
    poll(state, {3: "claim hunter 100", 0: "claim maiden 200"})
    assert state.seats_to_act() == (3,)
    assert [str(a) for a in state.legal_actions(3)] == ["teepees", "marry red-maiden"]
    events = play(state, (3, "marry red-maiden"))
    results = resolved(events)
    assert results[0]["cards"] == ["teepee", "teepee", "red-maiden", "green-hunter"]
    assert len(state.piles[3]) == 4
    # red's claim was legal at placement: starved, no penalty
    assert results[1]["result"] == "starved"
    assert state.piles[0] == [] and state.discard == []
    assert state.table == []


def test_ex_a10_end_of_game_shared_victory() -> None:
    state = position(
        3,
        ["red-hunter", "purple-maiden", "necklace"],
        piles=[["totem"] * 9 + ["necklace"], ["buffalo"] * 12, ["teepee"] * 9],
        reveal=["buffalo"],
        deck_left=1,
    )
    play(state, (0, "reveal"))
    assert state.view(None)["last_card"] is True
    poll(state, {0: "claim hunter 0"})
    # the final window was resolved, then the game ends, though purple could still claim
    assert state.is_terminal()
    assert state.seats_to_act() == ()
    assert state.claim_is_legal(2, "maiden") is False
    outcome = state.outcome()
    assert outcome.scores == (12, 12, 9)
    assert outcome.winners == (0, 1)
    assert outcome.ranks == (1, 1, 3)
    assert names(state.table) == ["purple-maiden", "necklace"]


@pytest.mark.parametrize(("players", "revealer", "after"), [(3, 0, 1), (4, 3, 0)])
def test_ex_a11_nobody_claims(players: int, revealer: int, after: int) -> None:
    state = position(players, ["buffalo"], reveal=["red-hunter"], revealer=revealer)
    play(state, (revealer, "reveal"))
    events = poll(state, {})
    assert not resolved(events)
    assert _phase(state) == "reveal"
    assert state.seats_to_act() == (after,)  # the player to the revealer's left
    assert names(state.table) == ["buffalo", "red-hunter"]
