"""The state protocol every game implements.

A :class:`State` is a mutable game position with an explicit, cheap :meth:`~State.clone`. The
engine is driven through :meth:`~State.seats_to_act`, :meth:`~State.legal_actions` and
:meth:`~State.apply`; user interfaces and agents learn about the game only through
:meth:`~State.view` and the events that :meth:`~State.apply` returns.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

from mypy_extensions import mypyc_attr

from .abc_caches import own_abc_cache
from .actions import Action
from .errors import ErrorText, IllegalActionError, SeatError
from .events import Event
from .fields import Computed, StateField, install_fields, position_fields
from .outcome import Outcome
from .validate import short_repr

if TYPE_CHECKING:
    from .game import Game
    from .options import Options

__all__ = ["State", "seat_problem"]


def seat_problem(seat: object, players: int, *, spectator: bool = False) -> ErrorText | None:
    """What is wrong with ``seat`` as a seat of a ``players``-player game (``None``: nothing).

    A seat is an ``int`` (never a ``bool``) from 0 to ``players - 1``; ``None`` is a spectator,
    accepted only where ``spectator`` is true.

    >>> seat_problem(2, 3) is None, seat_problem(None, 3, spectator=True) is None
    (True, True)
    >>> seat_problem(3, 3)
    'there is no seat 3 in a 3-player game; seats are 0–2'
    >>> seat_problem(True, 3)
    'a seat is a whole number 0–2 (got True)'
    """
    last = players - 1
    if seat is None:
        if spectator:
            return None
        return ErrorText(
            "a seat 0–{last} is needed here (None, a spectator, may only view the game)", last=last
        )
    if isinstance(seat, bool) or not isinstance(seat, int):
        if spectator:
            return ErrorText(
                "a seat is a whole number 0–{last}, or None for a spectator (got {got})",
                last=last,
                got=short_repr(seat),
            )
        return ErrorText(
            "a seat is a whole number 0–{last} (got {got})", last=last, got=short_repr(seat)
        )
    if not 0 <= seat < players:
        return ErrorText(
            "there is no seat {seat} in a {players}-player game; seats are 0–{last}",
            seat=seat,
            players=players,
            last=last,
        )
    return None


@mypyc_attr(allow_interpreted_subclasses=True)  # a game's, a plugin's, a test's
class State(ABC):
    """A position of one game, with the rules that move it forward.

    Seats are numbered ``0 .. num_players - 1`` in clockwise order. A spectator is seat ``None``.
    Every public method checks its seat argument (:meth:`_check_seat`): a seat that is not an
    ``int`` in range raises :class:`~campfire.core.errors.SeatError` (in :meth:`apply`, an
    :class:`~campfire.core.errors.IllegalActionError`); ``None`` is accepted where a spectator
    makes sense (:meth:`view`, :meth:`render`, and :meth:`legal_actions`, where it means the
    single seat to act).

    Legality is defined once, by :meth:`legal_actions`: :meth:`apply` accepts exactly the members
    of that set (a hand-built action object is first mapped to the game's own action, else it
    raises :class:`~campfire.core.errors.NotationError`), and a separate function of each game
    only explains a refusal (the rule broken and what is allowed now).
    """

    game: ClassVar[Game[Any]]
    num_players: int
    options: Options
    #: the state's attributes, declared once (:mod:`campfire.core.fields`): a subclass that
    #: declares them gets a generated :meth:`clone`, and :meth:`to_position` encodes them
    FIELDS: ClassVar[tuple[StateField | Computed, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Derive ``clone`` from the class's own ``FIELDS`` declaration (if it has one).

        A compiled subclass also gets its own ``isinstance`` caches (:mod:`.abc_caches`).
        """
        super().__init_subclass__(**kwargs)
        own_abc_cache(cls)
        if "FIELDS" in vars(cls):
            install_fields(cls, cls.FIELDS)

    @abstractmethod
    def seats_to_act(self) -> tuple[int, ...]:
        """The seats that may act now (several during a simultaneous step; none when over)."""

    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal actions of ``seat`` in a deterministic order (``[]`` if it may not act).

        ``seat`` may be omitted when exactly one seat is to act.
        """

    @abstractmethod
    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Apply ``action`` (an action or its notation) for ``seat`` and return the events.

        Raises :class:`~campfire.core.errors.IllegalActionError` naming the rule broken, and
        leaves the state unchanged, when the action is not legal.
        """

    def apply_legal(self, seat: int, action: Action) -> list[Event]:
        """Apply an action known to be legal: the engine's unchecked path.

        ``action`` must be the game's own action object, a member of ``legal_actions(seat)`` of
        this very state (the search applies the actions it generated for a state it made
        itself; :class:`~campfire.core.table.Table` applies an agent's decision that it checked,
        and the server an action drawn from the legal ones). Anything else is undefined: the
        state may be corrupted without an error. The default is :meth:`apply` (checked); a
        game may override it to skip its checks (and share the rest of :meth:`apply`).
        """
        return self.apply(seat, action)

    def legal_action_indices(self, seat: int) -> Sequence[int] | None:
        """The index of each of ``legal_actions(seat)``, in that order; ``None``: not given.

        Optional, for speed: the adapters turn every legal list into indices of the game's fixed
        index space (``Game.action_index``), and a game whose actions carry their index reads
        them far faster in its own module. An answer promises that ``legal_actions(seat)``
        holds exactly the objects ``Game.action_from_index`` gives for those indices (the
        adapters then play those objects through :meth:`apply_legal`). The answer may be a
        constant of the game (a tuple): the caller does not change it. The default, ``None``,
        lets the adapters look each action up.
        """
        return None

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """The outcome of a finished game (raises :class:`ValueError` while it is running)."""

    @abstractmethod
    def view(self, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may know now, as a JSON-ready dict (``None``: a spectator).

        Each game narrows the return type to its own ``TypedDict`` (the view's every key and
        value type, ``campfire.games.<name>.types``); the view is a plain ``dict`` at run time.
        """

    def clone(self) -> Self:
        """An independent copy: changing one never changes the other.

        Generated from the class's ``FIELDS`` (each attribute copied as declared); a state
        class without ``FIELDS`` must define its own.
        """
        raise NotImplementedError(f"{type(self).__name__} declares no FIELDS and no clone()")

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A copy in which what ``seat`` cannot know is re-sampled from ``rng``.

        The copy is consistent with everything ``seat`` knows: its view is identical to this
        state's view for ``seat``. The copy's own random generator is re-seeded from ``rng``,
        since the future draws are hidden too.
        """

    def to_position(self) -> dict[str, Any]:
        """The complete position as JSON (hidden information included), like FEN in chess.

        ``game.state_from_position(state.to_position())`` is an equal, independent state. The
        header names the game, the version, the player count and the options; ``"state"``
        holds the fields of ``FIELDS`` that have a position key, encoded in declared order.
        """
        out = self.game._position_header(self)
        out["state"] = position_fields(self)
        return out

    @abstractmethod
    def render(self, seat: int | None = None) -> str:
        """A text picture of what ``seat`` (``None``: a spectator) may see."""

    # ----- conveniences shared by every game -----------------------------------------------

    def current_seat(self) -> int:
        """The single seat to act (raises :class:`ValueError` if none or several are to act)."""
        seats = self.seats_to_act()
        if len(seats) != 1:
            raise ValueError(f"{len(seats)} seats are to act now: {list(seats)}")
        return seats[0]

    def is_legal(self, seat: int, action: Action | str) -> bool:
        """Whether ``action`` is legal for ``seat`` now (nothing is changed)."""
        if seat_problem(seat, self.num_players) is not None:
            return False
        try:
            parsed = self.game.canonical_action(action)  # a hand-built action agrees in full
        except ValueError:
            return False
        return parsed in self.legal_actions(seat) if seat in self.seats_to_act() else False

    def _resolve_seat(self, seat: int | None) -> int | None:
        """Helper for :meth:`legal_actions`: the seat meant, or ``None`` if it may not act."""
        seats = self.seats_to_act()
        if seat is None:
            return seats[0] if len(seats) == 1 else None
        return seat if seat in seats else None

    def _check_seat(self, seat: object, *, spectator: bool = False) -> None:
        """Raise :class:`~campfire.core.errors.SeatError` unless ``seat`` is a seat of this game.

        ``None`` (a spectator) passes only with ``spectator=True``.
        """
        if seat.__class__ is int and 0 <= seat < self.num_players:
            return
        problem = seat_problem(seat, self.num_players, spectator=spectator)
        if problem is not None:
            raise SeatError(problem)

    def _check_turn(self, seat: int) -> None:
        """Raise the standard error if ``seat`` is not a seat, or may not act now.

        Both are :class:`~campfire.core.errors.IllegalActionError`: rule ``seat`` for a value
        that is no seat of this game (a ``bool``, a ``float``, a string, out of range), rule
        ``turn order`` for a seat that is not to act.
        """
        problem = seat_problem(seat, self.num_players)
        if problem is not None:
            raise IllegalActionError("seat", problem)
        seats = self.seats_to_act()
        if seat not in seats:
            if not seats:
                raise IllegalActionError(
                    "turn order", ErrorText("the game is over; no seat may act")
                )
            who = ", ".join(str(s) for s in seats)
            raise IllegalActionError(
                "turn order",
                ErrorText("seat {seat} may not act now; seats to act: {who}", seat=seat, who=who),
            )

    def position_equal(self, other: State) -> bool:
        """Whether two states hold the same complete position."""
        return self.to_position() == other.to_position()


# a compiled class gets its own isinstance caches (docs/compiled.md, change 9)
own_abc_cache(State)
