"""WebSocket compression (permessage-deflate): how hard the server works on each frame.

Browsers and the ``websockets`` client offer permessage-deflate, and uvicorn accepts it by
default, compressing every frame at zlib's default level (6) for each connection on its own.
A delta frame of a full Tracker board is about 11 KB of JSON; at level 6 it takes about a
quarter of the server's CPU per action (``benchmarks/README.md``, "Server load"). zlib's level 1
compresses it about 2.4 times faster to a text about 17 % longer (1.75 KB instead of 1.5 KB),
and the client decodes every level alike. So ``campfire serve --ws-compression`` takes

- ``fast`` (the default): permessage-deflate at level 1;
- ``default``: uvicorn's own setting (level 6);
- ``off``: no compression (the frames travel as they are: for a local network).

:func:`protocol_class` gives the uvicorn WebSocket protocol for a choice; it subclasses uvicorn's
``websockets``-based protocol and replaces the extension it offers, so if a later uvicorn changes
that class, ``fast`` falls back to uvicorn's default (with a warning) rather than failing.
"""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["COMPRESSION", "protocol_class", "uvicorn_options"]

log = logging.getLogger(__name__)

#: The choices of ``--ws-compression``.
COMPRESSION = ("fast", "default", "off")
#: zlib's level for ``fast``.
FAST_LEVEL = 1


def protocol_class(level: int) -> type[Any] | None:
    """The uvicorn WebSocket protocol with permessage-deflate at zlib ``level`` (or ``None``).

    ``None`` when uvicorn's protocol is not the one this was written for.
    """
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
        from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
    except ImportError:
        return None

    class DeflateProtocol(WebSocketsSansIOProtocol):
        """uvicorn's protocol offering permessage-deflate at zlib level ``level``."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            conn = getattr(self, "conn", None)
            if conn is not None and getattr(conn, "available_extensions", None):
                # the settings uvicorn uses, but the level (memory level 5, 4 KB windows)
                conn.available_extensions = [
                    ServerPerMessageDeflateFactory(
                        server_max_window_bits=12,
                        client_max_window_bits=12,
                        compress_settings={"memLevel": 5, "level": level},
                    )
                ]

    return DeflateProtocol


def uvicorn_options(compression: str) -> dict[str, Any]:
    """The ``uvicorn.run`` keyword arguments for a ``--ws-compression`` choice."""
    if compression not in COMPRESSION:
        raise ValueError(
            f"--ws-compression is one of {', '.join(COMPRESSION)} (got {compression!r})"
        )
    if compression == "off":
        return {"ws_per_message_deflate": False}
    if compression == "default":
        return {}
    protocol = protocol_class(FAST_LEVEL)
    if protocol is None:
        log.warning(
            "this uvicorn's WebSocket protocol is unknown: compressing at its default level"
        )
        return {}
    return {"ws": protocol}


def __getattr__(name: str) -> Any:
    """``FAST_PROTOCOL``: the ``fast`` protocol class, by import path.

    With ``--workers``, uvicorn's processes import it by name (a class made in a function
    cannot be pickled).
    """
    if name == "FAST_PROTOCOL":
        return protocol_class(FAST_LEVEL)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
