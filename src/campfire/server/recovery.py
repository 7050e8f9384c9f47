"""Recovery: live tables rebuilt from the database and the action log.

A table not in memory is loaded on first use (:meth:`TableRecovery.load`): its lobby state from
the database, its game by replaying the log through a new ``Table``. At a restart
:meth:`TableRecovery.recover` rebuilds every running table (with several processes: those no
live process holds) and lets it go on (:meth:`TableRecovery.resume`: its bots, clocks, windows,
and the people not connected yet treated as gone). A table whose lease another process took is
dropped here (:meth:`TableRecovery.drop`); a table whose step could not be stored is rebuilt from
its log (:meth:`TableRecovery.rebuild`).
"""

from __future__ import annotations

import json
from typing import Any

from campfire.core import get as get_game

from . import protocol
from .clocks import TimeControl
from .hub import Hub
from .live import LiveTable
from .seating import TAKEOVER_LEVEL, LobbyError
from .writer import utcnow_of

__all__ = ["TableRecovery"]


class TableRecovery:
    """Loads, rebuilds, resumes and drops live tables (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def load(self, table_id: int) -> LiveTable | None:
        """The live table ``table_id``, rebuilt from the database if not in memory."""
        live = self.hub.tables.get(table_id)
        if live is not None:
            return live
        if self.hub.cluster is not None and not self.hub.cluster.claim(table_id):
            return None  # no such table (another process's table raises cluster.Elsewhere)
        found = self.hub.store.table(table_id)
        if found is None:
            return None
        row, seats = found
        live = LiveTable(
            id=row.id,
            game=get_game(row.game),
            options=dict(row.options),
            players=row.players,
            seats=seats,
            store=self.hub.store,
            status=row.status,
            number=row.game_number,
            seed=row.seed,
            now=self.hub.clock,
            wall=self.hub.wall,
            turn_saved=row.turn,
        )
        settings = row.settings or {}
        live.control = TimeControl.read(settings.get("clock"))
        live.bot_after_leave = settings.get("bot_after_leave")
        live.realtime = bool(settings.get("realtime", False))
        live.realtime_asked = bool(settings.get("realtime_asked", live.realtime))
        if live.status == "open":
            live.realtime = live.measured()  # (a table stored before the rule: decided now)
        live.takeover_level = str(settings.get("takeover_level") or TAKEOVER_LEVEL)
        live.undo = bool(settings.get("undo", False)) and not live.realtime
        live.rated = bool(settings.get("rated", False))
        live.hints = bool(settings.get("hints", False)) and not live.realtime and not live.rated
        live.hints_used = _hints_used(settings.get("hints_used"), row.game_number)
        if row.closed is not None:
            live.closed = row.close_message or ""
        if row.game_number > 0 and row.seed is not None:
            live.build(self.hub.store.actions(row.id, row.game_number))
            assert live.table is not None
            if live.status == "finished" and not live.table.state.is_terminal():
                text = self.hub.store.record(row.id, row.game_number)
                meta = json.loads(text).get("meta", {}) if text else {}
                live.forfeit = meta.get("forfeit")
        self.hub.tables[table_id] = live
        if self.hub.cluster is not None and live.status == "running":
            self.hub.metrics.takeovers()  # a running table not in memory here: another's, until now
            self.resume(live)  # taken over from another process (or its lease ran out)
        elif live.status == "running" and live.control.kind == "turn":
            self.resume(live)  # a turn-based table left in the database (:mod:`.turns`)
        return live

    def recover(self) -> int:
        """Rebuild every unfinished table from its log and let its bots go on; return how many.

        With several processes: the running tables no process holds (their owner went away).
        """
        if self.hub.cluster is None:
            # a turn-based table waiting for a person's move stays in the database until it
            # is needed or its deadline comes (:mod:`.turns`); one whose deadline passed while
            # no server ran is loaded now, and its time-out applies at once
            waiting = self.hub.store.turns_waiting(utcnow_of(self.hub.wall()))
            ids = [i for i in self.hub.store.table_ids(["running"]) if i not in waiting]
        else:
            ids = [i for i in self.hub.cluster.orphans() if i not in self.hub.tables]
        rebuilt = 0
        for table_id in ids:
            try:
                live = self.load(table_id)
            except LobbyError:  # another process took it first
                continue
            if live is not None:
                rebuilt += 1
                if self.hub.cluster is None and live.control.kind != "turn":
                    self.resume(live)  # (with several processes, or turn-based: load did it)
        return rebuilt

    def resume(self, live: LiveTable) -> None:
        """Let a running table go on (rebuilt, or a new game): its bots, clocks and windows."""
        hub = self.hub
        live.touched = hub.clock()  # (an idle turn-based table leaves memory: :mod:`.turns`)
        hub.bots.kick(live)
        hub.timers.arm(live)
        hub.takeover.absent(live)  # nobody is connected yet: as if everyone had left
        hub.spawn(hub.windows.after_step_locked(live))

    def drop(self, table_id: int) -> None:
        """Forget a table another process serves now (its lease was lost).

        Its bots and timers stop; its clients are closed with code 1012 and reconnect.
        """
        live = self.hub.tables.pop(table_id, None)
        if live is None:
            return
        tasks = [live.bot_task, live.clock_task, *live.leave_tasks.values(), *live.window_tasks]
        for task in tasks:
            if task is not None:
                task.cancel()
        for conn in list(live.connections):
            conn.close(protocol.CLOSE_MOVED)
        live.connections.clear()

    def rebuild(self, live: LiveTable) -> None:
        """Rebuild the game of ``live`` from its log (after a step that could not be stored)."""
        found = self.hub.store.table(live.id)
        if found is not None:
            row, _ = found
            live.status = row.status
            live.build(self.hub.store.actions(live.id, live.number))


def _hints_used(stored: Any, number: int) -> list[tuple[int, int, int]]:
    """The stored hints of the game being played as ``(game number, seq, seat)``.

    Written by :meth:`.live.LiveTable.stored_settings`; anything that is not a list of
    ``[seq, seat]`` pairs of whole numbers is passed over (a table stored before hints were
    kept has none).
    """
    if not isinstance(stored, list):
        return []
    return [
        (number, pair[0], pair[1])
        for pair in stored
        if isinstance(pair, list)
        and len(pair) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
    ]
