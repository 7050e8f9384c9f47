"""Rematch proposals over the lobby and the socket: proposed, accepted by every person,
declined, expired, cancelled by a person who leaves; a person alone starts at once."""

from __future__ import annotations

import time
from typing import Any

import pytest

import campfire.server.lobby_ops as lobby_ops

from .helpers import Seat, app_client, new_table, play_out, seats


def _post(client: Any, table: int, token: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(
        f"/api/tables/{table}/rematch",
        headers={"Authorization": f"Bearer {token}"},
        json=body if body is not None else {},
    )


def _finish(clients: list[Seat]) -> None:
    play_out(clients, lambda to_act: (to_act[0], to_act[0].last["legal"][-1]["index"]))


def _rematch_frame(seat: Seat) -> dict[str, Any]:
    while True:
        frame = seat.receive()
        if frame["type"] == "rematch":
            return frame


def test_a_rematch_starts_when_every_person_accepted(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as clients:
            _finish(clients)
            proposed = _post(client, table, tokens[0])
            assert proposed.status_code == 200, proposed.text
            assert proposed.json()["table"]["status"] == "finished"
            assert proposed.json()["rematch"]["proposer"] == 0
            for seat in clients:  # everyone hears of it, the spectator too
                frame = _rematch_frame(seat)
                assert frame["state"] == "proposed" and frame["accepted"] == [0]
                assert frame["people"] == [0, 1] and frame["expires_ms"] > 0
        with seats(client, table, tokens) as clients:  # a page opened meanwhile shows it
            assert clients[1].frames[0]["rematch"]["accepted"] == [0]
            accepted = _post(client, table, tokens[1], {"answer": "accept"})
            assert accepted.json()["table"]["game_number"] == 2
            assert accepted.json()["rematch"] is None
            snapshot = clients[0].receive()
            assert snapshot["type"] == "snapshot" and snapshot["game_number"] == 2
            assert snapshot["rematch"] is None and snapshot["status"] == "running"


def test_a_decline_cancels_the_proposal_and_says_who(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as clients:
            _finish(clients)
            _post(client, table, tokens[0])
            _rematch_frame(clients[1])
            declined = _post(client, table, tokens[1], {"answer": "decline"})
            assert declined.status_code == 200 and declined.json()["rematch"] is None
            frame = _rematch_frame(clients[1])
            assert frame["state"] == "cancelled" and frame["reason"] == "declined"
            assert frame["by"] == 1
            assert client.get(f"/api/tables/{table}").json()["table"]["game_number"] == 1
            again = _post(client, table, tokens[1], {"answer": "decline"})
            assert again.status_code == 409 and again.json()["error"]["code"] == "no_proposal"
            bad = _post(client, table, tokens[1], {"answer": "maybe"})
            assert bad.status_code == 400 and "decline" in bad.json()["error"]["message"]


def test_a_proposal_expires(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_ops, "PROPOSAL_SECONDS", 0.3)
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as clients:
            _finish(clients)
            _post(client, table, tokens[0])
            assert _rematch_frame(clients[0])["state"] == "proposed"
            frame = _rematch_frame(clients[0])  # (the server's timer)
            assert frame["state"] == "cancelled" and frame["reason"] == "expired"
            assert frame["by"] is None
            live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
            assert live.rematch is None and live.number == 1


def test_a_person_who_leaves_cancels_the_proposal(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_ops, "LEFT_GRACE_SECONDS", 0.2)
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as clients:
            _finish(clients)
            _post(client, table, tokens[0])
            _rematch_frame(clients[0])
        with seats(client, table, {0: tokens[0]}, spectator=False) as (ann,):
            deadline = time.monotonic() + 10
            frame: dict[str, Any] = {}
            while frame.get("state") != "cancelled" and time.monotonic() < deadline:
                frame = _rematch_frame(ann)
            assert frame["reason"] == "left" and frame["by"] == 1


def test_a_person_alone_with_bots_plays_again_at_once(sqlite_url: str) -> None:
    seated = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "bot", "level": "easy"}]
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2, seats=seated)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        with seats(client, table, tokens, spectator=False) as (ann,):
            while live.status != "finished" and time.monotonic() < deadline:
                if ann.last["legal"] and ann.last["outcome"] is None:
                    ann.act(ann.last["legal"][-1]["notation"])
                ann.receive()
        answer = _post(client, table, tokens[0])
        assert answer.json()["table"]["game_number"] == 2 and answer.json()["rematch"] is None
