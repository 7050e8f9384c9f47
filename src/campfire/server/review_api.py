"""The review routes: ``POST`` and ``GET /api/tables/{id}/review?game=N`` (:mod:`.reviews`).

``POST`` asks for the review of a finished game (202, with its progress); ``GET`` answers its
progress (``status``: ``none``, ``queued``, ``running``, ``done`` or ``failed``; ``done`` of
``total`` actions of the record), and once done the review itself with the seats' names and
the presenter's words for the played and the best move of each decision, in the request's
language (``docs/protocol.md``, "Reviews").
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from campfire.agents.review import Review, action_words
from campfire.core import Record
from campfire.i18n.names import shown_names

from . import protocol
from .lobby import game_number, guarded, language_of, live_table
from .reviews import ReviewJob

__all__ = ["get_review", "routes", "start_review"]


def _answer(job: ReviewJob | None, table: int, number: int) -> dict[str, Any]:
    if job is None:
        return {
            "table": table,
            "game_number": number,
            "status": "none",
            "done": 0,
            "total": 0,
            "review": None,
        }
    return {**job.progress(), "review": None}


async def start_review(request: Request) -> Response:
    """``POST /api/tables/{id}/review?game=N``: start the review of a finished game."""
    manager = request.app.state.manager
    live = live_table(request)
    number = game_number(request)
    text = manager.record(live, number)  # 409 while the game is being played
    number = number if number is not None else _number_of(live)
    job = manager.reviews.request(live.id, number, text)
    return JSONResponse(_answer(job, live.id, number), status_code=202)


def _number_of(live: Any) -> int:
    last = live.number if live.status == "finished" else live.number - 1
    return int(max(last, 1))


def _words(text: str, result: dict[str, Any], language: str) -> dict[str, Any]:
    record = Record.loads(text)
    review = Review.from_json(result)
    with protocol.speaking(language):
        words = action_words(record, review.decisions)
    names = shown_names([p.name for p in record.players], [p.agent for p in record.players])
    return {
        **result,
        "names": names,
        "words": [[played, best] for played, best in words],
    }


async def get_review(request: Request) -> Response:
    """``GET /api/tables/{id}/review?game=N&lang=L``: the review's progress, or the review."""
    manager = request.app.state.manager
    language = language_of(request)
    live = live_table(request)
    number = game_number(request)
    text = manager.record(live, number)
    number = number if number is not None else _number_of(live)
    job = manager.reviews.status(live.id, number, text)
    answer = _answer(job, live.id, number)
    if job is not None and job.status == "done" and job.result is not None:
        answer["review"] = await asyncio.to_thread(_words, text, job.result, language)
    elif job is not None and job.status == "failed":
        answer["error"] = job.error
    return JSONResponse(answer, headers={"Content-Language": language, "Cache-Control": "no-cache"})


def routes() -> list[Route]:
    """The review routes."""
    return [
        Route("/api/tables/{table_id}/review", guarded(start_review), methods=["POST"]),
        Route("/api/tables/{table_id}/review", guarded(get_review), methods=["GET"]),
    ]
