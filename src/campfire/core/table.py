"""The table: the one loop that drives a match between seats, each a person or an agent.

A :class:`Table` owns a :class:`~campfire.core.records.Match`. Agents' seats are played by
:meth:`Table.step` (or :meth:`Table.run` until the game ends), people's seats by
:meth:`Table.play` with the action the person chose. Whoever acts, the table

- applies the action through the match (so the record holds it),
- sends every seat exactly the events it may see: an agent's ``observe``, and every callback
  that :meth:`Table.subscribe` registered for that seat (``None``: a spectator),
- tells every listener (:class:`TableListener`) the whole :class:`Step`, with the time the agent
  took to decide. Listeners are trusted code — statistics, storage, a server's broadcast — and
  see all events; what goes to a seat goes through :meth:`Table.subscribe`.

When several seats may act at once (a question every seat answers, cards chosen in secret), a
:data:`SeatPolicy` says which agent acts first; :func:`first_seat` (the default) takes the
lowest seat, :class:`RandomSeat` a random one. People act whenever they like through
:meth:`Table.play`.

Agents decide only from an :class:`~campfire.core.agent.Observation`; the table builds it, so no
agent is ever handed the true state.

>>> from campfire import all_games
>>> from campfire.agents import make_agent
>>> game = all_games()[0]  # any registered game
>>> agents = [make_agent("random", game, seat, 2, game.options(), seed=seat) for seat in (0, 1)]
>>> table = Table(game, 2, seed=4, agents=agents)
>>> seen = []
>>> table.subscribe(1, seen.extend)
>>> outcome = table.run()
>>> table.state.is_terminal(), len(table.match.actions) > 0
(True, True)
>>> all(e.visible_to(1) for e in seen)
True
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from .actions import Action
from .agent import Agent, Observation
from .errors import CampfireError, ErrorText, IllegalActionError
from .events import Event, visible_events
from .options import Options
from .outcome import Outcome
from .records import Match
from .state import State

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "AgentError",
    "RandomSeat",
    "SeatPolicy",
    "Step",
    "Table",
    "TableListener",
    "TooLongError",
    "first_seat",
]

#: Chooses which of several seats to act (all of them agents' seats) decides first.
SeatPolicy = Callable[[State, Sequence[int]], int]


def first_seat(state: State, seats: Sequence[int]) -> int:
    """The policy that lets the lowest seat act first (the arena's and the records' order).

    >>> first_seat(None, [2, 0])  # type: ignore[arg-type]
    0
    """
    return min(seats)


class RandomSeat:
    """The policy that lets a random seat act first, drawn from its own generator.

    >>> policy = RandomSeat(random.Random(1))
    >>> policy(None, [0, 1, 2]) in (0, 1, 2)  # type: ignore[arg-type]
    True
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, state: State, seats: Sequence[int]) -> int:
        """Pick one of ``seats`` at random."""
        return self.rng.choice(list(seats))


@dataclass(frozen=True)
class Step:
    """One action applied at a table.

    ``events`` holds every event of the action (listeners are trusted; seats receive only their
    share). ``seconds`` is the time the agent took to decide (``None`` for a person's action) and
    ``choices`` the number of legal actions the seat had.
    """

    index: int
    seat: int
    action: Action
    events: tuple[Event, ...]
    seconds: float | None
    choices: int


class TableListener(Protocol):
    """Something that watches every step of a table (statistics, storage, a broadcast)."""

    def on_step(self, table: Table, step: Step) -> None:
        """Take note of ``step``, which has just been applied."""


class AgentError(Exception):
    """An agent failed: it raised, or it chose an action that is not legal.

    ``kind`` is ``"exception"`` or ``"illegal_action"``; ``details`` holds the traceback of an
    exception. The table is unchanged by the failed decision.
    """

    def __init__(self, seat: int, kind: str, message: str, details: str = "") -> None:
        super().__init__(f"seat {seat}: {message}")
        self.seat = seat
        self.kind = kind
        self.message = message
        self.details = details


class TooLongError(CampfireError):
    """A game did not end within the number of actions a run allowed."""


class Table:
    """A match between seats, each a person (``None`` in ``agents``) or an :class:`Agent`.

    ``match`` continues an existing match (its history stays); otherwise a new match is made from
    ``num_players``, ``options``, ``seed`` or ``setup``, ``names`` and ``labels`` (the agent
    names written in the record; by default each agent's ``spec()``). ``clock`` measures
    decision times (inject a fake one in tests). ``observation_rng`` draws the world each
    :class:`~campfire.core.agent.Observation` holds (default: seeded from the match's seed);
    agents' decisions never depend on it, it only makes the observation objects reproducible.
    ``agent_factory`` makes a fresh agent for a seat; with it, :meth:`undo` can take back a
    person's action in a game with agents.
    """

    def __init__(
        self,
        game: Game[Any],
        num_players: int | None = None,
        options: Options | Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
        names: Sequence[str] | None = None,
        agents: Sequence[Agent | None] | None = None,
        labels: Sequence[str | None] | None = None,
        match: Match | None = None,
        policy: SeatPolicy = first_seat,
        clock: Callable[[], float] = time.perf_counter,
        observation_rng: random.Random | None = None,
        agent_factory: Callable[[int], Agent] | None = None,
    ) -> None:
        if match is None:
            if num_players is None:
                raise ValueError("give the number of players or a match to continue")
            if labels is None and agents is not None:
                labels = [a.spec() if a is not None else None for a in agents]
            match = Match(
                game, num_players, options, seed=seed, setup=setup, names=names, agents=labels
            )
        self.game = game
        self.match = match
        n = match.state.num_players
        seats = list(agents) if agents is not None else [None] * n
        if len(seats) != n:
            raise ValueError(f"{len(seats)} agents given for {n} seats")
        self.agents: dict[int, Agent] = {s: a for s, a in enumerate(seats) if a is not None}
        self.policy = policy
        self.clock = clock
        if observation_rng is None:
            observation_rng = random.Random(f"observations/{match.seed}")
        self.observation_rng = observation_rng
        self.listeners: list[TableListener] = []
        self._subscribers: dict[int | None, list[Callable[[list[Event]], None]]] = {}
        #: the step applied last (``None`` before the first)
        self.last_step: Step | None = None
        #: makes a fresh agent for a seat (what :meth:`undo` needs to rebuild agents' memories)
        self.agent_factory = agent_factory
        #: the steps applied at this table, in order (what :meth:`undo` may take back)
        self.steps: list[Step] = []

    # ----- what is going on ------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The true state (for the table's owner; seats learn through views and events)."""
        return self.match.state

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.match.state.num_players

    def is_agent(self, seat: int) -> bool:
        """Whether an agent plays ``seat``."""
        return seat in self.agents

    def agent_to_act(self) -> int | None:
        """The agent's seat that acts next, chosen by the policy (``None``: no agent may act)."""
        seats = [s for s in self.state.seats_to_act() if s in self.agents]
        if not seats:
            return None
        return seats[0] if len(seats) == 1 else self.policy(self.state, seats)

    def person_to_act(self) -> int | None:
        """The lowest seat played by a person that may act now (``None`` if none)."""
        for seat in self.state.seats_to_act():
            if seat not in self.agents:
                return seat
        return None

    def subscribe(self, seat: int | None, callback: Callable[[list[Event]], None]) -> None:
        """Send ``callback`` the events ``seat`` may see (``None``: a spectator) after each step."""
        self._subscribers.setdefault(seat, []).append(callback)

    def observation(self, seat: int) -> Observation:
        """The observation the agent of ``seat`` decides from (never the true state)."""
        agent = self.agents[seat]
        return Observation.of(
            self.state, seat, agent.belief, self.observation_rng, world=agent.uses_world
        )

    # ----- acting ----------------------------------------------------------------------------

    def decide(self, seat: int) -> tuple[Action, float, int]:
        """Ask the agent of ``seat`` for its action; nothing is applied.

        Returns the action (the game's own object among the legal actions: an agent's equal
        copy is replaced by it), the seconds the agent took and the number of legal actions it
        had. Raises :class:`AgentError` if the agent raises or chooses an illegal action. This
        is the one check of an agent's action: :meth:`step` plays it with ``checked=True``.
        """
        obs = self.observation(seat)
        legal = obs.legal_actions
        start = self.clock()
        try:
            action = self.agents[seat].act(obs)
        except Exception as exc:
            raise AgentError(seat, "exception", _describe(exc), traceback.format_exc()) from exc
        spent = self.clock() - start
        try:
            found = legal.index(action)
        except ValueError:
            shown = ", ".join(str(a) for a in legal[:8]) + (", ..." if len(legal) > 8 else "")
            raise AgentError(
                seat,
                "illegal_action",
                f"returned {action!s:.60} which is not legal; legal: {shown}",
            ) from None
        return legal[found], spent, len(legal)

    def play(
        self,
        seat: int,
        action: Action | str,
        *,
        seconds: float | None = None,
        choices: int | None = None,
        checked: bool = False,
    ) -> list[Event]:
        """Apply ``action`` (an action or its notation) for ``seat``; route and report the step.

        Raises :class:`~campfire.core.errors.IllegalActionError` (nothing changed) if ``seat``
        may not act or the action is not legal: the engine's :meth:`State.apply` is the one
        check of its legality (the table only looks first whether ``seat`` is to act, so that
        a seat out of turn gets the standard turn-order error before any about the notation).
        Returns all the events of the action: the caller owns the table; seats receive theirs
        through :meth:`subscribe`.

        ``checked=True`` says that the caller knows the action is legal: it is the game's own
        action object among ``legal_actions(seat)`` of the state now (an agent's decision
        checked by :meth:`decide`, an action drawn from the legal ones under the caller's
        lock). Nothing is checked again: the engine applies it through its unchecked path
        (:meth:`State.apply_legal`). Anything else is undefined.
        """
        state = self.state
        if checked:
            parsed = cast(Action, action)
            if choices is None:
                choices = len(state.legal_actions(seat))
            events = state.apply_legal(seat, parsed)
            self.match.actions.append((seat, parsed))  # (what Match.play remembers)
        else:
            state._check_turn(seat)  # the standard turn-order error
            parsed = self.game.canonical_action(action)  # what the engine applies and records
            if choices is None:
                choices = len(state.legal_actions(seat))
            events = self.match.play(seat, parsed)
        step = Step(len(self.match.actions) - 1, seat, parsed, tuple(events), seconds, choices)
        self._route(step)
        return events

    def step(self) -> Step | None:
        """Let one agent that may act decide and play (``None``: no agent may act now).

        Raises :class:`AgentError` if the agent fails (the table is unchanged).
        """
        seat = self.agent_to_act()
        if seat is None:
            return None
        action, spent, choices = self.decide(seat)
        self.play(seat, action, seconds=spent, choices=choices, checked=True)
        return self.last_step

    def run(self, max_actions: int | None = None) -> Outcome:
        """Let the agents play until the game ends; return the outcome.

        Raises :class:`TooLongError` once the match holds ``max_actions`` actions without ending,
        :class:`AgentError` if an agent fails, and :class:`ValueError` if a person's seat must
        act (people act through :meth:`play`).
        """
        while not self.state.is_terminal():
            if max_actions is not None and len(self.match.actions) >= max_actions:
                raise TooLongError(
                    ErrorText("the game did not end within {limit} actions", limit=max_actions)
                )
            if self.step() is None:
                raise ValueError(
                    f"seat {self.person_to_act()} is played by a person: use play() for it"
                )
        return self.state.outcome()

    # ----- taking back ------------------------------------------------------------------------

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its last action now.

        Only a step in progress can be taken back: the seat is still to act, the last action at
        this table is its own, the game allows it (:meth:`Game.undoable`: by default, none of
        that action's events was private to some seats — nothing was revealed, such as a peek or
        a draw), and agents' memories can be rebuilt (``agent_factory``, when agents play).
        Repeated undos go back through the seat's consecutive actions, never past another seat's
        action.
        """
        step = self.steps[-1] if self.steps else None
        if step is None or step.seat != seat or self.is_agent(seat):
            return False
        if self.state.is_terminal() or seat not in self.state.seats_to_act():
            return False
        if self.agents and self.agent_factory is None:
            return False
        return self.game.undoable(seat, step.action, step.events)

    def undo(self, seat: int) -> Action:
        """Take back the last action of ``seat``; return it.

        The match is rebuilt from its record without that action, and every agent is made
        afresh (``agent_factory``) and shown again the events of the remaining actions, so no
        agent remembers what was taken back. Listeners and subscribers are not told (the
        caller owns the table and says what happened). Raises :class:`IllegalActionError`
        (nothing changed) when :meth:`can_undo` is false.
        """
        if not self.can_undo(seat):
            raise IllegalActionError(
                "undo",
                ErrorText(
                    "only your own last action of the step in progress can be taken back, never "
                    "one that revealed information or one before another player's move"
                ),
            )
        old = self.match
        undone = self.steps.pop()
        match = Match(
            self.game,
            old.state.num_players,
            old.options,
            seed=old.seed,
            setup=old.setup,
            names=[p.name for p in old.players],
            agents=[p.agent for p in old.players],
        )
        replayed = [match.play(s, action) for s, action in old.actions[:-1]]
        self.match = match
        if self.agent_factory is not None:
            for s in list(self.agents):
                agent = self.agent_factory(s)
                for events in replayed:
                    agent.observe(visible_events(events, s))
                self.agents[s] = agent
        self.last_step = self.steps[-1] if self.steps else None
        return undone.action

    # ----- routing ---------------------------------------------------------------------------

    def _route(self, step: Step) -> None:
        self.last_step = step
        self.steps.append(step)
        events = list(step.events)
        for seat, agent in self.agents.items():
            try:
                agent.observe(visible_events(events, seat))
            except Exception as exc:
                raise AgentError(seat, "exception", _describe(exc), traceback.format_exc()) from exc
        for viewer, callbacks in self._subscribers.items():
            seen = visible_events(events, viewer)
            for callback in callbacks:
                callback(seen)
        for listener in self.listeners:
            listener.on_step(self, step)


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
