"""The accounts of one server process: settings, the secret key, the service, the limiter.

:class:`AccountSettings` is what ``campfire serve`` passes (also to ``--workers`` processes, in
:data:`ACCOUNTS_VARIABLE`); :class:`AccountService` (the app's ``state.accounts``) holds the
:class:`.accounts.Accounts` service, the cookie's signer with the secret key
(:func:`load_secret`), the mailer and the per-address limiter of sign-ins and sign-ups. The
routes are :mod:`.account_routes`; ``docs/accounts.md`` describes it all.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.requests import Request
from starlette.types import Scope

from campfire.core import ErrorText

from .accounts import SESSION_DAYS, Accounts, User, make_hasher
from .db import data_folder
from .mail import Mailer, MailSettings
from .moderation import Moderation
from .seating import LobbyError
from .security import AddressLimiter, address_key, client_address

__all__ = [
    "ACCOUNTS_VARIABLE",
    "COOKIE",
    "AccountService",
    "AccountSettings",
    "RateLimited",
    "load_secret",
    "signed_in_user",
]

#: The session cookie's name.
COOKIE = "campfire_session"

#: The environment variable that passes :class:`AccountSettings` to ``--workers`` processes.
ACCOUNTS_VARIABLE = "CAMPFIRE_SERVE_ACCOUNTS"


@dataclass(frozen=True)
class AccountSettings:
    """The accounts' settings: the secret key, e-mail, and Argon2's cost (tests lower it)."""

    #: the file that holds the cookie-signing key (``None``: ``secret_key`` in the data folder)
    secret_key_file: str | None = None
    #: the key itself (tests; never from the command line, where others could read it)
    secret_key: str | None = None
    #: where e-mail goes (``None``: no e-mail, no password reset)
    mail: MailSettings | None = None
    #: Argon2's time cost, memory (KiB) and parallelism (``None``: the documented parameters)
    hash_cost: tuple[int, int, int] | None = None
    #: how long a session lasts, in days
    session_days: float = SESSION_DAYS

    def to_json(self) -> str:
        """The settings as JSON (what :data:`ACCOUNTS_VARIABLE` holds)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_environment(cls) -> AccountSettings | None:
        """The settings in :data:`ACCOUNTS_VARIABLE` (``None``: not set)."""
        text = os.environ.get(ACCOUNTS_VARIABLE)
        if not text:
            return None
        values = json.loads(text)
        mail = values.pop("mail", None)
        cost = values.pop("hash_cost", None)
        return cls(
            mail=MailSettings(**mail) if mail else None,
            hash_cost=(int(cost[0]), int(cost[1]), int(cost[2])) if cost else None,
            **values,
        )


def load_secret(path: Path) -> bytes:
    """The key in ``path``, made there first if missing (32 random bytes, hex, mode 0600).

    Several processes starting at once agree: the file is created exclusively, and a process
    that finds it made by another reads it.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
    text = path.read_text(encoding="ascii").strip()
    if len(text) < 32:
        raise ValueError(f"{path}: a secret key holds at least 32 characters")
    return text.encode("ascii")


class RateLimited(LobbyError):
    """429 ``rate_limited``: too many account requests from the address (``wait`` seconds)."""

    def __init__(self, wait: float, per_minute: int) -> None:
        super().__init__(
            429,
            "rate_limited",
            ErrorText(
                "too many sign-ins or sign-ups from your address: at most {limit} a minute; "
                "try again in {seconds} s",
                limit=per_minute,
                seconds=math.ceil(wait),
            ),
            retry_after=wait,
        )
        self.wait = wait


class AccountService:
    """The accounts of one server process: the service, the cookie's signer, mail, the limiter."""

    def __init__(
        self,
        make_accounts: Callable[[], Accounts],
        settings: AccountSettings,
        public_origin: str | None = None,
        limiter: AddressLimiter | None = None,
        moderation: Moderation | None = None,
    ) -> None:
        self._make = make_accounts
        #: reports, blocks and suspensions (``None``: a service without a database, in tests)
        self.moderation = moderation
        self._accounts: Accounts | None = None
        self._signer: URLSafeTimedSerializer | None = None
        self.settings = settings
        self.public_origin = public_origin
        self.limiter = limiter
        self.mailer = Mailer(settings.mail) if settings.mail is not None else None

    @classmethod
    def build(
        cls,
        sessions: Any,
        settings: AccountSettings,
        public_origin: str | None,
        limiter: AddressLimiter | None,
    ) -> AccountService:
        """The service over a database's ``sessions`` (made when first asked for)."""
        cost = settings.hash_cost

        def make() -> Accounts:
            hasher = make_hasher(*cost) if cost else make_hasher()
            return Accounts(sessions, hasher, session_days=settings.session_days)

        return cls(make, settings, public_origin, limiter, Moderation(sessions))

    @property
    def accounts(self) -> Accounts:
        """The service (made on first use: it hashes a decoy password)."""
        if self._accounts is None:
            self._accounts = self._make()
        return self._accounts

    @property
    def signer(self) -> URLSafeTimedSerializer:
        """The cookie's signer, with the secret key (read or made on first use)."""
        if self._signer is None:
            if self.settings.secret_key:
                key = self.settings.secret_key.encode()
            else:
                path = self.settings.secret_key_file
                key = load_secret(Path(path) if path else data_folder() / "secret_key")
            self._signer = URLSafeTimedSerializer(key, salt="campfire.session")
        return self._signer

    def session_id(self, request: Request) -> str | None:
        """The session id of the request's cookie, if its signature holds."""
        cookie = request.cookies.get(COOKIE)
        if not cookie or len(cookie) > 512:
            return None
        try:
            value = self.signer.loads(cookie, max_age=int(self.settings.session_days * 86400))
        except BadSignature:
            return None
        return value if isinstance(value, str) else None

    async def user_of(self, request: Request) -> User | None:
        """The signed-in user of a request (``None``: a guest), for the lobby's checks."""
        session_id = self.session_id(request)
        if session_id is None:
            return None
        found = await asyncio.to_thread(self.accounts.session, session_id)
        return found[0] if found is not None else None

    @property
    def secure(self) -> bool:
        """Whether the cookie is ``Secure`` (the public origin is ``https://``)."""
        return bool(self.public_origin and self.public_origin.startswith("https://"))

    def limit(self, scope: Scope) -> None:
        """Count an account request against the client address (:class:`RateLimited`)."""
        if self.limiter is None:
            return
        host = client_address(scope)
        if self.limiter.is_exempt(host):
            return
        wait = self.limiter.take(address_key(host))
        if wait > 0:
            raise RateLimited(wait, round(self.limiter.rate * 60))

    async def notify(self, user_id: int, subject: str, body: str) -> bool:
        """E-mail a notice (such as "your turn") to a user; ``False``: no e-mail, no address."""
        if self.mailer is None:
            return False
        address = await asyncio.to_thread(self.accounts.email_of, user_id)
        return await self.mailer.notify(address, subject, body)

    def origin_of(self, request: Request) -> str:
        """The server's own origin: the public one, else the request's scheme and host."""
        if self.public_origin:
            return self.public_origin
        return f"{request.url.scheme}://{request.headers.get('host', '')}"


async def signed_in_user(request: Request) -> int | None:
    """The id of the user the request's session cookie signs in (``None``: a guest)."""
    service: AccountService | None = getattr(request.app.state, "accounts", None)
    if service is None or COOKIE not in request.cookies:
        return None
    user = await service.user_of(request)
    return int(user.id) if user is not None else None
