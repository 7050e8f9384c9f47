"""Replays: a finished game step by step, from one seat's point of view or the spectator's.

``GET /api/tables/{id}/replay?game=N&seat=S`` replays a finished game of a table, ``POST
/api/replay?seat=S`` a record file sent as the body (``docs/records.md``). Both answer the same
document (``docs/protocol.md``, "Replays"): for every step 0..n the display model of that seat's
view with its legal actions, and the step as that seat saw it (the events addressed to it and
their log lines), then the outcome.

A replay is built only from what the seat could know at each step — its view, its legal actions
and its visible events, through the same presenter path as the live tables' frames
(:func:`.protocol.seat_display`, :func:`.protocol.seat_step`) — so a seat's replay shows no
other seat's hidden cards. A game still being played has no replay (409): its record would tell
the seed, which decides every hidden card.

The text is in the language of the ``lang`` query parameter, else the ``Accept-Language``
header's (:func:`.lobby.language_of`); so are the error messages, and so are the names that
Campfire gave (a bot's, an unnamed seat's: :func:`campfire.i18n.names.shown_name`), whatever
language the record wrote them in.

>>> from campfire.core import Match, all_games
>>> game = next(g for g in all_games() if g.min_players <= 2)
>>> match = Match(game, 2, seed=3, names=["Ann", "Bob"])
>>> for _ in range(3):
...     seat = match.state.seats_to_act()[0]
...     _ = match.play(seat, match.state.legal_actions(seat)[0])
>>> replay = build_replay(match.record().dumps(), 1)
>>> len(replay["frames"]), replay["frames"][0]["step"], replay["frames"][1]["seq"]
(4, None, 1)
"""

from __future__ import annotations

import asyncio
import gzip
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from campfire.core import CampfireError, ErrorText, Outcome, Record
from campfire.core import get as get_game
from campfire.core.records import replay_text
from campfire.core.table import Table
from campfire.i18n import game_title, translator
from campfire.i18n.names import shown_names
from campfire.web import static_dir

from . import protocol, wire
from .lobby import game_number, guarded, language_of, live_table, read_body
from .pages import missing_page, shown
from .tables import LobbyError, TableManager

__all__ = [
    "MAX_RECORD_BYTES",
    "MAX_REPLAY_STEPS",
    "REPLAY_SCHEMA",
    "ReplayCache",
    "build_replay",
    "routes",
]

#: The largest record file ``POST /api/replay`` reads (bytes).
MAX_RECORD_BYTES = 1024 * 1024
#: The most actions a replay steps through (a longer record is refused: 413).
MAX_REPLAY_STEPS = 5000
#: How many finished games' replays a server keeps built (per seat and language).
CACHE_SIZE = 32


_FRAME_PARTS = protocol.SERVER_SCHEMAS["delta"]["properties"]

#: The JSON Schema of a replay document (``docs/protocol.md`` shows it; the tests validate every
#: replay against it). A frame's ``step`` is ``null`` at the start, then the step that led to it.
REPLAY_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": [
        "game",
        "title",
        "players",
        "names",
        "options",
        "seat",
        "language",
        "table",
        "game_number",
        "frames",
        "outcome",
        "forfeit",
    ],
    "properties": {
        "game": {"type": "string"},
        "title": {"type": "string"},
        "players": {"type": "integer", "minimum": 1},
        "names": {"type": "array", "items": {"type": "string"}},
        "options": {"type": "object"},
        "seat": {"type": ["integer", "null"], "minimum": 0},
        "language": {"type": "string"},
        "table": {"type": ["integer", "null"]},
        "game_number": {"type": ["integer", "null"]},
        "frames": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["seq", "step", "display", "legal"],
                "properties": {
                    "seq": {"type": "integer", "minimum": 0},
                    "step": {"oneOf": [{"type": "null"}, _FRAME_PARTS["step"]]},
                    "display": _FRAME_PARTS["display"],
                    "legal": _FRAME_PARTS["legal"],
                },
                "additionalProperties": False,
            },
        },
        "outcome": _FRAME_PARTS["outcome"],
        "forfeit": {
            "type": ["object", "null"],
            "required": ["seat", "seq", "reason", "outcome"],
            "properties": {
                "seat": {"type": "integer", "minimum": 0},
                "seq": {"type": "integer", "minimum": 0},
                "reason": {"const": "time"},
                "outcome": {"type": "object"},
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}


def _causes(meta: Mapping[str, Any], steps: int) -> dict[int, str]:
    """Why steps were played for their seats (``meta.causes``), the well-formed entries only."""
    raw = meta.get("causes")
    out: dict[int, str] = {}
    if not isinstance(raw, list):
        return out
    for item in raw:
        if not isinstance(item, dict):
            continue
        seq, cause = item.get("seq"), item.get("cause")
        if type(seq) is int and 0 <= seq < steps and cause in protocol.CAUSES:
            out[seq] = str(cause)
    return out


def _forfeit(meta: Mapping[str, Any], players: int, steps: int) -> dict[str, Any] | None:
    """The record's game lost on time (``meta.forfeit``), if it is well formed."""
    raw = meta.get("forfeit")
    if not isinstance(raw, dict):
        return None
    seat, seq, outcome = raw.get("seat"), raw.get("seq"), raw.get("outcome")
    if type(seat) is not int or not 0 <= seat < players or seq != steps:
        return None
    try:
        checked = Outcome.from_json(outcome) if isinstance(outcome, dict) else None
    except (KeyError, TypeError, ValueError):
        checked = None
    if checked is None or len(checked.scores) != players or len(checked.ranks) != players:
        return None
    if not all(type(w) is int and 0 <= w < players for w in checked.winners):
        return None
    return {"seat": seat, "seq": seq, "reason": "time", "outcome": checked.to_json()}


def _read_seat(raw: str | None, players: int | None = None) -> int | None:
    """The ``seat`` query parameter: a seat number, or ``spectator`` (also when absent)."""
    if raw is None or raw == "spectator":
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 3:
        raise LobbyError(
            400,
            "bad_request",
            ErrorText("seat is a seat number or spectator (got {got})", got=repr(raw[:20])),
        )
    seat = int(raw)
    if players is not None:
        _check_seat(seat, players)
    return seat


def _check_seat(seat: int, players: int) -> None:
    """Refuse a seat that the game does not have (400 ``bad_request``)."""
    if not 0 <= seat < players:
        raise LobbyError(
            400,
            "bad_request",
            ErrorText(
                "seat {seat} does not exist (seats are 0–{last})", seat=seat, last=players - 1
            ),
        )


def checked_record(record_text: str | bytes, source: str = ErrorText("the record")) -> Record:
    """A record read by the strict, bounded reader, every action verified by replaying it.

    A malformed record or an illegal action raises :class:`~.tables.LobbyError` (400
    ``bad_record``, the reader's message naming ``source``), a record of more than
    :data:`MAX_REPLAY_STEPS` actions 413 ``too_long``. (The replay and the review of an
    uploaded file read it so.)
    """
    try:
        record, _ = replay_text(record_text, source=source)
    except CampfireError as exc:  # its message, as raised (so that it can be translated)
        raise LobbyError(400, "bad_record", exc.text) from None
    if len(record.actions) > MAX_REPLAY_STEPS:
        raise LobbyError(
            413,
            "too_long",
            ErrorText(
                "a replay steps through at most {limit} actions (the record has {count})",
                limit=MAX_REPLAY_STEPS,
                count=len(record.actions),
            ),
        )
    return record


def build_replay(
    record_text: str | bytes,
    seat: int | None,
    language: str = "en",
    *,
    source: str = ErrorText("the record"),
    plain: bool = True,
) -> dict[str, Any]:
    """The replay document of a record, as ``seat`` (``None``: a spectator) saw the game.

    The texts are in ``language``. With ``plain`` every value is JSON-ready; without it each
    frame's ``display`` is the :class:`~campfire.core.present.Display` itself, which
    :func:`.wire.encode` writes as its ``to_json()`` (what the routes send).

    The record is read by :func:`checked_record` (the strict, bounded reader, every action
    verified: 400 ``bad_record``, 413 ``too_long``); a seat that does not exist is 400
    ``bad_request``.
    """
    record = checked_record(record_text, source)
    if seat is not None:
        _check_seat(seat, len(record.players))
    return _frames(record, seat, language, plain)


def _frames(record: Record, seat: int | None, language: str, plain: bool) -> dict[str, Any]:
    game = get_game(record.game)
    players = len(record.players)
    recorded = [p.name for p in record.players]
    # the names Campfire gave (a bot's, an unnamed seat's) in the reader's language
    names = shown_names(recorded, [p.agent for p in record.players], translator(language))
    # the same loop as the live tables: seats get their events
    table = Table(
        game, players, record.options, seed=record.seed, setup=record.setup, names=recorded
    )
    seen: list[Any] = []
    table.subscribe(seat, seen.extend)
    causes = _causes(record.meta, len(record.actions))

    def frame(step: dict[str, Any] | None) -> dict[str, Any]:
        state = table.state
        legal = (
            state.legal_actions(seat)
            if seat is not None and not state.is_terminal() and seat in state.seats_to_act()
            else []
        )
        display = protocol.seat_display(game, state.view(seat), legal, names, language)
        return {
            "seq": len(table.match.actions),
            "step": step,
            # the Display itself when the wire encoder writes it (several times faster)
            "display": display.to_json() if plain else display,
            "legal": protocol.legal_json(game, players, legal),
        }

    frames = [frame(None)]
    for index, (mover, notation) in enumerate(record.actions):
        seen.clear()
        table.play(mover, notation)
        step = protocol.seat_step(
            game, names, seat, index + 1, mover, list(seen), causes.get(index), language
        )
        frames.append(frame(step))
    forfeit = _forfeit(record.meta, players, len(record.actions))
    outcome: dict[str, Any] | None = None
    if table.state.is_terminal():
        outcome = table.state.outcome().to_json()
    elif forfeit is not None:
        outcome = forfeit["outcome"]
    meta = record.meta
    return {
        "game": game.name,
        "title": game_title(game, translator(language)),
        "players": players,
        "names": names,
        "options": dict(record.options),
        "seat": seat,
        "language": language,
        "table": meta.get("table") if type(meta.get("table")) is int else None,
        "game_number": meta.get("game_number") if type(meta.get("game_number")) is int else None,
        "frames": frames,
        "outcome": outcome,
        "forfeit": forfeit,
    }


class ReplayCache:
    """The last :data:`CACHE_SIZE` replays of finished games (they never change), by key."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self.items: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        """The replay stored under ``key`` (``None``: not built yet)."""
        found = self.items.get(key)
        if found is not None:
            self.items.move_to_end(key)
        return found

    def put(self, key: tuple[Any, ...], body: bytes) -> None:
        """Keep ``body`` under ``key``, forgetting the least recently used beyond the size."""
        self.items[key] = body
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)


def _cache(request: Request) -> ReplayCache:
    cache = getattr(request.app.state, "replay_cache", None)
    if cache is None:
        cache = request.app.state.replay_cache = ReplayCache()
    assert isinstance(cache, ReplayCache)
    return cache


def _encode(replay: Mapping[str, Any]) -> bytes:
    """The replay as gzip-compressed JSON (a display model per step compresses 14–50 times)."""
    return gzip.compress(wire.encode(replay).encode("utf-8"), compresslevel=5, mtime=0)


def _json(request: Request, packed: bytes, language: str) -> Response:
    """The packed replay, sent compressed to a client that accepts gzip (every browser)."""
    headers = {"Vary": "Accept-Encoding", "Content-Language": language}
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        headers["Content-Encoding"] = "gzip"
        return Response(packed, media_type="application/json", headers=headers)
    return Response(gzip.decompress(packed), media_type="application/json", headers=headers)


def _packed(text: str | bytes, seat: int | None, language: str, source: str) -> bytes:
    return _encode(build_replay(text, seat, language, source=source, plain=False))


async def table_replay(request: Request) -> Response:
    """``GET /api/tables/{id}/replay?game=N&seat=S&lang=L``: a finished game of a table."""
    language = language_of(request)
    manager: TableManager = request.app.state.manager
    live = live_table(request)
    seat = _read_seat(request.query_params.get("seat"), live.players)
    text = manager.record(live, game_number(request))  # 409 while the game is being played
    key = (live.id, hash(text), seat, language)
    cache = _cache(request)
    packed = cache.get(key)
    if packed is None:
        packed = await asyncio.to_thread(_packed, text, seat, language, ErrorText("the record"))
        cache.put(key, packed)
    return _json(request, packed, language)


async def upload_replay(request: Request) -> Response:
    """``POST /api/replay?seat=S&lang=L`` with a record file as the body: its replay."""
    language = language_of(request)
    seat = _read_seat(request.query_params.get("seat"))
    data = await read_body(request, MAX_RECORD_BYTES)
    if not data.strip():
        raise LobbyError(400, "bad_record", ErrorText("the request body is one JSON object"))
    packed = await asyncio.to_thread(
        _packed, data, seat, language, ErrorText("the uploaded record")
    )
    return _json(request, packed, language)


def _whole(raw: str | None, digits: int) -> int | None:
    """A query parameter that is a whole number of at most ``digits`` digits (else ``None``)."""
    ok = raw is not None and raw.isascii() and raw.isdigit() and len(raw) <= digits
    return int(raw) if ok and raw is not None else None


def _page_problem(request: Request) -> Response | None:
    """What is wrong with a replay link (the page that says so), or ``None``: nothing.

    Read from the database, without loading the table (another process may own it): a table
    that does not exist is 404; a game it has not finished 404, or 409 while it is being
    played; a parameter written wrong (``table``, ``game``, ``step`` not a number, ``seat``
    neither a seat of the game nor ``spectator``) 400.
    """
    query = request.query_params
    raw_table, raw_game = query.get("table"), query.get("game")
    raw_seat, raw_step = query.get("seat"), query.get("step")
    table = _whole(raw_table, 12)
    game = 1 if raw_game is None else _whole(raw_game, 9)
    wrong = (
        (raw_table is not None and table is None)
        or game is None
        or (raw_step is not None and _whole(raw_step, 9) is None)
        or (raw_seat not in (None, "spectator") and _whole(raw_seat, 3) is None)
    )
    if wrong:
        return missing_page(request, 400, "replay", ways=[("/replay", "web.missing.replays", {})])
    if table is None or game is None:
        return None  # the viewer itself: a game to choose, or a record file to open
    manager: TableManager = request.app.state.manager
    found = manager.store.table(table)
    if found is None:
        return missing_page(request, 404, "table", {"table": shown(str(table))})
    row, _seats = found
    if raw_seat not in (None, "spectator") and int(raw_seat) >= row.players:
        return missing_page(request, 400, "replay", ways=[("/replay", "web.missing.replays", {})])
    if manager.store.record(table, game) is None:
        params = {"table": table, "number": game}
        if row.status == "running" and game == row.game_number:
            ways = [(f"/t/{table}", "web.missing.watch", params)]
            return missing_page(request, 409, "playing", params, ways)
        return missing_page(request, 404, "game", params, [("/replay", "web.missing.replays", {})])
    return None


async def replay_page(request: Request) -> Response:
    """``GET /replay``: the replay viewer (``?table=ID&game=N&seat=S&step=K``, for its script).

    A link whose table, game or seat is not one to replay gets the page that says what was
    wrong instead (:func:`_page_problem`, :func:`.pages.missing_page`).
    """
    problem = _page_problem(request)
    if problem is not None:
        return problem
    return FileResponse(static_dir() / "replay.html", headers={"Cache-Control": "no-cache"})


def routes() -> list[Route]:
    """The replay routes: the two API routes and the viewer's page."""
    return [
        Route("/api/tables/{table_id}/replay", guarded(table_replay), methods=["GET"]),
        Route("/api/replay", guarded(upload_replay), methods=["POST"]),
        Route("/replay", replay_page, methods=["GET"]),
    ]
