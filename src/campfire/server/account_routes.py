"""The accounts over HTTP: ``/api/account/...`` (``docs/protocol.md``, "Accounts").

A signed-in browser holds one cookie, :data:`COOKIE`: the session id signed with the server's
secret key (``itsdangerous``), ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (another
site's page does not send it with a POST), ``Path=/``, and ``Secure`` where the public origin is
``https://``. The database keeps the SHA-256 of the id (:mod:`.accounts`).

**CSRF.** Every write a cookie authenticates (``POST``/``DELETE``: sign out, change the password
or the e-mail address, delete the account) must carry the session's CSRF token in the
:data:`CSRF_HEADER` header (the token comes with the answers of ``GET /api/account``, sign-up and
sign-in); without it, or with another, 403 ``bad_csrf``. Every account write with an ``Origin``
header must come from the server's own origin (``--public-origin``, else the request's scheme
and ``Host``): 403 ``bad_origin`` otherwise.

**Rate limits.** Sign-up, sign-in and password-reset requests count against the client
address's bucket (:attr:`.security.RateLimits.account_per_minute`): over it, 429
``rate_limited`` with ``Retry-After``.

**Secret key** (:mod:`.account_service`, with the settings and the per-process service).
``--secret-key-file PATH`` names a file holding it; without one, the key is
``secret_key`` in the data folder, made (random, readable by the owner only) when first needed,
so that sessions survive restarts and every process of ``--workers N`` shares it.
"""

from __future__ import annotations

import asyncio
import datetime
import hmac
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from campfire.core import ErrorText
from campfire.i18n import N_, translator

from .account_service import (
    ACCOUNTS_VARIABLE,
    COOKIE,
    AccountService,
    AccountSettings,
    load_secret,
)
from .accounts import (
    DELETED_PLAYER,
    MAX_CLAIMS,
    RESET_MINUTES,
    User,
    check_email,
    check_password,
    check_user_name,
)
from .lobby import guarded, language_of, read_body
from .moderation import CATEGORIES, REASON_MAX, Moderation
from .seating import LobbyError, seat_tokens
from .wire import decode

__all__ = [
    "ACCOUNTS_VARIABLE",
    "COOKIE",
    "CSRF_HEADER",
    "MAX_ACCOUNT_BODY",
    "AccountService",
    "AccountSettings",
    "load_secret",
    "read_object",
    "routes",
]

#: The header a cookie-authenticated write carries the session's CSRF token in.
CSRF_HEADER = "x-csrf-token"
#: The largest body of an account request (a sign-up with its claims fits easily).
MAX_ACCOUNT_BODY = 32 * 1024
#: The longest password-reset token a request may send (the server makes 43-character ones).
MAX_RESET_TOKEN = 200

_RESET_SUBJECT = N_("Campfire: reset your password")
_RESET_BODY = N_(
    "Someone (we hope you) asked to reset the password of the Campfire account {name}.\n\n"
    "Open this link within {minutes} minutes to choose a new password:\n{link}\n\n"
    "If it was not you, ignore this message: the password stays as it is."
)


# ----- requests ----------------------------------------------------------------------------------

Handler = Callable[[Request], Awaitable[Response]]


def _service(request: Request) -> AccountService:
    service: AccountService = request.app.state.accounts
    return service


def _bad_json(message: str) -> LobbyError:
    return LobbyError(400, "bad_json", message)


async def _body(request: Request, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object, holding no key but ``allowed`` (400 otherwise)."""
    data = await read_body(request, MAX_ACCOUNT_BODY)
    body = decode(data or b"{}", ErrorText("the request body"), _bad_json) if data.strip() else {}
    if not isinstance(body, dict):
        raise LobbyError(400, "bad_json", ErrorText("the request body is a JSON object"))
    extra = sorted(set(body) - set(allowed))
    if extra:
        raise LobbyError(
            400,
            "bad_request",
            ErrorText(
                "unknown fields {fields}; this request takes {allowed}",
                fields=", ".join(extra)[:200],
                allowed=", ".join(allowed),
            ),
        )
    return body


def _check_origin(request: Request) -> None:
    """403 ``bad_origin`` for a write whose ``Origin`` is not the server's own."""
    origin = request.headers.get("origin")
    if (
        origin is not None
        and origin.rstrip("/").lower() != _service(request).origin_of(request).lower()
    ):
        raise LobbyError(
            403,
            "bad_origin",
            ErrorText("account changes are accepted only from the server's own pages"),
        )


def _session_id(request: Request) -> str | None:
    """The session id of the request's cookie, if its signature holds."""
    return _service(request).session_id(request)


async def _current(request: Request) -> tuple[User, str, str] | None:
    """The signed-in user, the session's CSRF token and its id (``None``: signed out)."""
    session_id = _session_id(request)
    if session_id is None:
        return None
    found = await asyncio.to_thread(_service(request).accounts.session, session_id)
    return (found[0], found[1], session_id) if found is not None else None


async def _signed_in(request: Request) -> tuple[User, str]:
    """The user and session id of a cookie-authenticated write (401, 403 ``bad_csrf``)."""
    _check_origin(request)
    found = await _current(request)
    if found is None:
        raise LobbyError(401, "signed_out", ErrorText("you are not signed in"))
    user, csrf, session_id = found
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or not hmac.compare_digest(sent.encode(), csrf.encode()):
        raise LobbyError(
            403,
            "bad_csrf",
            ErrorText("this request needs the session's CSRF token in the X-CSRF-Token header"),
        )
    return user, session_id


def _state(user: User | None, csrf: str | None, request: Request) -> dict[str, Any]:
    return {
        "user": user.to_json() if user is not None else None,
        "csrf": csrf,
        "mail": _service(request).mailer is not None,
    }


async def _open_session(request: Request, user: User) -> tuple[str, str]:
    """A new session of ``user``: the browser's previous one (if any) ends, expired ones go."""
    accounts = _service(request).accounts
    previous = _session_id(request)

    def run() -> tuple[str, str]:
        if previous is not None:
            accounts.close_session(previous)
        accounts.sweep()
        return accounts.open_session(user.id)

    return await asyncio.to_thread(run)


def _with_cookie(answer: Response, request: Request, session_id: str) -> Response:
    service = _service(request)
    answer.set_cookie(
        COOKIE,
        service.signer.dumps(session_id),
        max_age=int(service.settings.session_days * 86400),
        path="/",
        secure=service.secure,
        httponly=True,
        samesite="lax",
    )
    return answer


def _without_cookie(answer: Response, request: Request) -> Response:
    answer.delete_cookie(
        COOKIE, path="/", secure=_service(request).secure, httponly=True, samesite="lax"
    )
    return answer


#: The request's JSON object, holding no key but those allowed.
read_object = _body

# ----- the routes --------------------------------------------------------------------------------


async def me(request: Request) -> Response:
    """``GET /api/account``: who is signed in (``user`` null: nobody), the CSRF token, mail."""
    found = await _current(request)
    if found is None:
        answer = JSONResponse(_state(None, None, request))
        if request.cookies.get(COOKIE):  # an expired or foreign cookie: gone
            _without_cookie(answer, request)
        return answer
    user, csrf, _ = found
    return JSONResponse(_state(user, csrf, request))


async def sign_up(request: Request) -> Response:
    """``POST /api/account/signup``: a new account, signed in; a guest's seats claimed."""
    _check_origin(request)
    service = _service(request)
    service.limit(request.scope)
    body = await _body(request, ("user_name", "password", "email", "claim"))
    name = check_user_name(body.get("user_name"))
    password = check_password(body.get("password"))
    email = check_email(body.get("email"))
    if email is not None and service.mailer is None:
        raise LobbyError(
            400, "no_mail", ErrorText("this server sends no e-mail: leave the address out")
        )
    claims = seat_tokens(body.get("claim"), "claim", MAX_CLAIMS)
    user, claimed = await asyncio.to_thread(service.accounts.sign_up, name, password, email, claims)
    session_id, csrf = await _open_session(request, user)
    answer = JSONResponse({**_state(user, csrf, request), "claimed": claimed}, status_code=201)
    return _with_cookie(answer, request, session_id)


async def sign_in(request: Request) -> Response:
    """``POST /api/account/signin``: sign in with a user name and password."""
    _check_origin(request)
    service = _service(request)
    service.limit(request.scope)
    body = await _body(request, ("user_name", "password"))
    name, password = body.get("user_name"), body.get("password")
    if (
        not isinstance(name, str)
        or not isinstance(password, str)
        or len(name) > 64
        or len(password) > 256
    ):
        raise LobbyError(
            400, "bad_request", ErrorText("signing in takes a user_name and a password (strings)")
        )
    user = await asyncio.to_thread(service.accounts.sign_in, name, password)
    session_id, csrf = await _open_session(request, user)
    return _with_cookie(JSONResponse(_state(user, csrf, request)), request, session_id)


async def sign_out(request: Request) -> Response:
    """``POST /api/account/signout``: this browser's session ends, its cookie is deleted."""
    _, session_id = await _signed_in(request)
    await asyncio.to_thread(_service(request).accounts.close_session, session_id)
    return _without_cookie(JSONResponse(_state(None, None, request)), request)


async def change_password(request: Request) -> Response:
    """``POST /api/account/password``: a new password (the old one needed); others signed out."""
    user, session_id = await _signed_in(request)
    body = await _body(request, ("old_password", "new_password"))
    old = body.get("old_password")
    if not isinstance(old, str) or len(old) > 256:
        raise LobbyError(400, "bad_request", ErrorText("old_password is the current password"))
    new = check_password(body.get("new_password"), "new_password")
    accounts = _service(request).accounts
    await asyncio.to_thread(accounts.change_password, user.id, old, new, session_id)
    return JSONResponse({"changed": True})


async def set_email(request: Request) -> Response:
    """``POST /api/account/email``: set or remove (null) the address e-mail goes to."""
    user, _ = await _signed_in(request)
    service = _service(request)
    if service.mailer is None:
        raise LobbyError(404, "no_mail", ErrorText("this server sends no e-mail"))
    body = await _body(request, ("email",))
    email = check_email(body.get("email"))
    user = await asyncio.to_thread(service.accounts.set_email, user.id, email)
    return JSONResponse({"user": user.to_json()})


async def delete_account(request: Request) -> Response:
    """``DELETE /api/account``: the account goes (password needed); its games stay."""
    user, _ = await _signed_in(request)
    body = await _body(request, ("password",))
    password = body.get("password")
    if not isinstance(password, str) or len(password) > 256:
        raise LobbyError(400, "bad_request", ErrorText("deleting the account takes its password"))
    seats = await asyncio.to_thread(_service(request).accounts.delete, user.id, password)
    manager = getattr(request.app.state, "manager", None)
    for table_id, seat in seats:  # the tables in memory say it too
        live = manager.tables.get(table_id) if manager is not None else None
        if live is not None and seat < len(live.seats):
            async with live.lock:
                live.seats[seat].nickname = DELETED_PLAYER
                live.push_snapshots()
    return _without_cookie(JSONResponse({"deleted": True, "seats": len(seats)}), request)


async def export(request: Request) -> Response:
    """``GET /api/account/export``: everything stored about the user, as a JSON download."""
    found = await _current(request)
    if found is None:
        raise LobbyError(401, "signed_out", ErrorText("you are not signed in"))
    user = found[0]
    data = await asyncio.to_thread(_service(request).accounts.export, user.id)
    manager = getattr(request.app.state, "manager", None)
    if manager is not None:  # the ratings and their history (docs/accounts.md, "Ratings")
        profile = await asyncio.to_thread(manager.game_ratings.profile, user.id, user.name)
        data["ratings"] = profile["ratings"]
    data["exported"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    return JSONResponse(
        data,
        headers={"Content-Disposition": f'attachment; filename="campfire-{user.name}.json"'},
    )


async def reset(request: Request) -> Response:
    """``POST /api/account/reset``: e-mail a reset link to the user's address, if it has one.

    The answer is the same whether or not the user exists or has an address (202).
    """
    _check_origin(request)
    service = _service(request)
    if service.mailer is None:
        raise LobbyError(404, "no_mail", ErrorText("this server sends no e-mail"))
    service.limit(request.scope)
    body = await _body(request, ("user_name",))
    name = body.get("user_name")
    if not isinstance(name, str) or len(name) > 64:
        raise LobbyError(400, "bad_request", ErrorText("a reset takes the user_name"))
    found = await asyncio.to_thread(service.accounts.start_reset, name)
    if found is not None and found[0].email:
        user, token = found
        tr = translator(language_of(request))
        link = f"{service.origin_of(request)}/account#reset={token}"
        text = tr.gettext(_RESET_BODY).format(name=user.name, minutes=RESET_MINUTES, link=link)
        await service.mailer.send(user.email, tr.gettext(_RESET_SUBJECT), text)  # type: ignore[arg-type]
    return JSONResponse({"requested": True}, status_code=202)


async def finish_reset(request: Request) -> Response:
    """``POST /api/account/reset/confirm``: a new password with the e-mailed token."""
    _check_origin(request)
    service = _service(request)
    service.limit(request.scope)
    body = await _body(request, ("token", "new_password"))
    token = body.get("token")
    if not isinstance(token, str) or not 1 <= len(token) <= MAX_RESET_TOKEN:
        raise LobbyError(400, "bad_request", ErrorText("token is the reset link's token"))
    password = check_password(body.get("new_password"), "new_password")
    await asyncio.to_thread(service.accounts.finish_reset, token, password)
    return JSONResponse({"changed": True})


# ----- moderation: reports and blocks ----------------------------------------------------------


def _moderation(request: Request) -> Moderation:
    found = _service(request).moderation
    if found is None:  # (every app's service has one)
        raise LobbyError(404, "unknown_user", ErrorText("this server keeps no accounts"))
    return found


def _whom(body: dict[str, Any]) -> dict[str, Any]:
    """A request's target: ``{"user_name"}`` or ``{"table", "seat"}`` (400 otherwise)."""
    name, table, seat = body.get("user_name"), body.get("table"), body.get("seat")
    if isinstance(name, str) and 1 <= len(name) <= 64 and table is None and seat is None:
        return {"user_name": name}
    if (
        name is None
        and isinstance(table, int)
        and not isinstance(table, bool)
        and 1 <= table < 10**12
        and isinstance(seat, int)
        and not isinstance(seat, bool)
        and 0 <= seat < 100
    ):
        return {"table": (table, seat)}
    raise LobbyError(
        400,
        "bad_request",
        ErrorText('name the player by "user_name", or by "table" and "seat" (numbers)'),
    )


async def report(request: Request) -> Response:
    """``POST /api/account/report``: report a player (an account or a seat) to the operator."""
    user, _ = await _signed_in(request)
    body = await _body(request, ("user_name", "table", "seat", "category", "reason"))
    whom = _whom(body)
    category, reason = body.get("category"), body.get("reason")
    if category not in CATEGORIES:
        raise LobbyError(
            400,
            "bad_request",
            ErrorText("category is one of {categories}", categories=", ".join(CATEGORIES)),
        )
    if not isinstance(reason, str) or not 1 <= len(reason.strip()) <= REASON_MAX:
        raise LobbyError(
            400,
            "bad_request",
            ErrorText("reason says what happened: 1–{limit} characters", limit=REASON_MAX),
        )
    text = "".join(" " if ord(c) < 32 and c != "\n" else c for c in reason.strip())
    moderation = _moderation(request)
    await asyncio.to_thread(moderation.report, user.id, str(category), text, **whom)
    return JSONResponse({"reported": True}, status_code=201)


async def blocks(request: Request) -> Response:
    """``GET /api/account/blocks``: the accounts the user blocks."""
    found = await _current(request)
    if found is None:
        raise LobbyError(401, "signed_out", ErrorText("you are not signed in"))
    listed = await asyncio.to_thread(_moderation(request).blocks, found[0].id)
    return JSONResponse({"blocks": listed})


async def block(request: Request) -> Response:
    """``POST /api/account/blocks``: block an account (by name, or a table's seat)."""
    user, _ = await _signed_in(request)
    whom = _whom(await _body(request, ("user_name", "table", "seat")))
    moderation = _moderation(request)

    def run() -> list[dict[str, Any]]:
        moderation.block(user.id, **whom)
        return moderation.blocks(user.id)

    return JSONResponse({"blocks": await asyncio.to_thread(run)})


async def unblock(request: Request) -> Response:
    """``POST /api/account/unblock``: lift a block."""
    user, _ = await _signed_in(request)
    body = await _body(request, ("user_name",))
    name = body.get("user_name")
    if not isinstance(name, str) or not 1 <= len(name) <= 64:
        raise LobbyError(400, "bad_request", ErrorText("user_name is a user name"))
    moderation = _moderation(request)

    def run() -> list[dict[str, Any]]:
        moderation.unblock(user.id, name)
        return moderation.blocks(user.id)

    return JSONResponse({"blocks": await asyncio.to_thread(run)})


def routes() -> list[Route]:
    """The accounts' routes."""
    return [
        Route("/api/account", guarded(me), methods=["GET"]),
        Route("/api/account", guarded(delete_account), methods=["DELETE"]),
        Route("/api/account/signup", guarded(sign_up), methods=["POST"]),
        Route("/api/account/signin", guarded(sign_in), methods=["POST"]),
        Route("/api/account/signout", guarded(sign_out), methods=["POST"]),
        Route("/api/account/password", guarded(change_password), methods=["POST"]),
        Route("/api/account/email", guarded(set_email), methods=["POST"]),
        Route("/api/account/export", guarded(export), methods=["GET"]),
        Route("/api/account/reset", guarded(reset), methods=["POST"]),
        Route("/api/account/reset/confirm", guarded(finish_reset), methods=["POST"]),
        Route("/api/account/report", guarded(report), methods=["POST"]),
        Route("/api/account/blocks", guarded(blocks), methods=["GET"]),
        Route("/api/account/blocks", guarded(block), methods=["POST"]),
        Route("/api/account/unblock", guarded(unblock), methods=["POST"]),
    ]
