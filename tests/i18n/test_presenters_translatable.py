"""Pseudo-localisation: every word a presenter shows comes from a message catalog entry.

Random games of every game are played (several seeds and player counts, option combinations in
turn) with a translator in force that wraps every text in ``⟦…⟧``. Every string a person reads —
each display's status, prompt, progress, result, zone labels and notes, card labels and marks,
player scores and facts, action labels, the legend's meanings, the plain text of
:func:`~campfire.core.present.render_text`, and every log line — must then be covered by
markers, except player names, numbers and codes (card ids, notation, short card codes). A word
of English that is left outside the markers is a word no translation can reach.

The translator also checks the *parameters* of each text: a word inserted into a sentence (a
card, a colour, "Anna wins") must itself come from the catalog (be marked), so that a Hungarian
or Czech sentence is not filled with English fragments; and it checks that every id it is asked
for is in the game's (or the core's) ``MESSAGES`` with the same English template, so that the
extraction into ``campfire.pot`` finds it.
"""

from __future__ import annotations

import functools
import importlib
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

import campfire
from campfire.core import Game, visible_events
from campfire.core import present as core_present
from campfire.core.present import Display, render_text, translation

OPEN, CLOSE = "⟦", "⟧"
NAMES = ("Anna", "Bence", "Cili", "Dani", "Emil", "Flóra")
SEEDS = (1, 2)
#: a word that may stand outside the markers: a code (``CH``, ``T3``, ``S-T3-1``, ``h7``, ``×2``)
CODE = re.compile(r"^(?:[A-Z]{1,3}|\S*\d\S*)$")
WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")


#: a marked span holding no other marker (removed innermost first)
INNERMOST = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


def outside_markers(text: str) -> str:
    """The characters of ``text`` outside every (possibly nested) ``⟦…⟧`` span.

    An unclosed ``⟦`` hides the rest of the text and a ``⟧`` with nothing open is dropped.
    """
    if OPEN not in text and CLOSE not in text:
        return text
    while True:
        shorter = INNERMOST.sub("", text)
        if shorter == text:
            break
        text = shorter
    # no pair is left: every ⟧ stands before every ⟦
    return text.split(OPEN, 1)[0].replace(CLOSE, "")


@functools.lru_cache(maxsize=1 << 16)
def stray_words(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The words of ``text`` outside the markers that are no name, number or code.

    (Cached: a display repeats most of its texts from one step to the next. The list is
    read, never changed, by its callers.)
    """
    rest = outside_markers(text)
    for name in NAMES:
        rest = rest.replace(name, " ")
    return [w for w in WORD.findall(rest) if not CODE.match(w) and w not in allowed]


@dataclass
class Pseudo:
    """A translator that marks every text and records what it was asked for."""

    catalogue: Mapping[str, str]
    problems: list[str] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    #: words allowed outside the markers of a parameter just now (the keys of listed moves)
    allowed: frozenset[str] = frozenset()

    def __call__(self, message_id: str, template: str, params: Mapping[str, Any]) -> str:
        self.used.add(message_id)
        known = self.catalogue.get(message_id)
        if known is None:
            self.problems.append(f"{message_id}: no such id in any MESSAGES ({template!r})")
        elif known != template:
            self.problems.append(f"{message_id}: template {template!r} is not MESSAGES' {known!r}")
        for key, value in params.items():
            if isinstance(value, str) and (words := stray_words(value, self.allowed)):
                self.problems.append(
                    f"{message_id}: untranslated {words} in parameter {key}={value!r:.160}"
                )
        return OPEN + template.format(**params) + CLOSE


def catalogue() -> dict[str, str]:
    """Every presenter's ``MESSAGES`` and the core's, by id."""
    out: dict[str, str] = dict(core_present.MESSAGES)
    for game in campfire.all_games():
        module = importlib.import_module(type(game.presenter()).__module__)
        out.update(getattr(module, "MESSAGES", {}))
    return out


def display_texts(display: Display) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every string of ``display`` that a person reads."""
    yield "status", display.status
    yield "prompt", display.prompt
    yield "progress", display.progress
    for line in display.result:
        yield "result", line
    for zone in display.zones:
        yield f"zone {zone.id} label", zone.label
        yield f"zone {zone.id} note", zone.note
        for card in zone.cards:
            yield f"card {card.id} label", card.label
            for mark in card.marks:
                yield f"card {card.id} mark", mark
    for player in display.players:
        yield f"player {player.seat} score", player.score
        for label, value in player.facts:
            yield f"player {player.seat} fact", label
            yield f"player {player.seat} fact {label}", value
    for action in display.actions:
        yield f"action {action.notation}", action.label


def play(game: Game[Any], players: int, seed: int, pseudo: Pseudo) -> list[str]:
    """A random game, every display (each seat and the spectator) and log line checked."""
    combos = list(game.options_type.combinations())
    options = combos[(seed * 7919 + players) % len(combos)]
    state = game.new_game(players, options, seed=seed)
    presenter = game.presenter()
    names = list(NAMES[:players])
    rng = random.Random(seed)
    seats: list[int | None] = [*range(players), None]
    problems: list[str] = []

    def check(where: str, text: str, allowed: frozenset[str] = frozenset()) -> None:
        if words := stray_words(text, allowed):
            problems.append(f"{game.name} {where}: untranslated {words} in {text!r:.160}")

    for entry in presenter.legend():
        check(f"legend {entry.symbol}", entry.meaning)
    steps = 0
    while True:
        for seat in seats:
            acting = seat is not None and seat in state.seats_to_act()
            legal = state.legal_actions(seat) if acting else []
            display = presenter.display(state.view(seat), legal, names)
            for where, text in display_texts(display):
                check(f"seat {seat} {where}", text)
            codes = [f"{a.key} {a.notation}" for a in display.actions]
            codes += [c.short for z in display.zones for c in z.cards]
            keys = frozenset(w for code in codes for w in WORD.findall(code))
            pseudo.allowed = keys
            check(f"seat {seat} render_text", render_text(display, actions=True), keys)
            pseudo.allowed = frozenset()
        if state.is_terminal() or steps > 3000:
            break
        seat = rng.choice(state.seats_to_act())
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
        for reader in seats:
            for message in presenter.messages(visible_events(events, reader), names, reader):
                check(f"seat {reader} message {message.id}", message.text)
    return problems


@pytest.mark.slow  # up to 20 s a game: started first (tests/conftest.py)
@pytest.mark.parametrize("name", sorted(g.name for g in campfire.all_games()))
def test_every_string_a_presenter_shows_is_translatable(name: str) -> None:
    game = campfire.get_game(name)
    pseudo = Pseudo(catalogue())
    problems: list[str] = []
    with translation(pseudo):
        for seed in SEEDS:
            for players in (game.min_players, game.max_players):
                problems += play(game, players, seed, pseudo)
    problems += pseudo.problems
    unique = sorted({re.sub(r"\d+", "N", p) for p in problems})
    assert not unique, f"{len(unique)} untranslatable strings, e.g.:\n" + "\n".join(unique[:40])


def test_the_marker_check_finds_english_outside_markers() -> None:
    assert stray_words("⟦Anna plays ⟦the red hunter⟧.⟧") == []
    assert stray_words("Anna 12 cards") == ["cards"]
    assert stray_words("⟦x⟧ and ⟦y⟧, T3 S-T3-1 H10 CH") == ["and"]
    assert stray_words("⟦a ⟦b⟧ c⟧ d") == ["d"]
    assert stray_words("left ⟧ out ⟦never ⟦closed⟧ here") == ["left", "out"]
    assert outside_markers("⟦a⟧⟧b") == "b" and outside_markers("⟦⟦a⟧b") == ""
