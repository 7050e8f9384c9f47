"""Rules review of apache (issue 5): the rules and decisions of the spec not covered elsewhere.

The worked examples are in ``test_examples.py`` (EX-A1…A11), notation and the claim window in
``test_engine.py``, the resolution function in ``test_resolve.py``, an independent reference
model of §4, §7, §8 and §10 in ``test_reference.py``; this module adds the rest, each test named
after its section. Where each rule of ``rules/apache.md`` is implemented and tested:

======================  ===============================  ==========================================
rule                    code                             tests
======================  ===============================  ==========================================
§1.1, P16 colours       cards.COLOURS                    test_s3_setup_per_player_count
§1.2 the 114 cards      cards.DECK_COUNTS                test_s1_2_*, test_bad_setups_*
§1.4, P1, P2 booty      resolve._take                    test_s1_4_*, EX-A4, reference model
§2, §3.5 neutrals       resolve.Rules.neutral            test_s3_5_*, EX-A7
§3, P12 setup           game.random_setup, from_setup    test_s3_*, test_explicit_setup_*
§4 legality             resolve.claim_is_legal           test_s4_*, EX-A3, reference model
§4 options, P3 Chief    resolve._choices                 EX-A1, EX-A2, test_s4_*, test_chief_*
§5, §6, P6, P15 loop    state._reveal, _answer           EX-A5, EX-A11, test_s5_*, test_claims_*
§5.4, P5 next revealer  resolve_window, _next_window     EX-A1/A2/A3/A6, test_s5_4_*
§5.5, §9 end, scoring   state._next_window, score        EX-A10, test_s5_5_*, test_s9_*
§7, P4 starved          resolve.resolve_window           EX-A2/A6/A9, test_s7_*
§7.1, P7 push order     resolve._take                    EX-A7, test_s7_1_*, test_s8_*
§8 penalty              resolve.resolve_window           EX-A3, test_s8_*, test_s10_1_p8_*
§10.1, P8 war tribute   resolve._take                    EX-A8, test_s10_1_*, test_war_tribute_*
§10.2, P9 marriage      resolve._partner_types           EX-A9, test_marriage_flags, test_s10_2_*
§10.3, P10 sharing      resolve._take                    EX-A7, test_sharing_*, test_s10_3_*
§11.1 arrival order     options.claim_order, actions     test_explicit_arrival_order_*
§11.2 "protect me"      state.claim_is_legal             test_protect_me_helper, EX-A3
§11.3 poll, tie-break   state._close_window              test_equal_reaction_times_*, test_s11_3_*
§11.4 default choice    resolve.default_choice           test_default_choice_*, test_s11_4_*
§11.5 hidden info       state.view, determinize          test_poll_answers_*, test_no_seat_sees_*,
                                                         test_views_never_*, conformance suite
P13 choice timing       state._resolve (choose step)     EX-A1, test_s4_choices_are_asked_*
======================  ===============================  ==========================================

P11 (seeded shuffled deck) is checked by the conformance suite's determinism tests; P14 (the
real-time parameters) belongs to the server, not to the engine.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import cast

import pytest

from campfire.core import (
    CampfireError,
    IllegalActionError,
    Match,
    NotationError,
    visible_events,
)
from campfire.games.apache import GAME, ApacheState
from campfire.games.apache.actions import ApacheAction, ApacheKind, action_index, window_actions
from campfire.games.apache.cards import (
    BUFFALO,
    DECK_COUNTS,
    KIND_NAMES,
    PRAIRIE_DECK,
    TEEPEE,
    booty_of,
    card_name,
)
from campfire.games.apache.options import ApacheOptions
from campfire.games.apache.resolve import Choice, Claim, Rules, claim_choices, default_choice
from tests.compiled_build import skip_compiled

from .tables import names, play, poll, position, resolved

# ----- §1 components -------------------------------------------------------------------------


def test_s1_2_the_114_prairie_cards() -> None:
    counts = Counter(card_name(k) for k in PRAIRIE_DECK)
    assert len(PRAIRIE_DECK) == 114
    for colour in ("red", "yellow", "purple", "green", "blue"):
        assert counts[f"{colour}-chief"] == 2
        assert counts[f"{colour}-warrior"] == 2
        assert counts[f"{colour}-maiden"] == 2
        assert counts[f"{colour}-hunter"] == 3
    assert sum(DECK_COUNTS[:20]) == 45
    assert {k: counts[k] for k in ("buffalo", "totem", "tomahawk", "necklace", "teepee")} == {
        "buffalo": 33,
        "totem": 9,
        "tomahawk": 9,
        "necklace": 9,
        "teepee": 9,
    }
    assert sum(DECK_COUNTS[20:]) == 69
    assert len(KIND_NAMES) == 25


@pytest.mark.parametrize(
    ("type_", "booty"),
    [("hunter", "buffalo"), ("maiden", "necklace"), ("warrior", "tomahawk"), ("chief", "totem")],
)
def test_s1_4_each_type_takes_all_of_its_booty_and_nothing_else(type_: str, booty: str) -> None:
    # every booty kind twice on the table, and a male prisoner for the chief
    table = [f"red-{type_}", "yellow-hunter"]
    for kind in ("buffalo", "necklace", "tomahawk", "totem"):
        table += [kind, kind]
    state = position(2, table, reveal=[booty])
    play(state, (0, "reveal"))
    poll(state, {0: f"claim {type_} 0"})
    assert state.view(None)["phase"] == "reveal"  # one option only: no choice asked
    taken = names(state.piles[0])
    assert taken[:3] == [booty] * 3  # §1.4 (P1): all three face-up cards of the kind
    assert taken[-1] == f"red-{type_}"  # exactly one own Indian, on top (§7.1)
    if type_ == "chief":
        assert taken[3] == "yellow-hunter"  # the prisoner
    assert booty not in names(state.table)
    others = Counter(names(state.table))
    for kind in ("buffalo", "necklace", "tomahawk", "totem"):
        if kind != booty:
            assert others[kind] == 2
    assert [card_name(booty_of(t)) for t in range(4)] == [
        "totem",
        "necklace",
        "tomahawk",
        "buffalo",
    ]


# ----- §3 setup ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "neutral"), [(2, 3), (3, 2), (4, 1), (5, 0)])
def test_s3_setup_per_player_count(players: int, neutral: int) -> None:
    state = GAME.new_game(players, seed=players)
    view = state.view(None)
    assert len(view["neutral_colours"]) == neutral
    assert sorted(view["colours"] + view["neutral_colours"]) == sorted(
        ["red", "yellow", "purple", "green", "blue"]
    )
    assert view["deck_left"] == 114  # §1.2: all 114 cards at every player count
    assert view["piles"] == [[] for _ in range(players)]
    assert view["table"] == []
    assert state.seats_to_act() == (view["start_player"],)


def test_s3_4_p12_start_player_random_by_default_configurable() -> None:
    starts = {GAME.new_game(4, seed=seed).view(None)["start_player"] for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    deck = [card_name(k) for k in PRAIRIE_DECK]
    assert GAME.new_game(3, setup={"deck": deck}).seats_to_act() == (0,)
    assert GAME.new_game(3, setup={"deck": deck, "start_player": 2}).seats_to_act() == (2,)


def test_s3_5_neutral_indians_are_nobodys_own() -> None:
    # green is neutral with two players: a green hunter never makes a claim legal
    state = position(2, ["green-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    assert not any(state.claim_is_legal(s, "hunter") for s in (0, 1))
    events = poll(state, {0: "claim hunter 0"})
    assert resolved(events)[0]["result"] == "penalty"
    assert names(state.table) == ["green-hunter", "buffalo", "buffalo"]  # it stays face up


# ----- §4 claim options --------------------------------------------------------------------


def test_s4_own_indian_precondition_and_booty_precondition() -> None:
    state = position(3, ["red-hunter", "yellow-maiden", "necklace"], reveal=["tomahawk"])
    play(state, (0, "reveal"))
    legal = {
        (s, t)
        for s in range(3)
        for t in ("chief", "maiden", "warrior", "hunter")
        if state.claim_is_legal(s, t)
    }
    # red hunter: no buffalo, no teepee; yellow maiden: necklace; nothing else has its Indian
    assert legal == {(1, "maiden")}


def test_s4_chief_needs_totem_as_well_as_a_male() -> None:
    state = position(2, ["red-chief", "yellow-hunter", "buffalo"], reveal=["necklace"])
    play(state, (0, "reveal"))
    assert not state.claim_is_legal(0, "chief")  # a male but no totem


def test_s4_chief_prisoner_is_chosen_among_all_males_any_colour() -> None:
    table = [
        "red-chief",
        "red-warrior",
        "yellow-hunter",
        "purple-maiden",
        "blue-chief",
        "green-hunter",
    ]
    state = position(3, table, reveal=["totem"])
    play(state, (0, "reveal"))
    poll(state, {0: "claim chief 0"})
    # own colour allowed (P3), neutral allowed (N < 5), never a maiden or a chief
    assert [str(a) for a in state.legal_actions(0)] == [
        "prisoner red-warrior",
        "prisoner yellow-hunter",
        "prisoner green-hunter",
    ]
    play(state, (0, "prisoner yellow-hunter"))
    assert names(state.piles[0]) == ["totem", "yellow-hunter", "red-chief"]
    assert names(state.table) == ["red-warrior", "purple-maiden", "blue-chief", "green-hunter"]


def test_s4_the_chief_may_take_the_teepees_instead() -> None:
    state = position(2, ["red-chief", "yellow-warrior", "teepee", "teepee"], reveal=["totem"])
    play(state, (0, "reveal"))
    poll(state, {0: "claim chief 0"})
    assert [str(a) for a in state.legal_actions(0)] == ["teepees", "prisoner yellow-warrior"]
    play(state, (0, "teepees"))
    assert names(state.piles[0]) == ["teepee", "teepee", "red-chief"]
    assert names(state.table) == ["yellow-warrior", "totem"]


def test_s4_teepees_are_booty_for_every_type() -> None:
    table = ["red-chief", "red-maiden", "red-warrior", "red-hunter", "teepee"]
    state = position(2, table, reveal=["teepee"])
    play(state, (0, "reveal"))
    assert all(state.claim_is_legal(0, t) for t in ("chief", "maiden", "warrior", "hunter"))
    poll(state, {0: "claim maiden 0"})
    assert names(state.piles[0]) == ["teepee", "teepee", "red-maiden"]


def test_s4_choices_are_asked_at_resolution_against_the_remaining_table() -> None:
    # P13: yellow's faster claim takes the buffalo, so red is not asked: teepees remain
    state = position(2, ["red-hunter", "yellow-hunter", "teepee"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    poll(state, {1: "claim hunter 0", 0: "claim hunter 100"})
    assert state.seats_to_act() == (1,)
    events = play(state, (1, "booty"))
    assert [(r["seat"], r["option"]) for r in resolved(events)] == [(1, "normal"), (0, "teepees")]


# ----- §5, §6 turn structure ---------------------------------------------------------------


def test_s5_5_final_window_without_claims_ends_the_game() -> None:
    state = position(2, ["red-hunter", "buffalo"], reveal=["necklace"], deck_left=1)
    play(state, (0, "reveal"))
    assert state.view(None)["last_card"] and state.seats_to_act() == (0, 1)
    events = poll(state, {})
    assert [e.type for e in events][-1] == "game_over"
    assert state.is_terminal() and state.outcome().winners == (0, 1)
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(0, "reveal")


def test_s5_no_claims_before_the_first_reveal_and_one_poll_per_reveal() -> None:
    state = position(2, ["red-hunter", "buffalo"], reveal=["buffalo"])
    before = state.to_position()
    for text in ("claim hunter 0", "pass", "booty"):
        with pytest.raises(IllegalActionError):
            state.apply(0, text)
    assert state.to_position() == before
    play(state, (0, "reveal"))
    poll(state, {0: "claim hunter 0"})
    # the window is resolved: no claim (and no second poll) until the next reveal (P6)
    assert state.view(None)["phase"] == "reveal"
    with pytest.raises(IllegalActionError, match=r"apache rules §4\.2"):
        state.apply(1, "claim hunter 0")


def test_s5_4_last_placer_reveals_next_even_if_starved() -> None:
    state = position(3, ["red-hunter", "yellow-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim hunter 50", 2: "claim maiden 900", 1: "claim hunter 100"})
    results = resolved(events)
    assert [(r["seat"], r["result"]) for r in results] == [
        (0, "won"),
        (1, "starved"),
        (2, "penalty"),
    ]
    assert state.seats_to_act() == (2,)


# ----- §7 resolution -------------------------------------------------------------------------


def test_s7_starved_when_a_faster_chief_took_the_own_indian_as_prisoner() -> None:
    state = position(2, ["red-chief", "yellow-hunter", "totem"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    assert state.claim_is_legal(1, "hunter")
    events = poll(state, {0: "claim chief 0", 1: "claim hunter 50"})
    results = resolved(events)
    assert results[0]["cards"] == ["totem", "yellow-hunter", "red-chief"]
    assert results[1]["result"] == "starved"  # legal when placed: no penalty
    assert "discarded" not in results[1]
    assert names(state.table) == ["buffalo"]
    assert state.discard == []


def test_s7_legality_is_judged_at_placement_not_at_resolution() -> None:
    # yellow's own maiden is face up but no necklace or teepee: illegal when placed, so
    # penalised whatever happens before its turn
    state = position(
        2, ["red-hunter", "buffalo"], piles=[[], ["totem", "necklace"]], reveal=["yellow-maiden"]
    )
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim hunter 0", 1: "claim maiden 50"})
    assert [r["result"] for r in resolved(events)] == ["won", "penalty"]
    assert state.piles[1] == []


def test_s7_1_push_order_booty_prisoner_allies_own() -> None:
    state = position(
        2,
        ["red-chief", "blue-chief", "totem", "purple-hunter", "totem", "green-chief"],
        reveal=["yellow-warrior"],
        colours=["red", "yellow"],
        options={"sharing": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim chief 0"})
    play(state, (0, "prisoner yellow-warrior"))
    assert names(state.piles[0]) == [
        "totem",
        "totem",
        "yellow-warrior",
        "blue-chief",
        "green-chief",
        "red-chief",
    ]
    assert names(state.table) == ["purple-hunter"]


# ----- §8 penalty ----------------------------------------------------------------------------


def test_s8_penalty_discards_the_own_indian_first_then_the_next_card() -> None:
    state = position(2, ["red-hunter", "buffalo"], piles=[["necklace"], []], reveal=["buffalo"])
    play(state, (0, "reveal"))
    poll(state, {0: "claim hunter 0"})
    assert names(state.piles[0]) == ["necklace", "buffalo", "buffalo", "red-hunter"]
    play(state, (0, "reveal"))  # red placed last
    events = poll(state, {0: "claim warrior 0"})
    assert resolved(events)[0]["discarded"] == ["red-hunter", "buffalo"]
    assert names(state.piles[0]) == ["necklace", "buffalo"]
    assert state.view(1)["discarded"] == ["red-hunter", "buffalo"]


# ----- §9 scoring ----------------------------------------------------------------------------


def test_s9_every_card_scores_one_and_the_table_is_ignored() -> None:
    state = position(
        3,
        ["red-hunter", "buffalo", "teepee", "teepee"],
        piles=[["buffalo", "yellow-chief"], ["totem", "totem", "totem"], []],
        reveal=["necklace"],
        deck_left=1,
    )
    play(state, (0, "reveal"))
    poll(state, {})
    outcome = state.outcome()
    assert outcome.scores == (2, 3, 0)
    assert outcome.winners == (1,)
    assert outcome.ranks == (2, 1, 3)


# ----- §10 variants, and their defaults ----------------------------------------------------


def test_s10_variants_are_off_by_default() -> None:
    # war tribute off: a warrior takes the tomahawks only
    state = position(2, ["red-warrior"], piles=[[], ["buffalo"] * 3], reveal=["tomahawk"])
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim warrior 0"})
    assert "tribute" not in resolved(events)[0]
    assert len(state.piles[1]) == 3
    # marriage off: a teepee and a partner but no marry choice
    state = position(2, ["red-maiden", "yellow-hunter", "necklace"], reveal=["teepee"])
    play(state, (0, "reveal"))
    poll(state, {0: "claim maiden 0"})
    assert [str(a) for a in state.legal_actions(0)] == ["booty", "teepees"]
    # sharing off: neutral Indians of the played type stay on the table
    state = position(2, ["red-maiden", "blue-maiden", "green-maiden"], reveal=["necklace"])
    play(state, (0, "reveal"))
    poll(state, {0: "claim maiden 0"})
    assert names(state.piles[0]) == ["necklace", "red-maiden"]
    assert names(state.table) == ["blue-maiden", "green-maiden"]


def test_s10_1_p8_tribute_is_paid_at_once_before_later_claims() -> None:
    # yellow pays his buffalo to red's warrior first, then his illegal claim costs the rest
    state = position(
        2,
        ["red-warrior", "tomahawk"],
        piles=[[], ["buffalo", "necklace", "totem", "teepee"]],
        reveal=["tomahawk"],
        options={"war_tribute": True},
    )
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim warrior 0", 1: "claim chief 50"})
    results = resolved(events)
    assert results[0]["tribute"] == [[1, 1]]
    assert results[1]["discarded"] == ["teepee", "totem"]
    assert names(state.piles[1]) == ["necklace"]
    assert names(state.piles[0]) == ["buffalo", "tomahawk", "tomahawk", "red-warrior"]


def test_s10_1_tribute_for_the_warriors_owner_comes_from_every_opponent() -> None:
    state = position(
        4,
        ["purple-warrior", "tomahawk"],
        piles=[["buffalo", "buffalo"], ["totem"], [], ["buffalo", "teepee"]],
        reveal=["teepee"],
        options={"war_tribute": True},
    )
    play(state, (0, "reveal"))
    poll(state, {2: "claim warrior 0"})
    events = play(state, (2, "booty"))
    assert resolved(events)[0]["tribute"] == [[3, 1], [0, 1], [1, 0]]
    assert names(state.piles[2]) == ["buffalo", "buffalo", "tomahawk", "purple-warrior"]
    assert names(state.piles[0]) == ["buffalo"]
    assert names(state.piles[3]) == ["teepee"]


def test_s10_1_tribute_not_triggered_by_a_warriors_marriage() -> None:
    state = position(
        2,
        ["red-warrior", "tomahawk", "yellow-maiden"],
        piles=[[], ["buffalo", "buffalo"]],
        reveal=["teepee"],
        options={"war_tribute": True, "marriage": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim warrior 0"})
    assert [str(a) for a in state.legal_actions(0)] == [
        "booty",
        "teepees",
        "marry yellow-maiden",
    ]
    events = play(state, (0, "marry yellow-maiden"))
    assert "tribute" not in resolved(events)[0]
    assert names(state.piles[0]) == ["teepee", "yellow-maiden", "red-warrior"]
    assert names(state.table) == ["tomahawk"]  # P9: marriage excludes the normal booty
    assert len(state.piles[1]) == 2


def test_s10_2_marriage_needs_a_teepee() -> None:
    state = position(
        2, ["red-maiden", "yellow-hunter"], reveal=["necklace"], options={"marriage": True}
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim maiden 0"})
    assert names(state.piles[0]) == ["necklace", "red-maiden"]  # no choice: booty only
    assert names(state.table) == ["yellow-hunter"]


def test_s10_2_a_male_claimant_marries_a_maiden_of_any_colour() -> None:
    state = position(
        2,
        ["red-hunter", "red-maiden", "yellow-maiden", "blue-maiden", "teepee"],
        reveal=["teepee"],
        options={"marriage": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim hunter 0"})
    assert [str(a) for a in state.legal_actions(0)] == [
        "teepees",
        "marry red-maiden",
        "marry yellow-maiden",
        "marry blue-maiden",
    ]
    play(state, (0, "marry red-maiden"))
    assert names(state.piles[0]) == ["teepee", "teepee", "red-maiden", "red-hunter"]


def test_s10_2_p9_no_sharing_allies_in_a_marriage() -> None:
    state = position(
        2,
        ["red-maiden", "blue-maiden", "green-hunter", "teepee"],
        reveal=["teepee"],
        options={"marriage": True, "sharing": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim maiden 0"})
    play(state, (0, "marry green-hunter"))
    assert names(state.piles[0]) == ["teepee", "teepee", "green-hunter", "red-maiden"]
    assert names(state.table) == ["blue-maiden"]
    # the same claim with the teepees option takes the neutral maiden as an ally
    state = position(
        2,
        ["red-maiden", "blue-maiden", "green-hunter", "teepee"],
        reveal=["teepee"],
        options={"marriage": True, "sharing": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim maiden 0"})
    play(state, (0, "teepees"))
    assert names(state.piles[0]) == ["teepee", "teepee", "blue-maiden", "red-maiden"]


def test_s10_3_sharing_joins_a_normal_claim_of_the_played_type_only() -> None:
    state = position(
        3,
        ["red-hunter", "blue-hunter", "blue-hunter", "green-hunter", "blue-warrior"],
        colours=["red", "yellow", "purple"],
        reveal=["buffalo"],
        options={"sharing": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim hunter 0"})
    assert names(state.piles[0]) == [
        "buffalo",
        "blue-hunter",
        "blue-hunter",
        "green-hunter",
        "red-hunter",
    ]
    assert names(state.table) == ["blue-warrior"]


def test_s10_3_sharing_never_takes_another_players_indians() -> None:
    state = position(
        3, ["red-hunter", "yellow-hunter"], reveal=["buffalo"], options={"sharing": True}
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim hunter 0"})
    assert names(state.table) == ["yellow-hunter"]


# ----- §11 the deterministic claim model ---------------------------------------------------


def test_s11_3_a_single_claim_draws_no_tiebreak_and_several_draw_one() -> None:
    state = position(3, ["red-hunter", "yellow-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    rng_before = state.rng.to_json()
    events = poll(state, {0: "claim hunter 0"})
    closed = next(e for e in events if e.type == "window_closed")
    assert closed.data["tiebreak"] is None and state.rng.to_json() == rng_before
    state = position(3, ["red-hunter", "yellow-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim hunter 100", 1: "claim hunter 0"})
    closed = next(e for e in events if e.type == "window_closed")
    assert sorted(closed.data["tiebreak"]) == [0, 1, 2]
    assert [c["seat"] for c in closed.data["queue"]] == [1, 0]  # reaction time first


def test_s11_4_default_choice_ties_prefer_normal_over_marriage() -> None:
    rules = Rules(colours=(0, 1), marriage=True)
    table = tuple(
        KIND_NAMES.index(k) for k in ("red-hunter", "buffalo", "buffalo", "teepee", "yellow-maiden")
    )
    claim = Claim(0, 3, True)
    choices = claim_choices(table, 0, 3, rules)
    # booty: hunter + 2 buffalo = 3 cards; marriage: hunter + maiden + teepee = 3; teepees: 2
    assert default_choice(claim, choices, table, ((), ()), rules) == Choice(0)
    table = (*table, TEEPEE)  # now the marriage moves 4
    choices = claim_choices(table, 0, 3, rules)
    assert default_choice(claim, choices, table, ((), ()), rules) == Choice(
        2, KIND_NAMES.index("yellow-maiden")
    )


def test_s11_4_default_choice_counts_the_war_tribute() -> None:
    rules = Rules(colours=(0, 1, 2), war_tribute=True)
    table = tuple(KIND_NAMES.index(k) for k in ("red-warrior", "tomahawk", "teepee", "teepee"))
    claim = Claim(0, 2, True)
    choices = claim_choices(table, 0, 2, rules)
    poor: tuple[tuple[int, ...], ...] = ((), (), ())
    rich = ((), (BUFFALO,), (BUFFALO,))
    assert default_choice(claim, choices, table, poor, rules) == Choice(1)  # 3 cards beat 2
    assert default_choice(claim, choices, table, rich, rules) == Choice(0)  # 2 + 2 tribute


# ----- hidden information and illegal input ------------------------------------------------


@skip_compiled("campfire.games.apache.actions")
def test_hand_built_actions_outside_the_notation_are_rejected_unchanged() -> None:
    state = position(2, ["red-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    before = state.to_position()
    # built by hand from plain strings, as a careless caller would (cast: for the type checker)
    for action in (
        ApacheAction(cast(ApacheKind, "claim"), 4, 100),  # type out of range
        ApacheAction(cast(ApacheKind, "claim"), 3, 37),  # off the 50 ms grid
        ApacheAction(cast(ApacheKind, "claim"), 3, 5000),
        ApacheAction(cast(ApacheKind, "prisoner"), card=0),  # a chief as prisoner
        ApacheAction(cast(ApacheKind, "jump")),
    ):
        with pytest.raises(NotationError, match="is not an Apache action"):
            state.apply(0, action)
        with pytest.raises(NotationError):
            action_index(action)
        assert state.to_position() == before
    # an equal action built by hand is the same move
    state.apply(0, ApacheAction(cast(ApacheKind, "claim"), 3, 100))
    assert state.view(0)["answers"][0] == "claim hunter 100"


def test_bad_seats_are_clear_errors() -> None:
    state = position(2, ["red-hunter", "buffalo"], reveal=["buffalo"])
    for seat in (-1, 2, 9):
        with pytest.raises(CampfireError):
            state.apply(seat, "reveal")
    play(state, (0, "reveal"))
    before = state.to_position()
    for seat in (-1, 2, 9):
        with pytest.raises(IllegalActionError):
            state.apply(seat, "pass")
    assert state.to_position() == before


def test_window_actions_reject_a_second_claim_and_unknown_seats() -> None:
    with pytest.raises(IllegalActionError, match=r"apache rules §4\.3"):
        window_actions([(0, "hunter"), (0, "maiden")], players=2)
    with pytest.raises(NotationError, match="seat"):
        window_actions([(2, "hunter")], players=2)
    with pytest.raises(NotationError, match="type"):
        window_actions([(0, "elk")], players=2)


def test_no_seat_sees_another_seats_poll_answer_before_the_window_closes() -> None:
    match = Match(GAME, 3, seed=12)
    state = match.state
    assert isinstance(state, ApacheState)
    rng = random.Random(12)
    seen: list[list[dict[str, object]]] = [[], [], []]
    viewer: int | None
    while not state.is_terminal() and state.view(None)["window"] < 40:
        seat = rng.choice(state.seats_to_act())
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        events = match.play(seat, action)
        for viewer in range(3):
            for event in visible_events(events, viewer):
                if event.type == "answer":
                    # only the answering seat receives its answer before the poll closes
                    assert event.data["seat"] == viewer
                seen[viewer].append(event.to_json())
        if state.view(None)["phase"] == "claim":
            for viewer in (None, 0, 1, 2):
                view = state.view(viewer)
                for other in range(3):
                    if other != viewer:
                        assert view["answers"][other] in (None, "hidden")
                lines = state.render(viewer).splitlines()
                for other in range(3):
                    line = next(x for x in lines if x[2:].startswith(f"seat {other} ("))
                    if other != viewer:  # the presenter's player line: "poll answered" at most
                        assert "claims with" not in line and "passes" not in line
                json.dumps(view)
    assert any(e["type"] == "window_closed" for e in seen[0])


def test_views_never_reveal_the_face_down_order() -> None:
    state = GAME.new_game(3, seed=3)
    play(state, (state.seats_to_act()[0], "reveal"))
    other = state.clone()
    rest = list(other.deck[other.deck_pos :])
    random.Random(1).shuffle(rest)
    other.deck = other.deck[: other.deck_pos] + tuple(rest)
    for seat in (None, 0, 1, 2):
        assert other.view(seat) == state.view(seat)
        assert other.render(seat) == state.render(seat)


def test_determinize_keeps_the_seat_knowledge_and_rng_is_not_shared() -> None:
    state = GAME.new_game(2, seed=30)
    play(state, (state.seats_to_act()[0], "reveal"))
    det = state.determinize(0, random.Random(5))
    assert det.rng.to_json() != state.rng.to_json()  # future tie-breaks are not known
    assert sorted(det.deck) == sorted(state.deck)
    assert det.deck[: det.deck_pos] == state.deck[: state.deck_pos]


def test_options_defaults_are_the_base_rules_and_bad_options_are_clear_errors() -> None:
    options = GAME.options()
    assert isinstance(options, ApacheOptions)
    assert (options.war_tribute, options.marriage, options.sharing) == (False, False, False)
    assert (options.marriage_chief_is_male, options.marriage_allow_neutral_spouse) == (True, True)
    assert options.claim_order == "reaction"
    for bad, message in (
        ({"claim_order": "fastest"}, "reaction, arrival"),
        ({"sharing": "maybe"}, "true or false"),
        ({"tribute": True}, "war_tribute"),
    ):
        with pytest.raises(CampfireError, match=message):
            GAME.new_game(2, bad, seed=1)
