"""Quick match ("Play now"): people waiting for one game and count are seated together, bots
fill the seats after the wait, ratings pair within a widening band, blocked people are never
paired, the queue is bounded and forgets pages that went away, and every server process shares
it (``docs/web.md``, "Play now"; ``docs/protocol.md``, "Quick match").
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from campfire.server.models import utcnow
from campfire.server.quick import EXPIRE_SECONDS, MAX_PER_CLIENT, QuickMatch, _Waiting, bot_level

from .helpers import seats
from .test_accounts import client, csrf, error, sign_up


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)


@contextmanager
def quick_client(url: str) -> Iterator[tuple[TestClient, Clock]]:
    """A client of an app whose quick match runs on a clock the test moves."""
    with client(url) as c:
        clock = Clock()
        c.app.state.quick.clock = clock  # type: ignore[attr-defined]
        yield c, clock


def _join(c: TestClient, nickname: str, **extra: Any) -> dict[str, Any]:
    body = {"game": "tracker", "players": 2, "nickname": nickname, "wait": 30, **extra}
    answer = c.post("/api/quick", json=body)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _look(c: TestClient, ticket: str) -> dict[str, Any]:
    answer = c.get("/api/quick", headers={"Authorization": f"Bearer {ticket}"})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _wait(c: TestClient, clock: Clock, ticket: str, seconds: float) -> dict[str, Any]:
    """Let ``seconds`` pass while the page looks every 5 s; the last look (or the seated one)."""
    while True:
        step = min(seconds, 5.0)
        clock.advance(step)
        seconds -= step
        c.app.state.quick._last.clear()  # type: ignore[attr-defined]  # (matching at each look)
        seen = _look(c, ticket)
        if seconds <= 0 or seen["state"] == "seated":  # (a seated ticket ends with its answer)
            return seen


def test_two_people_waiting_for_one_game_are_seated_together(db_url: str) -> None:
    with quick_client(db_url) as (c, clock):
        ann = _join(c, "Ann")
        assert ann["state"] == "waiting" and ann["waiting"] == ["Ann"]
        assert ann["seconds_left"] == 30
        clock.advance(5)
        assert _look(c, ann["ticket"])["seconds_left"] == 25
        # somebody waiting for another game or count is not seated with Ann
        other = _join(c, "Cyd", players=3)
        assert other["state"] == "waiting" and other["waiting"] == ["Cyd"]
        bob = _join(c, "Bob")
        assert bob["state"] == "seated"
        seen = _look(c, ann["ticket"])
        assert seen["state"] == "seated" and seen["table"] == bob["table"]
        assert {seen["seat"], bob["seat"]} == {0, 1}
        # the token is handed over once: the ticket ended with that answer
        gone = c.get("/api/quick", headers={"Authorization": f"Bearer {ann['ticket']}"})
        error(gone, 404, "unknown_ticket")
        table = c.get(f"/api/tables/{bob['table']}").json()["table"]
        assert table["status"] == "running"  # the game started at once
        assert [s["nickname"] for s in table["seats"]] == ["Ann", "Bob"]
        assert all(s["kind"] == "human" for s in table["seats"])
        tokens = {seen["seat"]: seen["token"], bob["seat"]: bob["token"]}
        with seats(c, bob["table"], tokens, spectator=False) as clients:
            assert [x.last["seat"] for x in clients] == [0, 1]  # each token plays its seat
        assert _look(c, other["ticket"])["state"] == "waiting"


def test_a_lone_player_gets_bots_of_the_chosen_level_after_the_wait(db_url: str) -> None:
    with quick_client(db_url) as (c, clock):
        ann = _join(c, "Ann", players=3, wait=60, level="medium")
        assert _wait(c, clock, ann["ticket"], 59)["state"] == "waiting"
        seen = _wait(c, clock, ann["ticket"], 1.5)
        assert seen["state"] == "seated" and seen["seat"] == 0
        table = c.get(f"/api/tables/{seen['table']}").json()["table"]
        assert table["status"] == "running"
        assert [(s["kind"], s["level"]) for s in table["seats"]] == [
            ("human", None),
            ("bot", "medium"),
            ("bot", "medium"),
        ]


def test_bad_requests_say_what_is_allowed(sqlite_url: str) -> None:
    with quick_client(sqlite_url) as (c, _):
        for body, words in [
            ({"game": "tracker", "nickname": "A", "wait": 45}, "10, 30, 60, 120, 300"),
            ({"game": "nope", "nickname": "A"}, "tracker"),
            ({"game": "tracker", "nickname": "A", "players": 9}, "2"),
            ({"game": "tracker", "nickname": "A", "level": "godlike"}, "easy, medium, hard"),
            ({"game": "tracker", "nickname": ""}, "nickname"),
            ({"game": "tracker", "nickname": "A", "seed": 1}, "game, players"),
        ]:
            assert words in error(c.post("/api/quick", json=body), 400, "bad_request"), body
        error(c.get("/api/quick"), 401, "bad_token")
        error(c.get("/api/quick", headers={"Authorization": "Bearer nope"}), 404, "unknown_ticket")


def test_the_queue_is_bounded_and_forgets_pages_that_went_away(sqlite_url: str) -> None:
    with quick_client(sqlite_url) as (c, clock):
        # one person of each count waits: nobody is seated
        tickets = [_join(c, f"P{i}", players=2 + i)["ticket"] for i in range(MAX_PER_CLIENT)]
        body = {"game": "manitou", "nickname": "X"}
        message = error(c.post("/api/quick", json=body), 429, "queue_full")
        assert str(MAX_PER_CLIENT) in message
        for ticket in tickets:
            c.delete("/api/quick", headers={"Authorization": f"Bearer {ticket}"})
        lone = _join(c, "Lone")
        left = c.delete("/api/quick", headers={"Authorization": f"Bearer {lone['ticket']}"})
        assert left.status_code == 200 and left.json() == {"left": True}
        error(
            c.get("/api/quick", headers={"Authorization": f"Bearer {lone['ticket']}"}),
            404,
            "unknown_ticket",
        )
        # a page that stops looking is forgotten: nobody is seated with it
        gone = _join(c, "Gone")
        clock.advance(EXPIRE_SECONDS + 1)
        later = _join(c, "Later")
        assert later["state"] == "waiting" and later["waiting"] == ["Later"]
        error(
            c.get("/api/quick", headers={"Authorization": f"Bearer {gone['ticket']}"}),
            404,
            "unknown_ticket",
        )


def test_blocked_people_are_never_paired_and_an_account_waits_once(db_url: str) -> None:
    with quick_client(db_url) as (c, clock):
        sign_up(c, "Ann")
        ann_cookie = c.cookies.get("campfire_session")
        c.cookies.clear()
        sign_up(c, "Bob")
        bob_cookie = c.cookies.get("campfire_session")
        c.cookies.clear()
        c.cookies.set("campfire_session", str(ann_cookie))
        assert (
            c.post("/api/account/blocks", json={"user_name": "Bob"}, headers=csrf(c)).status_code
            == 200
        )
        first = _join(c, "Ann")
        again = _join(c, "Ann")  # the account's new ticket replaces the old
        clock.advance(1)
        error(
            c.get("/api/quick", headers={"Authorization": f"Bearer {first['ticket']}"}),
            404,
            "unknown_ticket",
        )
        c.cookies.clear()
        c.cookies.set("campfire_session", str(bob_cookie))
        bob = _join(c, "Bob")
        assert bob["state"] == "waiting" and bob["waiting"] == ["Ann", "Bob"]
        clock.advance(1)
        c.cookies.clear()
        guest = _join(c, "Guest")  # a guest is seated with the one who waited longest
        assert guest["state"] == "seated"
        ann = _look(c, again["ticket"])
        assert ann["state"] == "seated" and ann["table"] == guest["table"]
        assert _look(c, bob["ticket"])["state"] == "waiting"
        # Ann's seat is her account's: a block refuses Bob a seat there too
        table = guest["table"]
        assert c.app.state.accounts.moderation.seat_accounts(table) == {ann["seat"]: 1}  # type: ignore[attr-defined]


def _waiting(
    key: str, rating: float | None, seconds_ago: float, now: datetime.datetime
) -> _Waiting:
    then = now - datetime.timedelta(seconds=seconds_ago)
    return _Waiting(key, key, None, rating, "easy", then, then + datetime.timedelta(seconds=300))


def test_ratings_pair_within_a_band_that_widens_with_the_wait() -> None:
    quick = QuickMatch(None, None)  # type: ignore[arg-type]  # (choose reads no database)
    now = utcnow()
    near, far = _waiting("a", 25.0, 0, now), _waiting("b", 27.0, 0, now)
    assert quick.choose([near, far], 2, now, set()) == [[near, far]]
    strong = _waiting("c", 40.0, 0, now)
    assert quick.choose([near, strong], 2, now, set()) == []  # 15 apart: not yet
    patient = _waiting("a", 25.0, 60, now)  # after a minute the band is 3 + 15 = 18
    assert quick.choose([patient, strong], 2, now, set()) == [[patient, strong]]
    unknown = _waiting("d", None, 0, now)  # no rating: paired with anybody
    assert quick.choose([strong, unknown], 2, now, set()) == [[strong, unknown]]
    assert quick.band(0) == 3.0 and quick.band(60) == 18.0


def test_the_bots_level_follows_the_ratings_where_there_are_some() -> None:
    bots = {"easy": 15.0, "medium": 25.0, "hard": 33.0}
    assert bot_level([31.0, 36.0], "easy", bots) == "hard"
    assert bot_level([], "medium", bots) == "medium"


class Ratings:
    """Ratings of the seam: every account at 34, the bots at their level's."""

    def rating(self, user_id: int, game: str, players: int) -> float | None:
        return 34.0

    def bot_rating(self, level: str, game: str, players: int) -> float | None:
        return {"easy": 15.0, "medium": 25.0, "hard": 33.0}[level]


def test_a_rated_player_gets_bots_at_their_level(sqlite_url: str) -> None:
    with quick_client(sqlite_url) as (c, clock):
        c.app.state.quick.ratings = Ratings()  # type: ignore[attr-defined]
        sign_up(c, "Ann")
        ann = _join(c, "Ann", level="easy")
        seen = _wait(c, clock, ann["ticket"], 31)
        table = c.get(f"/api/tables/{seen['table']}").json()["table"]
        assert table["seats"][1]["level"] == "hard"


def test_every_server_process_shares_the_queue(pg_only: str) -> None:
    # two apps on one database: a person waits at one, the other person comes to the other
    with quick_client(pg_only) as (a, _), quick_client(pg_only) as (b, _):
        ann = _join(a, "Ann")
        bob = _join(b, "Bob")
        assert bob["state"] == "seated"
        seen = _look(a, ann["ticket"])
        assert seen["state"] == "seated" and seen["table"] == bob["table"]


@pytest.fixture
def pg_only(pg_schema: str) -> Iterator[str]:
    """A fresh PostgreSQL schema (the quick match shares no Redis: the database is enough)."""
    from .conftest import fresh_schema

    with fresh_schema(pg_schema) as url:
        yield url
