"""Dudab's presenter: prompts, labels, targets, summaries, colours, and nothing hidden shown."""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterator
from typing import Any

import pytest

from campfire.core import Event, visible_events
from campfire.core.present import Display, render_text
from campfire.games.dudab import GAME, DudabState
from campfire.games.dudab.cards import FACE_NAMES
from campfire.games.dudab.present import MESSAGES, face_label

from .table import A, B, C, make, owned_columns, s7_final

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
PRESENTER = GAME.presenter()
FACE_BY_LABEL = {face_label(name): name for name in FACE_NAMES}
WE6_COLUMN = ["yellow/club/2", "red/fur/3", "blue/mammoth/4", "green/hand/3", "yellow/fur/2"]


def show(state: DudabState, seat: int | None) -> Display:
    legal = state.legal_actions(seat) if seat is not None else []
    return PRESENTER.display(state.view(seat), legal, NAMES[: state.num_players])


def lines(state: DudabState, seat: int | None, events: list[Event]) -> list[str]:
    names = NAMES[: state.num_players]
    return [m.text for m in PRESENTER.messages(visible_events(events, seat), names, seat)]


def play(state: DudabState, seat: int, *steps: str) -> list[Event]:
    events: list[Event] = []
    for step in steps:
        events.extend(state.apply(seat, step))
    return events


def test_the_game_has_its_own_presenter() -> None:
    assert type(PRESENTER).__name__ == "DudabPresenter"


def test_turn_prompts_follow_the_hand_size_rules() -> None:
    """dudab §5.3: draw freely below 5 cards; with 5, place if anything fits, else swap-draw."""
    free = make(2, hands=[["red/fur/3", "blue/club/2"]], columns=[["green/hand/4"], ["dudab"]])
    assert show(free, A).prompt == "Your turn: play a card on a column, or draw a card."
    assert show(free, B).prompt == "Waiting for Ann to play a card or draw."
    assert show(free, A).status == "Dudab — round 1 of 2, " + (
        f"{free.view(None)['draw_pile']} cards in the draw pile"
    )
    five = ["red/fur/3", "red/fur/4", "red/hand/4", "red/club/4", "red/mammoth/4"]
    must_place = make(2, hands=[five], columns=[["blue/club/2"], ["red/fur/1"]])
    assert show(must_place, A).prompt == (
        "You hold 5 cards: play a card on a column (you may draw only when none fits)."
    )
    none_fit = make(2, hands=[five], columns=[["red/fur/1"], ["red/hand/1"]])
    shown = show(none_fit, A)
    assert shown.prompt == (
        "None of your 5 cards fits: show your hand, put a card on your own pile and draw."
    )
    assert [a.label for a in shown.actions] == [
        "Show your hand, put a card on your own pile and draw"
    ]
    must_draw = make(2, hands=[["red/fur/3"]], columns=[["red/fur/1"], ["red/hand/1"]])
    assert show(must_draw, A).prompt == "No card of yours fits on a column: draw a card."


def test_place_actions_name_the_card_its_column_and_the_hand_card_they_move() -> None:
    state = make(2, hands=[["red/fur/3", "dudab"]], columns=[["green/hand/4"], ["blue/club/1"]])
    shown = show(state, A)
    hand = {c.label: c.id for c in shown.zone("hand:0").cards}
    [place] = [a for a in shown.actions if a.notation == "p red/fur/3 c1"]
    assert place.label == "Play red fur 3 on column 1"
    assert (place.target, place.source, place.group, place.key) == (
        "col:1",
        hand["red fur 3"],
        "play",
        "Rf3 c1",
    )
    [plain] = [a for a in shown.actions if a.notation == "p dudab c2"]
    assert (
        plain.label == "Play a Dudab on column 2 without a call" and plain.source == hand["Dudab"]
    )
    [call] = [a for a in shown.actions if a.notation == "p dudab c2 call=3"]
    assert call.label == "Play a Dudab on column 2 and call for the value 3"
    assert call.group == "call" and call.key == "Dud c2 3"
    [draw] = [a for a in shown.actions if a.notation == "draw"]
    assert (draw.label, draw.target) == ("Draw a card", "draw")
    keys = [a.key for a in shown.actions]
    assert len(keys) == len(set(keys))


def test_shaman_reaction_prompts_and_the_penalty() -> None:
    col = ["blue/hand/3", "shaman/blue"]
    state = make(
        3,
        hands=[[], ["shaman/red", "green/fur/1"]],
        columns=[col],
        actor=B,
        obligation=("shaman", 1),
    )
    assert show(state, B).prompt == (
        "A Shaman was played on column 1: play a Shaman or a Dudab on it, or take the penalty."
    )
    assert show(state, C).prompt == "Waiting for Bob to answer the Shaman on column 1."
    assert show(state, A).zone("col:1").note == "the Shaman on top must be answered"
    labels = [a.label for a in show(state, B).actions]
    assert labels[-1].startswith("Take the penalty: turn up cards to the first number card")
    stuck = make(
        3,
        hands=[[], ["green/fur/1", "red/hand/2"]],
        columns=[col],
        actor=B,
        obligation=("shaman", 1),
    )
    assert show(stuck, B).prompt == (
        "A Shaman was played on column 1: you have no Shaman or Dudab, so take the penalty."
    )
    events = play(stuck, B, "penalty")
    assert lines(stuck, A, events)[0] == "Bob takes the penalty for the Shaman."
    assert lines(stuck, B, events)[0] == "You take the penalty for the Shaman."
    assert lines(stuck, A, events)[1].startswith("Turned onto the discard pile: ")


def test_call_answer_prompts() -> None:
    """WE-11: a Dudab calls yellow; with no yellow card the answerer shows the hand and draws."""
    col = ["red/fur/3", "dudab"]
    ob = ("call", 1, "yellow")
    able = make(
        3, hands=[[], ["yellow/hand/1", "red/club/2"]], columns=[col], actor=B, obligation=ob
    )
    assert show(able, B).prompt == (
        "A Dudab on column 1 calls for yellow: play a matching card or a Dudab on it."
    )
    assert show(able, C).prompt == "Waiting for Bob to answer the call for yellow on column 1."
    assert show(able, C).zone("col:1").note == "the Dudab on top calls for yellow"
    fail = make(3, hands=[[], ["red/club/2", "dudab"]], columns=[col], actor=B, obligation=ob)
    assert show(fail, B).prompt == (
        "A Dudab on column 1 calls for yellow: you have no matching card, so play a Dudab on it "
        "or show your hand and draw a card."
    )
    only = make(3, hands=[[], ["red/club/2", "blue/fur/1"]], columns=[col], actor=B, obligation=ob)
    assert show(only, B).prompt.endswith("so show your hand and draw a card.")
    assert [a.label for a in show(only, B).actions] == [
        "Show your hand and draw a card (no answer)"
    ]
    events = play(only, B, "draw")
    assert lines(only, A, events)[:2] == [
        "Bob cannot answer the call.",
        "Bob shows the hand: blue fur 1, red club 2.",
    ]
    assert lines(only, B, events)[:2] == [
        "You cannot answer the call.",
        "You show your hand: blue fur 1, red club 2.",
    ]


def test_we6_capture_keep_and_rest_read_once_per_thing() -> None:
    hand = ["red/club/1", "blue/hand/2", "green/fur/4", "yellow/hand/1"]
    state = make(2, hands=[hand], columns=[WE6_COLUMN])
    assert show(state, B).zone("col:1").note == "5 cards: the next card placed captures them"
    events = play(state, A, "p red/club/1 c1")
    assert lines(state, B, events) == [
        "Ann plays red club 1 on column 1.",
        "Ann captures 5 cards from column 1: yellow club 2, red fur 3, blue mammoth 4, "
        "green hand 3, yellow fur 2.",
    ]
    shown = show(state, A)
    assert shown.prompt == "You captured a column: choose a card to keep (you keep 2)."
    assert shown.progress == "kept 0 of 2 cards"
    hand_ids = {c.label: c.id for c in shown.zone("hand:0").cards}
    [keep] = [a for a in shown.actions if a.notation == "keep blue/hand/2"]
    assert (keep.label, keep.target, keep.key) == (
        "Keep blue hand 2",
        hand_ids["blue hand 2"],
        "keep Bh2",
    )
    events = play(state, A, "keep blue/hand/2")
    assert lines(state, A, events) == ["You keep blue hand 2."]
    assert lines(state, B, events) == ["Ann keeps a card."]
    assert show(state, A).progress == "kept 1 of 2 cards"
    assert show(state, B).zone("hand:0").note == "cards kept after the capture: 1"
    assert show(state, B).prompt == "Waiting for Ann to choose the cards to keep after the capture."
    play(state, A, "keep green/fur/4")
    shown = show(state, A)
    assert shown.prompt == (
        "Put all your other cards on the discard pile, or all on your own pile."
    )
    assert [(a.label, a.target) for a in shown.actions] == [
        ("Put all the other cards on the discard pile", "discard"),
        ("Put all the other cards on your own pile", "pile:0"),
    ]
    assert [c.label for c in shown.zone("kept:0").cards] == ["blue hand 2", "green fur 4"]
    events = play(state, A, "rest pile")
    assert lines(state, A, events)[0] == "You put the other cards on your own pile: yellow hand 1."
    assert lines(state, B, events)[0] == "Ann puts the other card on the own pile."


def test_a_draw_reads_as_one_line_for_the_drawer() -> None:
    """Regression (issue 13): Dudab logged each draw twice for the player who drew."""
    state = make(2, hands=[["red/fur/3", "blue/club/2"]], draw=["green/hand/1"])
    events = play(state, A, "draw")
    assert lines(state, A, events) == ["You draw green hand 1."]
    assert lines(state, B, events) == ["Ann draws a card."]
    assert lines(state, None, events) == ["Ann draws a card."]


def test_a_revealed_hand_is_shown_as_cards_not_as_data() -> None:
    """Regression (issue 13): the screen printed the raw dict ``revealed: {'seat': 0, ...}``."""
    five = ["red/fur/3", "red/fur/4", "red/hand/4", "red/club/4", "red/mammoth/4"]
    state = make(2, hands=[five], columns=[["red/fur/1"], ["red/hand/1"]])
    play(state, A, "draw")
    shown = show(state, B)
    revealed = shown.zone("hand:0")
    assert sorted(c.label for c in revealed.cards) == sorted(face_label(c) for c in five)
    assert all("shown to everyone" in c.marks for c in revealed.cards)
    assert shown.prompt == "Waiting for Ann to put a card of the shown hand on the own pile."
    mine = show(state, A)
    assert mine.prompt == "You showed your 5 cards: choose one for your own pile before you draw."
    [pile] = [a for a in mine.actions if a.notation == "pile red/fur/4"]
    assert pile.label == "Put red fur 4 on your own pile" and pile.group == "pile"
    text = state.render(B)
    assert "{" not in text and "'seat'" not in text
    events = play(state, A, "pile red/fur/4")
    assert lines(state, B, events)[0] == "Ann puts red fur 4 on the own pile."
    assert lines(state, A, events)[0] == "You put red fur 4 on your own pile."


def test_we15_jungle_column_shows_the_jungle_and_the_mirror_card() -> None:
    column = {"above": ["yellow/club/2", "red/fur/3", "blue/mammoth/4"], "jungle": True}
    state = make(
        2, hands=[["green/mammoth/2", "dudab"]], columns=[column], options={"use_jungle": True}
    )
    zone = show(state, A).zone("col:1")
    assert [c.label for c in zone.cards] == [
        "yellow club 2",
        "red fur 3",
        "blue mammoth 4",
        "Jungle",
    ]
    assert zone.cards[-1].marks == ("top",) and zone.cards[-2].marks == ()
    assert zone.note == "below the Jungle: the next card mirrors blue mammoth 4"
    play(state, A, "p green/mammoth/2 c1")
    zone = show(state, A).zone("col:1")
    assert zone.cards[-1].label == "green mammoth 2" and zone.cards[-1].marks == ("top",)
    assert zone.note == "below the Jungle: the next card mirrors red fur 3"


def test_column_cards_carry_the_seat_that_played_them() -> None:
    state = owned_columns()  # A plays a Dudab and B a number on column 1, C the Jungle
    for seat in (None, A, B):
        shown = show(state, seat)
        assert [(c.label, c.owner) for c in shown.zone("col:1").cards] == [
            ("red fur 2", None),  # the column's first card: nobody played it
            ("Dudab", A),
            ("blue club 3", B),
        ]
        assert [(c.label, c.owner) for c in shown.zone("col:2").cards] == [
            ("blue hand 1", None),
            ("Jungle", C),
        ]


def test_s1_round_summary_names_every_part_and_says_lowest_is_best() -> None:
    """S1: hand Dudab + red/hand/2, pile 2 Dudab, Shaman, 4 4 3 1 1 → 12."""
    pile = [
        "dudab",
        "dudab",
        "shaman/red",
        "blue/fur/4",
        "green/fur/4",
        "blue/club/3",
        "blue/hand/1",
        "green/hand/1",
    ]
    state = make(
        2,
        hands=[["dudab", "red/hand/2"], ["yellow/club/3", "red/club/2"]],
        piles=[pile],
        actor=B,
        draw_size=1,
        columns=[["red/fur/1"], ["red/hand/1"]],
    )
    events = play(state, B, "draw")
    [summary] = [m for m in PRESENTER.messages(events, NAMES[:2], A) if m.id == "dudab.round_end"]
    assert summary.text.startswith(
        "Round 1 is over (the lowest score is best). Ann 12 points: 1 Dudab in hand +5, "
        "1 Dudab–Shaman pair 0, Dudabs paired with number cards 4 -4, number cards +11; Bob "
    )
    assert summary.params["details"][0]["total"] == 12
    assert show(state, A).players[0].score == "12 points"
    assert dict(show(state, A).players[0].facts)["rounds"] == "12"


def _random_game(
    players: int, seed: int, options: dict[str, Any]
) -> Iterator[tuple[DudabState, list[Event]]]:
    state = GAME.new_game(players, options, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_seat()
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        yield state, events


def test_the_end_says_the_lowest_total_wins_with_every_round() -> None:
    state, events = list(_random_game(2, 3, {}))[-1]
    shown = show(state, None)
    totals = state.view(None)["totals"]
    assert shown.over and shown.prompt == "The game is over; the lowest total wins."
    assert shown.result[0].startswith(f"Ann {totals[0]} points in all (rounds: ")
    assert shown.result[-1].startswith("The lowest total wins: ")
    over = [m for m in PRESENTER.messages(events, NAMES[:2], None) if "game_over" in m.id]
    assert over[0].text.startswith("The game is over; the lowest total wins. Ann ")


def test_cards_carry_colours_and_letters_explained_in_the_legend() -> None:
    state = make(2, hands=[["red/fur/3", "shaman/green", "dudab"]])
    cards = {c.label: c for c in show(state, A).zone("hand:0").cards}
    assert (cards["red fur 3"].colour, cards["red fur 3"].symbol, cards["red fur 3"].short) == (
        "red",
        "R",
        "Rf3",
    )
    assert (cards["green Shaman"].colour, cards["green Shaman"].short) == ("green", "ShG")
    assert cards["Dudab"].colour is None and cards["Dudab"].short == "Dud"
    legend = {e.symbol: e.meaning for e in PRESENTER.legend()}
    for symbol in ("B", "R", "Y", "G", "h", "m", "c", "f", "Rf3", "Dud", "ShR", "Jun", "Bab"):
        assert symbol in legend
    assert legend["Y"] == "yellow (a card's colour)" and legend["m"] == "the mammoth symbol"


def test_render_is_the_text_of_the_display() -> None:
    state = make(2, hands=[["red/fur/3", "blue/club/2"]])
    expected = render_text(GAME.presenter().display(state.view(A), state.legal_actions(A), ()))
    assert state.render(A) == expected
    assert "red fur 3" in state.render(A) and "red fur 3" not in state.render(B)


def _faces_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if value in FACE_NAMES else set()
    if isinstance(value, dict):
        return set().union(*(_faces_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_faces_in(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(3, 1, {}), (4, 2, {"use_jungle": True, "use_baby": True}), (5, 3, {"use_baby": True})],
)
def test_no_display_shows_a_card_the_view_hides(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    for step, (state, _events) in enumerate(_random_game(players, seed, options)):
        if step % 7:
            continue
        for seat in [*range(players), None]:
            view = state.view(seat)
            shown = show(state, seat)
            known = _faces_in(view)
            if any(col["jungle"] for col in view["columns"]):
                known.add("jungle")  # a column's visible Jungle (a flag in the view)
            for zone in shown.zones:
                for card in zone.cards:
                    if card.face_up and card.label:
                        assert FACE_BY_LABEL[card.label] in known, (seat, card)
            revealed = view["revealed"]["seat"] if view["revealed"] else None
            for other in range(players):
                if other == seat:
                    continue
                assert shown.zone(f"pile:{other}").cards == ()
                if other != revealed:
                    assert shown.zone(f"hand:{other}").cards == ()
            assert "N-" not in json.dumps(shown.to_json())  # no physical card id


def _fields(template: str) -> set[str]:
    return {f.split(":")[0] for _, f, _, _ in string.Formatter().parse(template) if f}


def test_messages_come_from_the_catalogue_with_every_placeholder_filled() -> None:
    used: set[str] = set()
    games = [(2, 1, {}), (4, 5, {"use_jungle": True, "use_baby": True}), (6, 7, {"use_baby": True})]
    for players, seed, options in games:
        names = NAMES[:players]
        for state, events in _random_game(players, seed, options):
            for reader in [*range(players), None]:
                seen = visible_events(events, reader)
                for message in PRESENTER.messages(seen, names, reader):
                    assert message.template == MESSAGES[message.id]
                    assert _fields(message.template) <= set(message.params)
                    assert message.text == message.template.format(**message.params)
                    used.add(message.id)
                # one line per thing: a seat reads only the private line of its own draw
                for event in seen:
                    if event.type in ("draw", "keep") and event.data["seat"] == reader:
                        assert PRESENTER.message(event, names, reader) is None
            if state.is_terminal():
                for seat in range(players):
                    show(state, seat)
    assert {"dudab.place", "dudab.place.call", "dudab.round_end", "dudab.game_over"} <= used
    assert {"dudab.capture", "dudab.baby_laid", "dudab.jungle_laid", "dudab.drawn_card"} <= used
    for template in MESSAGES.values():
        _fields(template)  # every template parses


def test_s7_the_result_says_the_tied_players_share_first_place() -> None:
    """S7: A 20, B 20, C 22 (the lower total is better): A and B share first place, and the end
    screen says so (Dudab has no tie-break)."""
    final = s7_final()
    result = GAME.presenter().display(final.view(None), [], ["A", "B", "C"]).result
    assert "A and B tie on 20 points: Dudab has no tie-break, they share the place." in result
