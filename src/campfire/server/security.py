"""Security headers on every answer, and per-address rate limits on the lobby and the sockets.

**Headers** (:class:`SecurityHeadersMiddleware`, on every HTTP answer: pages, static files,
JSON): a strict ``Content-Security-Policy`` (the client has no inline script or style: scripts,
styles, images and fonts come from the server itself, and connections go to the server itself,
its WebSocket included), ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` (no page is
shown inside another site's frame), ``X-Content-Type-Options: nosniff`` and
``Referrer-Policy: same-origin`` (another site never learns an address of ours; same-origin
requests keep their ``Origin``, which ``no-referrer`` would blank on a POST).

**Rate limits** (:class:`RateLimits`), per client address (:func:`client_address`), on top of
the per-connection message limit of each table socket (``app.RateLimit``):

- the lobby's writes (every ``POST`` under ``/api/``: a new table, join, leave, start, rematch,
  a replay upload): :attr:`RateLimits.lobby_per_minute` a minute, in bursts of as many; over
  it, 429 ``rate_limited`` with ``Retry-After`` (:class:`LobbyRateLimitMiddleware`);
- sign-ups, sign-ins and password resets (:mod:`.account_routes`):
  :attr:`RateLimits.account_per_minute` a minute, in bursts of as many; over it, 429
  ``rate_limited`` with ``Retry-After``;
- table-socket messages, all the address's connections together:
  :attr:`RateLimits.socket_per_second` a second, in bursts of twice as many; over it, the
  message is dropped with the ``rate_limited`` error frame (:meth:`AddressLimiter.take`).

The addresses of :attr:`RateLimits.exempt` are not limited (by default the loopback addresses:
this machine's own tools, and a reverse proxy on it that does not pass the client's address).
An IPv6 client is counted by its /64 network (one host commonly holds a whole /64). The table
of addresses is bounded (:data:`MAX_ADDRESSES`): an address whose bucket has filled up again is
forgotten (it would start full anyway). Each server process keeps its own counts.
"""

from __future__ import annotations

import ipaddress
import json
import math
import os
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from campfire.core import ErrorText

from .metrics import DEFAULT_ALLOW, Networks, address_in, parse_networks

__all__ = [
    "ACCOUNT_PER_MINUTE",
    "CONTENT_SECURITY_POLICY",
    "LOBBY_PER_MINUTE",
    "MAX_ADDRESSES",
    "RATE_LIMITS_VARIABLE",
    "READS_BY_POST",
    "SOCKET_PER_SECOND",
    "AddressLimiter",
    "LobbyRateLimitMiddleware",
    "RateLimits",
    "SecurityHeadersMiddleware",
    "client_address",
    "content_security_policy",
    "security_headers",
]

#: The ``POST`` routes that only read (their body holds seat tokens, which an address would
#: keep in logs): not lobby writes, not counted against ``--lobby-rate``.
READS_BY_POST = frozenset({"/api/turns"})
#: Lobby writes (``POST /api/...``) one address may make a minute (``--lobby-rate``).
LOBBY_PER_MINUTE = 60
#: Sign-ups, sign-ins and password resets one address may ask for a minute (``--account-rate``).
ACCOUNT_PER_MINUTE = 10
#: Table-socket messages one address may send a second, all its connections together
#: (``--socket-rate``); bursts of twice as many.
SOCKET_PER_SECOND = 200
#: The most addresses a limiter remembers at once.
MAX_ADDRESSES = 100_000
#: The environment variable that passes :class:`RateLimits` to ``--workers`` processes (JSON).
RATE_LIMITS_VARIABLE = "CAMPFIRE_SERVE_RATE_LIMITS"

# the ASGI types (Starlette's)
_Scope = Scope
_Message = Message
_Receive = Receive
_Send = Send
_App = ASGIApp


def client_address(scope: _Scope) -> str | None:
    """The address of the client of an HTTP request or WebSocket (``None``: unknown).

    The one place every per-address decision (rate limits, who may read ``/metrics``) asks;
    it is the ASGI scope's ``client`` (uvicorn's, which the proxies it trusts may have set from
    ``X-Forwarded-For``).
    """
    client = scope.get("client")
    return str(client[0]) if client else None


# ----- headers ----------------------------------------------------------------------------------

#: The Content-Security-Policy of every answer, but for the WebSocket sources of ``connect-src``.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "font-src 'self'; connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: A ``Host`` header that may be written into the policy (a name or an address, and a port).
_HOST = re.compile(r"^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$")


def content_security_policy(host: str | None) -> str:
    """The policy of an answer to a request for ``host`` (its ``Host`` header).

    ``connect-src`` names the WebSocket of the same host (``ws:`` and ``wss:``): ``'self'``
    covers it in browsers that follow CSP Level 3, not in older ones. A ``Host`` that is not a
    plain name or address is left out (never written into a header).

    >>> "connect-src 'self' ws://example.org:8000 wss://example.org:8000;" in (
    ...     content_security_policy("example.org:8000"))
    True
    >>> "connect-src 'self';" in content_security_policy("bad host; script-src *")
    True
    """
    sockets = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return CONTENT_SECURITY_POLICY.format(sockets=sockets)


def security_headers(host: str | None) -> list[tuple[bytes, bytes]]:
    """The security headers of an answer to a request for ``host``."""
    return [
        (b"content-security-policy", content_security_policy(host).encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"same-origin"),
    ]


class SecurityHeadersMiddleware:
    """Add :func:`security_headers` to every HTTP answer (those an application set stay)."""

    def __init__(self, app: _App) -> None:
        self.app = app
        #: the headers by Host (a few hosts in practice; bounded)
        self._cache: dict[bytes, list[tuple[bytes, bytes]]] = {}

    def _headers(self, scope: _Scope) -> list[tuple[bytes, bytes]]:
        host = b""
        for name, value in scope["headers"]:
            if name == b"host":
                host = value
                break
        found = self._cache.get(host)
        if found is None:
            if len(self._cache) >= 64:
                self._cache.clear()
            found = self._cache[host] = security_headers(host.decode("latin-1") or None)
        return found

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        """Pass the request on; add the headers to its answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self._headers(scope)

        async def send_with_headers(message: _Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in extra if h[0] not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


# ----- rate limits ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RateLimits:
    """The per-address rate limits of one server process (0: that limit is off).

    >>> RateLimits(lobby_per_minute=-1)
    Traceback (most recent call last):
    ...
    ValueError: lobby_per_minute is a whole number, 0 (no limit) or more (got -1)
    """

    #: lobby writes (``POST /api/...``) a minute, in bursts of as many
    lobby_per_minute: int = LOBBY_PER_MINUTE
    #: table-socket messages a second, all the address's connections together (bursts: twice)
    socket_per_second: int = SOCKET_PER_SECOND
    #: ``ADDR[,CIDR...]`` not limited (``none``: every address is)
    exempt: str = DEFAULT_ALLOW
    #: sign-ups, sign-ins and password resets a minute, in bursts of as many
    account_per_minute: int = ACCOUNT_PER_MINUTE

    def __post_init__(self) -> None:
        for name in ("lobby_per_minute", "socket_per_second", "account_per_minute"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} is a whole number, 0 (no limit) or more (got {value!r})")
        parse_networks(self.exempt)

    def to_json(self) -> str:
        """The limits as JSON (what :data:`RATE_LIMITS_VARIABLE` holds)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_environment(cls) -> RateLimits | None:
        """The limits in :data:`RATE_LIMITS_VARIABLE` (``None``: not set)."""
        text = os.environ.get(RATE_LIMITS_VARIABLE)
        if not text:
            return None
        values = json.loads(text)
        if not isinstance(values, dict):
            raise ValueError(f"{RATE_LIMITS_VARIABLE} holds a JSON object (got {text[:40]!r})")
        return cls(**values)

    def lobby(self, clock: Callable[[], float] = time.monotonic) -> AddressLimiter | None:
        """The limiter of the lobby's writes (``None``: off)."""
        if not self.lobby_per_minute:
            return None
        per_minute = self.lobby_per_minute
        return AddressLimiter(per_minute / 60.0, per_minute, self.exempt, clock)

    def accounts(self, clock: Callable[[], float] = time.monotonic) -> AddressLimiter | None:
        """The limiter of sign-ups, sign-ins and password resets (``None``: off)."""
        if not self.account_per_minute:
            return None
        per_minute = self.account_per_minute
        return AddressLimiter(per_minute / 60.0, per_minute, self.exempt, clock)

    def sockets(self, clock: Callable[[], float] = time.monotonic) -> AddressLimiter | None:
        """The limiter of table-socket messages (``None``: off)."""
        if not self.socket_per_second:
            return None
        rate = self.socket_per_second
        return AddressLimiter(float(rate), 2 * rate, self.exempt, clock)


def address_key(host: str | None) -> str | None:
    """What an address is counted as: itself, or its /64 network for IPv6 (``None``: unknown).

    >>> address_key("2001:db8:1:2:3:4:5:6"), address_key("192.0.2.7"), address_key("::ffff:1.2.3.4")
    ('2001:db8:1:2::/64', '192.0.2.7', '1.2.3.4')
    """
    if host is None:
        return None
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]  # not an address (a test client's name): itself
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))
    return str(address)


class AddressLimiter:
    """Token buckets by client address: ``rate`` a second on average, bursts of ``burst``.

    :meth:`take` spends one token of an address's bucket and says how many seconds to wait
    when it has none (0.0: go ahead). The table holds at most :data:`MAX_ADDRESSES` addresses:
    a sweep (every ``burst / rate`` seconds, or when it is full) forgets the addresses whose
    bucket has filled up again, and if it is still full, the oldest.

    >>> now = [0.0]
    >>> limit = AddressLimiter(1.0, 2, "none", clock=lambda: now[0])
    >>> [limit.take("192.0.2.1") for _ in range(3)], limit.take("192.0.2.2")
    ([0.0, 0.0, 1.0], 0.0)
    >>> now[0] = 1.0
    >>> limit.take("192.0.2.1")
    0.0
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        exempt: str = DEFAULT_ALLOW,
        clock: Callable[[], float] = time.monotonic,
        max_addresses: int = MAX_ADDRESSES,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.exempt: Networks = parse_networks(exempt)
        self.max_addresses = max_addresses
        #: address key -> (tokens, when they were counted)
        self.buckets: dict[str, tuple[float, float]] = {}
        #: seconds an empty bucket takes to fill up
        self.refill = burst / rate
        self._swept = clock()
        self._exempt_cache: dict[str, bool] = {}

    def is_exempt(self, host: str | None) -> bool:
        """Whether ``host`` is not limited."""
        if host is None or not self.exempt:
            return False
        found = self._exempt_cache.get(host)
        if found is None:
            if len(self._exempt_cache) >= 1024:
                self._exempt_cache.clear()
            found = self._exempt_cache[host] = address_in(host, self.exempt)
        return found

    def take(self, key: str | None) -> float:
        """Spend one token of ``key``'s bucket (an :func:`address_key`); seconds to wait, or 0.

        An unknown address (``None``) is not limited.
        """
        if key is None:
            return 0.0
        now = self.clock()
        if now - self._swept > self.refill or len(self.buckets) >= self.max_addresses:
            self.sweep(now)
        tokens, then = self.buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self.buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self.buckets[key] = (tokens - 1.0, now)
        return 0.0

    def sweep(self, now: float) -> None:
        """Forget the addresses whose bucket is full again; the oldest ones if still too many."""
        self._swept = now
        full = now - self.refill
        self.buckets = {k: v for k, v in self.buckets.items() if v[1] > full}
        excess = len(self.buckets) - self.max_addresses // 2
        if len(self.buckets) >= self.max_addresses and excess > 0:
            for key in list(self.buckets)[:excess]:  # (insertion order: the oldest first)
                del self.buckets[key]


class Bucket:
    """One token bucket: ``burst`` tokens at once, then one every ``every`` seconds.

    The clock is the caller's (``now`` in seconds). Chat lines and undo requests are limited
    with it.

    >>> bucket = Bucket(2, 10.0, now=0.0)
    >>> bucket.take(0.0), bucket.take(0.0), bucket.take(0.0)
    (0.0, 0.0, 10.0)
    >>> bucket.peek(5.0), bucket.full(20.0)
    (5.0, True)
    """

    __slots__ = ("at", "burst", "every", "tokens")

    def __init__(self, burst: int, every: float, now: float) -> None:
        self.burst = burst
        self.every = every
        self.tokens = float(burst)
        self.at = now

    def _now(self, now: float) -> float:
        return min(float(self.burst), self.tokens + (now - self.at) / self.every)

    def peek(self, now: float) -> float:
        """What :meth:`take` would answer, without taking."""
        tokens = self._now(now)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) * self.every

    def take(self, now: float) -> float:
        """Take a token: 0.0 if there was one, else the seconds until there is one."""
        self.tokens, self.at = self._now(now), now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) * self.every

    def full(self, now: float) -> bool:
        """Whether the bucket is full again (one that is can be forgotten and made anew)."""
        return self._now(now) >= self.burst


class LobbyRateLimitMiddleware:
    """Answer 429 ``rate_limited`` (with ``Retry-After``) to an address over its lobby writes.

    Counts every ``POST`` under ``/api/`` but :data:`READS_BY_POST` (reads that carry seat
    tokens in their body, asked every half minute by an open lobby page) of the addresses
    ``limiter`` does not exempt; the answer is the lobby's JSON error in the request's
    language. ``on_refused`` is told of each refusal (the metrics count it).
    """

    def __init__(
        self,
        app: _App,
        limiter: AddressLimiter,
        on_refused: Callable[[], None] = lambda: None,
    ) -> None:
        self.app = app
        self.limiter = limiter
        self.on_refused = on_refused

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        """Refuse or pass on the request."""
        if (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and scope["path"].startswith("/api/")
            and scope["path"] not in READS_BY_POST
        ):
            host = client_address(scope)
            if not self.limiter.is_exempt(host):
                wait = self.limiter.take(address_key(host))
                if wait > 0:
                    self.on_refused()
                    await _too_many(send, scope, self.limiter, wait)
                    return
        await self.app(scope, receive, send)


async def _too_many(send: _Send, scope: _Scope, limiter: AddressLimiter, wait: float) -> None:
    from .limits import _json_error

    per_minute = round(limiter.rate * 60)
    body = _json_error(
        "rate_limited",
        ErrorText(
            "too many requests from your address: at most {limit} a minute; "
            "try again in {seconds} s",
            limit=per_minute,
            seconds=math.ceil(wait),
        ),
        scope,
    )
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(math.ceil(wait)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
