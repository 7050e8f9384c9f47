"""``campfire serve --ws-compression``: permessage-deflate at zlib level 1 (fast), 6 or none.

``fast`` sends frames of fewer than ``--ws-compress-min`` bytes uncompressed (RFC 7692 marks
compression per message): both kinds must decode on the client, in any order.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from campfire.server.compression import (
    DEFAULT_MIN_SIZE,
    FAST_LEVEL,
    protocol_class,
    uvicorn_options,
)

from .live_server import LiveServer, http


def _server_factory(min_size: int) -> Any:
    """The permessage-deflate factory a ``fast`` protocol with ``min_size`` offers."""
    protocol = protocol_class(FAST_LEVEL, min_size)
    assert protocol is not None
    config = uvicorn.Config(app=lambda scope, receive, send: None, ws=protocol)
    config.load()
    loop = asyncio.new_event_loop()  # the protocol asks for the current loop, which an earlier
    asyncio.set_event_loop(loop)  # test's asyncio.run may have unset in this process
    try:
        made = protocol(config, ServerState(), {})
    finally:
        asyncio.set_event_loop(None)
        loop.close()
    (factory,) = made.conn.available_extensions
    return factory


def test_the_fast_protocol_offers_deflate_at_level_one() -> None:
    factory = _server_factory(DEFAULT_MIN_SIZE)
    assert factory.name == "permessage-deflate"
    assert factory.compress_settings == {"memLevel": 5, "level": 1}


def _negotiated(min_size: int) -> tuple[Any, Any]:
    """The server's and the client's extensions, negotiated as a browser would offer."""
    client_factory = ClientPerMessageDeflateFactory(client_max_window_bits=True)
    response, server = _server_factory(min_size).process_request_params(
        client_factory.get_request_params(), []
    )
    return server, client_factory.process_response_params(response, [])


def _text(size: int, salt: int) -> bytes:
    """A JSON-like text of ``size`` bytes that compresses (as a frame does)."""
    body = "".join(f'{{"seat":{i % 5},"card":"c{(i * salt) % 97}"}},' for i in range(size))
    return ("[" + body)[: size - 1].encode() + b"]"


def test_small_frames_go_plain_large_ones_compressed_and_all_decode() -> None:
    server, client = _negotiated(1000)
    sizes = [5000, 40, 999, 1000, 20000, 300, 3000]  # compressed history between plain ones
    for n, size in enumerate(sizes):
        data = _text(size, n + 3)
        sent = server.encode(Frame(Opcode.TEXT, data))
        assert sent.rsv1 is (size >= 1000), size
        if sent.rsv1:
            assert len(sent.data) < size  # the text compresses
        else:
            assert sent.data == data
        assert client.decode(sent, max_size=None).data == data
    ping = Frame(Opcode.PING, b"p")
    assert server.encode(ping) is ping  # control frames are never compressed


def test_a_plain_message_in_several_frames_stays_plain() -> None:
    server, client = _negotiated(100)
    first, rest = Frame(Opcode.TEXT, b"x" * 50, fin=False), Frame(Opcode.CONT, b"y" * 500)
    sent = [server.encode(first), server.encode(rest)]
    assert [f.rsv1 for f in sent] == [False, False]
    assert [f.data for f in sent] == [first.data, rest.data]
    big = _text(4000, 7)  # the next message is compressed again, and decodes
    after = server.encode(Frame(Opcode.TEXT, big))
    assert after.rsv1
    assert client.decode(after, max_size=None).data == big


def test_a_threshold_of_zero_compresses_every_frame() -> None:
    server, client = _negotiated(0)
    sent = server.encode(Frame(Opcode.TEXT, b"{}"))
    assert sent.rsv1
    assert client.decode(sent, max_size=None).data == b"{}"


def test_the_choices_and_a_bad_one() -> None:
    assert uvicorn_options("off") == {"ws_per_message_deflate": False}
    assert uvicorn_options("default") == {}
    assert uvicorn_options("fast")["ws"] is not None
    with pytest.raises(ValueError, match="fast, default, off"):
        uvicorn_options("best")
    with pytest.raises(ValueError, match="0 or more"):
        uvicorn_options("fast", -1)


def _reserved_table(server: LiveServer) -> int:
    """A two-seat Tracker table with both seats reserved, created on ``server``; its id."""
    seats = [{"kind": "reserved", "nickname": "A"}, {"kind": "reserved", "nickname": "B"}]
    status, body = http(
        "POST", f"{server.base}/api/tables", {"game": "tracker", "players": 2, "seats": seats}
    )
    assert status == 201, body
    table: int = json.loads(body)["table"]["id"]
    return table


@pytest.mark.parametrize(("choice", "deflate"), [("fast", True), ("off", False)])
def test_a_served_table_speaks_with_the_compression_chosen(
    tmp_path: Path, choice: str, deflate: bool
) -> None:
    server = LiveServer(
        f"sqlite:///{tmp_path / 'c.db'}", tmp_path, args=("--ws-compression", choice)
    )
    try:
        table = _reserved_table(server)
        with connect(f"{server.ws}/ws/tables/{table}", compression="deflate") as ws:
            names = [e.name for e in ws.protocol.extensions]
            assert names == (["permessage-deflate"] if deflate else [])
            snapshot = json.loads(ws.recv(timeout=10))
            assert snapshot["type"] == "snapshot" and snapshot["table"] == table
    finally:
        server.stop()


def test_a_served_table_sends_a_small_frame_plain_and_a_snapshot_compressed(
    tmp_path: Path,
) -> None:
    server = LiveServer(
        f"sqlite:///{tmp_path / 'c.db'}", tmp_path, args=("--ws-compress-min", "200")
    )
    try:
        table = _reserved_table(server)
        received: list[tuple[bool, int]] = []  # (compressed, bytes decoded) of each frame

        class Noting(ClientPerMessageDeflateFactory):
            """The client's permessage-deflate, noting how each text frame came."""

            def process_response_params(self, params: Any, accepted: Any) -> Any:
                extension = super().process_response_params(params, accepted)
                decode = extension.decode

                def noting(frame: Frame, *, max_size: int | None = None) -> Frame:
                    decoded: Frame = decode(frame, max_size=max_size)
                    if frame.opcode == Opcode.TEXT:
                        received.append((frame.rsv1, len(decoded.data)))
                    return decoded

                extension.decode = noting  # type: ignore[method-assign]
                return extension

        factory = Noting(client_max_window_bits=True)
        url = f"{server.ws}/ws/tables/{table}"
        with connect(url, compression=None, extensions=[factory]) as ws:
            snapshot = json.loads(ws.recv(timeout=10))
            assert snapshot["type"] == "snapshot" and snapshot["table"] == table
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        (big_compressed, big), (small_compressed, small) = received
        assert big >= 200 and big_compressed
        assert small < 200 and not small_compressed
    finally:
        server.stop()
