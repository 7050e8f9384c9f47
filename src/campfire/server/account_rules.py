"""The rules of an account's user name, password and e-mail address (:mod:`.accounts`).

``docs/accounts.md`` says them for people: user names of :data:`NAME_MIN`–:data:`NAME_MAX`
ASCII letters, digits and ``_ . -`` (no look-alike letters of other scripts; not one of
:data:`RESERVED_NAMES`), passwords of :data:`PASSWORD_MIN`–:data:`PASSWORD_MAX` characters,
e-mail addresses of at most :data:`MAX_EMAIL`. Each check answers the value to keep or raises
:class:`~.seating.LobbyError` 400 with a message that says what is allowed.
"""

from __future__ import annotations

import re
from typing import Any

from campfire.core import ErrorText

from .seating import LobbyError

__all__ = [
    "MAX_EMAIL",
    "NAME_MAX",
    "NAME_MIN",
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "RESERVED_NAMES",
    "check_email",
    "check_password",
    "check_user_name",
]

#: The shortest and the longest user name.
NAME_MIN, NAME_MAX = 3, 24
#: The shortest and the longest password (characters; the bound keeps hashing cheap to refuse).
PASSWORD_MIN, PASSWORD_MAX = 8, 256
#: The longest e-mail address (RFC 5321's path limit).
MAX_EMAIL = 254
#: Names nobody may take (compared lower-cased): they would pass for the server or its staff.
RESERVED_NAMES = frozenset(
    {
        *("admin", "administrator", "root", "system", "campfire", "server", "moderator"),
        *("mod", "staff", "support", "help", "official", "guest", "bot", "deleted"),
        *("deleted.player", "deleted_player", "deleted-player", "anonymous", "null", "none"),
        *("nobody", "everyone", "me", "you", "spectator", "player"),
    }
)

_NAME = re.compile(rf"^[A-Za-z0-9][A-Za-z0-9_.-]{{{NAME_MIN - 1},{NAME_MAX - 1}}}$")
_EMAIL = re.compile(r"^[^@\s]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z0-9-]{2,63}$")


def _bad(code: str, message: ErrorText) -> LobbyError:
    return LobbyError(400, code, message)


def check_user_name(name: Any) -> str:
    """A user name as written (white space around it trimmed), or :class:`LobbyError` 400.

    >>> check_user_name(" Ann_1 ")
    'Ann_1'
    >>> check_user_name("Admin")
    Traceback (most recent call last):
    ...
    campfire.server.seating.LobbyError: the user name 'Admin' is reserved; choose another
    """
    if not isinstance(name, str) or not _NAME.match(name.strip()):
        raise _bad(
            "bad_user_name",
            ErrorText(
                "a user name has {low}–{high} characters: letters a–z and A–Z, digits and "
                "_ . -, starting with a letter or a digit",
                low=NAME_MIN,
                high=NAME_MAX,
            ),
        )
    text = str(name).strip()
    if text.lower() in RESERVED_NAMES:
        raise _bad(
            "bad_user_name",
            ErrorText("the user name {name} is reserved; choose another", name=repr(text)),
        )
    return text


def check_password(password: Any, field: str = "password") -> str:
    """A password as given (never trimmed), or :class:`LobbyError` 400 ``bad_password``."""
    if (
        not isinstance(password, str)
        or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX
        or not password.strip()
    ):
        raise _bad(
            "bad_password",
            ErrorText(
                "{field} is a password of {low}–{high} characters",
                field=field,
                low=PASSWORD_MIN,
                high=PASSWORD_MAX,
            ),
        )
    return password


def check_email(email: Any) -> str | None:
    """An e-mail address (``None`` or ``""``: none), or :class:`LobbyError` 400 ``bad_email``.

    >>> check_email("ann@example.org"), check_email("")
    ('ann@example.org', None)
    """
    if email is None or email == "":
        return None
    if not isinstance(email, str) or len(email) > MAX_EMAIL or not _EMAIL.match(email.strip()):
        raise _bad(
            "bad_email",
            ErrorText(
                "an e-mail address looks like name@example.org, at most {limit} characters",
                limit=MAX_EMAIL,
            ),
        )
    return email.strip()
