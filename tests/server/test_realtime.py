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


def _window(clients: list[Any], now: list[float]) -> None:
    """Turn up the first card at ``OPENED`` (the window opens); every client reads the step."""
    revealer = next(c for c in clients if c.last["legal"])
    now[0] = OPENED
    revealer.act("reveal")
    for c in clients:
        assert c.receive()["type"] == "delta"


def _timed_claim(frame: dict[str, Any], ms: int) -> str:
    return f"{_claim(frame)} {ms}"


@pytest.mark.parametrize("asked", [None, False])
def test_a_client_that_writes_its_own_reaction_time_gains_nothing_at_a_table_of_two_people(
    sqlite_url: str, asked: bool | None
) -> None:
    """Issue 26: a table of people times the claims itself, whatever the request said.

    The honest client claims after 300 ms and says so; the other claims after 500 ms and
    writes 0 ms. The server's measure puts the honest claim first.
    """
    now = [OPENED - 5]
    settings: dict[str, Any] = {} if asked is None else {"realtime": asked}
    with app_client(sqlite_url, clock=lambda: now[0]) as client:
        table, tokens = new_table(client, "apache", 2, start=False, **settings)
        with seats(client, table, tokens, spectator=False) as clients:
            start_table(client, table, tokens, clients)
            _window(clients, now)
            honest, cheat = clients
            now[0] = OPENED + 0.3
            honest.act(_timed_claim(honest.last, 300))
            for c in clients:
                assert c.receive()["type"] == "delta"
            now[0] = OPENED + 0.5
            cheat.act(_timed_claim(cheat.last, 0))  # the time it writes is ignored
            for c in clients:
                frame = c.receive()
                assert frame["type"] == "delta", frame
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        claims = {
            seat: int(str(action).split()[-1])
            for seat, action in live.table.match.actions
            if str(action).startswith("claim")
        }
    assert claims == {honest.seat: 300, cheat.seat: 500}


# (seats of an Apache table, the request's "realtime") -> the server times the claims
SEATINGS = [
    (["reserved", "reserved"], None, True),
    (["reserved", "open"], None, True),  # the open seat is a person's once the game starts
    (["open", "open", "bot"], False, True),
    (["reserved", "bot"], None, False),  # one person and a bot: the client's times stand
    (["reserved", "bot"], True, True),
    (["bot", "bot"], None, False),
]


def _seat(kind: str, i: int) -> dict[str, Any]:
    if kind == "reserved":
        return {"kind": "reserved", "nickname": f"P{i}"}
    return {"kind": kind}


@pytest.mark.parametrize(("kinds", "asked", "measured"), SEATINGS)
def test_the_settings_say_whether_the_server_times_the_claims(
    sqlite_url: str, kinds: list[str], asked: bool | None, measured: bool
) -> None:
    """The table object, its settings and the table rebuilt from the database agree, before the
    game starts, while it runs and at a rematch."""
    body: dict[str, Any] = {
        "game": "apache",
        "players": len(kinds),
        "seats": [_seat(k, i) for i, k in enumerate(kinds)],
    }
    if asked is not None:
        body["realtime"] = asked
    with app_client(sqlite_url) as client:
        created = client.post("/api/tables", json=body)
        assert created.status_code == 201, created.text
        table = created.json()["table"]["id"]
        tokens = created.json()["tokens"]
        manager = client.app.state.manager  # type: ignore[attr-defined]

        def reported() -> set[bool]:
            listed = client.get("/api/tables").json()["tables"]
            return {
                created.json()["table"]["realtime"],
                client.get(f"/api/tables/{table}").json()["table"]["realtime"],
                client.get(f"/api/tables/{table}/settings").json()["realtime"],
                next(t for t in listed if t["id"] == table)["realtime"],
                manager.store.public(table)["realtime"],
            }

        assert reported() == {measured}
        for i, kind in enumerate(kinds):
            if kind == "open":
                joined = client.post(f"/api/tables/{table}/join", json={"nickname": f"J{i}"})
                assert joined.status_code == 201, joined.text
                tokens[str(i)] = joined.json()["token"]
        headers = {"Authorization": f"Bearer {next(iter(tokens.values()))}"} if tokens else {}
        assert client.post(f"/api/tables/{table}/start", headers=headers).status_code == 200
        assert manager.tables[table].realtime is measured and reported() == {measured}
        del manager.tables[table]  # a server that loads the table again knows it
        assert manager.load(table).realtime is measured and reported() == {measured}


def test_a_table_of_one_person_and_bots_keeps_the_reaction_time_the_client_writes(
    sqlite_url: str,
) -> None:
    """Client-declared times stay where no other person shares the result (a bot's table)."""
    seated = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "bot", "level": "easy"}]
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "apache", 2, seats=seated, start=False)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        with seats(client, table, tokens, spectator=False) as (ann,):
            start_table(client, table, tokens, [ann])
            for _ in range(50):  # until Ann may claim (she reveals when it is her turn)
                legal = [a["notation"] for a in ann.last["legal"]]
                if any(n.startswith("claim") for n in legal):
                    break
                if legal == ["reveal"]:
                    ann.act("reveal")
                ann.receive()
            else:
                raise AssertionError("Ann never had a claim to make")
            ann.act(_timed_claim(ann.last, 0))
            frame = ann.receive()
            while frame["type"] != "delta" or frame["step"]["seat"] != 0:
                assert frame["type"] == "delta", frame
                frame = ann.receive()
        assert live.window is None
        assert any(s == 0 and str(a).endswith(" 0") for s, a in live.table.match.actions)


def test_an_action_at_a_realtime_table_has_the_windows_follow_its_step_once(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pipeline's guard (a window not opened yet) does not run again what the step ran."""
    now = [OPENED - 5]
    with app_client(sqlite_url, clock=lambda: now[0]) as client:
        table, tokens = new_table(client, "apache", 2, start=False, realtime=True)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        with seats(client, table, tokens, spectator=False) as clients:
            start_table(client, table, tokens, clients)
            windows = type(client.app.state.manager.windows)  # type: ignore[attr-defined]
            followed: list[int] = []
            original = windows.after_step

            async def counting(self: Any, live: Any) -> None:
                followed.append(live.seq)
                await original(self, live)

            monkeypatch.setattr(windows, "after_step", counting)
            assert live.window is None and live.windows_followed()
            _window(clients, now)  # a turn's step (no window before it) opens a window
            assert followed == [1] and live.window is not None
            live.windows_after = None  # as a table rebuilt from the log, before its task ran
            live.window = None
            now[0] = OPENED + 0.3
            clients[0].act(_claim(clients[0].last))  # the guard opens the window first
            for c in clients:
                assert c.receive()["type"] == "delta"
            assert followed == [1, 1, 2]
