"""Quick match ("Play now"): a queue per game and player count, filled up with bots after a wait.

A person (a guest or signed in) asks to play a game at a player count (``POST /api/quick``)
and gets a ticket; their waiting page looks at it every second (``GET /api/quick`` with
``Authorization: Bearer TICKET``). People waiting for the same game and count are seated
together at a new table, which starts at once. When the wait the person chose
(:data:`WAITS`) is over, the people who can be seated with them are, and bots fill the empty
seats (:func:`bot_level`). ``docs/web.md``, "Play now", describes it for people;
``docs/protocol.md``, "Quick match", the routes.

- **The queue is in the database** (``quick_match``): every server process of ``--workers N``
  sees the same queue, and one matching runs at a time (a PostgreSQL advisory lock; in one
  process, an asyncio lock). The process that seats a group creates the table and owns it.
- **Pairing by rating**: where the ratings know a person's rating (:class:`RatingLookup`: the
  server gives it :class:`.ratings.GameRatings`; without it nobody has one), two people are
  seated together only if their ratings differ by at most a band that widens with the time
  they waited (:meth:`QuickMatch.band`).
  People without a rating are paired with anybody.
- **Blocks**: two people of whom one blocks the other (:mod:`.moderation`) are never seated
  together.
- **Bounds**: at most :data:`MAX_PER_CLIENT` tickets waiting per client address (one per
  account: a new one replaces the old), :data:`MAX_WAITING` in all. A ticket whose page has not
  looked at it for :data:`EXPIRE_SECONDS` is gone (the page was closed), as is a seated one
  whose page has not read its seat by then. A seat's token is handed over once: the ticket
  ends with the answer that holds it.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from campfire.agents import LEVELS
from campfire.core import CampfireError, ErrorText
from campfire.core import get as get_game

from .lobby import guarded, read_body
from .models import QuickEntryRow, utcnow
from .moderation import Moderation
from .quick_schemas import WAITS
from .seating import LobbyError, check_nickname
from .security import address_key, client_address
from .wire import decode

__all__ = [
    "DEFAULT_LEVEL",
    "EXPIRE_SECONDS",
    "MAX_PER_CLIENT",
    "MAX_WAITING",
    "WAITS",
    "NoRatings",
    "QuickMatch",
    "RatingLookup",
    "bot_level",
    "routes",
]

log = logging.getLogger(__name__)

#: The bots' level where the person chose none and no rating decides.
DEFAULT_LEVEL = "easy"
#: A ticket whose page has not looked at it for this long is gone (seconds).
EXPIRE_SECONDS = 10.0
#: Tickets waiting per client address.
MAX_PER_CLIENT = 4
#: Tickets waiting in all.
MAX_WAITING = 1000
#: People a waiting page names.
SHOWN = 20
#: A seated person's seat: a bot takes it over after this many seconds away.
BOT_AFTER_LEAVE = 60.0
#: The PostgreSQL advisory lock the matching holds (one matching at a time, all processes).
LOCK_KEY = 7215462


class RatingLookup(Protocol):
    """Ratings, where the server keeps them (the seam the ratings fill; default: none)."""

    def rating(self, user_id: int, game: str, players: int) -> float | None:
        """The user's rating in ``game`` at ``players`` players (``None``: none yet)."""

    def bot_rating(self, level: str, game: str, players: int) -> float | None:
        """The rating of the bots of ``level`` there (``None``: none yet)."""


class NoRatings:
    """No ratings: people are paired by the time they waited, bots play the chosen level."""

    def rating(self, user_id: int, game: str, players: int) -> float | None:
        """Nobody has a rating."""
        return None

    def bot_rating(self, level: str, game: str, players: int) -> float | None:
        """No bot has a rating."""
        return None


def bot_level(ratings: Sequence[float], chosen: str, bots: Mapping[str, float | None]) -> str:
    """The bots' level for people of ``ratings``: the level whose rating is nearest their mean.

    Without ratings (of the people or of the bots) the level ``chosen`` by the person whose
    wait ran out.

    >>> bot_level([24.0, 30.0], "easy", {"easy": 18.0, "medium": 26.0, "hard": 35.0})
    'medium'
    >>> bot_level([], "hard", {"easy": 18.0}), bot_level([20.0], "hard", {"easy": None})
    ('hard', 'hard')
    """
    known = {level: r for level, r in bots.items() if r is not None}
    if not ratings or not known:
        return chosen
    mean = sum(ratings) / len(ratings)
    return min(known, key=lambda level: (abs(known[level] - mean), level))


def _digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


def _aware(moment: datetime.datetime) -> datetime.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


@dataclass
class _Waiting:
    """A waiting entry, as the matching reads it."""

    key: str
    nickname: str
    user_id: int | None
    rating: float | None
    level: str
    created: datetime.datetime
    deadline: datetime.datetime


class QuickMatch:
    """The quick match queue of a server process (the app's ``state.quick``)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        moderation: Moderation,
        ratings: RatingLookup | None = None,
        clock: Any = utcnow,
        band_start: float = 3.0,
        band_per_second: float = 0.25,
    ) -> None:
        self.sessions = sessions
        self.moderation = moderation
        #: the ratings (the seam: :class:`NoRatings` until the ratings plug theirs in)
        self.ratings: RatingLookup = ratings or NoRatings()
        self.clock = clock
        #: the rating band two people are paired within: ``band_start`` at once, widening by
        #: ``band_per_second`` for each second the longer waiting one waited (openskill's μ
        #: scale, where a new player is 25 ± 8.3)
        self.band_start, self.band_per_second = band_start, band_per_second
        self._lock = asyncio.Lock()
        self._last: dict[tuple[str, int], float] = {}

    def band(self, waited: float) -> float:
        """The largest rating difference of two people paired after ``waited`` seconds."""
        return self.band_start + self.band_per_second * max(0.0, waited)

    # ----- the queue's reads and writes (synchronous: worker threads) -------------------------

    def add(
        self,
        game: str,
        players: int,
        nickname: str,
        wait: int,
        level: str,
        user_id: int | None,
        client: str,
    ) -> str:
        """Put a person in the queue; their ticket (429/503 ``queue_full`` past the bounds)."""
        now = self.clock()
        rating = self.ratings.rating(user_id, game, players) if user_id is not None else None
        ticket = secrets.token_urlsafe(24)
        with self.sessions.begin() as session:
            self._sweep(session, now)
            waiting = QuickEntryRow.table_id.is_(None)
            if user_id is not None:  # one ticket per account: the new one replaces the old
                session.execute(
                    delete(QuickEntryRow).where(QuickEntryRow.user_id == user_id, waiting)
                )
            mine = session.scalar(
                select(func.count())
                .select_from(QuickEntryRow)
                .where(QuickEntryRow.client == client, waiting)
            )
            if int(mine or 0) >= MAX_PER_CLIENT:
                raise LobbyError(
                    429,
                    "queue_full",
                    ErrorText(
                        "at most {limit} quick matches may wait from one address; close a "
                        "waiting page first",
                        limit=MAX_PER_CLIENT,
                    ),
                )
            total = session.scalar(select(func.count()).select_from(QuickEntryRow).where(waiting))
            if int(total or 0) >= MAX_WAITING:
                raise LobbyError(
                    503,
                    "queue_full",
                    ErrorText("too many people are waiting for a quick match; try again soon"),
                )
            session.add(
                QuickEntryRow(
                    id_hash=_digest(ticket),
                    game=game,
                    players=players,
                    nickname=nickname,
                    user_id=user_id,
                    client=client,
                    rating=rating,
                    level=level,
                    created=now,
                    deadline=now + datetime.timedelta(seconds=wait),
                    seen=now,
                )
            )
        return ticket

    def _sweep(self, session: Session, now: datetime.datetime) -> None:
        """Forget the tickets whose pages went away (not seen for :data:`EXPIRE_SECONDS`)."""
        gone = now - datetime.timedelta(seconds=EXPIRE_SECONDS)
        session.execute(
            delete(QuickEntryRow).where(
                QuickEntryRow.seen < gone,
                (QuickEntryRow.table_id.is_(None)) | (QuickEntryRow.table_id > 0),
            )
        )

    def look(self, ticket: str) -> dict[str, Any]:
        """A ticket's state (404 ``unknown_ticket`` if gone); a seated one's ends with it."""
        now = self.clock()
        with self.sessions.begin() as session:
            row = session.get(QuickEntryRow, _digest(ticket))
            if row is None:
                raise _unknown_ticket()
            row.seen = now
            answer: dict[str, Any] = {
                "game": row.game,
                "players": row.players,
                "state": "waiting",
                "seconds_left": max(0.0, (_aware(row.deadline) - now).total_seconds()),
                "waiting": [],
            }
            if row.table_id:  # handed over once: the token is kept no longer
                answer.update(state="seated", table=row.table_id, seat=row.seat, token=row.token)
                session.delete(row)
                return answer
            names = session.scalars(
                select(QuickEntryRow.nickname)
                .where(
                    QuickEntryRow.game == row.game,
                    QuickEntryRow.players == row.players,
                    QuickEntryRow.table_id.is_(None),
                )
                .order_by(QuickEntryRow.created)
                .limit(SHOWN)
            )
            answer["waiting"] = list(names)
            return answer

    def game_of(self, ticket: str) -> tuple[str, int] | None:
        """The game and player count a ticket waits for (``None``: no such ticket).

        The page looked at it: it is not forgotten before the matching that follows.
        """
        with self.sessions.begin() as session:
            row = session.get(QuickEntryRow, _digest(ticket))
            if row is None:
                return None
            row.seen = self.clock()
            return row.game, row.players

    def leave(self, ticket: str) -> bool:
        """Take a ticket out of the queue; ``False``: there was no such ticket."""
        with self.sessions.begin() as session:
            gone = session.execute(
                delete(QuickEntryRow).where(QuickEntryRow.id_hash == _digest(ticket))
            )
            return bool(getattr(gone, "rowcount", 0))

    def _groups(self, game: str, players: int) -> list[list[_Waiting]]:
        """Choose the groups to seat now and mark them as being seated (one transaction)."""
        now = self.clock()
        with self.sessions.begin() as session:
            if session.get_bind().dialect.name == "postgresql":
                session.execute(text(f"SELECT pg_advisory_xact_lock({LOCK_KEY})"))
            self._sweep(session, now)
            rows = session.scalars(
                select(QuickEntryRow)
                .where(
                    QuickEntryRow.game == game,
                    QuickEntryRow.players == players,
                    QuickEntryRow.table_id.is_(None),
                )
                .order_by(QuickEntryRow.created, QuickEntryRow.id_hash)
                .limit(MAX_WAITING)
            ).all()
            waiting = [
                _Waiting(
                    r.id_hash,
                    r.nickname,
                    r.user_id,
                    r.rating,
                    r.level,
                    _aware(r.created),
                    _aware(r.deadline),
                )
                for r in rows
            ]
            blocked = self.moderation.blocked_pairs(
                w.user_id for w in waiting if w.user_id is not None
            )
            groups = self.choose(waiting, players, now, blocked)
            chosen = [w.key for g in groups for w in g]
            if chosen:
                session.execute(
                    update(QuickEntryRow)
                    .where(QuickEntryRow.id_hash.in_(chosen))
                    .values(table_id=0)
                )
            return groups

    def choose(
        self,
        waiting: Sequence[_Waiting],
        players: int,
        now: datetime.datetime,
        blocked: set[frozenset[int]],
    ) -> list[list[_Waiting]]:
        """The groups to seat now, the longest waiting first.

        Each group is full (``players`` people who may sit together), or its first person's
        wait is over (bots fill the rest).
        """
        used: set[str] = set()
        groups = []
        for first in waiting:
            if first.key in used:
                continue
            group = [first]
            for other in waiting:
                if len(group) == players:
                    break
                if other.key in used or other is first or other.created < first.created:
                    continue
                if all(self._fits(member, other, now, blocked) for member in group):
                    group.append(other)
            if len(group) == players or first.deadline <= now:
                used.update(w.key for w in group)
                groups.append(group)
        return groups

    def _fits(
        self, a: _Waiting, b: _Waiting, now: datetime.datetime, blocked: set[frozenset[int]]
    ) -> bool:
        if (
            a.user_id is not None
            and b.user_id is not None
            and (a.user_id == b.user_id or frozenset((a.user_id, b.user_id)) in blocked)
        ):
            return False
        if a.rating is None or b.rating is None:
            return True
        waited = (now - min(a.created, b.created)).total_seconds()
        return abs(a.rating - b.rating) <= self.band(waited)

    def _seated(self, group: list[_Waiting], table_id: int, tokens: dict[int, str]) -> None:
        with self.sessions.begin() as session:
            for seat, person in enumerate(group):
                session.execute(
                    update(QuickEntryRow)
                    .where(QuickEntryRow.id_hash == person.key)
                    .values(table_id=table_id, seat=seat, token=tokens[seat])
                )

    def _unmark(self, group: list[_Waiting]) -> None:
        with self.sessions.begin() as session:
            session.execute(
                update(QuickEntryRow)
                .where(QuickEntryRow.id_hash.in_([w.key for w in group]))
                .values(table_id=None)
            )

    # ----- matching (on the event loop: it creates tables) ------------------------------------

    async def match(self, request: Request, game: str, players: int, force: bool = False) -> int:
        """Seat the groups that can be seated now; how many tables were made.

        Runs at most twice a second per game and count in a process (each waiting page looks
        every second), unless ``force``.
        """
        key = (game, players)
        now = time.monotonic()
        if not force and now - self._last.get(key, -1e9) < 0.5:
            return 0
        self._last[key] = now
        async with self._lock:
            groups = await asyncio.to_thread(self._groups, game, players)
            for group in groups:
                try:
                    await self._seat(request, game, players, group)
                except Exception:
                    log.exception("seating a quick match failed; its people wait on")
                    await asyncio.to_thread(self._unmark, group)
        return len(groups)

    async def _seat(self, request: Request, game: str, players: int, group: list[_Waiting]) -> None:
        manager = request.app.state.manager
        ratings = [w.rating for w in group if w.rating is not None]
        levels = {
            level: await asyncio.to_thread(self.ratings.bot_rating, level, game, players)
            for level in LEVELS
        }
        level = bot_level(ratings, group[0].level, levels)
        seats: list[dict[str, Any]] = [{"kind": "reserved", "nickname": w.nickname} for w in group]
        seats += [{"kind": "bot", "level": level}] * (players - len(group))
        live, tokens = manager.create(
            {"game": game, "players": players, "seats": seats, "bot_after_leave": BOT_AFTER_LEAVE}
        )
        async with live.lock:
            manager.start(live, tokens[0], request.app.state.next_seed(), {"absent": "wait"})
        for seat, person in enumerate(group):
            if person.user_id is not None:  # the seat is the person's account's
                await asyncio.to_thread(manager.store.own_seat, live.id, seat, person.user_id)
        await asyncio.to_thread(self._seated, group, live.id, tokens)
        log.info("quick match: table %d for %d people of %d", live.id, len(group), players)


def _unknown_ticket() -> LobbyError:
    return LobbyError(
        404,
        "unknown_ticket",
        ErrorText("this quick match ticket is unknown or expired; press Play now again"),
    )


# ----- HTTP ------------------------------------------------------------------------------------


def _quick(request: Request) -> QuickMatch:
    found: QuickMatch = request.app.state.quick
    return found


def _ticket(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, ticket = header.partition(" ")
    ticket = ticket.strip()
    if scheme.lower() != "bearer" or not 1 <= len(ticket) <= 100:
        raise LobbyError(401, "bad_token", ErrorText("send the quick match ticket: Bearer TICKET"))
    return ticket


def _bad(message: ErrorText) -> LobbyError:
    return LobbyError(400, "bad_request", message)


async def join(request: Request) -> Response:
    """``POST /api/quick``: wait for a quick match; the answer holds the secret ticket."""
    data = await read_body(request, 4096)
    body = decode(
        data or b"{}", ErrorText("the request body"), lambda m: LobbyError(400, "bad_json", m)
    )
    allowed = ("game", "players", "wait", "level", "nickname")
    if not isinstance(body, dict) or set(body) - set(allowed):
        raise _bad(ErrorText("a quick match takes {allowed}", allowed=", ".join(allowed)))
    try:
        name = body.get("game")
        game = get_game(name if isinstance(name, str) else "")
    except CampfireError as exc:
        raise _bad(exc.text) from None
    players = body.get("players", game.min_players)
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or not game.min_players <= players <= game.max_players
    ):
        raise _bad(
            ErrorText(
                '"players": {game} is played by {low}–{high}',
                game=game.title_text(),
                low=game.min_players,
                high=game.max_players,
            )
        )
    wait = body.get("wait", WAITS[1])
    if wait not in WAITS or isinstance(wait, bool):
        raise _bad(
            ErrorText(
                '"wait" is the seconds to wait before bots fill the seats: one of {waits}',
                waits=", ".join(str(w) for w in WAITS),
            )
        )
    level = body.get("level", DEFAULT_LEVEL)
    if level not in LEVELS:
        raise _bad(
            ErrorText('"level" is the bots\' level: one of {levels}', levels=", ".join(LEVELS))
        )
    nickname = check_nickname(body.get("nickname"))
    service = request.app.state.accounts
    user = await service.user_of(request)
    client = address_key(client_address(request.scope)) or "unknown"
    quick = _quick(request)
    ticket = await asyncio.to_thread(
        quick.add,
        game.name,
        players,
        nickname,
        int(wait),
        str(level),
        user.id if user is not None else None,
        client[:64],
    )
    await quick.match(request, game.name, players, force=True)
    state = await asyncio.to_thread(quick.look, ticket)
    return JSONResponse({"ticket": ticket, **state}, status_code=201)


async def look(request: Request) -> Response:
    """``GET /api/quick``: the ticket's state: waiting (who, how long yet) or seated (where)."""
    ticket = _ticket(request)
    quick = _quick(request)
    found = await asyncio.to_thread(quick.game_of, ticket)
    if found is None:
        raise _unknown_ticket()
    await quick.match(request, *found)
    return JSONResponse(await asyncio.to_thread(quick.look, ticket))


async def leave(request: Request) -> Response:
    """``DELETE /api/quick``: stop waiting."""
    if not await asyncio.to_thread(_quick(request).leave, _ticket(request)):
        raise _unknown_ticket()
    return JSONResponse({"left": True})


def routes() -> list[Route]:
    """The quick match's routes."""
    return [
        Route("/api/quick", guarded(join), methods=["POST"]),
        Route("/api/quick", guarded(look), methods=["GET"]),
        Route("/api/quick", guarded(leave), methods=["DELETE"]),
    ]
