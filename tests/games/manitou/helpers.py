"""Helpers for building Big Manitou positions in tests (explicit tiles, never the tile mix)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from campfire.core import Event
from campfire.games.manitou import GAME, ManitouState
from campfire.games.manitou.state import HUNTS, TILES_PER_GROUND

Card = tuple[int, str, bool]


def fresh(
    players: int = 3, dealer: int = 0, tiles: Sequence[str] = (), seed: int = 0, **options: Any
) -> ManitouState:
    """A new game with an explicit bag (draw order) and dealer."""
    return GAME.new_game(
        players, options, setup={"dealer": dealer, "tiles": list(tiles)}, seed=seed
    )


def make_state(
    players: int = 3, dealer: int = 0, options: dict[str, Any] | None = None, **fields: Any
) -> ManitouState:
    """A position, built through the public position format: a fresh game's position with some
    state fields replaced.

    A game-over position is after the last hunt, grounds with more tiles than the player count
    lays out set ``tiles_per_ground``; after the selection, ``selected`` defaults to each seat's
    cards on the table, in hand and in deck (the loader checks that every card is in one place).
    """
    options = dict(options or {})
    most = max((len(g) for g in fields.get("grounds", ())), default=0)
    if most > TILES_PER_GROUND[players] and "tiles_per_ground" not in options:
        options["tiles_per_ground"] = most  # the loader checks the grounds against it
    if fields.get("phase") == "game_over":
        fields.setdefault("hunt", HUNTS[players] + 1)
    base = fresh(players, dealer, **options)
    position = base.to_position()
    state = position["state"]
    state.update(fields)
    if "selected" not in fields and state["phase"] not in ("select", "game_over"):
        state["selected"] = [
            [card for cards in state["table"] for seat, card, _ in cards if seat == p]
            + state["hands"][p]
            + state["decks"][p]
            for p in range(players)
        ]
    return GAME.state_from_position(position)


def up(seat: int, card: str) -> list[Any]:
    return [seat, card, True]


def down(seat: int, card: str) -> list[Any]:
    return [seat, card, False]


def play_state(
    players: int,
    actor: int,
    hands: dict[int, list[str]],
    table: Sequence[Sequence[list[Any]]] = ((), (), ()),
    dealer: int = 0,
    grounds: Sequence[Sequence[str]] = ((), (), ()),
    options: dict[str, Any] | None = None,
    turn: int | None = None,
    **fields: Any,
) -> ManitouState:
    """A play-phase position in which ``actor`` is to play (first round unless ``turn``)."""
    if turn is None:
        turn = (actor - dealer - 1) % players
    assert (dealer + 1 + turn) % players == actor
    return make_state(
        players,
        dealer,
        options,
        phase="play",
        seat=actor,
        play_turn=turn,
        hands=[hands.get(p, []) for p in range(players)],
        table=[list(cards) for cards in table],
        grounds=[list(g) for g in grounds],
        **fields,
    )


def evaluate(
    players: int,
    table: Sequence[Sequence[Sequence[Any]]],
    grounds: Sequence[Sequence[str]],
    owned: dict[int, list[str]] | None = None,
    dealer: int = 0,
    holder: int = 0,
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> tuple[ManitouState, list[Event]]:
    """A position after all cards (horse phase, ``holder`` may move) and the events of 'pass'."""
    owned = owned or {}
    state = make_state(
        players,
        dealer,
        options,
        phase="horse",
        seat=holder,
        play_turn=7 * players,
        horse_holder=holder,
        table=[list(cards) for cards in table],
        grounds=[list(g) for g in grounds],
        tiles_owned=[owned.get(p, []) for p in range(players)],
        **fields,
    )
    events = state.apply(holder, "pass")
    return state, events


def tiles_of(state: ManitouState, seat: int) -> list[str]:
    tiles: list[str] = state.view(None)["tiles_owned"][seat]
    return tiles


def takes(events: Sequence[Event]) -> list[tuple[int, int, str]]:
    return [(e.data["seat"], e.data["ground"], e.data["tile"]) for e in events if e.type == "take"]


def cards_at(state: ManitouState, g: int) -> list[list[Any]]:
    """The cards at ground g (1-based) as [seat, card, face_up]."""
    # lists at run time (JSON arrays); the view declares them as the GroundCard tuples read there
    return cast(list[list[Any]], state.view(None)["grounds"][g - 1]["cards"])


def play_first_legal(state: ManitouState) -> list[Event]:
    """Play until the state leaves the current hunt's play phase, choosing first legal actions."""
    events: list[Event] = []
    while state.phase_name == "play":
        seat = state.seats_to_act()[0]
        events += state.apply(seat, state.legal_actions(seat)[0])
    return events
