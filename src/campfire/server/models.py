"""The server's database tables (SQLAlchemy 2 typed ORM).

- :class:`TableRow` — a game table: game, options, player count, status, the current game's
  number (a rematch starts the next) and its seed (secret: it decides every hidden card), and
  whether the operator closed it (``campfire admin close``) and with what message;
- :class:`SeatRow` — one seat of a table: open, a person (nickname, the hash of the seat's
  token) or a bot (difficulty level);
- :class:`ActionRow` — the append-only action log: one row per accepted action, with its
  sequence number, seat, notation, the server's receive time, why it was played (a
  time-out, a bot taking over) and the clocks after it;
- :class:`RecordRow` — the JSON record (``docs/records.md``) of each finished game;
- :class:`ChatRow` — one line of a table's chat (players' or spectators' channel): kept with
  the table, never part of a game's log or record;
- :class:`UserRow`, :class:`UserSessionRow`, :class:`AccountSeatRow`, :class:`PasswordResetRow`
  — the optional accounts (``docs/accounts.md``): a user, a signed-in browser, a seat that is a
  user's, a password reset on its way by e-mail;
- :class:`RatingRow`, :class:`RatingHistoryRow`, :class:`RatedGameRow` — the ratings of rated
  tables (``docs/accounts.md``, "Ratings"): a user's or a bot level's rating per game, each
  change of one, and the games already rated (so that none is rated twice);
- :class:`QuickEntryRow` — a person waiting in the quick match queue (``docs/web.md``, "Play
  now"): shared by every server process through the database;
- :class:`ReportRow`, :class:`BlockRow` — moderation (``docs/accounts.md``, "Moderation"): a
  report of a player for the operator, a user's block of another; a user's suspension is in
  :class:`UserRow`.

The schema is created and upgraded by the Alembic migrations in ``migrations/``.
"""

from __future__ import annotations

import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AccountSeatRow",
    "ActionRow",
    "Base",
    "BlockRow",
    "ChatRow",
    "LeaseRow",
    "PasswordResetRow",
    "QuickEntryRow",
    "RatedGameRow",
    "RatingHistoryRow",
    "RatingRow",
    "RecordRow",
    "ReportRow",
    "SeatRow",
    "TableRow",
    "UserRow",
    "UserSessionRow",
    "utcnow",
]

#: Constraint names, so that migrations name them the same on every database.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime.datetime:
    """The current time in UTC (what every timestamp column holds)."""
    return datetime.datetime.now(datetime.UTC)


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""

    metadata = MetaData(naming_convention=NAMING)


class TableRow(Base):
    """A game table: what is played, by how many, and how far it is."""

    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    #: ``open`` (seats to fill), ``running`` or ``finished``
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    #: the number of the current game at this table (1 = the first; a rematch adds one)
    game_number: Mapped[int] = mapped_column(Integer, default=0)
    #: the current game's seed (never sent to clients before the game's record)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: the table's settings: ``clock`` (the time control) and ``bot_after_leave`` (seconds)
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: the operator's message to the players of a table closed by ``campfire admin close``
    close_message: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: when a close was asked for and not yet carried out (a running server does it)
    close_requested: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    #: when the table was closed (its status is ``finished`` from then on); ``None``: never
    closed: Mapped[datetime.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: a turn-based table: the earliest deadline of a seat to act (wall-clock; ``None``: no
    #: person's clock runs, or not a turn-based table)
    turn_deadline: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    #: a turn-based table: each running clock's deadline, ``[[seat, unix seconds], ...]``
    turn: Mapped[list[list[float]] | None] = mapped_column(JSON, nullable=True)


class SeatRow(Base):
    """One seat of a table."""

    __tablename__ = "seats"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``open``, ``human`` or ``bot``
    kind: Mapped[str] = mapped_column(String(8))
    #: a bot's difficulty level (``easy``, ``medium``, ``hard``)
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    nickname: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: SHA-256 of the seat token (the token itself is only ever in the client's hands)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class ActionRow(Base):
    """One accepted action: the append-only log a table is rebuilt from."""

    __tablename__ = "actions"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    game_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(200))
    received: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    #: why the action was played for its seat: ``None`` (the seat chose it), ``timeout``
    #: (a random action on time-out), ``timeout-bot`` or ``takeover`` (a bot playing for a
    #: person who ran out of time or left)
    cause: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: every seat's time left after the action, in seconds (``None``: no clock)
    clocks: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)


class RecordRow(Base):
    """The record of a finished game (``Match.record()``, the JSON of ``docs/records.md``)."""

    __tablename__ = "records"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    game_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    record: Mapped[str] = mapped_column(Text)
    finished: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class LeaseRow(Base):
    """Which server process owns a table (several processes share one PostgreSQL).

    The owner renews ``expires``; once it has passed, another process may take the table over
    (it rebuilds the table from its log). A single process uses no leases.
    """

    __tablename__ = "table_leases"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    #: the owning process's id (``host:pid:random``)
    owner: Mapped[str] = mapped_column(String(80), index=True)
    expires: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One line of a table's chat (never part of the action log or a game's record)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    #: ``players`` or ``spectators``
    channel: Mapped[str] = mapped_column(String(16))
    #: the writer's seat (``None``: a spectator)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the writer's nickname when the line was written (``None``: none)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    sent: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class UserRow(Base):
    """An account: a user name, its Argon2id password hash, an optional e-mail address."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: the name as the user wrote it (shown)
    name: Mapped[str] = mapped_column(String(32))
    #: the name lower-cased: unique, so that two accounts never differ only in case
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    #: the Argon2id hash in its encoded form (parameters and salt included)
    password_hash: Mapped[str] = mapped_column(String(256))
    #: where password resets and notifications go (``None``: no e-mail)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    last_sign_in: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    #: when the operator suspended the account (``None``: not suspended): it cannot sign in
    suspended: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    #: until when (``None`` while suspended: until the operator lifts it)
    suspended_until: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    #: the operator's reason, shown to the user when signing in is refused
    suspended_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)


class UserSessionRow(Base):
    """A signed-in browser: the SHA-256 of its session id (the id is only in its cookie)."""

    __tablename__ = "user_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    #: the CSRF token every cookie-authenticated write of this session carries in a header
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), index=True)


class AccountSeatRow(Base):
    """A seat that is a user's (claimed at sign-up); one user per seat."""

    __tablename__ = "account_seats"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_account_seats_table_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    seat: Mapped[int] = mapped_column(Integer)
    claimed: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class PasswordResetRow(Base):
    """A password reset sent by e-mail: the SHA-256 of its one-time token, until it expires."""

    __tablename__ = "password_resets"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    expires: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A player's rating in one game: a user's, or a bot level's (``docs/accounts.md``).

    ``subject`` says whose: ``user:ID`` or ``bot:LEVEL``. ``players`` is 0 for the game's
    rating over every player count, N for the games of N players only (kept for the games
    played by a range of player counts).
    """

    __tablename__ = "ratings"
    __table_args__ = (
        UniqueConstraint("game", "players", "subject", name="uq_ratings_game_players_subject"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    subject: Mapped[str] = mapped_column(String(40))
    #: the user (``None``: a bot level's rating)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    #: the bot level (``None``: a user's rating)
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: rated games played, and those won (a shared first place counts as a win)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class RatingHistoryRow(Base):
    """One change of a rating: after which game, from what to what."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    rating_id: Mapped[int] = mapped_column(ForeignKey("ratings.id"), index=True)
    #: the table and game (no foreign key: a purged table's history stays)
    table_id: Mapped[int] = mapped_column(Integer)
    game_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    #: the seat's place in the game (1 is best; tied seats share one)
    rank: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: the shown rating before and after the game
    before: Mapped[int] = mapped_column(Integer)
    after: Mapped[int] = mapped_column(Integer)
    rated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class RatedGameRow(Base):
    """A finished game of a rated table whose ratings were updated (once: its key)."""

    __tablename__ = "rated_games"

    table_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    rated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class ReportRow(Base):
    """A user's report of another player, for the operator (``campfire admin reports``)."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: who reported (a deleted reporter's reports stay, without them)
    reporter_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), nullable=True, index=True
    )
    #: the account reported (``None``: a guest's seat, named by ``table_id``/``seat``)
    reported_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), nullable=True, index=True
    )
    #: the name reported as it was then (a user name, or a seat's nickname)
    reported_name: Mapped[str] = mapped_column(String(64))
    table_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    category: Mapped[str] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), index=True)
    #: when the operator closed it (``None``: open)
    closed: Mapped[datetime.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: the operator's note on closing
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)


class BlockRow(Base):
    """A user's block of another: no shared tables, no chat from them."""

    __tablename__ = "blocks"
    __table_args__ = (UniqueConstraint("user_id", "blocked_id", name="uq_blocks_user_blocked"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class QuickEntryRow(Base):
    """A person waiting for a quick match (:mod:`.quick`), until seated or gone."""

    __tablename__ = "quick_match"

    #: the SHA-256 of the ticket (the ticket itself is only in the waiting browser)
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    nickname: Mapped[str] = mapped_column(String(64))
    #: the signed-in person's account (``None``: a guest)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: the client address's key (the per-address bound)
    client: Mapped[str] = mapped_column(String(64), index=True)
    #: the person's rating in this game and player count, when the ratings know one
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the bots' level the person chose (used where no rating decides)
    level: Mapped[str] = mapped_column(String(16))
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), index=True)
    #: when the bots fill the empty seats
    deadline: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    #: the waiting page's last look (an entry not looked at for a while is gone)
    seen: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    #: the table the person was seated at (0: being seated; ``None``: waiting)
    table_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the seat's token, kept only until the waiting page has read it
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
