"""Seats as the lobby knows them: who sits where, their tokens, and the lobby's refusals."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from campfire.agents import LEVELS
from campfire.core import CampfireError, ErrorText
from campfire.i18n import DEFAULT_LANGUAGE, Translator, translator
from campfire.i18n import names as seat_names

__all__ = [
    "MAX_NICKNAME",
    "MAX_SEAT_TOKEN",
    "TAKEOVER_LEVEL",
    "LobbyError",
    "SeatInfo",
    "check_nickname",
    "hash_token",
    "seat_request",
    "seat_tokens",
]

#: The longest nickname.
MAX_NICKNAME = 32
#: The level of a bot that takes over a person's seat, unless the table says another
#: (``takeover_level``).
TAKEOVER_LEVEL = "easy"


class LobbyError(CampfireError):
    """A lobby request that is refused: ``status`` is the HTTP status, ``code`` the kind.

    ``retry_after`` (seconds), where set, is sent as the answer's ``Retry-After`` header (a
    429 says when to try again).
    """

    def __init__(
        self, status: int, code: str, message: str, retry_after: float | None = None
    ) -> None:
        super().__init__(message)  # an ErrorText where it can be (answers in the user's language)
        self.status = status
        self.code = code
        self.retry_after = retry_after


def hash_token(token: str) -> str:
    """The SHA-256 of a seat token (what the database keeps)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class SeatInfo:
    """One seat as the lobby knows it."""

    seat: int
    kind: str = "open"  # open, human or bot
    level: str | None = None
    nickname: str | None = None
    token_hash: str | None = None
    #: a bot plays this person's seat now (they ran out of time or left; in memory only)
    takeover: bool = False

    def public(self) -> dict[str, Any]:
        """What every client may know of the seat (never the token's hash)."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "nickname": self.nickname,
            "level": self.level,
            "takeover": self.takeover,
        }

    def name(self, tr: Translator | None = None) -> str:
        """The seat's name in displays and records (in ``tr``'s language; default English)."""
        tr = tr or translator(DEFAULT_LANGUAGE)
        if self.kind == "bot":
            return seat_names.bot_name(self.seat + 1, self.level or "", tr)
        return self.nickname or tr.gettext(seat_names.SEAT).format(number=self.seat + 1)


def check_nickname(nickname: Any) -> str:
    """``nickname`` stripped, or :class:`LobbyError` 400 if it is not a valid nickname."""
    if not isinstance(nickname, str) or not nickname.strip():
        raise LobbyError(400, "bad_request", ErrorText('"nickname" is a non-empty string'))
    text: str = nickname.strip()
    if len(text) > MAX_NICKNAME or not text.isprintable():
        raise LobbyError(
            400,
            "bad_request",
            ErrorText("a nickname has 1–{limit} printable characters", limit=MAX_NICKNAME),
        )
    return text


def seat_request(i: int, raw: Any) -> tuple[SeatInfo, str | None]:
    """Seat ``i`` of a new table as the request asks: open, a bot, or reserved (its token).

    Anything else is :class:`LobbyError` 400 ``bad_request`` saying what a seat may be.
    """
    shape = ErrorText(
        "seat {seat}: a seat is {open}, {bot} or {reserved}",
        seat=i,
        open='{"kind": "open"}',
        bot='{"kind": "bot", "level": "easy|medium|hard"}',
        reserved='{"kind": "reserved", "nickname": NAME}',
    )
    if not isinstance(raw, dict) or set(raw) - {"kind", "level", "nickname"}:
        raise LobbyError(400, "bad_request", shape)
    kind = raw.get("kind")
    if kind == "open" and set(raw) == {"kind"}:
        return SeatInfo(i), None
    if kind == "bot" and set(raw) <= {"kind", "level"}:
        level = raw.get("level", "easy")
        if level not in LEVELS:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    "seat {seat}: a bot's level is one of {levels}",
                    seat=i,
                    levels=", ".join(LEVELS),
                ),
            )
        return SeatInfo(i, "bot", level=level), None
    if kind == "reserved" and set(raw) <= {"kind", "nickname"}:
        token = secrets.token_urlsafe(24)
        nickname = check_nickname(raw.get("nickname"))
        return SeatInfo(i, "human", nickname=nickname, token_hash=hash_token(token)), token
    raise LobbyError(400, "bad_request", shape)


#: The longest seat token a request may send back (the server makes 32-character ones).
MAX_SEAT_TOKEN = 200


def seat_tokens(raw: Any, field: str, limit: int) -> list[tuple[int, str]]:
    """A request's list of a browser's seat tokens: ``(table, token)`` pairs, at most ``limit``.

    ``None`` is none; anything but a list of ``{"table": id, "token": seat token}`` objects is
    :class:`LobbyError` 400 ``bad_request`` naming ``field`` (sign-up's ``claim``, the turn
    list's ``seats``).

    >>> seat_tokens([{"table": 4, "token": "abc"}], "seats", 100)
    [(4, 'abc')]
    """
    if raw is None:
        return []
    problem = LobbyError(
        400,
        "bad_request",
        ErrorText(
            '{field} is a list of at most {limit} {{"table": id, "token": seat token}} objects',
            field=field,
            limit=limit,
        ),
    )
    if not isinstance(raw, list) or len(raw) > limit:
        raise problem
    out = []
    for item in raw:
        if not isinstance(item, dict) or set(item) != {"table", "token"}:
            raise problem
        table, token = item["table"], item["token"]
        if (
            not isinstance(table, int)
            or isinstance(table, bool)
            or not 1 <= table < 10**12
            or not isinstance(token, str)
            or not 1 <= len(token) <= MAX_SEAT_TOKEN
        ):
            raise problem
        out.append((table, token))
    return out
