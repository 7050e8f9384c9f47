"""Play modes: how the terminal app runs a game, chosen from what the game declares as data.

A game lists the modes it is played in, best first, in ``Game.play_modes``; the app takes the
first one registered here that fits the seats (:func:`mode_for`). The app never asks which game
it plays: everything game-specific comes from the presenter's displays and messages and from
the mode.

- ``turns`` (:class:`TurnsMode`): bots move at once (or after a short pause), people choose
  from the display's actions; simultaneous steps are answered one seat after another.
- ``timed-peek`` (:class:`TimedPeekMode`): turns, and a card shown privately to a seat (a
  :class:`~campfire.core.present.Reveal` of the presenter's step display) stays on that seat's
  screen for a few seconds (``PlayConfig.peek_seconds``) through the presenter's
  ``reveal(display, shown, marked)``; then it is gone, as at the table. With *learning* the
  places the seat has seen are marked (the marks follow the cards the step display moved).
- ``realtime-claims`` (:class:`RealtimeClaimsMode`, one person at the keyboard): a forced move
  (one seat to act with one legal action) plays itself after ``reveal_delay`` seconds; a
  simultaneous step is a claim window open for ``window`` seconds: bots answer after their
  reaction times, the person answers with a key, and whoever has not answered when it closes
  plays ``pass``. An answer offered as timed variants (actions that share an ``answer`` and
  carry their ``delay_ms``) is played as the variant nearest the time the person took,
  measured from the window's opening, so the record holds each measured time.

Register a new mode with :func:`register_mode`.

>>> from campfire.core import all_games
>>> from campfire.tui.session import SeatSpec
>>> turns = next(g for g in all_games() if g.play_modes == ("turns",))
>>> mode_for(turns, [SeatSpec("You"), SeatSpec("Bot", "easy")]).name
'turns'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from campfire.core import Action, Agent, CampfireError, Event, Game, Observation, visible_events
from campfire.core.present import ActionChoice, CardFace, Display
from campfire.i18n import _, current

from .clock import Clock
from .session import PlaySession, SeatSpec

__all__ = [
    "MODES",
    "REACTION_RANGES",
    "Mode",
    "ReactionBot",
    "RealtimeClaimsMode",
    "TimedPeekMode",
    "TurnsMode",
    "mode_for",
    "register_mode",
    "timed_answer",
]


@dataclass
class ModeSettings:
    """The timings and switches a mode reads (from ``PlayConfig``)."""

    peek_seconds: float = 3.0
    learning: bool = False
    protect_me: bool = False
    reveal_delay: float = 1.5
    window: float = 3.0


class Mode:
    """The turn-based mode, and the hooks every mode may override."""

    name: ClassVar[str] = "turns"
    #: whether the mode plays the bots itself (on :meth:`tick`) instead of the screen
    drives_bots: ClassVar[bool] = False

    def __init__(self, session: PlaySession, clock: Clock, settings: ModeSettings) -> None:
        self.session = session
        self.clock = clock
        self.settings = settings
        #: the last message of the mode for the person (a refusal, a claim made)
        self.message = ""

    @classmethod
    def fits(cls, game: Game[Any], seats: Sequence[SeatSpec]) -> bool:
        """Whether the mode can play ``game`` with these seats."""
        return True

    def on_events(self, seat: int, events: list[Event]) -> None:
        """Every action applied (all its events: filter with ``visible_events``)."""

    def tick(self) -> None:
        """Do what is due by now (called several times a second)."""

    def decorate(self, display: Display, seat: int) -> Display:
        """The display of ``seat`` as the mode shows it (with overlays)."""
        return display

    def holds(self, seat: int) -> bool:
        """Whether the screen must stay with ``seat`` a moment longer (hot seat)."""
        return False

    def choices(self, display: Display) -> list[ActionChoice]:
        """The choices to offer from ``display`` (a mode may merge variants)."""
        return list(display.actions)

    def play(self, seat: int, choice: ActionChoice) -> None:
        """Play ``choice`` for ``seat`` (raise :class:`CampfireError` if it cannot be)."""
        self.session.play(seat, choice.notation)

    def status(self, seat: int | None) -> str:
        """A short note for the status line (timers), or ``""``."""
        return ""


class TurnsMode(Mode):
    """Take turns: bots move when it is theirs, people choose from the offered actions."""


class TimedPeekMode(Mode):
    """Turns, and a privately shown card stays on screen for a few seconds only."""

    name: ClassVar[str] = "timed-peek"

    def __init__(self, session: PlaySession, clock: Clock, settings: ModeSettings) -> None:
        super().__init__(session, clock, settings)
        self.shown: dict[int, dict[str, tuple[CardFace, float]]] = {}
        self.marked: dict[int, set[str]] = {s: set() for s in session.humans}

    def on_events(self, seat: int, events: list[Event]) -> None:
        """Remember the cards shown to each human seat, with the time they disappear."""
        now = self.clock.now()
        presenter = self.session.presenter
        for human in self.session.humans:
            step = presenter.step_display(visible_events(events, human), human)
            marks = self.marked[human]
            for source, target in step.moved:
                if source in marks:
                    marks.discard(source)
                    marks.add(target)
            for reveal in step.reveals:
                shown = self.shown.setdefault(human, {})
                shown[reveal.card.id] = (reveal.card, now + self.settings.peek_seconds)
                marks.add(reveal.card.id)

    def showing(self, seat: int) -> dict[str, CardFace]:
        """The cards ``seat`` is looking at now, by card id."""
        now = self.clock.now()
        return {i: c for i, (c, until) in self.shown.get(seat, {}).items() if until > now}

    def holds(self, seat: int) -> bool:
        """Stay with ``seat`` while a card it was shown is still on its screen."""
        return bool(self.showing(seat))

    def decorate(self, display: Display, seat: int) -> Display:
        """Overlay the cards on show (and the learning marks) through the presenter."""
        marked = self.marked.get(seat, set()) if self.settings.learning else set()
        empty = {c.id for z in display.zones for c in z.cards if c.empty}
        marked -= empty  # a card taken away takes its mark with it
        shown = self.showing(seat)
        if not shown and not marked:
            return display
        return self.session.presenter.reveal(display, shown, marked)


def timed_answer(choices: Sequence[ActionChoice], ms: float) -> ActionChoice:
    """The variant of one answer whose delay (``delay_ms``) is nearest ``ms``.

    >>> from campfire.core.present import Answer
    >>> hunter = Answer("claim hunter", "Claim with your hunter", "hunter")
    >>> a = [ActionChoice(i, f"claim hunter {t}", "", answer=hunter, delay_ms=t)
    ...      for i, t in enumerate((0, 50, 100))]
    >>> timed_answer(a, 62).notation, timed_answer(a, 5000).notation
    ('claim hunter 50', 'claim hunter 100')
    """

    def time_of(choice: ActionChoice) -> int:
        return choice.delay_ms or 0

    return min(choices, key=lambda c: (abs(time_of(c) - ms), time_of(c)))


#: Reaction times in seconds (low, high) per difficulty level; other specs use ``medium``.
REACTION_RANGES: dict[str, tuple[float, float]] = {
    "easy": (1.2, 2.2),
    "medium": (0.8, 1.6),
    "hard": (0.45, 1.0),
}


class ReactionBot:
    """Adapter: asks any agent for its answer and finds a reaction time for it.

    An answer that is a timed variant (``delays`` gives its ``delay_ms``, from the seat's
    display) is made after that time; an
    agent with its own reaction times (``last_reaction_ms`` after ``act``, or
    ``reaction_time()`` in ms) is timed by them; any other agent gets a time drawn uniformly
    from :data:`REACTION_RANGES` of the seat's level.
    """

    def __init__(self, agent: Agent, level: str, seed: int) -> None:
        self.agent = agent
        self.range = REACTION_RANGES.get(level, REACTION_RANGES["medium"])
        self.rng = random.Random(seed)

    def decide(
        self, obs: Observation, delays: Mapping[str, int | None] | None = None
    ) -> tuple[Action, float]:
        """The agent's answer for this window and its reaction time in seconds.

        ``delays`` maps the notation of each offered action to its ``delay_ms`` (a timed
        variant's delay; ``None`` or absent: untimed).
        """
        action = self.agent.act(obs)
        timed = (delays or {}).get(str(action))
        own_ms = getattr(self.agent, "last_reaction_ms", None)
        draw_ms = getattr(self.agent, "reaction_time", None)
        if timed is not None:
            seconds = timed / 1000
        elif isinstance(own_ms, int | float):
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


class RealtimeClaimsMode(Mode):
    """Forced moves on a timer, simultaneous steps as timed claim windows (one person)."""

    name: ClassVar[str] = "realtime-claims"
    drives_bots: ClassVar[bool] = True

    def __init__(self, session: PlaySession, clock: Clock, settings: ModeSettings) -> None:
        super().__init__(session, clock, settings)
        self._forced_at: float | None = None
        self._opened: float | None = None
        self._close_at: float | None = None
        self._window: set[int] = set()
        self._answered: set[int] = set()
        self._pending: list[_Pending] = []
        self._bots: dict[int, ReactionBot] = {}

    @classmethod
    def fits(cls, game: Game[Any], seats: Sequence[SeatSpec]) -> bool:
        """Only one person may race the clock at one keyboard."""
        return sum(s.human for s in seats) == 1

    def _bot(self, seat: int) -> ReactionBot:
        agent = self.session.table.agents[seat]
        bot = self._bots.get(seat)
        if bot is None or bot.agent is not agent:  # new, or rebuilt by an undo
            level = self.session.seats[seat].agent or "medium"
            bot = self._bots[seat] = ReactionBot(agent, level, seed=seat * 7919 + 1)
        return bot

    # ----- what the screen shows -----------------------------------------------------------

    def window_open(self) -> bool:
        """Whether a claim window is open."""
        return self._close_at is not None

    def seconds_left(self) -> float | None:
        """Seconds until the window closes or the forced move plays (``None``: neither)."""
        now = self.clock.now()
        for at in (self._close_at, self._forced_at):
            if at is not None:
                return max(0.0, at - now)
        return None

    def status(self, seat: int | None) -> str:
        """The timer."""
        left = self.seconds_left()
        if left is None:
            return ""
        seconds = current().number(left, 1)
        if self._close_at is not None:
            return _("answer within {seconds} s").format(seconds=seconds)
        return _("next in {seconds} s").format(seconds=seconds)

    def choices(self, display: Display) -> list[ActionChoice]:
        """One choice per answer: timed variants merged (the time is measured)."""
        out: dict[str, ActionChoice] = {}
        for choice in display.actions:
            answer = choice.answer
            name = answer.notation if answer is not None else choice.notation
            if name not in out:
                if answer is not None:
                    key = answer.key or name
                    choice = replace(choice, notation=name, key=key, label=answer.label)
                out[name] = choice
        return list(out.values())

    # ----- the person's answers ---------------------------------------------------------

    def play(self, seat: int, choice: ActionChoice) -> None:
        """Answer with ``choice`` now (its variant for the time taken, when it has times)."""
        offered = self.session.display(seat).actions
        variants = [
            c
            for c in offered
            if c.notation == choice.notation
            or (c.answer is not None and c.answer.notation == choice.notation)
        ]
        if not variants:
            raise CampfireError(
                _("{move} is not possible now").format(move=choice.label or choice.notation)
            )
        if self.settings.protect_me and any(c.penalised for c in variants):
            raise CampfireError(
                _("protect me: {move} would be penalised now, so it was not made").format(
                    move=choice.label or choice.notation
                )
            )
        if len(variants) > 1 and self._opened is not None:
            ms = (self.clock.now() - self._opened) * 1000
            action = timed_answer(variants, ms).notation
        else:
            action = variants[0].notation
        self.session.play(seat, action)
        self._answered.add(seat)
        self.message = _("you answered: {action}").format(action=action)
        self.tick()

    # ----- the timer -------------------------------------------------------------------------

    def tick(self) -> None:
        """Do everything due by now: forced moves, bot answers, closing the window, turns."""
        session = self.session
        for _pass in range(10_000):  # every pass of the loop acts or returns
            if session.is_over():
                self._forced_at = self._close_at = None
                self._pending.clear()
                return
            now = self.clock.now()
            to_act = list(session.state.seats_to_act())
            if self._close_at is not None and not (set(to_act) <= self._window - self._answered):
                self._close_window()
            if self._close_at is None and len(to_act) > 1:
                self._open_window(to_act)
            if self._close_at is not None:
                due = [p for p in self._pending if p.due <= now]
                if due:
                    first = min(due, key=lambda p: (p.due, p.seat))
                    self._pending.remove(first)
                    if first.seat in session.state.seats_to_act():
                        session.play(first.seat, first.action)
                        self._answered.add(first.seat)
                    continue
                if now < self._close_at:
                    return
                seat = to_act[0]  # the window closes: whoever has not answered passes
                self._pending = [p for p in self._pending if p.seat != seat]
                legal = session.state.legal_actions(seat)
                passing = [a for a in legal if str(a) == "pass"] or legal[:1]
                session.play(seat, passing[0])
                self._answered.add(seat)
                continue
            seat = to_act[0]
            if len(session.state.legal_actions(seat)) == 1:
                if self._forced_at is None:
                    self._forced_at = now + self.settings.reveal_delay
                if now < self._forced_at:
                    return
                self._forced_at = None
                session.play(seat, session.state.legal_actions(seat)[0])
                continue
            self._forced_at = None
            if seat in session.agents:
                session.bot_step()
                continue
            return

    def _open_window(self, to_act: list[int]) -> None:
        now = self.clock.now()
        self._opened = now
        self._close_at = now + self.settings.window
        self._window = set(to_act)
        self._answered = set()
        self._pending = []
        self._forced_at = None
        self.message = ""
        for seat in to_act:
            if seat in self.session.agents:
                delays = {c.notation: c.delay_ms for c in self.session.display(seat).actions}
                obs = self.session.table.observation(seat)
                action, seconds = self._bot(seat).decide(obs, delays)
                due = now + min(seconds, self.settings.window)
                self._pending.append(_Pending(due, seat, action))

    def _close_window(self) -> None:
        self._close_at = self._opened = None
        self._window = set()
        self._answered = set()
        self._pending = []


#: The registered modes by name.
MODES: dict[str, type[Mode]] = {}


def register_mode(cls: type[Mode]) -> type[Mode]:
    """Register a mode under its ``name`` (usable as a class decorator)."""
    MODES[cls.name] = cls
    return cls


for _mode in (TurnsMode, TimedPeekMode, RealtimeClaimsMode):
    register_mode(_mode)


def mode_for(game: Game[Any], seats: Sequence[SeatSpec]) -> type[Mode]:
    """The first of ``game.play_modes`` that is registered and fits the seats (else turns)."""
    for name in getattr(game, "play_modes", ("turns",)):
        cls = MODES.get(name)
        if cls is not None and cls.fits(game, seats):
            return cls
    return TurnsMode
