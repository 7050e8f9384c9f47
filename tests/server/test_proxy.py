"""Behind a reverse proxy (``campfire.server.proxy``): trusted proxies, the client's address, the
Origin of a table socket, and ``campfire serve``'s two options.

The middleware is checked on its own with a small ASGI application that shows what it was given,
then in the real application served by uvicorn in a thread on a loopback port: requests "from
the proxy" come from 127.0.0.1 (trusted by default) and carry ``X-Forwarded-For``; untrusted
peers connect from 127.0.0.2 and up. No duration is asserted; waits are bounded in count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import socket
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import websockets
from websockets.exceptions import InvalidStatus

from campfire.cli import build_parser
from campfire.core import OptionError
from campfire.server.app import create_app
from campfire.server.cli import apply_settings, serve_limits, serve_proxy
from campfire.server.limits import Limits
from campfire.server.proxy import (
    DEFAULT_TRUSTED_PROXIES,
    PROXY_VARIABLE,
    ProxyMiddleware,
    ProxySettings,
    parse_origin,
)

from .helpers import ThreadedServer

PUBLIC = "https://games.example.org"

# ----- the middleware on its own -----------------------------------------------------------------


def _scope(kind: str, peer: str, **headers: str) -> dict[str, Any]:
    return {
        "type": kind,
        "scheme": "ws" if kind == "websocket" else "http",
        "path": "/ws/tables/1" if kind == "websocket" else "/healthz",
        "query_string": b"",
        "client": (peer, 40000),
        "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()],
        "extensions": {"websocket.http.response": {}},
    }


def _call(middleware: ProxyMiddleware, scope: dict[str, Any]) -> tuple[Any, list[Any]]:
    """Run one request through ``middleware``: the scope the inner app saw, what was sent."""
    seen: list[Any] = []
    sent: list[Any] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append(dict(scope))

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        sent.append(message)

    middleware.app = inner
    asyncio.run(middleware(scope, receive, send))
    return (seen[0] if seen else None), sent


def test_a_trusted_proxy_names_the_client_and_its_scheme() -> None:
    middleware = ProxyMiddleware(None, ProxySettings(("10.0.0.0/8",)))  # type: ignore[arg-type]
    seen, _ = _call(
        middleware,
        _scope(
            "http",
            "10.1.1.1",
            x_forwarded_for="6.6.6.6, 203.0.113.7, 10.2.2.2",
            x_forwarded_proto="https",
        ),
    )
    # read from the right past the trusted proxies; what the client wrote itself is not believed
    assert seen["client"] == ("203.0.113.7", 0)
    assert seen["scheme"] == "https"
    assert seen["campfire.proxy"] == "10.1.1.1"
    seen, _ = _call(
        middleware,
        _scope("websocket", "10.1.1.1", x_forwarded_for="203.0.113.7", x_forwarded_proto="https"),
    )
    assert (seen["client"], seen["scheme"]) == (("203.0.113.7", 0), "wss")


def test_an_untrusted_peer_is_its_own_client_whatever_it_says() -> None:
    middleware = ProxyMiddleware(None, ProxySettings(("10.0.0.0/8",)))  # type: ignore[arg-type]
    seen, _ = _call(
        middleware,
        _scope("http", "198.51.100.9", x_forwarded_for="1.2.3.4", x_forwarded_proto="https"),
    )
    assert seen["client"] == ("198.51.100.9", 40000)
    assert seen["scheme"] == "http"
    assert "campfire.proxy" not in seen
    # trusting nobody: even the loopback's headers are ignored
    nobody = ProxyMiddleware(None, ProxySettings(()))  # type: ignore[arg-type]
    seen, _ = _call(nobody, _scope("http", "127.0.0.1", x_forwarded_for="1.2.3.4"))
    assert seen["client"] == ("127.0.0.1", 40000)


def test_a_foreign_origin_is_refused_403_and_no_origin_is_let_in() -> None:
    middleware = ProxyMiddleware(None, ProxySettings(public_origin=PUBLIC))  # type: ignore[arg-type]
    seen, sent = _call(middleware, _scope("websocket", "127.0.0.1", origin="https://evil.example"))
    assert seen is None
    assert sent[0]["type"] == "websocket.http.response.start" and sent[0]["status"] == 403
    error = json.loads(sent[1]["body"])["error"]
    assert error["code"] == "bad_origin" and PUBLIC in error["message"]
    for headers in ({"origin": PUBLIC}, {"origin": "https://GAMES.example.org:443"}, {}):
        seen, sent = _call(middleware, _scope("websocket", "127.0.0.1", **headers))
        assert seen is not None and sent == []
    # two Origin headers: refused (a browser sends one)
    twice = _scope("websocket", "127.0.0.1", origin=PUBLIC)
    twice["headers"].append((b"origin", b"https://evil.example"))
    assert _call(middleware, twice)[0] is None
    # HTTP requests are not checked (the lobby's pages are read by anyone)
    seen, _ = _call(middleware, _scope("http", "127.0.0.1", origin="https://evil.example"))
    assert seen is not None


def test_the_settings_say_what_is_allowed() -> None:
    with pytest.raises(OptionError, match=r"10\.0\.0\.0/8 \(got 'proxy\.lan'\)"):
        ProxySettings(("proxy.lan",))
    for bad in ("games.example.org", "ftp://x", "https://x/lobby", "https://x?a=1", "https://u@x"):
        with pytest.raises(OptionError, match="without a path"):
            parse_origin(bad)
    settings = ProxySettings(("10.0.0.1", "fd00::/8"), "https://[FD00::1]:8443/")
    assert settings.public_origin == "https://[fd00::1]:8443"
    assert ProxySettings.from_json(settings.to_json()) == settings
    assert settings.trusts("fd00::7") and not settings.trusts("unix-socket")


def _serve_args(*argv: str) -> argparse.Namespace:
    """``campfire serve ARGV``'s options as the command has them (settings applied)."""
    args = build_parser().parse_args(["serve", *argv])
    apply_settings(args)
    return args


def test_serve_options_and_their_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = build_parser()
    assert serve_proxy(_serve_args()) == ProxySettings(DEFAULT_TRUSTED_PROXIES, None)
    args = _serve_args(
        "--trusted-proxies", "10.0.0.2,192.168.0.0/16", "--public-origin", PUBLIC + "/"
    )
    assert serve_proxy(args) == ProxySettings(("10.0.0.2", "192.168.0.0/16"), PUBLIC)
    assert serve_proxy(_serve_args("--trusted-proxies", "")).trusted_proxies == ()
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--public-origin", "games.example.org"])
    # what --workers processes read
    monkeypatch.setenv(PROXY_VARIABLE, serve_proxy(args).to_json())
    assert ProxySettings.from_environment() == serve_proxy(args)


def test_a_bad_option_is_named_with_what_is_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--trusted-proxies", "10.0.0.1,proxy"])
    err = capsys.readouterr().err
    assert "--trusted-proxies" in err and "10.0.0.0/8 (got 'proxy')" in err


# ----- the real application ----------------------------------------------------------------------


class Server(ThreadedServer):
    """uvicorn serving ``create_app`` in a thread on a free loopback port, with ``proxy``."""

    def __init__(self, tmp: Path, proxy: ProxySettings, cap: int) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        limits = Limits(max_connections_per_address=cap)
        app = create_app(
            f"sqlite:///{tmp / 'proxy.db'}",
            bot_workers=1,
            proxy=proxy,
            max_connections_per_address=cap,
        )
        config = uvicorn.Config(
            app, log_config=None, log_level="info", **limits.uvicorn_options(proxies=proxy)
        )
        super().__init__(config, self.sock)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(
        tmp_path_factory.mktemp("proxy"),
        ProxySettings(("127.0.0.1",), public_origin=PUBLIC),
        cap=2,
    )
    try:
        yield running
    finally:
        running.stop()


def _table(server: Server) -> int:
    import urllib.request

    body = json.dumps({"game": "tracker", "players": 2, "seats": [{"kind": "open"}] * 2})
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}/api/tables",
        data=body.encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        number: int = json.loads(answer.read())["table"]["id"]
    return number


async def _socket(server: Server, table: int, source: str = "127.0.0.1", **headers: str) -> Any:
    """A spectator's table socket that has read its snapshot."""
    ws = await websockets.connect(
        f"ws://127.0.0.1:{server.port}/ws/tables/{table}",
        additional_headers=headers,
        local_addr=(source, 0),
        open_timeout=20,
    )
    frame = json.loads(await asyncio.wait_for(ws.recv(), 20))
    assert frame["type"] == "snapshot", frame
    return ws


def test_each_forwarded_client_is_counted_by_its_own_address(server: Server) -> None:
    table = _table(server)

    async def go() -> None:
        async with AsyncExitStack() as stack:
            for _ in range(2):  # the cap: 2 for 203.0.113.7, through the proxy
                ws = await _socket(server, table, **{"X-Forwarded-For": "203.0.113.7"})
                stack.push_async_callback(ws.close)
            with pytest.raises(InvalidStatus) as refused:
                await _socket(server, table, **{"X-Forwarded-For": "203.0.113.7"})
            response = refused.value.response
            assert response.status_code == 429
            assert json.loads(response.body)["error"]["code"] == "too_many_connections"
            # another client of the same proxy is served; so is the proxy's own request
            ws = await _socket(server, table, **{"X-Forwarded-For": "203.0.113.8"})
            stack.push_async_callback(ws.close)
            for _ in range(3):
                ws = await _socket(server, table)
                stack.push_async_callback(ws.close)
        # closed: 203.0.113.7 is served again
        ws = await _socket(server, table, **{"X-Forwarded-For": "203.0.113.7"})
        await ws.close()

    asyncio.run(go())


def test_an_untrusted_peer_cannot_borrow_another_address(server: Server) -> None:
    table = _table(server)

    async def go() -> None:
        async with AsyncExitStack() as stack:
            for i in range(2):  # counted as 127.0.0.2 whatever it says
                ws = await _socket(
                    server, table, "127.0.0.2", **{"X-Forwarded-For": f"198.51.100.{i}"}
                )
                stack.push_async_callback(ws.close)
            with pytest.raises(InvalidStatus) as refused:
                await _socket(server, table, "127.0.0.2", **{"X-Forwarded-For": "198.51.100.9"})
            assert refused.value.response.status_code == 429

    asyncio.run(go())


def test_the_log_shows_the_forwarded_client(
    server: Server, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    import urllib.request

    # (another test of this process may have configured a server's logs: uvicorn's loggers
    # then write their own lines and pass none on to the root logger caplog listens at)
    access = logging.getLogger("uvicorn.access")
    monkeypatch.setattr(access, "disabled", False)
    monkeypatch.setattr(access, "handlers", [*access.handlers, caplog.handler])
    caplog.set_level(logging.INFO, logger="uvicorn.access")
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}/healthz", headers={"X-Forwarded-For": "192.0.2.44"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
    for _ in range(100):  # the access log is written once the answer is sent
        if any("192.0.2.44" in r.getMessage() for r in caplog.records):
            break
        time.sleep(0.05)
    lines = [r.getMessage() for r in caplog.records if r.name == "uvicorn.access"]
    assert any("192.0.2.44" in line and "/healthz" in line for line in lines), lines


def test_a_page_of_another_origin_cannot_open_a_table_socket(server: Server) -> None:
    table = _table(server)

    async def go() -> None:
        with pytest.raises(InvalidStatus) as refused:
            await _socket(server, table, Origin="https://evil.example")
        response = refused.value.response
        assert response.status_code == 403
        error = json.loads(response.body)["error"]
        assert error["code"] == "bad_origin"
        assert "https://evil.example" in error["message"] and PUBLIC in error["message"]
        # in the client's language
        with pytest.raises(InvalidStatus) as refused:
            await _socket(server, table, Origin="https://evil.example", **{"Accept-Language": "hu"})
        assert json.loads(refused.value.response.body)["error"]["message"] != error["message"]
        for headers in ({"Origin": PUBLIC}, {}):  # the public site, and a client without Origin
            ws = await _socket(server, table, **headers)
            await ws.close()

    asyncio.run(go())


def test_serve_limits_and_proxy_reach_the_protocol() -> None:
    args = _serve_args("--trusted-proxies", "127.0.0.5")
    limits, proxy = serve_limits(args), serve_proxy(args)
    options = limits.uvicorn_options(proxies=proxy)
    assert options["proxy_headers"] is False  # the middleware reads the headers, not uvicorn
    assert proxy.trusts("127.0.0.5") and not proxy.trusts("127.0.0.1")


def test_a_refusal_logs_no_error(server: Server, caplog: pytest.LogCaptureFixture) -> None:
    table = _table(server)
    caplog.set_level(logging.INFO, logger="uvicorn.error")

    async def go() -> None:
        with pytest.raises(InvalidStatus):
            await _socket(server, table, Origin="https://evil.example")

    asyncio.run(go())
    for _ in range(100):  # the line of the refusal is logged once it is sent
        if any('"WebSocket /ws/tables/' in r.getMessage() for r in caplog.records):
            break
        time.sleep(0.05)
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
