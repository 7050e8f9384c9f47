"""Learn to play in the browser: the tutorials' lessons served step by step (``docs/protocol.md``).

The engine stays the one judge of every move: the page sends the learner's try and the step it
answers, the server rebuilds the lesson at that step (:meth:`Tutorial.at`: a lesson is a pure
function of its file and the number of steps done, so nothing is kept between requests) and
answers with the lesson's next frame or the explanation of a wrong move.

- ``GET /learn`` the tutorial page (``?game=NAME&lesson=ID`` for its script);
- ``GET /api/learn`` every game's lessons: ``{"games": [{"name", "title", "lessons": [{"id",
  "title"}]}]}`` in the request's language;
- ``GET /api/learn/{game}/{lesson}?step=N`` the lesson's frame at step N (0: its start);
- ``POST /api/learn/{game}/{lesson}`` with ``{"step": N, "move": "NOTATION"}`` (a move asked
  at step N) or ``{"step": N, "go_on": true}`` (past a text): ``{"correct", "note", "frame"}``.

Inputs are bounded: the game is a registered game's name, the lesson one of its lesson ids
(:data:`campfire.core.tutorial.LESSON_ID`), the step a number of at most four digits within the
lesson, the move a string of at most :data:`~campfire.core.tutorial.MAX_MOVE_CHARS` characters,
the body at most :data:`BODY_LIMIT` bytes, read by the one strict JSON reader.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from campfire.core import CampfireError, ErrorText, Game, all_games
from campfire.core import get as get_game
from campfire.core.tutorial import LESSON_ID, MAX_MOVE_CHARS, Lesson, Tutorial, lessons
from campfire.i18n import game_title, translator
from campfire.i18n.names import PLAYER, YOU
from campfire.web import static_dir

from . import protocol
from .lobby import guarded, language_of, read_body
from .protocol import speaking
from .tables import LobbyError
from .wire import decode

__all__ = ["BODY_LIMIT", "LEARN_SCHEMAS", "routes"]

#: the largest body a move's request may have
BODY_LIMIT = 1024

_WORDS = {"type": "string"}
_DISPLAY = protocol.SERVER_SCHEMAS["delta"]["properties"]["display"]

#: The JSON Schemas of the tutorial's documents (``docs/protocol.md``, "Tutorials", shows them;
#: the tests validate every answer against them).
LEARN_SCHEMAS: dict[str, dict[str, Any]] = {
    "lesson_list": {
        "type": "object",
        "required": ["games"],
        "properties": {
            "games": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "title", "lessons"],
                    "properties": {
                        "name": {"type": "string"},
                        "title": _WORDS,
                        "lessons": {
                            "type": "array",
                            "minItems": 1,
                            "items": {
                                "type": "object",
                                "required": ["id", "title"],
                                "properties": {"id": {"type": "string"}, "title": _WORDS},
                                "additionalProperties": False,
                            },
                        },
                    },
                    "additionalProperties": False,
                },
            }
        },
        "additionalProperties": False,
    },
    "lesson_frame": {
        "type": "object",
        "required": [
            "game",
            "title",
            "lesson",
            "lesson_title",
            "number",
            "count",
            "next",
            "step",
            "steps",
            "finished",
            "text",
            "note",
            "reveals",
            "asked",
            "players",
            "display",
            "log",
        ],
        "properties": {
            "game": {"type": "string"},
            "title": _WORDS,
            "lesson": {"type": "string"},
            "lesson_title": _WORDS,
            "number": {"type": "integer", "minimum": 1},
            "count": {"type": "integer", "minimum": 1},
            "next": {"type": ["string", "null"]},
            "step": {"type": "integer", "minimum": 0},
            "steps": {"type": "integer", "minimum": 1},
            "finished": {"type": "boolean"},
            "text": _WORDS,
            "note": _WORDS,
            "reveals": {"type": "array", "items": _WORDS},
            "asked": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "required": ["notation", "label", "target", "source"],
                        "properties": {
                            "notation": {"type": "string"},
                            "label": _WORDS,
                            "target": {"type": ["string", "null"]},
                            "source": {"type": ["string", "null"]},
                        },
                        "additionalProperties": False,
                    },
                ]
            },
            "players": {"type": "integer", "minimum": 1},
            "display": _DISPLAY,
            "log": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "params", "text"],
                    "properties": {
                        "id": {"type": "string"},
                        "params": {"type": "object"},
                        "text": _WORDS,
                    },
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    },
    "lesson_move": {
        "type": "object",
        "required": ["step"],
        "properties": {
            "step": {"type": "integer", "minimum": 0, "maximum": 9999},
            "move": {"type": "string", "maxLength": MAX_MOVE_CHARS},
            "go_on": {"const": True},
        },
        "oneOf": [{"required": ["move"]}, {"required": ["go_on"]}],
        "additionalProperties": False,
    },
    "lesson_answer": {
        "type": "object",
        "required": ["correct", "note", "frame"],
        "properties": {
            "correct": {"type": "boolean"},
            "note": _WORDS,
            "frame": {"type": "object"},  # a lesson_frame (validated as one by the tests)
        },
        "additionalProperties": False,
    },
}

_NO_CACHE = {"Cache-Control": "no-cache"}


def _unknown(game: str, lesson: str) -> LobbyError:
    return LobbyError(
        404,
        "unknown_lesson",
        ErrorText("there is no lesson {lesson} of {game}", game=game[:40], lesson=lesson[:60]),
    )


def _lesson(request: Request) -> tuple[Game[Any], Lesson, list[Lesson]]:
    name = request.path_params["game"]
    lesson_id = request.path_params["lesson"]
    game = None
    if name.isascii() and name.isidentifier() and len(name) <= 40:
        try:
            game = get_game(name)
        except CampfireError:
            game = None
    if game is None or not LESSON_ID.match(lesson_id):
        raise _unknown(name, lesson_id)
    found = lessons(game)
    for each in found:
        if each.id == lesson_id:
            return game, each, found
    raise _unknown(name, lesson_id)


def _step(raw: Any, lesson: Lesson, *, text: bool = False) -> int:
    """The step asked for: a number in the body, digits in the query (``text``)."""
    if text and isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 4:
        raw = int(raw)
    if type(raw) is not int or not 0 <= raw <= len(lesson.steps):
        raise LobbyError(
            400,
            "bad_request",
            ErrorText("step is a number from 0 to {last}", last=len(lesson.steps)),
        )
    return raw


def _names(lesson: Lesson, language: str) -> list[str]:
    tr = translator(language)
    others = [tr.gettext(PLAYER).format(number=n) for n in range(2, lesson.players + 1)]
    return [tr.gettext(YOU), *others]


def _frame(
    game: Game[Any], lesson: Lesson, found: list[Lesson], tutorial: Tutorial, language: str
) -> dict[str, Any]:
    """What the page draws at the tutorial's step (presenters speaking ``language``)."""
    display = tutorial.display()
    choice = tutorial.choice(display)
    number = found.index(lesson)
    following = found[number + 1].id if number + 1 < len(found) else None
    return {
        "game": game.name,
        "title": game_title(game, translator(language)),
        "lesson": lesson.id,
        "lesson_title": lesson.words(lesson.title, language),
        "number": number + 1,
        "count": len(found),
        "next": following,
        "step": tutorial.index,
        "steps": len(lesson.steps),
        "finished": tutorial.finished,
        "text": tutorial.words(language, display),
        "note": tutorial.note(language),
        "reveals": [card.label for card in tutorial.reveals if card.label],
        "asked": None
        if choice is None
        else {
            "notation": choice.notation,
            "label": tutorial.move_label(display),
            "target": choice.target,
            "source": choice.source,
        },
        "players": lesson.players,
        "display": display.to_json(),
        "log": [message.to_json() for message in tutorial.log()],
    }


async def tutorial_page(request: Request) -> Response:
    """``GET /learn``: the tutorial page (the lesson list, or a lesson: read by its script)."""
    return FileResponse(static_dir() / "learn.html", headers=_NO_CACHE)


async def lesson_list(request: Request) -> Response:
    """``GET /api/learn``: every game's lessons, titles in the request's language."""
    language = language_of(request)
    tr = translator(language)
    games = [
        {
            "name": game.name,
            "title": game_title(game, tr),
            "lessons": [
                {"id": each.id, "title": each.words(each.title, language)} for each in found
            ],
        }
        for game in all_games()
        if (found := lessons(game))
    ]
    return JSONResponse({"games": games}, headers=_NO_CACHE)


async def lesson_frame(request: Request) -> Response:
    """``GET /api/learn/{game}/{lesson}?step=N``: the lesson's frame at step N."""
    game, lesson, found = _lesson(request)
    step = _step(request.query_params.get("step", "0"), lesson, text=True)
    language = language_of(request)
    with speaking(language):
        tutorial = Tutorial.at(game, lesson, step, _names(lesson, language))
        return JSONResponse(_frame(game, lesson, found, tutorial, language), headers=_NO_CACHE)


async def lesson_move(request: Request) -> Response:
    """``POST /api/learn/{game}/{lesson}``: a move tried at a step, or *Continue* past a text."""
    game, lesson, found = _lesson(request)
    body = decode(await read_body(request, BODY_LIMIT), ErrorText("the request body"), _bad_json)
    if not isinstance(body, dict) or set(body) - {"step", "move", "go_on"}:
        raise _bad(ErrorText("the request body is an object with step, and move or go_on"))
    step = _step(body.get("step"), lesson)
    move, go_on = body.get("move"), body.get("go_on", False)
    if (move is None) == (go_on is not True):
        raise _bad(ErrorText("the request body is an object with step, and move or go_on"))
    if move is not None and (not isinstance(move, str) or len(move) > MAX_MOVE_CHARS):
        raise _bad(
            ErrorText(
                "move is a move's notation of at most {limit} characters", limit=MAX_MOVE_CHARS
            )
        )
    language = language_of(request)
    with speaking(language):
        tutorial = Tutorial.at(game, lesson, step, _names(lesson, language))
        if tutorial.index != step:
            raise LobbyError(
                409, "stale_step", ErrorText("the lesson is at step {step}", step=tutorial.index)
            )
        if move is None:
            correct, note = tutorial.asked is None, ""
            tutorial.go_on()
        else:
            answer = tutorial.answer(move, language)
            correct, note = answer.correct, answer.note
        frame = _frame(game, lesson, found, tutorial, language)
    return JSONResponse({"correct": correct, "note": note, "frame": frame}, headers=_NO_CACHE)


def _bad(message: str) -> LobbyError:
    return LobbyError(400, "bad_request", message)


def _bad_json(message: str) -> LobbyError:
    return LobbyError(400, "bad_json", message)


def routes() -> list[Route]:
    """The tutorial's routes: its page and its three API routes."""
    return [
        Route("/learn", tutorial_page, methods=["GET"]),
        Route("/api/learn", guarded(lesson_list), methods=["GET"]),
        Route("/api/learn/{game}/{lesson}", guarded(lesson_frame), methods=["GET"]),
        Route("/api/learn/{game}/{lesson}", guarded(lesson_move), methods=["POST"]),
    ]
