"""Hidden information on the wire, tested the hard way.

A full game of every game is played through the server with one client per seat and a
spectator; every frame each client receives is checked against the server's truth at that
moment (``to_position()``):

- no frame holds a card from a hidden place of the position (another seat's hand, a deck, the
  board's face-down cards) unless that seat may know it now: its view shows it, or an event
  of this step addressed to it does;
- the frame's view is that seat's view, its events are only those addressed to it;
- its view and display model are the same in a determinisation for that seat (everything the
  seat cannot know re-dealt): they depend on nothing hidden;
- a second client per seat (and spectator) asks for display patches (``patch=1``): every frame
  it receives, patch and all, passes the same check, and the display model it rebuilds from the
  patches is the one the first client is sent whole.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import campfire
from campfire.core import State
from campfire.server import windows
from campfire.server.live import REALTIME_MODE

from .helpers import Seat, app_client, new_table, seats

GAMES = {"apache": 2, "dudab": 3, "manitou": 2, "tracker": 3}
#: the games whose display is checked against a determinisation at every step, not every fifth:
#: their hidden cards are not written as codes on the wire (Big Manitou: every seat holds the
#: same card names; Tracker: a card shows as words and a picture, "green scout"), so the check
#: of a frame's tokens cannot see them, and a display that is the same in every world can
WORLD_EVERY_STEP = ("manitou", "tracker")


def _hidden_places(game: str, position: dict[str, Any], seat: int | None) -> list[str]:
    """The cards of ``position`` in places ``seat`` cannot look at (position notation)."""
    s = position["state"]
    n = position["players"]
    others = [p for p in range(n) if p != seat]
    if game == "tracker":
        return [c for c in s["board"] if c] + [c for pile in s["captured"] for c in pile]
    if game == "dudab":
        cards = [c for p in others for c in s["hands"][p]] + list(s["draw"])
        cards += [c for pile in s.get("piles", []) for c in pile]
        return cards
    if game == "manitou":
        # every seat holds the same set of cards and the bag's tiles are public by count, so
        # card names are no secret: which seat holds which is, and the determinisation check
        # (_check_world, every frame of this game) is the test for it
        return []
    return list(s["deck"])


def _forms(game: str, card: str) -> set[str]:
    """The ways a card may be written on the wire (position and view notation)."""
    out = {card}
    m = re.fullmatch(r"N-(\w+)-(\w+)-(\d+)", card)
    if game == "dudab" and m:
        out.add("/".join(m.groups()))
    return out


def _tokens(text: str) -> set[str]:
    """Every maximal run of word characters, ``/`` and ``-`` (how cards are written)."""
    return set(re.findall(r"[\w/-]+", text))


def _check(game: Any, state: State, client: Seat, frame: dict[str, Any], names: list[str]) -> None:
    seat = client.seat
    view = json.loads(json.dumps(state.view(seat)))
    assert frame["view"] == view if client.views else "view" not in frame  # only if asked
    reveals = frame["step"]["display"]["reveals"] if frame["type"] == "delta" else []
    assert all(seat is not None and r["seat"] == seat for r in reveals)
    events = frame["step"]["events"] if frame["type"] == "delta" else []
    for event in events:
        assert "to" not in event or (seat is not None and seat in event["to"])
    # what the seat may know now: its view, its legal actions, this step's events addressed to it
    knowable = _tokens(json.dumps(view) + json.dumps(events) + json.dumps(frame["legal"]))
    sent = _tokens(json.dumps(frame))
    hidden = {
        form
        for card in _hidden_places(game.name, state.to_position(), seat)
        for form in _forms(game.name, card)
    }
    leaked = (hidden - knowable) & sent
    assert not leaked, (game.name, seat, sorted(leaked), frame)


def _check_world(
    game: Any,
    state: State,
    client: Seat,
    frame: dict[str, Any],
    rng: random.Random,
    names: list[str],
    mode: str = "turns",
) -> None:
    if client.seat is None or state.is_terminal():
        return
    world = state.determinize(client.seat, rng)
    legal = state.legal_actions(client.seat) if client.seat in state.seats_to_act() else []
    presenter = game.presenter()
    presenter.play_mode = mode  # the table's: a table of people times Apache's claims itself
    display = presenter.display(world.view(client.seat), legal, names).to_json()
    assert json.loads(json.dumps(display)) == frame["display"]


def _mode(live: Any) -> str:
    """The play mode the table's displays are drawn for (a table of people times the claims)."""
    return REALTIME_MODE if live.realtime else "turns"


def _without_view(frame: dict[str, Any]) -> dict[str, Any]:
    """``frame`` without its raw view, nor the seats' presence of a snapshot (which tells when
    each connection came: the plain clients join before the patched ones)."""
    out = {k: v for k, v in frame.items() if k != "view"}
    if isinstance(out.get("seats"), list):
        out["seats"] = [{k: v for k, v in s.items() if k != "presence"} for s in out["seats"]]
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_frame_holds_a_card_its_seat_may_not_know(
    name: str, sqlite_url: str, monkeypatch: Any
) -> None:
    # a table of people times Apache's claims: its windows stay open until every seat has
    # answered, so that a slow machine never closes one between two steps of the test
    timed = windows.window_length
    monkeypatch.setattr(windows, "window_length", lambda legal: timed(legal) and 600.0)
    game = campfire.get_game(name)
    players = GAMES[name]
    rng = random.Random(name)
    with app_client(sqlite_url, seed=11) as client:
        table, tokens = new_table(client, name, players)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        names = live.names()
        with (
            seats(client, table, tokens, check_every=7) as clients,
            seats(client, table, tokens, check_every=7, patches=True, views=False) as patched,
        ):

            def choose(to_act: list[Seat]) -> tuple[Seat, str]:
                c = rng.choice(to_act)
                return c, rng.choice(c.last["legal"])["notation"]

            steps = 0
            while clients[0].last["outcome"] is None:
                state = live.table.state
                for c, p in zip(clients, patched, strict=True):
                    _check(game, state, c, c.last, names)
                    _check(game, state, p, p.raw[-1], names)  # the patch as it came
                    # the model rebuilt from patches: the same; no raw view unless asked for
                    assert _without_view(p.last) == _without_view(c.last)
                    if name in WORLD_EVERY_STEP or steps % 5 == 0:
                        _check_world(game, state, c, c.last, rng, names, _mode(live))
                to_act = [c for c in clients if c.last["legal"]]
                c, action = choose(to_act)
                c.act(action)
                for c in [*clients, *patched]:
                    assert c.receive()["type"] == "delta"
                steps += 1
            state = live.table.state
            for c, p in zip(clients, patched, strict=True):
                _check(game, state, c, c.last, names)
                _check(game, state, p, p.raw[-1], names)
                assert _without_view(p.last) == _without_view(c.last)
                assert c.last["outcome"] == state.outcome().to_json()
    assert steps > 20
