"""The table protocol's JSON Schemas and constants (``docs/protocol.md``, "Messages").

:mod:`.protocol` reads and builds the messages these schemas describe (and re-exports them);
the tests validate every frame the server sends against them with ``jsonschema``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .rematch import CANCEL_REASONS
from .schema_parts import json_object

__all__ = [
    "CAUSES",
    "CHAT_CHANNELS",
    "CLIENT_SCHEMAS",
    "MAX_CHAT",
    "MAX_NOTATION",
    "PROTOCOL_VERSION",
    "SERVER_SCHEMAS",
    "UNDO_STATUSES",
]

#: The protocol's version; every snapshot carries it. A change that breaks a client adds one
#: (and so does a new feature a client may look for: version 3 added display patches, version 4
#: each step's display and frames without the raw ``view`` unless the client asks, ``view=1``).
PROTOCOL_VERSION = 4
#: The longest action notation a client may send.
MAX_NOTATION = 200
#: The longest chat line a client may send (characters, after surrounding spaces are dropped).
MAX_CHAT = 300
#: A table's chat channels: the players' (a seated connection writes there) and the
#: spectators' (a connection without a seat writes there). Spectators read both; players
#: read only theirs.
CHAT_CHANNELS = ("players", "spectators")

#: What became of a request to take back a move (an ``undo`` frame's ``status``): ``asked``
#: (open, waiting for the ``waiting`` seats), ``accepted`` (the move was taken back),
#: ``declined`` (by the seat ``by``), ``expired``, ``cancelled`` (a new step was played).
UNDO_STATUSES = ("asked", "accepted", "declined", "expired", "cancelled")

#: Why a step was played for its seat (a step's ``cause``; absent: the seat chose it):
#: ``timeout`` a random legal action on time-out, ``timeout-bot`` a bot's first action after
#: it took over on time-out, ``takeover`` a bot playing for a person who ran out of time or left,
#: ``window-closed`` a pass for a seat that had not answered when a claim window closed.
CAUSES = ("timeout", "timeout-bot", "takeover", "window-closed")


# ----- schemas ----------------------------------------------------------------------------------

_SEQ = {"type": "integer", "minimum": 0}
_SEAT = {"type": "integer", "minimum": 0}
_SEAT_OR_NULL = {"type": ["integer", "null"], "minimum": 0}
_EVENT = {
    "type": "object",
    "required": ["type", "data"],
    "properties": {
        "type": {"type": "string", "minLength": 1},
        "data": {"type": "object"},
        "to": {"type": "array", "items": _SEAT},
    },
    "additionalProperties": False,
}
_MESSAGE = {
    "type": "object",
    "required": ["id", "params", "text"],
    "properties": {
        "id": {"type": "string"},
        "params": {"type": "object"},
        "text": {"type": "string"},
    },
    "additionalProperties": False,
}
_LEGAL = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["index", "notation"],
        "properties": {"index": {"type": "integer", "minimum": 0}, "notation": {"type": "string"}},
        "additionalProperties": False,
    },
}
#: a card face of the display model (``campfire.core.present.CardFace``)
_CARD = {"type": "object", "required": ["id", "label", "short", "face_up"]}
#: what a step changed, moved and showed the reading seat alone (``StepDisplay``)
_STEP_DISPLAY = json_object(
    ["changed", "moved", "reveals"],
    {
        "changed": {"type": "array", "items": {"type": "string"}},
        "moved": {
            "type": "array",
            "items": {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 2,
                "maxItems": 2,
            },
        },
        "reveals": {
            "type": "array",
            "items": json_object(["seat", "card"], {"seat": _SEAT, "card": _CARD}),
        },
    },
)
_STEP = {
    "type": "object",
    "required": ["seq", "seat", "events", "messages", "display"],
    "properties": {
        "seq": _SEQ,
        "seat": _SEAT,
        "events": {"type": "array", "items": _EVENT},
        "messages": {"type": "array", "items": _MESSAGE},
        "display": _STEP_DISPLAY,
        "cause": {"enum": list(CAUSES)},
    },
    "additionalProperties": False,
}
#: a person's connection to the table as the server measures it (``null``: a bot or open seat)
_PRESENCE = {
    "type": ["object", "null"],
    "required": ["connected", "away_ms"],
    "properties": {
        "connected": {"type": "boolean"},
        "away_ms": {"type": ["integer", "null"], "minimum": 0},
    },
    "additionalProperties": False,
}
_SEAT_INFO = {
    "type": "object",
    "required": ["seat", "kind", "nickname", "level", "takeover"],
    "properties": {
        "seat": _SEAT,
        "kind": {"enum": ["open", "human", "bot"]},
        "nickname": {"type": ["string", "null"]},
        "level": {"type": ["string", "null"]},
        "takeover": {"type": "boolean"},
        "presence": _PRESENCE,
    },
    "additionalProperties": False,
}
_OUTCOME = {
    "type": ["object", "null"],
    "required": ["scores", "ranks", "winners"],
    "properties": {
        "scores": {"type": "array", "items": {"type": "number"}},
        "ranks": {"type": "array", "items": {"type": "integer"}},
        "winners": {"type": "array", "items": _SEAT},
        "details": {"type": "array", "items": {"type": "object"}},
    },
}
_CLOCKS = {
    "type": ["object", "null"],
    "required": ["control", "remaining_ms", "running"],
    "properties": {
        "control": {
            "type": "object",
            "required": ["kind", "seconds", "on_timeout"],
            "properties": {
                "kind": {"enum": ["move", "game", "turn"]},
                "seconds": {"type": "number", "exclusiveMinimum": 0},
                "increment": {"type": "number", "minimum": 0},
                "on_timeout": {"enum": ["bot", "random", "loss"]},
            },
            "additionalProperties": False,
        },
        "remaining_ms": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "running": {"type": "array", "items": _SEAT},
    },
    "additionalProperties": False,
}
_DISPLAY = {"type": ["object", "null"], "required": ["game", "prompt", "zones", "actions"]}
#: a display patch (``campfire.server.patches``): ``[path, value]`` pairs, applied in order
_PATCH = {
    "type": "array",
    "items": {
        "type": "array",
        "prefixItems": [
            {
                "type": "array",
                "items": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]},
            },
            {},
        ],
        "minItems": 2,
        "maxItems": 2,
    },
}


def _message(type_: str, required: Sequence[str], properties: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["type", *required],
        "properties": {"type": {"const": type_}, **properties},
        "additionalProperties": False,
    }


#: JSON Schemas of the messages a client sends, by type.
CLIENT_SCHEMAS: dict[str, dict[str, Any]] = {
    "action": _message(
        "action",
        ["seq", "action"],
        {
            "seq": _SEQ,
            "action": {
                "oneOf": [
                    {"type": "string", "minLength": 1, "maxLength": MAX_NOTATION},
                    {"type": "integer", "minimum": 0},
                ]
            },
            "seat": _SEAT,
        },
    ),
    "chat": _message("chat", ["text"], {"text": {"type": "string", "maxLength": MAX_CHAT}}),
    "ping": _message("ping", [], {}),
    "sync": _message("sync", [], {"since": _SEQ}),
    "undo": _message("undo", ["seq"], {"seq": _SEQ}),
    "hint": _message("hint", ["seq"], {"seq": _SEQ}),
    "undo_answer": _message(
        "undo_answer", ["seq", "accept"], {"seq": _SEQ, "accept": {"type": "boolean"}}
    ),
}

_CHAT_LINE = {
    "type": "object",
    "required": ["id", "channel", "seat", "name", "text", "sent"],
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "channel": {"enum": list(CHAT_CHANNELS)},
        "seat": _SEAT_OR_NULL,
        "name": {"type": ["string", "null"]},
        "text": {"type": "string", "minLength": 1, "maxLength": MAX_CHAT},
        "sent": {"type": "string"},
    },
    "additionalProperties": False,
}

#: an open rematch proposal (:mod:`.rematch`): who proposed, the people who must accept, those
#: who have, and how long it has left
_REMATCH: dict[str, Any] = {
    "type": "object",
    "required": ["proposer", "people", "accepted", "expires_ms"],
    "properties": {
        "proposer": _SEAT,
        "people": {"type": "array", "items": _SEAT},
        "accepted": {"type": "array", "items": _SEAT},
        "expires_ms": {"type": "integer", "minimum": 0},
    },
    "additionalProperties": False,
}

_TABLE_FIELDS: dict[str, Any] = {
    "table": {"type": "integer", "minimum": 1},
    "game_number": {"type": "integer", "minimum": 0},
    "seq": _SEQ,
}

#: JSON Schemas of the messages the server sends, by type.
SERVER_SCHEMAS: dict[str, dict[str, Any]] = {
    "snapshot": _message(
        "snapshot",
        [
            "version",
            "table",
            "game",
            "status",
            "game_number",
            "seq",
            "seat",
            "seats",
            "display",
            "legal",
            "missed",
            "outcome",
            "clocks",
            "hints",
        ],
        {
            "version": {"const": PROTOCOL_VERSION},
            "game": {"type": "string"},
            "status": {"enum": ["open", "running", "finished"]},
            **_TABLE_FIELDS,
            "seat": _SEAT_OR_NULL,
            "seats": {"type": "array", "items": _SEAT_INFO},
            "view": {"type": ["object", "null"]},
            "display": _DISPLAY,
            "legal": _LEGAL,
            "missed": {"type": "array", "items": _STEP},
            "outcome": _OUTCOME,
            "clocks": _CLOCKS,
            "rematch": {"oneOf": [{"type": "null"}, _REMATCH]},
            # the hints used in the game being played (a reloaded page's log lines, learn.md)
            "hints": {
                "type": "array",
                "items": json_object(["seq", "seat"], {"seq": _SEQ, "seat": _SEAT}),
            },
        },
    ),
    "delta": {
        **_message(
            "delta",
            ["table", "game_number", "seq", "step", "legal", "outcome", "clocks"],
            {
                **_TABLE_FIELDS,
                "step": _STEP,
                "view": {"type": "object"},
                "display": _DISPLAY,
                "patch": _PATCH,
                "legal": _LEGAL,
                "outcome": _OUTCOME,
                "clocks": _CLOCKS,
            },
        ),
        # the whole display model, or (a client of patches) the changes from its last one
        "oneOf": [{"required": ["display"]}, {"required": ["patch"]}],
    },
    "error": _message(
        "error",
        ["code", "message"],
        {
            "code": {
                "enum": [
                    "bad_request",
                    "bad_json",
                    "bad_message",
                    "unknown_type",
                    "too_large",
                    "rate_limited",
                    "not_seated",
                    "wrong_seat",
                    "not_running",
                    "stale",
                    "illegal",
                    "bad_token",
                    "unknown_table",
                    "internal",
                    "undo_off",
                    "undo_realtime",
                    "undo_revealed",
                    "undo_moved",
                    "undo_pending",
                    "undo_none",
                    "hint_off",
                    "hint_turn",
                    "hint_busy",
                ]
            },
            "message": {"type": "string"},
            "seq": _SEQ,
        },
    ),
    "closed": _message(
        "closed",
        ["table", "game_number", "seq", "message"],
        {**_TABLE_FIELDS, "message": {"type": "string", "maxLength": 500}},
    ),
    "presence": _message(
        "presence",
        ["table", "seats"],
        {"table": _TABLE_FIELDS["table"], "seats": {"type": "array", "items": _PRESENCE}},
    ),
    "chat": _message(
        "chat",
        ["table", "lines", "history"],
        {
            "table": {"type": "integer", "minimum": 1},
            "lines": {"type": "array", "items": _CHAT_LINE},
            "history": {"type": "boolean"},
        },
    ),
    "undo": _message(
        "undo",
        ["table", "game_number", "seq", "seat", "status", "waiting", "by", "expires_ms"],
        {
            **_TABLE_FIELDS,
            "seat": _SEAT,
            "status": {"enum": list(UNDO_STATUSES)},
            "waiting": {"type": "array", "items": _SEAT},
            "by": _SEAT_OR_NULL,
            "expires_ms": {"type": ["integer", "null"], "minimum": 0},
        },
    ),
    "hint": _message(
        "hint",
        ["table", "game_number", "seq", "seat", "action", "label", "win", "iterations"],
        {
            **_TABLE_FIELDS,
            "seat": _SEAT,
            "action": {"type": "string", "maxLength": MAX_NOTATION},
            "label": {"type": "string"},
            "win": {"type": "number", "minimum": 0, "maximum": 1},
            "iterations": {"type": "integer", "minimum": 0},
        },
    ),
    "hint_used": _message(
        "hint_used",
        ["table", "game_number", "seq", "seat"],
        {**_TABLE_FIELDS, "seat": _SEAT},
    ),
    "rematch": _message(
        "rematch",
        [
            *("table", "game_number", "state", "proposer", "people", "accepted"),
            *("expires_ms", "reason", "by"),
        ],
        {
            "table": _TABLE_FIELDS["table"],
            "game_number": _TABLE_FIELDS["game_number"],
            "state": {"enum": ["proposed", "cancelled"]},
            **_REMATCH["properties"],
            "reason": {"enum": [*CANCEL_REASONS, None]},
            "by": _SEAT_OR_NULL,
        },
    ),
    "pong": _message("pong", [], {}),
}
