"""Helpers for building Tracker positions in tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from campfire.core import Event
from campfire.games.tracker import GAME, TrackerState
from campfire.games.tracker.cards import NUM_CARDS, card_name


def make_setup(
    tribes: Sequence[str] = ("T0", "T1", "T2"),
    placements: Mapping[int, str] | None = None,
    start_player: int = 0,
) -> dict[str, Any]:
    """A setup with the given cards on the given positions; the rest in card order."""
    placements = dict(placements or {})
    placed = set(placements.values())
    rest = [card_name(c) for c in range(NUM_CARDS) if card_name(c) not in placed]
    board = [placements[p] if p in placements else rest.pop(0) for p in range(60)]
    return {"tribes": list(tribes), "start_player": start_player, "board": board}


def new_state(
    tribes: Sequence[str] = ("T0", "T1", "T2"),
    placements: Mapping[int, str] | None = None,
    start_player: int = 0,
    **options: Any,
) -> TrackerState:
    return GAME.new_game(len(tribes), options, setup=make_setup(tribes, placements, start_player))


def position_of(state: TrackerState, name: str) -> int:
    """The position of a card on the board."""
    return next(p for p, c in enumerate(state.board) if c >= 0 and card_name(c) == name)


def play(state: TrackerState, seat: int, *steps: str) -> list[Event]:
    events: list[Event] = []
    for step in steps:
        events.extend(state.apply(seat, step))
    return events


def capture_turn(
    state: TrackerState,
    seat: int,
    positions: Iterable[int] = (),
    trackers: int = 1,
    moves: Iterable[tuple[int, int]] = (),
) -> list[Event]:
    """A whole capture turn: play trackers, take positions, done, relocate, done if needed."""
    events = play(state, seat, f"track {trackers}")
    for pos in positions:
        events += state.apply(seat, f"take {pos}")
    if state.step_name == "collecting":
        events += state.apply(seat, "done")
    for src, dst in moves:
        events += play(state, seat, f"lift {src}", f"drop {dst}")
    if state.seats_to_act() == (seat,) and state.step_name == "relocating":
        events += state.apply(seat, "done")
    return events


def captured_names(state: TrackerState, seat: int) -> list[str]:
    return [card_name(c) for c in state.captured[seat]]
