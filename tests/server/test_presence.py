"""Presence: who is connected, measured by the server; a start with people missing."""

from __future__ import annotations

from typing import Any

from campfire.core import all_games

from .helpers import app_client, check_frame, new_table

GAME = min(all_games(), key=lambda g: g.name).name


def _frames_until(ws: Any, kind: str) -> dict[str, Any]:
    """The next frame of type ``kind`` (frames before it are validated and passed over)."""
    for _ in range(20):
        frame = check_frame(ws.receive_json())
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def test_presence_frames_follow_who_connects_and_who_leaves(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, GAME, 2, start=False)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        path = f"/ws/tables/{table}?presence=1&token="
        with client.websocket_connect(path + tokens[0]) as ann:
            snap = _frames_until(ann, "snapshot")
            # the friend has not come yet: not connected, and never was
            assert snap["seats"][1]["presence"] == {"connected": False, "away_ms": None}
            mine = _frames_until(ann, "presence")
            assert mine["seats"][0] == {"connected": True, "away_ms": None}
            with client.websocket_connect(path + tokens[1]) as bob:
                _frames_until(bob, "snapshot")
                came = _frames_until(ann, "presence")
                assert came["seats"][1] == {"connected": True, "away_ms": None}
            gone = _frames_until(ann, "presence")
            assert gone["seats"][1]["connected"] is False
            assert isinstance(gone["seats"][1]["away_ms"], int)
            live.away_since[1] -= 40  # forty seconds later, as the server's clock measures it
            assert live.presence()[1]["away_ms"] >= 40_000
        # a client that did not ask for presence frames gets none (the snapshot carries it)
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as quiet:
            snap = check_frame(quiet.receive_json())
            assert snap["seats"][0]["presence"]["connected"] is True
            quiet.send_json({"type": "ping"})
            assert quiet.receive_json()["type"] == "pong"


def test_a_start_with_someone_missing_is_refused_or_gives_their_seats_to_bots(
    sqlite_url: str,
) -> None:
    with app_client(sqlite_url) as client:
        seats = [
            {"kind": "reserved", "nickname": "Ann"},
            {"kind": "reserved", "nickname": "Cleo"},
            {"kind": "open"},
        ]
        table, tokens = new_table(client, GAME, 3, seats, start=False)
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        start = f"/api/tables/{table}/start"
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ann:
            check_frame(ann.receive_json())
            refused = client.post(start, json={"absent": "refuse"}, headers=auth)
            assert refused.status_code == 409
            assert refused.json()["error"]["code"] == "seats_open"
            client.post(f"/api/tables/{table}/join", json={"nickname": "Dan"})
            refused = client.post(start, json={"absent": "refuse"}, headers=auth)
            assert refused.status_code == 409
            error = refused.json()["error"]
            assert error["code"] == "people_away" and "Cleo" in error["message"]
            assert "Ann" not in error["message"]  # she is connected
            answer = client.post(start, json={"absent": "bots"}, headers=auth)
            assert answer.status_code == 200
            seats_now = answer.json()["table"]["seats"]
            # Cleo's and Dan's seats stay theirs, played by a bot until they come
            assert [s["kind"] for s in seats_now] == ["human", "human", "human"]
            assert [s["takeover"] for s in seats_now] == [False, True, True]


def test_a_start_with_bots_fills_the_open_seats(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        seats = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "open"}]
        table, tokens = new_table(client, GAME, 2, seats, start=False)
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        plain = client.post(f"/api/tables/{table}/start", headers=auth)
        assert plain.json()["error"]["code"] == "seats_open"  # the default waits for people
        answer = client.post(f"/api/tables/{table}/start", json={"absent": "bots"}, headers=auth)
        assert answer.status_code == 200
        assert [s["kind"] for s in answer.json()["table"]["seats"]] == ["human", "bot"]


def test_an_invited_friend_names_their_seat_before_the_start(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, GAME, 2, start=False)
        path = f"/api/tables/{table}/name"
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ann:
            check_frame(ann.receive_json())
            friend = {"Authorization": f"Bearer {tokens[1]}"}
            answer = client.post(path, json={"nickname": " Cleo "}, headers=friend)
            assert answer.status_code == 200 and answer.json()["seat"] == 1
            snap = check_frame(ann.receive_json())  # the others see the name at once
            assert snap["seats"][1]["nickname"] == "Cleo"
        assert client.post(path, json={"nickname": "X"}).status_code == 401
        bad = client.post(path, json={"nickname": ""}, headers=friend)
        assert bad.status_code == 400
