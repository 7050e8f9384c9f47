"""Presenters: every game's display models and log messages, checked on random games.

These checks hold for every registered game's presenter (its own, or the generic one): the display
model is JSON, lists exactly the legal actions with their indices and notation, every target names
a card or zone on the display, the prompt is a sentence, and every event a seat may see becomes a
message with text.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Mapping
from typing import Any

import pytest

import campfire
from campfire.core import Action, visible_events
from campfire.core.present import (
    ActionChoice,
    Answer,
    CardFace,
    Display,
    GenericPresenter,
    Message,
    Reveal,
    StepDisplay,
    Zone,
)

GAMES = campfire.all_games()
#: the pictograms the browser draws (``docs/web.md``, "Card faces"; ``ICONS`` of cards.js)
ICONS = {
    *("chief", "maiden", "warrior", "hunter", "scout", "shaman", "spy", "healer", "baby"),
    *("imp", "jungle", "mammoth", "hand", "club", "fur", "tracks", "totem", "necklace"),
    *("tomahawk", "buffalo", "teepee", "horse"),
}


def _targets(display: Display) -> set[str]:
    ids = {z.id for z in display.zones}
    ids.update(c.id for z in display.zones for c in z.cards)
    ids.update(f"player:{p.seat}" for p in display.players)
    return ids


def _check_display(
    game: campfire.Game[Any], display: Display, legal: list[Action], seat: int | None
) -> None:
    json.dumps(display.to_json())
    assert display.game == game.name and display.seat == seat
    assert display.prompt.strip() and display.status.strip()
    assert [a.notation for a in display.actions] == [str(a) for a in legal]
    n = len(display.players)
    for choice, action in zip(display.actions, legal, strict=True):
        assert choice.index == game.action_index(action, n)
        assert choice.label.strip()
        assert choice.target is None or choice.target in _targets(display), choice
        assert choice.source is None or choice.source in _targets(display), choice
    ids = [c.id for z in display.zones for c in z.cards] + [z.id for z in display.zones]
    assert len(ids) == len(set(ids)), "card and zone ids must be unique"
    for zone in display.zones:
        for card in zone.cards:
            assert len(card.short) <= 4, card
            assert card.icon is None or card.icon in ICONS, card
            assert card.owner is None or 0 <= card.owner < n, card
    assert sum(p.you for p in display.players) == (0 if seat is None else 1)
    # timed variants of one answer: each with its own delay, the answer's label without it
    variants: dict[str, set[int]] = {}
    for choice in display.actions:
        assert (choice.answer is None) == (choice.delay_ms is None), choice
        if choice.answer is not None and choice.delay_ms is not None:
            assert choice.delay_ms not in variants.setdefault(choice.answer.notation, set())
            variants[choice.answer.notation].add(choice.delay_ms)
            assert str(choice.delay_ms) not in choice.answer.label, choice


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
@pytest.mark.parametrize("seed", [1, 2])
def test_displays_and_messages_along_a_random_game(game: campfire.Game[Any], seed: int) -> None:
    n = min(max(3, game.min_players), game.max_players)
    names = [f"P{i}" for i in range(n)]
    presenter = game.presenter()
    state = game.new_game(n, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while True:
        for seat in [*range(n), None]:
            legal = state.legal_actions(seat) if seat in state.seats_to_act() else []
            _check_display(game, presenter.display(state.view(seat), legal, names), legal, seat)
        if state.is_terminal() or steps > 400:
            break
        seats = state.seats_to_act()
        seat = rng.choice(seats)
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        for reader in [*range(n), None]:
            shown = presenter.step_display(visible_events(events, reader), reader)
            json.dumps(shown.to_json())
            assert all(r.seat == reader and r.card.face_up for r in shown.reveals), shown
            assert all(isinstance(i, str) for i in shown.changed)
            for message in presenter.messages(visible_events(events, reader), names, reader):
                assert isinstance(message, Message) and message.text.strip()
                assert message.id.startswith(game.name + ".")
                json.dumps(message.to_json())
        steps += 1
    assert isinstance(presenter.legend(), list)


def test_the_generic_presenter_shows_any_game_plainly() -> None:
    game = campfire.get_game("tracker")
    state = game.new_game(2, seed=3)
    seat = state.current_seat()
    presenter = GenericPresenter(game)
    display = presenter.display(state.view(seat), state.legal_actions(seat), ["Ann", "Bob"])
    assert display.prompt == "Choose your move."
    assert [a.key for a in display.actions][:2] == ["peek 0", "peek 1"]
    assert display.zone("view").cards
    with pytest.raises(KeyError):
        display.zone("nowhere")


def test_message_templates_fill_their_placeholders() -> None:
    message = Message.make("x.y", "{a} and {b}", a=1, b="two")
    assert message.text == "1 and two" and message.template == "{a} and {b}"
    fields = {f for _, f, _, _ in string.Formatter().parse(message.template) if f}
    assert fields == set(message.params)


@pytest.mark.parametrize("name", ["tracker", "dudab"])
def test_presenters_speak_the_language_in_force(name: str) -> None:
    # every string a presenter makes goes through core.present.text, so a translator sees it
    from campfire.core.present import translation

    game = campfire.get_game(name)
    state = game.new_game(2, seed=1)
    seat = state.current_seat()
    seen: list[str] = []

    def shout(message_id: str, template: str, params: Mapping[str, Any]) -> str:
        seen.append(message_id)
        return template.format(**params).upper()

    presenter = game.presenter()
    with translation(shout):
        display = presenter.display(state.view(seat), state.legal_actions(seat), ["a", "b"])
    assert display.prompt == display.prompt.upper() and seen
    assert all(i.startswith(name + ".") for i in seen)
    english = presenter.display(state.view(seat), state.legal_actions(seat), ["a", "b"])
    assert english.prompt != english.prompt.upper()


def test_a_step_display_keeps_only_the_readers_own_reveals() -> None:
    game = campfire.get_game("tracker")

    class Telling(GenericPresenter):
        def changes(self, events: Any, seat: int | None) -> StepDisplay:
            face = CardFace("pos:1", "a card")
            return StepDisplay(("pos:1",), (), (Reveal(0, face), Reveal(1, face)))

    telling = Telling(game)
    assert [r.seat for r in telling.step_display([], 1).reveals] == [1]
    assert telling.step_display([], None).reveals == ()
    assert json.loads(json.dumps(telling.step_display([], 1).to_json())) == {
        "changed": ["pos:1"],
        "moved": [],
        "reveals": [{"seat": 1, "card": json.loads(json.dumps(_plain_card("pos:1")))}],
    }


def _plain_card(card_id: str) -> dict[str, Any]:
    zone = Zone("z", "", cards=(CardFace(card_id, "a card"),))
    card: dict[str, Any] = Display("x", 0, "", "", (), (), (zone,)).to_json()["zones"][0]["cards"][
        0
    ]
    return card


def test_the_json_of_a_display_holds_the_new_fields() -> None:
    answer = Answer("claim hunter", "Claim with your hunter", "hunter")
    choice = ActionChoice(3, "claim hunter 50", "Claim after 50 ms", answer=answer, delay_ms=50)
    card = CardFace("c", "red hunter", "RH", colour="red", icon="hunter", rank="H", owner=2)
    shown = Display("x", 0, "", "", (), (), (Zone("z", "", cards=(card,)),), (choice,)).to_json()
    face = shown["zones"][0]["cards"][0]
    assert (face["icon"], face["rank"], face["owner"], face["colour"]) == ("hunter", "H", 2, "red")
    assert shown["actions"][0]["answer"] == {
        "notation": "claim hunter",
        "label": "Claim with your hunter",
        "key": "hunter",
    }
    assert shown["actions"][0]["delay_ms"] == 50 and shown["actions"][0]["penalised"] is False


def _first_step(name: str, seed: int) -> tuple[Any, int, list[Any]]:
    game = campfire.get_game(name)
    state = game.new_game(2, game.options(), seed=seed)
    seat = state.seats_to_act()[0]
    events = state.apply(seat, random.Random(seed).choice(state.legal_actions(seat)))
    return game, seat, events


@pytest.mark.parametrize("decided_by", ["clock", "bot"])
def test_a_step_decided_for_its_seat_is_never_worded_as_the_seats_own(decided_by: str) -> None:
    # a peek: the peeker reads a private line ("You look at …") instead of the public one
    game, mover, events = _first_step("tracker", 4)
    assert [e.type for e in events][:2] == ["peek", "peek_card"]
    presenter = game.presenter()
    names = ["Ann", "Bob"]
    other = 1 - mover
    who = names[mover]
    own = presenter.step_messages(visible_events(events, mover), names, mover, mover, decided_by)
    seen = presenter.step_messages(visible_events(events, other), names, other, mover, decided_by)
    plain = presenter.messages(visible_events(events, other), names, other)
    first = own[0].text
    if decided_by == "clock":
        assert first.startswith(f"The clock played for you: {who} ")
        assert seen[0].text == f"The clock played for {who}: {plain[0].text}"
    else:
        assert first.startswith("Bot (for you) ")
        assert seen[0].text.startswith(f"Bot (for {who}) ")
    # the mover still reads what only it saw, after the line that says who decided
    assert [m.id for m in own[1:]] == [
        m.id for m in presenter.messages(visible_events(events, mover), names, mover)
    ]
    # the other reader gets no line more than before, and none of the mover's private ones
    assert len(seen) == len(plain)
    assert not any(m.id.endswith(".you") for m in seen)
    # a step the seat chose: the game's lines as they are
    assert presenter.step_messages(events, names, mover, mover, None) == presenter.messages(
        events, names, mover
    )
