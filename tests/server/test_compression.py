"""``campfire serve --ws-compression``: permessage-deflate at zlib level 1 (fast), 6 or none."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.sync.client import connect

from campfire.server.compression import FAST_LEVEL, protocol_class, uvicorn_options

from .live_server import LiveServer, http


def test_the_fast_protocol_offers_deflate_at_level_one() -> None:
    protocol = protocol_class(FAST_LEVEL)
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
    assert factory.name == "permessage-deflate"
    assert factory.compress_settings == {"memLevel": 5, "level": 1}


def test_the_choices_and_a_bad_one() -> None:
    assert uvicorn_options("off") == {"ws_per_message_deflate": False}
    assert uvicorn_options("default") == {}
    assert uvicorn_options("fast")["ws"] is not None
    with pytest.raises(ValueError, match="fast, default, off"):
        uvicorn_options("best")


@pytest.mark.parametrize(("choice", "deflate"), [("fast", True), ("off", False)])
def test_a_served_table_speaks_with_the_compression_chosen(
    tmp_path: Path, choice: str, deflate: bool
) -> None:
    server = LiveServer(
        f"sqlite:///{tmp_path / 'c.db'}", tmp_path, args=("--ws-compression", choice)
    )
    try:
        seats = [{"kind": "reserved", "nickname": "A"}, {"kind": "reserved", "nickname": "B"}]
        status, body = http(
            "POST", f"{server.base}/api/tables", {"game": "tracker", "players": 2, "seats": seats}
        )
        assert status == 201, body
        table = json.loads(body)["table"]["id"]
        with connect(f"{server.ws}/ws/tables/{table}", compression="deflate") as ws:
            names = [e.name for e in ws.protocol.extensions]
            assert names == (["permessage-deflate"] if deflate else [])
            snapshot = json.loads(ws.recv(timeout=10))
            assert snapshot["type"] == "snapshot" and snapshot["table"] == table
    finally:
        server.stop()
