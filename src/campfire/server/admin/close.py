"""Closing a table: ``campfire admin close TABLE --message TEXT`` and the server's side of it.

A running server closes the table (it polls the database for such requests,
:func:`watch_closes`) and tells its players (a ``closed`` frame); with no server running the
command closes it itself (:func:`close_table`). A closed table is finished for good; the game
it was playing gets its record (unfinished, with ``meta.closed``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import time
from typing import TYPE_CHECKING

from campfire.core import CampfireError
from campfire.i18n import _

from .database import database_url, no_server, open_engine, server_running

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session, sessionmaker

    from ..tables import LiveTable, Store, TableManager

log = logging.getLogger(__name__)

#: How often a server looks for tables to close (seconds).
CLOSE_POLL_SECONDS = 1.0
#: The longest message of ``campfire admin close``.
MAX_MESSAGE = 500


# ----- in a server ------------------------------------------------------------------------------


def close_table(live: LiveTable, store: Store, message: str) -> None:
    """Close ``live`` in the database: finished for good, with the operator's ``message``.

    A game in progress gets its record now (unfinished: no outcome; ``meta.closed`` holds the
    message and the time), so it stays exportable and replayable. The caller holds the
    table's lock (a server) or is the only one using the database (an admin command).
    """
    from ..models import TableRow, utcnow
    from ..writer import store_record

    now = utcnow()
    record = None
    if live.table is not None and live.status == "running":
        meta = live.record_meta()
        meta["closed"] = {"message": message, "at": now.isoformat(timespec="seconds")}
        record = live.table.match.record(meta).dumps()
    with store.sessions.begin() as session:
        if store.fence is not None:  # several processes: only the table's owner writes
            store.fence(session, (live.id,))
        if record is not None:
            store_record(session, live.id, live.number, record)
        row = session.get_one(TableRow, live.id)
        row.status, row.close_message, row.closed = "finished", message, now
        row.close_requested = None
    live.status = "finished"
    live.closed = message


async def close_live(manager: TableManager, live: LiveTable, message: str) -> None:
    """Close a table this server process serves and tell its clients.

    Its bots, clocks and claim windows stop; every connection gets a fresh snapshot (status
    ``finished``) and then a ``closed`` frame with ``message``.
    """
    from .. import protocol

    async with live.lock:
        if live.closed is not None:
            return
        current = asyncio.current_task()
        tasks = [live.bot_task, live.clock_task, *live.leave_tasks.values(), *live.window_tasks]
        for task in tasks:
            if task is not None and task is not current:
                task.cancel()
        live.leave_tasks.clear()
        live.window_tasks = []
        live.window = None
        await asyncio.to_thread(close_table, live, manager.store, message)
        if live.clocks is not None:
            live.clocks.sync([], manager.clock())
        frame = protocol.closed_frame(live.id, live.number, live.seq, message)
        for conn in list(live.connections):
            conn.push(live.snapshot(conn.seat, language=conn.language))
            conn.push(frame)
    log.info("table %s: closed by the operator", live.id)


def _requested(sessions: sessionmaker[Session]) -> list[tuple[int, str]]:
    from sqlalchemy import select

    from ..models import TableRow

    with sessions() as session:
        rows = session.execute(
            select(TableRow.id, TableRow.close_message)
            .where(TableRow.close_requested.is_not(None))
            .order_by(TableRow.id)
            .limit(100)
        ).all()
    return [(int(i), str(m or "")) for i, m in rows]


def _clear_request(sessions: sessionmaker[Session], table_id: int) -> None:
    from sqlalchemy import update

    from ..models import TableRow

    with sessions.begin() as session:
        session.execute(
            update(TableRow).where(TableRow.id == table_id).values(close_requested=None)
        )


async def carry_out_closes(manager: TableManager) -> int:
    """Close the tables ``campfire admin close`` asked for that this process may serve.

    A table another process owns (several processes) is left to its owner. Returns how many
    were closed.
    """
    from ..tables import LobbyError

    closed = 0
    for table_id, message in await asyncio.to_thread(_requested, manager.store.sessions):
        try:
            live = manager.load(table_id)
        except LobbyError:  # another process owns it (cluster.Elsewhere): it closes it
            continue
        if live is None:
            continue
        if live.closed is not None:  # closed already: the request is void
            await asyncio.to_thread(_clear_request, manager.store.sessions, table_id)
            continue
        await close_live(manager, live, message)
        closed += 1
    return closed


async def watch_closes(manager: TableManager, interval: float = CLOSE_POLL_SECONDS) -> None:
    """Look for close requests every ``interval`` seconds until cancelled (a server's task)."""
    while True:
        await asyncio.sleep(interval)
        try:
            await carry_out_closes(manager)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("closing the tables asked for failed; trying again")


# ----- the command ------------------------------------------------------------------------------


def _check_message(text: str) -> str:
    message = text.strip()
    if not message or len(message) > MAX_MESSAGE or not message.isprintable():
        raise CampfireError(
            _("--message is 1–{most} printable characters on one line").format(most=MAX_MESSAGE)
        )
    return message


def cmd_close(args: argparse.Namespace) -> int:
    """``campfire admin close TABLE``: ask a running server to close it, or close it here."""
    from sqlalchemy import update

    from ..db import session_factory
    from ..models import TableRow, utcnow

    message = _check_message(args.message)
    engine = open_engine(database_url(args))
    sessions = session_factory(engine)
    try:
        with sessions() as session:
            row = session.get(TableRow, args.table)
            if row is None:
                raise CampfireError(
                    _("there is no table {table} (see 'campfire admin tables')").format(
                        table=args.table
                    )
                )
            if row.closed is not None:
                raise CampfireError(
                    _("table {table} is closed already ({message})").format(
                        table=args.table, message=row.close_message
                    )
                )
        if not server_running(engine):
            _close_offline(engine, sessions, args.table, message)
            print(_("closed table {table} (no server was running)").format(table=args.table))
            return 0
        with sessions.begin() as session:
            session.execute(
                update(TableRow)
                .where(TableRow.id == args.table)
                .values(close_message=message, close_requested=utcnow())
            )
        for _i in range(args.wait * 10):  # bounded: the server looks every second
            time.sleep(0.1)
            with sessions() as session:
                row = session.get(TableRow, args.table)
                if row is not None and row.closed is not None:
                    print(_("closed table {table}; its players were told").format(table=args.table))
                    return 0
        raise CampfireError(
            _(
                "the running server did not close table {table} within {seconds} s; the "
                "request stays and is carried out as soon as a server serves the table"
            ).format(table=args.table, seconds=args.wait)
        )
    finally:
        engine.dispose()


def _close_offline(
    engine: Engine, sessions: sessionmaker[Session], table_id: int, message: str
) -> None:
    """Close a table with no server running (the server lock held alone meanwhile)."""
    from ..tables import TableManager

    with no_server(engine, _("close the table again")):
        manager = TableManager(sessions, bot_workers=1)
        try:
            live = manager.load(table_id)
            if live is None:  # pragma: no cover - checked before
                raise CampfireError(_("there is no table {table}").format(table=table_id))
            close_table(live, manager.store, message)
        finally:
            manager.pool.shutdown(wait=False, cancel_futures=True)
