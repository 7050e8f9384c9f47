"""The server's logs: ``--log-format text|json``, the ids of each line, and never a secret."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from campfire.server import logs
from campfire.server.logs import JsonFormatter, TextFormatter, log_config, redact

from .conftest import REDIS
from .live_server import LiveServer, http

# ----- masking -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('127.0.0.1:5 - "WebSocket /ws/tables/3?token=Abc-123_x&since=4" [accepted]', "Abc-123_x"),
        ("GET /ws/tables/3?since=4&token=Abc-123_x HTTP/1.1", "Abc-123_x"),
        ("GET /ws/tables/3?%74oken=Abc-123_x HTTP/1.1", "Abc-123_x"),
        ("GET /ws/tables/3?TOKEN=Abc-123_x HTTP/1.1", "Abc-123_x"),
        ("< authorization: Bearer Abc-123_x", "Abc-123_x"),
        ("headers: [('authorization', 'Bearer Abc-123_x')]", "Abc-123_x"),
        ("Authorization: Basic QWxhZGRpbjpvcGVu", "QWxhZGRpbjpvcGVu"),
        ("postgresql+psycopg://campfire:hunter2@127.0.0.1:5432/campfire", "hunter2"),
        ("redis://:hunter2@127.0.0.1:6379/0", "hunter2"),
        ('{"table": 3, "seat": 0, "token": "Abc-123_x"}', "Abc-123_x"),
        ('{"password": "hunter2"}', "hunter2"),
    ],
)
def test_secrets_are_masked(text: str, secret: str) -> None:
    masked = redact(text)
    assert secret not in masked and logs.MASK in masked


def test_what_is_no_secret_stays() -> None:
    for text in (
        "GET /api/tables/3 HTTP/1.1",
        "GET /ws/tables/3?since=4&lang=hu",
        "postgresql+psycopg://postgres@127.0.0.1:5432/test",
        "table 3: seat 1 ran out of time (timeout)",
    ):
        assert redact(text) == text


# ----- the formatters ----------------------------------------------------------------------------


def _record(name: str, msg: str, *args: Any, exc: bool = False) -> logging.LogRecord:
    info = None
    if exc:
        try:
            raise RuntimeError("token=Abc-123_x broke it")
        except RuntimeError:
            info = sys.exc_info()
    return logging.LogRecord(name, logging.WARNING, __file__, 1, msg, args, info)


def test_a_json_line_has_the_time_level_logger_message_and_the_ids() -> None:
    import contextvars

    def inside() -> dict[str, Any]:
        logs.connection_id.set("c0123456789ab")
        logs.set_table(12)
        logs.set_seat(0)
        line = JsonFormatter().format(_record("campfire.server.app", "table %s: %s", 12, "x"))
        assert "\n" not in line
        parsed: dict[str, Any] = json.loads(line)
        return parsed

    entry = contextvars.copy_context().run(inside)
    assert entry["level"] == "WARNING" and entry["logger"] == "campfire.server.app"
    assert entry["message"] == "table 12: x"
    assert entry["time"].endswith("Z") and entry["time"][10] == "T" and len(entry["time"]) == 24
    assert (entry["connection"], entry["table"], entry["seat"]) == ("c0123456789ab", 12, 0)
    assert "request" not in entry  # an id that is not known is left out
    assert isinstance(entry["pid"], int)


def test_an_exception_and_an_access_line_in_json_are_masked_too() -> None:
    entry = json.loads(JsonFormatter().format(_record("x", "failed", exc=True)))
    assert "RuntimeError" in entry["exception"] and "Abc-123_x" not in entry["exception"]
    access = _record(
        "uvicorn.access",
        '%s - "%s %s HTTP/%s" %d',
        "127.0.0.1:5",
        "GET",
        "/ws/tables/1?token=Abc-123_x",
        "1.1",
        101,
    )
    entry = json.loads(JsonFormatter().format(access))
    assert entry["method"] == "GET" and entry["status"] == 101 and entry["client"] == "127.0.0.1:5"
    assert entry["path"] == "/ws/tables/1?token=***"
    assert "Abc-123_x" not in json.dumps(entry)


def test_a_text_line_ends_with_the_ids() -> None:
    import contextvars

    def inside() -> str:
        logs.request_id.set("r0123456789ab")
        logs.set_table(4)
        return TextFormatter().format(_record("uvicorn.access", "GET /x?token=Abc-123_x"))

    line = contextvars.copy_context().run(inside)
    assert line == "WARNING uvicorn.access: GET /x?token=*** [request=r0123456789ab table=4]"


def test_the_configuration_routes_uvicorn_through_the_same_handler() -> None:
    config = log_config("json", "warning")
    assert config["root"]["level"] == "WARNING" and not config["disable_existing_loggers"]
    assert config["formatters"]["campfire"]["()"] == "campfire.server.logs.JsonFormatter"
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        assert config["loggers"][name]["handlers"] == []  # up to the root's one handler
    with pytest.raises(ValueError, match="one of text, json"):
        log_config("xml")


def test_a_detached_task_keeps_the_table_and_drops_the_client() -> None:
    import contextvars

    def inside() -> dict[str, Any]:
        logs.connection_id.set("c1")
        logs.set_table(3)
        logs.set_seat(2)
        return logs.detached_context().run(logs.context_fields)

    assert contextvars.copy_context().run(inside) == {"table": 3}


# ----- a real server -----------------------------------------------------------------------------


async def _play(url: str) -> None:
    async with websockets.connect(url) as ws:
        while True:
            frame = json.loads(await ws.recv())
            if frame.get("outcome") is not None:
                return
            if frame["type"] == "error" and frame["code"] == "rate_limited":
                await asyncio.sleep(0.5)
                await ws.send(json.dumps({"type": "sync"}))
            elif frame.get("legal"):
                choice = frame["legal"][0]["notation"]
                await ws.send(json.dumps({"type": "action", "seq": frame["seq"], "action": choice}))


def _game(server: LiveServer) -> tuple[int, str]:
    """A short game over the socket with a seat token; the table and the token."""
    body = {
        "game": "manitou",
        "players": 2,
        "seats": [{"kind": "reserved", "nickname": "Ann"}, {"kind": "bot", "level": "easy"}],
    }
    status, text = http("POST", f"{server.base}/api/tables", body)
    assert status == 201, text
    created = json.loads(text)
    table, token = created["table"]["id"], created["tokens"]["0"]
    assert http("POST", f"{server.base}/api/tables/{table}/start", {}, token)[0] == 200
    asyncio.run(_play(f"{server.ws}/ws/tables/{table}?token={token}&lang=en"))
    # a wrong token in the URL and in the header are not logged either
    assert http("POST", f"{server.base}/api/tables/{table}/start", {}, token[::-1])[0] != 200
    return table, token


def _lines(server: LiveServer) -> list[dict[str, Any]]:
    text = server.log.read_text(encoding="utf-8")
    entries = []
    for line in text.splitlines():
        if line.strip():
            entries.append(json.loads(line))  # every line is one JSON object
    return entries


@pytest.fixture
def json_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(None, tmp_path, args=("--log-format", "json", "--log-level", "debug"))
    try:
        yield server
    finally:
        server.stop()


def test_a_game_over_the_socket_logs_json_lines_with_ids_and_never_the_token(
    json_server: LiveServer,
) -> None:
    table, token = _game(json_server)
    json_server.stop()
    text = json_server.log.read_text(encoding="utf-8")
    assert token not in text and token[::-1] not in text
    entries = _lines(json_server)
    for entry in entries:
        assert {"time", "level", "logger", "message", "pid"} <= entry.keys()
    accepted = [e for e in entries if "[accepted]" in e["message"]]
    assert accepted and f"/ws/tables/{table}?token=***&lang=en" in accepted[0]["message"]
    connection = accepted[0]["connection"]
    assert connection.startswith("c") and accepted[0]["table"] == table
    seated = [e for e in entries if e.get("connection") == connection and e.get("seat") == 0]
    assert any(e["message"] == f"table {table}: seat 0 connected" for e in seated)
    access = [e for e in entries if e["logger"] == "uvicorn.access"]
    starts = [e for e in access if e["path"] == f"/api/tables/{table}/start"]
    assert starts and all(e["request"].startswith("r") and e["table"] == table for e in starts)
    assert len({e["request"] for e in access}) == len(access)  # one id per request


def test_text_logs_are_the_default_and_mask_the_token_too(tmp_path: Path) -> None:
    server = LiveServer(None, tmp_path)
    try:
        table, token = _game(server)
    finally:
        server.stop()
    text = server.log.read_text(encoding="utf-8")
    assert token not in text
    assert f"INFO campfire.server.app: table {table}: seat 0 connected [connection=c" in text
    assert f"/ws/tables/{table}?token=***&lang=en" in text


def test_every_worker_process_logs_json(pg_only: str, tmp_path: Path) -> None:
    server = LiveServer(
        pg_only,
        tmp_path,
        args=("--workers", "2", "--redis-url", REDIS, "--log-format", "json"),
    )
    try:
        _, token = _game(server)
    finally:
        server.stop()
    assert token not in server.log.read_text(encoding="utf-8")
    entries = _lines(server)
    ready = [e for e in entries if "database ready" in e["message"]]
    assert len({e["pid"] for e in ready}) == 2, ready  # each worker, in the same format


def test_a_database_url_refused_at_start_is_shown_without_its_password() -> None:
    from campfire.core import OptionError
    from campfire.server.db import make_engine

    with pytest.raises(OptionError) as refused:
        make_engine("postgresql+nodriver://campfire:hunter2@db/games")
    assert "hunter2" not in str(refused.value) and "campfire:***@db" in str(refused.value)


def test_a_database_url_with_a_port_that_is_not_a_number_is_a_clear_error() -> None:
    from campfire.core import OptionError
    from campfire.server.db import make_engine

    with pytest.raises(OptionError, match="not a database URL") as refused:
        make_engine("postgresql+psycopg://campfire:hunter2@db:port/games")
    assert "hunter2" not in str(refused.value)
