"""Real-time claim windows: the rules of timing answers (no I/O), and the service that runs them.

A game played in the ``realtime-claims`` mode has simultaneous steps where every seat
answers once: ``pass`` or a claim. With the rules' default ``claim_order=reaction`` a claim
carries its reaction time in milliseconds (``claim first 350``), and the engine's shared
resolution orders claims by it. Over the network the server measures that time itself:

- the window opens when the step's frames are sent (:attr:`ClaimWindow.opened`);
- a claim's time is its **receive time minus the opening**, rounded up to the rules' grid (the
  times the legal variants offer, e.g. 0–2000 ms in 50 ms steps; never faster than
  measured), so the record replays exactly;
- claims are ordered by the server's receive time: a claim that would get a time at or below
  an earlier claim's is given the next grid time after it (only the last grid time can tie;
  the engine then draws, from the game's seed);
- the window closes after the longest time the rules allow (:attr:`ClaimWindow.length`);
  whoever has not answered then passes.

A client's own time in a claim is ignored: only the server's measure counts.

>>> window = ClaimWindow(opened=10.0, length=2.0)
>>> legal = ["pass", *(f"claim first {ms}" for ms in range(0, 2001, 50))]
>>> window.stamp("claim first", 10.612, legal)
'claim first 650'
>>> window.stamp("claim first 0", 10.601, legal)   # received later: after the first claim
'claim first 700'
>>> window.stamp("pass", 10.9, legal)
'pass'
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from campfire.core.actions import answer_name, split_timed
from campfire.core.table import AgentError

if TYPE_CHECKING:
    from .hub import Hub
    from .live import LiveTable

__all__ = [
    "ARRIVAL_WINDOW_SECONDS",
    "ClaimWindow",
    "ClaimWindows",
    "answered_ms",
    "timed_variants",
    "window_length",
]

log = logging.getLogger(__name__)

#: How long a claim window stays open when the answers carry no time (``claim_order=arrival``).
ARRIVAL_WINDOW_SECONDS = 3.0


def timed_variants(name: str, legal: Sequence[str]) -> dict[int, str]:
    """The legal variants of the answer ``name`` by their times (empty: it carries no time)."""
    out: dict[int, str] = {}
    for notation in legal:
        answer, ms = split_timed(notation)
        if ms is not None and answer == name:
            out[ms] = notation
    return out


def window_length(legal: Sequence[str]) -> float | None:
    """The seconds a window stays open: the longest time the legal answers offer.

    ``None`` when no answer carries a time (``claim_order=arrival``: the caller's default).
    """
    times = [ms for n in legal if (ms := split_timed(n)[1]) is not None]
    return max(times) / 1000 if times else None


def answered_ms(notations: Sequence[str]) -> int:
    """The latest time among the answers at the end of a log (-1: none).

    The answers are read back to the first action that is none (the reveal that opened their
    window). A window opened again after a restart starts its timing afresh; the answers it already
    logged keep their times, and one received after them must not get an earlier one.

    >>> answered_ms(["reveal", "claim first 900", "pass", "claim second 350"])
    900
    >>> answered_ms(["claim first 900", "booty", "reveal"])
    -1
    """
    latest = -1
    for notation in reversed(notations):
        name, ms = split_timed(notation)
        if ms is None and name != "pass":
            break
        if ms is not None:
            latest = max(latest, ms)
    return latest


@dataclass
class ClaimWindow:
    """One open window: when it opened, how long it stays open, the last claim time given."""

    opened: float
    length: float
    #: the seats that answer in this window
    seats: frozenset[int] = frozenset()
    #: the seats that have answered
    answered: set[int] = field(default_factory=set)
    #: the time (ms) of the last timed answer accepted in this window
    last_ms: int = -1

    def still_open(self, to_act: Sequence[int]) -> bool:
        """Whether the seats to act now are still this window's (not answered yet)."""
        return bool(to_act) and set(to_act) <= self.seats - self.answered

    @property
    def closes(self) -> float:
        """When the window closes (same scale as :attr:`opened`)."""
        return self.opened + self.length

    def measured_ms(self, received: float) -> float:
        """The reaction time of an answer received at ``received``, in ms."""
        return max(0.0, round((received - self.opened) * 1000, 3))  # no float dust

    def stamp(
        self, notation: str, received: float, legal: Sequence[str], own_ms: float | None = None
    ) -> str:
        """The notation to play for an answer received at ``received``.

        A timed answer gets the measured time (``own_ms`` instead, for a bot that answered
        after its own reaction time), rounded up to the grid and after every earlier claim's
        time (the last grid time if none is left); an
        untimed answer (``pass``) is returned as it is.
        """
        name = answer_name(notation)
        variants = timed_variants(name, legal)
        if not variants:
            return notation
        ms = self.measured_ms(received) if own_ms is None else own_ms
        grid = sorted(variants)
        later = [t for t in grid if t > self.last_ms] or grid[-1:]
        pick = min((t for t in later if t >= ms), default=later[-1])
        self.last_ms = max(self.last_ms, pick)
        return variants[pick]


# ----- the service: windows at live tables ----------------------------------------------------


class ClaimWindows:
    """Opens and closes the claim windows of the tables that have them (``realtime``).

    After every step (:meth:`after_step`) a window opens when several seats answer at once (or
    one seat's answers carry reaction times); the bots at the table decide at once and answer
    after their own reaction times; when the window closes, whoever has not answered passes.
    """

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def after_step_locked(self, live: LiveTable) -> None:
        """:meth:`after_step`, taking the table's lock."""
        async with live.lock:
            await self.after_step(live)

    async def after_step(self, live: LiveTable) -> None:
        """Open or close the table's claim window after a step (the lock is held)."""
        table = live.table
        live.windows_after = (table, live.seq)  # (what the pipeline's guard asks)
        to_act: list[int] = []
        if table is not None and live.status == "running" and not table.state.is_terminal():
            to_act = list(table.state.seats_to_act())
        window = live.window
        if window is not None and table is not None and table.last_step is not None:
            window.answered.add(table.last_step.seat)
        if window is not None and not window.still_open(to_act):
            live.window = None
            current = asyncio.current_task()
            for task in live.window_tasks:
                if task is not current:
                    task.cancel()
            live.window_tasks = []
            self.hub.bots.kick(live)
        if live.window is None and live.realtime and to_act and table is not None:
            # a window opens when several seats answer at once; after a restart one seat may be
            # left to answer a window: its legal answers carry reaction times
            timed = window_length([str(a) for a in table.state.legal_actions(to_act[0])])
            if len(to_act) > 1 or timed is not None:
                await self._open_window(live, to_act)

    async def _open_window(self, live: LiveTable, to_act: list[int]) -> None:
        """Open a claim window now (bots decide; whoever has not answered passes at its close).

        Bots answer after their reaction times; the window closes after the rules' longest time.
        """
        assert live.table is not None
        table = live.table
        legal = [str(a) for a in table.state.legal_actions(to_act[0])]
        length = window_length(legal) or ARRIVAL_WINDOW_SECONDS
        window = live.window = ClaimWindow(self.hub.clock(), length, frozenset(to_act))
        # a window opened again after a restart: answers received from now on come after
        # those it already logged, so they are stamped after them too
        window.last_ms = answered_ms([str(a) for _, a in table.match.actions])
        for seat in to_act:
            if seat not in table.agents:
                continue
            try:
                action, _, _ = await self.hub.bots.think(table, seat)
            except AgentError as exc:
                log.error("table %s: the bot of seat %s failed: %s", live.id, seat, exc)
                continue
            timed = split_timed(str(action))[1]
            own = getattr(table.agents[seat], "last_reaction_ms", None)
            ms = float(timed if timed is not None else own if isinstance(own, int | float) else 0)
            live.window_tasks.append(
                self.hub.spawn(self._bot_answer(live, window, seat, str(action), ms))
            )
        live.window_tasks.append(self.hub.spawn(self._close_window(live, window)))

    async def _bot_answer(
        self, live: LiveTable, window: ClaimWindow, seat: int, notation: str, ms: float
    ) -> None:
        await asyncio.sleep(max(0.0, window.opened + ms / 1000 - self.hub.clock()))
        async with live.lock:
            table = live.table
            if live.window is not window or table is None:
                return
            if seat not in table.state.seats_to_act():
                return
            legal = [str(a) for a in table.state.legal_actions(seat)]
            stamped = window.stamp(notation, self.hub.clock(), legal, own_ms=ms)
            await self.hub.pipeline.apply(live, seat, live.game.parse_action(stamped))

    async def _close_window(self, live: LiveTable, window: ClaimWindow) -> None:
        await asyncio.sleep(max(0.0, window.closes - self.hub.clock()))
        async with live.lock:
            for _ in range(live.players):
                table = live.table
                if live.window is not window or table is None or live.status != "running":
                    return
                seat = table.state.seats_to_act()[0]
                legal = table.state.legal_actions(seat)
                passing = [a for a in legal if str(a) == "pass"] or legal[:1]
                live.next_cause[seat] = "window-closed"
                await self.hub.pipeline.apply(live, seat, passing[0], checked=True)
