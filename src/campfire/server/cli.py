"""The ``campfire serve`` command (added to the parser by ``campfire.cli``).

Building the parser imports nothing of the server extra; running the command does, and says
how to install it when it is missing.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import shutil
import tempfile
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from campfire.core import CampfireError
from campfire.core.validate import int_arg
from campfire.i18n import _

from .compression import COMPRESSION, DEFAULT_MIN_SIZE, MIN_SIZE_VARIABLE
from .graceful import STOP_TIMEOUT
from .limits import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    LIMITS_VARIABLE,
    MAX_CONNECTIONS_PER_ADDRESS,
    Limits,
)
from .logs import add_log_arguments
from .mail import MailSettings
from .metrics import (
    DEFAULT_ALLOW,
    METRICS_VARIABLE,
    MULTIPROC_VARIABLE,
    MetricsConfig,
    parse_networks,
)
from .proxy import (
    DEFAULT_TRUSTED_PROXIES,
    PROXY_VARIABLE,
    ProxySettings,
    parse_origin,
    parse_trusted_proxies,
)
from .security import (
    ACCOUNT_PER_MINUTE,
    LOBBY_PER_MINUTE,
    RATE_LIMITS_VARIABLE,
    SOCKET_PER_SECOND,
    RateLimits,
)
from .settings import add_settings_arguments

if TYPE_CHECKING:
    from .account_service import AccountSettings

T = TypeVar("T")

__all__ = [
    "add_serve_command",
    "apply_settings",
    "logging_options",
    "serve_accounts",
    "serve_limits",
    "serve_metrics",
    "serve_proxy",
    "serve_rate_limits",
    "tune_gc",
    "warn_about_settings",
]


def _networks_arg(option: str) -> Any:
    """An argparse type of ``option``: ``ADDR[,CIDR...]`` or ``none`` (kept as written)."""

    def read(text: str) -> str:
        try:
            parse_networks(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return text

    return read


def add_serve_command(sub: Any) -> None:
    """Add ``serve`` to the ``campfire`` command's subparsers."""
    p = sub.add_parser(
        "serve",
        help=_("run the game server: lobby over HTTP, tables over WebSocket (docs/protocol.md)"),
        description=_(
            "Serve online tables: a lobby over HTTP (JSON) and the table protocol over "
            "WebSocket (docs/protocol.md). The database is migrated at start and every "
            "unfinished table is rebuilt from its log. GET /healthz answers 200 once ready."
        ),
    )
    p.add_argument(
        "--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)")
    )
    p.add_argument(
        "--port",
        type=int_arg("--port", 0, 65535),
        default=8000,
        help=_("port to listen on, 0–65535 (default 8000; 0 picks a free one)"),
    )
    p.add_argument(
        "--database-url",
        metavar="URL",
        default=None,
        help=_(
            "SQLAlchemy database URL (default: an SQLite file in the user data directory; "
            "PostgreSQL: postgresql+psycopg://USER@HOST:PORT/DBNAME)"
        ),
    )
    p.add_argument(
        "--ws-compression",
        choices=COMPRESSION,
        default="fast",
        help=_(
            "WebSocket compression (permessage-deflate) of the frames: fast (zlib level 1, "
            "the default), default (level 6: a little smaller, more CPU) or off"
        ),
    )
    p.add_argument(
        "--ws-compress-min",
        metavar="BYTES",
        type=int_arg("--ws-compress-min", 0, 1 << 30),
        default=DEFAULT_MIN_SIZE,
        help=_(
            "with --ws-compression fast, frames of fewer bytes are sent uncompressed "
            "(default {default}; 0: compress every frame)"
        ).format(default=DEFAULT_MIN_SIZE),
    )
    p.add_argument(
        "--workers",
        type=int_arg("--workers", 1, 64),
        default=1,
        help=_(
            "server processes sharing the port (default 1); 2 or more need PostgreSQL and Redis: "
            "each table is served by one process, a client may connect to any"
        ),
    )
    p.add_argument(
        "--redis-url",
        metavar="URL",
        default=None,
        help=_(
            "the Redis server the processes pass actions and frames through (default "
            "redis://127.0.0.1:6379/0 with --workers 2 or more; given with one worker, this "
            "process joins others that share the database, e.g. on other machines)"
        ),
    )
    p.add_argument(
        "--lease-seconds",
        type=int_arg("--lease-seconds", 1, 3600),
        default=10,
        help=_(
            "several processes: how long a table's lease lasts unrenewed, so how soon another "
            "process takes over the tables of one that stalls (one that died is noticed at once; "
            "default 10)"
        ),
    )
    p.add_argument(
        "--header-timeout",
        metavar="SECONDS",
        type=int_arg("--header-timeout", 1, 3600),
        default=int(HEADER_TIMEOUT),
        help=_(
            "a request's headers (a WebSocket's upgrade too) must arrive within this many "
            "seconds, else the connection is closed (default {default})"
        ).format(default=int(HEADER_TIMEOUT)),
    )
    p.add_argument(
        "--body-timeout",
        metavar="SECONDS",
        type=int_arg("--body-timeout", 1, 3600),
        default=int(BODY_TIMEOUT),
        help=_(
            "a request's body must arrive within this many seconds of its headers, else it is "
            "answered 408 and the connection closed (default {default})"
        ).format(default=int(BODY_TIMEOUT)),
    )
    p.add_argument(
        "--max-connections-per-address",
        metavar="N",
        type=int_arg("--max-connections-per-address", 0, 1_000_000),
        default=MAX_CONNECTIONS_PER_ADDRESS,
        help=_(
            "connections one client address may hold open in each server process; one more "
            "is answered 429 (default {default}; 0: no limit; behind a trusted proxy each "
            "client it forwards is counted, by the address X-Forwarded-For names)"
        ).format(default=MAX_CONNECTIONS_PER_ADDRESS),
    )
    p.add_argument(
        "--trusted-proxies",
        metavar="ADDR[,ADDR]",
        type=_checked(parse_trusted_proxies),
        default=DEFAULT_TRUSTED_PROXIES,
        help=_(
            "the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: IP "
            "addresses or networks (10.0.0.0/8), separated by commas; an empty value trusts "
            "none (default {default}); the clients they forward are seen, limited and logged by "
            "their own addresses (docs/deploy.md)"
        ).format(default=",".join(DEFAULT_TRUSTED_PROXIES)),
    )
    p.add_argument(
        "--public-origin",
        metavar="URL",
        type=_checked(parse_origin),
        default=None,
        help=_(
            "the address people reach the server at, e.g. https://games.example.org: a table "
            "socket opened by a page of another origin is refused (403); clients that send no "
            "Origin are let in (default: none, no Origin is checked)"
        ),
    )
    p.add_argument(
        "--metrics",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=_(
            "count what the server does and answer GET /metrics in the Prometheus text format "
            "(default: on; --no-metrics: neither)"
        ),
    )
    p.add_argument(
        "--metrics-allow",
        metavar="ADDR[,CIDR]",
        type=_networks_arg("--metrics-allow"),
        default=DEFAULT_ALLOW,
        help=_(
            "the client addresses and networks that may read /metrics, comma-separated; any "
            "other is answered 404 (default {default}: this machine only)"
        ).format(default=DEFAULT_ALLOW),
    )
    p.add_argument(
        "--lobby-rate",
        metavar="PER_MINUTE",
        type=int_arg("--lobby-rate", 0, 1_000_000),
        default=LOBBY_PER_MINUTE,
        help=_(
            "lobby writes (POST /api/...: new tables, joins, starts) one client address may "
            "make a minute, in bursts of as many; more are answered 429 rate_limited "
            "(default {default}; 0: no limit)"
        ).format(default=LOBBY_PER_MINUTE),
    )
    p.add_argument(
        "--socket-rate",
        metavar="PER_SECOND",
        type=int_arg("--socket-rate", 0, 1_000_000),
        default=SOCKET_PER_SECOND,
        help=_(
            "table-socket messages one client address may send a second, all its connections "
            "together, in bursts of twice as many; more are dropped with a rate_limited error "
            "(default {default}; 0: no limit)"
        ).format(default=SOCKET_PER_SECOND),
    )
    p.add_argument(
        "--account-rate",
        metavar="PER_MINUTE",
        type=int_arg("--account-rate", 0, 1_000_000),
        default=ACCOUNT_PER_MINUTE,
        help=_(
            "sign-ups, sign-ins and password resets one client address may ask for a minute, "
            "in bursts of as many; more are answered 429 rate_limited (default {default}; "
            "0: no limit)"
        ).format(default=ACCOUNT_PER_MINUTE),
    )
    p.add_argument(
        "--secret-key-file",
        metavar="PATH",
        default=None,
        help=_(
            "the file holding the key that signs the accounts' session cookies (default: "
            "secret_key in the data folder, made when first needed; every process of one "
            "server must share it)"
        ),
    )
    p.add_argument(
        "--smtp-host",
        metavar="HOST",
        default=None,
        help=_(
            "an SMTP server that takes the server's e-mail without authentication (a local "
            "relay): password resets by e-mail are offered (default: none, no e-mail)"
        ),
    )
    p.add_argument(
        "--smtp-port",
        metavar="PORT",
        type=int_arg("--smtp-port", 1, 65535),
        default=25,
        help=_("the SMTP server's port (default {default})").format(default=25),
    )
    p.add_argument(
        "--smtp-from",
        metavar="ADDRESS",
        default="campfire@localhost",
        help=_("the sender of the server's e-mail (default {default})").format(
            default="campfire@localhost"
        ),
    )
    p.add_argument(
        "--rate-limit-exempt",
        metavar="ADDR[,CIDR]",
        type=_networks_arg("--rate-limit-exempt"),
        default=DEFAULT_ALLOW,
        help=_(
            "client addresses and networks the per-address rate limits leave out, "
            "comma-separated (default {default}: this machine; none: no address)"
        ).format(default=DEFAULT_ALLOW),
    )
    p.add_argument(
        "--review-iterations",
        metavar="N",
        type=int_arg("--review-iterations", 1, 100_000),
        default=None,
        help=_(
            "the search's iterations for each decision a post-game review assesses (default: "
            "each game's own, as many as its hard level's); fewer make reviews quicker and "
            "rougher on a slow machine"
        ),
    )
    p.add_argument(
        "--stop-timeout",
        metavar="SECONDS",
        type=int_arg("--stop-timeout", 1, 3600),
        default=int(STOP_TIMEOUT),
        help=_(
            "on SIGTERM each process stops accepting, finishes the actions in flight, closes "
            "its clients with 1012 (reconnect) and exits; one still there after this many "
            "seconds exits at once (default {default}; keep it under systemd's TimeoutStopSec)"
        ).format(default=int(STOP_TIMEOUT)),
    )
    add_log_arguments(p)  # --log-format, --log-level
    add_settings_arguments(p)  # --config, --print-config; every option is also a setting
    p.set_defaults(func=_cmd_serve)


def apply_settings(args: argparse.Namespace) -> bool:
    """Fill the options the command line left out (:mod:`.settings`); ``True``: exit.

    They come from ``CAMPFIRE_<OPTION>`` or the settings file; with ``--print-config`` they are
    printed and the answer is ``True``.
    """
    from .settings import render, resolve, stray_variables

    resolved = resolve(args)
    args.settings_resolved = resolved  # (for warn_about_settings)
    if args.print_config:
        print(render(resolved), end="")
        for name in stray_variables(args.settings_parser):
            print("# " + _("{name} is set, but no setting is called so").format(name=name))
        return True
    return False


def warn_about_settings(args: argparse.Namespace) -> None:
    """Log what looks wrong in the settings: a warning for each.

    A ``CAMPFIRE_…`` variable that names no setting (misspelt?); a secret in a settings file
    that other users may read.
    """
    from .settings import exposed_secrets, stray_variables

    log = logging.getLogger(__name__)
    for name in stray_variables(args.settings_parser):
        log.warning("%s is set, but no setting is called so (the settings: docs/deploy.md)", name)
    for path, key in exposed_secrets(getattr(args, "settings_resolved", [])):
        log.warning(
            "settings file %s: other users may read it, and %s holds a secret: "
            "chmod 600 it, or set the secret in the environment (docs/deploy.md)",
            path,
            key,
        )


def logging_options(args: argparse.Namespace) -> dict[str, Any]:
    """Configure this process's logs as ``--log-format`` and ``--log-level`` ask; uvicorn's options.

    The options (:func:`.logs.log_config`) make uvicorn's loggers and every worker process
    write the same lines (:mod:`.logs`).
    """
    from .logs import configure, log_config

    configure(args.log_format, args.log_level)
    return {"log_config": log_config(args.log_format, args.log_level), "log_level": args.log_level}


def _cmd_serve(args: argparse.Namespace) -> int:
    if apply_settings(args):  # --print-config (needs no server extra)
        return 0
    try:
        import uvicorn

        from .app import create_app
        from .compression import uvicorn_options
    except ImportError as exc:
        raise CampfireError(
            _(
                "campfire serve needs the server extra ({name} is missing): "
                "pip install 'campfire-games[server]'"
            ).format(name=exc.name)
        ) from None
    from .account_service import ACCOUNTS_VARIABLE
    from .cluster import DEFAULT_REDIS_URL, check_redis
    from .db import default_database_url
    from .reviews import REVIEW_ITERATIONS_VARIABLE

    limits = serve_limits(args)
    log_options = logging_options(args)
    warn_about_settings(args)
    proxy = serve_proxy(args)
    metrics = serve_metrics(args)
    rate_limits = serve_rate_limits(args)
    accounts = serve_accounts(args)
    options: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "ws_max_size": 64 * 1024,
        **log_options,
        **uvicorn_options(args.ws_compression, args.ws_compress_min),
        **limits.uvicorn_options(proxies=proxy),
    }
    redis_url = args.redis_url
    if args.workers > 1 or redis_url is not None:
        redis_url = redis_url or DEFAULT_REDIS_URL
        database_url = args.database_url or default_database_url()
        if not database_url.startswith("postgresql"):
            raise CampfireError(
                _(
                    "--workers {workers} needs PostgreSQL (--database-url "
                    "postgresql+psycopg://USER@HOST:PORT/DBNAME): the processes share the "
                    "database, and an SQLite file can be written by one process only"
                ).format(workers=args.workers)
            )
        check_redis(redis_url)
        if args.workers > 1:
            os.environ["CAMPFIRE_SERVE_DATABASE_URL"] = database_url
            os.environ["CAMPFIRE_SERVE_REDIS_URL"] = redis_url
            os.environ["CAMPFIRE_SERVE_LEASE_SECONDS"] = str(args.lease_seconds)
            os.environ[MIN_SIZE_VARIABLE] = str(args.ws_compress_min)
            os.environ[LIMITS_VARIABLE] = limits.to_json()
            os.environ[PROXY_VARIABLE] = proxy.to_json()
            os.environ[METRICS_VARIABLE] = metrics.to_json()
            os.environ[RATE_LIMITS_VARIABLE] = rate_limits.to_json()
            os.environ[ACCOUNTS_VARIABLE] = accounts.to_json()
            os.environ[REVIEW_ITERATIONS_VARIABLE] = str(args.review_iterations or "")
            options.update(limits.uvicorn_options(by_name=True))  # (imported by each process)
            if "ws" in options:  # the processes import the protocol class by name
                options["ws"] = "campfire.server.compression:FAST_PROTOCOL"
            from .supervisor import supervise

            # the processes' counts meet in one folder, made before any process counts
            made = shared_metrics_dir() if metrics.enabled else None
            try:
                # forked workers, replaced the moment one exits (not uvicorn's spawned ones)
                return supervise(
                    "campfire.server.app:app_from_environment",
                    args.workers,
                    options,
                    stop_timeout=args.stop_timeout,
                )
            finally:
                if made is not None:
                    shutil.rmtree(made, ignore_errors=True)
    tune_gc()
    app = create_app(
        args.database_url,
        redis_url=redis_url,
        lease_seconds=args.lease_seconds,
        proxy=proxy,
        max_connections_per_address=limits.max_connections_per_address,
        metrics=metrics,
        rate_limits=rate_limits,
        accounts=accounts,
        review_iterations=args.review_iterations,
    )
    import signal

    from .graceful_server import GracefulServer

    def no_reload(signum: int, frame: Any) -> None:  # (SIGHUP would end the process)
        logging.getLogger(__name__).warning(
            "campfire serve: SIGHUP (reload) restarts the workers of --workers 2 or more; one "
            "process cannot restart without a gap: restart it (docs/deploy.md)"
        )

    from campfire.core.hangup import foreground_terminal

    from .web import TerminalStop

    stop: TerminalStop | None = None
    if foreground_terminal() is not None:
        # in a terminal's foreground, SIGHUP means the terminal went away: stop (as make run)
        stop = TerminalStop()
        stop.install()
    else:
        signal.signal(signal.SIGHUP, no_reload)
    # a graceful stop on SIGTERM (graceful.py); one process cannot restart without a gap: its
    # clients reconnect once it is back (docs/deploy.md, "Graceful restarts and upgrades")
    GracefulServer(uvicorn.Config(app, **options), stop_timeout=args.stop_timeout).run()
    return (stop.status if stop is not None else None) or 0


def shared_metrics_dir() -> str | None:
    """Make the directory the processes of ``--workers N`` count in; the one made, if any.

    ``prometheus-client``'s multiprocess mode: each process writes its counts there and the one
    that answers ``/metrics`` reads them all (:mod:`.metrics`). A directory the environment
    names (``PROMETHEUS_MULTIPROC_DIR``) is used, cleared of a previous run's counts; else a
    temporary one is made (the caller removes it at the end). It is set before any process
    imports ``prometheus_client``, which reads it then.
    """
    from .metrics import clear_multiprocess_dir

    path = os.environ.get(MULTIPROC_VARIABLE)
    if path:
        os.makedirs(path, exist_ok=True)
        clear_multiprocess_dir(path)
        return None
    made = tempfile.mkdtemp(prefix="campfire-metrics-")
    os.environ[MULTIPROC_VARIABLE] = made
    return made


def serve_metrics(args: argparse.Namespace) -> MetricsConfig:
    """What ``campfire serve``'s options say of ``/metrics`` (:mod:`.metrics`)."""
    return MetricsConfig(enabled=args.metrics, allow=args.metrics_allow)


def serve_rate_limits(args: argparse.Namespace) -> RateLimits:
    """The per-address rate limits ``campfire serve``'s options ask for (:mod:`.security`)."""
    return RateLimits(
        lobby_per_minute=args.lobby_rate,
        socket_per_second=args.socket_rate,
        exempt=args.rate_limit_exempt,
        account_per_minute=args.account_rate,
    )


def serve_accounts(args: argparse.Namespace) -> AccountSettings:
    """The accounts' settings ``campfire serve``'s options ask for (:mod:`.account_service`)."""
    from .account_service import AccountSettings

    mail = None
    if args.smtp_host:
        mail = MailSettings(args.smtp_host, args.smtp_port, args.smtp_from)
    return AccountSettings(secret_key_file=args.secret_key_file, mail=mail)


def serve_limits(args: argparse.Namespace) -> Limits:
    """The connection limits ``campfire serve``'s options ask for (:mod:`.limits`)."""
    return Limits(
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        max_connections_per_address=args.max_connections_per_address,
    )


def serve_proxy(args: argparse.Namespace) -> ProxySettings:
    """The trusted proxies and public origin ``campfire serve``'s options name (:mod:`.proxy`)."""
    return ProxySettings(
        trusted_proxies=tuple(args.trusted_proxies), public_origin=args.public_origin
    )


def _checked(parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse ``type`` that shows the ``ValueError``'s message (argparse's says "invalid")."""

    def check(text: str) -> T:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    check.__name__ = parse.__name__
    return check


#: The cyclic garbage collector's thresholds while serving (Python's default: 700, 10, 10).
GC_THRESHOLDS = (50_000, 20, 10)


def tune_gc() -> None:
    """Collect cyclic garbage less often while serving.

    Every step makes thousands of short-lived objects (each seat's display model and frame),
    nearly none of them in cycles, so the default first-generation threshold (700 allocations)
    ran a collection several times per action and took about a tenth of the server's CPU
    (``benchmarks/README.md``, "Server load"). The modules and everything made at start-up are
    moved out of the collector's sight (``gc.freeze``).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
