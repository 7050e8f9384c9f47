"""The ``campfire serve`` command (added to the parser by ``campfire.cli``).

Building the parser imports nothing of the server extra; running the command does, and says
how to install it when it is missing.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
from typing import Any

from campfire.core import CampfireError
from campfire.core.validate import int_arg
from campfire.i18n import _

from .compression import COMPRESSION, DEFAULT_MIN_SIZE, MIN_SIZE_VARIABLE

__all__ = ["add_serve_command", "tune_gc"]


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
    p.set_defaults(func=_cmd_serve)


def _cmd_serve(args: argparse.Namespace) -> int:
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
    from .cluster import DEFAULT_REDIS_URL, check_redis
    from .db import default_database_url

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    options: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "ws_max_size": 64 * 1024,
        "log_level": "info",
        **uvicorn_options(args.ws_compression, args.ws_compress_min),
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
            if "ws" in options:  # the processes import the protocol class by name
                options["ws"] = "campfire.server.compression:FAST_PROTOCOL"
            from .supervisor import supervise

            # forked workers, replaced the moment one exits (not uvicorn's spawned ones)
            return supervise("campfire.server.app:app_from_environment", args.workers, options)
    tune_gc()
    app = create_app(args.database_url, redis_url=redis_url, lease_seconds=args.lease_seconds)
    uvicorn.run(app, **options)
    return 0


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
