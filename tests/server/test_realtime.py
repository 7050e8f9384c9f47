"""Real-time Apache over the network: claim windows timed by the server.

The fairness model is measured with simulated latencies on a fake server clock: each client's
claim arrives at the window's opening + its round trip + its reaction, and the server stamps it
with the time it measured, so the numbers are exact and no duration is asserted.
"""

from __future__ import annotations

from typing import Any

import pytest

from campfire.core.actions import answer_name

from .helpers import app_client, new_table, seats, start_table

OPENED = 1000.0


def _claim(frame: dict[str, Any]) -> str:
    return next(
        answer_name(a["notation"]) for a in frame["legal"] if a["notation"].startswith("claim")
    )


# (reaction ms, one-way latency ms) of seats 0 and 1, and the times the server stamps
SCENARIOS = [
    # the same reaction: the 50 ms connection (RTT 50) beats the 150 ms one (RTT 150) by 100 ms
    ((300, 25), (300, 75), {0: 350, 1: 450}),
    # 100 ms quicker on the slow connection arrives at the same moment: the first received is
    # first, the second is stamped one grid step later
    ((300, 25), (200, 75), {0: 350, 1: 400}),
    # more than 100 ms quicker: the slow connection wins
    ((300, 25), (100, 75), {0: 350, 1: 250}),
]


@pytest.mark.parametrize(("seat0", "seat1", "stamped"), SCENARIOS)
def test_a_claim_is_stamped_with_its_round_trip_plus_reaction_in_receive_order(
    sqlite_url: str,
    seat0: tuple[int, int],
    seat1: tuple[int, int],
    stamped: dict[int, int],
) -> None:
    now = [OPENED - 5]
    with app_client(sqlite_url, clock=lambda: now[0]) as client:
        table, tokens = new_table(client, "apache", 2, start=False, realtime=True)
        with seats(client, table, tokens, spectator=False) as clients:
            start_table(client, table, tokens, clients)
            revealer = next(c for c in clients if c.last["legal"])
            assert [a["notation"] for a in revealer.last["legal"]] == ["reveal"]
            now[0] = OPENED  # the window opens when the reveal is applied
            revealer.act("reveal")
            for c in clients:
                c.receive()
            arrivals = sorted(
                (OPENED + (2 * latency + reaction) / 1000, seat)
                for seat, (reaction, latency) in enumerate((seat0, seat1))
            )
            for at, seat in arrivals:
                now[0] = at
                claimant = clients[seat]
                claimant.act(_claim(claimant.last))  # no time: the server measures it
                for c in clients:
                    c.receive()
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        claims = {
            seat: int(str(action).split()[-1])
            for seat, action in live.table.match.actions
            if str(action).startswith("claim")
        }
    assert claims == stamped


def test_bots_answer_after_their_reaction_times_and_a_silent_seat_passes_at_the_close(
    sqlite_url: str,
) -> None:
    bot = {"kind": "bot", "level": "hard"}
    person = {"kind": "reserved", "nickname": "Ann"}
    with app_client(sqlite_url) as client:
        table, tokens = new_table(
            client, "apache", 2, seats=[person, bot], start=False, realtime=True
        )
        with seats(client, table, tokens, spectator=False) as clients:
            start_table(client, table, tokens, clients)
            ann = clients[0]
            frame = ann.last
            for _ in range(20):  # until the first window has closed (Ann reveals, never claims)
                if [a["notation"] for a in frame["legal"]] == ["reveal"]:
                    ann.act("reveal")
                frame = ann.receive()
                if frame["type"] == "delta" and frame["step"].get("cause") == "window-closed":
                    break
            else:
                raise AssertionError(f"no window closed: {ann.frames[-1]!r:.2000}")
            assert frame["step"]["seat"] == 0
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        answers = [str(a) for s, a in live.table.match.actions if s == 1]
        # the bot's answer carries its own reaction time (or is a pass)
        assert any(a == "pass" or a.split()[-1].isdigit() for a in answers)


def test_realtime_is_refused_for_a_game_without_claim_windows(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        answer = client.post(
            "/api/tables", json={"game": "tracker", "players": 2, "realtime": True}
        )
        assert answer.status_code == 400 and "apache" in answer.json()["error"]["message"]
