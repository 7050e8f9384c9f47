"""The ASGI application: ``create_app(database_url=...)``.

At start (the ASGI lifespan) the database is migrated to the newest schema and every unfinished
table is rebuilt from its action log; ``GET /healthz`` answers 200 from then on. While it runs
the process holds the database's :class:`.admin.ServerLock` (shared) and carries out the
``campfire admin close`` requests it finds in the database (:func:`.admin.watch_closes`). The
lobby is in :mod:`.lobby`, the table protocol at ``/ws/tables/{id}`` here; ``docs/protocol.md``
describes both.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from campfire.core import ErrorText, OptionError

from . import protocol
from .account_routes import routes as account_routes
from .account_service import AccountService, AccountSettings
from .admin import ServerLock, watch_closes
from .cluster import DEFAULT_REDIS_URL, LEASE_SECONDS, Cluster, Elsewhere, ForwardMiddleware
from .db import default_database_url, make_engine, migrate, session_factory
from .graceful import drain_tables, register_drain
from .learn import routes as learn_routes
from .limits import MAX_CONNECTIONS_PER_ADDRESS, BodyLimitMiddleware, Limits
from .lobby import language_of
from .lobby import routes as lobby_routes
from .logs import LogContextMiddleware, set_seat
from .metrics import MetricsConfig, NoMetrics, make_metrics, metrics_route, sample_forever
from .moderation import Moderation
from .pages import not_found
from .proxy import ProxyMiddleware, ProxySettings
from .quick import QuickMatch
from .quick import routes as quick_routes
from .rating_routes import routes as rating_routes
from .replay import routes as replay_routes
from .review_api import routes as review_routes
from .security import (
    AddressLimiter,
    LobbyRateLimitMiddleware,
    RateLimits,
    SecurityHeadersMiddleware,
    address_key,
    client_address,
)
from .table_socket import attach, dispatch, refuse
from .tables import Connection, TableManager
from .turn_routes import routes as turn_routes
from .web import routes as web_routes
from .wire import encode

__all__ = ["RateLimit", "app_from_environment", "attach", "create_app", "dispatch"]

log = logging.getLogger(__name__)


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts of up to ``burst``.

    :meth:`take` answers ``"ok"``, ``"refuse"`` (the message is dropped with an error frame) or
    ``"close"`` (the client went on sending after ``burst`` refusals: flooding).

    >>> now = [0.0]
    >>> bucket = RateLimit(1.0, 2, clock=lambda: now[0])
    >>> [bucket.take() for _ in range(5)]
    ['ok', 'ok', 'refuse', 'refuse', 'close']
    >>> now[0] = 10.0
    >>> bucket.take()
    'ok'
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> str:
        """Spend one message's worth."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        self.tokens -= 1
        if self.tokens >= 0:
            return "ok"
        return "refuse" if self.tokens >= -self.burst else "close"


def create_app(
    database_url: str | None = None,
    *,
    seeds: Callable[[], int] | None = None,
    rate: float = 50.0,
    burst: int = 100,
    clock: Callable[[], float] = time.monotonic,
    wall: Callable[[], float] = time.time,
    bot_workers: int = 2,
    redis_url: str | None = None,
    lease_seconds: float = LEASE_SECONDS,
    proxy: ProxySettings | None = None,
    max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
    metrics: MetricsConfig | None = None,
    rate_limits: RateLimits | None = None,
    accounts: AccountSettings | None = None,
    review_iterations: int | None = None,
) -> Starlette:
    """The Campfire server as an ASGI application.

    ``database_url`` defaults to the SQLite file in the user data directory. ``seeds`` draws
    each new game's seed (default: a secret random one; tests pass a seeded generator).
    ``rate`` and ``burst`` limit the messages of one WebSocket connection; ``clock`` measures
    for that limit and the tables' clocks (monotonic seconds); ``wall`` is the wall clock a
    turn-based table's deadlines are stored in (unix seconds); ``bot_workers`` is the number
    of threads bots think in.

    ``redis_url`` makes this process one of several that share the database (PostgreSQL only)
    and meet at that Redis server: each table is owned by one of them at a time, for leases of
    ``lease_seconds`` (:mod:`.cluster`).

    ``proxy``: the trusted proxies and the public origin (default: the loopback addresses, no
    public origin): the clients they forward are seen by their own addresses, counted against
    ``max_connections_per_address`` (0: no limit), and a table socket opened by a page of
    another origin is refused (:mod:`.proxy`).

    ``metrics`` says whether the server counts and who may read ``GET /metrics`` (default:
    counted, readable from this machine; :mod:`.metrics`). ``rate_limits`` are the per-address
    limits of the lobby's writes and the table sockets' messages (default: none; ``campfire
    serve`` applies :class:`.security.RateLimits`' defaults). Every HTTP answer carries the
    security headers (:mod:`.security`).

    ``accounts``: the optional accounts' secret key, e-mail and hashing cost (default: the key
    in the data folder, no e-mail; :mod:`.account_service`, ``docs/accounts.md``).
    ``review_iterations``: the search's iterations per decision of a post-game review
    (``None``: each game's own; :mod:`.reviews`).
    """
    url = database_url or default_database_url()
    settings = proxy if proxy is not None else ProxySettings()
    engine = make_engine(url)
    sessions = session_factory(engine)
    cluster: Cluster | None = None
    if redis_url is not None:
        if engine.dialect.name != "postgresql":
            raise OptionError(
                ErrorText(
                    "several server processes need PostgreSQL (--database-url "
                    "postgresql+psycopg://USER@HOST:PORT/DBNAME), not {backend}: they share the "
                    "database, and an SQLite file belongs to one process",
                    backend=engine.dialect.name,
                )
            )
        cluster = Cluster(sessions, redis_url, lease_seconds)
    metrics_config = metrics if metrics is not None else MetricsConfig()
    counts = make_metrics(metrics_config)
    limits = rate_limits if rate_limits is not None else RateLimits(0, 0, account_per_minute=0)
    lobby_limiter = limits.lobby(clock)
    socket_limiter = limits.sockets(clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server_lock = ServerLock(engine)  # tells ``campfire admin`` that a server runs here
        await asyncio.to_thread(server_lock.hold_shared)
        await asyncio.to_thread(migrate, engine, cluster is not None)
        manager = TableManager(sessions, bot_workers=bot_workers, clock=clock, wall=wall)
        manager.reviews.iterations = review_iterations
        if app.state.accounts.mailer is not None:  # "your turn" by e-mail (turns.py)
            manager.turns.notices = app.state.accounts
        manager.metrics = manager.writer.metrics = counts
        app.state.manager = manager
        app.state.quick.ratings = manager.game_ratings  # Play now pairs people by their ratings
        if cluster is not None:
            await cluster.start(manager, app)
        recovered = manager.recover()
        log.info("campfire serve: database ready, %d unfinished tables rebuilt", recovered)
        manager.spawn(_sweep_ratings(manager))  # games a stop left unrated (rated_tables.py)
        manager.spawn(manager.turns.run())  # turn-based tables: deadlines, idle ones dropped
        if settings.public_origin is not None:
            log.info(
                "campfire serve: public at %s (trusted proxies: %s)",
                settings.absolute("/"),
                ", ".join(settings.trusted_proxies) or "none",
            )
        closes = asyncio.get_running_loop().create_task(watch_closes(manager))

        async def drain() -> None:
            # a graceful stop (SIGTERM, graceful.GracefulServer) before connections are closed:
            # the actions in flight are committed, the tables given up, their clients told 1012
            app.state.ready = False
            app.state.stopping = True  # a socket accepted from now on is told to reconnect
            await drain_tables(manager, cluster)

        unregister = register_drain(drain)
        app.state.ready = True
        sampler = asyncio.get_running_loop().create_task(
            sample_forever(counts, lambda: getattr(app.state, "manager", None))
        )
        try:
            yield
        finally:
            unregister()
            app.state.ready = False
            closes.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await closes
            sampler.cancel()
            await manager.close()
            if cluster is not None:
                await cluster.close()
            server_lock.release()
            engine.dispose()
            counts.close()

    async def healthz(request: Request) -> Response:
        if getattr(request.app.state, "ready", False):
            return JSONResponse({"status": "ok"})
        return JSONResponse({"status": "starting"}, status_code=503)

    async def table_socket(websocket: WebSocket) -> None:
        await _serve_socket(websocket, RateLimit(rate, burst, clock), socket_limiter)

    app = Starlette(
        routes=[
            Route("/healthz", healthz, methods=["GET"]),
            Route("/metrics", metrics_route(metrics_config, client_address), methods=["GET"]),
            *lobby_routes(),
            *account_routes(),
            *rating_routes(),
            *quick_routes(),
            *turn_routes(),
            *replay_routes(),
            *learn_routes(),
            *review_routes(),
            WebSocketRoute("/ws/tables/{table_id}", table_socket),
            *web_routes(),
        ],
        lifespan=lifespan,
        exception_handlers={404: not_found},  # a page's address that leads nowhere: a page
        middleware=[
            Middleware(SecurityHeadersMiddleware),  # on every answer, the refusals' too
            # next: everything after it sees the client's own address, not the proxy's
            Middleware(
                ProxyMiddleware,
                settings=settings,
                max_connections_per_address=max_connections_per_address,
            ),
            Middleware(LogContextMiddleware),  # the request's or connection's ids in its logs
            Middleware(BodyLimitMiddleware),  # before forwarding: no process reads a refused body
            *(
                [
                    Middleware(
                        LobbyRateLimitMiddleware,
                        limiter=lobby_limiter,
                        on_refused=lambda: counts.error("rate_limited", "http"),
                    )
                ]
                if lobby_limiter is not None
                else []
            ),
            *([Middleware(ForwardMiddleware, cluster=cluster)] if cluster is not None else []),
        ],
    )
    app.state.metrics = counts
    app.state.accounts = AccountService.build(
        sessions,
        accounts if accounts is not None else AccountSettings(),
        settings.public_origin,
        limits.accounts(clock),
    )
    app.state.quick = QuickMatch(sessions, Moderation(sessions))
    app.state.ready = False
    app.state.database_url = url
    app.state.next_seed = seeds if seeds is not None else lambda: secrets.randbits(63)
    return app


async def _sweep_ratings(manager: TableManager) -> None:
    """Rate the finished games of rated tables that were not rated (the server stopped)."""
    done = await asyncio.to_thread(manager.game_ratings.sweep)
    if done:
        log.info("campfire serve: %d finished rated games rated at start", done)


#: The query parameters of a table socket (``docs/protocol.md``, "Table socket").
SOCKET_PARAMETERS = ("token", "since", "lang", "patch", "view", "presence")


def _since(raw: str | None) -> int | None:
    """The ``since`` query parameter (``None``: absent).

    :class:`.protocol.ProtocolError` ``bad_request`` unless it is a whole number written with
    0–9, at most 9 digits: a client that sends a broken ``since`` is told so rather than sent
    a snapshot without the steps it asked for.
    """
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise protocol.ProtocolError(
            "bad_request",
            ErrorText(
                "since is the last sequence number the client saw, a whole number "
                "0–999999999 (got {got})",
                got=repr(raw[:20]),
            ),
        )
    return int(raw)


def _socket_query(websocket: WebSocket) -> tuple[str | None, int | None, bool]:
    """A table socket's ``token``, ``since`` and ``patch`` (:class:`.protocol.ProtocolError`).

    Each parameter is given at most once (``?token=A&token=B`` is refused rather than one of
    them silently chosen); ``patch`` is ``0`` or ``1``.
    """
    query = websocket.query_params
    repeated = [name for name in SOCKET_PARAMETERS if len(query.getlist(name)) > 1]
    if repeated:
        raise protocol.ProtocolError(
            "bad_request",
            ErrorText("{names}: each parameter is given at most once", names=", ".join(repeated)),
        )
    patch = query.get("patch")
    if patch not in (None, "0", "1"):
        raise protocol.ProtocolError(
            "bad_request",
            ErrorText(
                "patch is 1 (deltas carry display patches) or 0 (got {got})", got=repr(patch[:20])
            ),
        )
    return query.get("token"), _since(query.get("since")), patch == "1"


async def _serve_socket(
    websocket: WebSocket, limit: RateLimit, per_address: AddressLimiter | None = None
) -> None:
    """One client at one table: snapshot, then its messages in and the table's frames out.

    The connection's language (``?lang=``, else ``Accept-Language``, else English) is that of
    its display models, log messages and error frames; ``?view=1`` asks for the game's raw
    views in the frames (left out otherwise); ``?presence=1`` asks for ``presence`` frames
    (who is connected, as it changes); ``?patch=1`` asks for display patches
    (:mod:`.patches`). With several processes, a client at a table another process owns is
    served through it (:mod:`.cluster`; patches too). ``per_address`` limits the messages of
    all the connections of the client's address together (:mod:`.security`).
    """
    await websocket.accept()
    if getattr(websocket.app.state, "stopping", False):  # accepted as this process stops
        await websocket.close(protocol.CLOSE_MOVED)  # 1012: reconnect (to another process)
        return
    manager: TableManager = websocket.app.state.manager
    metrics: NoMetrics = websocket.app.state.metrics
    conn = Connection(None, language=language_of(websocket))
    address = _address_limit(websocket, per_address)
    try:
        token, since, conn.patches = _socket_query(websocket)
        conn.views = protocol.socket_flag("view", websocket.query_params.get("view"))
        conn.presence = protocol.socket_flag("presence", websocket.query_params.get("presence"))
    except protocol.ProtocolError as exc:
        refuse(conn, exc.code, exc.text, protocol.CLOSE_BAD_REQUEST)
        await _write(websocket, conn)  # the error frame, then the close code
        return
    try:
        live = await attach(manager, conn, websocket.path_params["table_id"], token, since)
    except Elsewhere as moved:
        kind = "player" if token else "spectator"
        metrics.connection(kind, 1)
        try:
            await _proxy(websocket, conn, moved, token, since, limit, address)
        finally:
            metrics.connection(kind, -1)
        return
    if live is None:
        await _write(websocket, conn)  # the error frame, then the close code
        return
    seat = conn.seat
    set_seat(seat)  # in this connection's log lines from now on
    log.info("table %s: %s connected", live.id, "a spectator" if seat is None else f"seat {seat}")

    async def handle(text: str | bytes) -> None:
        await dispatch(text, conn, live, manager)

    writer = asyncio.get_running_loop().create_task(_write(websocket, conn))
    code: int | None = None
    kind = "player" if seat is not None else "spectator"
    metrics.connection(kind, 1)
    try:
        code = await _read(websocket, conn, limit, handle, address)
    finally:
        metrics.connection(kind, -1)
        live.connections.discard(conn)
        conn.close()
        live.gone(seat)  # the others see the person away (their last connection closed)
        if seat is not None and live.rematch is not None and live.absent_seat(seat):
            manager.rematch_left(live, seat)  # a rematch proposal ends unless they come back
        if seat is not None and live.status == "running" and manager.tables.get(live.id) is live:
            manager.left(live, seat)
        with contextlib.suppress(Exception):
            await writer  # what is queued (an error frame) goes out before the close frame
        log.info("table %s: connection closed%s", live.id, f" ({code})" if code else "")
    if code is not None and websocket.application_state != WebSocketState.DISCONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code)


async def _proxy(
    websocket: WebSocket,
    conn: Connection,
    moved: Elsewhere,
    token: str | None,
    since: int | None,
    limit: RateLimit,
    address: tuple[AddressLimiter, str] | None = None,
) -> None:
    """Serve a client at a table another process owns: its messages there, its frames back."""
    cluster = websocket.app.state.manager.cluster
    assert cluster is not None
    conn_id = cluster.open_proxy(conn, moved.table_id, moved.owner, token, since)

    async def handle(text: str | bytes) -> None:
        cluster.forward(conn_id, text)

    writer = asyncio.get_running_loop().create_task(_write(websocket, conn))
    code: int | None = None
    try:
        code = await _read(websocket, conn, limit, handle, address)
    finally:
        cluster.close_proxy(conn_id)
        conn.close()
        with contextlib.suppress(Exception):
            await writer
    if code is not None and websocket.application_state != WebSocketState.DISCONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code)


def _address_limit(
    websocket: WebSocket, limiter: AddressLimiter | None
) -> tuple[AddressLimiter, str] | None:
    """The per-address limiter of a socket's messages and its address's key (``None``: none)."""
    if limiter is None:
        return None
    host = client_address(websocket.scope)
    key = address_key(host)
    if key is None or limiter.is_exempt(host):
        return None
    return limiter, key


async def _write(websocket: WebSocket, conn: Connection) -> None:
    metrics: NoMetrics = websocket.app.state.metrics
    while True:
        frame = await conn.queue.get()
        if type(frame) is dict and frame["type"] == "error":
            metrics.error(frame["code"], "socket")
        if frame is None:
            if conn.close_code is not None:  # refused, or the table moved: close with its code
                with contextlib.suppress(Exception):
                    await websocket.close(conn.close_code)
            return
        try:  # a step's frames come encoded once for all connections; others are dicts
            await websocket.send_text(frame if isinstance(frame, str) else encode(frame))
        except Exception:  # the client went away
            return


async def _read(
    websocket: WebSocket,
    conn: Connection,
    limit: RateLimit,
    handle: Callable[[str | bytes], Awaitable[None]],
    address: tuple[AddressLimiter, str] | None = None,
) -> int | None:
    """Handle the client's messages until it leaves (``None``) or must go (a close code).

    Each message counts against the connection's rate limit, then against its address's
    (``address``: all the address's connections together; over it the message is dropped with
    a ``rate_limited`` frame); a binary frame is refused (``bad_message``:
    the protocol's messages are JSON text frames), one over the size limit closes (1009).
    """
    while True:
        try:
            message = await websocket.receive()
        except WebSocketDisconnect:
            return None
        if message["type"] == "websocket.disconnect":
            return None
        text: str | None = message.get("text")
        if conn.overflowed:
            return protocol.CLOSE_FLOODING
        verdict = limit.take()
        if verdict == "close":
            conn.push(
                protocol.error_frame(
                    "rate_limited", conn.tr.error(ErrorText("too many messages: goodbye"))
                )
            )
            return protocol.CLOSE_FLOODING
        if verdict == "refuse":
            conn.push(
                protocol.error_frame(
                    "rate_limited",
                    conn.tr.error(
                        ErrorText(
                            "at most {rate} messages a second (bursts of {burst}): "
                            "this one was dropped",
                            rate=format(limit.rate, "g"),
                            burst=limit.burst,
                        )
                    ),
                )
            )
            continue
        if address is not None and address[0].take(address[1]) > 0:
            conn.push(
                protocol.error_frame(
                    "rate_limited",
                    conn.tr.error(
                        ErrorText(
                            "at most {rate} messages a second from one address, all its "
                            "connections together: this one was dropped",
                            rate=format(address[0].rate, "g"),
                        )
                    ),
                )
            )
            continue
        if text is None:  # a binary frame: the protocol's messages are JSON text
            conn.push(
                protocol.error_frame(
                    "bad_message",
                    conn.tr.error(
                        ErrorText("a message is JSON sent as a text frame, not a binary frame")
                    ),
                )
            )
            continue
        if len(text) > protocol.MAX_MESSAGE_CHARS:
            conn.push(
                protocol.error_frame(
                    "too_large",
                    conn.tr.error(
                        ErrorText(
                            "a message may hold at most {limit} characters",
                            limit=protocol.MAX_MESSAGE_CHARS,
                        )
                    ),
                )
            )
            return protocol.CLOSE_TOO_LARGE
        await handle(text)


def app_from_environment() -> Starlette:
    """The application of one of ``campfire serve --workers N``'s processes.

    uvicorn starts each process with this factory; ``campfire serve`` passes its options in
    the environment: ``CAMPFIRE_SERVE_DATABASE_URL``, ``CAMPFIRE_SERVE_REDIS_URL``,
    ``CAMPFIRE_SERVE_LEASE_SECONDS``, the limits (:data:`.limits.LIMITS_VARIABLE`), the proxy
    settings (:data:`.proxy.PROXY_VARIABLE`), ``CAMPFIRE_SERVE_METRICS``,
    ``CAMPFIRE_SERVE_RATE_LIMITS``, the accounts' (:data:`.account_service.ACCOUNTS_VARIABLE`)
    and the reviews' iterations (:data:`.reviews.REVIEW_ITERATIONS_VARIABLE`).
    """
    import os

    from .cli import tune_gc
    from .reviews import REVIEW_ITERATIONS_VARIABLE

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.captureWarnings(True)  # in the format uvicorn's log_config set (.logs)
    tune_gc()
    return create_app(
        os.environ.get("CAMPFIRE_SERVE_DATABASE_URL") or None,
        redis_url=os.environ.get("CAMPFIRE_SERVE_REDIS_URL") or DEFAULT_REDIS_URL,
        lease_seconds=float(os.environ.get("CAMPFIRE_SERVE_LEASE_SECONDS") or LEASE_SECONDS),
        proxy=ProxySettings.from_environment(),
        max_connections_per_address=Limits.from_environment().max_connections_per_address,
        metrics=MetricsConfig.from_environment(),
        rate_limits=RateLimits.from_environment(),
        accounts=AccountSettings.from_environment(),
        review_iterations=int(os.environ.get(REVIEW_ITERATIONS_VARIABLE) or 0) or None,
    )
