"""Clocks at a table (asyncio timers in the server): time-out rules, bot takeover and return.

The time controls are a fraction of a second so that time-outs come quickly; the tests wait
for the frames a time-out sends and never assert a duration.
"""

from __future__ import annotations

import json
from typing import Any

from campfire.core.records import replay_text

from .helpers import Seat, app_client, new_table, seats, start_table


def _until(client: Seat, test: Any, limit: int = 400) -> dict[str, Any]:
    """Read frames until one passes ``test``; return it."""
    for _ in range(limit):
        frame = client.receive()
        if test(frame):
            return frame
    raise AssertionError(f"no such frame; last: {client.frames[-1]!r:.2000}")


def test_a_random_action_is_played_on_time_out_and_the_log_says_so(sqlite_url: str) -> None:
    clock = {"kind": "move", "seconds": 0.2, "on_timeout": "random"}
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2, start=False, clock=clock)
        with seats(client, table, tokens) as clients:
            start_table(client, table, tokens, clients)
            snap = clients[0].frames[-1]
            assert snap["clocks"]["control"] == {
                "kind": "move",
                "seconds": 0.2,
                "on_timeout": "random",
            }
            first = None
            for _ in range(3):  # nobody acts: three time-outs in a row
                frame = _until(clients[2], lambda f: f["type"] == "delta")
                assert frame["step"]["cause"] == "timeout"
                first = first or frame
            # a per-move clock runs afresh for whoever is to act next
            assert first is not None and first["clocks"]["running"]
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        assert {i: c for i, c in live.causes.items() if i < 3} == {
            0: "timeout",
            1: "timeout",
            2: "timeout",
        }
        logged = live.store.actions(table, 1)
        assert [e.cause for e in logged[:3]] == ["timeout"] * 3


def test_a_loss_on_time_ends_the_game_and_the_record_says_who_lost(db_url: str) -> None:
    clock = {"kind": "game", "seconds": 0.2, "increment": 0, "on_timeout": "loss"}
    with app_client(db_url) as client:
        table, tokens = new_table(client, "manitou", 2, start=False, clock=clock)
        with seats(client, table, tokens) as clients:
            start_table(client, table, tokens, clients)
            to_act = next(c for c in clients if c.last["legal"])
            frame = _until(clients[2], lambda f: f.get("outcome") is not None)
            assert frame["type"] == "snapshot" and frame["status"] == "finished"
            assert to_act.seat not in frame["outcome"]["winners"]
            assert frame["legal"] == []
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200, record.text
    rec, match = replay_text(record.text)
    assert not match.state.is_terminal()  # the rules' game did not end: it was lost on time
    assert rec.meta["forfeit"]["seat"] == to_act.seat
    assert rec.meta["forfeit"]["reason"] == "time"
    # a restart on the same database shows the same result
    with app_client(db_url) as client, client.websocket_connect(f"/ws/tables/{table}") as ws:
        again = Seat(ws, None).receive()
    assert again["outcome"] == frame["outcome"] and again["status"] == "finished"


def test_a_bot_takes_over_on_time_out_and_hands_the_seat_back(sqlite_url: str) -> None:
    clock = {"kind": "move", "seconds": 0.2, "on_timeout": "bot"}
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2, start=False, clock=clock)
        with seats(client, table, tokens) as clients:
            start_table(client, table, tokens, clients)
            slow = next(c for c in clients if c.last["legal"])
            taken = _until(
                slow, lambda f: f["type"] == "snapshot" and f["seats"][slow.seat]["takeover"]
            )
            assert taken["legal"] == []  # the bot plays the seat now
            moved = _until(slow, lambda f: f["type"] == "delta" and f["step"]["seat"] == slow.seat)
            assert moved["step"]["cause"] == "timeout-bot"
            slow.send({"type": "sync"})  # any message: the person is back
            back = _until(
                slow, lambda f: f["type"] == "snapshot" and not f["seats"][slow.seat]["takeover"]
            )
            assert back["seat"] == slow.seat


def test_a_bot_takes_over_the_seat_of_a_person_who_left_until_they_return(
    sqlite_url: str,
) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2, start=False, bot_after_leave=0)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Seat(ws, None)
            watcher.receive()
            with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as gone:
                Seat(gone, 0).receive()
                start_table(client, table, tokens, [watcher])
            # seat 1 never connected and seat 0 left: bots play both
            frame = _until(watcher, lambda f: f["type"] == "delta" and f["seq"] >= 4)
            assert frame["step"]["cause"] == "takeover"
            with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws0:
                back = Seat(ws0, 0).receive()
                assert back["type"] == "snapshot" and back["seats"][0]["takeover"] is False
                assert back["seats"][1]["takeover"] is True


def test_a_bad_clock_is_refused_with_what_is_allowed(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        body: dict[str, Any] = {"game": "tracker", "players": 2, "clock": {"kind": "hourglass"}}
        answer = client.post("/api/tables", content=json.dumps(body))
        assert answer.status_code == 400
        assert "none, move, game" in answer.json()["error"]["message"]
        body = {"game": "tracker", "players": 2, "bot_after_leave": -1}
        answer = client.post("/api/tables", content=json.dumps(body))
        assert answer.status_code == 400 and "bot_after_leave" in answer.json()["error"]["message"]
