"""Apache engine: notation, setup, claim ordering, arrival replay, hidden information."""

from __future__ import annotations

import json
import random
from typing import cast

import pytest

from campfire.core import (
    GameRng,
    IllegalActionError,
    Match,
    NotationError,
    PositionError,
    Record,
    SetupError,
    replay,
)
from campfire.games.apache import GAME, ApacheState
from campfire.games.apache.actions import (
    NUM_ACTIONS,
    ApacheAction,
    action_from_index,
    parse_action,
    window_actions,
)
from campfire.games.apache.cards import PRAIRIE_DECK, card_name

from .tables import names, play, poll, position, resolved

# ----- notation ------------------------------------------------------------------------------


def test_action_space_and_notation() -> None:
    assert NUM_ACTIONS == 202
    assert [str(action_from_index(i)) for i in (0, 1, 2, 6, 46, 170, 171, 172, 201)] == [
        "reveal",
        "pass",
        "claim chief",
        "claim chief 0",
        "claim chief 2000",
        "booty",
        "teepees",
        "prisoner red-warrior",
        "marry blue-hunter",
    ]
    assert parse_action("CLAIM  H 1500") == parse_action("claim hunter 1500")
    assert parse_action("claim maiden").index == 3


@pytest.mark.parametrize(
    "text",
    [
        "claim hunter 349",
        "claim hunter 2050",
        "claim hunter -50",
        "claim elk 50",
        "prisoner red-maiden",
        "marry buffalo",
        "reveal now",
        "",
    ],
)
def test_bad_notation_says_what_is_allowed(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_window_actions_write_an_arrival_log() -> None:
    moves = window_actions([(2, "hunter"), (0, "maiden")], players=3)
    assert [(s, str(a)) for s, a in moves] == [
        (2, "claim hunter"),
        (0, "claim maiden"),
        (1, "pass"),
    ]


# ----- setup ---------------------------------------------------------------------------------


def _deck() -> list[str]:
    return [card_name(k) for k in PRAIRIE_DECK]


def test_explicit_setup_reveals_in_deck_order() -> None:
    deck = _deck()
    deck.reverse()  # teepees first
    state = GAME.new_game(
        3, setup={"colours": ["blue", "red", "green"], "start_player": 2, "deck": deck}
    )
    assert state.seats_to_act() == (2,)
    assert state.view(0)["neutral_colours"] == ["yellow", "purple"]
    play(state, (2, "reveal"))
    assert names(state.table) == ["teepee"]
    assert state.view(None)["deck_left"] == 113


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"deck": _deck()[:-1]}, "114 prairie cards"),
        ({"deck": [*_deck()[:-1], "buffalo"]}, "buffalo, not 34"),
        ({"deck": _deck(), "colours": ["red", "red"]}, "different colour"),
        ({"deck": _deck(), "colours": ["red", "pink"]}, "unknown colour"),
        ({"deck": _deck(), "start_player": 2}, "start_player"),
        ({"deck": _deck(), "seats": 2}, "unknown setup field"),
    ],
)
def test_bad_setups_are_clear_errors(setup: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        GAME.new_game(2, setup=setup)


def test_position_with_missing_cards_is_rejected() -> None:
    data = GAME.new_game(2, seed=1).to_position()
    data["state"]["deck"].pop()
    with pytest.raises(PositionError, match="114 prairie cards"):
        GAME.state_from_position(data)


# ----- the claim window ----------------------------------------------------------------------


def test_claims_outside_a_window_are_errors() -> None:
    state = position(2, ["red-hunter", "buffalo", "teepee"], reveal=["buffalo"])
    before = state.to_position()
    with pytest.raises(IllegalActionError) as info:
        state.apply(1, "claim hunter 0")
    assert info.value.rule == "apache rules §4.2"
    with pytest.raises(IllegalActionError, match="reveals the next card"):
        state.apply(1, "reveal")
    assert state.to_position() == before
    play(state, (0, "reveal"))
    with pytest.raises(IllegalActionError, match="orders claims by reaction time"):
        state.apply(0, "claim hunter")
    with pytest.raises(IllegalActionError, match="every seat answers"):
        state.apply(0, "reveal")
    poll(state, {0: "claim hunter 100"})
    assert state.view(None)["phase"] == "choose"
    before = state.to_position()
    with pytest.raises(IllegalActionError, match=r"apache rules §4\.2"):
        state.apply(1, "claim hunter 0")
    with pytest.raises(IllegalActionError, match="seat 0 chooses"):
        state.apply(1, "booty")
    with pytest.raises(IllegalActionError, match="choose one of: booty, teepees"):
        state.apply(0, "prisoner red-hunter")
    assert state.to_position() == before


def test_arrival_mode_refuses_reaction_times() -> None:
    state = position(2, ["red-hunter"], reveal=["buffalo"], options={"claim_order": "arrival"})
    play(state, (0, "reveal"))
    assert [str(a) for a in state.legal_actions(1)] == [
        "pass",
        "claim chief",
        "claim maiden",
        "claim warrior",
        "claim hunter",
    ]
    with pytest.raises(IllegalActionError, match="orders claims by arrival"):
        state.apply(0, "claim hunter 0")


def test_equal_reaction_times_use_the_logged_seeded_tiebreak() -> None:
    orders = set()
    for seed in range(12):
        state = position(4, ["red-hunter", "yellow-hunter", "buffalo"], reveal=["buffalo"])
        state.rng.seed(seed)
        play(state, (0, "reveal"))
        events = poll(state, {s: "claim hunter 200" for s in range(4)})
        closed = next(e for e in events if e.type == "window_closed").data
        order = [c["seat"] for c in closed["queue"]]
        tiebreak = closed["tiebreak"]
        assert order == [s for s in tiebreak if s in order]
        winner = order[0] if order[0] in (0, 1) else next(s for s in order if s in (0, 1))
        assert len(state.piles[winner]) == 3
        assert state.seats_to_act() == (order[-1],)  # the last in the queue reveals
        orders.add(tuple(order))
    assert len(orders) > 1


def test_reaction_time_decides_before_the_tiebreak() -> None:
    state = position(3, ["red-hunter", "yellow-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim hunter 650", 1: "claim hunter 600", 2: "claim chief 650"})
    order = [c["seat"] for c in next(e for e in events if e.type == "window_closed").data["queue"]]
    assert order[0] == 1
    assert names(state.piles[1]) == ["buffalo", "buffalo", "yellow-hunter"]


def _play_reaction_game(seed: int, players: int) -> tuple[Match, list[list[tuple[int, str]]]]:
    """A seeded game with plausible claims; returns it and, per window, its final queue."""
    match = Match(GAME, players, seed=seed)
    rng = random.Random(seed)
    queues: list[list[tuple[int, str]]] = []
    state = match.state
    assert isinstance(state, ApacheState)
    while not state.is_terminal():
        seats = state.seats_to_act()
        seat = seats[0]
        phase = state.view(None)["phase"]
        if phase == "claim":
            kinds = [
                t for t in ("chief", "maiden", "warrior", "hunter") if state.claim_is_legal(seat, t)
            ]
            if kinds and rng.random() < 0.8:
                text = f"claim {rng.choice(kinds)} {rng.choice([0, 50, 100, 100, 150])}"
            elif rng.random() < 0.05:
                text = "claim warrior 300"  # sometimes an illegal one
            else:
                text = "pass"
        else:
            text = str(rng.choice(state.legal_actions(seat)))
        events = match.play(seat, text)
        for e in events:
            if e.type == "window_closed":
                queues.append([(c["seat"], c["type"]) for c in e.data["queue"]])
    return match, queues


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 5)])
def test_explicit_arrival_order_resolves_like_the_poll(seed: int, players: int) -> None:
    poll_match, queues = _play_reaction_game(seed, players)
    setup = GAME.random_setup(players, GAME.options(), GameRng(seed))
    arrival = Match(GAME, players, {"claim_order": "arrival"}, setup=setup)
    played = cast(list[tuple[int, ApacheAction]], poll_match.actions)
    choices = [(s, a) for s, a in played if a.kind not in ("claim", "pass", "reveal")]
    windows = iter(queues)
    state = arrival.state
    assert isinstance(state, ApacheState)
    while not state.is_terminal():
        phase = state.view(None)["phase"]
        if phase == "reveal":
            arrival.play(state.seats_to_act()[0], "reveal")
        elif phase == "claim":
            for s, action in window_actions(next(windows), players):
                arrival.play(s, action)
        else:
            s, action = choices.pop(0)
            arrival.play(s, action)
    assert not choices
    expected = poll_match.state
    assert isinstance(expected, ApacheState)
    assert state.piles == expected.piles
    assert state.table == expected.table
    assert state.discard == expected.discard
    assert state.outcome() == expected.outcome()
    # the arrival record replays bit-exactly from its explicit setup
    record = Record.from_json(json.loads(arrival.record().dumps()))
    assert record.setup is not None and record.options == {"claim_order": "arrival"}
    again = replay(record)
    assert again.state.position_equal(state)


def test_arrival_claims_are_public_and_ordered_as_applied() -> None:
    state = position(
        3,
        ["red-hunter", "yellow-hunter", "buffalo"],
        reveal=["buffalo"],
        options={"claim_order": "arrival"},
    )
    play(state, (0, "reveal"), (1, "claim hunter"))
    assert state.view(2)["answers"] == [None, "claim hunter", None]
    events = play(state, (0, "claim hunter"), (2, "pass"))
    assert [(r["seat"], r["result"]) for r in resolved(events)] == [(1, "won"), (0, "starved")]
    assert state.seats_to_act() == (0,)


# ----- hidden information --------------------------------------------------------------------


def test_poll_answers_stay_hidden_until_the_poll_closes() -> None:
    state = position(3, ["red-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    events = play(state, (1, "claim chief 50"))
    assert [(e.type, e.to) for e in events] == [("answered", None), ("answer", frozenset({1}))]
    assert state.view(1)["answers"] == [None, "claim chief 50", None]
    assert state.view(0)["answers"] == [None, "hidden", None]
    assert state.view(None)["answers"] == [None, "hidden", None]
    assert "claim chief" not in json.dumps(state.view(0)) + state.render(0)
    rng = random.Random(4)
    seen = set()
    for _ in range(30):
        det = state.determinize(0, rng)
        assert det.view(0) == state.view(0)
        seen.add(json.dumps(det.to_position()["state"]["answers"]))
        assert det.determinize(1, rng).view(1) == det.view(1)
    assert len(seen) > 1
    own = state.determinize(1, rng)
    assert own.to_position()["state"]["answers"][1] == "claim chief 50"


def test_determinize_reshuffles_only_the_face_down_cards() -> None:
    state = GAME.new_game(2, seed=9)
    play(state, (state.seats_to_act()[0], "reveal"))
    det = state.determinize(0, random.Random(1))
    assert det.table == state.table
    assert sorted(det.deck[det.deck_pos :]) == sorted(state.deck[state.deck_pos :])
    assert det.deck[det.deck_pos :] != state.deck[state.deck_pos :]


# ----- the rules in detail -------------------------------------------------------------------


def test_chief_needs_totem_and_male_and_may_take_own_colour() -> None:
    state = position(
        2, ["red-chief", "red-hunter", "yellow-maiden", "yellow-chief"], reveal=["totem"]
    )
    play(state, (0, "reveal"))
    assert state.claim_is_legal(0, "chief")
    poll(state, {0: "claim chief 0"})
    # one prisoner kind only (maidens and chiefs are never prisoners): no choice is asked
    assert names(state.piles[0]) == ["totem", "red-hunter", "red-chief"]
    state = position(2, ["red-chief", "yellow-maiden"], reveal=["totem"])
    play(state, (0, "reveal"))
    assert not state.claim_is_legal(0, "chief")


def test_sharing_joins_teepee_claims_and_never_makes_a_claim_legal() -> None:
    opts = {"sharing": True}
    state = position(
        2, ["red-maiden", "blue-maiden", "purple-maiden"], reveal=["teepee"], options=opts
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim maiden 0"})
    assert names(state.piles[0]) == ["teepee", "blue-maiden", "purple-maiden", "red-maiden"]
    state = position(2, ["red-maiden", "blue-maiden"], reveal=["buffalo"], options=opts)
    play(state, (0, "reveal"))
    assert not state.claim_is_legal(0, "maiden")


def test_marriage_flags() -> None:
    table = ["red-maiden", "red-chief", "blue-hunter", "yellow-warrior"]
    options = {"marriage": True}
    state = position(2, table, reveal=["teepee"], options=options)
    play(state, (0, "reveal"))
    poll(state, {0: "claim maiden 0"})
    assert [str(a) for a in state.legal_actions(0)] == [
        "teepees",
        "marry red-chief",
        "marry yellow-warrior",
        "marry blue-hunter",
    ]
    state = position(
        2,
        table,
        reveal=["teepee"],
        options={
            **options,
            "marriage_chief_is_male": False,
            "marriage_allow_neutral_spouse": False,
        },
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim maiden 0"})
    assert [str(a) for a in state.legal_actions(0)] == ["teepees", "marry yellow-warrior"]
    # a chief who is not male cannot marry: his only option is the teepee
    state = position(
        2,
        ["red-chief", "yellow-maiden"],
        reveal=["teepee"],
        options={**options, "marriage_chief_is_male": False},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim chief 0"})
    assert names(state.piles[0]) == ["teepee", "red-chief"]


def test_war_tribute_keeps_buffalo_at_the_bottom() -> None:
    state = position(
        2,
        ["red-hunter", "buffalo"],
        piles=[["necklace", "red-maiden"], []],
        reveal=["buffalo"],
        options={"war_tribute": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim hunter 0"})
    assert names(state.piles[0]) == ["buffalo", "buffalo", "necklace", "red-maiden", "red-hunter"]


def test_protect_me_helper() -> None:
    state = position(3, ["red-hunter"], reveal=["buffalo"])
    assert not state.claim_is_legal(0, "hunter")  # no window open
    play(state, (0, "reveal"))
    assert state.claim_is_legal(0, "hunter") and not state.claim_is_legal(0, "maiden")
    assert state.view(0)["protect_me"] == {
        "chief": False,
        "maiden": False,
        "warrior": False,
        "hunter": True,
    }
    play(state, (0, "claim hunter 0"))
    assert not state.claim_is_legal(0, "hunter")  # answered already


def test_position_round_trip_in_a_choose_step() -> None:
    state = position(2, ["red-hunter", "teepee"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    poll(state, {0: "claim hunter 0"})
    restored = GAME.state_from_position(json.loads(json.dumps(state.to_position())))
    assert restored.legal_actions(0) == state.legal_actions(0)
    assert restored.view(0) == state.view(0)
    text = state.render(0)
    assert "Take all the buffalo (1)" in text and "Take all the teepees (1)" in text
    assert "red hunter" in text


# ----- every option set: positions, views and determinisations at every step ----------------


@pytest.mark.parametrize(
    "options",
    [
        {"claim_order": "arrival"},
        {"claim_order": "arrival", "war_tribute": True, "marriage": True, "sharing": True},
        {"war_tribute": True, "marriage": True, "sharing": True},
        {"marriage": True, "marriage_chief_is_male": False, "marriage_allow_neutral_spouse": False},
    ],
)
def test_variants_round_trip_and_hide_at_every_step(options: dict[str, object]) -> None:
    rng = random.Random(7)
    state = GAME.new_game(3, options, seed=7)
    steps = 0
    while not state.is_terminal():
        data = json.loads(json.dumps(state.to_position()))
        restored = GAME.state_from_position(data)
        assert restored.to_position() == state.to_position()
        for seat in (None, 0, 1, 2):
            assert restored.view(seat) == state.view(seat)
        if steps % 7 == 0:
            for seat in range(3):
                det = state.determinize(seat, rng)
                assert det.view(seat) == state.view(seat)
                assert det.seats_to_act() == state.seats_to_act()
        seat = rng.choice(state.seats_to_act())
        legal = cast(list[ApacheAction], state.legal_actions(seat))
        # claim legal claims often, so that choices, marriages, tribute and sharing happen
        claims = [a for a in legal if a.kind == "claim" and state.claim_is_legal(seat, a.type)]
        if claims and rng.random() < 0.7:
            action = rng.choice(claims)
        elif legal[0].kind == "pass" and rng.random() < 0.9:
            action = legal[0]
        else:
            action = rng.choice(legal)
        state.apply(seat, action)
        steps += 1
    assert sum(state.outcome().scores) > 0
