"""The server's logs: text for people, or one JSON object per line; never a secret.

``campfire serve --log-format text|json --log-level LEVEL`` chooses them
(``docs/deploy.md``, "Logs"). :func:`log_config` is the :func:`logging.config.dictConfig`
configuration given to uvicorn as its ``log_config``, so uvicorn's own loggers (``uvicorn.error``,
``uvicorn.access``) and ours write the same lines to stderr, in every process of
``--workers N`` (each process configures its logging from that same dictionary).

The ids of what a line is about live in :mod:`contextvars` set by :class:`LogContextMiddleware`
(a request id for HTTP, a connection id for a WebSocket, the table of a ``/api/tables/{id}`` or
``/ws/tables/{id}`` path) and by the table socket once it knows the seat
(:func:`set_seat`): every line logged while that request or connection is handled carries them.

Every line goes through :func:`redact` last: the value of a ``token=`` query parameter, an
``Authorization`` header's credentials and a URL's password are replaced by ``***``.
"""

from __future__ import annotations

import contextvars
import datetime
import json
import logging
import logging.config
import os
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = [
    "LOG_FORMATS",
    "LOG_LEVELS",
    "JsonFormatter",
    "LogContextMiddleware",
    "TextFormatter",
    "add_log_arguments",
    "configure",
    "context_fields",
    "detached_context",
    "log_config",
    "redact",
    "set_seat",
    "set_table",
]

#: the values of ``--log-format``
LOG_FORMATS = ("text", "json")
#: the values of ``--log-level``, least severe first
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")

#: the id of the HTTP request being handled
request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
#: the id of the WebSocket connection being served
connection_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "connection_id", default=None
)
#: the table the request or connection is about
table_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("table_id", default=None)
#: the seat of the connection (``None``: a spectator, or not known)
seat_number: contextvars.ContextVar[int | None] = contextvars.ContextVar("seat", default=None)

#: the JSON field of each id, in the order written
_FIELDS: tuple[tuple[str, contextvars.ContextVar[Any]], ...] = (
    ("request", request_id),
    ("connection", connection_id),
    ("table", table_id),
    ("seat", seat_number),
)

MASK = "***"

_SECRETS = (
    # a token in a query string or a form: ?token=abc&since=3
    # (the name may be percent-encoded: ?%74oken=abc is read as token too)
    (
        re.compile(
            r"(?i)((?<![A-Za-z0-9_%])(?:t|%74)(?:o|%6f)(?:k|%6b)(?:e|%65)(?:n|%6e)=)[^&\s\"'#]+"
        ),
        r"\1" + MASK,
    ),
    # an Authorization header, as a header line or in a repr of the headers
    (
        re.compile(
            r"(?i)(\bauthorization\b[\"']?\s*[:=,]\s*[\"']?(?:bearer|basic|token)?\s*)[^\s\"',)]+"
        ),
        r"\1" + MASK,
    ),
    # a bare bearer credential
    (re.compile(r"(?i)(\bbearer\s+)[^\s\"',)]+"), r"\1" + MASK),
    # a URL's password: postgresql+psycopg://user:secret@host/db
    (re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@\"']*:)[^\s@/\"']*(@)"), r"\1" + MASK + r"\2"),
    # a secret in JSON: "token": "abc", "password": "x"
    (
        re.compile(r"(?i)(\"(?:token|password|secret)\"\s*:\s*\")[^\"]*(\")"),
        r"\1" + MASK + r"\2",
    ),
)


def redact(text: str) -> str:
    """``text`` with every secret it shows replaced by ``***``.

    >>> redact('GET /ws/tables/3?token=s3cr3t&since=4')
    'GET /ws/tables/3?token=***&since=4'
    >>> redact("postgresql+psycopg://campfire:hunter2@db:5432/campfire")
    'postgresql+psycopg://campfire:***@db:5432/campfire'
    >>> redact("Authorization: Bearer abc.def")
    'Authorization: Bearer ***'
    """
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


def context_fields() -> dict[str, Any]:
    """The ids known where this is called: ``request``, ``connection``, ``table``, ``seat``."""
    fields = {}
    for name, var in _FIELDS:
        value = var.get()
        if value is not None:
            fields[name] = value
    return fields


def set_table(table: int | None) -> None:
    """Note the table the current request or connection is about."""
    table_id.set(table)


def set_seat(seat: int | None) -> None:
    """Note the seat of the current connection (``None``: a spectator)."""
    seat_number.set(seat)


def detached_context() -> contextvars.Context:
    """A copy of the current context without request, connection or seat.

    For a task that outlives the request or connection that started it (a table's bot or
    clock): its lines keep the table but are not told apart as that client's.
    """
    context = contextvars.copy_context()
    for var in (request_id, connection_id, seat_number):
        context.run(var.set, None)
    return context


# ----- formatters ---------------------------------------------------------------------------


def _utc(created: float) -> str:
    moment = datetime.datetime.fromtimestamp(created, datetime.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


#: uvicorn's access log record: its arguments, by name
_ACCESS_ARGS = ("client", "method", "path", "http_version", "status")


class TextFormatter(logging.Formatter):
    """``LEVEL logger: message [request=… table=… seat=…]``, secrets masked.

    No time: journald and most log collectors stamp each line themselves.
    """

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        """The record as one text line (and a traceback's lines after it)."""
        text = super().format(record)
        fields = context_fields()
        if fields:
            ids = " ".join(f"{name}={value}" for name, value in fields.items())
            head, newline, rest = text.partition("\n")
            text = f"{head} [{ids}]{newline}{rest}"
        return redact(text)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``time``, ``level``, ``logger``, ``message`` and the ids.

    ``time`` is ISO 8601 in UTC with milliseconds; ``pid`` the process (one of ``--workers``);
    ``request``, ``connection``, ``table``, ``seat`` where known; ``exception`` the traceback of
    a logged exception. uvicorn's access lines add ``client``, ``method``, ``path`` and
    ``status``. Every string is masked by :func:`redact`.
    """

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        entry: dict[str, Any] = {
            "time": _utc(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
            "pid": record.process if record.process is not None else os.getpid(),
        }
        entry.update(context_fields())
        args = record.args
        access = record.name == "uvicorn.access" and isinstance(args, tuple)
        if access and isinstance(args, tuple) and len(args) == len(_ACCESS_ARGS):
            for name, value in zip(_ACCESS_ARGS, args, strict=True):
                if name != "http_version":
                    entry[name] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            entry["exception"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            entry["exception"] = redact(record.exc_text)
        return json.dumps(entry, ensure_ascii=False, default=str)


_FORMATTERS = {"text": "TextFormatter", "json": "JsonFormatter"}


def log_config(log_format: str = "text", level: str = "info") -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` configuration of the server's logs.

    One handler (stderr) on the root logger, in ``log_format`` (:data:`LOG_FORMATS`) at
    ``level`` (:data:`LOG_LEVELS`); uvicorn's loggers pass their lines up to it. Loggers made
    before (every module's) stay enabled. It is given to uvicorn as ``log_config``: every
    worker process applies it when it starts.
    """
    if log_format not in _FORMATTERS:
        raise ValueError(f"log format {log_format!r}: one of {', '.join(LOG_FORMATS)}")
    if level not in LOG_LEVELS:
        raise ValueError(f"log level {level!r}: one of {', '.join(LOG_LEVELS)}")
    passing = {"handlers": [], "propagate": True}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"campfire": {"()": f"{__name__}.{_FORMATTERS[log_format]}"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "campfire",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level.upper()},
        "loggers": {
            "uvicorn": dict(passing, level=level.upper()),
            "uvicorn.error": dict(passing),
            "uvicorn.access": dict(passing),
        },
    }


def add_log_arguments(parser: Any) -> None:
    """Add ``--log-format`` and ``--log-level`` to ``campfire serve``'s parser."""
    from campfire.i18n import _

    parser.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default="text",
        help=_(
            "the log lines on stderr: text (for people, the default) or json (one object per "
            "line: time, level, logger, message, the request or connection id, the table, "
            "the seat; never a token or a password)"
        ),
    )
    parser.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default="info",
        help=_("the least severe lines logged (default info; warning leaves out each request)"),
    )


def configure(log_format: str = "text", level: str = "info") -> None:
    """Apply :func:`log_config` to this process; Python's warnings are logged too."""
    logging.config.dictConfig(log_config(log_format, level))
    logging.captureWarnings(True)  # not printed past the formatter


# ----- the ids of requests and connections ------------------------------------------------------

_TABLE_PATH = re.compile(r"^/(?:api|ws)/tables/(\d{1,12})(?:/|$)")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class LogContextMiddleware:
    """Give each HTTP request a request id and each WebSocket a connection id (ASGI).

    The ids are new random ones (``r`` or ``c`` and 12 hex digits): nothing a client sends
    becomes one. A path of one table (``/api/tables/7/join``, ``/ws/tables/7``) sets the
    table too. The ids hold for everything logged while the request or connection is handled,
    uvicorn's access line included.
    """

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one request or connection with its ids set."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        var = request_id if kind == "http" else connection_id
        token = var.set(("r" if kind == "http" else "c") + secrets.token_hex(6))
        match = _TABLE_PATH.match(scope.get("path", ""))
        table = table_id.set(int(match.group(1)) if match else None)
        seat = seat_number.set(None)
        try:
            await self.app(scope, receive, send)
        finally:
            seat_number.reset(seat)
            table_id.reset(table)
            var.reset(token)
