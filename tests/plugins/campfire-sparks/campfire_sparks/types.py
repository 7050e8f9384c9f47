"""The typed shapes of Sparks' view and event data (what bots, presenters and encoders read).

:meth:`SparksState.view <campfire_sparks.state.SparksState.view>` returns a :class:`SparksView`;
each event's ``data`` has the shape :data:`EVENT_DATA` names for its type. Both are plain
JSON-ready dicts at run time.
"""

# No ``from __future__ import annotations``: Python 3.11's TypedDict must see ``NotRequired``.
from typing import Literal, NotRequired, TypedDict

__all__ = [
    "EVENT_DATA",
    "GameOverData",
    "Phase",
    "PlayData",
    "ScoreDetail",
    "SparksOutcome",
    "SparksView",
    "TrickData",
]

#: ``playing`` until every card is played, then ``game_over``
Phase = Literal["playing", "game_over"]


class ScoreDetail(TypedDict):
    """One seat's score breakdown (sparks rules §5)."""

    tricks: int
    last_trick: int


class SparksOutcome(TypedDict):
    """The outcome of a finished game as JSON (``Outcome.to_json``)."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    details: list[ScoreDetail]


class SparksView(TypedDict):
    """What one seat (or a spectator, ``seat`` None) sees: its own hand, never another's."""

    game: Literal["sparks"]
    seat: int | None
    players: int
    hand_size: int
    trumps: bool
    phase: Phase
    to_act: list[int]
    start_player: int
    #: the seat that led the current trick (the winner of the last one)
    leader: int
    #: the cards of the current trick, in the order played from the leader
    trick: list[str]
    #: the led suit's name (``red``, ``blue``, ``green``), None while the trick is empty
    led: str | None
    #: the seat's own hand, sorted (empty for a spectator)
    hand: list[str]
    hand_counts: list[int]
    #: tricks won by each seat
    tricks: list[int]
    #: the last completed trick, in the order played, and who led it
    last_trick: list[str]
    last_leader: int | None
    #: every card of the completed tricks, sorted
    played: list[str]
    #: the face-down cards nobody was dealt
    unused_count: int
    outcome: NotRequired[SparksOutcome]


class PlayData(TypedDict):
    """Data of ``play``: a card played; ``void`` names the led suit the seat lacks, if it did."""

    seat: int
    card: str
    void: str | None


class TrickData(TypedDict):
    """Data of ``trick``: the trick ``number`` (1-based) was won by ``winner``."""

    number: int
    leader: int
    winner: int
    cards: list[str]


class GameOverData(TypedDict):
    """Data of ``game_over``: the outcome."""

    outcome: SparksOutcome


EVENT_DATA: dict[str, type] = {"play": PlayData, "trick": TrickData, "game_over": GameOverData}
