"""Clocks together with real-time claim windows, and the level of a bot that takes a seat over.

The time controls are a fraction of a second so that time-outs come quickly; the tests wait
for the frames and never assert a duration.
"""

from __future__ import annotations

from typing import Any

from campfire.agents import make_agent

from .helpers import Seat, app_client, new_table, seats, start_table


def _deltas(watcher: Seat, count: int) -> list[dict[str, Any]]:
    return [f for f in (watcher.receive() for _ in range(count)) if f["type"] == "delta"]


def test_a_seat_out_of_time_in_a_claim_window_passes_and_both_clocks_run(
    sqlite_url: str,
) -> None:
    clock = {"kind": "move", "seconds": 0.3, "on_timeout": "random"}
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "apache", 2, start=False, realtime=True, clock=clock)
        with seats(client, table, tokens) as clients:
            start_table(client, table, tokens, clients)
            frames = _deltas(clients[2], 9)  # nobody acts: three reveals and their windows
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        played = [(s, str(a)) for s, a in live.table.match.actions][:9]
        logged = live.store.actions(table, 1)[:9]
    reveals = [i for i, (_, a) in enumerate(played) if a == "reveal"]
    assert reveals == [0, 3, 6]
    for i in reveals:
        # a window is open after a reveal: both seats' clocks run
        assert frames[i]["clocks"]["running"] == [0, 1]
        # each seat ran out of time in it and passed (a random claim would carry a
        # reaction time the seat never showed)
        assert {played[i + 1], played[i + 2]} == {(0, "pass"), (1, "pass")}
    assert all(f["step"]["cause"] == "timeout" for f in frames)
    assert all(e.cause == "timeout" and e.clocks is not None for e in logged)


def test_a_claim_in_time_stands_while_the_seat_out_of_time_passes(sqlite_url: str) -> None:
    clock = {"kind": "move", "seconds": 0.5, "on_timeout": "random"}
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "apache", 2, start=False, realtime=True, clock=clock)
        with seats(client, table, tokens, spectator=False) as clients:
            start_table(client, table, tokens, clients)
            revealer = next(c for c in clients if c.last["legal"])
            revealer.act("reveal")
            for c in clients:
                assert c.receive()["type"] == "delta"
            claimant = clients[0]
            claim = next(
                a["notation"] for a in claimant.last["legal"] if a["notation"].startswith("claim")
            )
            claimant.act(" ".join(claim.split()[:2]))  # no time: the server measures it
            for _ in range(2):  # the claim, then seat 1's pass when its clock runs out
                frame = claimant.receive()
                while frame["type"] != "delta":
                    frame = claimant.receive()
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        played = [(s, str(a)) for s, a in live.table.match.actions][:3]
        causes = dict(live.causes)
    assert played[0][1] == "reveal"
    assert played[1][0] == 0 and played[1][1].startswith("claim ")
    assert played[1][1].split()[-1].isdigit()  # stamped with the server's time
    assert played[2] == (1, "pass") and causes.get(2) == "timeout"
    assert 1 not in causes  # the claim was the seat's own


def test_the_takeover_bots_level_is_the_tables_setting(sqlite_url: str) -> None:
    clock = {"kind": "move", "seconds": 0.2, "on_timeout": "bot"}
    with app_client(sqlite_url) as client:
        table, tokens = new_table(
            client, "tracker", 2, start=False, clock=clock, takeover_level="medium"
        )
        with seats(client, table, tokens) as clients:
            start_table(client, table, tokens, clients)
            frame = clients[2].receive()
            while frame["type"] != "delta":
                frame = clients[2].receive()
            assert frame["step"]["cause"] == "timeout-bot"
        manager = client.app.state.manager  # type: ignore[attr-defined]
        live = manager.tables[table]
        seat = frame["step"]["seat"]
        agent = live.table.agents[seat]
        medium = make_agent("medium", live.game, seat, 2, live.options, 1)
        easy = make_agent("easy", live.game, seat, 2, live.options, 1)
        assert medium.config != easy.config
        assert agent.config == medium.config
        # the setting is stored: a server that loads the table again knows it
        del manager.tables[table]
        assert manager.load(table).takeover_level == "medium"


def test_a_bad_takeover_level_is_refused(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        answer = client.post(
            "/api/tables", json={"game": "tracker", "players": 2, "takeover_level": "genius"}
        )
        assert answer.status_code == 400
        assert "easy, medium, hard" in answer.json()["error"]["message"]
        default = client.post("/api/tables", json={"game": "tracker", "players": 2})
        live = client.app.state.manager.tables[default.json()["table"]["id"]]  # type: ignore[attr-defined]
        assert live.takeover_level == "easy"


def test_a_window_opened_again_after_a_restart_stamps_later_claims_after_the_logged_ones(
    sqlite_url: str, monkeypatch: Any
) -> None:
    from campfire.server import windows

    monkeypatch.setattr(windows, "window_length", lambda legal: 60.0)  # no close meanwhile
    now = [995.0]
    with app_client(sqlite_url, clock=lambda: now[0]) as client:
        table, tokens = new_table(client, "apache", 2, start=False, realtime=True)
        with seats(client, table, tokens, spectator=False) as clients:
            start_table(client, table, tokens, clients)
            revealer = next(c for c in clients if c.last["legal"])
            now[0] = 1000.0  # the window opens
            revealer.act("reveal")
            for c in clients:
                assert c.receive()["type"] == "delta"
            first, second = clients
            now[0] = 1000.9
            first.act(_claim_of(first.last))
            for c in clients:
                assert c.receive()["type"] == "delta"
    now[0] = 5000.0  # a new server process: the window opens again now
    with app_client(sqlite_url, seed=99, clock=lambda: now[0]) as client:
        assert second.seat is not None
        with seats(client, table, {second.seat: tokens[second.seat]}, spectator=False) as again:
            (late,) = again
            now[0] = 5000.1  # 100 ms into the reopened window, but after the 900 ms claim
            late.act(_claim_of(late.last))
            answer = late.receive()
            assert answer["type"] == "delta", answer
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        answers = [(s, str(a)) for s, a in live.table.match.actions][1:3]
    assert answers[0][0] == first.seat and answers[0][1].endswith(" 900")
    assert answers[1][0] == second.seat and answers[1][1].endswith(" 950")


def _claim_of(frame: dict[str, Any]) -> str:
    claim: str = next(a["notation"] for a in frame["legal"] if a["notation"].startswith("claim"))
    return " ".join(claim.split()[:2])  # no time: the server measures it
