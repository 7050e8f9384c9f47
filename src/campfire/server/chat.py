"""A table's chat: two channels, limited in length and rate, kept with the table.

Each table has two channels (``docs/protocol.md``, "Chat"): the **players'** (a connection with
a seat writes there) and the **spectators'** (a connection without one writes there).
Spectators read both; players read only theirs, so that what the audience says never reaches
the game. A line holds at most :data:`~.schemas.MAX_CHAT` characters (control characters become
spaces, surrounding spaces are dropped, an empty line is refused) and each connection and each
seat may send a burst of :data:`BURST` lines, then one per :data:`EVERY` seconds.

Lines are stored with the table (:meth:`~.storage.Storage.add_chat`), never in its action log
or a game's record; a new connection gets the recent lines it may read (:data:`HISTORY`) in
a ``chat`` frame after its snapshot. Muting a player is the client's (nothing is stored).
A block is the server's (``docs/accounts.md``, "Moderation"): a player whose account blocks
the account of another seat gets no line from that seat, live or in the history
(:class:`ChatBlocks`).
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from campfire.core import ErrorText

from . import protocol
from .connection import Connection
from .live import LiveTable
from .security import Bucket
from .storage import Storage
from .store import ChatLine

__all__ = ["BURST", "EVERY", "HISTORY", "ChatBlocks", "ChatHost", "TableChat", "clean", "reads"]

#: lines a connection (or a seat) may send at once before the rate applies
BURST = 5
#: seconds for each further line
EVERY = 2.0
#: the recent lines a new connection receives (of the channels it reads)
HISTORY = 50


class ChatBlocks(Protocol):
    """Who blocks whom at a table (:class:`~.moderation.Moderation`)."""

    def hidden_pairs(self, table_id: int) -> set[tuple[int, int]]:
        """``(reader seat, writer seat)`` pairs whose lines are not delivered."""


class ChatHost(Protocol):
    """What the chat needs of the services: the storage, the clock and the blocks."""

    #: monotonic seconds (the rate limits are measured with it)
    clock: Callable[[], float]
    #: the accounts' blocks (``None``: no accounts, as in the in-memory tests)
    blocks: ChatBlocks | None

    @property
    def store(self) -> Storage:
        """Where chat lines are kept."""


def clean(text: str) -> str:
    r"""``text`` as a chat line: control characters as spaces, no surrounding spaces.

    >>> clean("  hi\nthere\x00 ")
    'hi there'
    """
    return "".join(" " if ord(c) < 32 or 127 <= ord(c) < 160 else c for c in text).strip()


def reads(seat: int | None, channel: str) -> bool:
    """Whether a connection at ``seat`` (``None``: a spectator) reads ``channel``.

    >>> reads(0, "players"), reads(0, "spectators"), reads(None, "players")
    (True, False, True)
    """
    return seat is None or channel == "players"


class TableChat:
    """The chat of every table of a server (one per :class:`~.tables.TableServices`)."""

    def __init__(self, host: ChatHost) -> None:
        self.host = host
        self._connections: weakref.WeakKeyDictionary[Connection, Bucket] = (
            weakref.WeakKeyDictionary()
        )
        self._seats: dict[tuple[int, int], Bucket] = {}
        #: recent lines of each live table (both channels), read from storage once; the table
        #: is held weakly (a table dropped from this process is read anew if it comes back)
        self._recent: dict[int, tuple[weakref.ref[LiveTable], deque[ChatLine]]] = {}

    def recent(self, live: LiveTable) -> deque[ChatLine]:
        """The table's recent lines (both channels), oldest first."""
        known = self._recent.get(live.id)
        if known is None or known[0]() is not live:  # a table (re)loaded into this process
            lines = deque(self.host.store.chat(live.id, 4 * HISTORY), maxlen=4 * HISTORY)
            known = self._recent[live.id] = (weakref.ref(live), lines)
        return known[1]

    def history(self, live: LiveTable, seat: int | None) -> dict[str, Any]:
        """The ``chat`` frame of the recent lines a connection at ``seat`` reads."""
        hidden = self._hidden(live) if seat is not None else set()
        lines = [
            line
            for line in self.recent(live)
            if reads(seat, line.channel) and (seat, line.seat) not in hidden
        ]
        return _frame(live.id, lines[-HISTORY:], history=True)

    def say(self, live: LiveTable, conn: Connection, message: dict[str, Any]) -> None:
        """Store and send a client's ``chat`` line (a refusal is a ``ProtocolError``)."""
        text = clean(message["text"])
        if not text:
            raise protocol.ProtocolError("bad_message", ErrorText("a chat line may not be empty"))
        now = self.host.clock()
        buckets = [self._connections.setdefault(conn, Bucket(BURST, EVERY, now))]
        if conn.seat is not None:
            for key, old in list(self._seats.items()):  # full again: forgotten (bounded)
                if old.full(now):
                    del self._seats[key]
            buckets.append(self._seats.setdefault((live.id, conn.seat), Bucket(BURST, EVERY, now)))
        wait = max(b.peek(now) for b in buckets)
        if wait > 0:
            raise protocol.ProtocolError(
                "rate_limited",
                ErrorText(
                    "too many chat lines; the next in {seconds} s", seconds=max(1, round(wait))
                ),
            )
        for bucket in buckets:
            bucket.take(now)
        seat = conn.seat
        channel = "spectators" if seat is None else "players"
        name = live.seats[seat].nickname if seat is not None else None
        line = self.host.store.add_chat(live.id, channel, seat, name, text)
        self.recent(live).append(line)
        frame = _frame(live.id, [line], history=False)
        hidden = self._hidden(live) if seat is not None else set()
        for other in _readers(live.connections, channel):
            if (other.seat, seat) not in hidden:
                other.push(frame)

    def _hidden(self, live: LiveTable) -> set[tuple[int, int]]:
        """The table's ``(reader seat, writer seat)`` pairs kept apart by a block."""
        blocks = self.host.blocks
        return blocks.hidden_pairs(live.id) if blocks is not None else set()


def _readers(connections: Iterable[Connection], channel: str) -> list[Connection]:
    return [c for c in connections if reads(c.seat, channel)]


def _frame(table_id: int, lines: list[ChatLine], *, history: bool) -> dict[str, Any]:
    return {
        "type": "chat",
        "table": table_id,
        "lines": [line.to_json() for line in lines],
        "history": history,
    }
