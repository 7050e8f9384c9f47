"""Apache's presenter: prompts, labels, targets, colours, log lines, result, hidden answers."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from campfire.core import Event, State
from campfire.core.present import Display
from campfire.games.apache import GAME
from campfire.games.apache.present import MESSAGES, ApachePresenter

from ..present_checks import (
    check_catalogue_template,
    check_determinisation_shows_the_same,
    check_every_readers_messages,
    check_shorts,
    display,
    log_lines,
)
from .tables import play, poll, position

NAMES = ["Ann", "Bob", "Cid"]
P = GAME.presenter()


def show(state: State, seat: int | None) -> Display:
    return display(P, state, seat, NAMES)


def lines(events: list[Event], seat: int | None, n: int = 3) -> list[str]:
    return log_lines(P, events, seat, NAMES[:n])


def test_the_game_has_its_own_presenter() -> None:
    assert isinstance(P, ApachePresenter)


def test_reveal_prompt_label_and_target() -> None:
    state = position(3, ["buffalo"], reveal=["red-hunter"])
    d = show(state, 0)
    assert d.prompt == "Turn up the next prairie card."
    (reveal,) = d.actions
    assert (reveal.label, reveal.target, reveal.key) == (
        "Turn up the next prairie card",
        "deck",
        "reveal",
    )
    assert show(state, 1).prompt == "Wait for Ann to turn up the next card."
    assert d.players[0].facts[-1] == ("role", "turns up the next card")


def test_claim_prompt_labels_target_the_hand_card_and_warn_of_a_penalty() -> None:
    state = position(3, ["buffalo"], reveal=["red-hunter"])
    play(state, (0, "reveal"))
    d = show(state, 0)
    assert d.prompt == (
        "The red hunter is up: claim with one of your hand cards and how fast, or pass."
    )
    assert d.progress == "0 of 3 players have answered"
    hunter = next(a for a in d.actions if a.notation == "claim hunter 350")
    assert (hunter.label, hunter.target, hunter.group, hunter.key) == (
        "Claim with your hunter after 350 ms",
        "hand:hunter",
        "claim hunter",
        "hunter 350",
    )
    chief = next(a for a in d.actions if a.notation == "claim chief 0")
    assert chief.label == "Claim with your chief after 0 ms (not allowed now: a penalty)"
    marks = {c.id: c.marks for c in d.zone("hand").cards}
    assert marks["hand:hunter"] == ("can claim",) and marks["hand:chief"] == ("penalty if played",)
    assert next(a for a in d.actions if a.notation == "pass").label == (
        "Pass: claim nothing this time"
    )


def test_the_real_time_prompt_does_not_ask_how_fast() -> None:
    """Where the server measures the claims (the real-time play mode), the prompt asks only
    which card claims; the timed answers stay the same."""
    state = position(3, ["buffalo"], reveal=["red-hunter"])
    play(state, (0, "reveal"))
    realtime = GAME.presenter()
    realtime.play_mode = "realtime-claims"
    d = display(realtime, state, 0, NAMES)
    assert d.prompt == "The red hunter is up: claim with one of your hand cards, or pass."
    assert [a.notation for a in d.actions] == [a.notation for a in show(state, 0).actions]


def test_arrival_claims_are_public_on_the_pow_wow_board() -> None:
    state = position(2, ["buffalo"], reveal=["red-hunter"], options={"claim_order": "arrival"})
    play(state, (0, "reveal"))
    d = show(state, 1)
    assert next(a for a in d.actions if a.notation == "claim hunter").label == (
        "Claim with your hunter (not allowed now: a penalty)"
    )
    events = play(state, (0, "claim hunter"))
    assert lines(events, 1, 2) == ["Ann claims with the hunter."]
    assert lines(events, 0, 2) == ["You claim with your hunter."]
    assert [c.label for c in show(state, 1).zone("board").cards] == ["Ann's hunter"]


def test_a_choice_names_the_booty_and_targets_the_table_cards() -> None:
    state = position(2, ["red-hunter", "teepee"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    poll(state, {0: "claim hunter 0"})
    d = show(state, 0)
    assert d.prompt == "Choose what your hunter takes."
    assert d.progress == "claim 1 of 1"
    labels = {a.notation: (a.label, a.target) for a in d.actions}
    assert labels == {
        "booty": ("Take all the buffalo (1)", "table:2"),
        "teepees": ("Take all the teepees (1)", "table:1"),
    }
    assert show(state, 1).prompt == "Wait for Ann to choose what the hunter takes."
    board = d.zone("board").cards
    assert [(c.label, c.marks) for c in board] == [("Ann's hunter", ("choosing", "0 ms"))]


def test_a_chief_chooses_its_prisoner_by_pointing_at_it() -> None:
    state = position(2, ["red-chief", "totem", "green-warrior", "blue-hunter"], reveal=["teepee"])
    play(state, (0, "reveal"))
    poll(state, {0: "claim chief 0"})
    d = show(state, 0)
    prisoner = next(a for a in d.actions if a.notation == "prisoner green-warrior")
    assert prisoner.label == "Take the totem poles and the green warrior as prisoner"
    assert prisoner.target == "table:2"


def test_colours_have_a_palette_name_and_a_letter() -> None:
    state = position(3, ["red-hunter", "green-chief", "buffalo"], reveal=["teepee"])
    d = show(state, 1)
    assert [(p.colour, p.symbol) for p in d.players] == [
        ("red", "R"),
        ("yellow", "Y"),
        ("purple", "P"),
    ]
    table = d.zone("table").cards
    assert [(c.label, c.short, c.colour, c.symbol, c.marks) for c in table] == [
        ("red hunter", "RH", "red", "R", ("Ann's",)),
        ("green chief", "GC", "green", "G", ("neutral",)),
        ("buffalo", "BUF", None, None, ()),
    ]
    assert d.zone("table").note == "neutral colours: green, blue"
    legend = {e.symbol for e in P.legend()}
    assert {"R red", "Y yellow", "P purple", "G green", "B blue", "BUF", "TEE"} <= legend


def test_poll_answers_stay_hidden_and_the_answerer_reads_only_its_own_line() -> None:
    state = position(3, ["red-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    events = play(state, (1, "claim chief 50"))
    assert lines(events, 1) == ["You claim with your chief after 50 ms."]
    assert lines(events, 0) == ["Bob has answered."]
    passed = position(3, ["red-hunter", "buffalo"], reveal=["buffalo"])
    play(passed, (0, "reveal"), (1, "pass"))
    for seat in (0, 2, None):  # a claim and a pass look the same to the others
        assert json.dumps(show(state, seat).to_json()) == json.dumps(show(passed, seat).to_json())
        assert dict(show(state, seat).players[1].facts)["poll"] == "answered"
    assert dict(show(state, 1).players[1].facts)["poll"] == "claims with the chief"


def test_resolution_lines_name_the_cards_won_and_lost() -> None:
    state = position(
        3, ["red-hunter", "buffalo"], reveal=["buffalo"], piles=[[], ["teepee", "necklace"], []]
    )
    play(state, (0, "reveal"))
    events = poll(state, {0: "claim hunter 100", 1: "claim chief 200", 2: "claim maiden 300"})
    said = lines(events, None)
    assert (
        "Claims, in order: Ann's hunter (100 ms), Bob's chief (200 ms), Cid's maiden (300 ms)."
        in said
    )
    assert "Ann's hunter takes red hunter, 2 buffalo; the pile holds 3 cards." in said
    assert (
        "Bob's chief claim was not allowed: 1 necklace, 1 teepee from the top of the pile leave "
        "the game." in said
    )
    assert "Cid's maiden claim was not allowed, but the pile is empty: nothing is lost." in said
    assert "Your hunter takes red hunter, 2 buffalo; your pile holds 3 cards." in lines(events, 0)
    assert said[-1] == "Cid is next to turn up a card."


def test_war_tribute_is_told_with_the_buffalo_paid() -> None:
    state = position(
        2,
        ["red-warrior", "tomahawk"],
        reveal=["teepee"],
        piles=[[], ["buffalo", "necklace"]],
        options={"war_tribute": True},
    )
    play(state, (0, "reveal"))
    poll(state, {0: "claim warrior 0"})
    said = lines(play(state, (0, "booty")), None, 2)
    assert said[0] == (
        "Ann's warrior takes red warrior, 1 tomahawk and collects war tribute (1 buffalo from "
        "Bob); the pile holds 3 cards."
    )


def test_the_result_says_how_the_winner_is_found() -> None:
    state = GAME.new_game(2, seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        seat = rng.choice(state.seats_to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    d = show(state, 0)
    assert d.over and d.prompt == "The game is over." and d.status == "Game over"
    piles = state.view(None)["piles"]
    colour = state.view(None)["colours"][0]
    assert d.result[0].startswith(f"Ann ({colour}): {len(piles[0])} card")
    assert (
        d.result[-1] == "Every card in the pile is a point; the most cards win, ties share the win."
    )
    winners = state.outcome().winners
    assert all(("winner" in d.result[s]) == (s in winners) for s in range(2))


# ----- along seeded games: catalogue, legend, hidden information --------------------------------


def _games() -> Any:
    for seed, options in (
        (1, {}),
        (2, {"claim_order": "arrival", "war_tribute": True}),
        (3, {"marriage": True, "sharing": True, "war_tribute": True}),
    ):
        state = GAME.new_game(2 + seed % 3, options, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = rng.choice(state.seats_to_act())
            legal = state.legal_actions(seat)
            # a bias to claims (and to quick ones) so that windows resolve with choices
            action = rng.choice(legal[: max(2, len(legal) // 4)] if rng.random() < 0.3 else legal)
            yield state.apply(seat, action), state


def test_every_message_is_in_the_catalogue_and_displays_hold_only_what_the_seat_knows() -> None:
    shorts = {c + t for c in "RYPGB" for t in "CMWH"} | {"BUF", "NEC", "TOM", "TOT", "TEE"}
    used: set[str] = set()
    rng = random.Random(0)
    for k, (events, state) in enumerate(_games()):
        n = state.num_players
        used |= check_every_readers_messages(P, events, n, MESSAGES)
        if k % 11:
            continue
        for seat in [*range(n), None]:
            d = show(state, seat)
            check_shorts(d, shorts)
            if seat is None:
                continue
            # what the seat may not know (deck order, others' hidden answers) is re-drawn in a
            # determinisation: the display is the same
            check_determinisation_shows_the_same(d, show, state, seat, rng)
            # nothing of the face-down deck is shown: only its size
            assert d.zone("deck").cards == () and d.zone("deck").count == len(
                state.to_position()["state"]["deck"]
            )
    assert {"apache.reveal", "apache.window_closed", "apache.claim_resolved.won"} <= used
    assert "apache.game_over" in used


#: the event types with log lines; the catalogue's other entries are display texts and words
LOG_EVENTS = {
    "reveal",
    "answered",
    "answer",
    "claim",
    "pass",
    "window_closed",
    "choose",
    "claim_resolved",
    "revealer",
    "game_over",
}


@pytest.mark.parametrize("mid", sorted(MESSAGES))
def test_catalogue_templates_are_sentences(mid: str) -> None:
    check_catalogue_template(mid, MESSAGES, "apache", LOG_EVENTS)
