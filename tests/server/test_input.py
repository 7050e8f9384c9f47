"""What the server reads from the network is read strictly, and refused with a clear error.

One reader (``campfire.server.wire.decode``, the kernel's strict JSON reader) reads every lobby
body and socket message: a key twice in an object, ``NaN`` and ``Infinity`` are ``bad_json``
(a lenient parser keeps the last key: ``{"type": "ping", "type": "sync"}`` was a ``sync``). A
socket's address is checked too: ``since``, ``patch``, an empty ``token=``, a parameter given
twice.
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from campfire.core import CampfireError
from campfire.server.protocol import (
    CLOSE_BAD_REQUEST,
    CLOSE_BAD_TOKEN,
    ProtocolError,
    parse_client_message,
)

from .helpers import Seat, app_client, check_frame, new_table


def _error(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message
    return message


# ----- lobby bodies --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        # the last key won: a Dudab table
        (b'{"game": "tracker", "game": "dudab", "players": 2}', "'game' twice"),
        (
            b'{"game": "tracker", "seats": [{"kind": "open", "kind": "bot"}, {"kind": "open"}]}',
            "'kind' twice",
        ),
        (b'{"game": "tracker", "bot_after_leave": NaN}', "NaN"),
        (b'{"game": "tracker", "clock": {"kind": "move", "seconds": Infinity}}', "Infinity"),
        (b'{"game": "tracker", "clock": {"kind": "move", "seconds": -Infinity}}', "Infinity"),
    ],
)
def test_a_table_request_with_a_key_twice_or_nan_is_bad_json(
    sqlite_url: str, body: bytes, fragment: str
) -> None:
    with app_client(sqlite_url) as client:
        message = _error(client.post("/api/tables", content=body), 400, "bad_json")
        assert fragment in message and "request body" in message
        assert client.get("/api/tables").json() == {"tables": []}  # nothing was created


def test_a_join_with_a_key_twice_is_bad_json_in_the_requests_language(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, _ = new_table(client, "tracker", 2, seats=[{"kind": "open"}] * 2, start=False)
        body = b'{"nickname": "Ann", "nickname": "Bob"}'
        english = _error(client.post(f"/api/tables/{table}/join", content=body), 400, "bad_json")
        assert "'nickname' twice" in english
        hungarian = _error(
            client.post(f"/api/tables/{table}/join?lang=hu", content=body), 400, "bad_json"
        )
        assert hungarian != english and "'nickname'" in hungarian
        seats = client.get(f"/api/tables/{table}").json()["table"]["seats"]
        assert [s["kind"] for s in seats] == ["open", "open"]


# ----- socket messages -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "fragment"),
    [
        ('{"type": "ping", "type": "sync"}', "bad_json", "'type' twice"),  # was a sync
        ('{"type": "sync", "since": 1, "since": 2}', "bad_json", "'since' twice"),
        ('{"type": "action", "seq": NaN, "action": "peek 0"}', "bad_json", "NaN"),
        ('{"type": "action", "seq": 0, "action": Infinity}', "bad_json", "Infinity"),
        ('{"seq": 0, "action": "peek 0"}', "bad_message", '"type"'),  # was unknown_type
        ('{"type": 7}', "bad_message", '"type"'),
        ('{"type": null}', "bad_message", '"type"'),
        ('{"type": "dance"}', "unknown_type", "dance"),
    ],
)
def test_socket_messages_are_read_strictly(
    sqlite_url: str, text: str, code: str, fragment: str
) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            me = Seat(ws, 0)
            me.receive()
            ws.send_text(text)
            frame = me.receive()
            assert frame["type"] == "error" and frame["code"] == code, frame
            assert fragment in frame["message"], frame
            me.send({"type": "ping"})  # the connection goes on
            assert me.receive()["type"] == "pong"


def test_one_reader_for_the_lobby_and_the_socket() -> None:
    """Both read through ``wire.decode``: the same refusals, each with its own code."""
    from campfire.server.wire import decode

    with pytest.raises(ProtocolError) as socket:
        parse_client_message('{"type": "ping", "type": "ping"}')
    assert socket.value.code == "bad_json"
    with pytest.raises(CampfireError, match="twice"):
        decode('{"a": {"b": 1, "b": 1}}', "the body", CampfireError)
    assert decode(b'\xef\xbb\xbf{"a": 1}', "the body", CampfireError) == {"a": 1}


def test_an_uploaded_record_with_a_key_twice_is_a_bad_record(sqlite_url: str) -> None:
    """A record file is read by the same reader: its faults, JSON's too, are ``bad_record``."""
    with app_client(sqlite_url) as client:
        body = b'{"format": 1, "format": 1}'
        assert "'format' twice" in _error(
            client.post("/api/replay", content=body), 400, "bad_record"
        )


def test_a_binary_frame_is_a_bad_message_and_the_connection_goes_on(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            me = Seat(ws, 0)
            me.receive()
            ws.send_bytes(b'{"type": "ping"}')  # was answered as a ping
            frame = me.receive()
            assert frame["type"] == "error" and frame["code"] == "bad_message", frame
            assert "text frame" in frame["message"]
            me.send({"type": "ping"})
            assert me.receive()["type"] == "pong"


# ----- the socket's address ------------------------------------------------------------------


def _refused(client: TestClient, path: str) -> tuple[dict[str, Any], int]:
    """The error frame and the close code a connection to ``path`` gets."""
    with client.websocket_connect(path) as ws:
        frame = check_frame(ws.receive_json())
        assert frame["type"] == "error", frame
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
    return frame, info.value.code


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        ("since=abc", "since"),
        ("since=-1", "since"),
        ("since=1.5", "since"),
        ("since=", "since"),
        ("since=%D9%A1", "since"),  # an Arabic-Indic digit one
        ("since=1234567890", "since"),  # more than 9 digits
        ("since=1&since=2", "at most once"),
        ("patch=yes", "patch"),
        ("patch=1&patch=0", "at most once"),
        ("view=yes", "view"),
        ("view=1&view=0", "at most once"),
    ],
)
def test_a_bad_socket_parameter_is_refused_with_bad_request(
    sqlite_url: str, query: str, fragment: str
) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        frame, close = _refused(client, f"/ws/tables/{table}?token={tokens[0]}&{query}")
        assert frame["code"] == "bad_request" and fragment in frame["message"], frame
        assert close == CLOSE_BAD_REQUEST
        # a spectator too, and in the connection's language
        hungarian, close = _refused(client, f"/ws/tables/{table}?{query}&lang=hu")
        assert hungarian["code"] == "bad_request" and close == CLOSE_BAD_REQUEST
        assert hungarian["message"] != frame["message"]


def test_an_empty_or_repeated_token_is_refused_not_a_spectator(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        frame, close = _refused(client, f"/ws/tables/{table}?token=")
        assert frame["code"] == "bad_token" and close == CLOSE_BAD_TOKEN
        frame, close = _refused(client, f"/ws/tables/{table}?token={tokens[0]}&token={tokens[1]}")
        assert frame["code"] == "bad_request" and close == CLOSE_BAD_REQUEST
        # a spectator connects without a token; a since past the game's end lists nothing
        with client.websocket_connect(f"/ws/tables/{table}?since=999999999&patch=0") as ws:
            snapshot = Seat(ws, None).receive()
            assert snapshot["seat"] is None and snapshot["missed"] == []


# ----- nicknames -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "nickname",
    [
        "",
        "   ",
        "x" * 33,
        "Ann\u202eevil",  # a right-to-left override: reorders what follows
        "\u2066Ann\u2069",  # isolates
        "Ann\u200f",  # a right-to-left mark
        "An\u200bn",  # a zero-width space: looks like "Ann"
        "An\u200dn",  # a zero-width joiner
        "\ufeffAnn",  # a zero-width no-break space
        "Ann\u00a0Lee",  # a no-break space
        "Ann\nLee",
        7,
    ],
)
def test_a_nickname_is_1_to_32_printable_characters(sqlite_url: str, nickname: Any) -> None:
    """docs/protocol.md, "Nicknames": no bidirectional or zero-width marks."""
    with app_client(sqlite_url) as client:
        table, _ = new_table(client, "tracker", 2, seats=[{"kind": "open"}] * 2, start=False)
        answer = client.post(f"/api/tables/{table}/join", json={"nickname": nickname})
        assert "nickname" in _error(answer, 400, "bad_request")
        longest = "Zoë Ó'Neill-Ábel" + "x" * 16  # 32 characters, spaces around are trimmed
        ok = client.post(f"/api/tables/{table}/join", json={"nickname": f"  {longest} "})
        assert ok.status_code == 201 and ok.json()["table"]["seats"][0]["nickname"] == longest
