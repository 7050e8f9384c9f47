"""The log says who decided a step its seat did not choose: the clock, or a bot for the seat.

A move made on time-out reads "The clock played for you: …" to its seat and "The clock played
for P0: …" to the others; a bot's move reads "Bot (for you) …" / "Bot (for P1) …". The lines
of a step the seat chose itself stay worded as the game words them ("You …").
"""

from __future__ import annotations

from typing import Any

from .helpers import Seat, app_client, new_table, seats, start_table


def _until(client: Seat, test: Any, limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        frame = client.receive()
        if test(frame):
            return frame
    raise AssertionError(f"no such frame; last: {client.frames[-1]!r:.2000}")


def _texts(frame: dict[str, Any]) -> list[str]:
    return [m["text"] for m in frame["step"]["messages"]]


def test_a_move_made_on_time_out_says_the_clock_played_it(sqlite_url: str) -> None:
    clock = {"kind": "move", "seconds": 0.2, "on_timeout": "random"}
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2, start=False, clock=clock)
        with seats(client, table, tokens) as clients:
            start_table(client, table, tokens, clients)
            slow = next(c for c in clients if c.last["legal"])
            other = next(c for c in clients[:2] if c is not slow)
            name = f"P{slow.seat}"
            own = _until(slow, lambda f: f["type"] == "delta" and f["step"]["seat"] == slow.seat)
            assert own["step"]["cause"] == "timeout"
            first = own["step"]["messages"][0]
            assert first["id"] == "core.decided.clock.you"
            assert first["text"].startswith("The clock played for you: ")
            assert name in first["text"] and "You " not in first["text"]
            # the game's own line, about the player by name, rides along (for other languages)
            assert first["params"]["message"]["id"].startswith("tracker.")
            assert first["params"]["message"]["text"] in first["text"]
            seen = _until(other, lambda f: f["type"] == "delta" and f["seq"] == own["seq"])
            assert _texts(seen)[0].startswith(f"The clock played for {name}: {name} ")
            watched = _until(clients[2], lambda f: f["type"] == "delta" and f["seq"] == own["seq"])
            assert _texts(watched)[0] == _texts(seen)[0]


def test_a_bot_that_took_over_a_seat_is_named_in_the_log(sqlite_url: str) -> None:
    clock = {"kind": "move", "seconds": 0.2, "on_timeout": "bot"}
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2, start=False, clock=clock)
        with seats(client, table, tokens) as clients:
            start_table(client, table, tokens, clients)
            slow = next(c for c in clients if c.last["legal"])
            name = f"P{slow.seat}"
            moved = _until(slow, lambda f: f["type"] == "delta" and f["step"]["seat"] == slow.seat)
            assert moved["step"]["cause"] == "timeout-bot"
            mine = _texts(moved)
            assert mine[0].startswith("Bot (for you) "), mine
            assert not any(line.startswith("You ") for line in mine[:1])
            watched = _until(
                clients[2], lambda f: f["type"] == "delta" and f["seq"] == moved["seq"]
            )
            assert _texts(watched)[0].startswith(f"Bot (for {name}) "), _texts(watched)


def test_a_move_the_seat_chose_stays_its_own(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2, start=False)
        with seats(client, table, tokens) as clients:
            start_table(client, table, tokens, clients)
            mover = next(c for c in clients if c.last["legal"])
            mover.act(mover.last["legal"][0]["notation"])
            own = _until(mover, lambda f: f["type"] == "delta" and f["step"]["seat"] == mover.seat)
            assert "cause" not in own["step"]
            assert not any(m["id"].startswith("core.decided") for m in own["step"]["messages"])
            assert any(m["id"].endswith(".you") for m in own["step"]["messages"])
