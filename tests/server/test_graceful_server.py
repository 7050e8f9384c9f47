"""A stopping server answers the requests of connections it accepted just before it stopped
(``campfire.server.graceful_server``).

uvicorn's stop closes a connection whose first request has not arrived whole as if it were
idle, so its client reads a close without an answer. During a rolling restart that is a
health check (or any request) that an old worker took from the shared socket a moment before
it stopped accepting. :class:`GracefulServer` gives such a connection a bounded time to send
its request and answers it; one that sends nothing is closed when that time runs out.

The server runs in a thread of the test, on a trivial application; each test holds the stop
in a drain of its own until the connection is in the state it checks, and waits for the
server's log line instead of for a time (no duration is asserted).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import select
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import uvicorn

from campfire.server.graceful import register_drain
from campfire.server.graceful_server import FIRST_REQUEST_SHARE, GracefulServer

from .helpers import ThreadedServer, wait_for

#: the bound of every wait here: 1500 looks 0.02 s apart (no duration is asserted)
_wait = functools.partial(wait_for, tries=1500, pause=0.02)


async def _hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answers every HTTP request ``200 hello``."""
    assert scope["type"] == "http"
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


class _Held:
    """A drain that holds the stop until it is released; ``entered``: the stop has begun."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.released = threading.Event()

    async def __call__(self) -> None:
        self.entered.set()
        while not self.released.is_set():
            await asyncio.sleep(0.01)


class Running(ThreadedServer):
    """A :class:`GracefulServer` of :func:`_hello` serving in a thread, on ``port``; its stop
    is held by ``held`` (a drain registered for it) until that is released."""

    def __init__(self, stop_timeout: float) -> None:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port: int = sock.getsockname()[1]
        self.held = _Held()
        self.unregister = register_drain(self.held)
        config = uvicorn.Config(_hello, lifespan="off", log_config=None, log_level="error")
        super().__init__(config, sock, GracefulServer(config, stop_timeout=stop_timeout))

    def stopped(self) -> bool:
        """Whether the server's thread has ended (joined, within a bound)."""
        self.thread.join(30)
        return not self.thread.is_alive()


@pytest.fixture
def running(caplog: pytest.LogCaptureFixture) -> Iterator[Callable[[float], Running]]:
    """Start a graceful server (given its stop's bound) in a thread; stops it after."""
    caplog.set_level(logging.INFO, logger="campfire.server.graceful_server")
    started: list[Running] = []

    def start(stop_timeout: float) -> Running:
        started.append(Running(stop_timeout))
        return started[-1]

    yield start
    for one in started:
        one.held.released.set()
        one.stop()
        one.unregister()
        assert not one.thread.is_alive()


def _accepted(one: Running, partial: bytes) -> socket.socket:
    """A client connected to the server that has sent ``partial``, once the server holds it."""
    client = socket.create_connection(("127.0.0.1", one.port), timeout=30)
    client.sendall(partial)
    _wait(lambda: len(one.server.server_state.connections) == 1, "the server to accept")
    return client


def _stop_held(one: Running) -> None:
    """Begin the stop and hold it in the drain: the server no longer accepts."""
    one.server.should_exit = True
    _wait(one.held.entered.is_set, "the stop to begin")


def _read_all(client: socket.socket) -> bytes:
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := client.recv(4096):
            chunks.append(chunk)
    return b"".join(chunks)


def _closed(client: socket.socket) -> bool:
    """Whether the server closed ``client``'s connection (without reading from it)."""
    if not select.select([client], [], [], 0)[0]:
        return False  # nothing to read: open
    try:
        return client.recv(1, socket.MSG_PEEK) == b""
    except ConnectionResetError:
        return True


def test_a_request_arriving_while_the_server_stops_is_answered(
    running: Callable[[float], Running], caplog: pytest.LogCaptureFixture
) -> None:
    one = running(30)
    client = _accepted(one, b"GET /healthz HTTP/1.1\r\nHost: test\r\n")  # not whole yet
    _stop_held(one)
    one.held.released.set()  # the drain is done: the stop goes on
    # the server waits for the request now (it says so), or (uvicorn's stop) closed it
    waiting = "send their first request"
    _wait(lambda: waiting in caplog.text or _closed(client), "the wait or the close")
    with contextlib.suppress(OSError):
        client.sendall(b"\r\n")  # the request is whole now
    answer = _read_all(client)
    client.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), answer
    assert b"hello" in body, answer  # and then closed: _read_all came to its end
    assert one.stopped()
    assert "sent no request" not in caplog.text


def test_a_connection_that_sends_nothing_is_closed_when_its_time_runs_out(
    running: Callable[[float], Running], caplog: pytest.LogCaptureFixture
) -> None:
    one = running(1.0)  # the first requests' share: a fifth of a second
    client = _accepted(one, b"GET / HT")
    _stop_held(one)
    one.held.released.set()
    assert _read_all(client) == b""  # closed, unanswered: it never sent its request
    client.close()
    assert one.stopped()
    share = f"{1.0 * FIRST_REQUEST_SHARE:g} s"  # the first requests' share of the bound
    assert f"1 connection(s) sent no request in {share}; closing them" in caplog.text


def test_an_idle_keep_alive_connection_is_closed_at_once(
    running: Callable[[float], Running], caplog: pytest.LogCaptureFixture
) -> None:
    one = running(30)
    client = _accepted(one, b"GET / HTTP/1.1\r\nHost: test\r\n\r\n")
    head = b""
    while b"hello" not in head:  # the first answer, on a connection kept alive
        head += client.recv(4096)
    _stop_held(one)
    one.held.released.set()
    assert _read_all(client) == b""  # closed without waiting for a second request
    client.close()
    assert one.stopped()
    assert "send their first request" not in caplog.text
