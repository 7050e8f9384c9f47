"""``POST /api/turns``: the turn-based tables waiting for the player's move ("your turn").

A signed-in user's seats are those ``account_seats`` holds (the session cookie says who); a
guest's are those of the seat tokens the browser keeps, sent in the body (``{"seats": [{"table",
"token"}]}``, at most :data:`~.accounts.MAX_CLAIMS`, as a sign-up's claim). Both may be given:
the lists are merged. The answer lists the running turn-based tables whose clock runs for one of
those seats, the earliest deadline first, at most :data:`~.store.MAX_TURNS`: it is read from the
database (``game_tables.turn``), so a table left out of memory between moves (:mod:`.turns`)
costs no rebuilding. A token that fits no seat is passed over (nothing tells which).

The lobby page's header asks every 30 seconds while the page is shown (``docs/web.md``).
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .account_routes import read_object
from .account_service import signed_in_user
from .accounts import MAX_CLAIMS
from .lobby import guarded
from .seating import hash_token, seat_tokens
from .store import MAX_TURNS
from .writer import utcnow_of

__all__ = ["routes"]


async def your_turns(request: Request) -> Response:
    """``POST /api/turns``: the turn-based tables waiting for the player's move."""
    body = await read_object(request, ("seats",))
    tokens = seat_tokens(body.get("seats"), "seats", MAX_CLAIMS)
    user = await signed_in_user(request)
    manager = request.app.state.manager
    pairs = sorted({(table, hash_token(token)) for table, token in tokens})
    turns = await asyncio.to_thread(manager.store.your_turns, user, pairs, MAX_TURNS)
    return JSONResponse(
        {
            "turns": [t.to_json() for t in turns],
            "now": utcnow_of(manager.wall()).isoformat(timespec="seconds"),
        }
    )


def routes() -> list[Route]:
    """The "your turn" route."""
    return [Route("/api/turns", guarded(your_turns), methods=["POST"])]
