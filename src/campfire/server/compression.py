"""WebSocket compression (permessage-deflate): how hard the server works on each frame.

Browsers and the ``websockets`` client offer permessage-deflate, and uvicorn accepts it by
default, compressing every frame at zlib's default level (6) for each connection on its own.
A delta frame of a large board (four players, a full table) is about 11 KB of JSON; at level 6
it takes about a quarter of the server's CPU per action (``benchmarks/README.md``, "Server
load"). zlib's level 1 compresses it about 2.4 times faster to a text about 17 % longer
(1.75 KB instead of 1.5 KB), and the client decodes every level alike. So
``campfire serve --ws-compression`` takes

- ``fast`` (the default): permessage-deflate at level 1, for the frames of at least
  ``--ws-compress-min`` bytes (:data:`DEFAULT_MIN_SIZE`); smaller ones travel as they are;
- ``default``: uvicorn's own setting (level 6, every frame);
- ``off``: no compression (the frames travel as they are: for a local network).

Skipping small frames is what RFC 7692 allows: compression is negotiated per connection but
marked per message (the RSV1 bit of its first frame), and a message sent as it is leaves the
compressor's history untouched, so the client decodes both kinds with the history it has. Most
frames of a game played with display patches are small (a typical delta is about 1 KB, which
level 1 makes about 150 bytes): per connection, the compressor's call, its history and the
extension's own work cost more CPU than the bytes saved are worth, while the large frames
(snapshots, whole boards) still shrink five to ten times.

:func:`protocol_class` gives the uvicorn WebSocket protocol for a choice; it subclasses uvicorn's
``websockets``-based protocol and replaces the extension it offers, so if a later uvicorn changes
that class, ``fast`` falls back to uvicorn's default (with a warning) rather than failing.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

__all__ = [
    "COMPRESSION",
    "DEFAULT_MIN_SIZE",
    "MIN_SIZE_VARIABLE",
    "protocol_class",
    "uvicorn_options",
]

log = logging.getLogger(__name__)

#: The choices of ``--ws-compression``.
COMPRESSION = ("fast", "default", "off")
#: zlib's level for ``fast``.
FAST_LEVEL = 1
#: ``fast`` sends a frame of fewer bytes than this as it is (``--ws-compress-min``).
DEFAULT_MIN_SIZE = 2048
#: The environment variable that gives ``--workers`` processes the ``--ws-compress-min``.
MIN_SIZE_VARIABLE = "CAMPFIRE_SERVE_WS_COMPRESS_MIN"


def _extension_classes(min_size: int) -> tuple[type[Any], type[Any]] | None:
    """The extension and its server factory for frames of at least ``min_size`` bytes."""
    try:
        from websockets.extensions.permessage_deflate import (
            PerMessageDeflate,
            ServerPerMessageDeflateFactory,
        )
        from websockets.frames import CONT, CTRL_OPCODES, Frame
    except ImportError:
        return None

    class SmallFramesPlain(PerMessageDeflate):
        """permessage-deflate that sends a message of fewer than ``min_size`` bytes as it is."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            #: the message being sent in several frames was not compressed
            self.plain_message = False

        def encode(self, frame: Frame) -> Frame:
            """``frame`` compressed (RSV1 set on a message's first frame), or as it is."""
            if frame.opcode in CTRL_OPCODES:
                return frame
            if frame.opcode is CONT:
                if self.plain_message:  # the rest of a message sent as it is
                    self.plain_message = not frame.fin
                    return frame
            elif len(frame.data) < min_size:
                self.plain_message = not frame.fin
                return frame
            encoded: Frame = super().encode(frame)
            return encoded

    class Factory(ServerPerMessageDeflateFactory):
        """The server's side of the negotiation, making :class:`SmallFramesPlain` extensions."""

        def process_request_params(
            self, params: Sequence[Any], accepted_extensions: Sequence[Any]
        ) -> tuple[list[Any], Any]:
            """The response's parameters and the connection's extension."""
            response, made = super().process_request_params(params, accepted_extensions)
            return response, SmallFramesPlain(
                made.remote_no_context_takeover,
                made.local_no_context_takeover,
                made.remote_max_window_bits,
                made.local_max_window_bits,
                made.compress_settings,
            )

    return SmallFramesPlain, Factory


def protocol_class(level: int, min_size: int = 0) -> type[Any] | None:
    """The uvicorn WebSocket protocol with permessage-deflate at zlib ``level`` (or ``None``).

    Frames of fewer than ``min_size`` bytes are sent uncompressed (0: every frame is
    compressed). ``None`` when uvicorn's protocol is not the one this was written for.
    """
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:
        return None
    classes = _extension_classes(min_size)
    if classes is None:
        return None
    factory = classes[1]

    class DeflateProtocol(WebSocketsSansIOProtocol):
        """uvicorn's protocol offering permessage-deflate at zlib level ``level``."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            conn = getattr(self, "conn", None)
            if conn is not None and getattr(conn, "available_extensions", None):
                # the settings uvicorn uses, but the level (memory level 5, 4 KB windows)
                conn.available_extensions = [
                    factory(
                        server_max_window_bits=12,
                        client_max_window_bits=12,
                        compress_settings={"memLevel": 5, "level": level},
                    )
                ]

    return DeflateProtocol


def uvicorn_options(compression: str, min_size: int = DEFAULT_MIN_SIZE) -> dict[str, Any]:
    """The ``uvicorn.run`` keyword arguments for a ``--ws-compression`` choice.

    ``min_size`` is ``--ws-compress-min``: with ``fast``, smaller frames are not compressed.
    """
    if compression not in COMPRESSION:
        raise ValueError(
            f"--ws-compression is one of {', '.join(COMPRESSION)} (got {compression!r})"
        )
    if min_size < 0:
        raise ValueError(f"--ws-compress-min is a number of bytes, 0 or more (got {min_size})")
    if compression == "off":
        return {"ws_per_message_deflate": False}
    if compression == "default":
        return {}
    protocol = protocol_class(FAST_LEVEL, min_size)
    if protocol is None:
        log.warning(
            "this uvicorn's WebSocket protocol is unknown: compressing at its default level"
        )
        return {}
    return {"ws": protocol}


def __getattr__(name: str) -> Any:
    """``FAST_PROTOCOL``: the ``fast`` protocol class, by import path.

    With ``--workers``, uvicorn's processes import it by name (a class made in a function
    cannot be pickled); the threshold comes from the environment (:data:`MIN_SIZE_VARIABLE`).
    """
    if name == "FAST_PROTOCOL":
        min_size = int(os.environ.get(MIN_SIZE_VARIABLE) or DEFAULT_MIN_SIZE)
        return protocol_class(FAST_LEVEL, min_size)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
