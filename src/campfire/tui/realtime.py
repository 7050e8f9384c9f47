"""Apache in real time: a reveal timer, a claim window, and bots with reaction times.

The game is played with ``claim_order=arrival`` (``docs/notation/apache.md``, "Real-time
games"): each claim is applied when it arrives, so the arrival order decides. A
:class:`RealtimeApache` drives one game from an injected clock: call :meth:`~RealtimeApache.tick`
often (the UI does, on a timer; tests after moving a :class:`~campfire.tui.clock.FakeClock`).

>>> from campfire import get_game
>>> from campfire.tui.clock import FakeClock
>>> from campfire.tui.session import PlaySession, SeatSpec
>>> session = PlaySession(get_game("apache"), [SeatSpec("You"), SeatSpec("Bot", "random")],
...                       {"claim_order": "arrival"}, seed=3)
>>> clock = FakeClock()
>>> rt = RealtimeApache(session, clock)
>>> rt.tick(); clock.advance(rt.reveal_delay); rt.tick()
>>> session.view(0)["phase"]
'claim'
>>> rt.claim(0, "chief")    # the human's key press
'claim chief'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from campfire.core import Action, Agent, CampfireError, Observation, OptionError

from .clock import Clock
from .session import PlaySession

__all__ = ["REACTION_RANGES", "TYPES", "ReactionBot", "RealtimeApache"]

#: The Indian types in key order: chief, maiden, warrior, hunter.
TYPES = ("chief", "maiden", "warrior", "hunter")

#: Reaction times in seconds (low, high) per difficulty level; other specs use ``medium``.
REACTION_RANGES: dict[str, tuple[float, float]] = {
    "easy": (1.2, 2.2),
    "medium": (0.8, 1.6),
    "hard": (0.45, 1.0),
}


class ReactionBot:
    """Adapter: asks any agent for its answer and finds a reaction time for it.

    An agent with its own reaction times (the Apache heuristic bot: ``last_reaction_ms`` after
    :meth:`~campfire.core.Agent.act`, or ``reaction_time()`` in ms) is timed by them; any other
    agent gets a time drawn uniformly from :data:`REACTION_RANGES` of the seat's level.
    """

    def __init__(self, agent: Agent, level: str, seed: int) -> None:
        self.agent = agent
        self.range = REACTION_RANGES.get(level, REACTION_RANGES["medium"])
        self.rng = random.Random(seed)

    def decide(self, obs: Observation) -> tuple[Action, float]:
        """The agent's answer for this window and its reaction time in seconds."""
        action = self.agent.act(obs)
        own_ms = getattr(self.agent, "last_reaction_ms", None)
        draw_ms = getattr(self.agent, "reaction_time", None)
        if isinstance(own_ms, int | float):
            seconds = own_ms / 1000
        elif callable(draw_ms):
            seconds = float(draw_ms()) / 1000
        else:
            seconds = self.rng.uniform(*self.range)
        return action, max(0.0, seconds)


@dataclass
class _Pending:
    due: float
    seat: int
    action: Action


class RealtimeApache:
    """Drives a real-time Apache session: reveals on a timer, a timed claim window, bot claims.

    ``reveal_delay`` is the pause before each reveal, ``window`` how long a claim window stays
    open (seats that have not answered then pass), ``protect_me`` refuses a human's claim that
    would be penalised (the view's ``protect_me``).
    """

    def __init__(
        self,
        session: PlaySession,
        clock: Clock,
        *,
        reveal_delay: float = 1.5,
        window: float = 3.0,
        protect_me: bool = False,
    ) -> None:
        if session.game.name != "apache":
            raise OptionError(f"real-time play is for Apache (got {session.game.title})")
        if session.match.options.to_dict().get("claim_order") != "arrival":
            raise OptionError("real-time Apache needs the option claim_order=arrival")
        self.session = session
        self.clock = clock
        self.reveal_delay = reveal_delay
        self.window = window
        self.protect_me = protect_me
        self.bots = {
            seat: ReactionBot(agent, session.seats[seat].agent or "medium", seed=seat * 7919 + 1)
            for seat, agent in session.agents.items()
        }
        self._reveal_at: float | None = None
        self._close_at: float | None = None
        self._pending: list[_Pending] = []

    # ----- what the screen shows -----------------------------------------------------------

    def phase(self) -> str:
        """The phase of the game (``reveal``, ``claim``, ``choose``, ``over``)."""
        return str(self.session.view(None)["phase"])

    def seconds_left(self) -> float | None:
        """Seconds until the claim window closes, or until the next reveal (``None``: neither)."""
        now = self.clock.now()
        if self._close_at is not None:
            return max(0.0, self._close_at - now)
        if self._reveal_at is not None:
            return max(0.0, self._reveal_at - now)
        return None

    # ----- the human's keys ----------------------------------------------------------------

    def claim(self, seat: int, kind: str) -> str:
        """The human of ``seat`` claims with ``kind`` now; return the action applied.

        Raises :class:`CampfireError` when no window is open, the seat has answered already, or
        ``protect_me`` is on and the claim would be penalised.
        """
        if kind not in TYPES:
            raise OptionError(f"unknown type {kind!r}; types: {', '.join(TYPES)}")
        view = self.session.view(seat)
        if view["phase"] != "claim" or seat not in view["to_act"]:
            raise CampfireError("no claim window is open for you now")
        if self.protect_me and not view.get("protect_me", {}).get(kind, True):
            raise CampfireError(f"protect me: a {kind} claim would be penalised now")
        action = f"claim {kind}"
        self.session.play(seat, action)
        self.tick()
        return action

    def pass_(self, seat: int) -> None:
        """The human of ``seat`` passes in the open window."""
        view = self.session.view(seat)
        if view["phase"] != "claim" or seat not in view["to_act"]:
            raise CampfireError("no claim window is open for you now")
        self.session.play(seat, "pass")
        self.tick()

    # ----- the timer -------------------------------------------------------------------------

    def tick(self) -> None:
        """Do everything due by now: reveals, bot claims, closing the window, bot choices."""
        session = self.session
        for _ in range(10_000):  # every pass of the loop either acts or returns
            if session.is_over():
                self._reveal_at = self._close_at = None
                self._pending.clear()
                return
            now = self.clock.now()
            view: dict[str, Any] = session.view(None)
            phase = view["phase"]
            if phase == "reveal":
                self._close_at = None
                if self._reveal_at is None:
                    self._reveal_at = now + self.reveal_delay
                if now < self._reveal_at:
                    return
                self._reveal_at = None
                session.play(view["to_act"][0], "reveal")
                self._open_window()
            elif phase == "claim":
                if self._close_at is None:
                    self._open_window()
                assert self._close_at is not None
                due = [p for p in self._pending if p.due <= now]
                if due:
                    first = min(due, key=lambda p: (p.due, p.seat))
                    self._pending.remove(first)
                    if first.seat in session.state.seats_to_act():
                        session.play(first.seat, first.action)
                    continue
                if now < self._close_at:
                    return
                # the window closes: every seat that has not answered passes
                seat = session.state.seats_to_act()[0]
                self._pending = [p for p in self._pending if p.seat != seat]
                session.play(seat, "pass")
            else:  # choose: bots at once, a human with the keys
                self._close_at = None
                self._pending.clear()
                if session.bot_step() is None:
                    return

    def _open_window(self) -> None:
        now = self.clock.now()
        self._close_at = now + self.window
        self._pending = []
        for seat, bot in self.bots.items():
            if seat not in self.session.state.seats_to_act():
                continue
            action, seconds = bot.decide(self.session.table.observation(seat))
            self._pending.append(_Pending(now + min(seconds, self.window), seat, action))
