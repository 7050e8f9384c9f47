"""Connection limits (``campfire.server.limits``), probed with raw sockets on 127.0.0.1.

Each server here is a real uvicorn in a thread, serving ``create_app`` on a loopback port with
small limits. A test waits for the server to act with a generous bound (never asserting a
duration): a server with a 1 s time-out must have closed within :data:`BOUND` seconds.
Connections counted per address come from addresses of their own (127.0.0.2, 127.0.0.3…):
127.0.0.1 is a trusted proxy by default (``campfire serve --trusted-proxies``), which is not
counted.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from websockets.sync.client import connect

from campfire.server.app import create_app
from campfire.server.cli import serve_limits
from campfire.server.limits import (
    LIMITS_VARIABLE,
    MAX_REQUEST_BODY_BYTES,
    Limits,
    announced_length,
    protocol_class,
)
from campfire.server.lobby import MAX_BODY_BYTES
from campfire.server.replay import MAX_RECORD_BYTES

from .helpers import ThreadedServer

#: how long a test waits for the server to close a connection (its time-outs are 1 s)
BOUND = 10.0

SMALL = Limits(
    header_timeout=1,
    body_timeout=1,
    max_connections_per_address=3,
    ws_ping_interval=0.5,
    ws_ping_timeout=0.5,
    close_grace=1,
)


class Server(ThreadedServer):
    """uvicorn serving ``create_app`` in a thread, on a free loopback port.

    Its connections' kernel send buffers are small (accepted sockets inherit the listening
    socket's), so what a client leaves unread stays in the server's own buffers.
    """

    def __init__(self, tmp: Path, limits: Limits) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
        self.sock.bind(("127.0.0.1", 0))
        self.port: int = self.sock.getsockname()[1]
        app = create_app(f"sqlite:///{tmp / 'limits.db'}", bot_workers=1)
        config = uvicorn.Config(
            app, log_level="warning", ws_max_size=64 * 1024, **limits.uvicorn_options()
        )
        super().__init__(config, self.sock)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("limits"), SMALL)
    try:
        yield running
    finally:
        running.stop()


@contextmanager
def raw(server: Server, source: str = "127.0.0.1") -> Iterator[socket.socket]:
    """A TCP connection to the server from ``source`` (any 127.x.y.z address)."""
    sock = socket.create_connection(
        ("127.0.0.1", server.port), timeout=BOUND, source_address=(source, 0)
    )
    try:
        yield sock
    finally:
        sock.close()


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (within :data:`BOUND`)."""
    sock.settimeout(BOUND)
    out = b""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return out
        except TimeoutError:
            break
        if not chunk:
            return out
        out += chunk
    raise AssertionError(f"the server kept the connection open; it sent {out[:200]!r}")


def answer(data: bytes) -> tuple[int, dict[str, str], Any]:
    """The status, headers and JSON body of an HTTP answer."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, json.loads(body) if body else None


def request_head(method: str, path: str, *extra: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


# ----- headers -----------------------------------------------------------------------------------


def test_a_connection_that_sends_nothing_is_closed(server: Server) -> None:
    with raw(server) as sock:
        assert read_until_closed(sock) == b""


def test_headers_that_never_end_are_cut_off(server: Server) -> None:
    with raw(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: never ends
        assert read_until_closed(sock) == b""


def test_headers_sent_a_byte_at_a_time_do_not_reset_the_deadline(server: Server) -> None:
    with raw(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        closed = False
        for _ in range(200):  # a header line a byte at a time, far past the 1 s deadline
            try:
                sock.sendall(b"X")
            except OSError:
                closed = True
                break
            time.sleep(0.05)
        assert closed or read_until_closed(sock) == b""


def test_a_websocket_upgrade_that_never_ends_is_cut_off(server: Server) -> None:
    with raw(server) as sock:
        sock.sendall(
            b"GET /ws/tables/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        )
        assert read_until_closed(sock) == b""


def test_a_kept_alive_connection_gets_a_new_deadline_for_each_request(server: Server) -> None:
    with raw(server) as sock:
        for _ in range(3):
            sock.sendall(request_head("GET", "/healthz"))
            data = b""
            while b"ok" not in data:
                chunk = sock.recv(4096)
                assert chunk, "closed while answering"
                data += chunk
            assert answer(data)[0] == 200


# ----- bodies ------------------------------------------------------------------------------------


def test_a_half_sent_body_is_answered_408_and_closed(server: Server) -> None:
    with raw(server) as sock:
        sock.sendall(request_head("POST", "/api/tables?lang=hu", "Content-Length: 100"))
        sock.sendall(b'{"game": "tra')
        status, headers, body = answer(read_until_closed(sock))
    assert status == 408
    assert headers["connection"] == "close"
    assert body["error"]["code"] == "timeout"
    assert body["error"]["message"] == "a kérés törzse nem érkezett meg 1 másodpercen belül"


def test_a_body_sent_slowly_past_its_deadline_is_refused(server: Server) -> None:
    with raw(server) as sock:
        sock.sendall(request_head("POST", "/api/replay", "Content-Length: 1000"))
        status = None
        for _ in range(200):  # a byte every 50 ms: 1000 bytes would take 50 s
            try:
                sock.sendall(b" ")
            except OSError:
                break
            time.sleep(0.05)
            sock.settimeout(0.001)
            try:
                data = sock.recv(4096)
            except (TimeoutError, BlockingIOError):
                continue
            except ConnectionResetError:
                break
            status = answer(data)[0] if data else None
            break
        assert status in (408, None)
        if status is None:  # closed before the answer could be read: it must be closed
            assert read_until_closed(sock) is not None


def test_a_body_announced_too_long_is_refused_at_once(server: Server) -> None:
    # the body time-out is 1 s here; a second server with a long one shows the 413 is early
    with raw(server) as sock:
        sock.sendall(request_head("POST", "/api/tables", "Content-Length: 16777216"))
        status, headers, body = answer(read_until_closed(sock))
    assert (status, body["error"]["code"]) == (413, "too_large")
    assert headers["connection"] == "close"
    assert "16777216" in body["error"]["message"]


@pytest.fixture(scope="module")
def patient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose time-outs are far longer than any test's wait."""
    long = Limits(header_timeout=3600, body_timeout=3600, max_connections_per_address=0)
    running = Server(tmp_path_factory.mktemp("patient"), long)
    try:
        yield running
    finally:
        running.stop()


@pytest.mark.parametrize(
    ("path", "length"),
    [
        ("/api/tables", 16 * 1024 * 1024),  # over every route's limit
        ("/api/tables", MAX_BODY_BYTES + 1),  # over the lobby's, under the replay's
        ("/api/tables/{table}/join", MAX_BODY_BYTES + 1),
        ("/api/replay?lang=cs", MAX_RECORD_BYTES + 1),
    ],
)
def test_an_announced_length_over_the_route_limit_gets_413_before_the_body(
    patient: Server, path: str, length: int
) -> None:
    path = path.format(table=table_id(patient)) if "{table}" in path else path
    with raw(patient) as sock:
        sock.sendall(request_head("POST", path, f"Content-Length: {length}"))
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            chunk = sock.recv(4096)  # (within BOUND: the socket's time-out)
            assert chunk, f"closed without an answer: {data!r}"
            data += chunk
    status, _, body = answer(data)
    assert (status, body["error"]["code"]) == (413, "too_large")


def test_the_largest_body_announced_is_the_largest_a_route_reads() -> None:
    assert max(MAX_BODY_BYTES, MAX_RECORD_BYTES) == MAX_REQUEST_BODY_BYTES


def test_a_body_within_the_limits_is_served(server: Server) -> None:
    body = json.dumps({"game": "tracker", "players": 2, "seats": [{"kind": "open"}] * 2})
    with raw(server) as sock:
        sock.sendall(
            request_head(
                "POST",
                "/api/tables",
                f"Content-Length: {len(body)}",
                "Content-Type: application/json",
                "Connection: close",
            )
            + body.encode()
        )
        status, _, answered = answer(read_until_closed(sock))
    assert status == 201, answered
    assert answered["table"]["id"] >= 1


# ----- connections per address -------------------------------------------------------------------


def wait_until_served(server: Server, source: str) -> None:
    """Until a connection from ``source`` is accepted again (the server counted the closes)."""
    for _ in range(200):
        with raw(server, source) as sock:
            sock.sendall(request_head("GET", "/healthz", "Connection: close"))
            if answer(read_until_closed(sock))[0] == 200:
                return
        time.sleep(0.05)
    raise AssertionError(f"{source} is still refused")


def test_one_address_holds_at_most_its_connections(server: Server) -> None:
    held = [socket.create_connection(("127.0.0.1", server.port), source_address=("127.0.0.2", 0))]
    try:
        # make sure the server counts the first before opening the others (each is served)
        held[0].sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b"200" in held[0].recv(4096)
        for _ in range(2):
            sock = socket.create_connection(
                ("127.0.0.1", server.port), source_address=("127.0.0.2", 0)
            )
            held.append(sock)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert b"200" in sock.recv(4096)
        with raw(server, "127.0.0.2") as extra:
            status, headers, body = answer(read_until_closed(extra))
        assert (status, body["error"]["code"]) == (429, "too_many_connections")
        assert headers["retry-after"]
        with raw(server, "127.0.0.3") as other:  # another address is served
            other.sendall(request_head("GET", "/healthz", "Connection: close"))
            assert answer(read_until_closed(other))[0] == 200
    finally:
        for sock in held:
            sock.close()
    wait_until_served(server, "127.0.0.2")  # the closed ones no longer count


def test_the_proxy_address_is_not_counted(server: Server) -> None:
    held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(5)]
    try:
        with raw(server) as sock:
            sock.sendall(request_head("GET", "/healthz", "Connection: close"))
            assert answer(read_until_closed(sock))[0] == 200
    finally:
        for sock in held:
            sock.close()


# ----- WebSockets --------------------------------------------------------------------------------


def table_id(server: Server, bots: bool = False) -> int:
    """A new table of Tracker for two (open seats; ``bots``: two bots, started)."""
    seat = {"kind": "bot", "level": "easy"} if bots else {"kind": "open"}
    body = json.dumps({"game": "tracker", "players": 2, "seats": [seat] * 2})
    with raw(server) as sock:
        sock.sendall(
            request_head(
                "POST",
                "/api/tables",
                f"Content-Length: {len(body)}",
                "Connection: close",
            )
            + body.encode()
        )
        status, _, answered = answer(read_until_closed(sock))
    assert status == 201
    number: int = answered["table"]["id"]
    if bots:
        with raw(server) as sock:
            sock.sendall(
                request_head(
                    "POST", f"/api/tables/{number}/start", "Content-Length: 0", "Connection: close"
                )
            )
            assert answer(read_until_closed(sock))[0] == 200
    return number


def upgrade(sock: socket.socket, path: str) -> bytes:
    """Send a WebSocket upgrade request and read the answer's head."""
    sock.sendall(
        request_head(
            "GET",
            path,
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13",
        )
    )
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, "closed during the handshake"
        data += chunk
    return data


def test_a_silent_websocket_is_closed(server: Server) -> None:
    table = table_id(server)
    with raw(server) as sock:
        assert b" 101 " in upgrade(sock, f"/ws/tables/{table}")
        read_until_closed(sock)  # it answers no ping: closed (the snapshot and pings came first)


def test_a_spectator_who_only_watches_stays(server: Server) -> None:
    table = table_id(server)
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}") as ws:
        assert json.loads(ws.recv(timeout=BOUND))["type"] == "snapshot"
        time.sleep(3)  # six pings' worth of the server's 0.5 s: the client answers each
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=BOUND))["type"] == "pong"


def test_a_websocket_counts_against_its_address_until_it_closes(server: Server) -> None:
    table = table_id(server)
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
    with ExitStack() as held:
        for _ in range(3):
            sock = socket.create_connection(
                ("127.0.0.1", server.port), source_address=("127.0.0.5", 0)
            )
            ws = held.enter_context(connect(url, sock=sock))
            assert json.loads(ws.recv(timeout=BOUND))["type"] == "snapshot"
        with raw(server, "127.0.0.5") as extra:
            assert answer(read_until_closed(extra))[0] == 429
    wait_until_served(server, "127.0.0.5")


def open_connections(server: Server, source: str) -> int:
    protocol: Any = server.server.config.http_protocol_class
    counts: dict[str, int] = protocol.open_connections()
    return counts.get(source, 0)


def test_a_client_that_never_reads_is_cut_off(server: Server) -> None:
    """Closing waits for what is still to be sent; a client that reads nothing is cut off."""
    table = table_id(server, bots=True)  # a game of bots: its snapshots are large
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind(("127.0.0.6", 0))
    sock.connect(("127.0.0.1", server.port))
    try:
        upgrade(sock, f"/ws/tables/{table}")
        assert open_connections(server, "127.0.0.6") == 1
        sync = b'{"type": "sync"}'
        frame = bytes([0x81, 0x80 | len(sync)]) + b"\0\0\0\0" + sync  # masked with zeros
        for _ in range(90):  # snapshots pile up unread (within the rate limit's burst)
            sock.sendall(frame)
        # its pings go unanswered, so the server closes it, and cuts it off after the grace
        for _ in range(200):
            if open_connections(server, "127.0.0.6") == 0:
                break
            time.sleep(0.05)
        assert open_connections(server, "127.0.0.6") == 0, "the connection is still held"
    finally:
        sock.close()


# ----- the options -------------------------------------------------------------------------------


def test_the_limits_reach_uvicorn_and_the_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from campfire.server import limits as module

    args = argparse.Namespace(header_timeout=2, body_timeout=7, max_connections_per_address=5)
    chosen = serve_limits(args)
    assert (chosen.header_timeout, chosen.body_timeout) == (2, 7)
    options = chosen.uvicorn_options()
    assert options["http"].limits_applied == chosen
    assert options["ws_ping_timeout"] == chosen.ws_ping_timeout
    by_name = chosen.uvicorn_options(by_name=True)
    assert by_name["http"] == "campfire.server.limits:LIMITED_HTTP"
    monkeypatch.setenv(LIMITS_VARIABLE, chosen.to_json())
    module._limited_http.cache_clear()
    try:
        assert uvicorn.importer.import_from_string(by_name["http"]).limits_applied == chosen
    finally:
        module._limited_http.cache_clear()


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="max_connections_per_address"):
        Limits(max_connections_per_address=-1)
    with pytest.raises(ValueError, match="header_timeout"):
        Limits(header_timeout=0)
    assert Limits.from_json(Limits(body_timeout=3).to_json()).body_timeout == 3


def test_announced_length_reads_only_digits() -> None:
    assert announced_length([(b"Content-Length", b" 12 ")]) == 12
    assert announced_length([(b"content-length", b"-1")]) is None
    assert announced_length([]) is None
    assert protocol_class(SMALL) is not protocol_class(SMALL)  # each has its own counts


def test_the_limits_apply_in_every_process_of_serve_workers(pg_only: str, tmp_path: Path) -> None:
    from .conftest import REDIS
    from .live_server import LiveServer

    served = LiveServer(
        pg_only,
        tmp_path,
        args=(
            "--workers",
            "2",
            "--redis-url",
            REDIS,
            "--header-timeout",
            "1",
            "--body-timeout",
            "1",
            "--max-connections-per-address",
            "2",
        ),
    )
    try:
        address = ("127.0.0.1", served.port)
        for _ in range(4):  # whichever process accepts it
            with socket.create_connection(address, timeout=BOUND) as sock:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                assert read_until_closed(sock) == b""
            with socket.create_connection(address, timeout=BOUND) as sock:
                sock.sendall(request_head("POST", "/api/tables", "Content-Length: 16777216"))
                assert answer(read_until_closed(sock))[0] == 413
        with ExitStack() as held:  # each process counts its own: 2 each, so 4 in all at most
            statuses = []
            for _ in range(6):
                sock = held.enter_context(
                    socket.create_connection(
                        address, timeout=BOUND, source_address=("127.0.0.7", 0)
                    )
                )
                sock.sendall(request_head("GET", "/healthz"))
                statuses.append(answer(sock.recv(4096))[0])
            assert 429 in statuses
            assert statuses.count(200) <= 4
    finally:
        served.stop()
