"""The table services without a database: a MemoryStore behind the Storage and ActionLog
interfaces, and the one accept -> store -> broadcast function's result."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from campfire.core import get as get_game
from campfire.server.connection import Connection
from campfire.server.storage import MemoryStore
from campfire.server.tables import TableServices


def _services(store: MemoryStore) -> TableServices:
    return TableServices(store, store, bot_workers=1)


async def _play_out(services: TableServices, store: MemoryStore, seed: int) -> tuple[int, str]:
    seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(2)]
    live, tokens = services.create({"game": "tracker", "players": 2, "seats": seats})
    services.start(live, tokens[0], seed=seed)
    conns = [Connection(0), Connection(1), Connection(None)]
    live.connections.update(conns)
    rng = random.Random(seed)
    while live.status == "running":
        assert live.table is not None
        state = live.table.state
        seat = rng.choice(list(state.seats_to_act()))
        action = str(rng.choice(state.legal_actions(seat)))
        await services.act(live, seat, {"type": "action", "seq": live.seq, "action": action})
        # every connection got the step's delta, and the log holds every step played
        assert [e.notation for e in store.actions(live.id, 1)] == [
            str(a) for _, a in live.table.match.actions
        ]
    for conn in conns:
        frames = []
        while not conn.queue.empty():
            frame = conn.queue.get_nowait()
            assert frame is not None
            frames.append(json.loads(frame) if isinstance(frame, str) else frame)
        assert [f["type"] for f in frames] == ["delta"] * live.seq
        assert frames[-1]["outcome"] is not None
    record = store.record(live.id, 1)
    assert record is not None
    await services.close()
    return live.id, record


def test_a_game_is_played_stored_and_recovered_without_a_database() -> None:
    store = MemoryStore()
    table, record = asyncio.run(_play_out(_services(store), store, seed=5))
    assert store.public(table) is not None
    assert store.committed == len(store.actions(table, 1)) > 0
    assert json.loads(record)["meta"]["table"] == table

    # another process (a restart) rebuilds the finished table from the same storage
    async def reload() -> None:
        services = _services(store)
        live = services.load(table)
        assert live is not None and live.table is not None
        assert live.status == "finished" and live.table.state.is_terminal()
        assert live.seq == len(store.actions(table, 1))
        assert services.record(live, None) == record
        await services.close()

    asyncio.run(reload())


def test_apply_returns_what_it_did() -> None:
    async def run() -> None:
        store = MemoryStore()
        services = _services(store)
        seats = [{"kind": "reserved", "nickname": "A"}, {"kind": "reserved", "nickname": "B"}]
        live, tokens = services.create({"game": "tracker", "players": 2, "seats": seats})
        services.start(live, tokens[0], seed=3)
        live.connections.update([Connection(0), Connection(1, language="cs"), Connection(None)])
        assert live.table is not None
        seat = live.table.state.seats_to_act()[0]
        action = live.table.state.legal_actions(seat)[0]
        async with live.lock:
            applied = await services.pipeline.apply(live, seat, action)
        assert applied.step.seat == seat and applied.step.action == action
        assert applied.entry.seq == 0 and applied.entry.notation == str(action)
        assert not applied.finished
        assert len(applied.frames) == 3  # one per connection, each built for its seat
        assert {conn.seat for conn, _ in applied.frames} == {0, 1, None}
        assert [e.notation for e in store.actions(live.id, 1)] == [str(action)]
        await services.close()

    asyncio.run(run())


def test_an_action_refused_by_the_rules_changes_nothing() -> None:
    from campfire.server.protocol import ProtocolError

    async def run() -> None:
        store = MemoryStore()
        services = _services(store)
        seats = [{"kind": "reserved", "nickname": "A"}, {"kind": "reserved", "nickname": "B"}]
        live, tokens = services.create({"game": "tracker", "players": 2, "seats": seats})
        services.start(live, tokens[0], seed=3)
        assert live.table is not None
        seat = live.table.state.seats_to_act()[0]
        other = 1 - seat
        with pytest.raises(ProtocolError) as refused:
            await services.act(live, other, {"type": "action", "seq": 0, "action": "pass"})
        assert refused.value.code == "illegal"
        assert store.actions(live.id, 1) == [] and live.seq == 0
        await services.close()

    asyncio.run(run())


def test_the_memory_store_refuses_an_action_out_of_order() -> None:
    from campfire.server.seating import SeatInfo
    from campfire.server.writer import PendingAction

    store = MemoryStore()
    table = store.create(get_game("tracker").name, {}, 2, [SeatInfo(0), SeatInfo(1)])
    store.start(table, 1, seed=1)
    with pytest.raises(ValueError, match="action 1 after 0"):
        store.append(PendingAction(table, 1, 1, 0, "pass"))


def test_the_engine_checks_a_persons_action_once_and_the_refusal_reads_as_before() -> None:
    from campfire.server.protocol import ProtocolError

    async def run() -> None:
        store = MemoryStore()
        services = _services(store)
        seats = [{"kind": "reserved", "nickname": "A"}, {"kind": "reserved", "nickname": "B"}]
        live, tokens = services.create({"game": "tracker", "players": 2, "seats": seats})
        services.start(live, tokens[0], seed=3)
        assert live.table is not None
        state = live.table.state
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        game = live.game
        illegal = next(
            a
            for i in range(game.num_distinct_actions(2))
            if (a := game.action_from_index(i, 2)) not in legal
        )
        message = {"type": "action", "seq": 0, "action": str(illegal)}
        with pytest.raises(ProtocolError) as refused:
            await services.act(live, seat, message)
        assert refused.value.code == "illegal"
        assert str(refused.value.text) == (
            f"{illegal} is not legal now; legal: "
            + ", ".join(str(a) for a in legal[:8])
            + (", ..." if len(legal) > 8 else "")
        )
        assert live.seq == 0 and store.actions(live.id, 1) == []
        await services.close()

    asyncio.run(run())
