"""Accounts, optional: users, password hashes, sessions, claimed seats, deletion and export.

A person may play as a guest, as always (a seat token in the browser), or sign up with a user
name and a password. This module is the service behind ``/api/account`` (its HTTP side is
:mod:`.account_routes`); ``docs/accounts.md`` describes it for people. Every call is one
transaction and synchronous (the routes run it in a worker thread: Argon2 takes tens of
milliseconds of CPU on purpose).

- **User names**: :data:`NAME_MIN`–:data:`NAME_MAX` characters, ASCII letters, digits and
  ``_ . -``, starting with a letter or a digit (no look-alike letters of other scripts); unique
  without regard to case (``name_key``); :data:`RESERVED_NAMES` are refused.
- **Passwords**: :data:`PASSWORD_MIN`–:data:`PASSWORD_MAX` characters, hashed with Argon2id by
  ``argon2-cffi``'s :class:`~argon2.PasswordHasher` with :data:`ARGON2_PARAMETERS` (RFC 9106's
  second recommended option); a hash made with other parameters is made anew at the next
  sign-in. Signing in as a user that does not exist costs the same hash (no timing tells).
- **Sessions**: a random id (:data:`SESSION_BYTES`), of which the database keeps the SHA-256
  only, with a CSRF token and an expiry (:data:`SESSION_DAYS`).
- **Seats**: a guest's seat tokens, sent at sign-up, make those seats the user's
  (``account_seats``), one user per seat.
- **Deletion** removes the user, its sessions and resets; its seats keep their games, named
  :data:`DELETED_PLAYER` (in the seats, the records and the chat).
- **Export**: everything stored about the user, as JSON.
- **Password reset**: a one-time token (:data:`RESET_MINUTES`), its SHA-256 kept.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.profiles import RFC_9106_LOW_MEMORY
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from campfire.core import ErrorText

from .account_rules import (
    MAX_EMAIL,
    NAME_MAX,
    NAME_MIN,
    PASSWORD_MAX,
    PASSWORD_MIN,
    RESERVED_NAMES,
    check_email,
    check_password,
    check_user_name,
)
from .models import (
    AccountSeatRow,
    ChatRow,
    PasswordResetRow,
    RecordRow,
    ReportRow,
    SeatRow,
    TableRow,
    UserRow,
    UserSessionRow,
    utcnow,
)
from .moderation import Moderation, active_suspension
from .ratings import forget_user
from .seating import LobbyError, hash_token

__all__ = [
    "ARGON2_PARAMETERS",
    "DELETED_PLAYER",
    "MAX_CLAIMS",
    "MAX_EMAIL",
    "NAME_MAX",
    "NAME_MIN",
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "RESERVED_NAMES",
    "RESET_MINUTES",
    "SESSION_BYTES",
    "SESSION_DAYS",
    "Accounts",
    "User",
    "check_email",
    "check_password",
    "check_user_name",
    "make_hasher",
]

#: Seats one sign-up may claim.
MAX_CLAIMS = 100
#: How long a session lasts (days from sign-in; signing in again starts a new one).
SESSION_DAYS = 30
#: Random bytes of a session id and of a reset token.
SESSION_BYTES = 32
#: How long a password reset's token may be used.
RESET_MINUTES = 60
#: What a deleted user's seats are called from then on.
DELETED_PLAYER = "deleted player"
#: Argon2id's parameters: RFC 9106's second recommended option ("if much less memory is
#: available"): 3 passes over 64 MiB with 4 lanes, a 16-byte salt and a 32-byte hash — about
#: 50 ms of one core, little enough for a small server and costly for a guesser
ARGON2_PARAMETERS = RFC_9106_LOW_MEMORY


def make_hasher(
    time_cost: int | None = None, memory_cost: int | None = None, parallelism: int | None = None
) -> PasswordHasher:
    """The password hasher: :data:`ARGON2_PARAMETERS`, with any of them changed (tests).

    >>> make_hasher().time_cost, make_hasher().memory_cost, make_hasher().parallelism
    (3, 65536, 4)
    """
    p = ARGON2_PARAMETERS
    return PasswordHasher(
        time_cost=time_cost or p.time_cost,
        memory_cost=memory_cost or p.memory_cost,
        parallelism=parallelism or p.parallelism,
        hash_len=p.hash_len,
        salt_len=p.salt_len,
        type=p.type,
    )


def _bad(code: str, message: ErrorText, status: int = 400) -> LobbyError:
    return LobbyError(status, code, message)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class User:
    """A signed-up user as the service hands it out (never the hash)."""

    id: int
    name: str
    email: str | None
    created: datetime.datetime

    def to_json(self) -> dict[str, Any]:
        """What the user's own browser is told (``/api/account``)."""
        return {"name": self.name, "email": self.email, "created": _iso(self.created)}


def _iso(moment: datetime.datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite hands back naive times (stored as UTC)
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.isoformat(timespec="seconds")


def _user(row: UserRow) -> User:
    return User(row.id, row.name, row.email, _aware(row.created))


def _aware(moment: datetime.datetime) -> datetime.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


def _wrong() -> LobbyError:
    return _bad(
        "bad_credentials", ErrorText("the user name or the password is not right"), status=401
    )


class Accounts:
    """The accounts' reads and writes (each call one transaction; synchronous)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        hasher: PasswordHasher | None = None,
        clock: Callable[[], datetime.datetime] = utcnow,
        session_days: float = SESSION_DAYS,
    ) -> None:
        self.sessions = sessions
        self.hasher = hasher or make_hasher()
        self.clock = clock
        self.session_days = session_days
        self._decoy: str | None = None

    @property
    def decoy(self) -> str:
        """A hash of nothing, verified when the user name is unknown (the same time either way).

        Made when first needed (in the worker thread of that sign-in, never at start-up).
        """
        if self._decoy is None:
            self._decoy = self.hasher.hash(secrets.token_hex(16))
        return self._decoy

    # ----- signing up and in ---------------------------------------------------------------

    def sign_up(
        self,
        name: str,
        password: str,
        email: str | None = None,
        claims: Sequence[tuple[int, str]] = (),
    ) -> tuple[User, list[dict[str, int]]]:
        """A new user (checked name and password), and the seats claimed from ``claims``.

        ``claims`` are ``(table id, seat token)`` pairs a guest's browser holds; each that is a
        person's seat at that table and nobody's account yet becomes the user's. Answers the
        seats claimed, ``[{"table", "seat"}]``. A name taken (whatever its case) is 409
        ``name_taken``.
        """
        digest = self.hasher.hash(password)
        for attempt in (1, 2):
            try:
                return self._sign_up(name, digest, email, claims)
            except IntegrityError:
                # two sign-ups at once took the name, or a seat, between the checks and the
                # commit: the name is then taken (409); a seat is passed over the second time
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _sign_up(
        self, name: str, digest: str, email: str | None, claims: Sequence[tuple[int, str]]
    ) -> tuple[User, list[dict[str, int]]]:
        now = self.clock()
        with self.sessions.begin() as session:
            taken = session.scalar(select(UserRow.id).where(UserRow.name_key == name.lower()))
            if taken is not None:
                raise _bad(
                    "name_taken",
                    ErrorText("the user name {name} is taken; choose another", name=repr(name)),
                    status=409,
                )
            row = UserRow(
                name=name, name_key=name.lower(), password_hash=digest, email=email, created=now
            )
            session.add(row)
            session.flush()
            claimed = self._claim(session, row.id, claims, now)
            return _user(row), claimed

    def _claim(
        self,
        session: Session,
        user_id: int,
        claims: Sequence[tuple[int, str]],
        now: datetime.datetime,
    ) -> list[dict[str, int]]:
        claimed: list[dict[str, int]] = []
        for table_id, token in claims:
            digest = hash_token(token)
            seat = session.scalar(
                select(SeatRow).where(
                    SeatRow.table_id == table_id,
                    SeatRow.token_hash == digest,
                    SeatRow.kind == "human",
                )
            )
            if seat is None or not hmac.compare_digest(seat.token_hash or "", digest):
                continue
            owned = session.scalar(
                select(AccountSeatRow.id).where(
                    AccountSeatRow.table_id == table_id, AccountSeatRow.seat == seat.seat
                )
            )
            if owned is not None:
                continue
            session.add(
                AccountSeatRow(user_id=user_id, table_id=table_id, seat=seat.seat, claimed=now)
            )
            claimed.append({"table": table_id, "seat": seat.seat})
        return claimed

    def sign_in(self, name: str, password: str) -> User:
        """The user of ``name`` if ``password`` is theirs (else 401 ``bad_credentials``).

        A hash made with other parameters than the hasher's is made anew.
        """
        with self.sessions.begin() as session:
            row = session.scalar(select(UserRow).where(UserRow.name_key == name.strip().lower()))
            if row is None:
                self._verify(self.decoy, password)
                raise _wrong()
            if not self._verify(row.password_hash, password):
                raise _wrong()
            suspension = active_suspension(row, self.clock())
            if suspension is not None:
                raise _suspended(*suspension)
            if self.hasher.check_needs_rehash(row.password_hash):
                row.password_hash = self.hasher.hash(password)
            row.last_sign_in = self.clock()
            return _user(row)

    def _verify(self, digest: str, password: str) -> bool:
        try:
            return self.hasher.verify(digest, password)
        except (VerificationError, InvalidHashError):
            return False

    # ----- sessions ------------------------------------------------------------------------

    def open_session(self, user_id: int) -> tuple[str, str]:
        """A new session of ``user_id``: its id (for the cookie only) and its CSRF token."""
        session_id = secrets.token_urlsafe(SESSION_BYTES)
        csrf = secrets.token_urlsafe(24)
        now = self.clock()
        with self.sessions.begin() as session:
            session.add(
                UserSessionRow(
                    id_hash=_digest(session_id),
                    user_id=user_id,
                    csrf=csrf,
                    created=now,
                    expires=now + datetime.timedelta(days=self.session_days),
                )
            )
        return session_id, csrf

    def session(self, session_id: str) -> tuple[User, str] | None:
        """The user and CSRF token of a session that has not expired (``None``: no such one)."""
        with self.sessions.begin() as session:
            row = session.get(UserSessionRow, _digest(session_id))
            if row is None:
                return None
            if _aware(row.expires) <= self.clock():
                session.delete(row)
                return None
            user = session.get(UserRow, row.user_id)
            if user is None or active_suspension(user, self.clock()) is not None:
                return None
            return _user(user), row.csrf

    def close_session(self, session_id: str) -> None:
        """Sign a browser out: its session is deleted."""
        with self.sessions.begin() as session:
            session.execute(
                delete(UserSessionRow).where(UserSessionRow.id_hash == _digest(session_id))
            )

    def sweep(self) -> int:
        """Delete the expired sessions and resets; how many."""
        now = self.clock()
        with self.sessions.begin() as session:
            gone = session.execute(delete(UserSessionRow).where(UserSessionRow.expires <= now))
            resets = session.execute(
                delete(PasswordResetRow).where(PasswordResetRow.expires <= now)
            )
            return int(getattr(gone, "rowcount", 0) or 0) + int(getattr(resets, "rowcount", 0) or 0)

    # ----- the account ---------------------------------------------------------------------

    def change_password(self, user_id: int, old: str, new: str, keep: str | None) -> None:
        """Set a new password (the old one must be right: 401); every other session ends."""
        with self.sessions.begin() as session:
            row = session.get(UserRow, user_id)
            if row is None or not self._verify(row.password_hash, old):
                raise _bad(
                    "bad_credentials", ErrorText("the current password is not right"), status=401
                )
            row.password_hash = self.hasher.hash(new)
            ended = delete(UserSessionRow).where(UserSessionRow.user_id == user_id)
            if keep is not None:
                ended = ended.where(UserSessionRow.id_hash != _digest(keep))
            session.execute(ended)

    def set_email(self, user_id: int, email: str | None) -> User:
        """Set (or, with ``None``, remove) the user's e-mail address."""
        with self.sessions.begin() as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise _signed_out()
            row.email = email
            return _user(row)

    def delete(self, user_id: int, password: str) -> list[tuple[int, int]]:
        """Delete the user (the password must be right: 401); the seats it had, renamed.

        The seats' games stay: each seat, the chat lines written from it and the records of
        its table's finished games name it :data:`DELETED_PLAYER` from now on. Answers the
        ``(table id, seat)`` pairs, for the tables in memory to be renamed too.
        """
        with self.sessions.begin() as session:
            row = session.get(UserRow, user_id)
            if row is None or not self._verify(row.password_hash, password):
                raise _bad("bad_credentials", ErrorText("the password is not right"), status=401)
            seats = [
                (s.table_id, s.seat)
                for s in session.scalars(
                    select(AccountSeatRow).where(AccountSeatRow.user_id == user_id)
                )
            ]
            for table_id, seat in seats:
                _rename_seat(session, table_id, seat)
            forget_user(session, user_id)  # (its ratings and their history)
            for model in (AccountSeatRow, UserSessionRow, PasswordResetRow):
                session.execute(delete(model).where(model.user_id == user_id))
            Moderation.forget_user(session, user_id)
            session.delete(row)
            return seats

    def export(self, user_id: int) -> dict[str, Any]:
        """Everything stored about the user, as JSON (``docs/accounts.md``, "Export")."""
        with self.sessions.begin() as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise _signed_out()
            sessions = session.scalars(
                select(UserSessionRow)
                .where(UserSessionRow.user_id == user_id)
                .order_by(UserSessionRow.created)
            )
            seats = []
            owned = session.scalars(
                select(AccountSeatRow)
                .where(AccountSeatRow.user_id == user_id)
                .order_by(AccountSeatRow.id)
            )
            for claim in owned:
                table = session.get(TableRow, claim.table_id)
                seat = session.get(SeatRow, (claim.table_id, claim.seat))
                chat = session.scalars(
                    select(ChatRow)
                    .where(ChatRow.table_id == claim.table_id, ChatRow.seat == claim.seat)
                    .order_by(ChatRow.id)
                )
                seats.append(
                    {
                        "table": claim.table_id,
                        "seat": claim.seat,
                        "claimed": _iso(claim.claimed),
                        "game": table.game if table else None,
                        "status": table.status if table else None,
                        "nickname": seat.nickname if seat else None,
                        "chat": [
                            {"channel": c.channel, "text": c.text, "sent": _iso(c.sent)}
                            for c in chat
                        ],
                    }
                )
            resets = session.scalar(
                select(func.count())
                .select_from(PasswordResetRow)
                .where(PasswordResetRow.user_id == user_id)
            )
            return {
                "user": {
                    "name": row.name,
                    "email": row.email,
                    "created": _iso(row.created),
                    "last_sign_in": _iso(row.last_sign_in),
                    "password": "an Argon2id hash (not exported)",
                },
                "sessions": [
                    {"created": _iso(s.created), "expires": _iso(s.expires)} for s in sessions
                ],
                "seats": seats,
                "password_resets_pending": int(resets or 0),
                "blocks": Moderation(self.sessions).blocks(user_id),
                "reports": [
                    {
                        "reported": r.reported_name,
                        "category": r.category,
                        "reason": r.reason,
                        "created": _iso(r.created),
                        "closed": _iso(r.closed),
                    }
                    for r in session.scalars(
                        select(ReportRow).where(ReportRow.reporter_id == user_id)
                    )
                ],
            }

    def email_of(self, user_id: int) -> str | None:
        """The user's e-mail address (``None``: none, or no such user): where notices go."""
        with self.sessions() as session:
            row = session.get(UserRow, user_id)
            return row.email if row is not None else None

    # ----- password reset ------------------------------------------------------------------

    def start_reset(self, name: str) -> tuple[User, str] | None:
        """A reset token for the user of ``name`` who has an e-mail address (else ``None``)."""
        with self.sessions.begin() as session:
            row = session.scalar(select(UserRow).where(UserRow.name_key == name.strip().lower()))
            if row is None or not row.email:
                return None
            token = secrets.token_urlsafe(SESSION_BYTES)
            expires = self.clock() + datetime.timedelta(minutes=RESET_MINUTES)
            session.add(
                PasswordResetRow(token_hash=_digest(token), user_id=row.id, expires=expires)
            )
            return _user(row), token

    def finish_reset(self, token: str, password: str) -> User:
        """Set a new password with a reset token (used once; 400 ``bad_reset`` otherwise).

        Every session of the user ends, and every other reset token of theirs.
        """
        digest = self.hasher.hash(password)
        with self.sessions.begin() as session:
            reset = session.get(PasswordResetRow, _digest(token))
            if reset is None or _aware(reset.expires) <= self.clock():
                raise _bad(
                    "bad_reset",
                    ErrorText(
                        "this password reset link was used already or has expired "
                        "(it lasts {minutes} minutes); ask for a new one",
                        minutes=RESET_MINUTES,
                    ),
                )
            row = session.get(UserRow, reset.user_id)
            assert row is not None  # (a user's resets go with the user)
            row.password_hash = digest
            for model in (UserSessionRow, PasswordResetRow):
                session.execute(delete(model).where(model.user_id == row.id))
            return _user(row)


def _suspended(reason: str, until: datetime.datetime | None) -> LobbyError:
    if until is None:
        return _bad(
            "suspended",
            ErrorText("this account is suspended by the operator: {reason}", reason=reason),
            status=403,
        )
    return _bad(
        "suspended",
        ErrorText(
            "this account is suspended by the operator until {until}: {reason}",
            reason=reason,
            until=until.strftime("%Y-%m-%d %H:%M UTC"),
        ),
        status=403,
    )


def _signed_out() -> LobbyError:
    return _bad("signed_out", ErrorText("you are not signed in"), status=401)


def _rename_seat(session: Session, table_id: int, seat: int) -> None:
    """Name a deleted user's seat :data:`DELETED_PLAYER` in its seat, chat lines and records."""
    row = session.get(SeatRow, (table_id, seat))
    if row is not None:
        row.nickname = DELETED_PLAYER
    for line in session.scalars(
        select(ChatRow).where(ChatRow.table_id == table_id, ChatRow.seat == seat)
    ):
        line.name = DELETED_PLAYER
    for record in session.scalars(select(RecordRow).where(RecordRow.table_id == table_id)):
        try:
            data = json.loads(record.record)
            players = data["players"]
            if isinstance(players[seat], dict):
                players[seat]["name"] = DELETED_PLAYER
            else:
                players[seat] = {"name": DELETED_PLAYER}
        except (ValueError, KeyError, IndexError, TypeError):
            continue  # (every record Campfire writes has its players; another is left alone)
        record.record = json.dumps(data, ensure_ascii=False)
