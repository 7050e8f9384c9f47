"""Taking back a move (docs/protocol.md, "Undo"): allowed, refused, accepted, declined, expired.

The game is Dudab for two: its plays from the hand onto a column show nobody anything new, its
draws show the drawer a card. Which action is which is found with the engine (``revealed``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from sqlalchemy import func, select

from campfire.core import Action, Match, State, all_games
from campfire.core import get as get_game
from campfire.core.table import Step
from campfire.server.connection import Connection
from campfire.server.db import make_engine, session_factory
from campfire.server.models import ActionRow
from campfire.server.protocol import ProtocolError
from campfire.server.storage import MemoryStore
from campfire.server.tables import TableServices
from campfire.server.undo import BURST, revealed
from campfire.server.wire import encode

from .helpers import Seat, app_client, check_frame, new_table, seats

GAME = "dudab"
SEED = 1
NAMES = ["P0", "P1"]


def _replayed(notations: list[str], seed: int = SEED) -> Match:
    match = Match(get_game(GAME), 2, seed=seed)
    for notation in notations:
        match.play(match.state.seats_to_act()[0], notation)
    return match


def _shows(state: State, action: Action) -> bool:
    """Whether playing ``action`` now would show someone something (the server's rule)."""
    seat = state.seats_to_act()[0]
    after = state.clone()
    events = after.apply(seat, action)
    step = Step(0, seat, action, tuple(events), None, 1)
    return revealed(get_game(GAME), NAMES, state, after, step)


def _find(notations: list[str], shows: bool, seed: int = SEED) -> str:
    """A legal action of the seat to act after ``notations`` that shows something or not."""
    state = _replayed(notations, seed).state
    seat = state.seats_to_act()[0]
    for action in state.legal_actions(seat):
        if _shows(state, action) == shows:
            return str(action)
    pytest.skip(f"no action that {'shows' if shows else 'hides'} at this position")


def _frames(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        frame = conn.queue.get_nowait()
        assert frame is not None
        out.append(check_frame(json.loads(frame if isinstance(frame, str) else encode(frame))))
    return out


# ----- through the socket, on SQLite: accepted, persisted across a restart ---------------------


def _next_of(client: Seat, kind: str) -> dict[str, Any]:
    while True:
        frame = client.receive()
        if frame["type"] == kind:
            return frame


def test_an_accepted_undo_rewinds_the_game_for_everyone_and_survives_a_restart(
    sqlite_url: str,
) -> None:
    clean = _find([], shows=False)
    with app_client(sqlite_url, seed=SEED) as client:
        table, tokens = new_table(client, GAME, 2)
        assert client.get(f"/api/tables/{table}/settings").json()["undo"] is True
        with seats(client, table, tokens) as clients:
            first = [dict(c.last) for c in clients]
            mover = next(c for c in clients if c.last["legal"])
            other = next(c for c in clients[:2] if c is not mover)
            mover.act(clean)
            for c in clients:
                assert c.receive()["type"] == "delta"
            mover.send({"type": "undo", "seq": 1})
            for c in clients:  # the spectator hears of it too
                asked = c.receive()
                assert asked["type"] == "undo" and asked["status"] == "asked"
                assert (asked["seat"], asked["seq"], asked["waiting"]) == (
                    mover.seat,
                    1,
                    [other.seat],
                )
                assert asked["expires_ms"] > 0
            other.send({"type": "undo_answer", "seq": 1, "accept": True})
            for c, before in zip(clients, first, strict=True):
                snapshot = c.receive()
                assert snapshot["type"] == "snapshot" and snapshot["seq"] == 0
                assert snapshot["display"] == before["display"]
                assert snapshot["legal"] == before["legal"]
                done = c.receive()
                assert (done["type"], done["status"], done["seq"]) == ("undo", "accepted", 1)
        engine = make_engine(sqlite_url)
        with session_factory(engine)() as session:
            rows = session.scalar(
                select(func.count()).select_from(ActionRow).where(ActionRow.table_id == table)
            )
        engine.dispose()
        assert rows == 0  # the log lost the step taken back
    # a restart rebuilds the table from its log: the move is not there
    with app_client(sqlite_url, seed=SEED + 100) as client:
        assert client.get(f"/api/tables/{table}").json()["table"]["seq"] == 0
        with seats(client, table, tokens) as clients:
            assert clients[0].last["seq"] == 0
            mover = next(c for c in clients if c.last["legal"])
            mover.act(clean)  # the same move again, as the first: the log goes on from there
            for c in clients:
                frame = c.receive()
                assert frame["type"] == "delta" and frame["seq"] == 1


def test_refusals_say_why(sqlite_url: str) -> None:
    with app_client(sqlite_url, seed=SEED) as client:  # the tables' seeds: SEED, SEED + 1
        clean = _find([], shows=False)
        off, off_tokens = new_table(client, GAME, 2, undo=False)
        with seats(client, off, off_tokens, spectator=False) as clients:
            mover = next(c for c in clients if c.last["legal"])
            mover.act(clean)
            for c in clients:
                c.receive()
            mover.send({"type": "undo", "seq": 1})
            refused = mover.receive()
            assert (refused["type"], refused["code"]) == ("error", "undo_off")
            assert "does not allow" in refused["message"]

        table, tokens = new_table(client, GAME, 2)
        clean = _find([], shows=False, seed=SEED + 1)
        with seats(client, table, tokens) as clients:
            mover = next(c for c in clients if c.last["legal"])
            other = next(c for c in clients[:2] if c is not mover)
            spectator = clients[2]
            # nothing of one's own to take back yet
            other.send({"type": "undo", "seq": 0})
            assert other.receive()["code"] == "undo_moved"
            mover.act(clean)
            for c in clients:
                c.receive()
            spectator.send({"type": "undo", "seq": 1})
            assert spectator.receive()["code"] == "not_seated"
            other.send({"type": "undo", "seq": 1})  # the last move is not theirs
            assert other.receive()["code"] == "undo_moved"
            mover.send({"type": "undo", "seq": 0})  # answers a position gone by
            assert mover.receive()["code"] == "undo_moved"
            mover.send({"type": "undo", "seq": 1})
            for c in clients:
                assert _next_of(c, "undo")["status"] == "asked"
            mover.send({"type": "undo", "seq": 1})
            assert mover.receive()["code"] == "undo_pending"
            mover.send({"type": "undo_answer", "seq": 1, "accept": True})  # not theirs to answer
            assert mover.receive()["code"] == "undo_none"
            # a decline ends it: the move stays
            other.send({"type": "undo_answer", "seq": 1, "accept": False})
            for c in clients:
                ended = _next_of(c, "undo")
                assert (ended["status"], ended["by"]) == ("declined", other.seat)
            other.send({"type": "undo_answer", "seq": 1, "accept": True})
            assert other.receive()["code"] == "undo_none"
            assert client.get(f"/api/tables/{table}").json()["table"]["seq"] == 1
            # a new move cancels an open request
            mover.send({"type": "undo", "seq": 1})
            for c in clients:
                assert _next_of(c, "undo")["status"] == "asked"
            other.act(other.last["legal"][0]["notation"])
            for c in clients:
                frames = [c.receive(), c.receive()]
                assert [f["type"] for f in frames] == ["delta", "undo"]
                assert frames[1]["status"] == "cancelled"
            mover.send({"type": "undo", "seq": 2})  # someone else has moved since
            assert _next_of(mover, "error")["code"] == "undo_moved"


def test_a_move_that_showed_a_card_cannot_be_taken_back(sqlite_url: str) -> None:
    with app_client(sqlite_url, seed=SEED) as client:
        table, tokens = new_table(client, GAME, 2)
        with seats(client, table, tokens, spectator=False) as clients:
            mover = next(c for c in clients if c.last["legal"])
            drawn = _find([], shows=True)
            mover.act(drawn)
            for c in clients:
                c.receive()
            mover.send({"type": "undo", "seq": 1})
            refused = mover.receive()
            assert (refused["type"], refused["code"]) == ("error", "undo_revealed")


def test_undo_is_never_offered_in_real_time(sqlite_url: str) -> None:
    with app_client(sqlite_url, seed=SEED) as client:
        games = client.get("/api/play-modes").json()
        realtime = next(name for name, modes in games.items() if "realtime-claims" in modes)
        answer = client.post(
            "/api/tables",
            json={"game": realtime, "players": 2, "realtime": True, "undo": True},
        )
        assert answer.status_code == 400 and "real time" in answer.json()["error"]["message"]
        table, _ = new_table(client, realtime, 2, start=False)  # two people: timed claims
        assert client.get(f"/api/tables/{table}/settings").json()["undo"] is False
        bad = client.post("/api/tables", json={"game": GAME, "undo": "yes"})
        assert bad.status_code == 400 and '"undo"' in bad.json()["error"]["message"]


# ----- the services without a database: expiry, rate, bots ------------------------------------


def _table(
    services: TableServices, seats: list[dict[str, Any]], seed: int = SEED, **settings: Any
) -> Any:
    live, tokens = services.create({"game": GAME, "players": 2, "seats": seats, **settings})
    services.start(live, tokens[0], seed=seed)
    return live


def test_a_request_expires_and_a_seat_may_not_ask_without_end() -> None:
    async def run() -> None:
        now = [0.0]
        store = MemoryStore()
        services = TableServices(store, store, bot_workers=1, clock=lambda: now[0])
        people = [{"kind": "reserved", "nickname": n} for n in NAMES]
        live = _table(services, people)
        conns = [Connection(0), Connection(1), Connection(None)]
        live.connections.update(conns)
        assert live.table is not None
        mover = live.table.state.seats_to_act()[0]
        other = 1 - mover
        clean = _find([], shows=False)
        await services.act(live, mover, {"type": "action", "seq": 0, "action": clean})
        await services.undo.ask(live, mover, {"type": "undo", "seq": 1})
        now[0] += services.undo.seconds + 1  # nobody answered in time
        with pytest.raises(ProtocolError) as late:
            await services.undo.answer(live, other, {"seq": 1, "accept": True})
        assert late.value.code == "undo_none"
        statuses = [f["status"] for f in _frames(conns[2]) if f["type"] == "undo"]
        assert statuses == ["asked", "expired"]
        assert [e.notation for e in store.actions(live.id, 1)] == [clean]
        # the expiry's own timer ends a request nobody touches
        services.undo.seconds = 0.01
        await services.undo.ask(live, mover, {"type": "undo", "seq": 1})
        for _ in range(500):
            if not services.undo.requests:
                break
            await asyncio.sleep(0.01)
        assert [f["status"] for f in _frames(conns[0]) if f["type"] == "undo"][-1] == "expired"
        # asked BURST times at one moment (declined at once each time): the next waits
        for _ in range(BURST - 1):
            await services.undo.ask(live, mover, {"type": "undo", "seq": 1})
            await services.undo.answer(live, other, {"seq": 1, "accept": False})
        with pytest.raises(ProtocolError) as spam:
            await services.undo.ask(live, mover, {"type": "undo", "seq": 1})
        assert spam.value.code == "rate_limited"
        now[0] += 60  # time brings the next request back
        await services.undo.ask(live, mover, {"type": "undo", "seq": 1})
        await services.close()

    asyncio.run(run())


def test_bots_accept_at_once() -> None:
    async def run() -> None:
        store = MemoryStore()
        services = TableServices(store, store, bot_workers=1)
        seat_kinds = [{"kind": "reserved", "nickname": "P0"}, {"kind": "bot", "level": "easy"}]
        seed = next(s for s in range(100) if list(_replayed([], s).state.seats_to_act()) == [0])
        live = _table(services, seat_kinds, seed, undo=True)  # the person starts
        conn = Connection(0)
        live.connections.add(conn)
        assert live.table is not None and live.undo
        clean = _find([], shows=False, seed=seed)
        await services.act(live, 0, {"type": "action", "seq": 0, "action": clean})
        # (the bot has not moved yet: the request comes first, and nobody needs to be asked)
        await services.undo.ask(live, 0, {"type": "undo", "seq": 1})
        frames = _frames(conn)
        assert [f["type"] for f in frames][-2:] == ["snapshot", "undo"]
        assert frames[-1]["status"] == "accepted" and frames[-2]["seq"] == 0
        assert store.actions(live.id, 1) == []
        await services.close()

    asyncio.run(run())


def test_a_step_of_a_simultaneous_choice_is_not_taken_back() -> None:
    game = next(
        g for g in all_games() if g.simultaneous_steps and "realtime-claims" not in g.play_modes
    )

    async def run() -> None:
        store = MemoryStore()
        services = TableServices(store, store, bot_workers=1)
        people = [{"kind": "reserved", "nickname": n} for n in NAMES]
        live, tokens = services.create(
            {"game": game.name, "players": 2, "seats": people, "undo": True}
        )
        services.start(live, tokens[0], seed=SEED)
        assert live.table is not None
        for _ in range(50):  # on to a step where both seats choose at once
            state = live.table.state
            if len(state.seats_to_act()) > 1:
                break
            seat = state.seats_to_act()[0]
            action = str(state.legal_actions(seat)[0])
            await services.act(live, seat, {"type": "action", "seq": live.seq, "action": action})
        else:
            pytest.skip("no simultaneous step early in this game")
        seat = live.table.state.seats_to_act()[0]
        action = str(live.table.state.legal_actions(seat)[0])
        await services.act(live, seat, {"type": "action", "seq": live.seq, "action": action})
        with pytest.raises(ProtocolError) as refused:
            await services.undo.ask(live, seat, {"type": "undo", "seq": live.seq})
        assert refused.value.code == "undo_realtime"
        await services.close()

    asyncio.run(run())


def test_a_bot_playing_a_persons_seat_accepts_for_them() -> None:
    """A seat a bot plays while its person is away is not asked: the bot accepts.

    Also when the bot takes the seat over while the request waits for that person's answer.
    """

    async def run() -> None:
        store = MemoryStore()
        services = TableServices(store, store, bot_workers=1)
        people = [{"kind": "reserved", "nickname": n} for n in NAMES]
        live = _table(services, people, undo=True)
        conns = [Connection(0), Connection(1)]
        live.connections.update(conns)
        assert live.table is not None
        mover = live.table.state.seats_to_act()[0]
        other = 1 - mover
        clean = _find([], shows=False)
        # the other person is away and a bot plays for them before the request: nobody to ask
        async with live.lock:
            services.takeover.take_over(live, other)
        await services.act(live, mover, {"type": "action", "seq": 0, "action": clean})
        await services.undo.ask(live, mover, {"type": "undo", "seq": 1})
        assert [f["status"] for f in _frames(conns[mover]) if f["type"] == "undo"] == ["accepted"]
        assert store.actions(live.id, 1) == []
        if live.bot_task is not None:  # the bot woken by that step finds nothing to do
            await live.bot_task
        # the person is back; the request waits for them; then a bot takes their seat over
        async with live.lock:
            services.takeover.hand_back(live, other)
        await services.act(live, mover, {"type": "action", "seq": 0, "action": clean})
        await services.undo.ask(live, mover, {"type": "undo", "seq": 1})
        assert services.undo.requests[live.id].waiting == {other}
        async with live.lock:
            services.takeover.take_over(live, other)
        for _ in range(500):
            if not services.undo.requests:
                break
            await asyncio.sleep(0.01)
        statuses = [f["status"] for f in _frames(conns[mover]) if f["type"] == "undo"]
        assert statuses == ["asked", "accepted"]
        assert store.actions(live.id, 1) == []
        await services.close()

    asyncio.run(run())
