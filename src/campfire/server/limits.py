"""Limits on connections: how long a client may take, and how much of the server it may hold.

uvicorn reads a request as long as the client cares to send it: a request whose headers never
end, or whose body stops half way, held a connection (and a task waiting for the body) for as
long as the client kept the socket open. ``campfire serve`` (and ``make run``) serve HTTP
through :func:`protocol_class`, uvicorn's h11 protocol with these limits (``docs/protocol.md``,
"Limits"):

- **Headers** (:data:`HEADER_TIMEOUT`): a request's line and headers must arrive whole within
  that many seconds of the connection's opening (or of the end of the previous answer on a
  kept-alive connection); else the connection is closed. A WebSocket's upgrade request is such a
  request: its opening handshake cannot be held open longer.
- **Body** (:data:`BODY_TIMEOUT`): a request's body must arrive whole within that many seconds
  of its headers; else the request is answered 408 ``timeout`` (the JSON error of the lobby,
  in the request's language) if nothing was answered yet, and the connection is closed.
- **Announced length** (:data:`MAX_REQUEST_BODY_BYTES`, :class:`BodyLimitMiddleware`): a
  request whose ``Content-Length`` announces more than the largest body any route reads is
  answered 413 ``too_large`` at once, before a byte of the body is read, and the connection is
  closed; each route refuses a length over its own limit the same way (:func:`.lobby.read_body`).
- **Connections per address** (:data:`MAX_CONNECTIONS_PER_ADDRESS`): one client address (the
  TCP peer) holds at most that many connections, HTTP and WebSocket together, in each server
  process; one more is answered 429 ``too_many_connections`` and closed. The trusted proxies
  (``campfire serve --trusted-proxies``, by default 127.0.0.1 and ::1: :mod:`.proxy`) are not
  counted here: behind a reverse proxy every client arrives from the proxy's address. The
  clients they forward are counted by :class:`.proxy.ProxyMiddleware` instead, each by the
  address its ``X-Forwarded-For`` names, with the same cap.
- **Silent WebSockets** (:data:`WS_PING_INTERVAL`, :data:`WS_PING_TIMEOUT`): the server pings
  every WebSocket that often and closes one that has not answered within the time-out. Every
  WebSocket client answers pings by itself (browsers, ``websockets``), and the browser client
  sends a ``ping`` message every 2 seconds as well, so a spectator who only watches stays.
- **Closing** (:data:`CLOSE_GRACE`): a connection being closed gets that many seconds to take
  what was still to be sent to it; one that reads nothing (a full receive window) is then cut
  off, so a client that never reads cannot hold a closed connection and its buffers.

A table socket has no authentication step of its own: the seat token travels in the upgrade
request (a spectator sends none) and the seat is decided as soon as that request is read, so a
WebSocket "that never authenticates" is one whose upgrade request never ends (the header
time-out closes it) or one that goes silent (the pings close it).

With ``--workers N`` every process applies the same limits (:data:`LIMITS_VARIABLE` passes them
on) and counts its own connections per address.

This module imports nothing of the server extra at load (``campfire serve``'s parser reads its
defaults); the protocol class is made on demand.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
from dataclasses import asdict, dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from campfire.core import ErrorText

from .proxy import ProxySettings

__all__ = [
    "BODY_TIMEOUT",
    "CLOSE_GRACE",
    "HEADER_TIMEOUT",
    "LIMITS_VARIABLE",
    "MAX_CONNECTIONS_PER_ADDRESS",
    "MAX_REQUEST_BODY_BYTES",
    "WS_PING_INTERVAL",
    "WS_PING_TIMEOUT",
    "BodyLimitMiddleware",
    "Limits",
    "announced_length",
    "protocol_class",
]

log = logging.getLogger(__name__)

#: Seconds a client has to send a request's line and headers (``--header-timeout``).
HEADER_TIMEOUT = 10.0
#: Seconds a client has to send a request's body, from the end of its headers
#: (``--body-timeout``).
BODY_TIMEOUT = 30.0
#: Connections one client address may hold open in one server process; 0: no limit
#: (``--max-connections-per-address``). A browser keeps up to 6 HTTP connections and a
#: WebSocket per open table page.
MAX_CONNECTIONS_PER_ADDRESS = 64
#: The largest request body any route reads (a record sent to ``POST /api/replay``): a longer
#: announced ``Content-Length`` is refused at once, whatever the route.
MAX_REQUEST_BODY_BYTES = 1024 * 1024
#: Seconds between the server's pings on a WebSocket.
WS_PING_INTERVAL = 20.0
#: Seconds a WebSocket has to answer a ping before it is closed.
WS_PING_TIMEOUT = 20.0
#: Seconds a closing connection has to take what is still to be sent before it is cut off.
CLOSE_GRACE = 10.0
#: The environment variable that passes :class:`Limits` to ``--workers`` processes (JSON).
LIMITS_VARIABLE = "CAMPFIRE_SERVE_LIMITS"

# the ASGI types (Starlette's)
_Scope = Scope
_Message = Message
_Receive = Receive
_Send = Send
_App = ASGIApp


@dataclass(frozen=True)
class Limits:
    """The limits one server process applies to its connections (the defaults: the constants).

    >>> Limits(header_timeout=1).header_timeout
    1
    >>> Limits(body_timeout=0)
    Traceback (most recent call last):
    ...
    ValueError: body_timeout is a number of seconds above 0 (got 0)
    """

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    #: 0: no limit
    max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS
    ws_ping_interval: float = WS_PING_INTERVAL
    ws_ping_timeout: float = WS_PING_TIMEOUT
    close_grace: float = CLOSE_GRACE

    def __post_init__(self) -> None:
        for name in (
            "header_timeout",
            "body_timeout",
            "ws_ping_interval",
            "ws_ping_timeout",
            "close_grace",
        ):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or not value > 0:
                raise ValueError(f"{name} is a number of seconds above 0 (got {value!r})")
        cap = self.max_connections_per_address
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 0:
            raise ValueError(
                f"max_connections_per_address is a whole number, 0 (no limit) or more (got {cap!r})"
            )

    def to_json(self) -> str:
        """The limits as JSON (what :data:`LIMITS_VARIABLE` holds)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Limits:
        """The limits :meth:`to_json` wrote."""
        values = json.loads(text)
        if not isinstance(values, dict):
            raise ValueError(f"{LIMITS_VARIABLE} holds a JSON object (got {text[:40]!r})")
        return cls(**values)

    @classmethod
    def from_environment(cls) -> Limits:
        """The limits in :data:`LIMITS_VARIABLE`, else the defaults."""
        text = os.environ.get(LIMITS_VARIABLE)
        return cls.from_json(text) if text else cls()

    def uvicorn_options(
        self, *, by_name: bool = False, proxies: ProxySettings | None = None
    ) -> dict[str, Any]:
        """The ``uvicorn.run`` keyword arguments that apply these limits.

        ``by_name``: the HTTP protocol as an import path (``--workers``: the processes import
        it, reading the limits from :data:`LIMITS_VARIABLE` and the trusted proxies from
        :data:`.proxy.PROXY_VARIABLE`, which the caller sets). ``proxies``: the trusted proxies,
        left out of the count per address (default: :class:`.proxy.ProxySettings`'s). uvicorn's
        own reading of ``X-Forwarded-For`` is turned off: :class:`.proxy.ProxyMiddleware` reads
        it, from the proxies ``campfire serve --trusted-proxies`` names.
        """
        http: Any = (
            "campfire.server.limits:LIMITED_HTTP" if by_name else protocol_class(self, proxies)
        )
        return {
            "http": http,
            "proxy_headers": False,
            "ws_ping_interval": self.ws_ping_interval,
            "ws_ping_timeout": self.ws_ping_timeout,
        }


def announced_length(headers: list[tuple[bytes, bytes]] | Any) -> int | None:
    """The ``Content-Length`` a request announces (``None``: none, or not a number).

    >>> announced_length([(b"content-length", b"16777216")])
    16777216
    >>> announced_length([(b"host", b"x")]) is None
    True
    """
    for name, value in headers:
        if name.lower() == b"content-length":
            text = value.strip()
            return int(text) if text.isdigit() and len(text) <= 18 else None
    return None


def _json_error(code: str, message: ErrorText, scope: Any) -> bytes:
    """The lobby's JSON error, in the request's language (English without a request)."""
    from starlette.requests import HTTPConnection

    from campfire.i18n import translator

    from .lobby import language_of

    language = language_of(HTTPConnection(scope)) if scope is not None else "en"
    text = translator(language).error(message)
    return json.dumps({"error": {"code": code, "message": text}}).encode()


class BodyLimitMiddleware:
    """Answer 413 ``too_large`` at once to a request announcing a body over ``limit`` bytes.

    The announced ``Content-Length`` is read before the application runs: no byte of the body
    is waited for, and the answer closes the connection (the rest of the body is not read).
    """

    def __init__(self, app: _App, limit: int = MAX_REQUEST_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        """Refuse or pass on the request."""
        if scope["type"] == "http":
            length = announced_length(scope["headers"])
            if length is not None and length > self.limit:
                await _send_error(
                    send,
                    413,
                    "too_large",
                    ErrorText(
                        "a request body holds at most {limit} bytes (this one announces {length})",
                        limit=self.limit,
                        length=length,
                    ),
                    scope,
                )
                return
        from starlette.requests import ClientDisconnect

        # a client that went (or was sent) away before its body arrived: nobody to answer
        with contextlib.suppress(ClientDisconnect):
            await self.app(scope, receive, send)


async def _send_error(
    send: _Send, status: int, code: str, message: ErrorText, scope: _Scope
) -> None:
    body = _json_error(code, message, scope)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class _Lingering:
    """A transport whose :meth:`close` cuts the connection off after ``grace`` seconds.

    ``close`` waits for the data still to be sent; a peer that never reads would keep it (and
    the connection) forever. Everything else is the transport's own.
    """

    def __init__(self, transport: asyncio.Transport, grace: float) -> None:
        self._transport = transport
        self._grace = grace
        self._cut: asyncio.TimerHandle | None = None

    def close(self) -> None:
        """Close; cut the connection off if it is still open after the grace time."""
        closed = self._transport.is_closing()
        self._transport.close()
        if self._cut is None and not closed:
            loop = asyncio.get_running_loop()
            self._cut = loop.call_later(self._grace, self._transport.abort)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def protocol_class(limits: Limits, proxies: ProxySettings | None = None) -> type[asyncio.Protocol]:
    """The h11 HTTP protocol of uvicorn, applying ``limits`` (a class per call: its own counts).

    The count of connections per address belongs to the class: one per server process. The
    connections of ``proxies``' trusted proxies are not counted (:mod:`.proxy` counts the
    clients they forward).
    """
    trusted = proxies if proxies is not None else ProxySettings()
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    #: open connections per client address (those counted)
    open_connections: dict[str, int] = {}

    def release(host: str) -> None:
        left = open_connections.get(host, 0) - 1
        if left > 0:
            open_connections[host] = left
        else:
            open_connections.pop(host, None)

    class LimitedH11Protocol(H11Protocol):
        """uvicorn's h11 protocol with header and body time-outs and a cap per address."""

        limits_applied = limits

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._counted: str | None = None
            self._timer: asyncio.TimerHandle | None = None
            #: what the timer waits for: "headers", "body" or None
            self._waiting: str | None = None

        @classmethod
        def open_connections(cls) -> dict[str, int]:
            """The open connections of each counted address, in this process (a copy)."""
            return dict(open_connections)

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            lingering: Any = _Lingering(transport, limits.close_grace)  # type: ignore[arg-type]
            super().connection_made(lingering)
            host = self.client[0] if self.client else None
            cap = limits.max_connections_per_address
            if host is not None and cap and not trusted.trusts(host):
                if open_connections.get(host, 0) >= cap:
                    self._refuse_address(cap)
                    return
                open_connections[host] = open_connections.get(host, 0) + 1
                self._counted = host
            self._follow()

        def connection_lost(self, exc: Exception | None) -> None:
            self._arm(None)
            if self._counted is not None:
                release(self._counted)
                self._counted = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._follow()

        def _follow(self) -> None:
            """Arm the timer that the connection's state calls for."""
            current = self.transport.get_protocol()
            if current is not self:  # upgraded: the WebSocket takes the connection (and count)
                self._arm(None)
                self._hand_over(current)
                return
            if self.transport.is_closing():
                self._arm(None)
            elif self.conn.their_state is h11.IDLE:
                self._arm("headers")
            elif self.conn.their_state is h11.SEND_BODY:
                self._arm("body")
            else:
                self._arm(None)

        def _arm(self, waiting: str | None) -> None:
            if waiting == self._waiting:
                return  # the deadline runs from the start of the wait, not the latest byte
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._waiting = waiting
            if waiting is not None:
                delay = limits.header_timeout if waiting == "headers" else limits.body_timeout
                self._timer = self.loop.call_later(delay, self._timed_out)

        def _timed_out(self) -> None:
            waiting, self._waiting, self._timer = self._waiting, None, None
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if waiting == "body" and cycle is not None and not cycle.response_started:
                self._answer_late_body(cycle)
            else:
                log.info("%s: closed, its request's %s came too slowly", self.client, waiting)
            self.transport.close()

        def _answer_late_body(self, cycle: Any) -> None:
            """Answer 408 to a request whose body is late; its application gets a disconnect."""
            cycle.disconnected = True  # the application's answer, if any, is dropped
            cycle.message_event.set()
            body = _json_error(
                "timeout",
                ErrorText(
                    "the request's body did not arrive within {seconds} seconds",
                    seconds=format(limits.body_timeout, "g"),
                ),
                self.scope,
            )
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
            try:
                out = self.conn.send(h11.Response(status_code=408, headers=headers))
                out = (out or b"") + (self.conn.send(h11.Data(data=body)) or b"")
                out += self.conn.send(h11.EndOfMessage()) or b""
            except h11.LocalProtocolError:  # pragma: no cover - h11 refused: just close
                return
            self.transport.write(out)

        def _refuse_address(self, cap: int) -> None:
            body = _json_error(
                "too_many_connections",
                ErrorText(
                    "this address holds {limit} connections to the server already; "
                    "close one and try again",
                    limit=cap,
                ),
                None,
            )
            self.transport.write(
                b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
                b"content-length: %d\r\nretry-after: 10\r\nconnection: close\r\n\r\n%s"
                % (len(body), body)
            )
            self.transport.close()

        def _hand_over(self, protocol: asyncio.BaseProtocol) -> None:
            """Count the connection until the WebSocket that took it over is lost."""
            host, self._counted = self._counted, None
            if host is None:
                return
            lost = protocol.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                release(host)
                lost(exc)

            protocol.connection_lost = connection_lost  # type: ignore[method-assign]

    return LimitedH11Protocol


@functools.cache
def _limited_http() -> type[asyncio.Protocol]:
    return protocol_class(Limits.from_environment(), ProxySettings.from_environment())


def __getattr__(name: str) -> Any:
    """``LIMITED_HTTP``: the protocol class of the limits in :data:`LIMITS_VARIABLE`.

    The trusted proxies it leaves uncounted are those of :data:`.proxy.PROXY_VARIABLE`.

    With ``--workers``, uvicorn's processes import it by name (a class made in a function
    cannot be pickled).
    """
    if name == "LIMITED_HTTP":
        return _limited_http()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
