"""Random and mutated messages: each gets an error frame or a close; the table never changes."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from campfire.server.protocol import CLOSE_TOO_LARGE

from .helpers import Seat, app_client, new_table

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(["type", "seq", "action", "seat", "since", "extra"])
VALUES: st.SearchStrategy[Any] = (
    st.sampled_from(
        [
            "action",
            "ping",
            "sync",
            "Action",
            "",
            None,
            -1,
            0,
            3,
            2**70,
            "peek 0",
            "peek -1",
            "done",
            1.5,
            True,
            [],
            {},
        ]
    )
    | JSON
)


@st.composite
def messages(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:  # raw text, often not JSON at all
        return draw(st.text(max_size=200))
    if kind == 1:  # any JSON value
        return json.dumps(draw(JSON))
    # a real action with mutated fields: wrong sequence numbers, seats, notation, extra keys
    message: dict[str, Any] = {"type": "action", "seq": draw(st.integers(1, 5)), "action": "peek 0"}
    for key, value in draw(st.dictionaries(FIELDS, VALUES, max_size=3)).items():
        message[key] = value
    return json.dumps(message)


def test_random_and_mutated_messages_change_nothing(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        before = live.table.state.to_position()
        idle = 1 - live.table.state.current_seat()
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[idle]}") as ws:
            me = Seat(ws, idle)
            me.receive()
            assert me.last["legal"] == []  # this seat is not to act: no action of its is legal

            @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
            @given(messages())
            def run(text: str) -> None:
                ws.send_text(text)
                frame = me.receive()
                parsed: Any = None
                with contextlib.suppress(ValueError):
                    parsed = json.loads(text)
                if isinstance(parsed, dict) and parsed == {"type": "ping"}:
                    assert frame["type"] == "pong"
                elif (
                    isinstance(parsed, dict)
                    and parsed.get("type") == "sync"
                    and frame["type"] == "snapshot"
                ):
                    pass
                else:
                    assert frame["type"] == "error" and frame["message"], (text, frame)
                assert live.table.state.to_position() == before and live.seq == 0

            run()
        # and the server still serves
        assert client.get("/healthz").status_code == 200


def test_an_oversized_frame_closes_the_connection_and_nothing_else(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            Seat(ws, 0).receive()
            ws.send_text(
                json.dumps({"type": "action", "seq": 0, "action": "peek 0" + " " * 10_000})
            )
            assert ws.receive_json()["code"] == "too_large"
            try:
                ws.receive_json()
            except WebSocketDisconnect as exc:
                assert exc.code == CLOSE_TOO_LARGE
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
            assert Seat(ws, 0).receive()["seq"] == 0
