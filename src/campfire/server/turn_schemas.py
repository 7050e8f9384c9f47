"""The JSON Schemas of turn-based play: the ``turn`` clock of a new table, ``POST /api/turns``.

:mod:`.lobby` holds them in ``LOBBY_SCHEMAS`` (``docs/protocol.md``, "Lobby schemas").
"""

from __future__ import annotations

from typing import Any

from .accounts import MAX_CLAIMS
from .clocks import ON_TIMEOUT, TURN_MAX_SECONDS, TURN_MIN_SECONDS
from .store import MAX_TURNS

__all__ = ["TURN_CLOCK_REQUEST", "TURN_SCHEMAS"]

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": required,
        "properties": properties,
        "additionalProperties": False,
    }


#: A turn-based clock in ``POST /api/tables``: an hour to 14 days a move.
TURN_CLOCK_REQUEST = _object(
    ["kind", "seconds"],
    {
        "kind": {"const": "turn"},
        "seconds": {"type": "number", "minimum": TURN_MIN_SECONDS, "maximum": TURN_MAX_SECONDS},
        "on_timeout": {"enum": list(ON_TIMEOUT)},
    },
)

#: ``POST /api/turns``: its body and its answer.
TURN_SCHEMAS: dict[str, dict[str, Any]] = {
    "turns_request": {
        "$schema": _DRAFT,
        **_object(
            [],
            {
                "seats": {
                    "type": "array",
                    "maxItems": MAX_CLAIMS,
                    "items": _object(
                        ["table", "token"],
                        {
                            "table": {"type": "integer", "minimum": 1},
                            "token": {"type": "string", "minLength": 1, "maxLength": 200},
                        },
                    ),
                },
            },
        ),
    },
    "turns": {
        "$schema": _DRAFT,
        **_object(
            ["turns", "now"],
            {
                "turns": {
                    "type": "array",
                    "maxItems": MAX_TURNS,
                    "items": _object(
                        ["table", "seat", "game", "deadline"],
                        {
                            "table": {"type": "integer", "minimum": 1},
                            "seat": {"type": "integer", "minimum": 0},
                            "game": {"type": "string"},
                            "deadline": {"type": "string"},
                        },
                    ),
                },
                "now": {"type": "string"},
            },
        ),
    },
}
