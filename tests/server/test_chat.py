"""A table's chat: channels, limits, storage, history, escaping, and never in the game record.

Players write to the players' channel and read only it; spectators write to the spectators'
channel and read both (``docs/protocol.md``, "Chat"). The lines are kept with the table
(SQLite and PostgreSQL, and the in-memory store of the services), a new connection gets the
recent lines it may read, and a finished game's record and replay hold none of them.
"""

from __future__ import annotations

import json
import random
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, select

from campfire.server.chat import BURST, EVERY, HISTORY, clean
from campfire.server.db import MIGRATIONS, make_engine, migrate, session_factory
from campfire.server.models import ChatRow
from campfire.server.protocol import MAX_CHAT
from campfire.server.storage import MemoryStore

from .helpers import Seat, app_client, new_table, play_out, seats


class Clock:
    """A clock the test moves by hand (the rate limits are measured with it)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _say(client: Seat, text: str) -> None:
    client.send({"type": "chat", "text": text})


def _chat(client: Seat) -> dict[str, Any]:
    frame = client.receive()
    assert frame["type"] == "chat", frame
    return frame


def test_players_chat_reaches_everyone_spectators_chat_only_spectators(db_url: str) -> None:
    with app_client(db_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as (p0, p1, watcher):
            _say(p0, "  good luck!  ")
            for c in (p0, p1, watcher):
                frame = _chat(c)
                assert frame["history"] is False and frame["table"] == table
                [line] = frame["lines"]
                assert line["channel"] == "players" and line["seat"] == 0
                assert line["name"] == "P0" and line["text"] == "good luck!"
            _say(watcher, "nice move")
            [line] = _chat(watcher)["lines"]
            assert line == {**line, "channel": "spectators", "seat": None, "name": None}
            # the players never see it: their next frame is the next players' line
            _say(p1, "thanks")
            assert _chat(p0)["lines"][0]["text"] == "thanks"
            assert _chat(p1)["lines"][0]["text"] == "thanks"
            assert _chat(watcher)["lines"][0]["text"] == "thanks"
        # kept with the table: a new connection reads the recent lines it may read
        with seats(client, table, {0: tokens[0]}) as (again, watcher):
            player_history = _chat(again)
            assert player_history["history"] is True
            assert [x["text"] for x in player_history["lines"]] == ["good luck!", "thanks"]
            assert [x["text"] for x in _chat(watcher)["lines"]] == [
                "good luck!",
                "nice move",
                "thanks",
            ]
    engine = make_engine(db_url)
    with session_factory(engine)() as session:
        rows = session.scalars(select(ChatRow).order_by(ChatRow.id)).all()
        assert [(r.table_id, r.channel, r.seat, r.text) for r in rows] == [
            (table, "players", 0, "good luck!"),
            (table, "spectators", None, "nice move"),
            (table, "players", 1, "thanks"),
        ]
    engine.dispose()


def test_a_new_connection_gets_at_most_the_last_lines(sqlite_url: str) -> None:
    clock = Clock()
    with app_client(sqlite_url, clock=clock) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, {0: tokens[0]}, spectator=False) as (p0,):
            for k in range(HISTORY + 7):
                clock.now += EVERY  # never too fast
                _say(p0, f"line {k}")
                assert _chat(p0)["lines"][0]["text"] == f"line {k}"
        with seats(client, table, {1: tokens[1]}, spectator=False) as (p1,):
            lines = _chat(p1)["lines"]
            assert len(lines) == HISTORY
            assert lines[0]["text"] == "line 7" and lines[-1]["text"] == f"line {HISTORY + 6}"


def test_no_chat_frame_comes_while_a_table_has_no_chat(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as clients:
            for c in clients:
                c.send({"type": "ping"})
                assert c.receive()["type"] == "pong"  # the snapshot, then nothing


def test_length_and_emptiness_are_refused_with_a_clear_error(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, {0: tokens[0]}, spectator=False) as (p0,):
            p0.ws.send_text(json.dumps({"type": "chat", "text": "x" * (MAX_CHAT + 1)}))
            error = p0.receive()
            assert error["type"] == "error" and error["code"] == "too_large"
            assert str(MAX_CHAT) in error["message"] and "chat" in error["message"]
            _say(p0, " \n\t ")
            error = p0.receive()
            assert error["code"] == "bad_message" and "empty" in error["message"]
            p0.ws.send_text(json.dumps({"type": "chat", "text": 5}))
            assert p0.receive()["code"] == "bad_message"
            _say(p0, "y" * MAX_CHAT)  # the longest line is fine
            assert _chat(p0)["lines"][0]["text"] == "y" * MAX_CHAT


def test_the_rate_is_limited_per_connection_and_per_seat(sqlite_url: str) -> None:
    clock = Clock()
    with app_client(sqlite_url, clock=clock) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, {0: tokens[0]}) as (p0, watcher):
            for k in range(BURST):  # a burst is fine
                _say(p0, f"hi {k}")
                _chat(p0), _chat(watcher)
            _say(p0, "one too many")
            error = p0.receive()
            assert error["type"] == "error" and error["code"] == "rate_limited"
            assert "chat" in error["message"] and f"{EVERY:.0f} s" in error["message"]
            # a spectator's own allowance is untouched by the player's
            _say(watcher, "me too")
            assert _chat(watcher)["lines"][0]["channel"] == "spectators"
            # the same seat from a second connection (another tab) shares the seat's limit
            with client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ws:
                tab = Seat(ws, 0)
                assert tab.receive()["type"] == "snapshot"
                assert _chat(tab)["history"] is True
                _say(tab, "from a second tab")
                assert tab.receive()["code"] == "rate_limited"
                clock.now += EVERY  # one more line after the wait
                _say(tab, "later")
                assert _chat(tab)["lines"][0]["text"] == "later"
                assert _chat(p0)["lines"][0]["text"] == "later"
                _say(p0, "again too fast")
                assert p0.receive()["code"] == "rate_limited"


def test_text_is_kept_as_text_never_markup(sqlite_url: str) -> None:
    evil = '<img src=x onerror="alert(1)"><script>alert(2)</script> & "quotes"'
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, {0: tokens[0]}) as (p0, watcher):
            _say(p0, evil)
            assert _chat(p0)["lines"][0]["text"] == evil  # unchanged: the client shows text
            assert _chat(watcher)["lines"][0]["text"] == evil
    assert clean("a\x00b\x1bc\u200dd") == "a b c\u200dd"  # control characters go; ZWJ stays


def test_chat_is_never_part_of_the_game_record_or_replay(sqlite_url: str) -> None:
    rng = random.Random(3)
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, tokens) as clients:
            _say(clients[0], "SECRET-CHAT-LINE")
            _say(clients[2], "SPECTATOR-CHAT-LINE")
            for c in clients:
                _chat(c)
            _chat(clients[2])
            play_out(
                clients,
                lambda to_act: (c := rng.choice(to_act), rng.choice(c.last["legal"])["notation"]),
            )
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200, record.text
        assert "CHAT" not in record.text and "chat" not in json.loads(record.text)
        for seat in ("0", "1", "spectator"):
            replay = client.get(f"/api/tables/{table}/replay?seat={seat}")
            assert replay.status_code == 200 and "CHAT-LINE" not in replay.text


def test_the_memory_store_keeps_chat_apart_from_the_log() -> None:
    store = MemoryStore()
    table = store.create("some-game", {}, 2, [])
    first = store.add_chat(table, "players", 0, "Ann", "hello")
    second = store.add_chat(table, "spectators", None, None, "hi all")
    assert second.id > first.id
    assert [line.text for line in store.chat(table, 10)] == ["hello", "hi all"]
    assert [line.text for line in store.chat(table, 1)] == ["hi all"]
    assert store.actions(table, 1) == [] and store.chat(table + 1, 10) == []
    assert first.to_json()["channel"] == "players"


def test_the_chat_migration_adds_and_drops_its_table(db_url: str) -> None:
    engine = make_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")  # a database of the release before
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO game_tables (id, game, options, players, status, created, game_number,"
            " seed) VALUES (7, 'tracker', '{}', 2, 'running', '2026-01-01 00:00:00', 1, 5)"
        )
    assert "chat_lines" not in inspect(engine).get_table_names()
    migrate(engine)
    assert "chat_lines" in inspect(engine).get_table_names()
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO chat_lines (table_id, channel, seat, text, sent)"
            " VALUES (7, 'players', 0, 'hi', '2026-01-01 00:00:02')"
        )
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0004")
    assert "chat_lines" not in inspect(engine).get_table_names()
    assert "game_tables" in inspect(engine).get_table_names()
    engine.dispose()


def test_purging_a_table_deletes_its_chat(sqlite_url: str) -> None:
    from campfire.cli import main

    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        with seats(client, table, {0: tokens[0]}, spectator=False) as (p0,):
            _say(p0, "bye")
            _chat(p0)
    close = ["admin", "close", str(table), "--message", "done", "--database-url", sqlite_url]
    assert main(close) == 0
    engine = make_engine(sqlite_url)
    with session_factory(engine)() as session:
        assert len(session.scalars(select(ChatRow)).all()) == 1  # stored, until the purge
    engine.dispose()
    purge = ["admin", "purge", "--finished-before", "2999-01-01", "--no-export"]
    assert main([*purge, "--database-url", sqlite_url]) == 0
    engine = make_engine(sqlite_url)
    with session_factory(engine)() as session:
        assert session.scalars(select(ChatRow)).all() == []
    engine.dispose()
