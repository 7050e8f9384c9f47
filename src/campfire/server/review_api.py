"""The review routes: ``POST`` and ``GET /api/tables/{id}/review?game=N`` (:mod:`.reviews`).

``POST`` asks for the review of a finished game (202, with its progress); ``GET`` answers its
progress (``status``: ``none``, ``queued``, ``running``, ``done`` or ``failed``; ``done`` of
``total`` actions of the record), and once done the review itself with the seats' names and
the presenter's words for the played and the best move of each decision, in the request's
language (``docs/protocol.md``, "Reviews").

A record file is reviewed the same way: ``POST /api/review`` with the file as the body (at
most :data:`.replay.MAX_RECORD_BYTES`, read and verified as the replay of a file is) answers
its progress with an ``id``; ``GET /api/review/{id}`` answers as above while the server keeps
it in memory (404 ``no_review`` after).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from campfire.agents.review import Review, action_words
from campfire.core import ErrorText, Record
from campfire.i18n.names import shown_names

from . import protocol
from .lobby import game_number, guarded, language_of, live_table, read_body
from .replay import MAX_RECORD_BYTES, checked_record
from .reviews import ReviewJob
from .seating import LobbyError

__all__ = ["get_review", "get_upload_review", "routes", "start_review", "start_upload_review"]

#: an uploaded record's review id: the SHA-256 of the record, in hex
_ID_LENGTH = 64


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


async def start_upload_review(request: Request) -> Response:
    """``POST /api/review`` with a record file as the body: start the review of that game."""
    data = await read_body(request, MAX_RECORD_BYTES)
    if not data.strip():
        raise LobbyError(400, "bad_record", ErrorText("the request body is one JSON object"))
    record = await asyncio.to_thread(checked_record, data, ErrorText("the uploaded record"))
    job = request.app.state.manager.reviews.request_upload(record)
    return JSONResponse({**job.progress(), "review": None}, status_code=202)


async def get_upload_review(request: Request) -> Response:
    """``GET /api/review/{id}?lang=L``: an uploaded record's review, its progress or itself."""
    review_id = str(request.path_params["review_id"])
    job = None
    if len(review_id) == _ID_LENGTH and all(c in "0123456789abcdef" for c in review_id):
        job = request.app.state.manager.reviews.upload(review_id)
    if job is None:
        raise LobbyError(
            404,
            "no_review",
            ErrorText(
                "no review of an uploaded record has this id here: the server keeps them "
                "for a while only; send the record again (POST /api/review)"
            ),
        )
    return await _answer_with_review(request, job, job.progress())


async def _answer_with_review(
    request: Request, job: ReviewJob | None, progress: dict[str, Any]
) -> Response:
    """The progress answer, with the review in the request's language once it is done."""
    language = language_of(request)
    answer: dict[str, Any] = {**progress, "review": None}
    if job is not None and job.status == "done" and job.result is not None:
        answer["review"] = await asyncio.to_thread(_words, job.record, job.result, language)
    elif job is not None and job.status == "failed":
        answer["error"] = job.error
    return JSONResponse(answer, headers={"Content-Language": language, "Cache-Control": "no-cache"})


async def get_review(request: Request) -> Response:
    """``GET /api/tables/{id}/review?game=N&lang=L``: the review's progress, or the review."""
    manager = request.app.state.manager
    live = live_table(request)
    number = game_number(request)
    text = manager.record(live, number)
    number = number if number is not None else _number_of(live)
    job = manager.reviews.status(live.id, number, text)
    return await _answer_with_review(request, job, _answer(job, live.id, number))


def routes() -> list[Route]:
    """The review routes."""
    return [
        Route("/api/tables/{table_id}/review", guarded(start_review), methods=["POST"]),
        Route("/api/tables/{table_id}/review", guarded(get_review), methods=["GET"]),
        Route("/api/review", guarded(start_upload_review), methods=["POST"]),
        Route("/api/review/{review_id}", guarded(get_upload_review), methods=["GET"]),
    ]
