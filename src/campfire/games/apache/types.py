"""The typed shapes of Apache's view and event data (what bots, presenters and tools read).

:meth:`ApacheState.view <campfire.games.apache.state.ApacheState.view>` returns an
:class:`ApacheView`; each event's ``data`` has the shape that :data:`EVENT_DATA` names for its
type. Both are plain JSON-ready dicts at run time: a reader casts once where a view or an event
enters (``view = cast(ApacheView, obs.view)``) and mypy checks every key it reads.
``tests/games/apache/test_types.py`` checks the declarations against random games.

>>> from campfire import get_game
>>> view = get_game("apache").new_game(2, seed=1).view(0)
>>> sorted(set(ApacheView.__required_keys__) - set(view))
[]
"""

# No ``from __future__ import annotations`` here: Python 3.11's TypedDict must see the
# ``NotRequired`` markers themselves, not strings, to know which keys are optional.
from typing import Literal, NotRequired, TypedDict

__all__ = [
    "EVENT_DATA",
    "AnswerData",
    "ApacheOutcome",
    "ApacheView",
    "ChooseData",
    "ClaimData",
    "ClaimJson",
    "ClaimOrder",
    "ClaimResolvedData",
    "GameOverData",
    "Phase",
    "PileDetail",
    "ProtectMe",
    "RevealData",
    "SeatData",
    "TypeName",
    "WindowClosedData",
]

#: The game's phases (``PHASES`` of the state, in order); ``game_over`` when it is finished.
Phase = Literal["reveal", "claim", "choose", "game_over"]
#: How a claim window's queue is ordered (the ``claim_order`` option).
ClaimOrder = Literal["reaction", "arrival"]
#: An Indian type, as claims name it.
TypeName = Literal["chief", "maiden", "warrior", "hunter"]


class ClaimJson(TypedDict):
    """One claim of a window: its seat and type, reaction time (None: arrival order), legality."""

    seat: int
    type: TypeName
    ms: int | None
    legal: bool


class ProtectMe(TypedDict):
    """For a seat still to answer the poll: which claim types would be legal now (apache §11.4)."""

    chief: bool
    maiden: bool
    warrior: bool
    hunter: bool


class PileDetail(TypedDict):
    """One seat's victory pile at the end: cards, buffalo among them, the seat's colour."""

    cards: int
    buffalo: int
    colour: str


class ApacheOutcome(TypedDict):
    """The outcome of a finished game as JSON (``Outcome.to_json``)."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    details: list[PileDetail]


class ApacheView(TypedDict):
    """What one seat (or a spectator, ``seat`` None) sees (apache §11.5).

    Everything but the order of the face-down cards and, during a reaction poll, the other
    seats' answers. Cards are ids such as ``red-chief`` or ``totem``.
    """

    game: Literal["apache"]
    #: the viewing seat (None: a spectator)
    seat: int | None
    players: int
    #: each seat's colour name
    colours: list[str]
    #: the colours no seat plays (neutral Indians)
    neutral_colours: list[str]
    claim_order: ClaimOrder
    phase: Phase
    #: the seats to act now
    to_act: list[int]
    start_player: int
    revealer: int
    #: the number of the current claim window (one per reveal)
    window: int
    deck_left: int
    #: whether the card last revealed was the deck's last
    last_card: bool
    #: the prairie (the face-up table), oldest first
    table: list[str]
    #: each seat's victory pile
    piles: list[list[str]]
    #: each seat's pile size
    scores: list[int]
    discarded: list[str]
    #: during a poll, each seat's answer: None (not yet, or no poll), "pass", a claim's
    #: notation (one's own, or anybody's in arrival order) or "hidden"
    answers: list[str | None]
    #: the claims of the window being resolved, in resolution order
    queue: list[ClaimJson]
    #: how many claims of the queue are resolved
    resolved: int
    #: the window's tie-break order of seats (None before it is drawn)
    tiebreak: list[int] | None
    #: the choices (notation) the claimant may make now
    choices: list[str]
    #: (a seat still to answer the poll) which claim types are legal for it
    protect_me: NotRequired[ProtectMe]
    #: (game over) the outcome
    outcome: NotRequired[ApacheOutcome]


class SeatData(TypedDict):
    """Data of ``revealer``, ``answered`` and ``pass``."""

    seat: int


class RevealData(TypedDict):
    """Data of ``reveal``: the card turned up, its window and the cards left face down."""

    seat: int
    card: str
    window: int
    deck_left: int


class AnswerData(TypedDict):
    """Data of ``answer`` (to the answering seat only): its own answer, ``pass`` or a claim."""

    seat: int
    answer: str


class ClaimData(TypedDict):
    """Data of ``claim``: a claim announced (arrival order, or when a poll is revealed)."""

    seat: int
    type: TypeName


class WindowClosedData(TypedDict):
    """Data of ``window_closed``: every claim of the window in resolution order."""

    window: int
    queue: list[ClaimJson]
    tiebreak: list[int] | None


class ChooseData(TypedDict):
    """Data of ``choose``: the claimant must pick its booty among ``choices``."""

    seat: int
    type: TypeName
    choices: list[str]


class ClaimResolvedData(TypedDict):
    """Data of ``claim_resolved``: what one claim did (apache §7).

    ``result`` is ``won``, ``starved`` or ``penalty``; a won claim names its booty option, the
    choice and the cards (and any war tribute, ``[payer, cards paid]`` pairs); a penalty names
    the cards discarded.
    """

    seat: int
    type: TypeName
    result: Literal["won", "starved", "penalty"]
    #: the claimant's pile size after the claim
    pile: int
    option: NotRequired[Literal["normal", "teepees", "marriage"]]
    choice: NotRequired[str]
    cards: NotRequired[list[str]]
    tribute: NotRequired[list[list[int]]]
    discarded: NotRequired[list[str]]


class GameOverData(TypedDict):
    """Data of ``game_over``: the outcome."""

    outcome: ApacheOutcome


#: Each event type and the shape of its data.
EVENT_DATA: dict[str, type] = {
    "revealer": SeatData,
    "reveal": RevealData,
    "answered": SeatData,
    "answer": AnswerData,
    "pass": SeatData,
    "claim": ClaimData,
    "window_closed": WindowClosedData,
    "choose": ChooseData,
    "claim_resolved": ClaimResolvedData,
    "game_over": GameOverData,
}
