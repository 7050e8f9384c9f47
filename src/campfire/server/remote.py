"""Socket proxying between server processes: a client of one process at another's table.

The owner of a table treats a client of another process as one of its own connections
(:class:`RemoteConnection`): the same snapshot, deltas (with display patches if the client asked
for them), errors, rate limits (checked by the proxying process) and seat takeover; its frames
go back over the bus, each encoded once. The proxying process keeps a :class:`Proxy` per client
and passes its messages on. :class:`SocketRelay` does both sides for one process.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from . import protocol
from .connection import Connection
from .leases import Elsewhere
from .live import LiveTable
from .table_socket import attach, dispatch
from .wire import encode

if TYPE_CHECKING:
    from .tables import TableManager

__all__ = ["Proxy", "RelayHost", "RemoteConnection", "SocketRelay"]


class RelayHost(Protocol):
    """What the relay needs of its process's cluster."""

    me: str
    manager: TableManager | None

    def send(
        self, worker: str, payload: str, published: Callable[[int], None] | None = None
    ) -> None:
        """Publish ``payload`` to ``worker`` (in order)."""

    def new_id(self) -> str:
        """A connection's id, unique among this process's."""

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` as one of the cluster's tasks."""

    def on_published(self, conn_id: str, owner: str) -> Callable[[int], None]:
        """A ``published`` callback that sees to the connection if nobody received it."""


class RemoteConnection(Connection):
    """A client connected to another process, as the table's owner sees it.

    Its frames go to that process over Redis (each encoded once, shared with every connection
    that gets the same frame); its messages come from there, in order, through :attr:`inbox`.
    A client of display patches (``patch=1``, passed on in the ``open`` message) gets them as
    a client of this process does: the owner keeps :attr:`~.tables.Connection.shown`, the
    model each patch starts from, and the proxying process passes the frames on as they are.
    """

    def __init__(
        self,
        cluster: RelayHost,
        conn_id: str,
        worker: str,
        table_id: int,
        language: str,
        patches: bool = False,
    ) -> None:
        super().__init__(None, language=language, patches=patches)
        self.cluster = cluster
        self.id = conn_id
        self.worker = worker
        self.table_id = table_id
        #: ``("msg", text)`` and ``("close", None)`` from the proxying process (or this one)
        self.inbox: asyncio.Queue[tuple[str, str | None]] = asyncio.Queue()
        self.closed = False

    def push(self, frame: dict[str, Any] | str) -> None:
        """Send ``frame`` to the client's process (nothing once the connection is closed).

        A snapshot's display model becomes :attr:`shown`, what the next patch starts from
        (as :meth:`Connection.push` does).
        """
        if self.closed:
            return
        self._note_snapshot(frame)
        text = frame if isinstance(frame, str) else encode(protocol.client_frame(frame, self.views))
        self.cluster.send(self.worker, f"F{self.id}\n{text}")

    def close(self, code: int | None = None) -> None:
        """Close the client's connection (with ``code``) from its process; stop serving it."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.cluster.send(self.worker, f"C{self.id}\n{code or 1000}")
        self.inbox.put_nowait(("close", None))


@dataclass
class Proxy:
    """A client of this process at a table another process owns."""

    conn: Connection
    table_id: int
    owner: str
    #: the ``open`` message (sent again if the owner turns out to be gone before it answers)
    opening: dict[str, Any] | None = None
    #: whether the owner has sent anything for the connection yet
    answered: bool = False


class SocketRelay:
    """Both sides of socket proxying for one process (see the module)."""

    def __init__(self, host: RelayHost) -> None:
        self.host = host
        #: the owner's side: clients of other processes at this process's tables
        self.remotes: dict[str, RemoteConnection] = {}
        #: the proxy's side: this process's clients at other processes' tables
        self.proxies: dict[str, Proxy] = {}

    # ----- the owner's side -------------------------------------------------------------------

    def frame_for_proxy(self, kind: str, data: str) -> None:
        """A frame (``F``) for, or the close (``C``) of, one of this process's proxied clients."""
        conn_id, _, rest = data.partition("\n")
        proxy = self.proxies.get(conn_id)
        if proxy is None:
            return
        proxy.answered = True
        if kind == "F":
            proxy.conn.push(rest)
        else:
            proxy.conn.close(int(rest))

    def opened(self, op: dict[str, Any]) -> None:
        """Another process asks this one to serve a client (an ``open`` message)."""
        remote = RemoteConnection(
            self.host,
            op["conn"],
            op["worker"],
            int(op["table"]),
            str(op.get("lang") or "en"),
            patches=op.get("patches") is True,  # absent: a process from before patches
        )
        remote.views = op.get("views") is True  # the client asked for raw views (view=1)
        remote.presence = op.get("presence") is True  # and presence frames (presence=1)
        self.remotes[remote.id] = remote
        self.host.spawn(self._serve_remote(remote, op))

    def message(self, name: str, op: dict[str, Any]) -> None:
        """A proxied client's message (``msg``) or its leaving (``close``)."""
        found = self.remotes.get(op["conn"])
        if found is not None:
            found.inbox.put_nowait((name, op.get("text")))
        elif name == "msg":  # this process no longer serves that connection
            self.host.send(op["worker"], f"C{op['conn']}\n{protocol.CLOSE_MOVED}")

    async def _serve_remote(self, remote: RemoteConnection, op: dict[str, Any]) -> None:
        """Serve a client of another process as a connection of this one."""
        manager = self.host.manager
        assert manager is not None
        live: LiveTable | None = None
        try:
            try:
                live = await attach(
                    manager, remote, str(op["table"]), op.get("token"), op.get("since")
                )
            except Elsewhere:
                remote.close(protocol.CLOSE_MOVED)
            if live is None:
                return
            while True:
                kind, message = await remote.inbox.get()
                if kind == "close":
                    return
                if manager.tables.get(live.id) is not live:  # dropped: the lease was lost
                    remote.close(protocol.CLOSE_MOVED)
                    return
                await dispatch(message or "", remote, live, manager)
        finally:
            self.remotes.pop(remote.id, None)
            if live is not None:
                live.connections.discard(remote)
                seat = remote.seat
                live.gone(seat)
                mine = manager.tables.get(live.id) is live
                if seat is not None and live.status == "running" and mine:
                    manager.left(live, seat)
                proposal = live.rematch is not None
                if seat is not None and mine and proposal and live.absent_seat(seat):
                    manager.rematch_left(live, seat)  # a proposal ends unless they return

    # ----- a client of this process at another's table -------------------------------------------

    def open_proxy(
        self,
        conn: Connection,
        table_id: int,
        owner: str,
        token: str | None,
        since: int | None,
    ) -> str:
        """Ask ``owner`` to serve ``conn`` at ``table_id``; the proxy's id.

        If ``owner`` turns out to be gone (nobody receives the request), its tables are taken
        over and the connection is opened where ``table_id`` is then, this process included
        (:meth:`.Cluster.owner_silent`).
        """
        conn_id = self.host.new_id()
        opening = {
            "op": "open",
            "conn": conn_id,
            "worker": self.host.me,
            "table": table_id,
            "token": token,
            "since": since,
            "lang": conn.language,
            "patches": conn.patches,
            "views": conn.views,
            "presence": conn.presence,
        }
        self.proxies[conn_id] = Proxy(conn, table_id, owner, opening)
        self.host.send(owner, json.dumps(opening), self.host.on_published(conn_id, owner))
        return conn_id

    def forward(self, conn_id: str, message: str | bytes) -> None:
        """Pass a client's message on to its table's owner.

        A message that reaches no process (the owner is gone) closes the connection with
        1012 once the owner's tables have been taken over (:meth:`.Cluster.owner_silent`).
        """
        proxy = self.proxies.get(conn_id)
        if proxy is None:
            return
        if isinstance(message, bytes):
            message = message.decode("utf-8", "replace")
        self.host.send(
            proxy.owner,
            json.dumps({"op": "msg", "conn": conn_id, "worker": self.host.me, "text": message}),
            self.host.on_published(conn_id, proxy.owner),
        )

    def close_proxy(self, conn_id: str) -> None:
        """The client left: tell the owner."""
        proxy = self.proxies.pop(conn_id, None)
        if proxy is not None:
            payload = {"op": "close", "conn": conn_id, "worker": self.host.me}
            self.host.send(proxy.owner, json.dumps(payload))

    # ----- HTTP requests about a table ---------------------------------------------------------
