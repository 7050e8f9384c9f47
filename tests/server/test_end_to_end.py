"""End to end: `campfire serve` in a subprocess on a free loopback port, real WebSocket clients."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from campfire.core.records import replay_text


def _http(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, str]:
    """One HTTP request with the standard library; the status and the body's text."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "campfire.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):  # wait for /healthz (no timing is asserted, only readiness)
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode() if proc.stderr else "exited")
            try:
                if _http("GET", f"{base}/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise AssertionError("the server did not become ready")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if proc.stderr:
            proc.stderr.close()
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
    status, text = _http("POST", f"{server}/api/tables", body)
    assert status == 201, text
    created = json.loads(text)
    table, token = created["table"]["id"], created["tokens"]["0"]
    assert _http("POST", f"{server}/api/tables/{table}/start", {}, token)[0] == 200
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
    _, match = replay_text(_http("GET", f"{server}/api/tables/{table}/record")[1])
    assert match.state.outcome().to_json() == ann[-1]["outcome"]
