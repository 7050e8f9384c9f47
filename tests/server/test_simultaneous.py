"""Simultaneous steps: an answer that still fits is accepted after another seat's answer.

In Apache's claim poll and Big Manitou's selection every seat to act answers at once, and each
answer moves the sequence number on. An action names the step it answers; it is accepted when
its seat has been to act since then with the same legal actions, and refused as ``stale`` when
they changed (it acted meanwhile, or the step is over) (issue 26).
"""

from __future__ import annotations

from typing import Any

from .helpers import Seat, app_client, new_table, seats, start_table


def _error(client: Seat) -> dict[str, Any]:
    frame = client.receive()
    assert frame["type"] == "error", frame
    return frame


def test_a_selection_answered_after_another_seats_pick_is_accepted(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "manitou", 3, start=False)
        with seats(client, table, tokens) as (a, b, c, watcher):
            start_table(client, table, tokens, [a, b, c, watcher])
            assert a.last["legal"] and b.last["legal"] and c.last["legal"]  # all three select
            asked = a.last["seq"]
            a.act(a.last["legal"][0]["notation"])
            assert watcher.receive()["step"]["seat"] == 0
            # b and c answer the step they saw, without having read a's pick (nor b's)
            for late, before in ((b, 1), (c, 2)):
                late.send(
                    {"type": "action", "seq": asked, "action": late.last["legal"][0]["notation"]}
                )
                frames = [late.receive() for _ in range(before + 1)]
                assert [f["type"] for f in frames] == ["delta"] * (before + 1), frames[-1]
                assert frames[-1]["step"]["seat"] == late.seat
                assert watcher.receive()["step"]["seat"] == late.seat
            assert watcher.last["seq"] == asked + 3


def test_an_answer_that_no_longer_fits_is_stale(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "manitou", 2, start=False)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        with seats(client, table, tokens, spectator=False) as (a, b):
            start_table(client, table, tokens, [a, b])
            asked = a.last["seq"]
            first, second = (x["notation"] for x in a.last["legal"][:2])
            a.act(first)
            for x in (a, b):
                assert x.receive()["type"] == "delta"
            # a's own pick changed its choice: a second answer to the same step is stale,
            # although "second" is still legal for it (a resent message is never played twice)
            a.send({"type": "action", "seq": asked, "action": second})
            stale = _error(a)
            assert stale["code"] == "stale" and stale["seq"] == asked + 1
            # an answer from a step not reached yet is stale too
            b.send({"type": "action", "seq": asked + 5, "action": b.last["legal"][0]["notation"]})
            assert _error(b)["code"] == "stale"
            assert live.seq == asked + 1
            # b's answer to the first step still fits: b's choice has not changed
            b.send({"type": "action", "seq": asked, "action": b.last["legal"][0]["notation"]})
            assert b.receive()["type"] == "delta" and live.seq == asked + 2


def test_a_claim_answered_after_another_seats_claim_is_accepted_and_timed_on_arrival(
    sqlite_url: str,
) -> None:
    now = [995.0]
    with app_client(sqlite_url, clock=lambda: now[0]) as client:
        table, tokens = new_table(client, "apache", 3, start=False, realtime=True)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        with seats(client, table, tokens, spectator=False) as clients:
            start_table(client, table, tokens, clients)
            revealer = next(c for c in clients if c.last["legal"])
            now[0] = 1000.0
            revealer.act("reveal")
            for c in clients:
                assert c.receive()["type"] == "delta"
            asked = clients[0].last["seq"]
            for i, c in enumerate(clients):  # none has seen another's claim when it sends
                now[0] = 1000.0 + 0.2 * (i + 1)
                claim = next(
                    a["notation"] for a in c.last["legal"] if a["notation"].startswith("claim")
                )
                c.send({"type": "action", "seq": asked, "action": " ".join(claim.split()[:2])})
                for d in [c, *(d for d in clients if d is not c)]:  # the sender's answer first
                    frame = d.receive()
                    assert frame["type"] == "delta", frame
        timed = [(s, str(a)) for s, a in live.table.match.actions if str(a).startswith("claim")]
    assert [(s, a.split()[-1]) for s, a in timed] == [(0, "200"), (1, "400"), (2, "600")]
