"""The typed shapes of Dudab's view and event data (what bots, presenters and tools read).

:meth:`DudabState.view <campfire.games.dudab.state.DudabState.view>` returns a
:class:`DudabView`; each event's ``data`` has the shape that :data:`EVENT_DATA` names for its
type. Both are plain JSON-ready dicts at run time: a reader casts once where a view or an event
enters (``view = cast(DudabView, obs.view)``) and mypy checks every key it reads.
``tests/games/dudab/test_types.py`` checks the declarations against random games.

>>> from campfire import get_game
>>> view = get_game("dudab").new_game(3, seed=1).view(None)
>>> sorted(set(DudabView.__required_keys__) - set(view))
[]
"""

# No ``from __future__ import annotations`` here: Python 3.11's TypedDict must see the
# ``NotRequired`` markers themselves, not strings, to know which keys are optional.
from typing import Literal, NotRequired, TypedDict

__all__ = [
    "EVENT_DATA",
    "BabyCoverData",
    "BabyLaidData",
    "CaptureData",
    "CaptureHeapData",
    "CardData",
    "CardsData",
    "ColumnJson",
    "DudabOutcome",
    "DudabView",
    "GameOverData",
    "JungleLaidData",
    "ObligationJson",
    "PendingJson",
    "Phase",
    "PlaceData",
    "Prompt",
    "RestData",
    "RoundDetail",
    "RoundEndData",
    "RoundStartData",
    "SeatData",
    "SeatRounds",
    "ToPileData",
]

#: The game's phases (``PHASES`` of the state, in order); ``game_over`` when it is finished.
Phase = Literal["playing", "game_over"]
#: What is being decided now (``PROMPTS`` of the state).
Prompt = Literal[
    "turn",
    "shaman_reaction",
    "call_answer",
    "keep",
    "rest",
    "swap",
    "trim",
    "jungle",
    "baby",
    "game_over",
]


class ColumnJson(TypedDict):
    """One column: its visible cards (bottom first), a Jungle on it and the Baby heap under it."""

    cards: list[str]
    #: for each card of ``cards``, the seat that played it (None: nobody, a column's first
    #: card; or unknown, in a position written before Dudab recorded who played the cards)
    owners: list[int | None]
    jungle: bool
    #: the seat that laid the Jungle (None: no Jungle, or one turned up under a Baby)
    jungle_owner: int | None
    #: the value a Jungle covers (None without a Jungle)
    above: int | None
    heap: int


class ObligationJson(TypedDict):
    """The obligation pending on a column (dudab §3): a Shaman's reaction or a call's answer."""

    kind: Literal["shaman_reaction", "call"]
    #: the column, 1-based
    column: int
    #: (a call) what was called
    call: NotRequired[str]


class PendingJson(TypedDict):
    """One pending task, next first: its name, its seat and (a ``draw``) how many cards."""

    task: str
    seat: int
    count: NotRequired[int]


class RoundDetail(TypedDict):
    """One seat's round score breakdown (dudab §7)."""

    total: int
    hand_dudabs: int
    dudab_shaman_pairs: int
    dudab_numbers: list[int]
    jungle_values: list[int]
    shamans_removed: bool
    shaman_points: int
    baby_points: int
    number_points: int


class RoundEndData(TypedDict):
    """Data of ``round_end`` (and the view's ``last_round``): the hands, piles and scores."""

    round: int
    hands: list[list[str]]
    piles: list[list[str]]
    scores: list[int]
    details: list[RoundDetail]


class SeatRounds(TypedDict):
    """One seat's points per round (the outcome's details)."""

    rounds: list[int]


class DudabOutcome(TypedDict):
    """The outcome of a finished game as JSON (``Outcome.to_json``; the lowest total wins)."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    details: list[SeatRounds]


class RevealedHand(TypedDict):
    """A hand shown to everyone after a failed call (dudab §3.2)."""

    seat: int
    cards: list[str]


class DudabView(TypedDict):
    """What one seat (or a spectator, ``seat`` None) sees (dudab §9).

    Its own hand and pile (``hand``, ``pile``, ``kept``: seats only) and the public table. Cards
    are face names such as ``red/fur/3``, ``dudab`` or ``shaman/blue``.
    """

    game: Literal["dudab"]
    #: the viewing seat (None: a spectator)
    seat: int | None
    players: int
    use_jungle: bool
    use_baby: bool
    #: the round being played, 1-based, of ``rounds``
    round: int
    rounds: int
    start_player: int
    round_start_player: int
    phase: Phase
    prompt: Prompt
    to_act: list[int]
    #: the seat whose step it is (None once the game is over)
    actor: int | None
    obligation: ObligationJson | None
    pending: list[PendingJson]
    columns: list[ColumnJson]
    discard: list[str]
    draw_pile: int
    hand_sizes: list[int]
    pile_sizes: list[int]
    #: how many cards of a capture the capturer has kept so far
    kept_count: int
    revealed: RevealedHand | None
    #: each seat's points of every round played
    scores: list[list[int]]
    totals: list[int]
    #: the report of the last round scored (None before the first)
    last_round: RoundEndData | None
    #: (seats only) the seat's hand
    hand: NotRequired[list[str]]
    #: (seats only) the seat's own pile
    pile: NotRequired[list[str]]
    #: (seats only) the cards the seat keeps from its capture (empty unless it is capturing)
    kept: NotRequired[list[str]]
    #: (game over) the outcome
    outcome: NotRequired[DudabOutcome]


class SeatData(TypedDict):
    """Data of the events that only name a seat.

    ``draw``, ``penalty``, ``call_failed``, ``keep``, ``jungle_drawn``, ``jungle_discarded``
    and ``baby_drawn``.
    """

    seat: int


class CardData(TypedDict):
    """Data of ``drawn_card``, ``keep_card`` and ``to_pile_card`` (to that seat only)."""

    seat: int
    card: str


class CardsData(TypedDict):
    """Data of ``deal`` and ``rest_cards`` (to that seat only) and ``reveal_hand`` (public)."""

    seat: int
    cards: list[str]


class PlaceData(TypedDict):
    """Data of ``place``: a card laid on a column (1-based), with a Dudab's call or None."""

    seat: int
    card: str
    column: int
    call: str | None


class CaptureData(TypedDict):
    """Data of ``capture``: the column's cards taken, and the Baby heap under it."""

    seat: int
    column: int
    cards: list[str]
    heap: int


class CaptureHeapData(TypedDict):
    """Data of ``capture_heap`` (to the capturer only): the cards of the Baby heap."""

    seat: int
    cards: list[str]


class PenaltyRevealData(TypedDict):
    """Data of ``penalty_reveal``: the card revealed by a Shaman penalty."""

    card: str


class RestData(TypedDict):
    """Data of ``rest``: where the rest of a capture went; discarded cards are public."""

    seat: int
    to: Literal["pile", "discard"]
    count: int
    cards: NotRequired[list[str]]


class ToPileData(TypedDict):
    """Data of ``to_pile``: a card moved from hand to the own pile (None: not shown)."""

    seat: int
    card: str | None


class JungleLaidData(TypedDict):
    """Data of ``jungle_laid``: a Jungle on a column, covering the value ``above``."""

    seat: int
    column: int
    above: int


class BabyLaidData(TypedDict):
    """Data of ``baby_laid``: a Baby on a column, burying a heap of ``heap`` cards."""

    seat: int
    column: int
    heap: int


class BabyCoverData(TypedDict):
    """Data of ``baby_cover``: the card turned over a Baby on a column."""

    column: int
    card: str


class RoundStartData(TypedDict):
    """Data of ``round_start``: the starting column cards and the draw pile."""

    round: int
    start_player: int
    columns: list[str]
    draw_pile: int


class GameOverData(TypedDict):
    """Data of ``game_over``: the outcome."""

    outcome: DudabOutcome


#: Each event type and the shape of its data.
EVENT_DATA: dict[str, type] = {
    "round_start": RoundStartData,
    "deal": CardsData,
    "place": PlaceData,
    "capture": CaptureData,
    "capture_heap": CaptureHeapData,
    "draw": SeatData,
    "drawn_card": CardData,
    "call_failed": SeatData,
    "reveal_hand": CardsData,
    "penalty": SeatData,
    "penalty_reveal": PenaltyRevealData,
    "keep": SeatData,
    "keep_card": CardData,
    "rest": RestData,
    "rest_cards": CardsData,
    "to_pile": ToPileData,
    "to_pile_card": CardData,
    "jungle_drawn": SeatData,
    "jungle_discarded": SeatData,
    "jungle_laid": JungleLaidData,
    "baby_drawn": SeatData,
    "baby_laid": BabyLaidData,
    "baby_cover": BabyCoverData,
    "round_end": RoundEndData,
    "game_over": GameOverData,
}
