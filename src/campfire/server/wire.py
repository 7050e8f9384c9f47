"""Frames as text on the wire: encoded once, shared by every connection that gets them.

A step's frames are built once per seat and language (a spectator's once for all spectators)
and encoded once per frame: :func:`encode` turns a frame into the text of a WebSocket message,
with ``orjson`` when it is installed (the ``server`` extra has it; it is about ten times faster
than the standard library) and :mod:`json` otherwise. Both give the same JSON value: compact
(no spaces after separators), text left as it is (no ASCII escapes), keys that are not strings
written as strings, as :func:`json.dumps` writes them. A frame may hold a dataclass (a delta's
display model is the :class:`~campfire.core.present.Display` itself): it is written as
:func:`dataclasses.asdict` would make it, which is what ``Display.to_json()`` gives.

>>> encode({"type": "pong"})
'{"type":"pong"}'
>>> encode({"text": "Pál", "seats": (0, 1), 3: None})
'{"text":"Pál","seats":[0,1],"3":null}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, is_dataclass
from typing import Any

__all__ = ["ENCODER", "encode", "encode_json"]


def _default(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def encode_json(frame: Mapping[str, Any]) -> str:
    """``frame`` as compact JSON text, with the standard library."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"), default=_default)


try:
    import orjson
except ImportError:  # pragma: no cover - the server extra installs it
    #: the library frames are encoded with (``"orjson"`` or ``"json"``)
    ENCODER = "json"

    def encode(frame: Mapping[str, Any]) -> str:
        """``frame`` as the text of a WebSocket message (compact JSON)."""
        return encode_json(frame)

else:
    ENCODER = "orjson"
    _OPTIONS = orjson.OPT_NON_STR_KEYS

    def encode(frame: Mapping[str, Any]) -> str:
        """``frame`` as the text of a WebSocket message (compact JSON)."""
        try:
            return orjson.dumps(frame, option=_OPTIONS).decode("utf-8")
        except TypeError:  # what orjson refuses (an integer over 64 bits, ...): as json does
            return encode_json(frame)
