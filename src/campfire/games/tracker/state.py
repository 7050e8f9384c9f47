"""The Tracker state machine (tracker §3–§8).

A normal turn is either a Peek (``peek P`` repeated ``min(peek_count, occupied)`` times) or a
Capture (``track M``, then ``take P`` … ``done``, then up to ``max_relocations`` moves of
``lift P`` + ``drop Q``, then ``done``). A step sequence ends by itself when nothing more can be
chosen: the peek count is reached, the board is empty, the relocation limit is reached or no
position is empty.

>>> from campfire import get_game
>>> state = get_game("tracker").new_game(3, seed=5)
>>> state.seats_to_act()
(0,)
>>> [str(a) for a in state.legal_actions()[-4:]]
['peek 59', 'track 1', 'track 2', 'track 3']
>>> [e.type for e in state.apply(0, "peek 12")]
['peek', 'peek_card']
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, cast, final

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
    Copy,
    Custom,
    Int,
    ListOf,
    Names,
    Nullable,
    ReadContext,
    Reset,
    StateField,
)

from .actions import (
    DECLINE,
    DONE,
    DROP,
    LIFT,
    PEEK,
    TAKE,
    TRACK,
    TrackerAction,
    canonical_action,
    parse_action,
)
from .cards import (
    CARDS_PER_TRIBE,
    NUM_POSITIONS,
    SCOUTS_PER_TRIBE,
    TRACKERS_PER_PLAYER,
    card_name,
    parse_card,
    parse_tribe,
    tribe_name,
)
from .options import TrackerOptions
from .types import Phase, Step

if TYPE_CHECKING:
    from .game import TrackerGame
    from .types import TrackerOutcome, TrackerView

__all__ = ["PHASES", "STEPS", "TrackerState"]

EMPTY: Final = -1
NO_SEAT: Final = -1

# phases (tracker §4)
NORMAL: Final = 0
FINAL_PEEK: Final = 1
FINAL_CAPTURE: Final = 2
GAME_OVER: Final = 3
PHASES: Final[tuple[Phase, ...]] = ("normal", "final_peek", "final_capture", "game_over")
# steps within a turn
TURN_START: Final = 0
PEEKING: Final = 1
COLLECTING: Final = 2
RELOCATING: Final = 3
PLACING: Final = 4
STEPS: Final[tuple[Step, ...]] = ("turn_start", "peeking", "collecting", "relocating", "placing")

_INDEX: Final = attrgetter("index")


@final
class _Tables:
    """What a legal list is taken from, by kind of step (:meth:`TrackerState._legal_from`).

    Per position the peek, take, lift and drop; per number of trackers (less one) the track;
    the done and the decline: the actions themselves (:data:`_ACTION_TABLES`) or their indices
    (:data:`_INDEX_TABLES`). A plain class, not a dataclass: compiled, a dataclass field typed
    ``object`` fails at import.
    """

    def __init__(
        self,
        peek: tuple[object, ...],
        take: tuple[object, ...],
        lift: tuple[object, ...],
        drop: tuple[object, ...],
        track: tuple[object, ...],
        done: object,
        decline: object,
    ) -> None:
        self.peek = peek
        self.take = take
        self.lift = lift
        self.drop = drop
        self.track = track
        self.done = done
        self.decline = decline


def _indices(actions: tuple[TrackerAction, ...]) -> tuple[object, ...]:
    """The index of each of ``actions``, in their order (a table of :data:`_INDEX_TABLES`)."""
    return tuple(a.index for a in actions)


#: the legal steps' actions, and their indices, by kind (:meth:`TrackerState._legal_from`)
_ACTION_TABLES: Final = _Tables(PEEK, TAKE, LIFT, DROP, TRACK, DONE, DECLINE)
_INDEX_TABLES: Final = _Tables(
    _indices(PEEK),
    _indices(TAKE),
    _indices(LIFT),
    _indices(DROP),
    _indices(TRACK),
    DONE.index,
    DECLINE.index,
)


# ----- how the fields are written in a position (``TrackerState.FIELDS``) -------------------------


def _read_card(raw: Any, what: str, ctx: ReadContext) -> int:
    try:
        return parse_card(raw)
    except SetupError as exc:
        raise PositionError(ErrorText("{what}: {exc}", what=what, exc=exc.text)) from None


def _tribe_names(tribes: list[int]) -> list[str]:
    return [tribe_name(t) for t in tribes]


def _read_tribe_field(raw: Any, what: str, ctx: ReadContext) -> list[int]:
    return read_tribes(raw, ctx.players, PositionError)


def _players(ctx: ReadContext) -> int:
    return ctx.players


def _last_move(ctx: ReadContext) -> int:
    return int(ctx.options.max_relocations) - 1


_CARD: Final = Custom(card_name, _read_card)
_TRACKERS: Final = Int(0, TRACKERS_PER_PLAYER)


def read_tribes(raw: Any, players: int, error: type[ValueError]) -> list[int]:
    """One distinct tribe per seat, by name (a setup's or a position's ``tribes``)."""
    if not isinstance(raw, list) or len(raw) != players:
        raise error(
            ErrorText(
                "tribes must list one tribe per seat ({players} seats), e.g. ['T0', 'T3']",
                players=players,
            )
        )
    try:
        tribes = [parse_tribe(t) for t in raw]
    except SetupError as exc:
        raise error(ErrorText("tribes: {exc}", exc=exc.text)) from None
    if len(set(tribes)) != len(tribes):
        raise error(ErrorText("each seat leads a different tribe (got {raw})", raw=raw))
    return tribes


class TrackerState(State):
    """A Tracker position and its rules.

    Attributes are public for tests and renderers but should be changed only through
    :meth:`apply`. ``board[p]`` is a card number or ``-1`` (empty).
    """

    game: ClassVar[TrackerGame]
    options: TrackerOptions

    #: every attribute, declared once: the generated ``clone`` copies them, ``to_position``
    #: writes those with a position key in this order (``docs/notation/tracker.md``, "Position")
    FIELDS = (
        StateField("num_players", key=None),
        StateField("options", key=None),
        StateField("peek_count", key=None),
        StateField("max_relocations", key=None),
        StateField("tribes", Copy.LIST, codec=Custom(_tribe_names, _read_tribe_field)),
        StateField("start_player", codec=SEAT),
        StateField("board", Copy.LIST, codec=ListOf(Nullable(_CARD), length=NUM_POSITIONS)),
        StateField("cards_left", key=None),  # follows from the board
        StateField("hands", Copy.LIST, key="trackers", codec=ListOf(_TRACKERS, length=_players)),
        StateField("captured", Copy.LISTS, codec=ListOf(ListOf(_CARD), length=_players)),
        StateField("centre", key=None),  # follows from the hands
        StateField("phase", codec=Names(PHASES)),
        StateField("step", codec=Names(STEPS)),
        StateField("seat", codec=Nullable(SEAT)),
        StateField("peeked", Copy.LIST, codec=ListOf(Int(0, NUM_POSITIONS - 1))),
        StateField("moves", key="relocations", codec=Int(0, _last_move)),
        StateField("lifted", codec=Nullable(Int(0, NUM_POSITIONS - 1))),
        StateField("last_player", codec=Nullable(SEAT)),
        # the legal steps, recomputed on demand (a determinisation may change the board)
        StateField("_legal", Reset(None), key=None),
    )

    def __init__(self) -> None:
        """An empty state, its attributes unset: :meth:`new` and ``clone`` fill them in.

        A compiled class always runs ``__init__`` when it makes an object, so the written
        ``clone`` (``docs/compiled.md``) makes its copy with this one.
        """

    @classmethod
    def new(
        cls, options: TrackerOptions, tribes: Sequence[int], board: Sequence[int], start_player: int
    ) -> Self:
        """Create the initial state (tracker §3): use ``TrackerGame.new_game`` instead."""
        state = cls()
        state._setup(options, tribes, board, start_player)
        return state

    def _setup(
        self,
        options: TrackerOptions,
        tribes: Sequence[int],
        board: Sequence[int],
        start_player: int,
    ) -> None:
        """Set every attribute of the initial state (:meth:`new`)."""
        n = len(tribes)
        self.num_players = n
        self.options = options
        self.peek_count = options.peek_count
        self.max_relocations = options.max_relocations
        self.tribes = list(tribes)
        self.board = list(board)
        self.cards_left = sum(1 for c in self.board if c != EMPTY)
        self.hands = [TRACKERS_PER_PLAYER] * n
        self.captured: list[list[int]] = [[] for _ in range(n)]
        self.centre = 0
        self.phase = NORMAL
        self.step = TURN_START
        self.seat = start_player
        self.start_player = start_player
        self.peeked: list[int] = []
        self.moves = 0
        self.lifted = EMPTY
        self.last_player = NO_SEAT
        self._legal: list[TrackerAction] | None = None  # legal steps, until the next apply

    @property
    def phase_name(self) -> str:
        """The phase: ``normal``, ``final_peek``, ``final_capture`` or ``game_over``."""
        return PHASES[self.phase]

    @property
    def step_name(self) -> str:
        """The step within the turn: ``turn_start``, ``peeking``, ``collecting``, ... ."""
        return STEPS[self.step]

    # ----- the protocol ----------------------------------------------------------------------

    def seats_to_act(self) -> tuple[int, ...]:
        """The seat whose turn it is (none once the game is over)."""
        return () if self.phase == GAME_OVER else (self.seat,)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal steps of ``seat`` now, ordered by action index (the one definition).

        ``seat`` may be omitted (the seat to act); a value that is no seat raises
        :class:`~campfire.core.errors.SeatError`.
        """
        if seat is not None:
            if seat.__class__ is not int or not 0 <= seat < self.num_players:
                self._check_seat(seat)
            if seat != self.seat:
                return []
        if self.phase == GAME_OVER:
            return []
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        return list(legal)

    def legal_action_indices(self, seat: int) -> tuple[int, ...]:
        """The indices of :meth:`legal_actions` ``(seat)``, in its order (read here, natively).

        Where the legal list was not computed yet (a batch of games asks for the indices only,
        and plays the index table's actions), the same rules (:meth:`_legal_from`) pick the
        indices themselves from :data:`_INDEX_TABLES`, and no list of actions is made.
        """
        if seat.__class__ is not int or seat != self.seat or self.phase == GAME_OVER:
            return tuple(cast(TrackerAction, a).index for a in self.legal_actions(seat))
        legal = self._legal
        if legal is None:
            return tuple(cast("list[int]", self._legal_from(_INDEX_TABLES)))
        return tuple(a.index for a in legal)

    def _compute_legal(self) -> list[TrackerAction]:
        """Compute and cache the legal steps of the seat to act (until the next apply)."""
        legal = cast("list[TrackerAction]", self._legal_from(_ACTION_TABLES))
        self._legal = legal
        return legal

    def _legal_from(self, tables: _Tables) -> list[object]:
        """The legal steps of the seat to act, each taken from ``tables`` (the one definition).

        :data:`_ACTION_TABLES` gives the actions, :data:`_INDEX_TABLES` their indices: the
        same rules pick both, in index order.
        """
        board = self.board
        step = self.step
        legal: list[object]
        if step == TURN_START:
            if self.phase == FINAL_CAPTURE:
                legal = [tables.track[self.hands[self.seat] - 1]]  # tracker §5.2: all trackers
            else:
                peek = tables.peek
                legal = [peek[p] for p in range(NUM_POSITIONS) if board[p] != EMPTY]
                if self.phase == NORMAL:
                    legal.extend(tables.track[: self.hands[self.seat]])  # tracker §5.1B.1 (D7)
                else:
                    legal.append(tables.decline)  # tracker §5.2 (D9): the final peek is optional
        elif step == PEEKING:  # tracker §5.1A (D3): distinct occupied positions
            peeked = self.peeked
            peek = tables.peek
            legal = [peek[p] for p in range(NUM_POSITIONS) if board[p] != EMPTY and p not in peeked]
        elif step == COLLECTING:  # tracker §5.1B.2
            take = tables.take
            legal = [take[p] for p in range(NUM_POSITIONS) if board[p] != EMPTY]
            legal.append(tables.done)
        elif step == RELOCATING:  # tracker §5.1B.3 (D6)
            lift = tables.lift
            legal = [lift[p] for p in range(NUM_POSITIONS) if board[p] != EMPTY]
            legal.append(tables.done)
        else:  # PLACING: a moved card goes to an empty position
            drop = tables.drop
            legal = [drop[p] for p in range(NUM_POSITIONS) if board[p] == EMPTY]
        return legal

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Apply one step for ``seat`` (see the module docstring); return the events.

        The step must be a member of :meth:`legal_actions`; otherwise
        :class:`~campfire.core.errors.IllegalActionError` names the rule (the state is unchanged).
        """
        action = parse_action(action) if isinstance(action, str) else canonical_action(action)
        if seat.__class__ is not int or seat != self.seat or self.phase == GAME_OVER:
            self._check_turn(seat)
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
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
        act: TrackerAction = action  # type: ignore[assignment]  # (the caller's promise)
        self._legal = None
        kind = act.kind
        if kind == "peek":
            return self._peek(seat, act.arg)
        if kind == "take":
            return self._take(seat, act.arg)
        if kind == "done":
            if self.step == COLLECTING:
                return self._end_collection(seat)
            return self._end_turn([Event("relocations_done", {"seat": seat})])
        if kind == "lift":
            return self._lift(seat, act.arg)
        if kind == "drop":
            return self._drop(seat, act.arg)
        if kind == "track":
            return self._track(seat, act.arg)
        return self._end_turn([Event("final_peek_declined", {"seat": seat})])  # decline

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == GAME_OVER

    def outcome(self) -> Outcome:
        """Scores, ranks and winners (tracker §6); raise :class:`ValueError` while running."""
        if self.phase != GAME_OVER:
            raise ValueError("the game is not over yet")
        return self.score()

    # ----- steps -------------------------------------------------------------------------------

    def _peek(self, seat: int, pos: int) -> list[Event]:
        # tracker §5.1A, §5.2 (D3): distinct occupied positions, one after another
        card = self.board[pos]
        self.step = PEEKING
        self.peeked.append(pos)
        events = [
            Event("peek", {"seat": seat, "pos": pos}),
            Event(
                "peek_card", {"seat": seat, "pos": pos, "card": card_name(card)}, frozenset((seat,))
            ),
        ]
        if len(self.peeked) >= min(self.peek_count, self.cards_left):
            return self._end_turn(events)
        return events

    def _track(self, seat: int, count: int) -> list[Event]:
        # tracker §5.1B.1 (D7): play 1..hand trackers; §5.2: all of them in the final capture
        hand = self.hands[seat]
        self.hands[seat] = hand - count
        self.centre += count
        self.step = COLLECTING
        return [Event("trackers_played", {"seat": seat, "count": count, "left": hand - count})]

    def _take(self, seat: int, pos: int) -> list[Event]:
        # tracker §5.1B.2: collect face down, unseen even by the collector
        card = self.board[pos]
        self.board[pos] = EMPTY
        self.cards_left -= 1
        self.captured[seat].append(card)
        events = [Event("take", {"seat": seat, "pos": pos})]
        if self.cards_left == 0:
            return self._end_collection(seat, events)
        return events

    def _end_collection(self, seat: int, events: list[Event] | None = None) -> list[Event]:
        events = events if events is not None else []
        events.append(Event("collection_done", {"seat": seat, "count": len(self.captured[seat])}))
        # tracker §5.2: no relocation in the final capture; §5.1 (D10): an empty board ends it;
        # relocation needs a card and an empty position.
        if self.phase == FINAL_CAPTURE or self.cards_left == 0 or self.cards_left == NUM_POSITIONS:
            return self._end_turn(events)
        self.step = RELOCATING
        return events

    def _lift(self, seat: int, pos: int) -> list[Event]:
        # tracker §5.1B.3 (D6)
        self.lifted = pos
        self.step = PLACING
        return [Event("lift", {"seat": seat, "pos": pos})]

    def _drop(self, seat: int, pos: int) -> list[Event]:
        board = self.board
        source = self.lifted
        board[pos] = board[source]
        board[source] = EMPTY
        self.lifted = EMPTY
        self.moves += 1
        events = [Event("relocate", {"seat": seat, "from": source, "to": pos})]
        if self.moves >= self.max_relocations:
            return self._end_turn(events)
        self.step = RELOCATING
        return events

    def _end_turn(self, events: list[Event]) -> list[Event]:
        """Finish the current turn and pick the next one (tracker §5.1 checks, §5.2)."""
        seat = self.seat
        self.step = TURN_START
        self.peeked = []
        self.moves = 0
        self.lifted = EMPTY
        phase = self.phase
        if self.cards_left == 0 or phase == FINAL_CAPTURE:  # D10; §5.2
            return self._game_over(events)
        if phase == FINAL_PEEK:
            self.phase = FINAL_CAPTURE
            return events
        hands = self.hands
        if hands[seat] == 0:
            events.append(Event("player_out", {"seat": seat}))
        n = self.num_players
        active = [s for s in range(n) if hands[s] > 0]
        if len(active) == 1:  # D8: exactly one active player left → two final turns
            self.last_player = self.seat = active[0]
            self.phase = FINAL_PEEK
            events.append(Event("final_turns", {"seat": active[0]}))
            return events
        if not active:  # cannot happen under the rules; end safely
            return self._game_over(events)
        nxt = (seat + 1) % n
        while hands[nxt] == 0:
            nxt = (nxt + 1) % n
        self.seat = nxt
        return events

    def _game_over(self, events: list[Event]) -> list[Event]:
        self.phase = GAME_OVER
        self.seat = NO_SEAT
        outcome = self.score()
        events.append(
            Event(
                "game_over",
                {
                    "board": [card_name(c) if c != EMPTY else None for c in self.board],
                    "captured": [[card_name(c) for c in pile] for pile in self.captured],
                    "outcome": outcome.to_json(),
                },
            )
        )
        return events

    # ----- errors ------------------------------------------------------------------------------

    def _allowed_hint(self) -> ErrorText:
        legal = self.legal_actions()
        kinds = sorted({a.kind for a in legal if isinstance(a, TrackerAction)})
        return ErrorText(
            "; allowed now ({step}): {kinds}", step=STEPS[self.step], kinds=", ".join(kinds)
        )

    def _illegal(self, seat: int, action: TrackerAction) -> IllegalActionError:
        """Explain why ``action`` (not in :meth:`legal_actions`) is refused: rule and options.

        Only called for a refused action; legality itself is :meth:`_compute_legal`.
        """
        kind, arg, step, phase = action.kind, action.arg, self.step, self.phase
        occupied = 0 <= arg < NUM_POSITIONS and self.board[arg] != EMPTY
        if kind == "peek":
            if step == TURN_START and phase == FINAL_CAPTURE:
                return IllegalActionError(
                    "tracker rules §5.1",
                    ErrorText(
                        "the final turn is a capture with all trackers; play 'track {count}'",
                        count=self.hands[seat],
                    ),
                )
            if step not in (TURN_START, PEEKING):
                return IllegalActionError(
                    "tracker rules §4.1",
                    ErrorText(
                        "a turn is either a peek or a capture; this turn is a capture{hint}",
                        hint=self._allowed_hint(),
                    ),
                )
            if not occupied:
                return IllegalActionError(
                    "tracker rules §4.2",
                    ErrorText(
                        "position {position} is empty; peek at an occupied position", position=arg
                    ),
                )
            return IllegalActionError(
                "tracker rules §4.2",
                ErrorText(
                    "position {position} was already peeked this turn; choose a different card",
                    position=arg,
                ),
            )
        if kind == "track":
            hand = self.hands[seat]
            if step != TURN_START or phase == FINAL_PEEK:
                return IllegalActionError(
                    "tracker rules §4.3",
                    ErrorText(
                        "trackers are played only at the start of a normal turn or of the final "
                        "capture{hint}",
                        hint=self._allowed_hint(),
                    ),
                )
            if phase == FINAL_CAPTURE:
                return IllegalActionError(
                    "tracker rules §5.1",
                    ErrorText(
                        "the final capture plays all remaining trackers: 'track {count}'",
                        count=hand,
                    ),
                )
            return IllegalActionError(
                "tracker rules §4.3",
                ErrorText(
                    "seat {seat} has only {count} tracker(s) left; play 1–{count}",
                    seat=seat,
                    count=hand,
                ),
            )
        if kind == "decline":
            return IllegalActionError(
                "tracker rules §5.1",
                ErrorText(
                    "only the last player may decline, at the start of the final peek turn{hint}",
                    hint=self._allowed_hint(),
                ),
            )
        wanted = {"take": (COLLECTING,), "lift": (RELOCATING,), "drop": (PLACING,)}
        if step not in wanted.get(kind, (COLLECTING, RELOCATING)):
            return self._wrong_step(action)
        if kind == "take":
            return IllegalActionError(
                "tracker rules §4.3",
                ErrorText(
                    "position {position} is empty; collect from an occupied position", position=arg
                ),
            )
        if kind == "lift":
            return IllegalActionError(
                "tracker rules §4.4",
                ErrorText(
                    "position {position} is empty; relocate a card from an occupied one",
                    position=arg,
                ),
            )
        return IllegalActionError(  # drop
            "tracker rules §4.4",
            ErrorText(
                "position {position} is occupied; a moved card goes to an empty one", position=arg
            ),
        )

    def _wrong_step(self, action: TrackerAction) -> IllegalActionError:
        hint = self._allowed_hint()
        rules = {
            "take": (
                "tracker rules §4.3",
                ErrorText("cards are collected only after playing trackers{hint}", hint=hint),
            ),
            "lift": (
                "tracker rules §4.4",
                ErrorText("cards are relocated only after the collection{hint}", hint=hint),
            ),
            "drop": (
                "tracker rules §4.4",
                ErrorText("'drop' places a card lifted with 'lift'{hint}", hint=hint),
            ),
            "done": (
                "tracker rules §4.3",
                ErrorText("'done' ends a collection or the relocations{hint}", hint=hint),
            ),
        }
        rule, text = rules[action.kind]
        return IllegalActionError(rule, text)

    # ----- scoring -----------------------------------------------------------------------------

    def score(self) -> Outcome:
        """Score the current position as if the game ended now (tracker §6, D11)."""
        scores: list[int] = []
        enemies: list[int] = []
        details: list[dict[str, Any]] = []
        on_board = [0] * 6
        for c in self.board:
            if c != EMPTY and c % CARDS_PER_TRIBE < SCOUTS_PER_TRIBE:
                on_board[c // CARDS_PER_TRIBE] += 1
        for seat in range(self.num_players):
            tribe = self.tribes[seat]
            enemy = own = false = 0
            for c in self.captured[seat]:
                if c % CARDS_PER_TRIBE >= SCOUTS_PER_TRIBE:
                    false += 1
                elif c // CARDS_PER_TRIBE == tribe:
                    own += 1
                else:
                    enemy += 1
            score = 3 * enemy + 2 * on_board[tribe] - 3 * own - 2 * false
            scores.append(score)
            enemies.append(enemy)
            details.append(
                {
                    "enemy_scouts_captured": enemy,
                    "own_scouts_on_board": on_board[tribe],
                    "own_scouts_captured": own,
                    "false_tracks_captured": false,
                }
            )
        return Outcome.from_scores(scores, tiebreak=enemies, details=details)

    # ----- views -------------------------------------------------------------------------------

    def view(self, seat: int | None) -> TrackerView:
        """What ``seat`` may know (tracker §8). No memory of earlier peeks: that is the game.

        Its keys and value types are :class:`~campfire.games.tracker.types.TrackerView`.
        """
        self._check_seat(seat, spectator=True)
        over = self.phase == GAME_OVER
        out: TrackerView = {
            "game": "tracker",
            "seat": seat,
            "players": self.num_players,
            "peek_count": self.peek_count,
            "max_relocations": self.max_relocations,
            "phase": PHASES[self.phase],
            "step": STEPS[self.step],
            "to_act": list(self.seats_to_act()),
            "start_player": self.start_player,
            "last_player": None if self.last_player == NO_SEAT else self.last_player,
            "tribes": [tribe_name(t) for t in self.tribes],
            "trackers": list(self.hands),
            "centre": self.centre,
            "captured_counts": [len(p) for p in self.captured],
            "occupied": [p for p in range(NUM_POSITIONS) if self.board[p] != EMPTY],
            "peeked_this_turn": list(self.peeked),
            "relocations_this_turn": self.moves,
            "lifted": None if self.lifted == EMPTY else self.lifted,
        }
        if over:  # tracker §6: everything is turned face up
            out["board"] = [card_name(c) if c != EMPTY else None for c in self.board]
            out["captured"] = [[card_name(c) for c in pile] for pile in self.captured]
            out["outcome"] = cast("TrackerOutcome", self.score().to_json())
        return out

    def render(self, seat: int | None = None) -> str:
        """The board and the players as text, as ``seat`` (``None``: a spectator) sees them.

        It is the plain text of the presenter's display (``present.py``), so it shows exactly
        what a user interface would.
        """
        self._check_seat(seat, spectator=True)
        from campfire.core.present import render_text

        legal = self.legal_actions(seat) if seat is not None else []
        return render_text(self.game.presenter().display(self.view(seat), legal, ()))

    # ----- copies ------------------------------------------------------------------------------
    # ----- clone: written from FIELDS by `python -m campfire.core.clones`; do not edit -----
    def clone(self) -> Self:
        """An independent copy, each attribute copied as ``FIELDS`` declares."""
        s = self
        o = self.__class__()
        o.num_players = s.num_players
        o.options = s.options
        o.peek_count = s.peek_count
        o.max_relocations = s.max_relocations
        o.tribes = s.tribes[:]
        o.start_player = s.start_player
        o.board = s.board[:]
        o.cards_left = s.cards_left
        o.hands = s.hands[:]
        o.captured = [_x[:] for _x in s.captured]
        o.centre = s.centre
        o.phase = s.phase
        o.step = s.step
        o.seat = s.seat
        o.peeked = s.peeked[:]
        o.moves = s.moves
        o.lifted = s.lifted
        o.last_player = s.last_player
        o._legal = None
        return o

    # ----- end of the written clone -----

    def determinize(
        self, seat: int, rng: random.Random, known: Mapping[int, int] | None = None
    ) -> Self:
        """A copy with every face-down card re-dealt at random (tracker §8).

        A seat's view holds no card identities, so every face-down card — on the board and in
        every captured pile, the seat's own included — is re-sampled. An agent that remembers
        peeks can pin them with ``known`` (position → card number); pinned cards stay, and the
        others are shuffled among the remaining places.
        """
        self._check_seat(seat)
        other = self.clone()
        if self.phase == GAME_OVER:
            return other
        board = other.board
        captured = other.captured
        slots: list[tuple[int, int]] = [(-1, p) for p in range(NUM_POSITIONS) if board[p] != EMPTY]
        for owner, pile in enumerate(captured):
            slots.extend((owner, i) for i in range(len(pile)))
        pool = [board[p] if owner < 0 else captured[owner][p] for owner, p in slots]
        if known:
            pinned = {
                p: c for p, c in known.items() if 0 <= p < NUM_POSITIONS and board[p] != EMPTY
            }
            for pos, card in pinned.items():
                try:
                    pool.remove(card)
                except ValueError:
                    raise ValueError(
                        f"card {card_name(card)} cannot be on position {pos}: it is not face down "
                        "or it is pinned twice"
                    ) from None
                board[pos] = card
            slots = [s for s in slots if s[0] >= 0 or s[1] not in pinned]
        # sorted first, so that the copy depends only on what the seat knows and on ``rng``
        pool.sort()
        shuffle(rng, pool)
        for (owner, idx), card in zip(slots, pool, strict=True):
            if owner < 0:
                board[idx] = card
            else:
                captured[owner][idx] = card
        return other
