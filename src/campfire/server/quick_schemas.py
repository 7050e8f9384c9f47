"""JSON Schemas of the quick match's routes (``POST``, ``GET`` and ``DELETE /api/quick``).

Part of :data:`.lobby.LOBBY_SCHEMAS` (``docs/protocol.md``, "Lobby schemas", shows them all;
"Quick match" says what they mean). :data:`WAITS` are the waits a person may choose.
"""

from __future__ import annotations

from typing import Any

from campfire.agents import LEVELS

from .schema_parts import SEAT_NUMBER, json_object

__all__ = ["WAITS", "quick_schemas"]

#: The waits a quick match's person may choose (seconds) before bots fill the empty seats
#: (:mod:`.quick`).
WAITS = (10, 30, 60, 120, 300)


def quick_schemas(nickname: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The quick match's schemas by name; ``nickname`` is the lobby's schema of a nickname."""
    #: a ticket's state: waiting (who waits, the seconds until bots fill the seats) or seated
    #: (the table, the seat and its token)
    state = {
        **json_object(
            ["game", "players", "state", "seconds_left", "waiting"],
            {
                "game": {"type": "string"},
                "players": {"type": "integer", "minimum": 1},
                "state": {"enum": ["waiting", "seated"]},
                "seconds_left": {"type": "number", "minimum": 0},
                "waiting": {"type": "array", "maxItems": 20, "items": {"type": "string"}},
                "table": {"type": "integer", "minimum": 1},
                "seat": SEAT_NUMBER,
                "token": {"type": "string", "minLength": 1},
            },
            schema=True,
        ),
        "if": {"properties": {"state": {"const": "seated"}}},
        "then": {"required": ["table", "seat", "token"]},
        "else": {"not": {"required": ["table"]}},
    }
    return {
        "quick_request": json_object(
            ["game", "nickname"],
            {
                "game": {"type": "string"},
                "players": {"type": "integer", "minimum": 1},
                "wait": {"enum": list(WAITS)},
                "level": {"enum": list(LEVELS)},
                "nickname": nickname,
            },
            schema=True,
        ),
        "quick_state": state,
        "quick_joined": {
            **state,
            "required": ["ticket", *state["required"]],
            "properties": {"ticket": {"type": "string", "minLength": 1}, **state["properties"]},
        },
        "quick_left": json_object(["left"], {"left": {"const": True}}, schema=True),
    }
