"""The Dudab state machine (dudab §2–§7).

A round is a loop of *steps* (dudab §5.2): a normal TURN, a SHAMAN_REACTION or a CALL_ANSWER,
each taken by the left neighbour of the previous actor. Sub-procedures (draws, Jungle and Baby
effects, refills, trims) are kept on an explicit stack of pending *tasks*; a task that needs a
choice (capture discard, five-card swap, trim to 5, Jungle column, Baby column) stops the
machine and asks its seat. Everything is plain data, so positions are complete JSON.

>>> from campfire.games.dudab import GAME
>>> state = GAME.new_game(3, seed=5)
>>> state.seats_to_act(), len(state.view(0)["hand"]), state.view(None)["draw_pile"]
((2,), 3, 69)
>>> [str(a) for a in state.legal_actions()][-1]
'draw'
"""

from __future__ import annotations

import copy
import random
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import is_
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, cast

from campfire.core import (
    Action,
    ErrorText,
    Event,
    IllegalActionError,
    Outcome,
    PositionError,
    SetupError,
    State,
)
from campfire.core.draws import shuffle
from campfire.core.fields import (
    SEAT,
    Computed,
    Copy,
    Custom,
    Int,
    ListOf,
    Nullable,
    Read,
    ReadContext,
    StateField,
    read_object,
)
from campfire.core.validate import short_repr

from .actions import (
    ACTIONS,
    BABY_COL,
    DRAW,
    JUNGLE_COL,
    K_BABY,
    K_DRAW,
    K_JUNGLE,
    K_KEEP,
    K_PENALTY,
    K_PILE,
    K_PLACE,
    K_REST,
    KEEP,
    NUM_ACTIONS,
    PENALTY,
    PILE,
    PLACE,
    PLACE_DUDAB,
    REST_DISCARD,
    REST_PILE,
    DudabAction,
    canonical_action,
    parse_action,
)
from .cards import (
    BABY,
    CALL_NAMES,
    COLOUR,
    DUDAB,
    FACE,
    FACE_DUDAB,
    FACE_NAMES,
    FACE_SHAMAN,
    JUNGLE,
    KIND,
    MATCH,
    NUMBER,
    NUMBER_FITS,
    SHAMAN,
    SHARES,
    VALUE,
    card_name,
    cards_in_use,
    parse_card,
)
from .options import DudabOptions
from .scoring import round_score
from .types import (
    DudabOutcome,
    DudabView,
    ObligationJson,
    PendingJson,
    Phase,
    Prompt,
    RoundDetail,
    RoundEndData,
)

if TYPE_CHECKING:
    from .game import DudabGame

__all__ = [
    "OBLIGATIONS",
    "PHASES",
    "PROMPTS",
    "TASKS",
    "DudabState",
    "random_deck",
]

NO_SEAT: Final = -1
PLAYING: Final = 0
OVER: Final = 1
PHASES: Final[tuple[Phase, ...]] = ("playing", "game_over")

# obligations (dudab §3); the kind of the next step is the obligation's number (§5.2)
OB_NONE: Final = 0
OB_SHAMAN: Final = 1
OB_CALL: Final = 2
OBLIGATIONS: Final = ("none", "shaman_reaction", "call")
TURN: Final = OB_NONE
REACTION: Final = OB_SHAMAN
ANSWER: Final = OB_CALL

# pending tasks: (type, seat, arg)
T_END_STEP: Final = 0
T_ADVANCE: Final = 1
T_REFILL: Final = 2
T_TRIM: Final = 3
T_DRAW: Final = 4
T_KEEP: Final = 5
T_SWAP: Final = 6
T_JUNGLE: Final = 7
T_BABY: Final = 8
TASKS: Final = ("end_step", "advance", "refill", "trim", "draw", "keep", "swap", "jungle", "baby")
_DECISIONS: Final = frozenset((T_TRIM, T_KEEP, T_SWAP, T_JUNGLE, T_BABY))

PROMPTS: Final[tuple[Prompt, ...]] = (
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
)

#: the lowest Jungle or Baby card id: they have the highest ids (the others are "normal")
FIRST_SPECIAL: Final = min(c for c in range(len(KIND)) if KIND[c] > SHAMAN)
assert all((KIND[c] > SHAMAN) == (c >= FIRST_SPECIAL) for c in range(len(KIND)))

HAND_DEAL: Final = 3  # dudab §2.3 step 2
CAPTURE_AT: Final = 6  # dudab §4.3
KEEP_AFTER_CAPTURE: Final = 2
MIN_HAND: Final = 2  # dudab §6
MAX_HAND: Final = 5

#: a representative card of each hand face (Shaman faces: the first copy of the colour)
_REPR: Final[tuple[int, ...]] = tuple(
    f if f < 64 else 64 if f == FACE_DUDAB else 72 + (f - FACE_SHAMAN) * 2 for f in range(69)
)


def _turn_fit(t: int, x: int) -> bool:
    """Whether Number/Shaman ``x`` may go on top card ``t`` in a TURN step (dudab §4.1).

    :meth:`DudabState._base` for a TURN step, which has no call pending: a Shaman only on a
    Number card of its colour, a Number card on a Dudab.
    """
    kt = KIND[t]
    kx = KIND[x]
    if kt == NUMBER:
        if kx == NUMBER:
            return NUMBER_FITS[x][t]
        return COLOUR[x] == COLOUR[t]
    if kt == SHAMAN:
        return kx == NUMBER and COLOUR[x] == COLOUR[t]
    return kx == NUMBER


#: ``_TURN_FITS[t]``: for the top card ``t`` of a column without a Jungle, whether each hand
#: face but the Dudab (by :data:`_REPR`) may be placed on it in a TURN step
_TURN_FITS: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(f != FACE_DUDAB and _turn_fit(t, _REPR[f]) for f in range(len(_REPR)))
    for t in range(len(KIND))
)


def columns_for(players: int) -> int:
    """Number of columns (dudab §2.3 step 3, D35): 2 for 2–4 players, 3 for 5–6."""
    return 2 if players <= 4 else 3


def random_deck(cards: Sequence[int], head: int, rng: random.Random) -> list[int]:
    """A shuffled deck whose first ``head`` cards (the deal and starters) hold no Jungle/Baby.

    This has the distribution of dudab §2.3 step 4 (D3): Jungle/Baby cards met while dealing are
    set aside, replaced, and shuffled back into the draw pile.
    """
    key = tuple(cards)
    split = _DECK_SPLIT.get(key)
    if split is None:
        split = (
            tuple(c for c in cards if KIND[c] <= SHAMAN),
            tuple(c for c in cards if KIND[c] > SHAMAN),
        )
        if len(_DECK_SPLIT) >= 64:
            _DECK_SPLIT.clear()
        _DECK_SPLIT[key] = split
    normal = list(split[0])
    shuffle(rng, normal)
    rest = normal[head:]
    rest.extend(split[1])
    shuffle(rng, rest)
    return normal[:head] + rest


#: the decks :func:`random_deck` met, split into their normal and special (Jungle/Baby) cards
_DECK_SPLIT: Final[dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]] = {}


#: the report last copied for a determinisation, and its copy (:func:`_report_copy`)
_REPORT_COPY: Final[list[Any]] = [None, None]


def _report_copy(report: RoundEndData | None) -> RoundEndData | None:
    """A deep copy of a state's last-round report, for a determinisation.

    The determinisations of one position share one copy (as clones share their report, which
    is never changed, only replaced): the copy made for the same report before, while it is
    still equal to it; it shares nothing with the report itself.
    """
    if report is None:
        return None
    source, kept = _REPORT_COPY
    if source is report and kept == report:
        return cast(RoundEndData, kept)
    kept = _copy_json(report)
    _REPORT_COPY[:] = [report, kept]
    return cast(RoundEndData, kept)


def _copy_json(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, tuples and atoms), faster than deepcopy."""
    cls = value.__class__
    if cls is dict:
        return {k: _copy_json(v) for k, v in value.items()}
    if cls is list:
        return [_copy_json(v) for v in value]
    if cls is str or cls is int or cls is bool or cls is float or value is None:
        return value
    return copy.deepcopy(value)


# ----- how the fields are written in a position (``DudabState.FIELDS``) ---------------------------


def _players(ctx: ReadContext) -> int:
    return ctx.players


def _top_first(draw: list[int]) -> list[str]:
    return _names(draw[::-1])


def _tasks_json(tasks: list[tuple[int, int, int]]) -> list[dict[str, Any]]:
    return [_task_json(t) for t in tasks]


def _obligation(state: DudabState) -> ObligationJson | None:
    return state.obligation()


def _owners(state: DudabState) -> list[dict[str, Any]]:
    return [
        {
            "cards": [None if o < 0 else o for o in state.owners[c]],
            "jungle": None if state.jungle_owners[c] < 0 else state.jungle_owners[c],
        }
        for c in range(state.ncols)
    ]


def _columns(state: DudabState) -> list[dict[str, Any]]:
    return [
        {
            "heap": _names(state.heap[c]),
            "cards": _names(state.vis[c]),
            "jungle": None if state.jungle[c] < 0 else card_name(state.jungle[c]),
            "above": None if state.above[c] < 0 else state.above[c],
        }
        for c in range(state.ncols)
    ]


# ... and how they are read back: the JSON types and shapes of each field, card ids decoded (each
# problem a PositionError naming the field); the checks across fields are position.read_state's

#: more pending tasks than any round can stack (each Baby whose cover is a Number card adds two
#: per other player, dudab §5.7.7: at most 8 × 10, plus a few of the step)
_MAX_TASKS: Final = 128
#: the most cards one draw task can still have to draw (a Number card's value, dudab §5.4)
_MAX_DRAW: Final = 4
#: a round score is far inside this range (the worst hand is 8 Dudabs, the best pile 8 Babies)
_SCORE_LIMIT: Final = 1000
_COLUMN_FIELDS: Final = ("heap", "cards", "jungle", "above")
_OWNER_FIELDS: Final = ("cards", "jungle")
#: what a position without ``owners`` (written before Dudab recorded them) reads as
_OWNERS_NOT_WRITTEN: Final = object()


def _columns_of(ctx: ReadContext) -> int:
    return columns_for(ctx.players)


def _read_card(raw: Any, what: str) -> int:
    try:
        return parse_card(raw)
    except SetupError as exc:
        raise PositionError(ErrorText("{what}: {exc}", what=what, exc=exc.text)) from None


def _read_cards(raw: Any, what: str, ctx: ReadContext) -> list[int]:
    if not isinstance(raw, list):
        raise PositionError(
            ErrorText("{what} must be a JSON list (got {raw})", what=what, raw=short_repr(raw))
        )
    return [_read_card(c, what) for c in raw]


def _read_draw(raw: Any, what: str, ctx: ReadContext) -> list[int]:
    return _read_cards(raw, what, ctx)[::-1]  # written top card first; the top is last here


def _read_phase(raw: Any, what: str, ctx: ReadContext) -> int:
    if not isinstance(raw, str) or raw not in PHASES:
        allowed = " or ".join(repr(p) for p in PHASES)
        raise PositionError(
            ErrorText(
                "{what} must be {allowed} (got {raw})",
                what=what,
                allowed=allowed,
                raw=short_repr(raw),
            )
        )
    return PHASES.index(raw)


def _read_obligation(raw: Any, what: str, ctx: ReadContext) -> tuple[int, int, int]:
    """``null`` or ``{"kind", "column"[, "call"]}`` → ``(ob, ob_col, ob_call)``."""
    if raw is None:
        return (OB_NONE, -1, 0)
    if not isinstance(raw, Mapping) or raw.get("kind") not in OBLIGATIONS[1:]:
        raise PositionError(
            ErrorText(
                "{what} is null or an object with 'kind' 'shaman_reaction' or 'call'", what=what
            )
        )
    kind = OBLIGATIONS.index(raw["kind"])
    read_object(raw, what, ("kind", "column", "call") if kind == OB_CALL else ("kind", "column"))
    column: int = Int(1, _columns_of, offset=1).decode(raw["column"], f"{what}.column", ctx)
    call = 0
    if kind == OB_CALL:
        name = raw["call"]
        if not isinstance(name, str) or name not in CALL_NAMES[1:]:
            raise PositionError(
                ErrorText(
                    "{what}.call must be one of {call_names} (got {name})",
                    what=what,
                    call_names=", ".join(CALL_NAMES[1:]),
                    name=short_repr(name),
                )
            )
        call = CALL_NAMES.index(name)
    return (kind, column, call)


def _read_task(raw: Any, what: str, ctx: ReadContext) -> tuple[int, int, int]:
    """``{"task", "seat"}`` (+ ``count`` or ``card``) → ``(type, seat, arg)``."""
    if not isinstance(raw, Mapping) or raw.get("task") not in TASKS:
        raise PositionError(
            ErrorText("a task is an object with 'task' one of {value}", value=list(TASKS))
        )
    typ = TASKS.index(raw["task"])
    what = f"task {raw['task']!r}"
    extra: tuple[str, ...] = ()
    if typ == T_DRAW:
        extra = ("count",)
    elif typ in (T_JUNGLE, T_BABY):
        extra = ("card",)
    read_object(raw, what, ("task", "seat", *extra))
    seat: int = SEAT.decode(raw["seat"], f"{what}: seat", ctx)
    arg = 0
    if typ == T_DRAW:
        arg = Int(1, _MAX_DRAW).decode(raw["count"], f"{what}: count", ctx)
    elif typ in (T_JUNGLE, T_BABY):
        arg = _read_card(raw["card"], f"{what}: card")
        if KIND[arg] != (JUNGLE if typ == T_JUNGLE else BABY):
            raise PositionError(
                ErrorText(
                    "{what}: card must be a {value} card", what=what, value=raw["task"].title()
                )
            )
    return (typ, seat, arg)


def _read_tasks(raw: Any, what: str, ctx: ReadContext) -> list[tuple[int, int, int]]:
    if not isinstance(raw, list):
        raise PositionError(
            ErrorText("{what} must be a JSON list (got {raw})", what=what, raw=short_repr(raw))
        )
    if len(raw) > _MAX_TASKS:
        raise PositionError(
            ErrorText(
                "{what}: {n_raw} pending tasks; a round never has more than {max_tasks}",
                what=what,
                n_raw=len(raw),
                max_tasks=_MAX_TASKS,
            )
        )
    return [_read_task(item, what, ctx) for item in raw]


def _read_column(raw: Any, what: str, ctx: ReadContext) -> tuple[list[int], list[int], int, int]:
    """A column → ``(heap, cards, jungle, above)`` (``-1`` for no Jungle and no count)."""
    col = read_object(raw, what, _COLUMN_FIELDS)
    heap = _read_cards(col["heap"], f"{what}.heap", ctx)
    vis = _read_cards(col["cards"], f"{what}.cards", ctx)
    if col["jungle"] is None:
        if col["above"] is not None:
            raise PositionError(
                ErrorText(
                    "{what}: 'above' counts the cards above a Jungle (null without)", what=what
                )
            )
        return (heap, vis, -1, -1)
    jungle = _read_card(col["jungle"], f"{what}.jungle")
    if KIND[jungle] != JUNGLE:
        raise PositionError(
            ErrorText(
                "{what}.jungle must be a Jungle card (got {value})",
                what=what,
                value=card_name(jungle),
            )
        )
    above: int = Int(0, len(vis)).decode(col["above"], f"{what}.above", ctx)
    return (heap, vis, jungle, above)


_OWNER: Final = Nullable(SEAT)
_OWNER_LIST: Final = ListOf(_OWNER, tuple=True)


def _read_column_owners(raw: Any, what: str, ctx: ReadContext) -> tuple[tuple[int, ...], int]:
    """A column's owners → ``(cards, jungle)`` (``-1`` for no seat: a starter, a cover)."""
    owners = read_object(raw, what, _OWNER_FIELDS)
    cards: tuple[int, ...] = _OWNER_LIST.decode(owners["cards"], f"{what}.cards", ctx)
    jungle: int = _OWNER.decode(owners["jungle"], f"{what}.jungle", ctx)
    return (cards, jungle)


_COLUMN_OWNERS: Final = ListOf(Read(_read_column_owners), length=_columns_of)


def _read_owners(raw: Any, what: str, ctx: ReadContext) -> list[tuple[tuple[int, ...], int]] | None:
    """The owners of the columns' cards; ``None`` when the position has none (unknown)."""
    if raw is _OWNERS_NOT_WRITTEN:
        return None
    owners: list[tuple[tuple[int, ...], int]] = _COLUMN_OWNERS.decode(raw, what, ctx)
    return owners


def _read_report(raw: Any, what: str, ctx: ReadContext) -> Any:
    """``null`` or an object: what it must hold depends on the round (the game's reader)."""
    if raw is not None and not isinstance(raw, Mapping):
        raise PositionError(
            ErrorText(
                "{what} must be null or a JSON object (got {raw})", what=what, raw=short_repr(raw)
            )
        )
    return raw


_NAMES: Final = Custom(lambda cards: _names(cards), _read_cards)


class DudabState(State):
    """A Dudab position and its rules.

    Attributes are public for tests and renderers but should be changed only through
    :meth:`apply`. Card lists hold card ids (see :mod:`.cards`); the draw pile's top is its last
    element. A column is ``heap[c]`` (hidden, buried by Babies), ``vis[c]`` (visible, first →
    last) and, with a Jungle, ``jungle[c]`` (its card id) and ``above[c]`` (A, the number of
    visible cards above the Jungle; -1 without a Jungle). ``owners[c]`` is a tuple: for each card of
    ``vis[c]``, the seat that played it (-1: nobody, a column's starter or a Baby's cover, or
    unknown in a position written before owners were recorded); ``jungle_owners[c]`` the seat
    that laid the column's Jungle (-1: none, or turned up as a Baby's cover).
    """

    game: ClassVar[DudabGame]
    options: DudabOptions

    #: every attribute, declared once: the generated ``clone`` copies them, ``to_position``
    #: writes those with a key in this order (``docs/notation/dudab.md``, "Position")
    FIELDS = (
        StateField("num_players", key=None),
        StateField("options", key=None),
        StateField("ncols", key=None),  # from the player count
        StateField("start_player", codec=SEAT),
        StateField("round", codec=Int(1, _players, offset=1)),
        StateField("phase", codec=Custom(PHASES.__getitem__, _read_phase)),
        StateField("actor", codec=Nullable(SEAT)),
        StateField("ob", key=None),
        StateField("ob_col", key=None),
        StateField("ob_call", key=None),
        Computed("obligation", _obligation, Read(_read_obligation)),  # read as (ob, col, call)
        StateField("tasks", Copy.LIST, codec=Custom(_tasks_json, _read_tasks)),  # tuples, shared
        StateField("revealed", codec=Nullable(SEAT)),
        StateField("draw", Copy.LIST, codec=Custom(_top_first, _read_draw)),
        StateField("discard", Copy.LIST, codec=_NAMES),
        StateField("heap", Copy.LISTS, key=None),
        StateField("vis", Copy.LISTS, key=None),
        StateField("jungle", Copy.LIST, key=None),
        StateField("above", Copy.LIST, key=None),
        # heap, cards, jungle and above of each column, read as (heap, vis, jungle, above)
        Computed("columns", _columns, ListOf(Read(_read_column), length=_columns_of)),
        StateField("owners", Copy.LIST, key=None),  # tuples, shared
        StateField("jungle_owners", Copy.LIST, key=None),
        # who played each column card and laid each Jungle, read as [(cards, jungle)] or None
        # (optional: positions written before they were recorded have no owners)
        Computed("owners", _owners, Read(_read_owners), default=_OWNERS_NOT_WRITTEN),
        StateField("hands", Copy.LISTS, codec=ListOf(_NAMES, length=_players)),
        StateField("piles", Copy.LISTS, codec=ListOf(_NAMES, length=_players)),
        StateField("kept", Copy.LIST, codec=_NAMES),
        StateField(
            "scores",
            Copy.LISTS,
            codec=ListOf(ListOf(Int(-_SCORE_LIMIT, _SCORE_LIMIT)), length=_players),
        ),
        # never mutated, only replaced; read by the game's reader (it depends on the round)
        StateField("report", key="last_round", codec=Read(_read_report)),
        StateField("decks", Copy.LISTS, codec=ListOf(_NAMES)),
        # the legal steps: shared, since apply replaces them, never changes
        StateField("_legal", key=None),
    )

    def __init__(self) -> None:
        """An empty state, its attributes unset: :meth:`new` and ``clone`` fill them in.

        A compiled class always runs ``__init__`` when it makes an object, so the written
        ``clone`` (``docs/compiled.md``) makes its copy with this one.
        """

    @classmethod
    def new(
        cls, options: DudabOptions, players: int, start_player: int, decks: Sequence[list[int]]
    ) -> Self:
        """Create the state at the start of round 1: use ``DudabGame.new_game`` instead."""
        state = cls()
        state._setup(options, players, start_player, decks)
        return state

    def _setup(
        self, options: DudabOptions, players: int, start_player: int, decks: Sequence[list[int]]
    ) -> None:
        """Set every attribute of the initial state (:meth:`new`)."""
        self.num_players = players
        self.options = options
        self.ncols = columns_for(players)
        self.start_player = start_player
        self.round = 0
        self.phase = PLAYING
        self.decks = [list(d) for d in decks[1:]]
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.heap: list[list[int]] = [[] for _ in range(self.ncols)]
        self.vis: list[list[int]] = [[] for _ in range(self.ncols)]
        self.jungle = [-1] * self.ncols
        self.above = [-1] * self.ncols
        self.owners: list[tuple[int, ...]] = [() for _ in range(self.ncols)]
        self.jungle_owners = [-1] * self.ncols
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.piles: list[list[int]] = [[] for _ in range(players)]
        self.kept: list[int] = []
        self.scores: list[list[int]] = [[] for _ in range(players)]
        self.ob = OB_NONE
        self.ob_col = -1
        self.ob_call = 0
        self.actor = start_player
        self.tasks: list[tuple[int, int, int]] = []
        self.revealed = NO_SEAT
        self.report: RoundEndData | None = None
        self._legal: list[DudabAction] | None = None
        self._setup_round(list(decks[0]), [])

    # ----- round structure (dudab §2) ------------------------------------------------------------

    def round_start_player(self) -> int:
        """The start player of the current round (dudab §2.2: one seat left each round)."""
        return (self.start_player + self.round) % self.num_players

    def _setup_round(self, deck: list[int], events: list[Event]) -> None:
        # dudab §2.3: the deck is listed top first; 3 cards each, one at a time clockwise from
        # the round's start player, then one starter per column, the rest is the draw pile.
        n = self.num_players
        start = self.round_start_player()
        self.hands = [[] for _ in range(n)]
        self.piles = [[] for _ in range(n)]
        self.kept = []
        self.discard = []
        pos = 0
        for _ in range(HAND_DEAL):
            for i in range(n):
                self.hands[(start + i) % n].append(deck[pos])
                pos += 1
        for c in range(self.ncols):
            self.heap[c] = []
            self.vis[c] = [deck[pos]]
            self.owners[c] = _NOBODY  # a starter: nobody played it
            self.jungle[c] = -1
            self.jungle_owners[c] = NO_SEAT
            self.above[c] = -1
            pos += 1
        self.draw = deck[pos:][::-1]
        self.ob, self.ob_col, self.ob_call = OB_NONE, -1, 0
        self.tasks = []
        self.revealed = NO_SEAT
        self.actor = start
        events.append(
            Event(
                "round_start",
                {
                    "round": self.round + 1,
                    "start_player": start,
                    "columns": [FACE_NAMES[FACE[v[0]]] for v in self.vis],
                    "draw_pile": len(self.draw),
                },
            )
        )
        for seat in range(n):
            events.append(
                Event(
                    "deal",
                    {"seat": seat, "cards": [FACE_NAMES[FACE[c]] for c in self.hands[seat]]},
                    frozenset((seat,)),
                )
            )

    def _end_round(self, events: list[Event]) -> None:
        """End the round at once (dudab §5.8): everything pending is void; score it (§7)."""
        if self.kept:
            owner = self.tasks[-1][1] if self.tasks else self.actor
            self.hands[owner].extend(self.kept)
            self.kept = []
        self.tasks = []
        self.ob, self.ob_col, self.ob_call = OB_NONE, -1, 0
        self.revealed = NO_SEAT
        details: list[RoundDetail] = []
        for seat in range(self.num_players):
            result = round_score(self.hands[seat], self.piles[seat])
            self.scores[seat].append(result.total)
            details.append(cast(RoundDetail, result.to_json()))
        self.report = {
            "round": self.round + 1,
            "hands": [sorted_faces(h) for h in self.hands],
            "piles": [sorted_faces(p) for p in self.piles],
            "scores": [d["total"] for d in details],
            "details": details,
        }
        events.append(Event("round_end", dict(self.report)))
        if self.round + 1 >= self.num_players:  # dudab §2.1: as many rounds as players
            self.phase = OVER
            self.actor = NO_SEAT
            events.append(Event("game_over", {"outcome": self.outcome().to_json()}))
            return
        self.round += 1
        self._setup_round(self.decks.pop(0), events)

    # ----- the protocol --------------------------------------------------------------------------

    def seats_to_act(self) -> tuple[int, ...]:
        """The seat to act: the seat of a pending choice, else the step's actor."""
        if self.phase == OVER:
            return ()
        if self.tasks:
            return (self.tasks[-1][1],)
        return (self.actor,)

    def to_act(self) -> int:
        """The single seat to act (``-1`` when the game is over)."""
        if self.phase == OVER:
            return NO_SEAT
        return self.tasks[-1][1] if self.tasks else self.actor

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal steps of ``seat`` now, ordered by action index (the one definition).

        ``seat`` may be omitted (the seat to act); a value that is no seat raises
        :class:`~campfire.core.errors.SeatError`.
        """
        if seat is not None:
            self._check_seat(seat)
            if seat != self.to_act():
                return []
        return list(self.legal_now())

    def legal_action_indices(self, seat: int) -> list[int]:
        """The indices of :meth:`legal_actions` ``(seat)``, in its order (read here, natively)."""
        if seat.__class__ is int and seat == self.to_act():
            return [a.index for a in self.legal_now()]
        return [cast(DudabAction, a).index for a in self.legal_actions(seat)]

    def _compute_legal(self, seat: int) -> list[DudabAction]:
        tasks = self.tasks
        if tasks:
            typ = tasks[-1][0]
            if typ == T_KEEP:
                if len(self.kept) < KEEP_AFTER_CAPTURE:
                    legal = [KEEP[f] for f in _faces(self.hands[seat])]
                else:
                    legal = [REST_DISCARD, REST_PILE]
            elif typ in (T_SWAP, T_TRIM):
                legal = [PILE[f] for f in _faces(self.hands[seat])]
            elif typ == T_JUNGLE:
                legal = [JUNGLE_COL[c] for c in self._jungle_columns()]
            else:  # T_BABY
                legal = [BABY_COL[c] for c in range(self.ncols) if not self._is_active(c)]
        elif self.ob == OB_NONE:
            legal = self._turn_actions(seat)
        elif self.ob == OB_SHAMAN:
            legal = self._reaction_actions(seat)
        else:
            legal = self._answer_actions(seat)
        self._legal = legal
        return legal

    def legal_now(self) -> list[DudabAction]:
        """The legal steps of the seat to act (a search's hot path; ``[]`` when it is over).

        :meth:`legal_actions` for the seat to act without its checks and copy: the list is the
        state's own, kept until the next :meth:`apply`, and must not be changed.
        """
        legal = self._legal
        if legal is None:
            who = self.to_act()
            if who < 0:
                return []
            legal = self._compute_legal(who)
        return legal

    def _turn_actions(self, seat: int) -> list[DudabAction]:
        # dudab §5.3: every legal placement (§4.1/§4.2); Draw with ≤ 4 cards or nothing to place
        hand = self.hands[seat]
        faces = _faces(hand)
        legal: list[DudabAction] = []
        has_dudab = False
        cols = range(self.ncols)
        # a column without a Jungle: what fits its top card, from the table (a plain loop: a
        # comprehension costs more for so few columns)
        fits: list[tuple[bool, ...] | None] = []
        above = self.above
        for c, v in enumerate(self.vis):
            fits.append(_TURN_FITS[v[-1]] if above[c] < 0 and v else None)
        for f in faces:
            if f == FACE_DUDAB:
                has_dudab = True
                continue
            row = PLACE[f]
            for c in cols:
                table = fits[c]
                if table[f] if table is not None else self._fits(c, _REPR[f], TURN):
                    legal.append(row[c])
        # faces ascend, so the placements are already in index order (Dudab indices come last)
        if has_dudab:
            for c in cols:
                # §4.2 (D37): no call in a column with a visible Jungle
                legal.extend(PLACE_DUDAB[c] if self.above[c] < 0 else PLACE_DUDAB[c][:1])
        if len(hand) < MAX_HAND or not legal:
            legal.append(DRAW)
        return legal

    def _reaction_actions(self, seat: int) -> list[DudabAction]:
        # dudab §5.4: a Shaman of any colour or a Dudab on the active column, or the penalty (D9)
        col = self.ob_col
        legal: list[DudabAction] = []
        has_dudab = False
        for f in _faces(self.hands[seat]):
            if f == FACE_DUDAB:
                has_dudab = True
            elif f >= FACE_SHAMAN and self._fits(col, _REPR[f], REACTION):
                legal.append(PLACE[f][col])
        if has_dudab:
            legal.extend(PLACE_DUDAB[col] if self.above[col] < 0 else PLACE_DUDAB[col][:1])
        legal.append(PENALTY)
        return legal

    def _answer_actions(self, seat: int) -> list[DudabAction]:
        # dudab §5.5: a matching card or a counter-Dudab; fail (draw) only without a match (D8)
        col = self.ob_col
        match = MATCH[self.ob_call]
        legal: list[DudabAction] = []
        has_dudab = False
        for f in _faces(self.hands[seat]):
            if f == FACE_DUDAB:
                has_dudab = True
            elif match[_REPR[f]]:
                legal.append(PLACE[f][col])
        matching = bool(legal)
        if has_dudab:
            legal.extend(PLACE_DUDAB[col])
        if not matching:
            legal.append(DRAW)
        return legal

    # ----- placement legality (dudab §4) --------------------------------------------------------

    def _is_active(self, col: int) -> bool:
        return self.ob != OB_NONE and self.ob_col == col

    def _jungle_columns(self) -> list[int]:
        # dudab §5.7.6 (D19): no visible Jungle and not the active column
        return [c for c in range(self.ncols) if self.above[c] < 0 and not self._is_active(c)]

    def _fits(self, col: int, x: int, step: int) -> bool:
        """Whether card ``x`` (not a Dudab) may be placed on column ``col`` in a ``step``."""
        vis = self.vis[col]
        a = self.above[col]
        if a < 0:
            return self._base(vis[-1], x, step, col)
        i = len(vis) - a + 1  # dudab §4.2: the below-position of the new card
        kx = KIND[x]
        if i <= a:  # mirror condition
            m = vis[a - i]
            km = KIND[m]
            if km == NUMBER:
                if kx != NUMBER or not SHARES[x][m]:
                    return False
            elif km == SHAMAN:
                if kx != SHAMAN:
                    return False
            else:  # the mirror card is a Dudab: only a Dudab
                return False
        if i == 1:  # D16: no sequence condition right below the Jungle
            return True
        p = vis[-1]
        if KIND[p] == DUDAB:  # a Dudab below a Jungle accepts any card
            return True
        return self._base(p, x, step, col)

    def _base(self, t: int, x: int, step: int, col: int) -> bool:
        """Whether Number/Shaman ``x`` may go on top card ``t`` (dudab §4.1)."""
        kt = KIND[t]
        kx = KIND[x]
        if kt == NUMBER:
            if kx == NUMBER:
                return NUMBER_FITS[x][t]
            return COLOUR[x] == COLOUR[t]
        if kt == SHAMAN:
            if kx == NUMBER:
                return COLOUR[x] == COLOUR[t]
            return step == REACTION  # Shaman on Shaman only as a reaction
        # a Dudab top
        if self.ob == OB_CALL and self.ob_col == col:
            return step == ANSWER and MATCH[self.ob_call][x]
        return kx == NUMBER  # D22: no Shaman on an uncalled Dudab

    # ----- applying actions ----------------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Apply one step for ``seat`` and return the events (see the module docstring)."""
        # a search passes the game's own actions only (the fast path); anything else is read
        # as notation or mapped to the action of its index, whose every field it must agree
        # with, so that a hand-built DudabAction cannot mislead the checks below (and the legal
        # steps, canonical actions too, hold it itself when it is legal)
        if not (
            action.__class__ is DudabAction
            and action.index.__class__ is int
            and 0 <= action.index < NUM_ACTIONS
            and ACTIONS[action.index] is action
        ):
            action = parse_action(action) if isinstance(action, str) else canonical_action(action)
        if self.phase == OVER:
            who = NO_SEAT
        else:
            tasks = self.tasks
            who = tasks[-1][1] if tasks else self.actor
        if seat.__class__ is not int or seat != who:
            self._check_turn(seat)
        legal = self._legal
        if legal is None:
            legal = self._compute_legal(who)
        if not any(map(is_, legal, repeat(action))):
            raise self._illegal(seat, action)
        return self.apply_legal(seat, action)

    def apply_legal(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal step for ``seat`` unchecked (the path of :meth:`State.apply_legal`).

        ``action`` must be the game's own action object among :meth:`legal_actions` of this
        state for ``seat``: a search applying the actions it generated to states it made itself,
        or a table applying an agent's decision it checked. Nothing is checked: anything else
        may corrupt the state without an error. :meth:`apply` checks, then comes here.
        """
        act: DudabAction = action  # type: ignore[assignment]  # (the caller's promise)
        self._legal = None
        events: list[Event] = []
        kind = act.kind
        if kind == K_PLACE:
            self._place(seat, act, events)
        elif kind == K_DRAW:
            self._draw_step(seat, events)
        elif kind == K_PENALTY:
            if self._penalty(seat, events):
                self._end_round(events)
                return events
        elif kind == K_KEEP:
            card = _take(self.hands[seat], act.face)
            self.kept.append(card)
            events.append(Event("keep", {"seat": seat}))
            events.append(
                Event("keep_card", {"seat": seat, "card": FACE_NAMES[act.face]}, _only(seat))
            )
        elif kind == K_REST:
            self._rest(seat, act.call == 1, events)
        elif kind == K_PILE:
            self._to_pile(seat, act.face, events)
        elif kind == K_JUNGLE:
            _, _, card = self.tasks.pop()
            col = act.col
            self.jungle[col] = card
            self.jungle_owners[col] = seat
            self.above[col] = len(self.vis[col])  # dudab §4.2: A = visible cards
            events.append(
                Event("jungle_laid", {"seat": seat, "column": col + 1, "above": self.above[col]})
            )
        else:  # K_BABY
            _, _, card = self.tasks.pop()
            if self._place_baby(seat, act.col, card, events):
                self._end_round(events)
                return events
        self._run(events)
        return events

    def _place(self, seat: int, action: DudabAction, events: list[Event]) -> None:
        col = action.col
        hand = self.hands[seat]
        x = _take(hand, action.face)
        vis = self.vis[col]
        vis.append(x)
        self.owners[col] += (seat,)
        a = self.above[col]
        call = action.call
        events.append(
            Event(
                "place",
                {
                    "seat": seat,
                    "card": FACE_NAMES[action.face],
                    "column": col + 1,
                    "call": CALL_NAMES[call] if call else None,
                },
            )
        )
        captured: list[int] | None = None
        if a >= 0:
            if len(vis) - a > a:  # dudab §4.2: B > A, Jungle capture
                captured = [*vis[:a], self.jungle[col], *vis[a:-1]]
        elif len(vis) == CAPTURE_AT:  # dudab §4.3: the 6th card captures heap + first 5
            captured = vis[:5]
        if captured is not None:
            heap = self.heap[col]
            events.append(
                Event(
                    "capture",
                    {
                        "seat": seat,
                        "column": col + 1,
                        "cards": [FACE_NAMES[FACE[c]] for c in captured],
                        "heap": len(heap),
                    },
                )
            )
            if heap:
                events.append(
                    Event(
                        "capture_heap",
                        {"seat": seat, "cards": sorted_faces(heap)},
                        _only(seat),
                    )
                )
            pile = self.piles[seat]
            pile.extend(heap)
            pile.extend(captured)
            self.heap[col] = []
            self.vis[col] = [x]
            self.owners[col] = (seat,)
            self.jungle[col] = -1
            self.jungle_owners[col] = NO_SEAT
            self.above[col] = -1
        # dudab §5.3 step 3, §5.4, §5.5: the new obligation
        kx = KIND[x]
        if kx == SHAMAN:
            self.ob, self.ob_col, self.ob_call = OB_SHAMAN, col, 0
        elif kx == DUDAB and call:
            self.ob, self.ob_col, self.ob_call = OB_CALL, col, call
        else:
            self.ob, self.ob_col, self.ob_call = OB_NONE, -1, 0
        self.tasks.append((T_END_STEP, seat, 0))
        if captured is not None and len(hand) > KEEP_AFTER_CAPTURE:
            self.tasks.append((T_KEEP, seat, 0))  # dudab §4.3: discard down to 2

    def _draw_step(self, seat: int, events: list[Event]) -> None:
        # dudab §5.3 Draw (TURN) or §5.5 Fail (CALL_ANSWER)
        hand = self.hands[seat]
        failing = self.ob == OB_CALL
        if failing:
            events.append(Event("call_failed", {"seat": seat}))
        tasks = self.tasks
        tasks.append((T_END_STEP, seat, 0))
        tasks.append((T_DRAW, seat, 1))
        if failing or len(hand) >= MAX_HAND:  # §5.7.2: reveal the hand to everyone
            events.append(Event("reveal_hand", {"seat": seat, "cards": sorted_faces(hand)}))
        if len(hand) >= MAX_HAND:
            self.revealed = seat
            tasks.append((T_SWAP, seat, 0))  # one chosen card to the own pile first

    def _penalty(self, seat: int, events: list[Event]) -> bool:
        """Take the Shaman penalty (dudab §5.4 option 3); return whether the round ended."""
        self.ob, self.ob_col, self.ob_call = OB_NONE, -1, 0
        events.append(Event("penalty", {"seat": seat}))
        draw = self.draw
        while True:  # D12: reveal to the discard pile until a Number card
            card = draw.pop()
            self.discard.append(card)
            events.append(Event("penalty_reveal", {"card": FACE_NAMES[FACE[card]]}))
            if not draw:
                return True
            if KIND[card] == NUMBER:
                break
        self.tasks.append((T_END_STEP, seat, 0))
        self.tasks.append((T_TRIM, seat, 0))
        self.tasks.append((T_DRAW, seat, VALUE[card]))
        return False

    def _rest(self, seat: int, to_pile: bool, events: list[Event]) -> None:
        # dudab §4.3 (D29): every card not kept goes to one destination
        hand = self.hands[seat]
        rest = hand[:]
        hand[:] = self.kept
        self.kept = []
        self.tasks.pop()
        if to_pile:
            self.piles[seat].extend(rest)
            events.append(Event("rest", {"seat": seat, "to": "pile", "count": len(rest)}))
            events.append(
                Event("rest_cards", {"seat": seat, "cards": sorted_faces(rest)}, _only(seat))
            )
        else:
            self.discard.extend(rest)
            events.append(
                Event(
                    "rest",
                    {
                        "seat": seat,
                        "to": "discard",
                        "count": len(rest),
                        "cards": [FACE_NAMES[FACE[c]] for c in rest],
                    },
                )
            )

    def _to_pile(self, seat: int, face: int, events: list[Event]) -> None:
        # dudab §5.3 / §5.5 five-card swap, or §5.7.3 trim to 5
        card = _take(self.hands[seat], face)
        self.piles[seat].append(card)
        if self.tasks[-1][0] == T_SWAP:
            self.tasks.pop()
            self.revealed = NO_SEAT
            # the hand was revealed: which card went is public
            events.append(Event("to_pile", {"seat": seat, "card": FACE_NAMES[face]}))
        else:
            events.append(Event("to_pile", {"seat": seat, "card": None}))
            events.append(
                Event("to_pile_card", {"seat": seat, "card": FACE_NAMES[face]}, _only(seat))
            )

    def _place_baby(self, seat: int, col: int, baby: int, events: list[Event]) -> bool:
        """Bury a column under a Baby, turn a cover (dudab §5.7.7); True if the round ended."""
        heap = self.heap[col]
        vis = self.vis[col]
        a = self.above[col]
        if a >= 0:  # D38: the Jungle is buried too
            heap.extend(vis[:a])
            heap.append(self.jungle[col])
            heap.extend(vis[a:])
        else:
            heap.extend(vis)
        heap.append(baby)
        self.vis[col] = []
        self.owners[col] = ()
        self.jungle[col] = -1
        self.jungle_owners[col] = NO_SEAT
        self.above[col] = -1
        events.append(Event("baby_laid", {"seat": seat, "column": col + 1, "heap": len(heap)}))
        draw = self.draw
        while True:
            card = draw.pop()
            kind = KIND[card]
            if not draw:  # the cover empties the pile: it stays, the round ends (§5.8)
                self.vis[col] = [card]
                self.owners[col] = _NOBODY  # a cover: nobody played it
                events.append(
                    Event("baby_cover", {"column": col + 1, "card": FACE_NAMES[FACE[card]]})
                )
                return True
            events.append(Event("baby_cover", {"column": col + 1, "card": FACE_NAMES[FACE[card]]}))
            if kind == BABY:  # D20: joins the heap, turn another cover
                heap.append(card)
                continue
            if kind == JUNGLE:  # D20: a visible Jungle with nothing above it
                self.jungle[col] = card
                self.above[col] = 0
                return False
            self.vis[col] = [card]
            self.owners[col] = _NOBODY
            if kind == NUMBER:
                # every other player, clockwise from the left, draws v then trims (D15)
                n = self.num_players
                value = VALUE[card]
                for i in range(n - 1, 0, -1):
                    p = (seat + i) % n
                    self.tasks.append((T_TRIM, p, 0))
                    self.tasks.append((T_DRAW, p, value))
            return False

    def _draw_one(self, seat: int, events: list[Event]) -> bool:
        """Draw one card (dudab §5.7.1); return whether the round ended (empty pile, §5.8)."""
        draw = self.draw
        card = draw.pop()
        kind = KIND[card]
        if not draw or kind <= SHAMAN:
            self.hands[seat].append(card)  # D34: the last card has no effect
            events.append(Event("draw", {"seat": seat}))
            events.append(
                Event("drawn_card", {"seat": seat, "card": FACE_NAMES[FACE[card]]}, _only(seat))
            )
            return not draw
        if kind == JUNGLE:
            events.append(Event("jungle_drawn", {"seat": seat}))
            if self._jungle_columns():
                self.tasks.append((T_JUNGLE, seat, card))
            else:  # dudab §5.7.6: no eligible column, discarded, no replacement
                self.discard.append(card)
                events.append(Event("jungle_discarded", {"seat": seat}))
        else:
            events.append(Event("baby_drawn", {"seat": seat}))
            self.tasks.append((T_BABY, seat, card))
        return False

    def _run(self, events: list[Event]) -> None:
        """Work through pending tasks until a choice is needed or the step loop moves on."""
        tasks = self.tasks
        hands = self.hands
        while tasks:
            typ, seat, arg = tasks[-1]
            if typ == T_END_STEP:  # §5.6
                tasks.pop()
                if MIN_HAND <= len(hands[seat]) <= MAX_HAND:
                    # the refill and the trim below would do nothing: advance at once
                    self.actor = (seat + 1) % self.num_players
                    continue
                tasks.append((T_ADVANCE, seat, 0))
                tasks.append((T_TRIM, seat, 0))
                tasks.append((T_REFILL, seat, 0))
            elif typ == T_DRAW:
                tasks.pop()
                if arg > 1:
                    tasks.append((T_DRAW, seat, arg - 1))
                if self._draw_one(seat, events):
                    self._end_round(events)
                    return
            elif typ == T_REFILL:  # dudab §5.6 step 1 (D14: Jungle/Baby do not count)
                if len(hands[seat]) >= MIN_HAND:
                    tasks.pop()
                elif self._draw_one(seat, events):
                    self._end_round(events)
                    return
            elif typ == T_TRIM:  # §5.6 step 2, §5.7.3
                if len(hands[seat]) <= MAX_HAND:
                    tasks.pop()
                else:
                    return
            elif typ == T_ADVANCE:  # §5.2: the next step goes to the left
                tasks.pop()
                self.actor = (seat + 1) % self.num_players
            else:
                return

    # ----- errors --------------------------------------------------------------------------------

    def prompt(self) -> Prompt:
        """What is being decided now: one of :data:`PROMPTS`."""
        if self.phase == OVER:
            return "game_over"
        if self.tasks:
            typ = self.tasks[-1][0]
            if typ == T_KEEP:
                return "keep" if len(self.kept) < KEEP_AFTER_CAPTURE else "rest"
            return cast(Prompt, TASKS[typ])  # a decision task: trim, swap, jungle or baby
        return PROMPTS[self.ob]

    def _illegal(self, seat: int, action: DudabAction) -> IllegalActionError:
        prompt = self.prompt()
        legal = self._legal or []
        allowed = ", ".join(str(a) for a in legal[:16]) + (", …" if len(legal) > 16 else "")
        hint = ErrorText("; allowed now: {allowed}", allowed=allowed)

        def refuse(rule: str, reason: ErrorText) -> IllegalActionError:
            return IllegalActionError(rule, ErrorText("{reason}{hint}", reason=reason, hint=hint))

        kind = action.kind
        rule = "dudab rules §5.1"
        text = ErrorText(
            "'{action}' is not a choice now ({prompt})", action=str(action), prompt=prompt
        )
        decisions = {
            "keep": (
                "dudab rules §4.5",
                ErrorText("after a capture, keep 2 cards one at a time ('keep <card>')"),
            ),
            "rest": ("dudab rules §4.5", ErrorText("send the other cards to one destination")),
            "swap": (
                "dudab rules §5.3",
                ErrorText("after revealing 5 cards, move one to the own pile"),
            ),
            "trim": ("dudab rules §5.6", ErrorText("trim the hand to 5 cards into the own pile")),
            "jungle": ("dudab rules §6.1", ErrorText("lay the drawn Jungle on an eligible column")),
            "baby": (
                "dudab rules §7.1",
                ErrorText("put the drawn Baby on a column other than the active one"),
            ),
        }
        if prompt in decisions:
            rule, text = decisions[prompt]
            if kind in (K_KEEP, K_PILE) and action.face not in _faces(self.hands[seat]):
                text = ErrorText("there is no {card} in the hand", card=FACE_NAMES[action.face])
            elif kind in (K_JUNGLE, K_BABY) and action.col >= self.ncols:
                text = ErrorText("there are only {count} columns", count=self.ncols)
            elif kind in (K_JUNGLE, K_BABY):
                text = ErrorText(
                    "{reason}; column {column} is not eligible", reason=text, column=action.col + 1
                )
            return refuse(rule, text)
        if kind in (K_KEEP, K_REST, K_PILE, K_JUNGLE, K_BABY):
            return refuse(rule, text)
        if kind == K_PENALTY:
            return refuse(
                "dudab rules §5.5", ErrorText("the penalty is taken only in reaction to a Shaman")
            )
        if kind == K_DRAW:
            if prompt == "shaman_reaction":
                return refuse(
                    "dudab rules §5.5",
                    ErrorText("react with a Shaman or a Dudab, or take the penalty"),
                )
            if prompt == "call_answer":
                return refuse(
                    "dudab rules §5.4",
                    ErrorText(
                        "a player holding a card that matches the call must place it (or a Dudab)"
                    ),
                )
            return refuse(
                "dudab rules §5.3",
                ErrorText("with 5 cards in hand a player who can place must place"),
            )
        # a placement
        face = action.face
        if face not in _faces(self.hands[seat]):
            return refuse(
                "dudab rules §5.2",
                ErrorText(
                    "there is no {card} in seat {seat}'s hand", card=FACE_NAMES[face], seat=seat
                ),
            )
        if action.col >= self.ncols:
            return refuse(
                "dudab rules §2.4",
                ErrorText("this game has {count} columns (c1–c{count})", count=self.ncols),
            )
        if prompt != "turn" and action.col != self.ob_col:
            return refuse(
                "dudab rules §5.1",
                ErrorText(
                    "during a Shaman reaction cards go only on column {column}",
                    column=self.ob_col + 1,
                )
                if prompt == "shaman_reaction"
                else ErrorText(
                    "during a call answer cards go only on column {column}", column=self.ob_col + 1
                ),
            )
        if face == FACE_DUDAB:
            return refuse(
                "dudab rules §6.2", ErrorText("a Dudab placed in a Jungle column makes no call")
            )
        if prompt == "shaman_reaction":
            if face < 64:
                return refuse(
                    "dudab rules §5.5",
                    ErrorText("react with a Shaman or a Dudab, or take the penalty"),
                )
            return refuse(
                "dudab rules §6.2", ErrorText("the Shaman does not fit the Jungle's mirror card")
            )
        if prompt == "call_answer":
            return refuse(
                "dudab rules §5.4",
                ErrorText(
                    "{card} does not match the call {call}",
                    card=FACE_NAMES[face],
                    call=CALL_NAMES[self.ob_call],
                ),
            )
        if self.above[action.col] >= 0:  # a Jungle column: the mirror rule
            rule = "dudab rules §6.2"
        else:  # a Number card, or a Shaman (a Dudab fits any top card)
            rule = "dudab rules §4.1" if face < FACE_DUDAB else "dudab rules §4.2"
        return refuse(
            rule,
            ErrorText(
                "{card} cannot be placed on column {column}",
                card=FACE_NAMES[face],
                column=action.col + 1,
            ),
        )

    # ----- outcome -------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether the game is over (after the last round)."""
        return self.phase == OVER

    def totals(self) -> list[int]:
        """Each seat's total over the rounds scored so far."""
        return [sum(s) for s in self.scores]

    def outcome(self) -> Outcome:
        """Totals, ranks and winners (dudab §7.4: lowest total wins; ties share first place)."""
        if self.phase != OVER:
            raise ValueError("the game is not over yet")
        details = [{"rounds": list(s)} for s in self.scores]
        return Outcome.from_scores(self.totals(), lower_is_better=True, details=details)

    # ----- views ---------------------------------------------------------------------------------

    def obligation(self) -> ObligationJson | None:
        """The pending obligation as JSON (``None`` if none)."""
        if self.ob == OB_NONE:
            return None
        out: ObligationJson = {
            "kind": "call" if self.ob == OB_CALL else "shaman_reaction",  # OBLIGATIONS[self.ob]
            "column": self.ob_col + 1,
        }
        if self.ob == OB_CALL:
            out["call"] = CALL_NAMES[self.ob_call]
        return out

    def _pending(self) -> list[PendingJson]:
        out = []
        for typ, seat, arg in reversed(self.tasks):
            item: PendingJson = {"task": TASKS[typ], "seat": seat}
            if typ == T_DRAW:
                item["count"] = arg
            out.append(item)
        return out

    def view(self, seat: int | None) -> DudabView:
        """What ``seat`` may know (dudab §9): its own hand and pile, and the public table.

        Its keys and value types are :class:`~campfire.games.dudab.types.DudabView`.
        """
        self._check_seat(seat, spectator=True)
        n = self.num_players
        capturer = self.tasks[-1][1] if self.tasks and self.tasks[-1][0] == T_KEEP else NO_SEAT
        hand_sizes = [len(h) for h in self.hands]
        if capturer >= 0:
            hand_sizes[capturer] += len(self.kept)
        out: DudabView = {
            "game": "dudab",
            "seat": seat,
            "players": n,
            "use_jungle": self.options.use_jungle,
            "use_baby": self.options.use_baby,
            "round": self.round + 1,
            "rounds": n,
            "start_player": self.start_player,
            "round_start_player": self.round_start_player(),
            "phase": PHASES[self.phase],
            "prompt": self.prompt(),
            "to_act": list(self.seats_to_act()),
            "actor": None if self.phase == OVER else self.actor,
            "obligation": self.obligation(),
            "pending": self._pending(),
            "columns": [
                {
                    "cards": [FACE_NAMES[FACE[c]] for c in self.vis[col]],
                    "owners": [None if o < 0 else o for o in self.owners[col]],
                    "jungle": self.above[col] >= 0,
                    "jungle_owner": None
                    if self.jungle_owners[col] < 0
                    else self.jungle_owners[col],
                    "above": self.above[col] if self.above[col] >= 0 else None,
                    "heap": len(self.heap[col]),
                }
                for col in range(self.ncols)
            ],
            "discard": [FACE_NAMES[FACE[c]] for c in self.discard],
            "draw_pile": len(self.draw),
            "hand_sizes": hand_sizes,
            "pile_sizes": [len(p) for p in self.piles],
            "kept_count": len(self.kept),
            "revealed": None
            if self.revealed < 0
            else {"seat": self.revealed, "cards": sorted_faces(self.hands[self.revealed])},
            "scores": [list(s) for s in self.scores],
            "totals": self.totals(),
            "last_round": self.report,
        }
        if seat is not None and 0 <= seat < n:
            out["hand"] = sorted_faces(self.hands[seat])
            out["pile"] = sorted_faces(self.piles[seat])
            out["kept"] = sorted_faces(self.kept) if seat == capturer else []
        if self.phase == OVER:
            out["outcome"] = cast(DudabOutcome, self.outcome().to_json())
        return out

    def render(self, seat: int | None = None) -> str:
        """The table as text, as ``seat`` (``None``: a spectator) sees it.

        It is the plain text of the presenter's display (``present.py``), so it shows exactly
        what a user interface would.
        """
        self._check_seat(seat, spectator=True)
        from campfire.core.present import render_text

        legal = self.legal_actions(seat) if seat is not None else []
        return render_text(self.game.presenter().display(self.view(seat), legal, ()))

    # ----- copies --------------------------------------------------------------------------------

    # ----- clone: written from FIELDS by `python -m campfire.core.clones`; do not edit -----
    def clone(self) -> Self:
        """An independent copy, each attribute copied as ``FIELDS`` declares."""
        s = self
        o = self.__class__()
        o.num_players = s.num_players
        o.options = s.options
        o.ncols = s.ncols
        o.start_player = s.start_player
        o.round = s.round
        o.phase = s.phase
        o.actor = s.actor
        o.ob = s.ob
        o.ob_col = s.ob_col
        o.ob_call = s.ob_call
        o.tasks = s.tasks[:]
        o.revealed = s.revealed
        o.draw = s.draw[:]
        o.discard = s.discard[:]
        o.heap = [_x[:] for _x in s.heap]
        o.vis = [_x[:] for _x in s.vis]
        o.jungle = s.jungle[:]
        o.above = s.above[:]
        o.owners = s.owners[:]
        o.jungle_owners = s.jungle_owners[:]
        o.hands = [_x[:] for _x in s.hands]
        o.piles = [_x[:] for _x in s.piles]
        o.kept = s.kept[:]
        o.scores = [_x[:] for _x in s.scores]
        o.report = s.report
        o.decks = [_x[:] for _x in s.decks]
        o._legal = s._legal
        return o

    # ----- end of the written clone -----

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A copy with everything ``seat`` cannot see re-dealt at random (dudab §9).

        Re-sampled: the other players' hands (except a hand revealed for a pending swap) and
        own piles, the Baby heaps, the draw pile order and the decks of the later rounds. Hands
        get no Jungle or Baby (they never stay in a hand during play).
        """
        self._check_seat(seat)
        other = self.clone()
        # a determinisation goes to agents: it must share nothing mutable with the true state
        other.report = _report_copy(self.report)
        if self.phase == OVER:
            return other
        n = self.num_players
        capturer = self.tasks[-1][1] if self.tasks and self.tasks[-1][0] == T_KEEP else NO_SEAT
        hand_zones: list[list[int]] = [
            other.hands[p] for p in range(n) if p != seat and p != self.revealed
        ]
        if capturer >= 0 and capturer != seat:
            hand_zones.append(other.kept)
        other_zones: list[list[int]] = [other.piles[p] for p in range(n) if p != seat]
        other_zones.extend(other.heap)
        other_zones.append(other.draw)
        pool: list[int] = []
        for z in hand_zones:
            pool.extend(z)
        for z in other_zones:
            pool.extend(z)
        # sorted first, so that the copy depends only on what the seat knows and on ``rng``
        pool.sort()
        split = bisect_left(pool, FIRST_SPECIAL)  # the Jungle and Baby cards come last
        normal = pool[:split]
        special = pool[split:]
        shuffle(rng, normal)
        # the zones take the shuffled cards in turn (slices: no per-card step here)
        pos = 0
        for z in hand_zones:
            end = pos + len(z)
            z[:] = normal[pos:end]
            pos = end
        rest = normal[pos:] + special
        shuffle(rng, rest)
        pos = 0
        for z in other_zones:
            end = pos + len(z)
            z[:] = rest[pos:end]
            pos = end
        deck = cards_in_use(self.options.use_jungle, self.options.use_baby)
        head = HAND_DEAL * n + self.ncols
        other.decks = [random_deck(deck, head, rng) for _ in self.decks]
        other._legal = None
        return other


# ----- helpers ------------------------------------------------------------------------------------


#: the owners of a column whose one card nobody played (a starter, a Baby's cover); a column's
#: owners are a tuple, shared by clones: a change replaces it
_NOBODY: Final = (NO_SEAT,)

#: ``frozenset((seat,))`` of each seat, for the events only that seat sees
_ONLY_SEAT: Final = tuple(frozenset((seat,)) for seat in range(16))


def _only(seat: int) -> frozenset[int]:
    return _ONLY_SEAT[seat] if 0 <= seat < 16 else frozenset((seat,))


def _faces(hand: list[int]) -> list[int]:
    """The distinct faces in a hand, in face order.

    Sorted, then each kept once in a loop of ints (native where compiled: ``map`` of a bound
    method called each card's look-up through Python, and a set hashed every face).
    """
    faces = [FACE[card] for card in hand]
    faces.sort()
    out: list[int] = []
    last = -1  # (faces are 0 and up)
    for face in faces:
        if face != last:
            out.append(face)
            last = face
    return out


def _take(hand: list[int], face: int) -> int:
    """Remove a card with ``face`` from ``hand`` and return it."""
    for i, card in enumerate(hand):
        if FACE[card] == face:
            del hand[i]
            return card
    raise AssertionError(f"no {FACE_NAMES[face]} in hand")


def sorted_faces(cards: Sequence[int]) -> list[str]:
    """The face names of ``cards``, in face order (a hand shown without its order)."""
    return [FACE_NAMES[f] for f in sorted(FACE[c] for c in cards)]


def _names(cards: Sequence[int]) -> list[str]:
    return [card_name(c) for c in cards]


def _task_json(task: tuple[int, int, int]) -> dict[str, Any]:
    typ, seat, arg = task
    out: dict[str, Any] = {"task": TASKS[typ], "seat": seat}
    if typ == T_DRAW:
        out["count"] = arg
    elif typ in (T_JUNGLE, T_BABY):
        out["card"] = card_name(arg)
    return out
