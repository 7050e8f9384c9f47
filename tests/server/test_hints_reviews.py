"""Hints at casual tables and post-game reviews on the server (docs/protocol.md, docs/learn.md).

A hint goes to the asking seat only, and every connection hears that it was used; a table must
allow hints. A review of a finished game is queued, runs in the bot pool, and is kept with the
game's stored record.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from campfire.agents import make_agent
from campfire.core import Record
from campfire.core import get as get_game
from campfire.core.table import Table
from campfire.server.reviews import MAX_QUEUED, MAX_UPLOADS_QUEUED, ReviewQueue
from campfire.server.seating import LobbyError, SeatInfo
from campfire.server.storage import MemoryStore

from .helpers import LOBBY_VALIDATORS, Seat, app_client, new_table, play_out, seats

#: hints: a game of turns (one seat to act at a time); reviews: a short game
GAME = "dudab"
REVIEWED = "manitou"
SEED = 3


def _next_of(client: Seat, kind: str) -> dict[str, Any]:
    while True:
        frame = client.receive()
        if frame["type"] == kind:
            return frame


def test_a_hint_goes_to_the_asking_seat_and_the_log_tells_everyone(sqlite_url: str) -> None:
    with app_client(sqlite_url, seed=SEED) as client:
        table, tokens = new_table(client, GAME, 2, hints=True)
        assert client.get(f"/api/tables/{table}/settings").json()["hints"] is True
        with seats(client, table, tokens) as clients:
            asker = next(c for c in clients if c.last["legal"])
            other = next(c for c in clients[:2] if c is not asker)
            spectator = clients[2]
            seq = asker.last["seq"]
            asker.send({"type": "hint", "seq": seq})
            got = asker.receive()
            assert got["type"] == "hint" and got["seat"] == asker.seat and got["seq"] == seq
            legal = {a["notation"] for a in asker.last["legal"]}
            assert got["action"] in legal and got["label"] and 0 <= got["win"] <= 1
            assert _next_of(asker, "hint_used")["seat"] == asker.seat
            for c in (other, spectator):  # the log line, never the suggestion
                used = c.receive()
                assert used == {
                    "type": "hint_used",
                    "table": table,
                    "game_number": 1,
                    "seq": seq,
                    "seat": asker.seat,
                }
            # refusals: not to act, a spectator, an old position
            other.send({"type": "hint", "seq": seq})
            assert other.receive()["code"] == "hint_turn"
            spectator.send({"type": "hint", "seq": seq})
            assert spectator.receive()["code"] == "not_seated"
            asker.send({"type": "hint", "seq": seq + 5})
            assert asker.receive()["code"] == "stale"
            other.send({"type": "ping"})
            assert other.receive()["type"] == "pong"  # nothing else reached the other seat
            hinted = asker.seat
    # the server restarts mid-game: the hint is remembered with the table, not only in memory
    with app_client(sqlite_url, seed=SEED + 1) as client:
        with seats(client, table, tokens) as clients:
            for c in clients:  # every snapshot lists it (a reloaded page's log line)
                assert c.frames[0]["hints"] == [{"seq": seq, "seat": hinted}]
            play_out(clients, lambda to_act: (to_act[0], to_act[0].last["legal"][0]["notation"]))
        record = Record.loads(client.get(f"/api/tables/{table}/record?game=1").text)
        assert record.meta["hints"] == [{"seq": seq, "seat": hinted}]  # the record says so


def test_a_table_without_hints_refuses_them(sqlite_url: str) -> None:
    with app_client(sqlite_url, seed=SEED) as client:
        table, tokens = new_table(client, GAME, 2)  # hints are off unless asked for
        assert client.get(f"/api/tables/{table}/settings").json()["hints"] is False
        with seats(client, table, tokens, spectator=False) as clients:
            asker = next(c for c in clients if c.last["legal"])
            asker.send({"type": "hint", "seq": asker.last["seq"]})
            refused = asker.receive()
            assert (refused["type"], refused["code"]) == ("error", "hint_off")
        bad = client.post(
            "/api/tables",
            json={"game": GAME, "players": 2, "hints": "yes", "seats": [{"kind": "open"}] * 2},
        )
        assert bad.status_code == 400 and '"hints"' in bad.json()["error"]["message"]


def test_hints_are_rate_limited(sqlite_url: str) -> None:
    with app_client(sqlite_url, seed=SEED) as client:
        table, tokens = new_table(client, GAME, 2, hints=True)
        with seats(client, table, tokens, spectator=False) as clients:
            asker = next(c for c in clients if c.last["legal"])
            codes = []
            for _ in range(5):
                asker.send({"type": "hint", "seq": asker.last["seq"]})
                frame = asker.receive()
                if frame["type"] == "hint":
                    _next_of(asker, "hint_used")
                codes.append(frame.get("code", frame["type"]))
            assert codes[:3] == ["hint"] * 3 and "rate_limited" in codes[3:]


def test_a_finished_game_is_reviewed_and_the_review_is_kept_with_it(sqlite_url: str) -> None:
    # what is tested is the queue, not depth (campfire serve --review-iterations 10)
    with app_client(sqlite_url, seed=SEED, review_iterations=10) as client:
        table, tokens = new_table(client, REVIEWED, 2)
        with seats(client, table, tokens, spectator=False) as clients:
            before = client.get(f"/api/tables/{table}/review?game=1")
            assert before.status_code == 409  # no review while the game is played
            play_out(clients, lambda to_act: (to_act[0], to_act[0].last["legal"][0]["notation"]))
        nothing = client.get(f"/api/tables/{table}/review?game=1").json()
        assert nothing["status"] == "none" and nothing["review"] is None
        started = client.post(f"/api/tables/{table}/review?game=1")
        assert started.status_code == 202
        assert started.json()["status"] in ("queued", "running", "done")
        deadline = time.monotonic() + 300
        while True:
            answer = client.get(f"/api/tables/{table}/review?game=1&lang=hu").json()
            assert answer["status"] in ("queued", "running", "done"), answer
            assert 0 <= answer["done"] <= max(answer["total"], 0) or answer["total"] == 0
            if answer["status"] == "done":
                break
            assert time.monotonic() < deadline
            time.sleep(0.2)
        review = answer["review"]
        assert review["format"] == "campfire-review" and review["seats"] == [0, 1]
        assert len(review["words"]) == len(review["decisions"]) > 0
        assert review["names"] == ["P0", "P1"]
        assert review["iterations"] == 10  # the server's setting, not the game's own
        stored = Record.loads(client.get(f"/api/tables/{table}/record?game=1").text)
        assert stored.meta["review"]["decisions"] == review["decisions"]
    # after a restart the review is read from the stored record, not searched again
    with app_client(sqlite_url, seed=SEED + 50) as client:
        again = client.get(f"/api/tables/{table}/review?game=1").json()
        assert again["status"] == "done" and again["review"]["decisions"] == review["decisions"]


class _Bots:
    """The bot driver's part a review needs: the pool, and whether live bots are deciding."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.deciding = True

    def busy(self) -> bool:
        return self.deciding


class _Hub:
    def __init__(self) -> None:
        self.bots = _Bots()
        self.store = MemoryStore()

    def spawn(self, coro: Any) -> asyncio.Task[None]:
        return asyncio.get_running_loop().create_task(coro)


def _finished_record(seed: int) -> str:
    game = get_game(REVIEWED)
    agents = [make_agent("easy", game, s, 2, seed=s) for s in range(2)]
    table = Table(game, 2, seed=seed, agents=agents)
    table.run()
    return table.match.record().dumps()


def test_a_review_waits_while_live_bots_decide_and_the_queue_is_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ReviewQueue, "iterations", 10)  # what is tested is the queue, not depth

    async def scenario() -> None:
        hub = _Hub()
        reviews = ReviewQueue(hub)  # type: ignore[arg-type]
        text = _finished_record(SEED)
        table = hub.store.create(REVIEWED, {}, 2, [SeatInfo(0), SeatInfo(1)])
        hub.store.finish(table, 1, text)
        job = reviews.request(table, 1, text)
        assert reviews.request(table, 1, text) is job  # asked twice: one review
        for _ in range(50):
            await asyncio.sleep(0.01)
        # the live bots are deciding all along: not one slice of the review has run
        assert job.status in ("queued", "running") and job.done == 0
        for number in range(2, 2 + MAX_QUEUED):
            reviews.request(table, number, text)
        with pytest.raises(LobbyError) as refused:
            reviews.request(table, 99, text)
        assert refused.value.status == 503
        reviews.waiting.clear()  # (only the first is reviewed here)
        hub.bots.deciding = False
        for _ in range(6000):
            if job.status == "done":
                break
            await asyncio.sleep(0.02)
        assert job.status == "done" and job.done == job.total > 0
        stored = Record.loads(hub.store.record(table, 1) or "")
        assert stored.meta["review"] == job.result
        hub.bots.pool.shutdown()

    asyncio.run(scenario())


def test_an_uploaded_record_is_reviewed_under_its_own_id(sqlite_url: str) -> None:
    """``POST /api/review`` with a record file: 202 and an id, then ``GET /api/review/{id}``.

    The same file sent twice is one review; a broken file is 400 ``bad_record`` and an id the
    server does not keep 404 ``no_review``; no uploaded review is written anywhere (there is no
    game to keep it with), and at most MAX_UPLOADS_QUEUED files wait at once.
    """
    text = _finished_record(SEED)
    # what is tested is the upload, not depth: the app sets its queue's iterations itself
    with app_client(sqlite_url, seed=SEED, review_iterations=10) as client:
        started = client.post("/api/review", content=text)
        assert started.status_code == 202
        LOBBY_VALIDATORS["review_progress"].validate(started.json())
        review_id = started.json()["id"]
        assert len(review_id) == 64 and "table" not in started.json()
        again = client.post("/api/review", content=text)
        assert again.json()["id"] == review_id  # one review
        deadline = time.monotonic() + 300
        while True:
            answer = client.get(f"/api/review/{review_id}?lang=cs")
            assert answer.status_code == 200
            LOBBY_VALIDATORS["review_progress"].validate(answer.json())
            if answer.json()["status"] == "done":
                break
            assert answer.json()["status"] in ("queued", "running")
            assert time.monotonic() < deadline
            time.sleep(0.2)
        review = answer.json()["review"]
        assert review["format"] == "campfire-review" and len(review["words"]) > 0
        assert review["iterations"] == 10
        assert answer.headers["content-language"] == "cs"
        broken = client.post("/api/review", content=text.replace('"actions"', '"akce"'))
        assert broken.status_code == 400 and broken.json()["error"]["code"] == "bad_record"
        LOBBY_VALIDATORS["http_error"].validate(broken.json())
        empty = client.post("/api/review", content=b"")
        assert empty.status_code == 400
        unknown = client.get("/api/review/" + "0" * 64)
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "no_review"
        assert client.get("/api/review/not-an-id").status_code == 404
        # a record downloaded after its review carries it: answered at once, as sent
        reviewed = Record.loads(text)
        reviewed.meta["review"] = review | {"names": None, "words": None}
        for key in ("names", "words"):
            del reviewed.meta["review"][key]
        done = client.post("/api/review", content=reviewed.dumps())
        assert done.status_code == 202 and done.json()["status"] == "done"


def test_uploaded_records_take_only_part_of_the_review_queue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ReviewQueue, "iterations", 10)

    async def scenario() -> None:
        hub = _Hub()  # live bots deciding all along: nothing runs
        reviews = ReviewQueue(hub)  # type: ignore[arg-type]
        files = [Record.loads(_finished_record(SEED + n)) for n in range(MAX_UPLOADS_QUEUED + 2)]
        jobs = [reviews.request_upload(record) for record in files[:MAX_UPLOADS_QUEUED]]
        await asyncio.sleep(0.05)  # the first is taken out of the queue to run
        assert jobs[0].status == "running" and jobs[0].done == 0
        jobs.append(reviews.request_upload(files[MAX_UPLOADS_QUEUED]))  # waiting: the others
        assert len({job.upload for job in jobs}) == len(jobs)
        with pytest.raises(LobbyError) as refused:
            reviews.request_upload(files[-1])
        assert refused.value.status == 503 and refused.value.code == "review_busy"
        assert reviews.request_upload(files[1]) is jobs[1]  # one already waiting: no refusal
        text = _finished_record(SEED)
        table = hub.store.create(REVIEWED, {}, 2, [SeatInfo(0), SeatInfo(1)])
        hub.store.finish(table, 1, text)
        assert reviews.request(table, 1, text).status == "queued"  # tables still get in
        reviews.waiting.clear()
        hub.bots.pool.shutdown(cancel_futures=True)

    asyncio.run(scenario())


def test_serve_takes_the_reviews_iterations_and_refuses_a_bad_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from campfire.cli import build_parser
    from campfire.server.cli import apply_settings

    args = build_parser().parse_args(["serve", "--review-iterations", "25"])
    apply_settings(args)
    assert args.review_iterations == 25
    plain = build_parser().parse_args(["serve"])
    apply_settings(plain)
    assert plain.review_iterations is None  # each game's own
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--review-iterations", "0"])
    assert "--review-iterations" in capsys.readouterr().err
