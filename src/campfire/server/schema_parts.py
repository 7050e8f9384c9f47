"""Pieces shared by the lobby's JSON Schemas (:data:`.lobby.LOBBY_SCHEMAS` and its parts).

The lobby's own schemas, the accounts' (:mod:`.account_schemas`), the quick match's
(:mod:`.quick_schemas`) and turn-based play's (:mod:`.turn_schemas`) are written with these,
so that a closed object, a seat number or a list of seat tokens reads the same everywhere.

>>> json_object(["a"], {"a": SEAT_NUMBER})["additionalProperties"]
False
>>> json_object([], {}, schema=True)["$schema"] == DRAFT
True
"""

from __future__ import annotations

from typing import Any

__all__ = ["DRAFT", "SEAT_NUMBER", "json_object", "seat_tokens_schema"]

#: The JSON Schema dialect of every schema (draft 2020-12).
DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: A seat's number.
SEAT_NUMBER = {"type": "integer", "minimum": 0}


def json_object(
    required: list[str], properties: dict[str, Any], *, schema: bool = False
) -> dict[str, Any]:
    """A JSON object with exactly ``properties``, ``required`` of them.

    With ``schema`` it is a whole schema (it carries ``$schema``), not a part of one.
    """
    head = {"$schema": DRAFT} if schema else {}
    return {
        **head,
        "type": "object",
        "required": required,
        "properties": properties,
        "additionalProperties": False,
    }


def seat_tokens_schema(limit: int, token_length: int) -> dict[str, Any]:
    """A list of at most ``limit`` ``{"table", "token"}`` objects (a browser's seat tokens)."""
    return {
        "type": "array",
        "maxItems": limit,
        "items": json_object(
            ["table", "token"],
            {
                "table": {"type": "integer", "minimum": 1},
                "token": {"type": "string", "minLength": 1, "maxLength": token_length},
            },
        ),
    }
