"""The ``campfire serve`` command (added to the parser by ``campfire.cli``).

Building the parser imports nothing of the server extra; running the command does, and says
how to install it when it is missing.
"""

from __future__ import annotations

import argparse
import gc
import logging
from typing import Any

from campfire.core import CampfireError
from campfire.core.validate import int_arg
from campfire.i18n import _

__all__ = ["add_serve_command"]


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
        choices=("fast", "default", "off"),
        default="fast",
        help=_(
            "WebSocket compression (permessage-deflate) of the frames: fast (zlib level 1, "
            "the default), default (level 6: a little smaller, more CPU) or off"
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
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    _tune_gc()
    app = create_app(args.database_url)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=64 * 1024,
        log_level="info",
        **uvicorn_options(args.ws_compression),
    )
    return 0


#: The cyclic garbage collector's thresholds while serving (Python's default: 700, 10, 10).
GC_THRESHOLDS = (50_000, 20, 10)


def _tune_gc() -> None:
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
