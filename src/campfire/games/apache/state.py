"""The Apache state machine (apache §5, §6, §9, §11.3).

The game is a loop of steps:

* ``reveal`` — the revealer turns up the next prairie card (§5.1);
* the **claim poll** — every seat answers at once, ``pass`` or a claim (§11.3): with
  ``claim_order=reaction`` (default) ``claim <type> <ms>``, hidden from the others until the poll
  closes, then ordered by reaction time and a seeded tie-break; with ``claim_order=arrival``
  ``claim <type>``, public at once and ordered as applied (a real-time server's log, §11.1);
* resolution in queue order by :func:`.resolve.resolve_window` (§7, §8), with a ``choose`` step
  (``booty``, ``teepees``, ``prisoner ...``, ``marry ...``) whenever a claimant has several
  options;
* the last placer reveals next; with no claim, the player left of the revealer (§5.3, §5.4).

After the last card's window the game ends (§9).

>>> from campfire import get_game
>>> state = get_game("apache").new_game(3, seed=5)
>>> state.seats_to_act(), [str(a) for a in state.legal_actions()]
((1,), ['reveal'])
>>> [e.type for e in state.apply(1, "reveal")]
['reveal']
>>> state.seats_to_act(), len(state.legal_actions(0))
((0, 1, 2), 165)
>>> [e.type for e in state.apply(0, "claim hunter 300")], state.seats_to_act()
(['answered', 'answer'], (1, 2))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, cast

from campfire.core import (
    Action,
    ErrorText,
    Event,
    GameRng,
    IllegalActionError,
    NotationError,
    Outcome,
    PositionError,
    State,
)
from campfire.core.draws import randbelow, shuffle
from campfire.core.fields import (
    Computed,
    Copy,
    Custom,
    ListOf,
    Names,
    ReadContext,
    StateField,
    copy_on_write,
    unshare,
)

from .actions import (
    BOOTY,
    CLAIM,
    CLAIM_MS,
    MARRY,
    NUM_ACTIONS,
    PASS,
    PRISONER,
    REACTION_MAX_MS,
    REACTION_STEP_MS,
    REACTION_VALUES,
    REVEAL,
    TEEPEES,
    ApacheAction,
    action_from_index,
    canonical_action,
    parse_action,
)
from .cards import BUFFALO, COLOURS, NUM_TYPES, TYPES, card_name, parse_card, parse_type
from .options import ARRIVAL, ApacheOptions
from .resolve import (
    MARRIAGE,
    NORMAL,
    OPTION_NAMES,
    PENALTY,
    Choice,
    Claim,
    ClaimResult,
    Rules,
    claim_is_legal,
    resolve_window,
    table_counts,
)
from .types import ApacheOutcome, ApacheView, ClaimJson, ClaimOrder, Phase, ProtectMe

if TYPE_CHECKING:
    from .game import ApacheGame

__all__ = ["PHASES", "ApacheState", "choice_action"]

# phases (apache §6)
REVEALING: Final = 0
POLLING: Final = 1
CHOOSING: Final = 2
GAME_OVER: Final = 3
PHASES: Final[tuple[Phase, ...]] = ("reveal", "claim", "choose", "game_over")

_POLL_REACTION: Final[tuple[Action, ...]] = (PASS, *(a for row in CLAIM_MS for a in row))
_POLL_ARRIVAL: Final[tuple[Action, ...]] = (PASS, *CLAIM)
_ALL_ACTIONS: Final = tuple(action_from_index(i) for i in range(NUM_ACTIONS))
#: the legal indices in legal_actions' order (State.legal_action_indices), where constant,
#: and as sets (the membership test of apply)
_POLL_REACTION_ORDER: Final = tuple(cast(ApacheAction, a).index for a in _POLL_REACTION)
_POLL_ARRIVAL_ORDER: Final = tuple(cast(ApacheAction, a).index for a in _POLL_ARRIVAL)
_REVEAL_ORDER: Final = (REVEAL.index,)
_POLL_REACTION_IDX: Final = frozenset(_POLL_REACTION_ORDER)
_POLL_ARRIVAL_IDX: Final = frozenset(_POLL_ARRIVAL_ORDER)
_REVEAL_IDX: Final = frozenset(_REVEAL_ORDER)
_NONE_IDX: Final[frozenset[int]] = frozenset()


def choice_action(choice: Choice) -> ApacheAction:
    """The action that makes ``choice`` at a ``choose`` step."""
    if choice.option == MARRIAGE:
        return MARRY[choice.card]
    if choice.option == NORMAL:
        return BOOTY if choice.card < 0 else PRISONER[choice.card]
    return TEEPEES


def _action_choice(action: ApacheAction) -> Choice:
    if action.kind == "marry":
        return Choice(MARRIAGE, action.card)
    if action.kind == "prisoner":
        return Choice(NORMAL, action.card)
    return Choice(NORMAL) if action.kind == "booty" else Choice(1)


def claim_notation(claim: Claim) -> str:
    """The notation of the action that placed ``claim``."""
    base = f"claim {TYPES[claim.type]}"
    return base if claim.ms < 0 else f"{base} {claim.ms}"


# ----- how the fields are written in a position (``ApacheState.FIELDS``) --------------------------


def _card_names(cards: Sequence[int]) -> list[str]:
    return [card_name(k) for k in cards]


def _read_cards(raw: Any, what: str, ctx: ReadContext) -> list[int]:
    if not isinstance(raw, list):
        raise PositionError(
            ErrorText(
                "{what} must be a list of card ids (got {kind})",
                what=what,
                kind=type(raw).__name__,
            )
        )
    return [parse_card(k, PositionError) for k in raw]


def _read_seat(raw: Any, what: str, ctx: ReadContext) -> int:
    if raw.__class__ is not int or not 0 <= raw < ctx.players:
        raise PositionError(
            ErrorText(
                "{what}: a seat is 0–{last} (got {raw})",
                what=what,
                last=ctx.players - 1,
                raw=repr(raw),
            )
        )
    return int(raw)


def _players(ctx: ReadContext) -> int:
    return ctx.players


def _deck_left(state: ApacheState) -> tuple[int, ...]:
    return state.deck[state.deck_pos :]


def _answers(state: ApacheState) -> list[str | None]:
    return [
        None if not state.answered[s] else ("pass" if c is None else claim_notation(c))
        for s, c in enumerate(state.answers)
    ]


def _arrival(state: ApacheState) -> list[int]:
    return [c.seat for c in state.arrived]


def _queue(state: ApacheState) -> list[list[Any]]:
    return [[c.seat, claim_notation(c), c.legal] for c in state.queue]


def _order(order: tuple[int, ...] | None) -> list[int] | None:
    return None if order is None else list(order)


def _orders(orders: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    return [list(order) for order in orders]


_CARDS: Final = Custom(_card_names, _read_cards)
_SEAT: Final = Custom(int, _read_seat)


class ApacheState(State):
    """An Apache position and its rules.

    Attributes are public for tests and renderers but should be changed only through
    :meth:`apply`. Cards are kind numbers (:mod:`.cards`); ``deck[deck_pos:]`` are the face-down
    cards in reveal order; piles list their cards from bottom to top.
    """

    game: ClassVar[ApacheGame]
    options: ApacheOptions

    #: every attribute, declared once: the generated ``clone`` copies them (the deck tuple
    #: and the claims are immutable and shared; the generator is shared until either copy draws
    #: from it, copy-on-write), ``to_position`` writes those with a key in this order
    #: (``docs/notation/apache.md``, "Position")
    FIELDS = (
        StateField("num_players", key=None),
        StateField("options", key=None),
        StateField("arrival", key=None),  # from the options
        StateField("rules", key=None),  # from the options and the colours
        StateField("colours", codec=Custom(lambda cs: [COLOURS[c] for c in cs])),
        StateField("start_player", codec=_SEAT),
        StateField("deck", key=None),
        StateField("deck_pos", key=None),
        Computed("deck", _deck_left, _CARDS),  # the face-down cards in reveal order
        StateField("window"),
        StateField("phase", codec=Names(PHASES)),
        StateField("revealer", codec=_SEAT),
        StateField("table", Copy.LIST, codec=_CARDS),
        StateField("counts", Copy.LIST, key=None),  # follows from the table
        StateField("piles", Copy.LISTS, codec=ListOf(_CARDS, length=_players)),
        StateField("discard", Copy.LIST, codec=_CARDS),
        StateField("answered", Copy.LIST, key=None),
        StateField("answers", Copy.LIST, key=None),
        Computed("answers", _answers),  # null, "pass" or a claim's notation
        StateField("arrived", Copy.LIST, key=None),
        Computed("arrival", _arrival),
        StateField("to_act", key=None),  # follows from the phase
        StateField("queue", Copy.LIST, key=None),
        Computed("queue", _queue),  # [seat, claim, legal]
        StateField("resolved"),
        StateField("tiebreak", codec=Custom(_order)),
        StateField("tiebreaks", codec=Custom(_orders), default=[]),
        *copy_on_write("rng", codec=Custom(GameRng.to_json)),  # and its flag _rng_shared
        StateField("choice_actions", Copy.LIST, key=None),  # follows from the queue
    )

    def __init__(self) -> None:
        """An empty state, its attributes unset: :meth:`new` and ``clone`` fill them in.

        A compiled class always runs ``__init__`` when it makes an object, so the written
        ``clone`` (``docs/compiled.md``) makes its copy with this one.
        """

    @classmethod
    def new(
        cls,
        options: ApacheOptions,
        colours: Sequence[int],
        deck: Sequence[int],
        start_player: int,
        rng: GameRng,
    ) -> Self:
        """Create the initial state (apache §3): use ``ApacheGame.new_game`` instead."""
        state = cls()
        state._setup(options, colours, deck, start_player, rng)
        return state

    def _setup(
        self,
        options: ApacheOptions,
        colours: Sequence[int],
        deck: Sequence[int],
        start_player: int,
        rng: GameRng,
    ) -> None:
        """Set every attribute of the initial state (:meth:`new`)."""
        n = len(colours)
        self.num_players = n
        self.options = options
        self.arrival = options.claim_order == ARRIVAL
        self.rules = Rules(
            tuple(colours),
            war_tribute=options.war_tribute,
            marriage=options.marriage,
            marriage_chief_is_male=options.marriage_chief_is_male,
            marriage_allow_neutral_spouse=options.marriage_allow_neutral_spouse,
            sharing=options.sharing,
        )
        self.colours = tuple(colours)
        self.deck = tuple(deck)
        self.deck_pos = 0
        self.start_player = start_player
        self.rng = rng
        self._rng_shared = False  # copy-on-write: clones share the generator until one draws
        self.table: list[int] = []
        self.counts = [0] * 25
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.discard: list[int] = []
        self.phase = REVEALING
        self.revealer = start_player
        self.window = 0
        # the claim poll (apache §11.3)
        self.answered = [False] * n
        self.answers: list[Claim | None] = [None] * n
        self.arrived: list[Claim] = []  # claims in order of application (claim_order=arrival)
        self.to_act: tuple[int, ...] = (start_player,)
        # resolution (apache §7)
        self.queue: list[Claim] = []
        self.resolved = 0
        self.tiebreak: tuple[int, ...] | None = None
        #: the setup's seat orders for the windows still to break equal reaction times (§11.3),
        #: used one per window with two or more claims; when none is left, ``rng`` draws them
        self.tiebreaks: tuple[tuple[int, ...], ...] = ()
        self.choice_actions: list[ApacheAction] = []

    # ----- the protocol ----------------------------------------------------------------------

    def seats_to_act(self) -> tuple[int, ...]:
        """The revealer, the seats still to answer the poll, the choosing claimant, or none."""
        return self.to_act

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal actions of ``seat`` now, ordered by action index (the one definition).

        ``seat`` may be omitted when a single seat is to act; a value that is no seat raises
        :class:`~campfire.core.errors.SeatError`.
        """
        to_act = self.to_act
        if seat is None:
            if len(to_act) != 1:
                return []
            seat = to_act[0]
        else:
            self._check_seat(seat)
            if seat not in to_act:
                return []
        phase = self.phase
        if phase == POLLING:
            # apache §5 (P15): claiming is always a legal move; an illegal claim costs a penalty
            return list(_POLL_ARRIVAL if self.arrival else _POLL_REACTION)
        if phase == REVEALING:
            return [REVEAL]
        return list(self.choice_actions)

    def legal_action_indices(self, seat: int) -> Sequence[int]:
        """The indices of :meth:`legal_actions` ``(seat)``, in its order (read here, natively).

        A poll's and a reveal's are constants of the game; a choice's are read from its actions.
        """
        if seat.__class__ is not int or seat not in self.to_act:
            return [cast(ApacheAction, a).index for a in self.legal_actions(seat)]
        phase = self.phase
        if phase == POLLING:
            return _POLL_ARRIVAL_ORDER if self.arrival else _POLL_REACTION_ORDER
        if phase == REVEALING:
            return _REVEAL_ORDER
        return [a.index for a in self.choice_actions]

    def _legal_indices(self) -> frozenset[int]:
        """The indices of :meth:`legal_actions` for a seat to act (the same for each of them)."""
        phase = self.phase
        if phase == POLLING:
            return _POLL_ARRIVAL_IDX if self.arrival else _POLL_REACTION_IDX
        if phase == REVEALING:
            return _REVEAL_IDX
        if phase == CHOOSING:
            return frozenset(a.index for a in self.choice_actions)
        return _NONE_IDX

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Apply one action for ``seat`` (see the module docstring); return the events.

        The action must be a member of :meth:`legal_actions`; otherwise
        :class:`~campfire.core.errors.IllegalActionError` names the rule (the state is unchanged).
        """
        if isinstance(action, str):
            action = parse_action(action)
        elif not (
            action.__class__ is ApacheAction
            and action.index.__class__ is int
            and 0 <= action.index < NUM_ACTIONS
            and _ALL_ACTIONS[action.index] is action
        ):
            # a hand-built action: it must equal one of the 202 (else NotationError)
            action = canonical_action(action)
        if seat.__class__ is not int or not 0 <= seat < self.num_players:
            self._check_turn(seat)  # not a seat of this game (rule "seat")
        if seat not in self.to_act or action.index not in self._legal_indices():
            raise self._illegal(seat, action)
        return self.apply_legal(seat, action)

    def apply_legal(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action for ``seat`` unchecked (the path of :meth:`State.apply_legal`).

        ``action`` must be the game's own action object among :meth:`legal_actions` of this
        state for ``seat``: a search applying the actions it generated to states it made itself,
        or a table applying an agent's decision it checked. Nothing is checked: anything else
        may corrupt the state without an error. :meth:`apply` checks, then comes here.
        """
        act: ApacheAction = action  # type: ignore[assignment]  # (the caller's promise)
        kind = act.kind
        if kind == "claim" or kind == "pass":
            return self._answer(seat, act)
        if kind == "reveal":
            return self._reveal(seat)
        events: list[Event] = []
        self._resolve(_action_choice(act), events)  # a choice (apache §7, P13)
        return events

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == GAME_OVER

    def outcome(self) -> Outcome:
        """Scores, ranks and winners (apache §9); raise :class:`ValueError` while running."""
        if self.phase != GAME_OVER:
            raise ValueError("the game is not over yet")
        return self.score()

    def score(self) -> Outcome:
        """Score the piles as if the game ended now (apache §9: one point a card, ties share)."""
        details = [
            {"cards": len(p), "buffalo": p.count(BUFFALO), "colour": COLOURS[self.colours[s]]}
            for s, p in enumerate(self.piles)
        ]
        return Outcome.from_scores([len(p) for p in self.piles], details=details)

    # ----- helpers for user interfaces ----------------------------------------------------------

    def claim_is_legal(self, seat: int, type_: int | str) -> bool:
        """Whether ``seat`` may claim with ``type_`` right now without a penalty ("protect me").

        True only while a claim window is open, ``seat`` has not answered it, and the claim is
        legal against the table (apache §4, §11.2).
        """
        if isinstance(type_, str):
            type_ = parse_type(type_, NotationError)
        if self.phase != POLLING or seat not in self.to_act or not 0 <= type_ < NUM_TYPES:
            return False
        return claim_is_legal(self.table, seat, type_, self.rules, self.counts)

    @property
    def last_card(self) -> bool:
        """Whether the last face-down card has been revealed (apache §5.5)."""
        return self.deck_pos >= len(self.deck)

    # ----- steps -------------------------------------------------------------------------------

    def _reveal(self, seat: int) -> list[Event]:
        # apache §5.1: turn up the next face-down card
        card = self.deck[self.deck_pos]
        self.deck_pos += 1
        self.table.append(card)
        self.counts[card] += 1
        self.window += 1
        self.phase = POLLING
        self.answered = [False] * self.num_players
        self.answers = [None] * self.num_players
        self.arrived = []
        self.to_act = tuple(range(self.num_players))
        return [
            Event(
                "reveal",
                {
                    "seat": seat,
                    "card": card_name(card),
                    "window": self.window,
                    "deck_left": len(self.deck) - self.deck_pos,
                },
            )
        ]

    def _answer(self, seat: int, action: ApacheAction) -> list[Event]:
        is_claim = action.kind == "claim"
        self.answered[seat] = True
        self.to_act = tuple(s for s in self.to_act if s != seat)
        events: list[Event]
        if is_claim:
            # apache §7: legality is judged against the table at placement
            claim = Claim(
                seat,
                action.type,
                claim_is_legal(self.table, seat, action.type, self.rules, self.counts),
                action.ms,
            )
            self.answers[seat] = claim
            if self.arrival:
                self.arrived.append(claim)
                events = [Event("claim", {"seat": seat, "type": TYPES[claim.type]})]
            else:
                events = [
                    Event("answered", {"seat": seat}),
                    Event(
                        "answer", {"seat": seat, "answer": action.notation()}, frozenset((seat,))
                    ),
                ]
        elif self.arrival:
            events = [Event("pass", {"seat": seat})]
        else:
            events = [
                Event("answered", {"seat": seat}),
                Event("answer", {"seat": seat, "answer": "pass"}, frozenset((seat,))),
            ]
        if not self.to_act:
            self._close_window(events)
        return events

    def _close_window(self, events: list[Event]) -> None:
        """Order the window's claims into the queue and resolve them (apache §6, §11.3)."""
        if self.arrival:
            queue = self.arrived
            self.tiebreak = None
        else:
            queue = [c for c in self.answers if c is not None]
            if len(queue) > 1:
                # apache §11.3: sort by reaction time, ties by a seeded permutation of the seats
                if self.tiebreaks:  # the setup's order
                    perm = list(self.tiebreaks[0])
                    self.tiebreaks = self.tiebreaks[1:]
                else:
                    perm = list(range(self.num_players))
                    unshare(self, "rng").shuffle(perm)  # a clone's first draw copies it
                self.tiebreak = tuple(perm)
                rank = {s: i for i, s in enumerate(perm)}
                queue.sort(key=lambda c: (c.ms, rank[c.seat]))
            else:
                self.tiebreak = None
        self.queue = queue
        self.resolved = 0
        events.append(
            Event(
                "window_closed",
                {
                    "window": self.window,
                    "queue": [self._claim_json(c) for c in queue],
                    "tiebreak": None if self.tiebreak is None else list(self.tiebreak),
                },
            )
        )
        if not queue:
            # apache §5.3: nobody claimed, the player to the revealer's left reveals next
            self._next_window((self.revealer + 1) % self.num_players, events)
            return
        self._resolve(None, events)

    def _resolve(self, choice: Choice | None, events: list[Event]) -> None:
        """Resolve the queue from ``self.resolved`` on (apache §7).

        ``choice`` answers the first claim when it is the pending one.
        """
        given = [choice]

        def chooser(*_: object) -> Choice | None:
            answer = given[0]
            given[0] = None
            return answer

        result = resolve_window(
            self.table, self.piles, self.queue[self.resolved :], self.rules, chooser
        )
        self.table = result.table
        self.counts = table_counts(result.table)
        self.piles = result.piles
        for r in result.results:
            if r.status == PENALTY:
                self.discard.extend(r.discarded)
            events.append(self._result_event(r))
        self.resolved += len(result.results)
        pending = result.pending
        if pending is not None:
            # apache §6 CHOOSE (P13): the claimant chooses when his turn in the queue comes
            self.phase = CHOOSING
            self.to_act = (pending.claim.seat,)
            self.choice_actions = sorted(
                (choice_action(c) for c in pending.choices), key=lambda a: a.index
            )
            events.append(
                Event(
                    "choose",
                    {
                        "seat": pending.claim.seat,
                        "type": TYPES[pending.claim.type],
                        "choices": [str(a) for a in self.choice_actions],
                    },
                )
            )
            return
        self.choice_actions = []
        # apache §5.4 (P5): the last placer reveals next
        self._next_window(result.next_revealer, events)

    def _next_window(self, revealer: int, events: list[Event]) -> None:
        self.queue = []
        self.resolved = 0
        self.revealer = revealer
        if self.deck_pos >= len(self.deck):
            # apache §9: the window after the last reveal was the final one
            self.phase = GAME_OVER
            self.to_act = ()
            events.append(Event("game_over", {"outcome": self.score().to_json()}))
            return
        self.phase = REVEALING
        self.to_act = (revealer,)
        events.append(Event("revealer", {"seat": revealer}))

    # ----- events and errors ---------------------------------------------------------------------

    @staticmethod
    def _claim_json(claim: Claim) -> ClaimJson:
        return {
            "seat": claim.seat,
            "type": TYPES[claim.type],
            "ms": None if claim.ms < 0 else claim.ms,
            "legal": claim.legal,
        }

    def _result_event(self, r: ClaimResult) -> Event:
        data: dict[str, Any] = {
            "seat": r.claim.seat,
            "type": TYPES[r.claim.type],
            "result": r.status,
            "pile": len(self.piles[r.claim.seat]),
        }
        if r.choice is not None:
            data["option"] = OPTION_NAMES[r.choice.option]
            data["choice"] = str(r.choice)
            data["cards"] = [card_name(k) for k in r.cards]
        if r.tribute:
            data["tribute"] = [[payer, paid] for payer, paid in r.tribute]
        if r.status == PENALTY:
            data["discarded"] = [card_name(k) for k in r.discarded]
        return Event("claim_resolved", data)

    def _illegal(self, seat: int, action: ApacheAction) -> IllegalActionError:
        """Explain why ``action`` (not in :meth:`legal_actions` of ``seat``) is refused.

        Names the rule and what is allowed now; legality itself is :meth:`legal_actions`.
        """
        phase, kind = self.phase, action.kind
        if kind == "claim" or kind == "pass":
            if phase != POLLING:
                return IllegalActionError(
                    "apache rules §4.2",
                    ErrorText(
                        "claims and passes are accepted only in the claim window after a "
                        "reveal{hint}",
                        hint=self._allowed_hint(),
                    ),
                )
            if seat not in self.to_act:
                return IllegalActionError(
                    "apache rules §4.3",
                    ErrorText(
                        "seat {seat} has answered this window already: one hand card per "
                        "reveal; still to answer: {who}",
                        seat=seat,
                        who=self._who(),
                    ),
                )
            if self.arrival:
                return IllegalActionError(
                    "apache rules §8.4",
                    ErrorText(
                        "this game orders claims by arrival: write 'claim <type>' without a "
                        "reaction time"
                    ),
                )
            return IllegalActionError(
                "apache rules §8.4",
                ErrorText(
                    "this game orders claims by reaction time: write 'claim <type> <ms>' with a "
                    "multiple of {step} from 0 to {most}",
                    step=REACTION_STEP_MS,
                    most=REACTION_MAX_MS,
                ),
            )
        if kind == "reveal":
            if phase == POLLING:
                return IllegalActionError(
                    "apache rules §8.4",
                    ErrorText(
                        "the claim poll of this reveal is open; every seat answers it (pass or "
                        "claim) before the next reveal; still to answer: {who}",
                        who=self._who(),
                    ),
                )
            if phase != REVEALING:
                return self._not_now("reveal")
            return IllegalActionError(
                "apache rules §4.4",
                ErrorText(
                    "seat {revealer} reveals the next card, not seat {seat}",
                    revealer=self.revealer,
                    seat=seat,
                ),
            )
        if phase != CHOOSING:
            return self._not_now(kind)
        if seat not in self.to_act:
            return IllegalActionError(
                "apache rules §6.2",
                ErrorText(
                    "seat {chooser} chooses now, not seat {seat}", chooser=self.to_act[0], seat=seat
                ),
            )
        return IllegalActionError(
            "apache rules §6.2",
            ErrorText(
                "'{action}' is not an option of this claim now; choose one of: {options}",
                action=str(action),
                options=", ".join(str(a) for a in self.choice_actions),
            ),
        )

    def _who(self) -> ErrorText:
        return ErrorText.series([ErrorText("seat {seat}", seat=s) for s in self.to_act])

    def _allowed_hint(self) -> ErrorText:
        if self.phase == GAME_OVER:
            return ErrorText("; the game is over")
        seat = self.to_act[0]
        allowed = ", ".join(str(a) for a in self.legal_actions(seat)[:4])
        return ErrorText(
            "; now {phase}: seat {seat} may play {allowed}",
            phase=PHASES[self.phase],
            seat=seat,
            allowed=allowed,
        )

    def _not_now(self, kind: str) -> IllegalActionError:
        if self.phase == GAME_OVER:
            return IllegalActionError(
                "apache rules §7.1", ErrorText("the game is over; no seat may act")
            )
        if kind == "reveal":
            return IllegalActionError(
                "apache rules §4.4",
                ErrorText(
                    "no card may be revealed while claims are resolved{hint}",
                    hint=self._allowed_hint(),
                ),
            )
        return IllegalActionError(
            "apache rules §6.2",
            ErrorText(
                "'{kind}' answers a claimant's choice during resolution; no choice is asked "
                "now{hint}",
                kind=kind,
                hint=self._allowed_hint(),
            ),
        )

    # ----- views -------------------------------------------------------------------------------

    def view(self, seat: int | None) -> ApacheView:
        """What ``seat`` may know (apache §11.5).

        Everything but the order of the face-down cards and, while a reaction poll is open, the
        answers of the other seats. Its keys and value types are
        :class:`~campfire.games.apache.types.ApacheView`.
        """
        self._check_seat(seat, spectator=True)
        polling = self.phase == POLLING
        answers: list[str | None] = []
        for s in range(self.num_players):
            if not polling or not self.answered[s]:
                answers.append(None)
                continue
            claim = self.answers[s]
            if self.arrival or s == seat:
                answers.append("pass" if claim is None else claim_notation(claim))
            else:
                answers.append("hidden")
        out: ApacheView = {
            "game": "apache",
            "seat": seat,
            "players": self.num_players,
            "colours": [COLOURS[c] for c in self.colours],
            "neutral_colours": [COLOURS[c] for c in range(5) if self.rules.neutral[c]],
            "claim_order": cast(ClaimOrder, self.options.claim_order),
            "phase": PHASES[self.phase],
            "to_act": list(self.to_act),
            "start_player": self.start_player,
            "revealer": self.revealer,
            "window": self.window,
            "deck_left": len(self.deck) - self.deck_pos,
            "last_card": self.last_card,
            "table": [card_name(k) for k in self.table],
            "piles": [[card_name(k) for k in p] for p in self.piles],
            "scores": [len(p) for p in self.piles],
            "discarded": [card_name(k) for k in self.discard],
            "answers": answers,
            "queue": [self._claim_json(c) for c in self.queue],
            "resolved": self.resolved,
            "tiebreak": None if self.tiebreak is None else list(self.tiebreak),
            "choices": [str(a) for a in self.choice_actions],
        }
        if seat is not None and self.phase == POLLING and seat in self.to_act:
            out["protect_me"] = cast(
                ProtectMe,
                {
                    TYPES[t]: claim_is_legal(self.table, seat, t, self.rules, self.counts)
                    for t in range(NUM_TYPES)
                },
            )
        if self.phase == GAME_OVER:
            out["outcome"] = cast(ApacheOutcome, self.score().to_json())
        return out

    def render(self, seat: int | None = None) -> str:
        """The table, the piles and the claim window as text, as ``seat`` sees them."""
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
        o.arrival = s.arrival
        o.rules = s.rules
        o.colours = s.colours
        o.start_player = s.start_player
        o.deck = s.deck
        o.deck_pos = s.deck_pos
        o.window = s.window
        o.phase = s.phase
        o.revealer = s.revealer
        o.table = s.table[:]
        o.counts = s.counts[:]
        o.piles = [_x[:] for _x in s.piles]
        o.discard = s.discard[:]
        o.answered = s.answered[:]
        o.answers = s.answers[:]
        o.arrived = s.arrived[:]
        o.to_act = s.to_act
        o.queue = s.queue[:]
        o.resolved = s.resolved
        o.tiebreak = s.tiebreak
        o.tiebreaks = s.tiebreaks
        o.rng = s.rng
        o._rng_shared = s._rng_shared = True
        o.choice_actions = s.choice_actions[:]
        return o

    # ----- end of the written clone -----

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A copy with what ``seat`` cannot know re-sampled (apache §11.5).

        The face-down cards are reshuffled; during a reaction poll the answers already given by
        the other seats are re-drawn (a pass with probability 1/2, else a claim with a uniform
        type and reaction time). The copy's generator is re-seeded from ``rng``.
        """
        self._check_seat(seat)
        other = self.clone()
        # sorted first, so that the copy depends only on what the seat knows and on ``rng``
        rest = sorted(self.deck[self.deck_pos :])
        shuffle(rng, rest)
        other.deck = self.deck[: self.deck_pos] + tuple(rest)
        if self.phase == POLLING and not self.arrival:
            for s in range(self.num_players):
                if s == seat or not self.answered[s]:
                    continue
                if rng.random() < 0.5:
                    other.answers[s] = None
                else:
                    t = randbelow(rng, NUM_TYPES)
                    ms = randbelow(rng, REACTION_VALUES) * REACTION_STEP_MS
                    legal = claim_is_legal(self.table, s, t, self.rules, self.counts)
                    other.answers[s] = Claim(s, t, legal, ms)
        other.rng = GameRng(rng.getrandbits(64))
        other._rng_shared = False
        other.tiebreaks = ()  # future tie-breaks are hidden: drawn from the new generator
        return other
