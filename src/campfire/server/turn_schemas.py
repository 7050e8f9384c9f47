"""The JSON Schemas of turn-based play: the ``turn`` clock of a new table, ``POST /api/turns``.

:mod:`.lobby` holds them in ``LOBBY_SCHEMAS`` (``docs/protocol.md``, "Lobby schemas").
"""

from __future__ import annotations

from typing import Any

from .accounts import MAX_CLAIMS
from .clocks import ON_TIMEOUT, TURN_MAX_SECONDS, TURN_MIN_SECONDS
from .schema_parts import SEAT_NUMBER, json_object, seat_tokens_schema
from .seating import MAX_SEAT_TOKEN
from .store import MAX_TURNS

__all__ = ["TURN_CLOCK_REQUEST", "TURN_SCHEMAS"]

#: A turn-based clock in ``POST /api/tables``: an hour to 14 days a move.
TURN_CLOCK_REQUEST = json_object(
    ["kind", "seconds"],
    {
        "kind": {"const": "turn"},
        "seconds": {"type": "number", "minimum": TURN_MIN_SECONDS, "maximum": TURN_MAX_SECONDS},
        "on_timeout": {"enum": list(ON_TIMEOUT)},
    },
)

#: ``POST /api/turns``: its body and its answer.
TURN_SCHEMAS: dict[str, dict[str, Any]] = {
    "turns_request": json_object(
        [], {"seats": seat_tokens_schema(MAX_CLAIMS, MAX_SEAT_TOKEN)}, schema=True
    ),
    "turns": json_object(
        ["turns", "now"],
        {
            "turns": {
                "type": "array",
                "maxItems": MAX_TURNS,
                "items": json_object(
                    ["table", "seat", "game", "deadline"],
                    {
                        "table": {"type": "integer", "minimum": 1},
                        "seat": SEAT_NUMBER,
                        "game": {"type": "string"},
                        "deadline": {"type": "string"},
                    },
                ),
            },
            "now": {"type": "string"},
        },
        schema=True,
    ),
}
