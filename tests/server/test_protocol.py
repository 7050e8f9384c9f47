"""The lobby over HTTP and the table protocol over WebSocket, with Starlette's test client."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from starlette.websockets import WebSocketDisconnect

import campfire
from campfire.core.records import replay_text
from campfire.server.app import RateLimit
from campfire.server.lobby import LOBBY_SCHEMAS
from campfire.server.protocol import (
    CLIENT_SCHEMAS,
    CLOSE_BAD_TOKEN,
    CLOSE_FLOODING,
    CLOSE_TOO_LARGE,
    CLOSE_UNKNOWN_TABLE,
    MAX_MESSAGE_CHARS,
    PROTOCOL_VERSION,
    SERVER_SCHEMAS,
)

from .helpers import LOBBY_VALIDATORS, Seat, app_client, check_frame, new_table, play_out, seats


def _error(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    message: str = body["error"]["message"]
    assert message
    return message


@pytest.mark.parametrize("schema", [*CLIENT_SCHEMAS.values(), *SERVER_SCHEMAS.values()])
def test_every_schema_is_a_valid_json_schema(schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)


def test_healthz_and_the_games(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        games = client.get("/api/games").json()
        assert {g["name"] for g in games} == {g.name for g in campfire.all_games()}
        assert {"apache", "dudab", "manitou", "tracker"} <= {g["name"] for g in games}


def test_lobby_create_join_leave_start_and_list(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        answer = client.post(
            "/api/tables",
            json={
                "game": "tracker",
                "players": 3,
                "seats": [{"kind": "open"}, {"kind": "bot", "level": "easy"}, {"kind": "open"}],
            },
        )
        assert answer.status_code == 201
        table = answer.json()["table"]["id"]
        assert answer.json()["tokens"] == {}
        # no game yet: no record (404; it named "game -1")
        unplayed = _error(client.get(f"/api/tables/{table}/record"), 404, "no_record")
        assert "game 1" in unplayed and "-1" not in unplayed
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table] and listed[0]["status"] == "open"
        ann = client.post(f"/api/tables/{table}/join", json={"nickname": "Ann"}).json()
        assert ann["seat"] == 0 and len(ann["token"]) > 20
        # the token is never stored or shown: only its hash, and not in the lobby
        assert ann["token"] not in json.dumps(client.get(f"/api/tables/{table}").json())
        _error(
            client.post(
                f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {ann['token']}"}
            ),
            409,
            "seats_open",
        )
        _error(
            client.post(f"/api/tables/{table}/join", json={"nickname": "Bob", "seat": 1}),
            409,
            "seat_taken",
        )
        bob = client.post(f"/api/tables/{table}/join", json={"nickname": "Bob"}).json()
        assert bob["seat"] == 2
        _error(client.post(f"/api/tables/{table}/join", json={"nickname": "Cy"}), 409, "table_full")
        left = client.post(
            f"/api/tables/{table}/leave", headers={"Authorization": f"Bearer {bob['token']}"}
        )
        assert left.json()["seat"] == 2
        _error(
            client.post(
                f"/api/tables/{table}/leave", headers={"Authorization": f"Bearer {bob['token']}"}
            ),
            401,
            "bad_token",
        )
        bob = client.post(f"/api/tables/{table}/join", json={"nickname": "Bob"}).json()
        _error(client.post(f"/api/tables/{table}/start"), 401, "bad_token")
        started = client.post(
            f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {bob['token']}"}
        )
        assert started.json()["table"]["status"] == "running"
        _error(client.post(f"/api/tables/{table}/join", json={"nickname": "Di"}), 409, "not_open")
        _error(
            client.post(
                f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {bob['token']}"}
            ),
            409,
            "not_open",
        )
        _error(
            client.post(
                f"/api/tables/{table}/rematch", headers={"Authorization": f"Bearer {bob['token']}"}
            ),
            409,
            "not_finished",
        )
        # the game being played has no record yet: 409, as its replay (404: no such game)
        _error(client.get(f"/api/tables/{table}/record"), 409, "no_record")
        _error(client.get(f"/api/tables/{table}/record?game=1"), 409, "no_record")
        _error(client.get(f"/api/tables/{table}/replay"), 409, "no_record")
        _error(client.get(f"/api/tables/{table}/record?game=2"), 404, "no_record")
        _error(client.get(f"/api/tables/{table}/record?game=0"), 404, "no_record")
        assert client.get("/api/tables?status=running").json()["tables"][0]["id"] == table


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "tracker", "players": 9}, "2–6"),
        ({"game": "tracker", "players": True}, "2–6"),
        ({"game": "tracker", "options": {"peek_count": 99}}, "peek_count"),
        ({"game": "tracker", "seats": [{"kind": "open"}]}, "list of 2 seats"),
        (
            {"game": "tracker", "seats": [{"kind": "bot", "level": "god"}, {"kind": "open"}]},
            "level",
        ),
        ({"game": "tracker", "seats": [{"kind": "reserved"}, {"kind": "open"}]}, "nickname"),
        ({"game": "tracker", "seats": [{"kind": "vip"}, {"kind": "open"}]}, "a seat is"),
        ({"game": "tracker", "colour": "red"}, "a new table takes"),
    ],
)
def test_bad_table_requests_say_what_is_allowed(
    sqlite_url: str, body: dict[str, Any], fragment: str
) -> None:
    with app_client(sqlite_url) as client:
        assert fragment in _error(client.post("/api/tables", json=body), 400, "bad_request")


def test_bad_bodies_ids_and_sizes(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        _error(client.post("/api/tables", content=b"{nope"), 400, "bad_json")
        _error(client.post("/api/tables", content=b"[1]"), 400, "bad_json")
        _error(client.post("/api/tables", content=b"{" + b" " * 70_000 + b"}"), 413, "too_large")
        _error(client.get("/api/tables/42"), 404, "unknown_table")
        _error(client.get("/api/tables/x1"), 404, "unknown_table")
        _error(client.get("/api/tables?status=lost"), 400, "bad_request")


def test_a_game_over_the_socket_snapshot_deltas_record_and_rematch(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as clients:
            first = clients[0].frames[0]
            assert first["version"] == PROTOCOL_VERSION and first["seq"] == 0
            assert first["status"] == "running" and first["seat"] == 0
            assert clients[2].frames[0]["seat"] is None and clients[2].frames[0]["legal"] == []
            # by index as well as by notation
            steps = play_out(
                clients, lambda to_act: (to_act[0], to_act[0].last["legal"][-1]["index"])
            )
            final = clients[0].last
            assert final["outcome"] is not None and final["seq"] == steps
            assert final["display"]["over"] is True
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        _, match = replay_text(record.text)
        assert match.state.outcome().to_json() == final["outcome"]
        assert [p.name for p in match.players] == ["P0", "P1"]
        proposed = client.post(
            f"/api/tables/{table}/rematch", headers={"Authorization": f"Bearer {tokens[1]}"}
        )  # a proposal: the next game starts once the other person accepts
        assert proposed.json()["table"]["game_number"] == 1
        assert proposed.json()["rematch"]["accepted"] == [1]
        answer = client.post(
            f"/api/tables/{table}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert answer.json()["table"]["game_number"] == 2 and answer.json()["rematch"] is None
        with seats(client, table, tokens) as clients:
            assert clients[0].frames[0]["game_number"] == 2 and clients[0].frames[0]["seq"] == 0
        assert client.get(f"/api/tables/{table}/record?game=1").text == record.text


def test_stale_illegal_spectator_and_wrong_seat_actions_change_nothing(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        with seats(client, table, tokens) as (a, b, watcher):
            mover = a if a.last["legal"] else b
            other = b if mover is a else a
            before = live.table.state.to_position()
            listed = {a["index"] for a in mover.last["legal"]}
            unlisted = next(i for i in range(1000) if i not in listed)  # in the index space
            cases: list[tuple[Seat, dict[str, Any], str]] = [
                (
                    mover,
                    {"type": "action", "seq": 5, "action": mover.last["legal"][0]["notation"]},
                    "stale",
                ),
                (mover, {"type": "action", "seq": 0, "action": "fly away"}, "illegal"),
                (mover, {"type": "action", "seq": 0, "action": 10**9}, "illegal"),
                (mover, {"type": "action", "seq": 0, "action": unlisted}, "illegal"),
                (
                    other,
                    {"type": "action", "seq": 0, "action": mover.last["legal"][0]["notation"]},
                    "illegal",
                ),
                (
                    mover,
                    {"type": "action", "seq": 0, "seat": other.seat, "action": "peek 0"},
                    "wrong_seat",
                ),
                (watcher, {"type": "action", "seq": 0, "action": "peek 0"}, "not_seated"),
            ]
            for client_, message, code in cases:
                client_.send(message)
                frame = client_.receive()
                assert frame["type"] == "error" and frame["code"] == code, (message, frame)
                assert frame["message"]
            assert live.table.state.to_position() == before and live.seq == 0
            mover.act(mover.last["legal"][0]["notation"])
            assert all(c.receive()["type"] == "delta" for c in (a, b, watcher))


def test_reconnection_resumes_from_the_last_sequence_number_seen(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens, spectator=False) as (a, b):
            for _ in range(3):
                mover = a if a.last["legal"] else b
                mover.act(mover.last["legal"][0]["notation"])
                a.receive()
                b.receive()
            seen = a.last["seq"]
            deltas = [f for f in a.frames if f["type"] == "delta"]
        # three more steps while seat 0 is away
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[1]}") as ws:
            b = Seat(ws, 1)
            b.receive()
            live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
            for _ in range(3):
                if not b.last["legal"]:
                    break
                b.act(b.last["legal"][0]["notation"])
                b.receive()
        with client.websocket_connect(
            f"/ws/tables/{table}?token={tokens[0]}&since={seen - 1}"
        ) as ws:
            back = Seat(ws, 0).receive()
        assert back["type"] == "snapshot" and back["seq"] == live.seq
        missed = back["missed"]
        assert [m["seq"] for m in missed] == list(range(seen, live.seq + 1))
        assert missed[0]["events"] == deltas[-1]["step"]["events"]


def test_a_forged_token_and_an_unknown_table_are_closed(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, _ = new_table(client, "tracker", 2)
        for path, code, close in [
            (f"/ws/tables/{table}?token=forged", "bad_token", CLOSE_BAD_TOKEN),
            ("/ws/tables/999", "unknown_table", CLOSE_UNKNOWN_TABLE),
            ("/ws/tables/abc", "unknown_table", CLOSE_UNKNOWN_TABLE),
        ]:
            with client.websocket_connect(path) as ws:
                frame = check_frame(ws.receive_json())
                assert frame["code"] == code
                with pytest.raises(WebSocketDisconnect) as info:
                    ws.receive_json()
                assert info.value.code == close


def test_malformed_unknown_and_oversized_messages(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            me = Seat(ws, 0)
            me.receive()
            for raw, code in [
                ("{nope", "bad_json"),
                ("[1, 2]", "bad_json"),
                ('{"type": "dance"}', "unknown_type"),
                ('{"type": "action", "seq": -1, "action": "peek 0"}', "bad_message"),
                ('{"type": "action", "seq": 0, "action": ""}', "bad_message"),
                ('{"type": "action", "seq": 0, "action": 1.5}', "bad_message"),
                ('{"type": "action", "seq": 0}', "bad_message"),
                ('{"type": "ping", "extra": 1}', "bad_message"),
            ]:
                ws.send_text(raw)
                frame = me.receive()
                assert frame["type"] == "error" and frame["code"] == code, raw
            ws.send_bytes(b'{"type": "ping"}')  # a binary frame (test_input.py)
            assert me.receive()["code"] == "bad_message"
            ws.send_text(json.dumps({"type": "sync"}))
            assert me.receive()["type"] == "snapshot"
            ws.send_text("x" * (MAX_MESSAGE_CHARS + 1))
            assert me.receive()["code"] == "too_large"
            with pytest.raises(WebSocketDisconnect) as info:
                ws.receive_json()
            assert info.value.code == CLOSE_TOO_LARGE


def test_flooding_is_refused_then_closed(sqlite_url: str) -> None:
    now = [0.0]
    with app_client(sqlite_url, rate=1.0, burst=3, clock=lambda: now[0]) as client:
        table, tokens = new_table(client, "tracker", 2)
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            me = Seat(ws, 0)
            me.receive()
            codes = []
            with pytest.raises(WebSocketDisconnect) as info:
                for _ in range(20):
                    me.send({"type": "ping"})
                    codes.append(me.receive().get("code", "pong"))
            assert info.value.code == CLOSE_FLOODING
            assert codes[:3] == ["pong"] * 3 and "rate_limited" in codes


def test_the_rate_limit_refills_with_time() -> None:
    now = [0.0]
    bucket = RateLimit(2.0, 2, clock=lambda: now[0])
    assert [bucket.take() for _ in range(3)] == ["ok", "ok", "refuse"]
    now[0] = 1.0
    assert bucket.take() == "ok"


def test_bots_play_through_the_same_path(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(
            client,
            "dudab",
            3,
            seats=[
                {"kind": "reserved", "nickname": "Ann"},
                {"kind": "bot", "level": "easy"},
                {"kind": "bot", "level": "medium"},
            ],
        )
        with seats(client, table, tokens) as (ann, watcher):
            while ann.last["outcome"] is None:
                if ann.last["legal"]:
                    ann.act(ann.last["legal"][0]["notation"])
                frame = ann.receive()
                assert frame["type"] == "delta", frame
                watcher.receive()
            bot_steps = [f["step"]["seat"] for f in watcher.frames if f["type"] == "delta"]
        assert {1, 2} <= set(bot_steps)
        _, match = replay_text(client.get(f"/api/tables/{table}/record").text)
        assert [p.agent for p in match.players][1:] == ["heuristic:noise=0.3", "heuristic"]


def test_every_lobby_answer_follows_its_schema_and_game_number_counts_games(
    sqlite_url: str,
) -> None:
    """Each route's answer against ``LOBBY_SCHEMAS`` (``app_client`` checks every answer too)."""
    seen: list[str] = []

    def check(answer: Any, name: str, status: int = 200) -> dict[str, Any]:
        assert answer.status_code == status, answer.text
        LOBBY_VALIDATORS[name].validate(answer.json())
        seen.append(name)
        body: dict[str, Any] = answer.json()
        return body

    with app_client(sqlite_url) as client:
        check(client.get("/healthz"), "health")
        check(client.get("/api/games?lang=hu"), "games")
        body = {
            "game": "tracker",
            "players": 3,
            "seats": [
                {"kind": "reserved", "nickname": "Ann"},
                {"kind": "open"},
                {"kind": "bot", "level": "hard"},
            ],
            "clock": {"kind": "game", "seconds": 600, "increment": 5, "on_timeout": "bot"},
            "bot_after_leave": 10,
            "takeover_level": "medium",
        }
        LOBBY_VALIDATORS["create_table"].validate(body)
        created = check(client.post("/api/tables", json=body), "table_created", 201)
        table, ann = created["table"], created["tokens"]["0"]
        assert (table["status"], table["game_number"], table["seq"]) == ("open", 0, 0)
        auth = {"Authorization": f"Bearer {ann}"}
        path = f"/api/tables/{table['id']}"
        join = {"nickname": "  Bob  ", "seat": 1}
        LOBBY_VALIDATORS["join_table"].validate(join)
        bob = check(client.post(f"{path}/join", json=join), "seat_joined", 201)
        assert bob["table"]["seats"][1]["nickname"] == "Bob"  # trimmed
        check(
            client.post(f"{path}/leave", headers={"Authorization": f"Bearer {bob['token']}"}),
            "seat_left",
        )
        check(client.post(f"{path}/join", json={"nickname": "Cy"}), "seat_joined", 201)
        name = {"nickname": "Anna"}
        LOBBY_VALIDATORS["name_seat"].validate(name)
        named = check(client.post(f"{path}/name", json=name, headers=auth), "seat_named")
        assert named["table"]["seats"][0]["nickname"] == "Anna"
        LOBBY_VALIDATORS["start_table"].validate({"absent": "wait"})
        started = check(client.post(f"{path}/start", headers=auth), "one_table")["table"]
        assert (started["status"], started["game_number"], started["seq"]) == ("running", 1, 0)
        check(client.get(path), "one_table")
        listed = check(client.get("/api/tables?status=open,running,finished"), "tables")
        assert [t["id"] for t in listed["tables"]] == [table["id"]]
        for answer, status in [
            (client.post("/api/tables", content=b'{"game": "tracker", "game": "dudab"}'), 400),
            (client.post(f"{path}/rematch", headers=auth), 409),
            (client.get(f"{path}/record"), 409),
            (client.post(f"{path}/start"), 401),
            (client.get("/api/tables/77"), 404),
            (client.post("/api/tables", content=b"[" * 70_000), 413),
        ]:
            check(answer, "http_error", status)
    requests = {"create_table", "join_table", "name_seat", "start_table", "rematch_request"}
    LOBBY_VALIDATORS["rematch_request"].validate({"answer": "decline"})
    # a rematch's answer needs a finished game: tests/server/test_rematch.py gets them (its
    # app_client checks every answer against its schema); so do the accounts' answers and
    # bodies, in tests/server/test_accounts.py, and the ratings' and players' pages' answers,
    # in tests/server/test_ratings.py; a review's progress needs a finished game too
    # (tests/server/test_hints_reviews.py)
    accounts = {"account", "sign_in", "sign_up", "signed_up", "change_password", "delete_account"}
    accounts |= {"player_profile", "my_games", "leaderboard"}
    # and moderation's and quick match's in test_moderation.py and test_quick.py
    accounts |= {"report_request", "reported", "block_request", "unblock_request", "blocks"}
    accounts |= {"quick_request", "quick_joined", "quick_state", "quick_left"}
    # and the "your turn" list's, in tests/server/test_turn_based.py
    turns = {"turns_request", "turns"}
    later = {"table", "rematch_answer", "review_progress"}
    assert set(seen) == set(LOBBY_SCHEMAS) - {*later, *requests, *accounts, *turns}


def test_frames_hold_the_raw_view_only_for_a_client_that_asks(sqlite_url: str) -> None:
    # protocol version 4: the display model is what a client draws; view=1 asks for the view
    assert PROTOCOL_VERSION == 4
    with app_client(sqlite_url, seed=5) as client:
        table, tokens = new_table(client, "tracker", 2)
        with (
            seats(client, table, tokens, views=False) as plain,
            seats(client, table, tokens, views=True) as asking,
        ):
            for c in [*plain, *asking]:
                assert c.last["version"] == PROTOCOL_VERSION
            mover = next(c for c in plain if c.last["legal"])
            mover.act(mover.last["legal"][0]["notation"])
            for c in [*plain, *asking]:
                assert c.receive()["type"] == "delta"
            for p, a in zip(plain, asking, strict=True):
                for frame in (*p.frames, *p.raw):
                    assert "view" not in frame
                for frame in a.frames:
                    assert isinstance(frame["view"], dict)
                assert p.last == {k: v for k, v in a.last.items() if k != "view"}
                # every step carries its display: what changed, and the reveals of this seat
                shown = p.last["step"]["display"]
                assert shown["changed"] and all(r["seat"] == p.seat for r in shown["reveals"])
            peeker = next(c for c in plain if c.seat == mover.seat)
            reveals = peeker.last["step"]["display"]["reveals"]
            assert [r["card"]["id"] for r in reveals] == [f"pos:{reveals[0]['card']['id'][4:]}"]
            assert reveals[0]["card"]["face_up"] and reveals[0]["card"]["icon"]
