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
from dataclasses import asdict, fields, is_dataclass
from typing import Any

from campfire.core import CampfireError
from campfire.core.validate import loads_json

__all__ = ["ENCODER", "EncodedParts", "decode", "encode", "encode_json"]


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
    _FRAGMENT: Any = None

    def encode(frame: Mapping[str, Any]) -> str:
        """``frame`` as the text of a WebSocket message (compact JSON)."""
        return encode_json(frame)

else:
    ENCODER = "orjson"
    _OPTIONS = orjson.OPT_NON_STR_KEYS
    #: a part's JSON, written as it is into the text of a frame (orjson 3.9.10 and later)
    _FRAGMENT = getattr(orjson, "Fragment", None)

    def encode(frame: Mapping[str, Any]) -> str:
        """``frame`` as the text of a WebSocket message (compact JSON)."""
        try:
            return orjson.dumps(frame, option=_OPTIONS).decode("utf-8")
        except TypeError:  # what orjson refuses (an integer over 64 bits, ...): as json does
            return encode_json(frame)


#: the field names of each display model class met (in their order: the JSON's keys)
_DISPLAY_FIELDS: dict[type, tuple[str, ...]] = {}
#: the fields of a display model whose items are encoded once for all the frames that hold them
_SHARED = ("zones", "players")


class EncodedParts:
    """The JSON of display parts, encoded once for all the frames of a table that hold them.

    A presenter keeps the parts of its display models (:class:`~campfire.core.present.KeptParts`):
    the seats' models of one step share the board, the piles and the players' panels, and the
    next step's share those it left as they were. :meth:`frame` gives a frame whose display
    model holds its zones and panels as JSON already written (``orjson.Fragment``), each
    written the first time it is met: :meth:`encode` writes the same text as :func:`encode`
    writes from the frame itself, without writing a shared part again.

    Parts are kept by identity for the round in which they were last used and the next one
    (:meth:`next_round`, once per step), so a part that no display model holds any more is
    forgotten a step later. Without ``orjson`` (or with one that has no ``Fragment``) frames
    are left as they are.
    """

    def __init__(self) -> None:
        #: the parts used in this round and in the last: id -> (the part, its JSON)
        self._now: dict[int, tuple[Any, Any]] = {}
        self._before: dict[int, tuple[Any, Any]] = {}

    def next_round(self) -> None:
        """Start a new round: parts not used since the last one are forgotten at the next."""
        self._before, self._now = self._now, {}

    def encode(self, frame: Mapping[str, Any]) -> str:
        """:func:`encode` of ``frame``: the same text, its shared parts written once."""
        shared = self._shared(frame)
        if shared is frame:
            return encode(frame)
        try:
            return str(orjson.dumps(shared, option=_OPTIONS).decode("utf-8"))
        except TypeError:  # what orjson refuses (an integer over 64 bits, ...): as encode does
            return encode(frame)

    def _shared(self, frame: Mapping[str, Any]) -> Mapping[str, Any]:
        """``frame`` with its display model's shared parts as their JSON (``frame``: none)."""
        display = frame.get("display")
        if _FRAGMENT is None or display is None or not is_dataclass(display):
            return frame
        kind = type(display)
        names = _DISPLAY_FIELDS.get(kind)
        if names is None:
            names = _DISPLAY_FIELDS[kind] = tuple(f.name for f in fields(display))
        fields_now = getattr(display, "__dict__", None)  # (a copy in C, where it has them)
        if fields_now is not None and tuple(fields_now) == names:
            model = dict(fields_now)
        else:
            model = {name: getattr(display, name) for name in names}
        now, before = self._now, self._before
        for name in _SHARED:
            items = model.get(name)
            if type(items) is not tuple:
                continue
            written = []
            for part in items:
                found = now.get(id(part))
                if found is None or found[0] is not part:
                    found = before.get(id(part))
                    if found is None or found[0] is not part:
                        found = (part, _FRAGMENT(orjson.dumps(part, option=_OPTIONS)))
                    now[id(part)] = found
                written.append(found[1])
            model[name] = written
        out = dict(frame)
        out["display"] = model
        return out
