"""JSON on the wire: frames encoded once for every connection, and the one reader of input.

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

Every JSON document the server reads from the network — a table socket's message, a lobby
request's body — goes through :func:`decode`: the kernel's strict reader
(:func:`campfire.core.validate.loads_json`, the one that reads records), which refuses what a
lenient parser lets through and a client may not rely on: a key twice in one object (the
standard library keeps the last, so ``{"type": "ping", "type": "sync"}`` would be a ``sync``),
``NaN`` and ``Infinity``, integers of more than 40 digits, lone surrogates and nesting deeper
than 64 levels. A record file sent for a replay is read by the same reader, through
:func:`campfire.core.records.replay_text`.

>>> decode('{"type": "ping"}', "the message", CampfireError)
{'type': 'ping'}
>>> decode('{"type": "ping", "type": "sync"}', "the message", CampfireError)
Traceback (most recent call last):
...
campfire.core.errors.CampfireError: the message has the key 'type' twice in one object
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, is_dataclass
from typing import Any

from campfire.core import CampfireError
from campfire.core.validate import loads_json

__all__ = ["ENCODER", "decode", "encode", "encode_json"]


def decode(data: str | bytes, what: str, error: Callable[[str], CampfireError]) -> Any:
    """The JSON value of ``data`` (text, or UTF-8 bytes), read strictly; ``error`` if refused.

    ``what`` names the document in messages (an :class:`~campfire.core.ErrorText` such as
    ``"the message"``, so that they can be translated); ``error`` makes the exception raised
    from such a message (a protocol or lobby error with its code). See the module's
    documentation for what is refused.
    """
    return loads_json(data, what, error=error)


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
