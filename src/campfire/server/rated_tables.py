"""Rated tables: who may sit at one, what it may not have, and its games rated when they end.

A table created with ``"rated": true`` (``docs/accounts.md``, "Ratings") changes its players'
ratings (:mod:`.ratings`) after each finished game. Its rules:

- its creator is signed in, and every person who takes a seat is too: one seat each, recorded
  in ``account_seats`` (a guest is refused with 403 ``account_needed``; the start checks every
  person's seat again, :func:`check_accounts`); bots may sit at it, and are rated per level;
- no hints and no undo; in a game played with real-time claim windows (the
  ``realtime-claims`` play mode) the windows are always timed by the server
  (:func:`check_rated`).

:class:`TableRatings` is the table services' seam: told that a game ended, it rates it in a
worker thread; :class:`NoRatings` (the default of the services without a database) does nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from campfire.core import ErrorText, Game

from .live import REALTIME_MODE
from .seating import LobbyError

if TYPE_CHECKING:
    from .live import LiveTable
    from .ratings import GameRatings

__all__ = ["NoRatings", "TableRatings", "account_needed", "check_accounts", "check_rated"]

log = logging.getLogger(__name__)


def account_needed() -> LobbyError:
    """403 ``account_needed``: a guest at a rated table."""
    return LobbyError(
        403,
        "account_needed",
        ErrorText("a rated table is for signed-in players: sign in or sign up first"),
    )


def check_rated(
    game: Game[Any], request: Mapping[str, Any], seats: Sequence[Any], user: int | None
) -> None:
    """Refuse a rated table that cannot be one.

    Its creator is signed in (403 ``account_needed``); it has no hints, no undo, and in a game
    played with real-time claim windows no ``"realtime": false`` (its windows are always timed
    by the server); every seat is open, a bot, or the creator's own reserved one (each person
    joins signed in), and one seat at least is a person's (400 ``bad_request``).
    """
    if user is None:
        raise account_needed()
    problem = None
    if request.get("hints") is True:
        problem = ErrorText('"hints": a rated table has no hints')
    elif request.get("undo") is True:
        problem = ErrorText('"undo": no move is taken back at a rated table')
    elif REALTIME_MODE in game.play_modes and request.get("realtime") is False:
        problem = ErrorText(
            '"realtime": a rated table of {game} has its claim windows timed by the server',
            game=game.title_text(),
        )
    else:
        kinds = [s.get("kind") if isinstance(s, dict) else None for s in seats]
        if kinds.count("reserved") > 1:
            problem = ErrorText(
                '"seats": at a rated table each person takes their own seat, signed in: '
                "reserve only yours, and leave the others open"
            )
        elif all(k == "bot" for k in kinds):
            problem = ErrorText('"seats": a rated table has a seat for one person at least')
    if problem is not None:
        raise LobbyError(400, "bad_request", problem)


def check_accounts(live: LiveTable, owners: Mapping[int, int]) -> None:
    """A rated table starts only when every person's seat is a signed-in user's.

    ``owners`` are the table's seats that are users' (``{seat: user id}``). 403
    ``account_needed`` naming the seats that are not (a seat reserved by a guest, an account
    deleted since).
    """
    guests = [s.name() for s in live.seats if s.kind == "human" and s.seat not in owners]
    if guests:
        raise LobbyError(
            403,
            "account_needed",
            ErrorText(
                "a rated table is played by signed-in players only, one seat each: "
                "{names} not signed in",
                names=", ".join(guests),
            ),
        )


class NoRatings:
    """No ratings (the table services without a database)."""

    def finished(self, live: LiveTable) -> None:
        """A game ended: nothing to do."""


class TableRatings(NoRatings):
    """Rates each finished game of a rated table, in a worker thread, once."""

    def __init__(
        self,
        ratings: GameRatings,
        spawn: Callable[[Coroutine[Any, Any, None]], asyncio.Task[None]],
    ) -> None:
        self.ratings = ratings
        self.spawn = spawn

    def finished(self, live: LiveTable) -> None:
        """A game of ``live`` ended (its record committed): rate it if the table is rated."""
        if live.rated:
            self.spawn(self._rate(live.id, live.number))

    async def _rate(self, table_id: int, number: int) -> None:
        try:
            await asyncio.to_thread(self.ratings.rate_game, table_id, number)
        except Exception:  # the next start's sweep tries again
            log.exception("table %s game %s could not be rated", table_id, number)
