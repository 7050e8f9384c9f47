"""End to end: `campfire serve` in a subprocess on a free loopback port, real WebSocket clients."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from campfire.core.records import replay_text

from .live_server import LiveServer, http


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    live = LiveServer(None, tmp_path)
    try:
        yield live.base
    finally:
        live.stop()
    # the default database went to the user data directory, created on first start
    assert list((tmp_path / "data").rglob("campfire.db"))


async def _client(url: str, frames: list[dict[str, Any]]) -> None:
    async with websockets.connect(url) as ws:
        while True:
            frame = json.loads(await ws.recv())
            frames.append(frame)
            if frame.get("outcome") is not None:
                return
            if frame["type"] == "error" and frame["code"] == "rate_limited":
                # a well-behaved client slows down and asks for the table again
                await asyncio.sleep(0.5)
                await ws.send(json.dumps({"type": "sync"}))
            elif frame.get("legal"):
                choice = frame["legal"][0]["notation"]
                await ws.send(json.dumps({"type": "action", "seq": frame["seq"], "action": choice}))


def test_a_short_game_against_a_real_server(server: str) -> None:
    body = {
        "game": "manitou",
        "players": 2,
        "seats": [{"kind": "reserved", "nickname": "Ann"}, {"kind": "bot", "level": "easy"}],
    }
    status, text = http("POST", f"{server}/api/tables", body)
    assert status == 201, text
    created = json.loads(text)
    table, token = created["table"]["id"], created["tokens"]["0"]
    assert http("POST", f"{server}/api/tables/{table}/start", {}, token)[0] == 200
    ws = server.replace("http://", "ws://")
    ann: list[dict[str, Any]] = []
    watcher: list[dict[str, Any]] = []

    async def both() -> None:
        await asyncio.wait_for(
            asyncio.gather(
                _client(f"{ws}/ws/tables/{table}?token={token}", ann),
                _client(f"{ws}/ws/tables/{table}", watcher),
            ),
            timeout=120,
        )

    try:
        asyncio.run(both())
    except TimeoutError:
        raise AssertionError(
            f"the game did not end; last frames: {ann[-3:]!r:.3000} {watcher[-1:]!r:.1000}"
        ) from None
    assert ann[-1]["outcome"] == watcher[-1]["outcome"]
    _, match = replay_text(http("GET", f"{server}/api/tables/{table}/record")[1])
    assert match.state.outcome().to_json() == ann[-1]["outcome"]
