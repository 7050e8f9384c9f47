"""HTTP forwarding between server processes: a lobby request about a table runs at its owner.

An HTTP request about a table (``/api/tables/<id>/...``) that another process owns is run by
the owner (:class:`ForwardMiddleware`) and its answer relayed. A request caught in a table's
move (the owner answers that it no longer has the table, the owner is gone, the lease was lost
while the request ran here) is tried again, at whichever process owns the table then, for up to
:data:`FORWARD_TIMEOUT`; only then is it answered 503 ``table_moved`` with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import math
import re
from collections.abc import Awaitable, Callable, Collection, Coroutine, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from starlette.requests import ClientDisconnect, Request

from campfire.core import ErrorText
from campfire.i18n import translator

from .leases import Elsewhere
from .lobby import MAX_BODY_BYTES, language_of, read_body
from .seating import LobbyError
from .writer import LeaseLost

if TYPE_CHECKING:
    from .tables import TableManager

__all__ = ["FORWARD_TIMEOUT", "Answer", "ForwardMiddleware", "HttpForwarding"]

log = logging.getLogger(__name__)

#: How long a lobby request about a table may wait for the table's owner (seconds): for its
#: answer, and while the table moves, for it to be served again.
FORWARD_TIMEOUT = 10.0

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class ForwardingHost(Protocol):
    """What forwarding needs of its process's cluster."""

    me: str
    lease: float
    manager: TableManager | None
    app: App | None
    started: bool
    http: HttpForwarding

    def send(
        self, worker: str, payload: str, published: Callable[[int], None] | None = None
    ) -> None:
        """Publish ``payload`` to ``worker`` (in order)."""

    def new_id(self) -> str:
        """A request's id, unique among this process's."""

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` as one of the cluster's tasks."""

    def owner_for(self, table_id: int) -> str | None:
        """The process that owns ``table_id`` if not this one."""

    def owners(self, table_ids: list[int]) -> dict[int, str]:
        """The processes holding unexpired leases of ``table_ids``."""

    async def if_gone(self, owner: str) -> None:
        """If ``owner`` is gone, take its tables over."""


_TABLE_PATH = re.compile(r"^/api/tables/(\d{1,12})(?:/|$)")
_FORWARDED = b"x-campfire-forwarded"


class ForwardMiddleware:
    """Runs an HTTP request about a table at the process that owns the table.

    The request is run here if this process owns the table, else forwarded to the owner
    (:meth:`HttpForwarding.serve_http`); one caught in the table's move is tried again. A request
    forwarded here by another process is run here only (:meth:`HttpForwarding.run_forwarded`).
    """

    def __init__(self, app: App, cluster: ForwardingHost):
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Forward, run here, or pass on."""
        if scope["type"] == "http" and self.cluster.started:
            match = _TABLE_PATH.match(scope["path"])
            if match:
                table_id = int(match.group(1))
                if any(k == _FORWARDED for k, _ in scope["headers"]):
                    await self.cluster.http.run_forwarded(self.app, table_id, scope, receive, send)
                else:
                    await self.cluster.http.serve_http(self.app, table_id, scope, receive, send)
                return
        await self.app(scope, receive, send)


def _body_once(body: bytes) -> Receive:
    """An ASGI ``receive`` that gives ``body`` (read already), then waits forever."""
    delivered = False

    async def receive() -> MutableMapping[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # never: the request is answered before
        return {"type": "http.disconnect"}  # pragma: no cover

    return receive


def _json_answer(status: int, body: Any, headers: Collection[tuple[str, str]] = ()) -> Answer:
    return Answer(
        status,
        [("content-type", "application/json"), *headers],
        json.dumps(body).encode(),
    )


def _is_moved(answer: Answer) -> bool:
    """Whether ``answer`` says that the table is served by another process now."""
    if answer.status != 503:
        return False
    try:
        error = json.loads(answer.body)["error"]
    except (ValueError, TypeError, KeyError):
        return False
    return isinstance(error, dict) and error.get("code") == "table_moved"


@dataclass
class Answer:
    """An HTTP response, whole: what a process sends back for a forwarded request."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def to_json(self) -> dict[str, Any]:
        """The answer as a ``reply`` message holds it."""
        return {
            "status": self.status,
            "headers": [list(h) for h in self.headers],
            "body": base64.b64encode(self.body).decode("ascii"),
        }

    @classmethod
    def from_json(cls, reply: dict[str, Any]) -> Answer:
        """Read a ``reply`` message's answer."""
        return cls(
            int(reply["status"]),
            [(str(k), str(v)) for k, v in reply["headers"]],
            base64.b64decode(reply["body"]),
        )

    async def send(self, send: Send) -> None:
        """Send the answer through ASGI's ``send``."""
        await send(
            {
                "type": "http.response.start",
                "status": self.status,
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in self.headers],
            }
        )
        await send({"type": "http.response.body", "body": self.body})


async def _capture(app: App, scope: Scope, body: bytes) -> Answer:
    """Run ``app`` on a request whose body is ``body``; its whole answer."""
    answer = Answer(500, [], b"")

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer.status = int(message["status"])
            answer.headers = [
                (k.decode("latin-1"), v.decode("latin-1")) for k, v in message["headers"]
            ]
        elif message["type"] == "http.response.body":
            answer.body += message.get("body", b"")

    await app(scope, _body_once(body), send)
    return answer


class HttpForwarding:
    """Runs lobby requests about tables where the tables are (see the module)."""

    def __init__(self, host: ForwardingHost) -> None:
        self.host = host
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def reply(self, op: dict[str, Any]) -> None:
        """The answer (a ``reply`` message) to a request this process forwarded."""
        future = self._replies.pop(op["id"], None)
        if future is not None and not future.done():
            future.set_result(op)

    async def serve_http(
        self, app: App, table_id: int, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Answer an HTTP request about ``table_id`` at the process that owns the table.

        Run through ``app`` here if this process owns the table (or nobody does: it takes it),
        else forwarded to the owner. A request caught in the table's move (:func:`_is_moved`:
        the process that ran it no longer had the table; the owner was gone; this process's
        lease was lost while it ran) is run again where the table is then, until
        :data:`FORWARD_TIMEOUT` has passed; only then is it answered 503 ``table_moved`` (in
        the request's language, with ``Retry-After``). Trying again is safe: the table's lease
        is checked before anything is changed (:meth:`.LeaseStore.claim`), and a write whose
        lease was lost is refused whole (:meth:`.LeaseStore.fence`).
        """
        request = Request(scope, receive)
        try:
            body = await read_body(request, MAX_BODY_BYTES)
        except ClientDisconnect:
            return  # the client went away
        except LobbyError as exc:
            await self._error(exc, request).send(send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FORWARD_TIMEOUT
        pause = 0.05
        while True:
            owner = self.host.owner_for(table_id)
            if owner is None:
                answer = await self._run_here(app, scope, body, send)
                if answer is None:
                    return  # answered
            else:
                asked = await self._ask(owner, table_id, scope, body, deadline - loop.time())
                if asked is None:  # it may have run the request: not asked again
                    answer = self._error(
                        LobbyError(
                            503,
                            "table_moved",
                            ErrorText(
                                "the server process that serves table {table} did not answer "
                                "in time: try again in a moment",
                                table=table_id,
                            ),
                        ),
                        request,
                    )
                    break
                answer = asked
            if not _is_moved(answer):
                break
            left = deadline - loop.time()
            if left <= 0:
                answer = self._error(Elsewhere(table_id, owner or ""), request)
                break
            await asyncio.sleep(min(pause, left))  # the new owner renews the lease meanwhile
            pause = min(pause * 2, self.host.lease / 4)
        await answer.send(send)

    def _error(self, error: LobbyError, request: Request) -> Answer:
        """``error`` as the lobby answers it: JSON, in the request's language."""
        message = translator(language_of(request)).error(error)
        headers = []
        if error.code == "table_moved":
            headers.append(("retry-after", str(max(1, math.ceil(self.host.lease / 3)))))
        return _json_answer(
            error.status, {"error": {"code": error.code, "message": message}}, headers
        )

    async def _run_here(self, app: App, scope: Scope, body: bytes, send: Send) -> Answer | None:
        """Run a request through ``app``; ``None`` once answered, or an answer that says moved.

        An answer other than 503 is passed on as it comes; a 503 is held back until it is
        whole, to see whether it says ``table_moved``.
        """
        held = Answer(503, [], b"")
        passing = False

        async def hold(message: MutableMapping[str, Any]) -> None:
            nonlocal passing
            if passing:
                await send(message)
            elif message["type"] == "http.response.start":
                if message["status"] != 503:
                    passing = True
                    await send(message)
                else:
                    held.headers = [
                        (k.decode("latin-1"), v.decode("latin-1")) for k, v in message["headers"]
                    ]
            elif message["type"] == "http.response.body":
                held.body += message.get("body", b"")

        try:
            await app(scope, _body_once(body), hold)
        except (Elsewhere, LeaseLost) as exc:
            if passing:
                raise
            if isinstance(exc, LeaseLost) and self.host.manager is not None:
                self.host.manager.drop(exc.table_id)
            return _json_answer(503, {"error": {"code": "table_moved", "message": str(exc)}})
        if passing:
            return None
        if _is_moved(held):
            return held
        await held.send(send)
        return None

    async def run_forwarded(
        self, app: App, table_id: int, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Run an HTTP request another process forwarded here (and nowhere else).

        If this process turns out not to own ``table_id`` (any more) the answer is 503
        ``table_moved``, and the forwarding process tries again.
        """
        request = Request(scope, receive)
        started = False

        async def watch(message: MutableMapping[str, Any]) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await app(scope, receive, watch)
        except (Elsewhere, LeaseLost) as exc:
            if started:
                raise
            if isinstance(exc, LeaseLost) and self.host.manager is not None:
                self.host.manager.drop(exc.table_id)
            moved = exc if isinstance(exc, Elsewhere) else Elsewhere(table_id, "")
            await self._error(moved, request).send(send)

    async def _ask(
        self, owner: str, table_id: int, scope: Scope, body: bytes, timeout: float
    ) -> Answer | None:
        """Have ``owner`` run this request; its answer (``None``: none came within ``timeout``).

        An owner that is not listening (gone) answers at once that the table moved. While
        the answer is awaited, the lease is looked at every third of the lease time: if the
        table has moved on (the owner stalled and lost it), a request that only reads
        (``GET``, ``HEAD``) is answered as moved, to be run again where the table is now; any
        other gets ``None`` (the old owner may have run it before it stalled).
        """
        request_id = self.host.new_id()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._replies[request_id] = future
        delivered: asyncio.Future[bool] = loop.create_future()

        def published(count: int) -> None:
            if not delivered.done():
                delivered.set_result(count > 0)
            if not count and not future.done():
                future.set_result(_MOVED_REPLY)
                self.host.spawn(self.host.if_gone(owner))  # its tables are served again at once

        self.host.send(
            owner,
            json.dumps(
                {
                    "op": "http",
                    "id": request_id,
                    "worker": self.host.me,
                    "method": scope["method"],
                    "path": scope["path"],
                    "query": scope.get("query_string", b"").decode("latin-1"),
                    "headers": [
                        [k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]
                    ],
                    "body": base64.b64encode(body).decode("ascii"),
                }
            ),
            published,
        )
        end = loop.time() + timeout
        try:
            while True:
                left = end - loop.time()
                if left <= 0:
                    if not delivered.done():  # whether it reached the owner: known in a moment
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(asyncio.shield(delivered), 1.0)
                    if future.done():
                        return Answer.from_json(future.result())
                    return None
                try:
                    reply = await asyncio.wait_for(
                        asyncio.shield(future), min(left, self.host.lease / 3)
                    )
                except TimeoutError:
                    owners = await asyncio.to_thread(self.host.owners, [table_id])
                    if owners.get(table_id) == owner:
                        continue  # still the owner: it is only slow
                    if scope["method"] in ("GET", "HEAD"):
                        reply = _MOVED_REPLY
                    else:
                        return None
                return Answer.from_json(reply)
        finally:
            self._replies.pop(request_id, None)

    async def serve_op(self, op: dict[str, Any]) -> None:
        """Run a forwarded HTTP request (an ``http`` message) here; send the answer back."""
        app = self.host.app
        assert app is not None
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in op["headers"]]
        scope: dict[str, Any] = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": op["method"],
            "scheme": "http",
            "path": op["path"],
            "raw_path": op["path"].encode("utf-8"),
            "query_string": op["query"].encode("latin-1"),
            "root_path": "",
            "headers": [*headers, (_FORWARDED, b"1")],
            "client": ("127.0.0.1", 0),
            "server": ("127.0.0.1", 0),
        }
        try:
            answer = await _capture(app, scope, base64.b64decode(op["body"]))
        except Exception:
            log.exception("a forwarded request failed")
            answer = self._error(
                LobbyError(500, "internal", ErrorText("the server could not handle that request")),
                Request(scope),
            )
        self.host.send(
            op["worker"], json.dumps({"op": "reply", "id": op["id"], **answer.to_json()})
        )


#: a ``reply`` that says the table moved (for a request its owner never received or ran)
_MOVED_REPLY: dict[str, Any] = {
    "status": 503,
    "headers": [],
    "body": base64.b64encode(
        json.dumps({"error": {"code": "table_moved", "message": ""}}).encode()
    ).decode("ascii"),
}
