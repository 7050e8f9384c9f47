"""The typed shapes of Tracker's view and event data (what bots, presenters and tools read).

:meth:`TrackerState.view <campfire.games.tracker.state.TrackerState.view>` returns a
:class:`TrackerView`; each event's ``data`` has the shape that :data:`EVENT_DATA` names for its
type. Both are plain JSON-ready dicts at run time: a reader casts once where a view or an event
enters (``view = cast(TrackerView, obs.view)``) and mypy checks every key it reads.
``tests/games/tracker/test_types.py`` checks the declarations against random games.

>>> from campfire import get_game
>>> view = get_game("tracker").new_game(2, seed=1).view(0)
>>> sorted(set(TrackerView.__required_keys__) - set(view))
[]
"""

# No ``from __future__ import annotations`` here: Python 3.11's TypedDict must see the
# ``NotRequired`` markers themselves, not strings, to know which keys are optional.
from typing import Literal, NotRequired, TypedDict

__all__ = [
    "EVENT_DATA",
    "CollectionDoneData",
    "GameOverData",
    "LiftData",
    "PeekCardData",
    "PeekData",
    "Phase",
    "RelocateData",
    "ScoreDetail",
    "SeatData",
    "Step",
    "TrackerOutcome",
    "TrackerView",
    "TrackersPlayedData",
]

#: The game's phases (``PHASES`` of the state, in order); ``game_over`` when it is finished.
Phase = Literal["normal", "final_peek", "final_capture", "game_over"]
#: The step within a turn (``STEPS`` of the state, in order).
Step = Literal["turn_start", "peeking", "collecting", "relocating", "placing"]


class ScoreDetail(TypedDict):
    """One seat's score breakdown (tracker §7)."""

    own_scouts_on_board: int
    own_scouts_captured: int
    enemy_scouts_captured: int
    false_tracks_captured: int


class TrackerOutcome(TypedDict):
    """The outcome of a finished game as JSON (``Outcome.to_json``)."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    details: list[ScoreDetail]


class TrackerView(TypedDict):
    """What one seat (or a spectator, ``seat`` None) sees (tracker §8): no card identities.

    Positions are 0–59 (:data:`~campfire.games.tracker.cards.BOARD_POSITIONS`), tribes ``T0`` …
    ``T5``, cards ids such as ``S-T3-1``. Every seat and the spectator see the same keys; the
    face-up board, the piles and the outcome are there only when the game is over.
    """

    game: Literal["tracker"]
    #: the viewing seat (None: a spectator)
    seat: int | None
    players: int
    peek_count: int
    max_relocations: int
    phase: Phase
    step: Step
    #: the seats to act now (none once the game is over)
    to_act: list[int]
    start_player: int
    #: the seat that played its last tracker (the final round has begun), else None
    last_player: int | None
    #: each seat's tribe id
    tribes: list[str]
    #: each seat's trackers left in hand
    trackers: list[int]
    #: trackers in the centre
    centre: int
    #: how many cards each seat has captured
    captured_counts: list[int]
    #: the positions holding a face-down card, ascending
    occupied: list[int]
    #: the positions peeked this turn
    peeked_this_turn: list[int]
    relocations_this_turn: int
    #: the position of the card lifted for a relocation, else None
    lifted: int | None
    #: (game over) each position's card id, None where empty
    board: NotRequired[list[str | None]]
    #: (game over) each seat's captured card ids
    captured: NotRequired[list[list[str]]]
    #: (game over) the outcome
    outcome: NotRequired[TrackerOutcome]


class SeatData(TypedDict):
    """Data of ``final_peek_declined``, ``final_turns``, ``player_out``, ``relocations_done``."""

    seat: int


class PeekData(TypedDict):
    """Data of ``peek`` (public: where a seat peeked) and ``take`` (a card collected)."""

    seat: int
    pos: int


class PeekCardData(TypedDict):
    """Data of ``peek_card``: the card seen, shown only to the peeker."""

    seat: int
    pos: int
    card: str


#: Data of ``lift``: the card on ``pos`` is picked up for a relocation.
LiftData = PeekData


class TrackersPlayedData(TypedDict):
    """Data of ``trackers_played``: ``count`` trackers into the centre, ``left`` in hand."""

    seat: int
    count: int
    left: int


class CollectionDoneData(TypedDict):
    """Data of ``collection_done``: the capture ended with ``count`` cards collected."""

    seat: int
    count: int


# ``from`` is a keyword, hence the functional form.
RelocateData = TypedDict("RelocateData", {"seat": int, "from": int, "to": int})
RelocateData.__doc__ = "Data of ``relocate``: a card moved from one position to an empty one."


class GameOverData(TypedDict):
    """Data of ``game_over``: the face-up board and piles, and the outcome."""

    board: list[str | None]
    captured: list[list[str]]
    outcome: TrackerOutcome


#: Each event type and the shape of its data.
EVENT_DATA: dict[str, type] = {
    "peek": PeekData,
    "peek_card": PeekCardData,
    "final_peek_declined": SeatData,
    "trackers_played": TrackersPlayedData,
    "take": PeekData,
    "collection_done": CollectionDoneData,
    "lift": LiftData,
    "relocate": RelocateData,
    "relocations_done": SeatData,
    "player_out": SeatData,
    "final_turns": SeatData,
    "game_over": GameOverData,
}
