"""The typed shapes of Big Manitou's view and event data (what bots, presenters and tools read).

:meth:`ManitouState.view <campfire.games.manitou.state.ManitouState.view>` returns a
:class:`ManitouView`; each event's ``data`` has the shape that :data:`EVENT_DATA` names for its
type. Both are plain JSON-ready dicts at run time: a reader casts once where a view or an event
enters (``view = cast(ManitouView, obs.view)``) and mypy checks every key it reads.
``tests/games/manitou/test_types.py`` checks the declarations against random games.

>>> from campfire import get_game
>>> view = get_game("manitou").new_game(3, seed=1).view(0)
>>> sorted(set(ManitouView.__required_keys__) - set(view))
[]
"""

# No ``from __future__ import annotations`` here: Python 3.11's TypedDict must see the
# ``NotRequired`` markers themselves, not strings, to know which keys are optional.
from typing import Literal, NotRequired, TypedDict

__all__ = [
    "EVENT_DATA",
    "CardData",
    "GameOverData",
    "GroundCard",
    "GroundJson",
    "HandData",
    "HandSizesData",
    "HeroDownData",
    "HorseMoveData",
    "HuntEndData",
    "HuntStartData",
    "ManitouOutcome",
    "ManitouView",
    "Phase",
    "PickData",
    "PieceData",
    "PlayData",
    "RobbedData",
    "ScoreDetail",
    "SeatData",
    "SharingJson",
    "SharingStep",
    "TakeData",
    "ThiefData",
    "TilesData",
    "YourCards",
]

#: The game's phases (``PHASES`` of the state, in order); ``game_over`` when it is finished.
Phase = Literal["select", "play", "totem", "horse", "thief", "take", "game_over"]

#: A card on a ground: ``[seat, card, face_up]``, e.g. ``[1, "h7", true]``. It is a JSON
#: array (a ``list`` at run time), declared as the tuple it is read as: readers unpack it.
GroundCard = tuple[int, str, bool]


class GroundJson(TypedDict):
    """One hunting ground: its tiles and the cards played there, oldest first."""

    tiles: list[str]
    cards: list[GroundCard]


#: The step of a ground's sharing (manitou §6): before it, the hero, the best hunter, the second.
SharingStep = Literal["start", "hero", "best_hunter", "second_hunter"]


class SharingJson(TypedDict):
    """The sharing of a ground's tiles (manitou §6) under way."""

    #: the ground being shared, 1-based
    ground: int
    step: SharingStep
    #: the seat choosing tiles now (None: nobody yet)
    chooser: int | None
    picks_left: int


class YourCards(TypedDict):
    """A seat's own cards: its secret selection, its hand and its deck (sorted)."""

    selection: list[str]
    hand: list[str]
    deck: list[str]


class ScoreDetail(TypedDict):
    """One seat's points breakdown (manitou §7)."""

    buffalo: int
    tipis: int
    pairs: int
    totem_tiles: int
    horse_tiles: int
    tomahawk_tiles: int
    pieces: int
    highest_tile: int


class ManitouOutcome(TypedDict):
    """The outcome of a finished game as JSON (``Outcome.to_json``)."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    details: list[ScoreDetail]


class ManitouView(TypedDict):
    """What one seat (or a spectator, ``seat`` None) sees (manitou §9).

    Never another seat's selection, hand or deck. Cards are ``h1`` … ``h10``, ``chief``,
    ``squaw``, ``shaman``, ``spy``, ``healer``; tiles ``buffalo1`` … ``tomahawk``.
    """

    game: Literal["manitou"]
    #: the viewing seat (None: a spectator)
    seat: int | None
    players: int
    #: the hunt being played, 1-based, of ``hunts``
    hunt: int
    hunts: int
    dealer: int
    first_player: int
    phase: Phase
    to_act: list[int]
    grounds: list[GroundJson]
    #: each seat's tiles
    tiles_owned: list[list[str]]
    totem_holder: int | None
    horse_holder: int | None
    #: each seat's cards used since its deck was last refilled
    used_this_cycle: list[list[str]]
    selection_sizes: list[int]
    selected_counts: list[int]
    hand_sizes: list[int]
    deck_sizes: list[int]
    play_turn: int
    bag_size: int
    out_of_game: list[str]
    #: the points each seat's tiles make now (manitou §7)
    scores: list[int]
    #: (thief and take phases) the seats the thief has yet to rob
    thief_queue: NotRequired[list[int]]
    #: (thief and take phases) each seat's tomahawk count, None before it is counted
    tomahawks_counted: NotRequired[list[int] | None]
    #: (thief and take phases) the sharing under way
    sharing: NotRequired[SharingJson]
    #: (seats only) the seat's own cards
    you: NotRequired[YourCards]
    #: (game over) the outcome
    outcome: NotRequired[ManitouOutcome]


class SeatData(TypedDict):
    """Data of the events that only name a seat.

    ``draw``, ``horse_pass``, ``totem_pass``, ``no_play`` and ``thief_finds_nothing``.
    """

    seat: int


class HandSizesData(TypedDict):
    """Data of ``dealt`` and ``play_over``: every seat's hand size."""

    hand_sizes: list[int]


class CardData(TypedDict):
    """Data of ``draw_card`` and ``pick_card`` (to that seat only): the card."""

    seat: int
    card: str


class HandData(TypedDict):
    """Data of ``hand`` (to that seat only): its hand."""

    seat: int
    hand: list[str]


class PickData(TypedDict):
    """Data of ``pick``: a seat's selection grew to ``count`` cards."""

    seat: int
    count: int


class PlayData(TypedDict):
    """Data of ``play``: a card played to a ground (1-based), as the totem's extra card or not."""

    seat: int
    card: str
    ground: int
    totem: bool


class HeroDownData(TypedDict):
    """Data of ``hero_down``: a hero turned face down (manitou §5.2).

    ``reason`` is ``beaten`` (by a hero that beats it), ``tie`` (same type) or ``sacrifice``.
    """

    seat: int
    card: str
    ground: int
    by_seat: int
    by: str
    reason: Literal["beaten", "tie", "sacrifice"]


# ``from`` is a keyword, hence the functional form.
HorseMoveData = TypedDict("HorseMoveData", {"seat": int, "card": str, "from": int, "to": int})
HorseMoveData.__doc__ = "Data of ``horse_move``: a hunter moved from one ground to another."

PieceData = TypedDict("PieceData", {"piece": str, "from": int | None, "to": int})
PieceData.__doc__ = "Data of ``piece``: the totem or horse piece passed (from None: the bag)."


class TakeData(TypedDict):
    """Data of ``take``: a tile taken from a ground being shared."""

    seat: int
    ground: int
    tile: str


class RobbedData(TypedDict):
    """Data of ``robbed``: the thief took a tile from ``seat``."""

    seat: int
    tile: str


class ThiefData(TypedDict):
    """Data of ``thief``: the seats robbed and each seat's tomahawk sum."""

    robbed: list[int]
    sums: list[int]


class TilesData(TypedDict):
    """Data of ``tiles_removed`` and ``tiles_to_bag``: a ground's tiles leaving it."""

    ground: int
    tiles: list[str]


class HuntStartData(TypedDict):
    """Data of ``hunt_start``: the hunt, its dealer and first player, the grounds' tiles."""

    hunt: int
    dealer: int
    first_player: int
    grounds: list[list[str]]
    selection_sizes: list[int]


class HuntEndData(TypedDict):
    """Data of ``hunt_end``: the tiles owned and the points after the hunt."""

    hunt: int
    tiles_owned: list[list[str]]
    scores: list[int]
    details: list[ScoreDetail]


class GameOverData(TypedDict):
    """Data of ``game_over``: the outcome."""

    outcome: ManitouOutcome


#: Each event type and the shape of its data.
EVENT_DATA: dict[str, type] = {
    "hunt_start": HuntStartData,
    "pick": PickData,
    "pick_card": CardData,
    "dealt": HandSizesData,
    "hand": HandData,
    "draw": SeatData,
    "draw_card": CardData,
    "play": PlayData,
    "no_play": SeatData,
    "hero_down": HeroDownData,
    "totem_pass": SeatData,
    "horse_move": HorseMoveData,
    "horse_pass": SeatData,
    "piece": PieceData,
    "play_over": HandSizesData,
    "thief": ThiefData,
    "robbed": RobbedData,
    "thief_finds_nothing": SeatData,
    "take": TakeData,
    "tiles_removed": TilesData,
    "tiles_to_bag": TilesData,
    "hunt_end": HuntEndData,
    "game_over": GameOverData,
}
