"""Every event type of every game survives a JSON round trip with its type (issue: an event's
``data`` with a ``type`` key used to overwrite the event type in ``Event.to_json``)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import campfire
from campfire.core import CampfireError, Event, Game
from tests.games.manitou.helpers import play_state, up

DOCS = Path(__file__).resolve().parents[2] / "docs" / "notation"
GAMES = campfire.all_games()


def documented_event_types(game: Game[Any]) -> set[str]:
    """The event types listed in the ``## Events`` table of the game's notation document.

    ``docs/notation/<game>.md`` for a built-in game; a plugin keeps its own in its package,
    ``notation/<game>.md`` (``docs/writing-a-game.md``).
    """
    path = DOCS / f"{game.name}.md"
    if path.is_file():
        text = path.read_text(encoding="utf-8")
    else:
        document = game.package_files().joinpath("notation").joinpath(f"{game.name}.md")
        text = document.read_text(encoding="utf-8")
    section = text[text.index("## Events") :]
    end = section.find("\n## ", 5)
    section = section if end < 0 else section[:end]
    types: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            types.update(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    return types


def sample_events(game: Game[Any]) -> dict[str, list[Event]]:
    """A few events of each type from random games: every option combination once, at a
    player count that cycles through the range."""
    found: dict[str, list[Event]] = {}
    span = game.max_players - game.min_players + 1
    for i, options in enumerate(game.options_type.combinations()):
        players = game.min_players + i % span
        state = game.new_game(players, options, seed=i)
        rng = random.Random(i)
        while not state.is_terminal():
            seats = state.seats_to_act()
            seat = seats[rng.randrange(len(seats))]
            legal = state.legal_actions(seat)
            for event in state.apply(seat, legal[rng.randrange(len(legal))]):
                kept = found.setdefault(event.type, [])
                if len(kept) < 3:
                    kept.append(event)
    if game.name == "manitou":  # no playable card: too rare for random play
        full = [[up(0, "spy"), up(0, "chief")], [up(0, "squaw"), up(0, "chief")]]
        full.append([up(0, "squaw"), up(0, "shaman")])
        state = play_state(2, 0, {0: ["healer"]}, dealer=1, table=full)
        for event in state.apply(0, "pass"):
            found.setdefault(event.type, []).append(event)
    return found


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_event_type_survives_a_json_round_trip_with_its_type(game: Game[Any]) -> None:
    found = sample_events(game)
    assert set(found) == documented_event_types(game)
    for type_, events in found.items():
        for event in events:
            data = json.loads(json.dumps(event.to_json()))
            assert data["type"] == type_
            assert Event.from_json(data) == event


def test_apache_claim_events_keep_their_type_beside_the_card_type() -> None:
    state = campfire.get_game("apache").new_game(2, {"claim_order": "arrival"}, seed=1)
    state.apply(state.current_seat(), "reveal")
    (claim,) = state.apply(0, "claim hunter")
    assert claim.to_json() == {"type": "claim", "data": {"seat": 0, "type": "hunter"}}


def test_private_events_keep_their_seats() -> None:
    event = Event("peek_card", {"seat": 1, "pos": 3, "card": "S-T1-1"}, frozenset({1}))
    assert event.to_json()["to"] == [1]
    assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"type": "claim", "seat": 0},  # the old flat form
        {"type": "", "data": {}},
        {"type": 3, "data": {}},
        {"type": "claim", "data": []},
        {"type": "peek", "data": {}, "to": [True]},
        {"type": "peek", "data": {}, "to": 1},
    ],
)
def test_malformed_event_json_is_a_clear_error(bad: Any) -> None:
    with pytest.raises(CampfireError, match="event"):
        Event.from_json(bad)
