"""The Big Manitou state machine (manitou §3–§7).

A hunt runs through these phases:

* ``select`` — every seat secretly picks its cards, one ``pick C`` at a time, all seats at once
  (manitou §5 H3, §12 M14); skipped in the DRAW variant (§8);
* ``play`` — seven rounds of ``play C gN`` from the first player clockwise (§5.1–§5.4);
* ``totem`` — the totem-piece holder may play an extra card or ``pass`` (§5.6);
* ``horse`` — the horse-piece holder may ``move hS gN`` one of his hunters or ``pass`` (§5.7);
* ``thief`` — a robbed seat chooses the tile it loses, ``lose T`` (§6.1, §12 M10);
* ``take`` — a seat chooses a tile at the ground being shared, ``take T`` (§6.2).

Choices with a single possible outcome are made automatically (a robbed seat with one kind of
tile, a taker who gets every remaining tile, or whose remaining tiles are all alike).

>>> from campfire import get_game
>>> state = get_game("manitou").new_game(3, setup={"dealer": 0, "tiles": ["tipi1"] * 30})
>>> state.phase_name, state.seats_to_act(), state.sel_size
('select', (0, 1, 2), [7, 9, 8])
>>> [str(a) for a in state.legal_actions(1)[:3]]
['pick h1', 'pick h2', 'pick h3']
>>> [e.type for e in state.apply(1, "pick chief")]
['pick', 'pick_card']
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, cast

from campfire.core import (
    Action,
    CampfireError,
    ErrorText,
    Event,
    GameRng,
    IllegalActionError,
    Outcome,
    PositionError,
    SetupError,
    State,
)
from campfire.core.draws import sample as draw_sample
from campfire.core.draws import shuffle
from campfire.core.fields import (
    SEAT,
    Computed,
    Copy,
    Custom,
    Int,
    ListOf,
    Names,
    Nullable,
    Read,
    ReadContext,
    Reset,
    StateField,
    copy_on_write,
    unshare,
)
from campfire.core.validate import short_repr

from .actions import (
    K_LOSE,
    K_MOVE,
    K_PASS,
    K_PICK,
    K_PLAY,
    K_TAKE,
    KIND_NAMES,
    LOSE,
    MOVE,
    PASS,
    PICK,
    PLAY,
    TAKE,
    ManitouAction,
    canonical_action,
    parse_action,
)
from .cards import (
    CARD_NAMES,
    FULL_POOL,
    HORSE,
    MAX_BAG_TILES,
    MAX_MULTIPLIER,
    NUM_CARD_TYPES,
    NUM_HUNTERS,
    NUM_TILE_TYPES,
    TILE_NAMES,
    TIPI,
    TOMAHAWK,
    TOTEM,
    beat_table,
    parse_card,
    parse_tile,
    tile_value,
)
from .options import ManitouOptions
from .types import ManitouOutcome, ManitouView, Phase, SharingStep

if TYPE_CHECKING:
    from .game import ManitouGame

__all__ = [
    "DOWN",
    "HUNTS",
    "NO_SEAT",
    "PHASES",
    "TILES_PER_GROUND",
    "ManitouState",
    "read_names",
    "selection_sizes",
]

NO_SEAT: Final = -1
#: A card on the table is coded ``card | seat << 4``, plus DOWN once it is turned face down.
DOWN: Final = 256

#: manitou §2.5 (M16): hunts per player count.
HUNTS: Final = {2: 4, 3: 3, 4: 4, 5: 5}
#: manitou §2.6 (M1): tiles per hunting ground per player count.
TILES_PER_GROUND: Final = {2: 2, 3: 3, 4: 3, 5: 4}
HAND_SIZE: Final = 3
PLAYS_PER_HUNT: Final = 7
NUM_GROUNDS: Final = 3

SELECT: Final = 0
PLAY_PHASE: Final = 1
TOTEM_PHASE: Final = 2
HORSE_PHASE: Final = 3
THIEF: Final = 4
SHARE: Final = 5
GAME_OVER: Final = 6
PHASES: Final[tuple[Phase, ...]] = (
    "select",
    "play",
    "totem",
    "horse",
    "thief",
    "take",
    "game_over",
)
# steps of the distribution of one ground (manitou §6.2)
EV_START: Final = 0
EV_HERO: Final = 1
EV_FIRST: Final = 2
EV_SECOND: Final = 3
EV_STEPS: Final[tuple[SharingStep, ...]] = ("start", "hero", "best_hunter", "second_hunter")

_INDEX: Final = attrgetter("index")
#: the cards of a whole personal deck: a setup's deck order this long holds every card
_DECK_SIZE: Final = sum(FULL_POOL)


def _ground_card(code: int) -> Any:
    """A card on a ground in the view: the JSON array ``[seat, card, face_up]``.

    The view's type reads it as a :data:`GroundCard` tuple; ``Any``, not a ``cast``, since a
    compiled ``cast`` checks the value (a list is no tuple).
    """
    return [_seat_of(code), CARD_NAMES[code & 15], not code & DOWN]


def selection_sizes(players: int, dealer: int) -> list[int]:
    """Cards each seat selects for a hunt (manitou §3): 9 / 8 … / 7, or 8 / 7 for two."""
    sizes = [8] * players
    sizes[(dealer + 1) % players] = 8 if players == 2 else 9
    sizes[dealer] = 7
    return sizes


def _hero_down(code: int, g: int, by: int, reason: str) -> Event:
    """A ``hero_down`` event: hero ``code`` at ground ``g`` goes face down because of ``by``.

    The reason (manitou §5.2) is ``beaten`` (by a hero that beats it), ``tie`` (same type) or
    ``sacrifice`` (the attacker goes down with the hero it removed).
    """
    return Event(
        "hero_down",
        {
            "seat": (code & 255) >> 4,
            "card": CARD_NAMES[code & 15],
            "ground": g + 1,
            "by_seat": (by & 255) >> 4,
            "by": CARD_NAMES[by & 15],
            "reason": reason,
        },
    )


def _seat_of(code: int) -> int:
    return (code & 255) >> 4


# ----- how the fields are written in a position (``ManitouState.FIELDS``) -------------------------


def _tile_names(tiles: list[int]) -> list[str]:
    return [TILE_NAMES[t] for t in tiles]


def _card_names(cards: list[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def _deals_json(deals: list[tuple[tuple[int, ...], ...]]) -> list[list[list[str]]]:
    return [[_card_names(list(order)) for order in deal] for deal in deals]


def _tiles_owned(state: ManitouState) -> list[list[str]]:
    return [state._tiles(p) for p in range(state.num_players)]


def _used_this_cycle(state: ManitouState) -> list[list[str]]:
    return [state._used(p) for p in range(state.num_players)]


def _selected(state: ManitouState) -> list[list[str]]:
    return [
        [CARD_NAMES[c] for c in range(NUM_CARD_TYPES) for _ in range(s[c])] for s in state.selected
    ]


def _table(state: ManitouState) -> list[list[list[Any]]]:
    return [
        [[_seat_of(code), CARD_NAMES[code & 15], not code & DOWN] for code in t]
        for t in state.table
    ]


def _sharing(state: ManitouState) -> list[Any]:
    return [
        state.ev_ground + 1,
        EV_STEPS[state.ev_step],
        None if state.chooser == NO_SEAT else state.chooser,
        state.picks_left,
        None if state.c_taker == NO_SEAT else state.c_taker,
    ]


# ... and how they are read back: the JSON types and shapes of each field, and the names decoded
# (each problem a PositionError naming the field); the checks across fields are the game's reader's


def read_names(
    raw: Any, what: str, parse: Callable[[str], int], error: type[CampfireError] = PositionError
) -> list[int]:
    """A JSON list of card or tile names (``parse`` reads one) → their numbers."""
    if not isinstance(raw, list):
        raise error(
            ErrorText(
                "{what} must be a list of names (got {kind})",
                what=what,
                kind=type(raw).__name__,
            )
        )
    out = []
    for name in raw:
        if not isinstance(name, str):
            raise error(
                ErrorText("{what} must hold names (got {name})", what=what, name=short_repr(name))
            )
        try:
            out.append(parse(name))
        except CampfireError as exc:
            raise error(ErrorText("{what}: {exc}", what=what, exc=exc.text)) from None
    return out


def _read_tiles(raw: Any, what: str, ctx: ReadContext) -> list[int]:
    return read_names(raw, what, parse_tile)


def _read_cards(raw: Any, what: str, ctx: ReadContext) -> list[int]:
    return read_names(raw, what, parse_card)


def _read_bag(raw: Any, what: str, ctx: ReadContext) -> list[int]:
    bag = _read_tiles(raw, what, ctx)
    if len(bag) > MAX_BAG_TILES:
        raise PositionError(
            ErrorText(
                "the bag holds at most {max_bag_tiles} tiles (got {n_bag})",
                max_bag_tiles=MAX_BAG_TILES,
                n_bag=len(bag),
            )
        )
    return bag


def _read_table_card(raw: Any, what: str, ctx: ReadContext) -> int:
    """``[seat, card, face_up]`` → the card's code on the table (``card | seat << 4``, + DOWN)."""
    if not isinstance(raw, list) or len(raw) != 3 or type(raw[2]) is not bool:
        raise PositionError(
            ErrorText(
                "{what} must be a card [seat, card, face_up] (got {raw})",
                what=what,
                raw=short_repr(raw),
            )
        )
    seat: int = SEAT.decode(raw[0], f"{what}: the card's seat", ctx)
    name = raw[1]
    if not isinstance(name, str):
        raise PositionError(
            ErrorText(
                "{what}: the card must be a card name (got {name})",
                what=what,
                name=short_repr(name),
            )
        )
    try:
        card = parse_card(name)
    except CampfireError as exc:
        raise PositionError(ErrorText("{what}: {exc}", what=what, exc=exc.text)) from None
    return card | seat << 4 | (0 if raw[2] else DOWN)


def _per_ground(ctx: ReadContext) -> int:
    return int(ctx.options.tiles_per_ground) or TILES_PER_GROUND[ctx.players]


_GROUND: Final = Int(1, NUM_GROUNDS, offset=1)
_STEP: Final = Names(EV_STEPS)
_PICKS: Final = Int(0, _per_ground)


def _read_sharing(raw: Any, what: str, ctx: ReadContext) -> tuple[int, int, int, int, int]:
    """``[ground, step, chooser, picks_left, second_taker]`` → the five attributes."""
    if not isinstance(raw, list) or len(raw) != 5:
        raise PositionError(
            ErrorText("{what} must be [ground, step, chooser, picks_left, second_taker]", what=what)
        )
    ground, step, chooser, picks, taker = raw
    return (
        _GROUND.decode(ground, f"{what}: ground", ctx),
        _STEP.decode(step, f"{what}: step", ctx),
        _SEAT_OR_NULL.decode(chooser, f"{what}: chooser", ctx),
        _PICKS.decode(picks, f"{what}: picks_left", ctx),
        _SEAT_OR_NULL.decode(taker, f"{what}: second_taker", ctx),
    )


def _read_rng(raw: Any, what: str, ctx: ReadContext) -> GameRng:
    return GameRng.from_json(raw)


def _players(ctx: ReadContext) -> int:
    return ctx.players


def _last_hunt(ctx: ReadContext) -> int:
    return HUNTS[ctx.players] + 1  # the hunt after the last, once the game is over


def _plays(ctx: ReadContext) -> int:
    return PLAYS_PER_HUNT * ctx.players


_TILES: Final = Custom(_tile_names, _read_tiles)
_CARDS: Final = Custom(_card_names, _read_cards)
_SEAT_OR_NULL: Final = Nullable(SEAT)
#: per seat, names written by a computed entry (already JSON), read back as numbers
_SEATS_CARDS: Final = ListOf(Read(_read_cards), length=_players)
_SEATS_TILES: Final = ListOf(Read(_read_tiles), length=_players)


class ManitouState(State):
    """A Big Manitou position and its rules.

    Attributes are public for tests and renderers but should be changed only through
    :meth:`apply`. Card and tile types are the integers of :mod:`.cards`; ``table[g]`` lists the
    cards played at ground ``g`` (0-based) in order, coded ``card | seat << 4`` (+ ``DOWN``).
    """

    game: ClassVar[ManitouGame]
    options: ManitouOptions

    #: every attribute, declared once: the generated ``clone`` copies them (the generator is
    #: shared until either copy draws from it, copy-on-write), ``to_position`` writes those with
    #: a key in this order (``docs/notation/manitou.md``, "Position") and ``read_fields`` reads
    #: them back (types, shapes, names); the checks across fields are ``position.read_state``'s
    FIELDS = (
        StateField("num_players", key=None),
        StateField("options", key=None),
        # from the options
        *(StateField(n, key=None) for n in ("_beats", "_per_player", "_live", "_count_down")),
        StateField("hunts", key=None),
        StateField("per_ground", key=None),
        StateField("hunt", codec=Int(1, _last_hunt, offset=1)),
        StateField("dealer", codec=SEAT),
        StateField("phase", codec=Names(PHASES)),
        StateField("seat", codec=_SEAT_OR_NULL),
        StateField("bag", Copy.LIST, codec=Custom(_tile_names, _read_bag)),
        StateField("grounds", Copy.LISTS, codec=ListOf(_TILES, length=NUM_GROUNDS)),
        StateField("out_of_game", Copy.LIST, codec=_TILES),
        StateField("owned", Copy.LISTS, key=None),
        Computed("tiles_owned", _tiles_owned, _SEATS_TILES),
        StateField("totem_holder", codec=_SEAT_OR_NULL),
        StateField("horse_holder", codec=_SEAT_OR_NULL),
        StateField("pool", Copy.LISTS, key=None),
        Computed("used_this_cycle", _used_this_cycle, _SEATS_CARDS),
        StateField("sel_size", Copy.LIST, key=None),
        StateField("selected", Copy.LISTS, key=None),
        Computed("selected", _selected, _SEATS_CARDS),
        StateField("picked", Copy.LIST, key=None),
        StateField("hands", Copy.LISTS, codec=ListOf(_CARDS, length=_players)),
        StateField("decks", Copy.LISTS, codec=ListOf(_CARDS, length=_players)),
        StateField("table", Copy.LISTS, key=None),
        # [seat, card, face up], read back as codes
        Computed("table", _table, ListOf(ListOf(Read(_read_table_card)), length=NUM_GROUNDS)),
        StateField("up", Copy.LISTS, key=None),
        StateField("turn", key="play_turn", codec=Int(0, _plays)),
        StateField("rob_queue", Copy.LIST, key="thief_queue", codec=ListOf(SEAT)),
        StateField("tom", Copy.LIST, key="tomahawks_counted", codec=ListOf(Int(0, 99))),
        *(StateField(n, key=None) for n in ("ev_ground", "ev_step", "chooser", "picks_left")),
        StateField("c_taker", key=None),
        Computed("sharing", _sharing, Read(_read_sharing)),
        # read by the game's reader with the setup's own functions
        StateField("deals", Copy.LIST, codec=Custom(_deals_json), default=[]),
        StateField("returns", Copy.LIST, codec=ListOf(), default=[]),
        *copy_on_write("rng", codec=Custom(GameRng.to_json, _read_rng)),  # written last
        # the legal steps, recomputed on demand (a determinisation may change the hands)
        StateField("_legal", Reset(None), key=None),
        StateField("_legal_seat", Reset(NO_SEAT), key=None),
    )

    def __init__(self) -> None:
        """An empty state, its attributes unset: :meth:`new` and ``clone`` fill them in.

        A compiled class always runs ``__init__`` when it makes an object, so the written
        ``clone`` (``docs/compiled.md``) makes its copy with this one.
        """

    @classmethod
    def new(
        cls, options: ManitouOptions, players: int, dealer: int, bag: list[int], rng: GameRng
    ) -> Self:
        """Create the state before the first hunt is laid out: use ``ManitouGame.new_game``."""
        state = cls()
        state._setup(options, players, dealer, bag, rng)
        return state

    def _setup(
        self, options: ManitouOptions, players: int, dealer: int, bag: list[int], rng: GameRng
    ) -> None:
        """Set every attribute of the initial state (:meth:`new`)."""
        n = players
        self.num_players = n
        self.options = options
        self.rng = rng
        self._rng_shared = False  # copy-on-write: clones share the generator until one draws
        self._beats = beat_table(options.hero_chart)
        self._per_player = options.hunter_ranking == "per_player"
        self._live = options.tomahawk_timing == "live"
        self._count_down = options.hero_limit_counts_face_down
        self.hunts = HUNTS[n]
        self.per_ground = options.tiles_per_ground or TILES_PER_GROUND[n]
        self.hunt = 0
        self.dealer = dealer
        self.phase = SELECT
        self.seat = NO_SEAT
        self.bag = list(bag)
        self.grounds: list[list[int]] = [[], [], []]
        self.out_of_game: list[int] = []
        self.owned = [[0] * NUM_TILE_TYPES for _ in range(n)]
        self.totem_holder = NO_SEAT
        self.horse_holder = NO_SEAT
        self.pool = [list(FULL_POOL) for _ in range(n)]
        self.sel_size = selection_sizes(n, dealer)
        self.selected = [[0] * NUM_CARD_TYPES for _ in range(n)]
        self.picked = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.decks: list[list[int]] = [[] for _ in range(n)]
        self.table: list[list[int]] = [[], [], []]
        self.up: list[list[int]] = [[], [], []]
        self.turn = 0
        self.rob_queue: list[int] = []
        self.tom: list[int] = []
        self.ev_ground = 0
        self.ev_step = EV_START
        self.chooser = NO_SEAT
        self.picks_left = 0
        self.c_taker = NO_SEAT
        #: explicit deck orders of the coming deals (per seat a card list in draw order: the
        #: seat's deck is its selected cards in that order), one per hunt; when none is left,
        #: decks are shuffled by ``rng`` (manitou §5 H4, §8)
        self.deals: list[tuple[tuple[int, ...], ...]] = []
        #: explicit places in the bag (0: drawn next) for tiles going back with
        #: ``leftover_tiles=bag``, consumed in order, each modulo the bag size + 1; when none is
        #: left, ``rng`` draws them
        self.returns: list[int] = []
        self._legal: list[Action] | None = None  # legal steps of _legal_seat, until an apply
        self._legal_seat = NO_SEAT

    @property
    def phase_name(self) -> str:
        """The phase: ``select``, ``play``, ``totem``, ``horse``, ``thief``, ``take``, ... ."""
        return PHASES[self.phase]

    @property
    def first_player(self) -> int:
        """The first player of the current hunt: the dealer's left neighbour (manitou §3)."""
        return (self.dealer + 1) % self.num_players

    # ----- the protocol ----------------------------------------------------------------------

    def seats_to_act(self) -> tuple[int, ...]:
        """The seats to act: every seat still selecting, else the single seat to decide."""
        phase = self.phase
        if phase == SELECT:
            picked, sizes = self.picked, self.sel_size
            return tuple(p for p in range(self.num_players) if picked[p] < sizes[p])
        if phase == GAME_OVER:
            return ()
        return (self.seat,)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal steps of ``seat`` now, ordered by action index (the one definition).

        ``seat`` may be omitted when a single seat is to act; a value that is no seat raises
        :class:`~campfire.core.errors.SeatError`.
        """
        if seat is None:
            seats = self.seats_to_act()
            if len(seats) != 1:
                return []
            seat = seats[0]
        elif seat.__class__ is not int or not 0 <= seat < self.num_players:
            self._check_seat(seat)
        legal = self._legal
        if legal is None or self._legal_seat != seat:
            legal = self._compute_legal(seat)
        return list(legal)

    def legal_action_indices(self, seat: int) -> list[int]:
        """The indices of :meth:`legal_actions` ``(seat)``, in its order (read here, natively)."""
        return [cast(ManitouAction, a).index for a in self.legal_actions(seat)]

    def _compute_legal(self, seat: int) -> list[Action]:
        """Compute and cache the legal steps of ``seat`` (until the next apply)."""
        phase = self.phase
        legal: list[Action]
        if phase == SELECT:  # manitou §4, §5 H3: from the seat's available pool
            if self.picked[seat] >= self.sel_size[seat]:
                legal = []
            else:
                pool, sel = self.pool[seat], self.selected[seat]
                order = self._short_order(seat)
                if order is None:
                    legal = [PICK[c] for c in range(NUM_CARD_TYPES) if pool[c] > sel[c]]
                else:  # a setup's short order is the selection: its cards only, as often
                    legal = [
                        PICK[c]
                        for c in range(NUM_CARD_TYPES)
                        if pool[c] > sel[c] and order.count(c) > sel[c]
                    ]
        elif phase == GAME_OVER or seat != self.seat:
            legal = []
        elif phase == PLAY_PHASE:  # manitou §5.1: a card must be played if one can be
            legal = self._plays(seat) or [PASS]
        elif phase == TOTEM_PHASE:  # manitou §5.6: an extra card, or not
            legal = self._plays(seat)
            legal.append(PASS)
        elif phase == HORSE_PHASE:  # manitou §5.7: one own hunter to another ground, or not
            legal = [
                MOVE[h][g] for h, src in self._hunters(seat) for g in range(NUM_GROUNDS) if g != src
            ]
            legal.append(PASS)
        elif phase == THIEF:  # manitou §6.1
            legal = [LOSE[t] for t in self._rob_choices(seat)]
        else:  # SHARE, manitou §6.2
            legal = [TAKE[t] for t in sorted(set(self.grounds[self.ev_ground]))]
        self._legal = legal
        self._legal_seat = seat
        return legal

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Apply one step for ``seat`` (see the module docstring); return the events.

        The step must be a member of :meth:`legal_actions`; otherwise
        :class:`~campfire.core.errors.IllegalActionError` names the rule (the state is unchanged).
        """
        action = parse_action(action) if isinstance(action, str) else canonical_action(action)
        phase = self.phase
        if phase == SELECT:  # the seats still selecting (seats_to_act, without the tuple)
            if (
                seat.__class__ is not int
                or not 0 <= seat < self.num_players
                or self.picked[seat] >= self.sel_size[seat]
            ):
                self._check_turn(seat)
        elif seat.__class__ is not int or seat != self.seat or phase == GAME_OVER:
            self._check_turn(seat)
        legal = self._legal
        if legal is None or self._legal_seat != seat:
            legal = self._compute_legal(seat)
        # membership: the legal steps are in index order and ``action`` is canonical
        i = bisect_left(legal, action.index, key=_INDEX)
        if i == len(legal) or legal[i] is not action:
            raise self._illegal(seat, action)
        return self.apply_legal(seat, action)

    def apply_legal(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal step for ``seat`` unchecked (the path of :meth:`State.apply_legal`).

        ``action`` must be the game's own action object among :meth:`legal_actions` of this
        state for ``seat``: a search applying the actions it generated to states it made itself,
        or a table applying an agent's decision it checked. Nothing is checked: anything else
        may corrupt the state without an error. :meth:`apply` checks, then comes here.
        """
        act: ManitouAction = action  # type: ignore[assignment]  # (the caller's promise)
        phase = self.phase
        self._legal = None
        kind = act.kind
        if phase == SELECT:
            return self._pick(seat, act.arg)
        if phase == PLAY_PHASE:
            if kind == K_PLAY:
                return self._play_turn(seat, act.arg, act.ground)
            return self._play_turn(seat, -1, -1)  # no playable card
        if phase == TOTEM_PHASE:
            if kind == K_PLAY:
                events: list[Event] = []
                self._put(seat, act.arg, act.ground, events, True)  # manitou §5.6
                return self._to_horse(events)
            return self._to_horse([Event("totem_pass", {"seat": seat})])
        if phase == HORSE_PHASE:
            if kind == K_MOVE:
                return self._move(seat, act.arg, act.ground)
            return self._evaluate([Event("horse_pass", {"seat": seat})])
        if phase == THIEF:
            events = []
            self._lose(seat, act.arg, events)
            self.rob_queue.pop(0)
            return self._continue_evaluation(events)
        events = []  # SHARE
        self._gain(seat, self.ev_ground, act.arg, events)
        self.picks_left -= 1
        return self._continue_evaluation(events)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == GAME_OVER

    def outcome(self) -> Outcome:
        """Scores, ranks and winners (manitou §7); raise :class:`ValueError` while running."""
        if self.phase != GAME_OVER:
            raise ValueError("the game is not over yet")
        return self.score()

    # ----- hunt set-up (manitou §5 H1–H4) ----------------------------------------------------

    def _start_hunt(self, events: list[Event]) -> list[Event]:
        n = self.num_players
        if self.hunt % 2 == 0:  # manitou §4: a new cycle of two hunts
            for p in range(n):
                self.pool[p] = list(FULL_POOL)
        self.sel_size = selection_sizes(n, self.dealer)
        # manitou §5 H2: k tiles per ground from the bag, G1 first
        k = self.per_ground
        bag = self.bag
        for g in range(NUM_GROUNDS):
            self.grounds[g] = bag[:k]
            del bag[:k]
        self.selected = [[0] * NUM_CARD_TYPES for _ in range(n)]
        self.picked = [0] * n
        events.append(
            Event(
                "hunt_start",
                {
                    "hunt": self.hunt + 1,
                    "dealer": self.dealer,
                    "first_player": self.first_player,
                    "grounds": [[TILE_NAMES[t] for t in tiles] for tiles in self.grounds],
                    "selection_sizes": list(self.sel_size),
                },
            )
        )
        self.seat = NO_SEAT
        if self.options.draw_cards:  # manitou §8: the selection is drawn at random
            return self._deal(events)
        self.phase = SELECT
        return events

    def _pick(self, seat: int, card: int) -> list[Event]:
        # manitou §5 H3 (M14): secret selection, one card at a time (a setup's short deck
        # order restricts the legal picks to its cards: _compute_legal)
        self.selected[seat][card] += 1
        self.picked[seat] += 1
        events = [
            Event("pick", {"seat": seat, "count": self.picked[seat]}),
            Event("pick_card", {"seat": seat, "card": CARD_NAMES[card]}, frozenset((seat,))),
        ]
        picked, sizes = self.picked, self.sel_size
        for p in range(self.num_players):
            if picked[p] < sizes[p]:
                return events
        try:
            return self._deal(events)
        except SetupError:  # (defensive: the legal picks are the order's cards) unchanged
            self.selected[seat][card] -= 1
            self.picked[seat] -= 1
            raise

    def _deal(self, events: list[Event]) -> list[Event]:
        # manitou §5 H4, §10: per seat from the first player clockwise
        n = self.num_players
        draw = self.options.draw_cards
        first = self.first_player
        # the setup's deck orders, when it gives them (checked before anything changes)
        orders = [self._setup_deck(p, self.deals[0][p]) for p in range(n)] if self.deals else []
        if orders:
            del self.deals[0]
        for i in range(n):
            p = (first + i) % n
            deck: list[int]
            if orders:
                deck = orders[p]
                sel = [0] * NUM_CARD_TYPES
                for c in deck:
                    sel[c] += 1
                self.selected[p] = sel
                self.picked[p] = len(deck)
                hand = deck[:HAND_SIZE]
                deck = deck[: HAND_SIZE - 1 : -1]  # the last card is drawn next
            else:
                rng = unshare(self, "rng")  # the first draw of a clone copies the generator
                if draw:
                    pool = self.pool[p]
                    cards = [c for c in range(NUM_CARD_TYPES) for _ in range(pool[c])]
                    sel = [0] * NUM_CARD_TYPES
                    for c in draw_sample(rng, cards, self.sel_size[p]):
                        sel[c] += 1
                    self.selected[p] = sel
                    self.picked[p] = self.sel_size[p]
                sel = self.selected[p]
                deck = [c for c in range(NUM_CARD_TYPES) for _ in range(sel[c])]
                shuffle(rng, deck)
                hand = [deck.pop() for _ in range(min(HAND_SIZE, len(deck)))]
            self.decks[p] = deck
            self.hands[p] = hand
            events.append(
                Event("hand", {"seat": p, "hand": [CARD_NAMES[c] for c in hand]}, frozenset((p,)))
            )
        events.append(Event("dealt", {"hand_sizes": [len(h) for h in self.hands]}))
        self.phase = PLAY_PHASE
        self.turn = 0
        self.seat = first
        return events

    def _order_fields(
        self, seat: int, order: tuple[int, ...], hunt: int | None = None
    ) -> dict[str, Any]:
        """What every refusal of a setup's deck order names: the hunt, the seat and the order.

        ``hunt`` (0-based) is the hunt the order deals, this one unless given.
        """
        number = (self.hunt if hunt is None else hunt) + 1
        return {"number": number, "seat": seat, "value": [CARD_NAMES[c] for c in order]}

    def _setup_deck(self, seat: int, order: tuple[int, ...]) -> list[int]:
        """``seat``'s deck in draw order, taken from the setup's ``order`` (manitou §5 H4, §8).

        The deck is the seat's selection in the order of ``order``; in the DRAW variant the
        selection is the first cards of ``order`` still in the seat's available pool.
        """
        size = self.sel_size[seat]
        need = list(self.pool[seat] if self.options.draw_cards else self.selected[seat])
        deck: list[int] = []
        for c in order:
            if need[c] > 0 and len(deck) < size:
                need[c] -= 1
                deck.append(c)
        if len(deck) < size:
            missing = [CARD_NAMES[c] for c in range(NUM_CARD_TYPES) for _ in range(need[c])]
            what = "available cards" if self.options.draw_cards else f"selected cards ({missing})"
            raise SetupError(
                ErrorText(
                    "the setup's deck order for hunt {number}, seat {seat} ({value}) does "
                    "not hold the seat's {size} {what}",
                    size=size,
                    what=what,
                    **self._order_fields(seat, order),
                )
            )
        return deck

    # ----- playing cards (manitou §5.1–§5.7) -------------------------------------------------

    def _hero_ok(self, seat: int, g: int) -> bool:
        """Whether ``seat`` may add a hero at ``g`` (manitou §5.1, M6: at most two)."""
        if self._count_down:
            k = 0
            for code in self.table[g]:
                if code & 15 >= NUM_HUNTERS and _seat_of(code) == seat:
                    k += 1
            return k < 2
        up = self.up[g]
        return len(up) < 2 or up[0] >> 4 != seat

    def _plays(self, seat: int) -> list[Action]:
        out: list[Action] = []
        cards = sorted(set(self.hands[seat]))
        if self.deals:  # a setup's next deck order may keep cards back (never in a search:
            kept = self._kept_for_next_hunt(seat)  # determinize drops the orders)
            cards = [c for c in cards if c not in kept]
        for c in cards:
            row = PLAY[c]
            if c < NUM_HUNTERS:
                out.extend(row)
            else:
                out.extend(row[g] for g in range(NUM_GROUNDS) if self._hero_ok(seat, g))
        return out

    def _short_order(self, seat: int) -> tuple[int, ...] | None:
        """``seat``'s deck order of the next deal when a setup gives it short, else ``None``.

        A short order (fewer than a deck's 17 cards: a selection typed in from a table) holds
        exactly the cards the seat may select; a whole deck's order holds every card, so any
        selection can be dealt from it.
        """
        if not self.deals:
            return None
        order = self.deals[0][seat]
        return order if len(order) < _DECK_SIZE else None

    def short_order_slack(self, seat: int) -> tuple[int, list[int], list[int]] | None:
        """How many cards ``seat`` can spare of the short deck order it is to be dealt next.

        ``None`` unless a setup gives ``seat`` a short order for the next deal (its selection,
        :meth:`_short_order`) and the seat's pool bounds it: during the selection, this hunt's
        order and the pool; after the deal in the first hunt of a cycle, the next hunt's order
        and the pool less the seat's cards on the table (a played card stays used for the
        cycle, manitou §4); in the second hunt the pool is full again. Else ``(slack, need,
        avail)``: ``need`` counts the order's cards by type, ``avail`` the pool that bounds
        them, and ``slack`` how many of the order's cards the pool holds beyond the selection's
        size. Below 0 the selection cannot be made (a position that says so is refused).
        """
        order = self._short_order(seat)
        if order is None or self.phase == GAME_OVER:
            return None
        avail = list(self.pool[seat])
        if self.phase == SELECT:
            size = self.sel_size[seat]
        elif self.hunt % 2 or self.hunt + 1 >= self.hunts:
            return None
        else:
            for cards in self.table:
                for code in cards:
                    if _seat_of(code) == seat:
                        avail[code & 15] -= 1
            size = selection_sizes(self.num_players, (self.dealer + 1) % self.num_players)[seat]
        need = [0] * NUM_CARD_TYPES
        for c in order:
            need[c] += 1
        served = sum(min(need[c], avail[c]) for c in range(NUM_CARD_TYPES))
        return served - size, need, avail

    def _kept_for_next_hunt(self, seat: int) -> frozenset[int]:
        """The cards ``seat`` may not play on its turn: its next hunt's short order needs them.

        A card played stays on the table and leaves the pool for the cycle's next hunt
        (manitou §4), whose selection a setup's short order fixes: once the seat has no spare
        card of that order left (slack 0), playing another card the order needs would leave
        a selection that cannot be made. The seat plays another card, or passes if it has
        none (docs/notation/manitou.md, "Setup").
        """
        found = self.short_order_slack(seat)
        if found is None or found[0] > 0:
            return frozenset()
        _, need, avail = found
        return frozenset(c for c in range(NUM_CARD_TYPES) if 0 < avail[c] <= need[c])

    def _play_turn(self, seat: int, card: int, g: int) -> list[Event]:
        events: list[Event] = []
        deck = self.decks[seat]
        if card < 0:  # no playable card (every ground holds two of the seat's heroes): an
            # engine decision, §5.1 names no such case; the seat plays and draws nothing
            events.append(Event("no_play", {"seat": seat}))
        else:
            self._put(seat, card, g, events, False)
        if deck and card >= 0:  # manitou §5.4: draw back to three cards
            drawn = deck.pop()
            self.hands[seat].append(drawn)
            events.append(Event("draw", {"seat": seat}))
            events.append(
                Event("draw_card", {"seat": seat, "card": CARD_NAMES[drawn]}, frozenset((seat,)))
            )
        n = self.num_players
        self.turn += 1
        if self.turn < PLAYS_PER_HUNT * n:
            self.seat = (self.dealer + 1 + self.turn) % n
            return events
        # manitou §5.5, §5.6: the totem holder may play an 8th card
        events.append(Event("play_over", {"hand_sizes": [len(h) for h in self.hands]}))
        holder = self.totem_holder
        if holder != NO_SEAT and self.hands[holder]:
            self.phase = TOTEM_PHASE
            self.seat = holder
            return events
        return self._to_horse(events)

    def _put(self, seat: int, card: int, g: int, events: list[Event], totem: bool) -> None:
        """Play ``card`` face up to ground ``g`` and resolve a hero contest (manitou §5.2)."""
        self.hands[seat].remove(card)
        code = card | seat << 4
        table = self.table[g]
        table.append(code)
        events.append(
            Event(
                "play",
                {"seat": seat, "card": CARD_NAMES[card], "ground": g + 1, "totem": totem},
            )
        )
        if card < NUM_HUNTERS:
            return
        up = self.up[g]
        if not up or up[0] >> 4 == seat:
            up.append(code)  # no defender: the hero stays face up
            return
        beats = self._beats[card]
        if len(up) == 1:  # normal contest
            d = up[0]
            dcard = d & 15
            if dcard == card:  # same type: both lose
                self._turn_down(g, d, events, code, "tie")
                table[-1] |= DOWN
                up.clear()
                events.append(_hero_down(code, g, d, "tie"))
            elif beats[dcard]:
                self._turn_down(g, d, events, code, "beaten")
                up[0] = code
            else:
                table[-1] |= DOWN
                events.append(_hero_down(code, g, d, "beaten"))
            return
        # sacrifice (manitou §5.2, M5): only the newer of two heroes can be attacked
        d2 = up[1]
        dcard = d2 & 15
        if dcard == card or beats[dcard]:
            self._turn_down(g, d2, events, code, "tie" if dcard == card else "beaten")
            up.pop()
            events.append(_hero_down(code, g, d2, "sacrifice"))
        else:
            events.append(_hero_down(code, g, d2, "beaten"))
        table[-1] |= DOWN

    def _turn_down(self, g: int, code: int, events: list[Event], by: int, reason: str) -> None:
        table = self.table[g]
        for i in range(len(table) - 1, -1, -1):
            if table[i] == code:
                table[i] = code | DOWN
                break
        events.append(_hero_down(code, g, by, reason))

    def _to_horse(self, events: list[Event]) -> list[Event]:
        # manitou §5.7: the horse holder may move one of his hunters
        holder = self.horse_holder
        if holder != NO_SEAT and self._hunters(holder):
            self.phase = HORSE_PHASE
            self.seat = holder
            return events
        return self._evaluate(events)

    def _hunters(self, seat: int) -> list[tuple[int, int]]:
        """(card, ground) of every hunter of ``seat`` on the table, by card."""
        found = []
        for g in range(NUM_GROUNDS):
            for code in self.table[g]:
                if code & 15 < NUM_HUNTERS and code >> 4 == seat:
                    found.append((code & 15, g))
        found.sort()
        return found

    def _move(self, seat: int, hunter: int, g: int) -> list[Event]:
        code = hunter | seat << 4
        src = next(s for s in range(NUM_GROUNDS) if code in self.table[s])
        self.table[src].remove(code)
        self.table[g].append(code)
        events = [
            Event(
                "horse_move",
                {"seat": seat, "card": CARD_NAMES[hunter], "from": src + 1, "to": g + 1},
            )
        ]
        return self._evaluate(events)

    # ----- evaluation (manitou §6) -----------------------------------------------------------

    def thief_sums(self) -> list[int]:
        """Each seat's sum of printed hunter strengths played this hunt (manitou §6.1)."""
        sums = [0] * self.num_players
        for g in range(NUM_GROUNDS):
            for code in self.table[g]:
                card = code & 15
                if card < NUM_HUNTERS:
                    sums[code >> 4] += card + 1
        return sums

    def _evaluate(self, events: list[Event]) -> list[Event]:
        # manitou §6.1: the highest sum (if above 0) is robbed; ties are all robbed
        sums = self.thief_sums()
        top = max(sums)
        n = self.num_players
        first = self.first_player
        order = [(first + i) % n for i in range(n)]
        # tied seats are robbed from the first player clockwise (an engine decision)
        self.rob_queue = [p for p in order if sums[p] == top] if top > 0 else []
        events.append(Event("thief", {"sums": sums, "robbed": list(self.rob_queue)}))
        self.tom = []
        self.ev_ground = 0
        self.ev_step = EV_START
        self.chooser = NO_SEAT
        self.picks_left = 0
        self.c_taker = NO_SEAT
        return self._continue_evaluation(events)

    def _rob_choices(self, seat: int) -> list[int]:
        """The tiles a robbed seat may lose: a tipi or buffalo, else any tile (§6.1, M10)."""
        owned = self.owned[seat]
        choices = [t for t in range(TIPI + MAX_MULTIPLIER) if owned[t]]
        return choices or [t for t in range(HORSE, NUM_TILE_TYPES) if owned[t]]

    def _continue_evaluation(self, events: list[Event]) -> list[Event]:
        """Run the evaluation until a seat must choose, or the hunt ends."""
        queue = self.rob_queue
        while queue:
            p = queue[0]
            choices = self._rob_choices(p)
            if len(choices) > 1:
                self.phase = THIEF
                self.seat = p
                return events
            if choices:
                self._lose(p, choices[0], events)
            else:
                events.append(Event("thief_finds_nothing", {"seat": p}))
            queue.pop(0)
        owned = self.owned
        if not self.tom:  # manitou §6.2 (M9): tomahawks owned after the thief
            self.tom = [owned[p][TOMAHAWK] for p in range(self.num_players)]
        while self.ev_ground < NUM_GROUNDS:
            g = self.ev_ground
            tiles = self.grounds[g]
            step = self.ev_step
            if step == EV_START:
                if not self.table[g]:  # manitou §6.2: nobody played here
                    if tiles:
                        events.append(
                            Event(
                                "tiles_removed",
                                {"ground": g + 1, "tiles": [TILE_NAMES[t] for t in tiles]},
                            )
                        )
                        self.out_of_game.extend(tiles)
                        tiles.clear()
                    self.ev_ground += 1
                    continue
                up = self.up[g]  # step A: the owner of the face-up heroes (M4)
                self.ev_step = EV_HERO
                self.chooser = up[0] >> 4 if up else NO_SEAT
                self.picks_left = 1 if up else 0
                continue
            if self.picks_left > 0 and tiles:
                if self.picks_left < len(tiles) and len(set(tiles)) > 1:
                    self.phase = SHARE
                    self.seat = self.chooser
                    return events
                for _ in range(min(self.picks_left, len(tiles))):
                    self._gain(self.chooser, g, tiles[0], events)
                self.picks_left = 0
                continue
            if step == EV_HERO:  # step B: the strongest unique hunter takes 2
                first, second = self._ranking(g)
                self.ev_step = EV_FIRST
                self.chooser = first
                self.c_taker = second
                self.picks_left = 2 if first != NO_SEAT else 0
                continue
            if step == EV_FIRST:  # step C: the second strongest takes the rest
                self.ev_step = EV_SECOND
                self.chooser = self.c_taker
                self.picks_left = len(tiles) if self.chooser != NO_SEAT else 0
                continue
            if tiles:  # manitou §12 M8: tiles nobody may take
                names = [TILE_NAMES[t] for t in tiles]
                if self.options.leftover_tiles == "bag":
                    bag = self.bag
                    for t in tiles:
                        returns = self.returns
                        place = (
                            returns.pop(0) % (len(bag) + 1)
                            if returns
                            else unshare(self, "rng").randrange(len(bag) + 1)
                        )
                        bag.insert(place, t)
                    events.append(Event("tiles_to_bag", {"ground": g + 1, "tiles": names}))
                else:
                    self.out_of_game.extend(tiles)
                    events.append(Event("tiles_removed", {"ground": g + 1, "tiles": names}))
                tiles.clear()
            self.ev_ground += 1
            self.ev_step = EV_START
            self.chooser = NO_SEAT
            self.c_taker = NO_SEAT
        return self._end_hunt(events)

    def ranking(self, g: int) -> tuple[int, int]:
        """The seats that take at ground ``g`` in steps B and C (``-1``: none), manitou §6.2."""
        return self._ranking(g)

    def _ranking(self, g: int) -> tuple[int, int]:
        bonus = (
            [o[TOMAHAWK] for o in self.owned]
            if self._live or not self.tom
            else self.tom  # manitou §12 M9
        )
        entries: list[tuple[int, int]] = []
        if self._per_player:  # M7 alternative: each seat's best hunter
            best: dict[int, int] = {}
            for code in self.table[g]:
                card = code & 15
                if card < NUM_HUNTERS:
                    p = code >> 4
                    v = card + 1 + bonus[p]
                    if v > best.get(p, 0):
                        best[p] = v
            entries = [(v, p) for p, v in best.items()]
        else:
            for code in self.table[g]:
                card = code & 15
                if card < NUM_HUNTERS:
                    p = code >> 4
                    entries.append((card + 1 + bonus[p], p))
        counts: dict[int, int] = {}
        for v, _ in entries:
            counts[v] = counts.get(v, 0) + 1
        # equal strengths cancel (manitou §6.2, M7)
        unique = sorted((e for e in entries if counts[e[0]] == 1), reverse=True)
        first = unique[0][1] if unique else NO_SEAT
        second = unique[1][1] if len(unique) > 1 else NO_SEAT
        return first, second

    def _gain(self, seat: int, g: int, tile: int, events: list[Event]) -> None:
        self.grounds[g].remove(tile)
        self.owned[seat][tile] += 1
        events.append(Event("take", {"seat": seat, "ground": g + 1, "tile": TILE_NAMES[tile]}))
        if tile in (TOTEM, HORSE):
            self._check_piece(tile, events)

    def _lose(self, seat: int, tile: int, events: list[Event]) -> None:
        self.owned[seat][tile] -= 1
        self.out_of_game.append(tile)
        events.append(Event("robbed", {"seat": seat, "tile": TILE_NAMES[tile]}))
        if tile in (TOTEM, HORSE):
            self._check_piece(tile, events)

    def _check_piece(self, tile: int, events: list[Event]) -> None:
        """Pass the piece to a seat with strictly more such tiles (manitou §5.8, M12)."""
        holder = self.totem_holder if tile == TOTEM else self.horse_holder
        n = self.num_players
        owned = self.owned
        best = NO_SEAT
        best_count = owned[holder][tile] if holder != NO_SEAT else 0
        for i in range(1, n + 1):
            p = (self.dealer + i) % n
            if p != holder and owned[p][tile] > best_count:
                best, best_count = p, owned[p][tile]
        if best == NO_SEAT:
            return
        if tile == TOTEM:
            self.totem_holder = best
        else:
            self.horse_holder = best
        events.append(
            Event(
                "piece",
                {
                    "piece": TILE_NAMES[tile],
                    "from": None if holder == NO_SEAT else holder,
                    "to": best,
                },
            )
        )

    def _end_hunt(self, events: list[Event]) -> list[Event]:
        # manitou §5 H9, §4: played cards are used for the rest of the cycle
        pool = self.pool
        for g in range(NUM_GROUNDS):
            for code in self.table[g]:
                pool[_seat_of(code)][code & 15] -= 1
            self.table[g] = []
            self.up[g] = []
        n = self.num_players
        self.hands = [[] for _ in range(n)]
        self.decks = [[] for _ in range(n)]
        self.selected = [[0] * NUM_CARD_TYPES for _ in range(n)]
        self.picked = [0] * n
        self.rob_queue = []
        self.tom = []
        self.ev_ground = 0
        self.ev_step = EV_START
        self.chooser = NO_SEAT
        self.picks_left = 0
        self.c_taker = NO_SEAT
        self.turn = 0
        standing = self.score()  # a summary of the hunt: the scores the tiles make so far
        events.append(
            Event(
                "hunt_end",
                {
                    "hunt": self.hunt + 1,
                    "tiles_owned": [self._tiles(p) for p in range(n)],
                    "scores": list(standing.scores),
                    "details": [dict(d) for d in standing.details],
                },
            )
        )
        self.hunt += 1
        if self.hunt >= self.hunts:  # manitou §7
            self.phase = GAME_OVER
            self.seat = NO_SEAT
            events.append(Event("game_over", {"outcome": self.score().to_json()}))
            return events
        self.dealer = (self.dealer + 1) % n
        return self._start_hunt(events)

    # ----- scoring (manitou §7) --------------------------------------------------------------

    def score(self) -> Outcome:
        """Score the tiles owned now (manitou §7, M11, M13)."""
        piece_vp = self.options.piece_vp
        scores: list[int] = []
        tiebreak: list[int] = []
        details: list[dict[str, Any]] = []
        for p in range(self.num_players):
            o = self.owned[p]
            buffalo = sum((m + 1) * o[m] for m in range(MAX_MULTIPLIER))
            tipis = sum((m + 1) * o[TIPI + m] for m in range(MAX_MULTIPLIER))
            pairs = min(tipis, buffalo)
            pieces = (self.totem_holder == p) + (self.horse_holder == p)
            vp = pairs + o[TOMAHAWK]
            if piece_vp != "pieces":
                vp += o[TOTEM] + o[HORSE]
            if piece_vp != "tiles":
                vp += pieces
            high = max((tile_value(t) for t in range(NUM_TILE_TYPES) if o[t]), default=0)
            scores.append(vp)
            tiebreak.append(tipis * 10 + high)  # tipis first, then the best tile (≤ 5)
            details.append(
                {
                    "tipis": tipis,
                    "buffalo": buffalo,
                    "pairs": pairs,
                    "totem_tiles": o[TOTEM],
                    "horse_tiles": o[HORSE],
                    "tomahawk_tiles": o[TOMAHAWK],
                    "pieces": pieces,
                    "highest_tile": high,
                }
            )
        return Outcome.from_scores(scores, tiebreak=tiebreak, details=details)

    # ----- errors ------------------------------------------------------------------------------

    @staticmethod
    def _names(actions: list[Action]) -> str:
        return ", ".join(str(a) for a in actions) if actions else ErrorText("nothing")

    def _wrong_step(self, seat: int, action: ManitouAction) -> IllegalActionError:
        rules = {
            SELECT: ("manitou rules §4.3", ErrorText("every seat is selecting its cards")),
            PLAY_PHASE: ("manitou rules §4.5", ErrorText("it is a play turn")),
            TOTEM_PHASE: (
                "manitou rules §4.9",
                ErrorText("the totem holder may play an extra card or pass"),
            ),
            HORSE_PHASE: (
                "manitou rules §4.10",
                ErrorText("the horse holder may move a hunter or pass"),
            ),
            THIEF: ("manitou rules §5.1", ErrorText("the robbed seat gives up a tile")),
            SHARE: (
                "manitou rules §5.2",
                ErrorText("a seat takes a tile from the ground being shared"),
            ),
        }
        rule, text = rules[self.phase]
        allowed = self._names(self.legal_actions(seat))
        return IllegalActionError(
            rule,
            ErrorText(
                "'{kind}' is not allowed now: {reason}; allowed: {allowed}",
                kind=KIND_NAMES[action.kind],
                reason=text,
                allowed=allowed,
            ),
        )

    def _illegal(self, seat: int, action: ManitouAction) -> IllegalActionError:
        """Explain why ``action`` (not in :meth:`legal_actions`) is refused: rule and options.

        Only called for a refused action of the seat to act; legality itself is
        :meth:`_compute_legal`.
        """
        phase, kind, arg, g = self.phase, action.kind, action.arg, action.ground
        if phase == SELECT and kind == K_PICK:
            order = self._short_order(seat)
            if order is not None and self.pool[seat][arg] > self.selected[seat][arg]:
                return IllegalActionError(  # the pool has it, the setup's selection does not
                    "setup",
                    ErrorText(
                        "the setup's deck order for hunt {number}, seat {seat} ({value}) does "
                        "not hold another {card} to select; pick one of {allowed}",
                        card=CARD_NAMES[arg],
                        allowed=self._names(self.legal_actions(seat)),
                        **self._order_fields(seat, order),
                    ),
                )
            return IllegalActionError(
                "manitou rules §4.4",
                ErrorText(
                    "no {card} is left in seat {seat}'s available pool; pick one of {allowed}",
                    card=CARD_NAMES[arg],
                    seat=seat,
                    allowed=self._names(self.legal_actions(seat)),
                ),
            )
        if phase in (PLAY_PHASE, TOTEM_PHASE) and kind == K_PLAY:
            if arg in self.hands[seat] and arg in self._kept_for_next_hunt(seat):
                return IllegalActionError(
                    "setup",
                    ErrorText(
                        "the setup's deck order for hunt {number}, seat {seat} ({value}) needs "
                        "the {card} in this seat's pool: a card played now leaves the pool "
                        "until the cycle ends; play one of {allowed}",
                        card=CARD_NAMES[arg],
                        allowed=self._names(self.legal_actions(seat)),
                        **self._order_fields(seat, self.deals[0][seat], hunt=self.hunt + 1),
                    ),
                )
            if arg not in self.hands[seat]:
                cards = ", ".join(CARD_NAMES[c] for c in sorted(self.hands[seat]))
                return IllegalActionError(
                    "manitou rules §4.5",
                    ErrorText(
                        "{card} is not in seat {seat}'s hand (hand: {hand})",
                        card=CARD_NAMES[arg],
                        seat=seat,
                        hand=cards or ErrorText("nothing"),
                    ),
                )
            return IllegalActionError(  # manitou §5.1 (M6): at most two heroes at a ground
                "manitou rules §4.6",
                ErrorText(
                    "seat {seat} already has two heroes at g{ground}; play the hero to another "
                    "ground or play a hunter",
                    seat=seat,
                    ground=g + 1,
                )
                if self._count_down
                else ErrorText(
                    "seat {seat} already has two face-up heroes at g{ground}; play the hero to "
                    "another ground or play a hunter",
                    seat=seat,
                    ground=g + 1,
                ),
            )
        if phase == PLAY_PHASE and kind == K_PASS:
            return IllegalActionError(
                "manitou rules §4.5",
                ErrorText(
                    "a player must play a card every turn; play one of {allowed}",
                    allowed=self._names(self._plays(seat)),
                ),
            )
        if phase == HORSE_PHASE and kind == K_MOVE:
            code = arg | seat << 4
            allowed = self._names(self.legal_actions(seat))
            return IllegalActionError(
                "manitou rules §4.10",
                ErrorText(
                    "seat {seat}'s {card} already lies at g{ground}; the horse moves one of your "
                    "hunters to another ground: {allowed}",
                    seat=seat,
                    card=CARD_NAMES[arg],
                    ground=g + 1,
                    allowed=allowed,
                )
                if code in self.table[g]
                else ErrorText(
                    "seat {seat}'s {card} is not on the table; the horse moves one of your "
                    "hunters to another ground: {allowed}",
                    seat=seat,
                    card=CARD_NAMES[arg],
                    allowed=allowed,
                ),
            )
        if phase == THIEF and kind == K_LOSE:
            return IllegalActionError(
                "manitou rules §5.1",
                ErrorText(
                    "the thief takes a tipi or buffalo if the victim has one, else another "
                    "tile; lose one of {tiles}",
                    tiles=", ".join(TILE_NAMES[t] for t in self._rob_choices(seat)),
                ),
            )
        if phase == SHARE and kind == K_TAKE:
            tiles = self.grounds[self.ev_ground]
            return IllegalActionError(
                "manitou rules §5.2",
                ErrorText(
                    "no {tile} lies at ground g{ground}; take one of {tiles}",
                    tile=TILE_NAMES[arg],
                    ground=self.ev_ground + 1,
                    tiles=", ".join(TILE_NAMES[t] for t in sorted(set(tiles))),
                ),
            )
        return self._wrong_step(seat, action)

    # ----- views -------------------------------------------------------------------------------

    def _used(self, seat: int) -> list[str]:
        pool = self.pool[seat]
        return [CARD_NAMES[c] for c in range(NUM_CARD_TYPES) for _ in range(FULL_POOL[c] - pool[c])]

    def _tiles(self, seat: int) -> list[str]:
        owned = self.owned[seat]
        return [TILE_NAMES[t] for t in range(NUM_TILE_TYPES) for _ in range(owned[t])]

    def view(self, seat: int | None) -> ManitouView:
        """What ``seat`` may know (manitou §9): never another seat's selection, hand or deck.

        Its keys and value types are :class:`~campfire.games.manitou.types.ManitouView`.
        """
        self._check_seat(seat, spectator=True)
        n = self.num_players
        phase = self.phase
        out: ManitouView = {
            "game": "manitou",
            "seat": seat,
            "players": n,
            "hunt": min(self.hunt + 1, self.hunts),
            "hunts": self.hunts,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "phase": PHASES[phase],
            "to_act": list(self.seats_to_act()),
            "grounds": [
                {
                    "tiles": [TILE_NAMES[t] for t in self.grounds[g]],
                    "cards": [_ground_card(code) for code in self.table[g]],
                }
                for g in range(NUM_GROUNDS)
            ],
            "tiles_owned": [self._tiles(p) for p in range(n)],
            "totem_holder": None if self.totem_holder == NO_SEAT else self.totem_holder,
            "horse_holder": None if self.horse_holder == NO_SEAT else self.horse_holder,
            "used_this_cycle": [self._used(p) for p in range(n)],
            "selection_sizes": list(self.sel_size),
            "selected_counts": list(self.picked),
            "hand_sizes": [len(h) for h in self.hands],
            "deck_sizes": [len(d) for d in self.decks],
            "play_turn": self.turn,
            "bag_size": len(self.bag),
            "out_of_game": [TILE_NAMES[t] for t in self.out_of_game],
            # the points the tiles make now (§7): whole numbers
            "scores": cast(list[int], list(self.score().scores)),
        }
        if phase in (THIEF, SHARE):
            out["thief_queue"] = list(self.rob_queue)
            out["tomahawks_counted"] = list(self.tom) or None
            out["sharing"] = {
                "ground": self.ev_ground + 1,
                "step": EV_STEPS[self.ev_step],
                "chooser": None if self.chooser == NO_SEAT else self.chooser,
                "picks_left": self.picks_left,
            }
        if seat is not None and 0 <= seat < n:
            sel = self.selected[seat]
            out["you"] = {
                "selection": [CARD_NAMES[c] for c in range(NUM_CARD_TYPES) for _ in range(sel[c])],
                "hand": [CARD_NAMES[c] for c in self.hands[seat]],
                "deck": [CARD_NAMES[c] for c in sorted(self.decks[seat])],
            }
        if phase == GAME_OVER:
            out["outcome"] = cast(ManitouOutcome, self.score().to_json())
        return out

    def render(self, seat: int | None = None) -> str:
        """The hunting grounds and the players as text, as ``seat`` (``None``: spectator) sees."""
        self._check_seat(seat, spectator=True)
        from .present import render

        return render(self, seat)

    # ----- copies ------------------------------------------------------------------------------

    # ----- clone: written from FIELDS by `python -m campfire.core.clones`; do not edit -----
    def clone(self) -> Self:
        """An independent copy, each attribute copied as ``FIELDS`` declares."""
        s = self
        o = self.__class__()
        o.num_players = s.num_players
        o.options = s.options
        o._beats = s._beats
        o._per_player = s._per_player
        o._live = s._live
        o._count_down = s._count_down
        o.hunts = s.hunts
        o.per_ground = s.per_ground
        o.hunt = s.hunt
        o.dealer = s.dealer
        o.phase = s.phase
        o.seat = s.seat
        o.bag = s.bag[:]
        o.grounds = [_x[:] for _x in s.grounds]
        o.out_of_game = s.out_of_game[:]
        o.owned = [_x[:] for _x in s.owned]
        o.totem_holder = s.totem_holder
        o.horse_holder = s.horse_holder
        o.pool = [_x[:] for _x in s.pool]
        o.sel_size = s.sel_size[:]
        o.selected = [_x[:] for _x in s.selected]
        o.picked = s.picked[:]
        o.hands = [_x[:] for _x in s.hands]
        o.decks = [_x[:] for _x in s.decks]
        o.table = [_x[:] for _x in s.table]
        o.up = [_x[:] for _x in s.up]
        o.turn = s.turn
        o.rob_queue = s.rob_queue[:]
        o.tom = s.tom[:]
        o.ev_ground = s.ev_ground
        o.ev_step = s.ev_step
        o.chooser = s.chooser
        o.picks_left = s.picks_left
        o.c_taker = s.c_taker
        o.deals = s.deals[:]
        o.returns = s.returns[:]
        o.rng = s.rng
        o._rng_shared = s._rng_shared = True
        o._legal = None
        o._legal_seat = -1
        return o

    # ----- end of the written clone -----

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A copy with what ``seat`` cannot know re-sampled (manitou §9).

        Re-sampled: the order of the tiles in the bag; the other seats' selections (during the
        selection) or their unplayed cards, hand and deck (later), drawn from their available
        pool less the cards they played; the order of ``seat``'s own deck. The copy's generator
        is re-seeded from ``rng``.
        """
        self._check_seat(seat)
        other = self.clone()
        other.rng = GameRng(rng.getrandbits(64))
        other._rng_shared = False
        other.deals = []  # future deck orders and bag returns are hidden: drawn from the new rng
        other.returns = []
        if self.phase == GAME_OVER:
            return other
        # sorted first, so that the copy depends only on what the seat knows and on ``rng``
        other.bag.sort()
        shuffle(rng, other.bag)
        for p in range(self.num_players):
            if p == seat:
                other.decks[p].sort()
                shuffle(rng, other.decks[p])
                continue
            pool = self.pool[p]
            if self.phase == SELECT:
                k = self.picked[p]
                base = [0] * NUM_CARD_TYPES
                avail = [c for c in range(NUM_CARD_TYPES) for _ in range(pool[c])]
            else:
                base = [0] * NUM_CARD_TYPES
                for g in range(NUM_GROUNDS):
                    for code in self.table[g]:
                        if _seat_of(code) == p:
                            base[code & 15] += 1
                avail = [c for c in range(NUM_CARD_TYPES) for _ in range(pool[c] - base[c])]
                k = len(self.hands[p]) + len(self.decks[p])
            sample = draw_sample(rng, avail, k)
            sel = base[:]
            for c in sample:
                sel[c] += 1
            other.selected[p] = sel
            if self.phase != SELECT:
                h = len(self.hands[p])
                other.hands[p] = sample[:h]
                other.decks[p] = sample[h:]
        return other
