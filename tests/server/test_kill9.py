"""``kill -9`` mid-game: a real server process is killed, started again on the same database,
the clients reconnect with their seat tokens from the last sequence number each saw, the game
is finished, and its record equals an uninterrupted replay of the same seed and choices.

Against SQLite (WAL) and PostgreSQL both.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import websockets

import campfire
from campfire.core import Match
from campfire.core.records import replay_text

from .helpers import check_frame
from .live_server import LiveServer, http

GAME, PLAYERS, HALF = "tracker", 2, 20


def _choice(frame: dict[str, Any]) -> str:
    """The deterministic choice both the test and the uninterrupted replay make."""
    legal = frame["legal"]
    notation: str = legal[frame["seq"] % len(legal)]["notation"]
    return notation


class Client:
    """One seat's WebSocket connection and the frames it read."""

    def __init__(self, ws: Any, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.last: dict[str, Any] = {}

    async def read(self) -> dict[str, Any]:
        frame = check_frame(json.loads(await asyncio.wait_for(self.ws.recv(), 30)))
        assert frame["type"] in ("snapshot", "delta"), frame
        self.last = frame
        return frame


async def _step(clients: list[Client], readers: list[Client] | None = None) -> None:
    """The seat to act plays its choice; ``readers`` (default: all) read the delta."""
    mover = next(c for c in clients if c.last["legal"])
    seq = mover.last["seq"]
    await mover.ws.send(json.dumps({"type": "action", "seq": seq, "action": _choice(mover.last)}))
    for c in readers if readers is not None else clients:
        frame = await c.read()
        assert frame["type"] == "delta" and frame["seq"] == seq + 1, frame


async def _connect(
    server: LiveServer, table: int, tokens: dict[int, str], since: dict[int, int]
) -> list[Client]:
    clients = []
    for seat, token in sorted(tokens.items()):
        query = f"token={token}&view=1" + (f"&since={since[seat]}" if seat in since else "")
        ws = await websockets.connect(f"{server.ws}/ws/tables/{table}?{query}")
        client = Client(ws, seat)
        assert (await client.read())["type"] == "snapshot"
        clients.append(client)
    return clients


async def _first_half(server: LiveServer, table: int, tokens: dict[int, str]) -> dict[int, Any]:
    clients = await _connect(server, table, tokens, {})
    for _ in range(HALF):
        await _step(clients)
    # one more step that only its mover reads: the other seat's last seen stays at HALF
    mover = next(c for c in clients if c.last["legal"])
    await _step(clients, readers=[mover])
    return {c.seat: c.last for c in clients}  # the connections die with the server


async def _second_half(
    server: LiveServer, table: int, tokens: dict[int, str], seen: dict[int, Any]
) -> list[dict[str, Any]]:
    clients = await _connect(server, table, tokens, {s: f["seq"] for s, f in seen.items()})
    snapshots = [c.last for c in clients]
    for _ in range(5000):
        if clients[0].last["outcome"] is not None:
            break
        await _step(clients)
    for c in clients:
        await c.ws.close()
    return snapshots


def _uninterrupted(seed: int) -> Match:
    match = Match(campfire.get_game(GAME), PLAYERS, seed=seed)
    while not match.state.is_terminal():
        seat = match.state.seats_to_act()[0]
        legal = match.state.legal_actions(seat)
        match.play(seat, legal[len(match.actions) % len(legal)])
    return match


def test_kill_9_mid_game_loses_nothing_and_the_game_replays_exactly(
    db_url: str, tmp_path: Path
) -> None:
    server = LiveServer(db_url, tmp_path)
    try:
        seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(PLAYERS)]
        status, text = http("POST", f"{server.base}/api/tables", {"game": GAME, "seats": seats})
        assert status == 201, text
        created = json.loads(text)
        table = created["table"]["id"]
        tokens = {int(k): v for k, v in created["tokens"].items()}
        assert http("POST", f"{server.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200
        seen = asyncio.run(_first_half(server, table, tokens))
    finally:
        server.kill()
    assert sorted(f["seq"] for f in seen.values()) == [HALF, HALF + 1]

    server = LiveServer(db_url, tmp_path)  # a new process on the same database
    try:
        snapshots = asyncio.run(_second_half(server, table, tokens, seen))
        status, record = http("GET", f"{server.base}/api/tables/{table}/record")
        assert status == 200, record
    finally:
        server.stop()

    for snap in snapshots:
        # nothing acknowledged before the kill was lost; each seat gets exactly what it missed
        assert snap["seq"] == HALF + 1
        assert [m["seq"] for m in snap["missed"]] == list(
            range(seen[snap["seat"]]["seq"] + 1, HALF + 2)
        )
        if seen[snap["seat"]]["seq"] == HALF + 1:
            assert snap["view"] == seen[snap["seat"]]["view"]
    rec, match = replay_text(record)
    assert rec.seed is not None
    expected = _uninterrupted(rec.seed)
    assert rec.actions == [(s, str(a)) for s, a in expected.actions]
    assert match.state.outcome() == expected.state.outcome()
