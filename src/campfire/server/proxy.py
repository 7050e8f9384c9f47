"""Behind a reverse proxy: whose ``X-Forwarded-For`` to believe, and which pages may open sockets.

``campfire serve --trusted-proxies ADDR[,ADDR]`` names the proxies (addresses or networks,
``10.0.0.0/8``; by default the loopback addresses 127.0.0.1 and ::1, where a proxy on the same
machine connects from) and ``--public-origin https://games.example.org`` the address people
reach the server at (``docs/deploy.md``, "Behind a reverse proxy"). :class:`ProxyMiddleware`,
the application's outermost layer, applies them to every request and WebSocket:

- **The client's address.** A connection from a trusted proxy is a client of that proxy: its
  ``X-Forwarded-For`` is read from the right (each trusted proxy appends the address it was
  connected from; nginx: ``$proxy_add_x_forwarded_for``), skipping trusted addresses, and the
  first address that is not trusted is the client's (:func:`forwarded_client`). Everything
  after the middleware sees that address as the connection's (``scope["client"]``): uvicorn's
  access log, the limits, the logs. ``X-Forwarded-Proto`` (``http`` or ``https``) gives the
  scheme the client used (``wss`` for a WebSocket behind ``https``). A connection from any other
  address is its own client: what it says in those headers is ignored.
- **Connections per address.** The per-address cap of :mod:`.limits` counts TCP peers, leaving
  the trusted proxies out (every client of the proxy arrives from its address); the middleware
  counts each forwarded client's requests and WebSockets in flight instead, with the same cap
  (``--max-connections-per-address``), and answers one more 429 ``too_many_connections``. A
  proxy that names no client (no ``X-Forwarded-For``: its own health check) is not counted.
- **The WebSocket's Origin.** With a public origin, a table socket whose upgrade request
  carries an ``Origin`` other than it (a page of another site, in a browser) is refused: HTTP
  403 ``bad_origin`` (the lobby's JSON error) instead of the upgrade. A client that sends no
  ``Origin`` (not a browser: the terminal app, bots, scripts) is let in; a browser always sends
  one. Without a public origin, no Origin is checked (as before: the socket's only credential is
  the seat token in its address, which another site's page does not have).

The server builds no absolute link today (the browser client makes its invitation links from
the address it was loaded from, which behind the proxy is the public one), so the public origin
is used by the Origin check and the start-up log line that says where the server is public;
:meth:`ProxySettings.absolute` is the one way to make such a link when one is needed.

With ``--workers N`` every process reads the settings from :data:`PROXY_VARIABLE`. This module
imports nothing of the server extra at load (``campfire serve``'s parser reads its defaults).
"""

from __future__ import annotations

import contextvars
import functools
import ipaddress
import json
import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from campfire.core import ErrorText, OptionError

__all__ = [
    "DEFAULT_TRUSTED_PROXIES",
    "MAX_FORWARDED_HOPS",
    "PROXY_VARIABLE",
    "ProxyMiddleware",
    "ProxySettings",
    "forwarded_client",
    "forwarded_scheme",
    "parse_origin",
    "parse_trusted_proxies",
]

log = logging.getLogger(__name__)

#: The proxies trusted unless ``--trusted-proxies`` says otherwise: this machine.
DEFAULT_TRUSTED_PROXIES = ("127.0.0.1", "::1")
#: The environment variable that passes :class:`ProxySettings` to ``--workers`` processes.
PROXY_VARIABLE = "CAMPFIRE_SERVE_PROXY"
#: ``X-Forwarded-For`` addresses read at most (from the right): a chain of proxies is short.
MAX_FORWARDED_HOPS = 16

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# the ASGI types (Starlette's)
_Scope = Scope
_Message = Message
_Receive = Receive
_Send = Send
_App = ASGIApp


def parse_trusted_proxies(text: str) -> tuple[str, ...]:
    """``--trusted-proxies``: addresses or networks, separated by commas (empty: none).

    >>> parse_trusted_proxies("10.0.0.5, 192.168.0.0/16,::1")
    ('10.0.0.5', '192.168.0.0/16', '::1')
    >>> parse_trusted_proxies("")
    ()
    >>> parse_trusted_proxies("proxy.example.org")
    Traceback (most recent call last):
    ...
    campfire.core.errors.OptionError: a trusted proxy is an IP address or a network such as ...
    """
    entries = tuple(entry.strip() for entry in text.split(",") if entry.strip())
    _networks(entries)
    return entries


def _networks(entries: Iterable[str]) -> tuple[Network, ...]:
    out = []
    for entry in entries:
        try:
            out.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise OptionError(
                ErrorText(
                    "a trusted proxy is an IP address or a network such as 10.0.0.0/8 (got {got})",
                    got=repr(entry[:60]),
                )
            ) from None
    return tuple(out)


def parse_origin(text: str) -> str:
    """``--public-origin``: ``https://HOST[:PORT]`` (or ``http://``), as a browser writes it.

    The scheme and the host are lower-cased and the scheme's own port left out, so the result
    compares equal to a browser's ``Origin`` header.

    >>> parse_origin("HTTPS://Games.Example.org:443/")
    'https://games.example.org'
    >>> parse_origin("http://[::1]:8080")
    'http://[::1]:8080'
    >>> parse_origin("games.example.org")
    Traceback (most recent call last):
    ...
    campfire.core.errors.OptionError: the public origin is ... (got 'games.example.org')
    """
    problem = OptionError(
        ErrorText(
            "the public origin is https://HOST or https://HOST:PORT (http:// too), "
            "without a path (got {got})",
            got=repr(text[:80]),
        )
    )
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        raise problem from None
    scheme = parts.scheme.lower()
    if (
        scheme not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        raise problem
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    if port is not None and port != (443 if scheme == "https" else 80):
        host = f"{host}:{port}"
    return f"{scheme}://{host}"


def _address(text: str) -> str | None:
    """An ``X-Forwarded-For`` entry as an address (``None``: not one). ``[v6]`` is unwrapped."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def forwarded_client(
    values: Iterable[str], trusts: Callable[[str], bool], hops: int = MAX_FORWARDED_HOPS
) -> str | None:
    """The client an ``X-Forwarded-For`` chain names, read from the right (``None``: none).

    Each trusted proxy appended the address it was connected from, so the rightmost address
    that is not trusted is the client's; what lies further left was written by the client and
    is not believed. An entry that is not an address ends the reading: the last address read
    stands. Only the ``hops`` rightmost entries are read.

    >>> trusted = {"10.0.0.1", "10.0.0.2"}.__contains__
    >>> forwarded_client(["1.2.3.4, 5.6.7.8"], trusted)
    '5.6.7.8'
    >>> forwarded_client(["6.6.6.6, 5.6.7.8, 10.0.0.2"], trusted)
    '5.6.7.8'
    >>> forwarded_client(["nonsense, 10.0.0.2"], trusted)
    '10.0.0.2'
    >>> forwarded_client([], trusted) is None
    True
    """
    entries = [entry for value in values for entry in value.split(",")]
    client = None
    for entry in reversed(entries[-hops:]):
        address = _address(entry)
        if address is None:
            break
        client = address
        if not trusts(address):
            break
    return client


def forwarded_scheme(values: Iterable[str], websocket: bool) -> str | None:
    """The scheme an ``X-Forwarded-Proto`` names (the nearest proxy's, the last value).

    ``http`` or ``https`` (``ws``/``wss`` for a WebSocket); ``None`` for anything else.

    >>> forwarded_scheme(["https"], websocket=True), forwarded_scheme(["HTTP"], websocket=False)
    ('wss', 'http')
    >>> forwarded_scheme(["gopher"], websocket=False) is None
    True
    """
    entries = [entry.strip().lower() for value in values for entry in value.split(",")]
    if not entries or entries[-1] not in ("http", "https"):
        return None
    secure = entries[-1] == "https"
    if websocket:
        return "wss" if secure else "ws"
    return "https" if secure else "http"


@dataclass(frozen=True)
class ProxySettings:
    """The trusted proxies and the public origin of one server.

    The defaults: no proxy but this machine, no public origin.

    >>> settings = ProxySettings(("10.0.0.0/8",), "https://Games.Example.org")
    >>> settings.public_origin, settings.trusts("10.1.2.3"), settings.trusts("8.8.8.8")
    ('https://games.example.org', True, False)
    >>> settings.absolute("/t/12")
    'https://games.example.org/t/12'
    """

    trusted_proxies: tuple[str, ...] = DEFAULT_TRUSTED_PROXIES
    #: ``https://HOST[:PORT]``; ``None``: no Origin check, no absolute links
    public_origin: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "trusted_proxies", tuple(self.trusted_proxies))
        _networks(self.trusted_proxies)  # (a ValueError that says what is allowed)
        if self.public_origin is not None:
            object.__setattr__(self, "public_origin", parse_origin(self.public_origin))

    @functools.cached_property
    def networks(self) -> tuple[Network, ...]:
        """The trusted proxies as networks."""
        return _networks(self.trusted_proxies)

    def trusts(self, host: str) -> bool:
        """Whether ``host`` (a connection's peer) is a trusted proxy."""
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False  # a socket path or a name: not an address a TCP peer has
        return any(address in network for network in self.networks)

    def origin_allowed(self, origin: str | None) -> bool:
        """Whether a WebSocket with this ``Origin`` header (``None``: none) may open.

        >>> settings = ProxySettings(public_origin="https://games.example.org")
        >>> [settings.origin_allowed(o) for o in (None, "https://games.example.org",
        ...  "https://GAMES.example.org:443", "https://evil.example", "null")]
        [True, True, True, False, False]
        >>> ProxySettings().origin_allowed("https://evil.example")
        True
        """
        if self.public_origin is None or origin is None:
            return True
        try:
            return parse_origin(origin) == self.public_origin
        except ValueError:
            return False  # "null" (a sandboxed page, a file) or garbage: not the public site

    def absolute(self, path: str) -> str | None:
        """An absolute link to ``path`` (``/t/12``) at the public origin (``None``: none set)."""
        return None if self.public_origin is None else self.public_origin + path

    def to_json(self) -> str:
        """The settings as JSON (what :data:`PROXY_VARIABLE` holds)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ProxySettings:
        """The settings :meth:`to_json` wrote."""
        values = json.loads(text)
        if not isinstance(values, dict):
            raise ValueError(f"{PROXY_VARIABLE} holds a JSON object (got {text[:40]!r})")
        return cls(
            trusted_proxies=tuple(values.get("trusted_proxies", DEFAULT_TRUSTED_PROXIES)),
            public_origin=values.get("public_origin"),
        )

    @classmethod
    def from_environment(cls) -> ProxySettings:
        """The settings in :data:`PROXY_VARIABLE`, else the defaults."""
        text = os.environ.get(PROXY_VARIABLE)
        return cls.from_json(text) if text else cls()


#: set in the task of a WebSocket refused with an HTTP answer (:func:`_deny`)
_denied: contextvars.ContextVar[bool] = contextvars.ContextVar("campfire_denied", default=False)
#: what uvicorn's WebSocket protocol logs, as an error, after any HTTP answer to an upgrade
_NOT_HANDSHAKEN = "ASGI callable returned without completing handshake."


def _not_a_refusal(record: logging.LogRecord) -> bool:
    """A log filter: drop uvicorn's error about a WebSocket refused on purpose (:func:`_deny`).

    uvicorn (0.54, its sans-I/O WebSocket protocol) logs that error once the application has
    answered an upgrade with an HTTP response instead of accepting it; the answer was sent
    whole. It is logged in the refused connection's task, right after the application returned,
    where :data:`_denied` is still set: every other such error is kept.
    """
    return not (_denied.get() and record.msg == _NOT_HANDSHAKEN)


def _header(scope: _Scope, name: bytes) -> list[str]:
    return [value.decode("latin-1") for key, value in scope["headers"] if key.lower() == name]


class ProxyMiddleware:
    """The application's outermost layer: the real client, its scheme, the socket's Origin.

    See the module's description. ``max_connections_per_address`` (0: no limit) caps the
    requests and WebSockets in flight of each forwarded client in this process.
    """

    def __init__(
        self, app: _App, settings: ProxySettings | None = None, max_connections_per_address: int = 0
    ) -> None:
        self.app = app
        self.settings = settings if settings is not None else ProxySettings()
        self.cap = max_connections_per_address
        #: requests and WebSockets in flight per forwarded client (those counted)
        self.open: dict[str, int] = {}
        uvicorn_log = logging.getLogger("uvicorn.error")
        if _not_a_refusal not in uvicorn_log.filters:
            uvicorn_log.addFilter(_not_a_refusal)

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        """Rewrite the client and scheme, refuse a foreign Origin or one connection too many."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        counted = self._forward(scope)
        if kind == "websocket" and not self._origin_ok(scope):
            await self._refuse_origin(scope, receive, send)
            return
        if counted is None or not self.cap:
            await self.app(scope, receive, send)
            return
        if self.open.get(counted, 0) >= self.cap:
            await self._refuse_connection(scope, receive, send)
            return
        self.open[counted] = self.open.get(counted, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open[counted] - 1
            if left > 0:
                self.open[counted] = left
            else:
                del self.open[counted]

    def _forward(self, scope: _Scope) -> str | None:
        """Put the forwarded client in ``scope``; the address to count (``None``: none)."""
        peer = scope.get("client")
        if not peer or not self.settings.trusts(peer[0]):
            return None
        scope["campfire.proxy"] = peer[0]  # the proxy the request came through
        scheme = forwarded_scheme(
            _header(scope, b"x-forwarded-proto"), websocket=scope["type"] == "websocket"
        )
        if scheme is not None:
            scope["scheme"] = scheme
        client = forwarded_client(_header(scope, b"x-forwarded-for"), self.settings.trusts)
        if client is None:
            return None  # the proxy's own request (a health check): nobody to count
        scope["client"] = (client, 0)
        return None if self.settings.trusts(client) else client

    def _origin_ok(self, scope: _Scope) -> bool:
        origins = _header(scope, b"origin")
        if len(origins) > 1:
            return False
        return self.settings.origin_allowed(origins[0] if origins else None)

    async def _refuse_origin(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        origin = (_header(scope, b"origin") or [""])[0]
        client = scope.get("client")
        log.info(
            "%s: a table socket refused: its Origin %r is not the public origin %s",
            client[0] if client else "?",
            origin[:100],
            self.settings.public_origin,
        )
        message = ErrorText(
            "this page's origin {origin} may not open the server's sockets; "
            "only {public} may (and clients that send no Origin)",
            origin=repr(origin[:100]),
            public=self.settings.public_origin or "",
        )
        await _deny(scope, receive, send, 403, "bad_origin", message)

    async def _refuse_connection(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        message = ErrorText(
            "this address holds {limit} connections to the server already; close one and try again",
            limit=self.cap,
        )
        await _deny(scope, receive, send, 429, "too_many_connections", message)


async def _deny(
    scope: _Scope, receive: _Receive, send: _Send, status: int, code: str, message: ErrorText
) -> None:
    """Answer a request, or a WebSocket's upgrade, with the lobby's JSON error."""
    from .limits import _json_error

    body = _json_error(code, message, scope)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if status == 429:
        headers.append((b"retry-after", b"10"))
    if scope["type"] == "http":
        headers.append((b"connection", b"close"))  # the body, if any, is not read
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await receive()  # websocket.connect
    if "websocket.http.response" in (scope.get("extensions") or {}):
        _denied.set(True)
        await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:  # pragma: no cover - a server without denial responses answers 403, without a body
        await send({"type": "websocket.close", "code": 1008})
