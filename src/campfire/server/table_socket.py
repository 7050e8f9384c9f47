"""A client at a table: seated with its snapshot, then each of its messages handled.

:func:`attach` seats a connection (a WebSocket of this process, or a client of another process
served here, :mod:`.remote`) and queues its snapshot; :func:`dispatch` handles one of its
messages (``ping``, ``sync``, ``action``: an action goes to the pipeline; ``chat``: a line goes
to the table's chat, :mod:`.chat`; ``undo`` and ``undo_answer``: a request to take back a move,
:mod:`.undo`). Reading and writing
the socket itself is :mod:`.app`'s.
"""

from __future__ import annotations

import logging
from typing import Any

from campfire.core import ErrorText

from . import protocol
from .connection import Connection
from .live import LiveTable
from .seating import LobbyError
from .tables import TableManager

__all__ = ["attach", "dispatch", "refuse"]

log = logging.getLogger(__name__)


async def attach(
    manager: TableManager,
    conn: Connection,
    raw_id: str,
    token: str | None,
    since: int | None,
) -> LiveTable | None:
    """Seat ``conn`` at table ``raw_id`` with ``token`` and queue its snapshot; the table.

    ``None``: an error frame and a close code are queued on ``conn`` instead (no such table,
    a token of no seat). With several processes, :class:`.cluster.Elsewhere` says that another
    process owns the table.
    """
    live: LiveTable | None = None
    if raw_id.isascii() and raw_id.isdigit() and len(raw_id) <= 12:
        live = manager.load(int(raw_id))
    if live is None:
        refuse(
            conn,
            "unknown_table",
            ErrorText("there is no table {table}", table=repr(raw_id[:20])),
            protocol.CLOSE_UNKNOWN_TABLE,
        )
        return None
    # an empty token (token=) is refused too: a client that lost its token is told so,
    # rather than seated as a spectator without a word
    seat = live.seat_of(token) if token else None
    if token is not None and seat is None:
        refuse(
            conn,
            "bad_token",
            ErrorText(
                "this seat token belongs to no seat of the table; connect without one to watch"
            ),
            protocol.CLOSE_BAD_TOKEN,
        )
        return None
    conn.seat = seat
    async with live.lock:  # no step can slip between the snapshot and the first delta
        live.connections.add(conn)
        if seat is not None:
            manager.hand_back(live, seat)  # a person who returns takes their seat back
            live.languages[seat] = conn.language  # (their "your turn" e-mails' language)
        conn.push(live.snapshot(seat, since, conn.language))
        live.arrived(seat)  # the others see the person connected
        recent = manager.chat.history(live, seat)
        if recent["lines"]:  # the recent chat it may read (no frame while there is none)
            conn.push(recent)
        undo = manager.undo.pending(live)
        if undo is not None:  # a request to take back a move waits for answers
            conn.push(undo)
        if live.closed is not None:  # closed by the operator: the players read why
            conn.push(protocol.closed_frame(live.id, live.number, live.seq, live.closed))
    return live


def refuse(conn: Connection, code: str, message: ErrorText, close_code: int) -> None:
    """Queue an error frame on ``conn``, then its close with ``close_code``."""
    conn.push(protocol.error_frame(code, conn.tr.error(message)))
    conn.close(close_code)


async def dispatch(
    text: str | bytes, conn: Connection, live: LiveTable, manager: TableManager
) -> None:
    """Handle one client message at ``live``; a refusal or failure is an error frame."""
    try:
        await _handle(text, conn, live, manager)
    except protocol.ProtocolError as exc:
        conn.push(protocol.error_frame(exc.code, conn.tr.error(exc), live.seq))
    except LobbyError as exc:  # pragma: no cover - defensive
        conn.push(protocol.error_frame("bad_message", conn.tr.error(exc), live.seq))
    except Exception:  # never let one message take the server down
        log.exception("table %s: a message failed", live.id)
        conn.push(
            protocol.error_frame(
                "internal",
                conn.tr.error(ErrorText("the server could not handle that message")),
            )
        )


async def _handle(
    text: str | bytes, conn: Connection, live: LiveTable, manager: TableManager
) -> None:
    received = manager.clock()  # a claim's reaction time is measured from here
    message: dict[str, Any] = protocol.parse_client_message(text)
    kind = message["type"]
    if conn.seat is not None and live.seats[conn.seat].takeover:
        async with live.lock:  # any message says the person is back
            manager.hand_back(live, conn.seat)
    if kind == "ping":
        conn.push({"type": "pong"})
    elif kind == "chat":
        manager.chat.say(live, conn, message)
    elif kind == "undo":
        await manager.undo.ask(live, conn.seat, message)
    elif kind == "hint":
        await manager.hints.ask(live, conn, message)
    elif kind == "undo_answer":
        await manager.undo.answer(live, conn.seat, message)
    elif kind == "sync":
        async with live.lock:
            conn.push(live.snapshot(conn.seat, message.get("since"), conn.language))
    else:
        await manager.act(live, conn.seat, message, received)
