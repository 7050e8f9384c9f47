"""The engines' refusals (``IllegalActionError``) in Hungarian and Czech.

An engine raises its reasons in English as :class:`~campfire.core.ErrorText` values (template
and parameters); the edge words them in the user's language. Every refusal met in seeded games
of every game must come out with every part translated; a few are checked word for word.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from campfire.core import ErrorText, IllegalActionError, NotationError, all_games, get
from campfire.i18n import translator

#: a template made only of fields and punctuation (a list, "reason + hint") needs no translation
_NO_WORDS = re.compile(r"^(?:\{\w+\}|[\s,;:.()–-])*$")


def _untranslated(text: ErrorText, language: str) -> list[str]:
    """The templates in ``text`` (and its parameters) that the catalog does not translate."""
    tr = translator(language)
    found = []
    if not _NO_WORDS.match(text.template):
        if text.context is not None:
            done = tr.pgettext(text.context, text.template) != text.template
        else:
            done = tr.gettext(text.template) != text.template
        if not done:
            found.append(text.template)
    for value in text.params.values():
        if isinstance(value, ErrorText):
            found += _untranslated(value, language)
    return found


def _templates(text: ErrorText) -> set[str]:
    out = {text.template}
    for value in text.params.values():
        if isinstance(value, ErrorText):
            out |= _templates(value)
    return out


def _refusals(game_name: str, players: int, seed: int, per_step: int = 3) -> list[Any]:
    """Refusals met in a seeded random game: a few refused actions at every step."""
    game = get(game_name)
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    size = game.num_distinct_actions(players)
    out: list[IllegalActionError] = []
    for _ in range(400):
        if state.is_terminal():
            break
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        legal_ids = {game.action_index(a, players) for a in legal}
        for index in rng.sample(range(size), min(size, 40)):
            if index in legal_ids:
                continue
            try:
                state.apply(seat, game.action_from_index(index, players))
            except IllegalActionError as exc:
                out.append(exc)
                if len(out) % per_step == 0:
                    break
        state.apply(seat, rng.choice(legal))
    return out


@pytest.mark.parametrize("game_name", sorted(g.name for g in all_games()))
def test_every_refusal_met_is_translated_whole(game_name: str) -> None:
    refusals = _refusals(game_name, get(game_name).min_players + 1, seed=7)
    assert refusals, "no refusal was met"
    templates = set()
    for exc in refusals:
        templates |= _templates(exc.text)
        for language in ("hu", "cs"):
            assert _untranslated(exc.text, language) == [], str(exc)
            shown = translator(language).error(exc)
            assert shown != str(exc)
            # the parameters (seats, positions, notations) survive translation
            for value in re.findall(r"\d+", str(exc.reason)):
                assert value in shown
    assert len(templates) >= 4  # different reasons, not one repeated


def test_a_tracker_refusal_word_for_word() -> None:
    game = get("tracker")
    state = game.new_game(2, seed=1)
    first = state.seats_to_act()[0]
    state.apply(first, "peek 1")
    with pytest.raises(IllegalActionError) as info:
        state.apply(first, "peek 1")
    exc = info.value
    assert str(exc) == (
        "tracker rules §4.2: position 1 was already peeked this turn; choose a different card"
    )
    assert translator("hu").error(exc) == (
        "tracker szabályai §4.2: a(z) 1. mezőbe már belekukkantottál ebben a körben; "
        "válassz másik lapot"
    )
    assert translator("cs").error(exc) == (
        "pravidla tracker §4.2: místo 1 už bylo v tomto tahu prohlédnuto; vyberte jinou kartu"
    )
    assert translator("en").error(exc) == str(exc)


def test_a_refusal_with_a_hint_and_the_turn_order() -> None:
    game = get("tracker")
    state = game.new_game(2, seed=1)
    first = state.seats_to_act()[0]
    with pytest.raises(IllegalActionError) as info:
        state.apply(1 - first, "peek 1")
    assert translator("cs").error(info.value) == (
        f"pořadí tahů: místo {1 - first} teď nemůže táhnout; na tahu jsou místa: {first}"
    )
    with pytest.raises(IllegalActionError) as info:
        state.apply(first, "take 1")
    hu = translator("hu").error(info.value)
    assert "; most megengedett (turn_start): " in hu and "peek" in hu


@pytest.mark.parametrize("game_name", sorted(g.name for g in all_games()))
def test_a_move_that_cannot_be_read_in_each_language(game_name: str) -> None:
    game = get(game_name)
    with pytest.raises(NotationError) as info:
        game.parse_action("fly away")
    exc = info.value
    assert str(exc).startswith("cannot read 'fly away'; ")
    assert translator("hu").error(exc).startswith("nem olvasható: 'fly away'; ")
    assert translator("cs").error(exc).startswith("nelze přečíst 'fly away'; ")
    for language in ("hu", "cs"):
        assert _untranslated(exc.text, language) == []


def test_a_record_that_does_not_replay_in_each_language() -> None:
    from campfire.core import Record, RecordError, replay

    state = get("tracker").new_game(2, seed=3)
    first = state.seats_to_act()[0]
    data = {
        "format": "campfire-record",
        "version": 1,
        "game": "tracker",
        "players": ["Ann", "Bob"],
        "seed": 3,
        "actions": [[first, "peek 1"], [first, "peek 1"]],
    }
    with pytest.raises(RecordError) as info:
        replay(Record.from_json(data))
    exc = info.value
    assert exc.index == 1
    hu = translator("hu").error(exc)
    cs = translator("cs").error(exc)
    assert hu.startswith(f"a(z) 1. sorszámú lépés: a(z) {first}. hely 'peek 1' lépése: ")
    assert hu.endswith("a(z) 1. mezőbe már belekukkantottál ebben a körben; válassz másik lapot")
    assert cs.startswith(f"tah s pořadovým číslem 1: 'peek 1' od místa {first}: pravidla tracker")
    for language in ("hu", "cs"):
        assert _untranslated(exc.text, language) == []
    with pytest.raises(RecordError) as info:
        Record.from_json({"format": "campfire-record", "version": 99})
    assert translator("cs").error(info.value).startswith("nepodporovaná verze záznamu 99")


def test_a_seat_that_is_no_seat_in_each_language() -> None:
    from campfire.core import SeatError

    state = get("tracker").new_game(2, seed=1)
    with pytest.raises(IllegalActionError) as info:
        state.apply(5, "peek 1")
    exc = info.value
    assert str(exc) == "seat: there is no seat 5 in a 2-player game; seats are 0–1"
    assert translator("hu").error(exc) == "hely: egy 2 fős játékban nincs 5. hely; a helyek: 0–1"
    assert translator("cs").error(exc) == (
        "místo: ve hře s počtem hráčů 2 není místo 5; místa jsou 0–1"
    )
    with pytest.raises(SeatError) as seat_info:
        state.view("x")
    for language in ("hu", "cs"):
        assert _untranslated(seat_info.value.text, language) == []
    assert translator("cs").error(seat_info.value) == (
        "místo je celé číslo 0–1, nebo None pro diváka (zadáno: 'x')"
    )
