"""Checks of the games' presenters: the message catalogue, and displays that hide what they must.

Used by the games' ``test_present.py``, which keep what is their own: the seeded games, the
card codes a display may show, the messages a game must have used and the event types that
have log lines.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable, Collection, Mapping, Sequence

from campfire.core import Event, State, visible_events
from campfire.core.present import Display, Message, Presenter


def display(presenter: Presenter, state: State, seat: int | None, names: Sequence[str]) -> Display:
    """What ``seat`` sees, with its legal actions when it is to act (names cut to the seats)."""
    legal = state.legal_actions(seat) if seat in state.seats_to_act() else []
    return presenter.display(state.view(seat), legal, names[: state.num_players])


def log_lines(
    presenter: Presenter, events: list[Event], seat: int | None, names: Sequence[str]
) -> list[str]:
    """The log lines ``seat`` reads of ``events`` (only those it may see)."""
    return [m.text for m in presenter.messages(visible_events(events, seat), names, seat)]


def check_message(message: Message, catalogue: Mapping[str, str]) -> None:
    """A message comes from the catalogue, with every placeholder filled, and reads as text."""
    assert message.id in catalogue, message.id
    assert message.template == catalogue[message.id]
    fields = {f for _, f, _, _ in string.Formatter().parse(message.template) if f}
    assert fields <= set(message.params), message.id
    assert message.text == message.template.format(**message.params)
    assert "{" not in message.text and "_" not in message.text, message.text


def check_every_readers_messages(
    presenter: Presenter, events: list[Event], players: int, catalogue: Mapping[str, str]
) -> set[str]:
    """:func:`check_message` on what every seat and a spectator read; the ids read."""
    names = [f"P{i}" for i in range(players)]
    used: set[str] = set()
    for reader in [*range(players), None]:
        for message in presenter.messages(visible_events(events, reader), names, reader):
            check_message(message, catalogue)
            used.add(message.id)
    return used


def check_shorts(shown: Display, shorts: Collection[str]) -> None:
    """Every card on the display has one of the game's short codes."""
    assert all(c.short in shorts for z in shown.zones for c in z.cards), [
        c.short for z in shown.zones for c in z.cards if c.short not in shorts
    ]


def check_determinisation_shows_the_same(
    shown: Display,
    show: Callable[[State, int | None], Display],
    state: State,
    seat: int,
    rng: random.Random,
) -> None:
    """What ``seat`` may not know is re-drawn in a determinisation: its display is ``shown``."""
    world = show(state.determinize(seat, rng), seat).to_json()
    assert world == shown.to_json()
    assert json.dumps(world) == json.dumps(shown.to_json())


def check_catalogue_template(
    mid: str, catalogue: Mapping[str, str], game: str, log_events: Collection[str]
) -> None:
    """A catalogue entry of ``game`` is trimmed; an entry of a log line is a sentence."""
    template = catalogue[mid]
    assert mid.startswith(f"{game}.") and template == template.strip()
    if mid.split(".")[1] in log_events:  # a log line is a sentence
        assert template.endswith("."), template
        assert template[0].isupper() or template.startswith("{"), template
