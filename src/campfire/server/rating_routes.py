"""The ratings and players over HTTP: profiles, "my games", leaderboards, and their pages.

- ``GET /api/players/{name}``: a player's ratings (with their history, for the graph) and
  games per game type (``player_profile``); 404 ``unknown_player``;
- ``GET /api/account/games``: the signed-in user's games, those being played first
  (``my_games``); 401 ``signed_out``;
- ``GET /api/leaderboards/{game}?players=N``: a game's leaderboard, bots included
  (``leaderboard``; ``players`` 0 or absent: over every player count); 404 ``unknown_game``;
- the pages ``/player/{name}``, ``/games`` and ``/leaderboard/{game}`` (static HTML whose
  scripts draw them from those answers; ``docs/web.md``).

The rules of the ratings are :mod:`.ratings` (``docs/accounts.md``, "Ratings").
"""

from __future__ import annotations

import asyncio
import re

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from campfire.core import CampfireError, ErrorText
from campfire.core import get as get_game
from campfire.i18n import game_title, translator
from campfire.web import static_dir

from .account_service import AccountService
from .lobby import guarded, language_of
from .pages import missing_page, shown
from .ratings import GameRatings
from .seating import LobbyError

__all__ = ["routes"]

#: what a user name in an address may be (longer or other characters: nobody, at once)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
_NO_CACHE = {"Cache-Control": "no-cache"}


def _ratings(request: Request) -> GameRatings:
    ratings: GameRatings = request.app.state.manager.game_ratings
    return ratings


def _unknown_player(raw: str) -> LobbyError:
    return LobbyError(
        404, "unknown_player", ErrorText("there is no player {name}", name=repr(raw[:32]))
    )


async def player(request: Request) -> Response:
    """``GET /api/players/{name}``: a player's ratings, their history and games."""
    raw = request.path_params["name"]
    if not _NAME.match(raw):
        raise _unknown_player(raw)
    ratings = _ratings(request)
    found = await asyncio.to_thread(ratings.user_by_name, raw)
    if found is None:
        raise _unknown_player(raw)
    user_id, name = found
    return JSONResponse(await asyncio.to_thread(ratings.profile, user_id, name))


async def my_games(request: Request) -> Response:
    """``GET /api/account/games``: the signed-in user's games, running ones first."""
    service: AccountService = request.app.state.accounts
    user = await service.user_of(request)
    if user is None:
        raise LobbyError(401, "signed_out", ErrorText("you are not signed in"))
    games = await asyncio.to_thread(_ratings(request).my_games, user.id)
    return JSONResponse({"name": user.name, **games})


def _game_name(raw: str) -> str:
    """A game's name from an address (404 ``unknown_game`` when Campfire has no such game)."""
    try:
        if raw.isascii() and raw.isidentifier():
            return get_game(raw).name
    except CampfireError:
        pass
    raise LobbyError(404, "unknown_game", ErrorText("there is no game {name}", name=repr(raw[:32])))


async def leaderboard(request: Request) -> Response:
    """``GET /api/leaderboards/{game}?players=N``: the game's ratings, best first."""
    name = _game_name(request.path_params["game"])
    raw = request.query_params.get("players", "0")
    game = get_game(name)
    if not raw.isascii() or not raw.isdigit() or len(raw) > 2:
        raw = "-1"
    players = int(raw)
    if players != 0 and not game.min_players <= players <= game.max_players:
        raise LobbyError(
            400,
            "bad_request",
            ErrorText(
                "players is 0 (every player count) or a count {game} is played by: {low}–{high}",
                game=game.title_text(),
                low=game.min_players,
                high=game.max_players,
            ),
        )
    board = await asyncio.to_thread(_ratings(request).leaderboard, name, players)
    board["title"] = game_title(game, translator(language_of(request)))
    return JSONResponse(board)


async def player_page(request: Request) -> Response:
    """``GET /player/{name}``: a player's page (drawn by ``js/player.js``).

    A name that is nobody's is answered with the page of a bad link (404, :mod:`.pages`).
    """
    raw = request.path_params["name"]
    found = (
        await asyncio.to_thread(_ratings(request).user_by_name, raw) if _NAME.match(raw) else None
    )
    if found is None:
        return missing_page(request, 404, "page")
    return FileResponse(static_dir() / "player.html", headers=_NO_CACHE)


async def games_page(request: Request) -> Response:
    """``GET /games``: the signed-in person's games (drawn by ``js/games.js``)."""
    return FileResponse(static_dir() / "games.html", headers=_NO_CACHE)


async def leaderboard_page(request: Request) -> Response:
    """``GET /leaderboard/{game}``: a game's leaderboard (drawn by ``js/leaderboard.js``).

    A game Campfire does not have is answered with the page of a bad link (404, the rules
    there are listed).
    """
    raw = request.path_params["game"]
    try:
        _game_name(raw)
    except LobbyError:
        return missing_page(request, 404, "rules", {"name": shown(raw)}, rules=True)
    return FileResponse(static_dir() / "leaderboard.html", headers=_NO_CACHE)


def routes() -> list[Route]:
    """The ratings' and players' routes."""
    return [
        Route("/api/players/{name}", guarded(player), methods=["GET"]),
        Route("/api/account/games", guarded(my_games), methods=["GET"]),
        Route("/api/leaderboards/{game}", guarded(leaderboard), methods=["GET"]),
        Route("/player/{name}", player_page, methods=["GET"]),
        Route("/games", games_page, methods=["GET"]),
        Route("/leaderboard/{game}", leaderboard_page, methods=["GET"]),
    ]
