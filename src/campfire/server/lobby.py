"""The lobby over HTTP (JSON): games, tables, seats, start, rematch, records.

Every error is ``{"error": {"code", "message"}}`` with an HTTP status that says what went
wrong (the message in the request's language: ``?lang=``, else ``Accept-Language``, else
English): 400 (a request that is not allowed as written), 401 (no or a wrong seat token), 404
(no such table or record), 409 (not allowed in the table's current state: full, started, not
finished), 413 (a body over :data:`MAX_BODY_BYTES`), 429 (``rate_limited``: too many writes
from one address, :mod:`.security`). ``docs/protocol.md`` lists the routes; the accounts'
(:mod:`.account_routes`) answer their errors the same way, with codes of their own.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from campfire.agents import LEVELS
from campfire.core import ErrorText, OptionInfo, all_games
from campfire.i18n import game_title, negotiate, normalize, translator

from .account_schemas import ACCOUNT_SCHEMAS
from .account_service import signed_in_user
from .clocks import MAX_SECONDS, ON_TIMEOUT
from .limits import announced_length
from .protocol import SERVER_SCHEMAS
from .quick_schemas import quick_schemas
from .rematch import ANSWERS
from .schema_parts import DRAFT as _DRAFT
from .schema_parts import SEAT_NUMBER as _SEAT_NUMBER
from .schema_parts import json_object as _object
from .tables import MAX_NICKNAME, LiveTable, LobbyError, TableManager
from .turn_schemas import TURN_CLOCK_REQUEST, TURN_SCHEMAS
from .wire import decode

__all__ = [
    "ERROR_CODES",
    "LOBBY_SCHEMAS",
    "MAX_BODY_BYTES",
    "error_response",
    "game_number",
    "guarded",
    "language_of",
    "live_table",
    "read_body",
    "routes",
]

#: The largest request body the lobby reads.
MAX_BODY_BYTES = 64 * 1024

#: The codes of the lobby's errors (``{"error": {"code", "message"}}``), replays' included.
ERROR_CODES = (
    "bad_request",
    "bad_json",
    "bad_record",
    "bad_token",
    "unknown_table",
    "unknown_game",
    "no_record",
    "table_full",
    "seat_taken",
    "not_open",
    "seats_open",
    "people_away",
    "not_finished",
    "no_proposal",
    "table_closed",
    "too_large",
    "too_long",
    "timeout",
    "too_many_connections",
    "bad_origin",
    "rate_limited",
    "table_moved",
    "unknown_lesson",
    "stale_step",
    "review_busy",
    "no_review",
    "internal",
    # the accounts' (docs/accounts.md)
    "bad_user_name",
    "name_taken",
    "bad_password",
    "bad_email",
    "bad_credentials",
    "signed_out",
    "bad_csrf",
    "no_mail",
    "bad_reset",
    # ratings (docs/accounts.md, "Ratings")
    "account_needed",
    "unknown_player",
    # moderation and quick match (docs/accounts.md, "Moderation"; docs/protocol.md)
    "unknown_user",
    "blocked",
    "suspended",
    "queue_full",
    "unknown_ticket",
)

# ----- schemas ----------------------------------------------------------------------------------

_SEAT_INFO = SERVER_SCHEMAS["snapshot"]["properties"]["seats"]["items"]
#: a nickname as a request gives it: 1–32 characters once the white space around it is trimmed
#: (the pattern), all printable (``str.isprintable``, which a pattern does not say: no control
#: or format characters, so no bidirectional or zero-width marks, and no separator but the space)
_NICKNAME = {
    "type": "string",
    "pattern": f"^\\s*\\S(.{{0,{MAX_NICKNAME - 2}}}\\S)?\\s*$",  # 1–32 once trimmed
}
_SECONDS = {"type": "number", "minimum": 0.1, "maximum": MAX_SECONDS}
_ON_TIMEOUT = {"enum": list(ON_TIMEOUT)}


#: The table object: what the lobby says of a table. ``options`` holds the options that differ
#: from the game's defaults. ``game_number`` is 0 and ``seq`` 0 while the table is open; the
#: start makes it 1 (the first game), each rematch adds one; ``seq`` counts the actions of that
#: game. ``realtime`` says whether the server times the claims (a game with real-time claim
#: windows: always at two or more people, see ``docs/protocol.md``).
_TABLE = {
    **_object(
        [
            *("id", "game", "options", "players", "status", "game_number", "seq", "seats"),
            *("realtime", "rated"),
        ],
        {
            "id": {"type": "integer", "minimum": 1},
            "game": {"type": "string"},
            "options": {"type": "object"},
            "players": {"type": "integer", "minimum": 1},
            "status": {"enum": ["open", "running", "finished"]},
            "game_number": {"type": "integer", "minimum": 0},
            "seq": {"type": "integer", "minimum": 0},
            "seats": {"type": "array", "items": _SEAT_INFO},
            "realtime": {"type": "boolean"},
            "rated": {"type": "boolean"},
        },
    ),
    "if": {"properties": {"status": {"const": "open"}}},
    "then": {"properties": {"game_number": {"const": 0}, "seq": {"const": 0}}},
    "else": {"properties": {"game_number": {"minimum": 1}}},
}
_CLOCK_REQUEST = {
    "oneOf": [
        {"type": "null"},
        _object([], {"kind": {"const": "none"}}),
        _object(
            ["kind", "seconds"],
            {"kind": {"const": "move"}, "seconds": _SECONDS, "on_timeout": _ON_TIMEOUT},
        ),
        _object(
            ["kind", "seconds"],
            {
                "kind": {"const": "game"},
                "seconds": _SECONDS,
                "increment": {"type": "number", "minimum": 0, "maximum": MAX_SECONDS},
                "on_timeout": _ON_TIMEOUT,
            },
        ),
        TURN_CLOCK_REQUEST,
    ]
}
_SEAT_REQUEST = {
    "oneOf": [
        _object(["kind"], {"kind": {"const": "open"}}),
        _object(["kind"], {"kind": {"const": "bot"}, "level": {"enum": list(LEVELS)}}),
        _object(["kind", "nickname"], {"kind": {"const": "reserved"}, "nickname": _NICKNAME}),
    ]
}
_GAME_INFO = _object(
    ["name", "title", "min_players", "max_players", "options"],
    {
        "name": {"type": "string"},
        "title": {"type": "string"},
        "min_players": {"type": "integer", "minimum": 1},
        "max_players": {"type": "integer", "minimum": 1},
        "options": {
            "type": "array",
            "items": _object(
                ["name", "default", "choices", "help", "label", "labels", "seat"],
                {
                    "name": {"type": "string"},
                    "default": {"type": ["boolean", "integer", "number", "string"]},
                    "choices": {"type": ["array", "null"]},
                    "help": {"type": "string"},
                    "label": {"type": "string"},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "seat": {"type": "boolean"},
                },
            ),
        },
    },
)

#: JSON Schemas of the lobby's request bodies and answers, by name (``docs/protocol.md``,
#: "Lobby schemas", shows them; the tests validate the answers they get against them).
LOBBY_SCHEMAS: dict[str, dict[str, Any]] = {
    "table": {"$schema": _DRAFT, **_TABLE},
    "create_table": _object(
        ["game"],
        {
            "game": {"type": "string"},
            "players": {"type": "integer", "minimum": 1},
            "options": {"type": "object"},
            "seats": {"type": "array", "items": _SEAT_REQUEST},
            "clock": _CLOCK_REQUEST,
            "bot_after_leave": {"type": ["number", "null"], "minimum": 0, "maximum": 3600},
            "realtime": {"type": "boolean"},
            "takeover_level": {"enum": list(LEVELS)},
            "undo": {"type": "boolean"},
            "hints": {"type": "boolean"},
            "rated": {"type": "boolean"},
        },
        schema=True,
    ),
    "table_created": _object(
        ["table", "tokens"],
        {
            "table": _TABLE,
            "tokens": {
                "type": "object",
                "patternProperties": {"^(0|[1-9][0-9]*)$": {"type": "string", "minLength": 1}},
                "additionalProperties": False,
            },
        },
        schema=True,
    ),
    "join_table": _object(
        ["nickname"],
        {"nickname": _NICKNAME, "seat": {"type": ["integer", "null"], "minimum": 0}},
        schema=True,
    ),
    "seat_joined": _object(
        ["table", "seat", "token"],
        {"table": _TABLE, "seat": _SEAT_NUMBER, "token": {"type": "string", "minLength": 1}},
        schema=True,
    ),
    "start_table": _object([], {"absent": {"enum": ["wait", "refuse", "bots"]}}, schema=True),
    "name_seat": _object(["nickname"], {"nickname": _NICKNAME}, schema=True),
    "seat_named": _object(["table", "seat"], {"table": _TABLE, "seat": _SEAT_NUMBER}, schema=True),
    "seat_left": _object(["table", "seat"], {"table": _TABLE, "seat": _SEAT_NUMBER}, schema=True),
    "one_table": _object(["table"], {"table": _TABLE}, schema=True),
    "rematch_request": _object([], {"answer": {"enum": list(ANSWERS)}}, schema=True),
    "rematch_answer": _object(
        ["table", "rematch"],
        {
            "table": _TABLE,
            "rematch": SERVER_SCHEMAS["snapshot"]["properties"]["rematch"],
        },
        schema=True,
    ),
    "tables": _object(["tables"], {"tables": {"type": "array", "items": _TABLE}}, schema=True),
    "games": {"$schema": _DRAFT, "type": "array", "items": _GAME_INFO},
    "health": _object(["status"], {"status": {"enum": ["ok", "starting"]}}, schema=True),
    **ACCOUNT_SCHEMAS,  # the accounts', moderation's, ratings' and players' (account_schemas.py)
    "review_progress": {
        "$schema": _DRAFT,
        "type": "object",
        "required": ["status", "done", "total", "review"],
        "properties": {
            "table": {"type": "integer", "minimum": 1},
            "game_number": {"type": "integer", "minimum": 1},
            "id": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            "status": {"enum": ["none", "queued", "running", "done", "failed"]},
            "done": {"type": "integer", "minimum": 0},
            "total": {"type": "integer", "minimum": 0},
            "review": {"type": ["object", "null"]},
            "error": {"type": ["string", "null"]},
        },
        "oneOf": [{"required": ["table", "game_number"]}, {"required": ["id"]}],
        "additionalProperties": False,
    },
    **quick_schemas(_NICKNAME),  # Play now (quick_schemas.py)
    **TURN_SCHEMAS,  # your turn across tables (turn_schemas.py)
    "http_error": _object(
        ["error"],
        {
            "error": _object(
                ["code", "message"],
                {"code": {"enum": list(ERROR_CODES)}, "message": {"type": "string"}},
            )
        },
        schema=True,
    ),
}

Handler = Callable[[Request], Awaitable[Response]]


def language_of(connection: HTTPConnection) -> str:
    """A request's or a WebSocket's language: ``?lang=``, else ``Accept-Language``, else English.

    A ``lang`` Campfire does not speak is passed over (the header decides, then English).
    """
    return normalize(connection.query_params.get("lang")) or negotiate(
        connection.headers.get("accept-language")
    )


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """The JSON error answer."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """A request's body, read up to ``limit`` bytes (:class:`LobbyError` 413 beyond).

    A body announced longer (``Content-Length``) is refused before a byte of it is read.
    """
    announced = announced_length(request.headers.raw)
    if announced is not None and announced > limit:
        raise LobbyError(
            413, "too_large", ErrorText("a request body holds at most {limit} bytes", limit=limit)
        )
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise LobbyError(
                413,
                "too_large",
                ErrorText("a request body holds at most {limit} bytes", limit=limit),
            )
    return data


def _bad_json(message: str) -> LobbyError:
    return LobbyError(400, "bad_json", message)


async def _body(request: Request) -> dict[str, Any]:
    """A request's JSON object (an empty body: ``{}``), read by the one strict reader.

    :func:`.wire.decode` refuses a key twice in an object, ``NaN`` and ``Infinity`` (400
    ``bad_json``, as for any JSON that is not well formed).
    """
    data = await read_body(request)
    if not data.strip():
        return {}
    body = decode(data, ErrorText("the request body"), _bad_json)
    if not isinstance(body, dict):
        raise LobbyError(400, "bad_json", ErrorText("the request body is a JSON object"))
    return body


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _table_id(request: Request) -> int:
    raw = request.path_params["table_id"]
    if not raw.isascii() or not raw.isdigit() or len(raw) > 12:
        raise LobbyError(
            404, "unknown_table", ErrorText("there is no table {table}", table=repr(raw[:20]))
        )
    return int(raw)


def live_table(request: Request) -> LiveTable:
    """The table of the request's path (:class:`LobbyError` 404 if there is none)."""
    return _manager(request).get(_table_id(request))


def game_number(request: Request) -> int | None:
    """The ``game`` query parameter: the number of a game at the table (``None``: absent)."""
    raw = request.query_params.get("game")
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise LobbyError(400, "bad_request", ErrorText("game is the number of a game at the table"))
    return int(raw)


def guarded(handler: Handler) -> Handler:
    """``handler``, answering a :class:`LobbyError` as the JSON error in the request's language.

    An error with a ``retry_after`` (a rate limit) also gets the ``Retry-After`` header.
    """

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except LobbyError as exc:
            metrics = getattr(request.app.state, "metrics", None)
            if metrics is not None:
                metrics.error(exc.code, "http")
            message = translator(language_of(request)).error(exc)
            answer = error_response(exc.status, exc.code, message)
            if exc.retry_after is not None:
                answer.headers["Retry-After"] = str(math.ceil(exc.retry_after))
            return answer

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


async def games(request: Request) -> Response:
    """``GET /api/games``: the games, their player ranges and options with defaults.

    The titles and the options' help texts are in the request's language (:func:`language_of`).
    """
    tr = translator(language_of(request))
    out = []
    for game in all_games():
        info = game.to_json()
        info["title"] = game_title(game, tr)
        declared = {i.name: i for i in game.options_type.infos()}
        for option in info["options"]:
            # the catalogs' contexts of an option's texts (campfire.i18n.extract)
            context = f"{game.name}.option.{option['name']}"
            if option["help"]:
                option["help"] = tr.pgettext(context, option["help"])
            found = declared[option["name"]]
            label_context = f"{context}.label"
            option["label"] = (
                tr.pgettext(label_context, found.label) if found.label else found.title()
            )
            option["labels"] = _value_labels(found, context, tr.pgettext)
            option["seat"] = found.seat
        out.append(info)
    return JSONResponse(out)


def _value_labels(
    info: OptionInfo, context: str, pgettext: Callable[[str, str], str]
) -> dict[str, str]:
    """The words for an option's values, by the value as text.

    The declared ones translated, the other choices in a readable form; none for a seat's
    undeclared values (the page numbers the players) nor a switch's.
    """
    declared = {str(value): words for value, words in info.labels}
    out = {}
    for value in info.choices or ():
        key = str(value)
        if key in declared:
            value_context = f"{context}={key}"
            out[key] = pgettext(value_context, declared[key])
        elif not info.seat and not isinstance(value, bool):
            out[key] = info.value_label(value)
    return out


async def list_tables(request: Request) -> Response:
    """``GET /api/tables[?status=open,running]``: the tables, open and running by default."""
    raw = request.query_params.get("status", "open,running")
    statuses = [s for s in raw.split(",") if s]
    bad = [s for s in statuses if s not in ("open", "running", "finished")]
    if bad or not statuses:
        raise LobbyError(
            400, "bad_request", ErrorText("status is a list of open, running, finished")
        )
    return JSONResponse({"tables": _manager(request).listing(statuses)})


async def create_table(request: Request) -> Response:
    """``POST /api/tables``: a new table; the answer holds the reserved seats' tokens.

    A signed-in creator's seat (the first reserved one) is recorded as theirs.
    """
    manager = _manager(request)
    body = await _body(request)
    live, tokens = manager.create(body, await signed_in_user(request))
    return JSONResponse(
        {"table": live.public(), "tokens": {str(k): v for k, v in tokens.items()}},
        status_code=201,
    )


async def show_table(request: Request) -> Response:
    """``GET /api/tables/{id}``: one table."""
    return JSONResponse({"table": live_table(request).public()})


async def join(request: Request) -> Response:
    """``POST /api/tables/{id}/join``: take a seat; the answer holds the secret seat token.

    A signed-in person's seat is recorded as theirs; they may not join a table where an
    account they block, or that blocks them, sits (409 ``blocked``).
    """
    live = live_table(request)
    body = await _body(request)
    user = await signed_in_user(request)
    service = getattr(request.app.state, "accounts", None)
    moderation = service.moderation if service is not None else None
    if moderation is not None and user is not None:
        await asyncio.to_thread(moderation.check_join, user, live.id)
    async with live.lock:
        seat, token = _manager(request).join(live, body, user)
    return JSONResponse({"table": live.public(), "seat": seat, "token": token}, status_code=201)


async def leave(request: Request) -> Response:
    """``POST /api/tables/{id}/leave``: give a seat back before the game starts."""
    live = live_table(request)
    async with live.lock:
        seat = _manager(request).leave(live, _token(request))  # (nobody's account's now)
    return JSONResponse({"table": live.public(), "seat": seat})


async def start(request: Request) -> Response:
    """``POST /api/tables/{id}/start``: start the game (``{"absent": …}``: who is missing)."""
    live = live_table(request)
    manager = _manager(request)
    body = await _body(request)
    async with live.lock:
        manager.start(live, _token(request), request.app.state.next_seed(), body)
    return JSONResponse({"table": live.public()})


async def name_seat(request: Request) -> Response:
    """``POST /api/tables/{id}/name``: a seated person's own name, before the game starts."""
    live = live_table(request)
    body = await _body(request)
    async with live.lock:
        seat = _manager(request).rename(live, _token(request), body)
    return JSONResponse({"table": live.public(), "seat": seat})


async def rematch(request: Request) -> Response:
    """``POST /api/tables/{id}/rematch``: propose, accept (``{}``) or decline the next game.

    The answer holds the table and the open proposal (``rematch``; null once the next game
    started, or after a decline).
    """
    live = live_table(request)
    manager = _manager(request)
    body = await _body(request)
    async with live.lock:
        proposal = manager.rematch(live, _token(request), request.app.state.next_seed(), body)
    return JSONResponse({"table": live.public(), "rematch": proposal})


async def record(request: Request) -> Response:
    """``GET /api/tables/{id}/record[?game=N]``: a finished game's record (replayable)."""
    live = live_table(request)
    text = _manager(request).record(live, game_number(request))
    return Response(text, media_type="application/json")


def routes() -> list[Route]:
    """The lobby's routes."""
    return [
        Route("/api/games", guarded(games), methods=["GET"]),
        Route("/api/tables", guarded(list_tables), methods=["GET"]),
        Route("/api/tables", guarded(create_table), methods=["POST"]),
        Route("/api/tables/{table_id}", guarded(show_table), methods=["GET"]),
        Route("/api/tables/{table_id}/join", guarded(join), methods=["POST"]),
        Route("/api/tables/{table_id}/leave", guarded(leave), methods=["POST"]),
        Route("/api/tables/{table_id}/start", guarded(start), methods=["POST"]),
        Route("/api/tables/{table_id}/name", guarded(name_seat), methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", guarded(rematch), methods=["POST"]),
        Route("/api/tables/{table_id}/record", guarded(record), methods=["GET"]),
    ]
