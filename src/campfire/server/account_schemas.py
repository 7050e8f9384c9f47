"""JSON Schemas of the accounts' routes, and of the ratings and players' pages.

Part of :data:`.lobby.LOBBY_SCHEMAS` (``docs/protocol.md``, "Lobby schemas", shows them all):
signing up and in, the account and moderation (reports and blocks: ``docs/accounts.md``),
and the answers of
``GET /api/players/{name}`` (``player_profile``), ``GET /api/account/games`` (``my_games``) and
``GET /api/leaderboards/{game}`` (``leaderboard``).
"""

from __future__ import annotations

from typing import Any

from .accounts import MAX_CLAIMS, MAX_EMAIL, NAME_MAX, NAME_MIN, PASSWORD_MAX, PASSWORD_MIN
from .moderation import CATEGORIES, REASON_MAX
from .schema_parts import SEAT_NUMBER as _SEAT_NUMBER
from .schema_parts import json_object as _object
from .schema_parts import seat_tokens_schema
from .seating import MAX_SEAT_TOKEN

__all__ = ["ACCOUNT_SCHEMAS"]


_PASSWORD = {"type": "string", "minLength": PASSWORD_MIN, "maxLength": PASSWORD_MAX}
_USER = _object(
    ["name", "email", "created"],
    {
        "name": {
            "type": "string",
            "pattern": f"^[A-Za-z0-9][A-Za-z0-9_.-]{{{NAME_MIN - 1},{NAME_MAX - 1}}}$",
        },
        "email": {"type": ["string", "null"], "maxLength": MAX_EMAIL},
        "created": {"type": "string"},
    },
)
_ACCOUNT = {
    "user": {"oneOf": [{"type": "null"}, _USER]},
    "csrf": {"type": ["string", "null"]},
    "mail": {"type": "boolean"},
}


_COUNT = {"type": "integer", "minimum": 0}
_WHEN = {"type": ["string", "null"]}
#: one rating as the pages show it: the game, the player count (0: every count), the shown
#: rating (``1000 + 40·(μ − 3σ)``), μ and σ, games and wins, provisional or not
_RATING_FIELDS = {
    "game": {"type": "string"},
    "players": _COUNT,
    "rating": {"type": "integer"},
    "mu": {"type": "number"},
    "sigma": {"type": "number", "minimum": 0},
    "games": _COUNT,
    "wins": _COUNT,
    "provisional": {"type": "boolean"},
}
#: a leaderboard's row: a rating without its game and count (the leaderboard's own)
_ROW_FIELDS = {k: v for k, v in _RATING_FIELDS.items() if k not in ("game", "players")}
_HISTORY = _object(
    ["table", "game_number", "rating", "change", "rated"],
    {
        "table": {"type": "integer", "minimum": 1},
        "game_number": {"type": "integer", "minimum": 1},
        "rating": {"type": "integer"},
        "change": {"type": "integer"},
        "rated": _WHEN,
    },
)
#: one game of a player's: the table and game, the seats' names (``bot:LEVEL`` for a bot), the
#: player's seat, place (1 is best) and rating change where it was rated
_GAME = _object(
    [
        *("table", "game", "players", "seat", "rated", "names", "game_number", "status"),
        *("place", "won", "change", "finished"),
    ],
    {
        "table": {"type": "integer", "minimum": 1},
        "game": {"type": "string"},
        "players": {"type": "integer", "minimum": 1},
        "seat": _SEAT_NUMBER,
        "rated": {"type": "boolean"},
        "names": {"type": "array", "items": {"type": ["string", "null"]}},
        "game_number": _COUNT,
        "status": {"enum": ["open", "running", "finished"]},
        "place": {"type": ["integer", "null"], "minimum": 1},
        "won": {"type": ["boolean", "null"]},
        "change": {"type": ["integer", "null"]},
        "finished": _WHEN,
    },
)
_GAMES = {"type": "array", "items": _GAME}

#: The accounts' schemas, and the ratings' and players' pages' (by name).
ACCOUNT_SCHEMAS: dict[str, dict[str, Any]] = {
    "sign_up": _object(
        ["user_name", "password"],
        {
            "user_name": {"type": "string", "minLength": NAME_MIN, "maxLength": NAME_MAX},
            "password": _PASSWORD,
            "email": {"type": ["string", "null"], "maxLength": MAX_EMAIL},
            "claim": seat_tokens_schema(MAX_CLAIMS, MAX_SEAT_TOKEN),
        },
        schema=True,
    ),
    "sign_in": _object(
        ["user_name", "password"],
        {
            "user_name": {"type": "string", "maxLength": 64},
            "password": {"type": "string", "maxLength": 256},
        },
        schema=True,
    ),
    "account": _object(["user", "csrf", "mail"], _ACCOUNT, schema=True),
    "signed_up": _object(
        ["user", "csrf", "mail", "claimed"],
        {
            **_ACCOUNT,
            "claimed": {
                "type": "array",
                "items": _object(
                    ["table", "seat"], {"table": {"type": "integer"}, "seat": _SEAT_NUMBER}
                ),
            },
        },
        schema=True,
    ),
    "change_password": _object(
        ["old_password", "new_password"],
        {"old_password": {"type": "string", "maxLength": 256}, "new_password": _PASSWORD},
        schema=True,
    ),
    "delete_account": _object(
        ["password"], {"password": {"type": "string", "maxLength": 256}}, schema=True
    ),
    "player_profile": _object(
        ["name", "provisional_games", "ratings", "games"],
        {
            "name": {"type": "string"},
            "provisional_games": {"type": "integer", "minimum": 1},
            "ratings": {
                "type": "array",
                "items": _object(
                    [*_RATING_FIELDS, "history"],
                    {**_RATING_FIELDS, "history": {"type": "array", "items": _HISTORY}},
                ),
            },
            "games": _GAMES,
        },
        schema=True,
    ),
    "my_games": _object(
        ["name", "running", "finished"],
        {"name": {"type": "string"}, "running": _GAMES, "finished": _GAMES},
        schema=True,
    ),
    "leaderboard": _object(
        ["game", "title", "players", "counts", "provisional_games", "rows"],
        {
            "game": {"type": "string"},
            "title": {"type": "string"},
            "players": _COUNT,
            "counts": {"type": "array", "items": {"type": "integer", "minimum": 1}},
            "provisional_games": {"type": "integer", "minimum": 1},
            "rows": {
                "type": "array",
                "items": _object(
                    ["place", "name", "bot", *_ROW_FIELDS],
                    {
                        "place": {"type": "integer", "minimum": 1},
                        "name": {"type": ["string", "null"]},
                        "bot": {"type": ["string", "null"]},
                        **_ROW_FIELDS,
                    },
                ),
            },
        },
        schema=True,
    ),
    # moderation (docs/accounts.md, "Moderation")
    "report_request": _object(
        ["category", "reason"],
        {
            "user_name": {"type": "string", "minLength": 1, "maxLength": 64},
            "table": {"type": "integer", "minimum": 1},
            "seat": _SEAT_NUMBER,
            "category": {"enum": list(CATEGORIES)},
            "reason": {"type": "string", "minLength": 1, "maxLength": REASON_MAX},
        },
        schema=True,
    ),
    "reported": _object(["reported"], {"reported": {"const": True}}, schema=True),
    "block_request": _object(
        [],
        {
            "user_name": {"type": "string", "minLength": 1, "maxLength": 64},
            "table": {"type": "integer", "minimum": 1},
            "seat": _SEAT_NUMBER,
        },
        schema=True,
    ),
    "unblock_request": _object(
        ["user_name"],
        {"user_name": {"type": "string", "minLength": 1, "maxLength": 64}},
        schema=True,
    ),
    "blocks": _object(
        ["blocks"],
        {
            "blocks": {
                "type": "array",
                "items": _object(
                    ["user_name", "since"],
                    {"user_name": {"type": "string"}, "since": {"type": ["string", "null"]}},
                ),
            }
        },
        schema=True,
    ),
}
