"""Ratings of rated tables: openskill's Plackett–Luce model, per game, for users and bot levels.

``docs/accounts.md``, "Ratings", says it for people. In short:

- **What is rated**: each finished game of a rated table (``"rated": true``; every person's
  seat a signed-in user's, bots allowed) that has an outcome, also a game lost on time. A game
  closed by the operator has none and is not rated. Each seat is its own team, ranked by the
  outcome (1 is best; tied seats share a rank, which the model takes as a tie).
- **Whose**: each user's (``user:ID``) and each bot level's (``bot:LEVEL``): bots are rated
  from their games against people, on the same scale. A bot level at several seats of one game
  gets the mean of its seats' updates.
- **Which ratings**: one per game over every player count (``players`` 0: the one shown
  first), and, for a game played by a range of player counts, one per count too (a game of N
  players changes both).
- **Shown**: :func:`shown` — ``1000 + 40·(μ − 3σ)``, the conservative estimate that ranks the
  leaderboards; a new player starts at μ = 25, σ = 25/3 (shown 1000). A rating is
  **provisional** until :data:`PROVISIONAL_GAMES` rated games.
- **Once**: a game is rated in one transaction that also inserts its ``rated_games`` row (its
  key: the table and game number), so no game is rated twice, by a restart or by two
  processes; the games a server stopped before rating are rated at its next start
  (:meth:`GameRatings.sweep`).

The pure rules are :func:`rate` and :func:`shown`; :class:`GameRatings` reads and writes the
database (synchronous: the server calls it in a worker thread).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from campfire.core import CampfireError
from campfire.core import get as get_game

from .models import (
    AccountSeatRow,
    RatedGameRow,
    RatingHistoryRow,
    RatingRow,
    RecordRow,
    SeatRow,
    TableRow,
    UserRow,
    utcnow,
)

__all__ = [
    "BASE",
    "INITIAL_MU",
    "INITIAL_SIGMA",
    "MAX_GAMES_SHOWN",
    "PROVISIONAL_GAMES",
    "SCALE",
    "GameRatings",
    "Seat",
    "bot_subject",
    "forget_user",
    "outcome_ranks",
    "rate",
    "shown",
    "user_subject",
]

log = logging.getLogger(__name__)

#: The model's starting mean and deviation (openskill's defaults).
INITIAL_MU = 25.0
INITIAL_SIGMA = 25.0 / 3.0
#: The shown rating is ``BASE + SCALE·(μ − 3σ)``: a new player is shown BASE.
BASE = 1000
SCALE = 40
#: A rating is provisional until this many rated games.
PROVISIONAL_GAMES = 10
#: The most games a profile or "my games" lists per game (the newest).
MAX_GAMES_SHOWN = 200
#: The most rows a leaderboard answers.
MAX_LEADERBOARD = 100


def shown(mu: float, sigma: float) -> int:
    """The rating people see: ``BASE + SCALE·(μ − 3σ)``, rounded.

    >>> shown(INITIAL_MU, INITIAL_SIGMA)
    1000
    """
    return round(BASE + SCALE * (mu - 3 * sigma))


def user_subject(user_id: int) -> str:
    """A user's key in the ``ratings`` table."""
    return f"user:{user_id}"


def bot_subject(level: str) -> str:
    """A bot level's key in the ``ratings`` table."""
    return f"bot:{level}"


@dataclass(frozen=True)
class Seat:
    """One seat of a rated game: whose it is, its rating before, its place (1 is best)."""

    subject: str
    mu: float
    sigma: float
    rank: int


def rate(seats: Sequence[Seat]) -> dict[str, tuple[float, float]]:
    """The new ``(μ, σ)`` of each subject after one game (openskill's Plackett–Luce).

    Each seat is a team of one, ranked by its place (equal places are a tie). A subject at
    several seats (one bot level twice) gets the mean of its seats' updates.

    >>> new = rate([Seat("a", 25, 25 / 3, 1), Seat("b", 25, 25 / 3, 2)])
    >>> new["a"][0] > 25 > new["b"][0]
    True
    >>> tie = rate([Seat("a", 25, 25 / 3, 1), Seat("b", 25, 25 / 3, 1)])
    >>> abs(tie["a"][0] - tie["b"][0]) < 1e-9
    True
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=INITIAL_MU, sigma=INITIAL_SIGMA)
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in seats]
    new = model.rate(teams, ranks=[float(s.rank) for s in seats])
    updates: dict[str, list[tuple[float, float]]] = {}
    for seat, team in zip(seats, new, strict=True):
        updates.setdefault(seat.subject, []).append((float(team[0].mu), float(team[0].sigma)))
    return {
        subject: (
            sum(v[0] for v in values) / len(values),
            sum(v[1] for v in values) / len(values),
        )
        for subject, values in updates.items()
    }


def outcome_ranks(record: Mapping[str, Any]) -> list[int] | None:
    """The seats' places in a record's game (``None``: it has no outcome, e.g. closed).

    A game lost on time takes the forfeit's outcome (``meta.forfeit.outcome``).

    >>> outcome_ranks({"outcome": {"ranks": [2, 1]}})
    [2, 1]
    >>> outcome_ranks({"outcome": None, "meta": {"forfeit": {"outcome": {"ranks": [1, 2]}}}})
    [1, 2]
    >>> outcome_ranks({"outcome": None, "meta": {"closed": {}}}) is None
    True
    """
    meta = record.get("meta") or {}
    forfeit = meta.get("forfeit") if isinstance(meta, dict) else None
    outcome = forfeit.get("outcome") if isinstance(forfeit, dict) else record.get("outcome")
    if not isinstance(outcome, dict) or not isinstance(outcome.get("ranks"), list):
        return None
    ranks = outcome["ranks"]
    if not all(isinstance(r, int) and not isinstance(r, bool) and r >= 1 for r in ranks):
        return None
    return [int(r) for r in ranks]


def _aware_iso(value: Any) -> str | None:
    if value is None:
        return None
    text: str = value.isoformat(timespec="seconds")
    return text if value.tzinfo is not None else text + "+00:00"


def _rating_json(row: RatingRow) -> dict[str, Any]:
    return {
        "game": row.game,
        "players": row.players,
        "rating": shown(row.mu, row.sigma),
        "mu": round(row.mu, 4),
        "sigma": round(row.sigma, 4),
        "games": row.games,
        "wins": row.wins,
        "provisional": row.games < PROVISIONAL_GAMES,
    }


class GameRatings:
    """The ratings in the database: rating finished games, and what the pages show."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    # ----- rating ---------------------------------------------------------------------------

    def rate_game(self, table_id: int, game_number: int) -> bool:
        """Rate one finished game of a rated table, once; whether it was rated now.

        ``False``: rated before, not a rated table's, no outcome (closed), or a person's
        seat that is no user's (an account deleted meanwhile). Two processes or a restart
        that rate the same game at once: one inserts its ``rated_games`` row, the other's
        transaction fails on that key and changes nothing.
        """
        for attempt in range(3):
            try:
                with self.sessions.begin() as session:
                    return self._rate(session, table_id, game_number)
            except IntegrityError:
                # the game was rated meanwhile, or a new rating row was inserted by another:
                # look again (the second time finds it done, or the row there)
                if attempt == 2:
                    raise
        return False  # pragma: no cover

    def _rate(self, session: Session, table_id: int, game_number: int) -> bool:
        if session.get(RatedGameRow, (table_id, game_number)) is not None:
            return False
        table = session.get(TableRow, table_id)
        record_row = session.get(RecordRow, (table_id, game_number))
        if table is None or record_row is None or not (table.settings or {}).get("rated"):
            return False
        session.add(
            RatedGameRow(
                table_id=table_id,
                game_number=game_number,
                game=table.game,
                players=table.players,
                rated=utcnow(),
            )
        )
        session.flush()  # the key: a second rating of this game stops here
        try:
            record = json.loads(record_row.record)
        except ValueError:
            return False
        ranks = outcome_ranks(record) if isinstance(record, dict) else None
        if ranks is None or len(ranks) != table.players:
            return False
        seats = session.scalars(
            select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        ).all()
        owners = dict(
            session.execute(
                select(AccountSeatRow.seat, AccountSeatRow.user_id).where(
                    AccountSeatRow.table_id == table_id
                )
            ).all()
        )
        subjects: list[tuple[str, int | None, str | None]] = []
        for seat in seats:
            if seat.kind == "bot":
                level = seat.level or "easy"
                subjects.append((bot_subject(level), None, level))
            elif seat.seat in owners:
                subjects.append((user_subject(owners[seat.seat]), owners[seat.seat], None))
            else:
                log.info(
                    "table %s game %s: seat %s is no user's; not rated",
                    table_id,
                    game_number,
                    seat.seat,
                )
                return False
        if len(subjects) != table.players or all(user is None for _, user, _ in subjects):
            return False
        try:
            game = get_game(table.game)
            counts = [0] if game.min_players == game.max_players else [0, table.players]
        except CampfireError:
            counts = [0]
        now = utcnow()
        for players in counts:
            self._update(session, table, game_number, players, subjects, ranks, now)
        return True

    def _update(
        self,
        session: Session,
        table: TableRow,
        game_number: int,
        players: int,
        subjects: Sequence[tuple[str, int | None, str | None]],
        ranks: Sequence[int],
        now: Any,
    ) -> None:
        """Update the ratings of one (game, player count) after a game; their history rows."""
        keys = sorted({s for s, _, _ in subjects})
        query = select(RatingRow).where(
            RatingRow.game == table.game, RatingRow.players == players, RatingRow.subject.in_(keys)
        )
        if session.bind is not None and session.bind.dialect.name == "postgresql":
            query = query.order_by(RatingRow.subject).with_for_update()
        rows = {r.subject: r for r in session.scalars(query)}
        for subject, user, level in subjects:
            if subject not in rows:
                row = RatingRow(
                    game=table.game,
                    players=players,
                    subject=subject,
                    user_id=user,
                    level=level,
                    mu=INITIAL_MU,
                    sigma=INITIAL_SIGMA,
                    games=0,
                    wins=0,
                    updated=now,
                )
                session.add(row)
                rows[subject] = row
        session.flush()
        seats = [
            Seat(subject, rows[subject].mu, rows[subject].sigma, rank)
            for (subject, _, _), rank in zip(subjects, ranks, strict=True)
        ]
        new = rate(seats)
        best: dict[str, int] = {}
        for (subject, _, _), rank in zip(subjects, ranks, strict=True):
            best[subject] = min(rank, best.get(subject, rank))
        before = {subject: shown(rows[subject].mu, rows[subject].sigma) for subject in new}
        for subject, (mu, sigma) in new.items():
            row = rows[subject]
            row.mu, row.sigma, row.updated = mu, sigma, now
            row.games += 1
            row.wins += 1 if best[subject] == 1 else 0
        for seat_number, ((subject, _, _), rank) in enumerate(zip(subjects, ranks, strict=True)):
            row = rows[subject]
            session.add(
                RatingHistoryRow(
                    rating_id=row.id,
                    table_id=table.id,
                    game_number=game_number,
                    seat=seat_number,
                    rank=rank,
                    mu=row.mu,
                    sigma=row.sigma,
                    before=before[subject],
                    after=shown(row.mu, row.sigma),
                    rated=now,
                )
            )

    def sweep(self) -> int:
        """Rate the finished games of rated tables not rated yet (after a restart); how many."""
        with self.sessions() as session:
            found = session.execute(
                select(RecordRow.table_id, RecordRow.game_number)
                .outerjoin(
                    RatedGameRow,
                    and_(
                        RatedGameRow.table_id == RecordRow.table_id,
                        RatedGameRow.game_number == RecordRow.game_number,
                    ),
                )
                .where(RatedGameRow.table_id.is_(None), RecordRow.record.contains('"rated": true'))
                .order_by(RecordRow.finished)
            ).all()
        done = 0
        for table_id, number in found:
            try:
                done += self.rate_game(int(table_id), int(number))
            except Exception:  # one broken game never stops the others
                log.exception("table %s game %s could not be rated", table_id, number)
        return done

    # ----- what the pages show ----------------------------------------------------------------

    def leaderboard(
        self, game: str, players: int = 0, limit: int = MAX_LEADERBOARD
    ) -> dict[str, Any]:
        """A game's leaderboard (``players`` 0: over every player count), best first; bots too."""
        with self.sessions() as session:
            order = (RatingRow.mu - 3 * RatingRow.sigma).desc()
            rows = session.execute(
                select(RatingRow, UserRow.name)
                .outerjoin(UserRow, UserRow.id == RatingRow.user_id)
                .where(RatingRow.game == game, RatingRow.players == players)
                .order_by(order, RatingRow.id)
                .limit(limit)
            ).all()
            out = []
            for place, (row, name) in enumerate(rows, 1):
                if row.user_id is not None and name is None:
                    continue  # (a deleted user's: gone with the account)
                entry = _rating_json(row)
                entry.pop("game")
                entry.pop("players")
                entry["place"] = place
                entry["name"] = name
                entry["bot"] = row.level
                out.append(entry)
            counts = sorted(
                int(n)
                for n in session.scalars(
                    select(RatingRow.players).where(RatingRow.game == game).distinct()
                )
            )
        return {
            "game": game,
            "players": players,
            "counts": [n for n in counts if n],
            "provisional_games": PROVISIONAL_GAMES,
            "rows": out,
        }

    # ----- the quick match's pairing (quick.RatingLookup) ------------------------------------

    def rating(self, user_id: int, game: str, players: int) -> float | None:
        """A user's μ in ``game`` at ``players`` (that count's own, else the game's; ``None``)."""
        return self._mu(user_subject(user_id), game, players)

    def bot_rating(self, level: str, game: str, players: int) -> float | None:
        """The μ of the bots of ``level`` in ``game`` at ``players``, as :meth:`rating`."""
        return self._mu(bot_subject(level), game, players)

    def _mu(self, subject: str, game: str, players: int) -> float | None:
        with self.sessions() as session:
            rows = session.execute(
                select(RatingRow.players, RatingRow.mu).where(
                    RatingRow.game == game,
                    RatingRow.subject == subject,
                    RatingRow.players.in_((0, players)),
                )
            ).all()
        found = {int(count): float(mu) for count, mu in rows}
        return found.get(players, found.get(0))

    def user_by_name(self, name: str) -> tuple[int, str] | None:
        """The id and name of the user called ``name`` (any case; ``None``: nobody)."""
        with self.sessions() as session:
            row = session.execute(
                select(UserRow.id, UserRow.name).where(UserRow.name_key == name.lower())
            ).one_or_none()
            return (int(row[0]), str(row[1])) if row is not None else None

    def profile(self, user_id: int, name: str) -> dict[str, Any]:
        """A player's page: ratings with their history, games per game type (newest first)."""
        with self.sessions() as session:
            ratings = session.scalars(
                select(RatingRow)
                .where(RatingRow.user_id == user_id)
                .order_by(RatingRow.game, RatingRow.players)
            ).all()
            out_ratings = []
            for row in ratings:
                entry = _rating_json(row)
                history = (
                    session.execute(
                        select(RatingHistoryRow)
                        .where(RatingHistoryRow.rating_id == row.id)
                        .order_by(RatingHistoryRow.id.desc())
                        .limit(MAX_GAMES_SHOWN)
                    )
                    .scalars()
                    .all()
                )
                entry["history"] = [
                    {
                        "table": h.table_id,
                        "game_number": h.game_number,
                        "rating": h.after,
                        "change": h.after - h.before,
                        "rated": _aware_iso(h.rated),
                    }
                    for h in reversed(history)
                ]
                out_ratings.append(entry)
            games = self._games(session, user_id)
        return {
            "name": name,
            "provisional_games": PROVISIONAL_GAMES,
            "ratings": out_ratings,
            "games": games,
        }

    def my_games(self, user_id: int) -> dict[str, Any]:
        """The signed-in user's games: those being played (open, running) first, then finished."""
        with self.sessions() as session:
            games = self._games(session, user_id, with_running=True)
        running = [g for g in games if g["status"] != "finished"]
        finished = [g for g in games if g["status"] == "finished"]
        return {"running": running, "finished": finished}

    def _games(
        self, session: Session, user_id: int, *, with_running: bool = False
    ) -> list[dict[str, Any]]:
        """A user's games, newest first: each finished game, and (``with_running``) the rest.

        A finished game holds its result (the seat's place, whether it won, the players),
        whether it was rated and the rating change; the replay is ``/replay?table=&game=``.
        """
        seats = session.execute(
            select(AccountSeatRow.table_id, AccountSeatRow.seat, TableRow)
            .join(TableRow, TableRow.id == AccountSeatRow.table_id)
            .where(AccountSeatRow.user_id == user_id)
            .order_by(AccountSeatRow.table_id.desc())
            .limit(MAX_GAMES_SHOWN)
        ).all()
        if not seats:
            return []
        tables = [int(t) for t, _, _ in seats]
        records = session.execute(
            select(RecordRow.table_id, RecordRow.game_number, RecordRow.record, RecordRow.finished)
            .where(RecordRow.table_id.in_(tables))
            .order_by(RecordRow.table_id.desc(), RecordRow.game_number.desc())
        ).all()
        changes: dict[tuple[int, int, int], int] = {}
        for h in session.execute(
            select(
                RatingHistoryRow.table_id,
                RatingHistoryRow.game_number,
                RatingHistoryRow.seat,
                RatingHistoryRow.after - RatingHistoryRow.before,
            )
            .join(RatingRow, RatingRow.id == RatingHistoryRow.rating_id)
            .where(
                RatingRow.user_id == user_id,
                RatingRow.players == 0,
                RatingHistoryRow.table_id.in_(tables),
            )
        ).all():
            changes[int(h[0]), int(h[1]), int(h[2])] = int(h[3])
        names = self._names(session, tables)
        by_table: dict[int, list[Any]] = {}
        for r in records:
            by_table.setdefault(int(r[0]), []).append(r)
        out: list[dict[str, Any]] = []
        for table_id, seat, table in seats:
            rated = bool((table.settings or {}).get("rated"))
            base = {
                "table": int(table_id),
                "game": table.game,
                "players": table.players,
                "seat": int(seat),
                "rated": rated,
                "names": names.get(int(table_id), []),
            }
            if with_running and table.status != "finished":
                out.append(
                    {
                        **base,
                        "game_number": table.game_number,
                        "status": table.status,
                        "place": None,
                        "won": None,
                        "change": None,
                        "finished": None,
                    }
                )
            for _, number, text, finished in by_table.get(int(table_id), []):
                try:
                    ranks = outcome_ranks(json.loads(text))
                except ValueError:
                    ranks = None
                place = ranks[seat] if ranks is not None and seat < len(ranks) else None
                out.append(
                    {
                        **base,
                        "game_number": int(number),
                        "status": "finished",
                        "place": place,
                        "won": place == 1 if place is not None else None,
                        "change": changes.get((int(table_id), int(number), int(seat))),
                        "finished": _aware_iso(finished),
                    }
                )
        return out

    def _names(self, session: Session, tables: Sequence[int]) -> dict[int, list[str | None]]:
        """Each table's seats as the games list names them: a nickname, or ``bot:LEVEL``."""
        out: dict[int, list[str | None]] = {}
        for row in session.scalars(
            select(SeatRow)
            .where(SeatRow.table_id.in_(tables))
            .order_by(SeatRow.table_id, SeatRow.seat)
        ):
            label = f"bot:{row.level}" if row.kind == "bot" else row.nickname
            out.setdefault(int(row.table_id), []).append(label)
        return out


def forget_user(session: Session, user_id: int) -> None:
    """Delete a user's ratings and their history (in the transaction deleting the account)."""
    ids = list(session.scalars(select(RatingRow.id).where(RatingRow.user_id == user_id)))
    if ids:
        session.execute(delete(RatingHistoryRow).where(RatingHistoryRow.rating_id.in_(ids)))
        session.execute(delete(RatingRow).where(RatingRow.id.in_(ids)))
