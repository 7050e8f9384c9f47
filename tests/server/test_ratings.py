"""Ratings (``docs/accounts.md``, "Ratings"): the rules, signed-in seats, rated tables and their
refusals, the update once per game (a restart rates nothing twice), bots' ratings, the pages'
APIs, and the migration that adds them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import func, inspect, select
from starlette.testclient import TestClient

from campfire.core import all_games
from campfire.core import get as get_game
from campfire.server.app import create_app
from campfire.server.db import make_engine, session_factory
from campfire.server.live import REALTIME_MODE
from campfire.server.models import (
    AccountSeatRow,
    RatedGameRow,
    RatingHistoryRow,
    RatingRow,
    RecordRow,
)
from campfire.server.rated_tables import TableRatings
from campfire.server.ratings import (
    INITIAL_MU,
    INITIAL_SIGMA,
    PROVISIONAL_GAMES,
    Seat,
    outcome_ranks,
    rate,
    shown,
)

from .helpers import check_answer, play_out, seats, wait_for
from .old_database import OldDatabase
from .test_accounts import PASSWORD, settings

GAME = "dudab"
SEED = 3


@contextmanager
def client(url: str, **kwargs: Any) -> Iterator[TestClient]:
    """A started test client with cheap hashing whose every answer is checked."""
    seeds = iter(range(SEED, SEED + 1000))
    app = create_app(url, accounts=settings(), seeds=lambda: next(seeds), **kwargs)
    with TestClient(app) as c:
        c.event_hooks = {"request": [], "response": [check_answer]}
        yield c


def sign_up(c: TestClient, name: str) -> dict[str, str]:
    """Sign ``name`` up; the cookies of their session (the client's are cleared after)."""
    answer = c.post("/api/account/signup", json={"user_name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    cookies = dict(c.cookies)
    c.cookies.clear()
    return cookies


def as_user(c: TestClient, cookies: dict[str, str] | None) -> TestClient:
    """``c`` with the session cookies of a user (``None``: a guest)."""
    c.cookies.clear()
    for name, value in (cookies or {}).items():
        c.cookies.set(name, value)
    return c


def rated_table(
    c: TestClient, creator: dict[str, str] | None, seats_: list[dict[str, Any]], **extra: Any
) -> Any:
    """``POST /api/tables`` of a rated table of the test's game by ``creator``."""
    body = {"game": GAME, "players": len(seats_), "seats": seats_, "rated": True, **extra}
    return as_user(c, creator).post("/api/tables", json=body)


def error_code(answer: Any, status: int) -> str:
    assert answer.status_code == status, answer.text
    return str(answer.json()["error"]["code"])


def first_legal(to_act: list[Any]) -> tuple[Any, str]:
    return to_act[0], to_act[0].last["legal"][0]["notation"]


# ----- the rules ---------------------------------------------------------------------------------


def test_the_winner_gains_and_the_loser_loses() -> None:
    new = rate([Seat("a", INITIAL_MU, INITIAL_SIGMA, 1), Seat("b", INITIAL_MU, INITIAL_SIGMA, 2)])
    assert new["a"][0] > INITIAL_MU > new["b"][0]
    assert new["a"][1] < INITIAL_SIGMA and new["b"][1] < INITIAL_SIGMA  # both better known


def test_a_tie_moves_equal_players_alike_and_many_players_are_ranked() -> None:
    tie = rate([Seat("a", 25, 8, 1), Seat("b", 25, 8, 1), Seat("c", 25, 8, 3)])
    assert tie["a"] == pytest.approx(tie["b"])
    assert tie["a"][0] > 25 > tie["c"][0]
    four = rate([Seat(k, 25, 8, r) for k, r in zip("abcd", [3, 1, 4, 2], strict=True)])
    assert four["b"][0] > four["d"][0] > four["a"][0] > four["c"][0]


def test_a_subject_at_two_seats_gets_the_mean_of_their_updates() -> None:
    two = rate([Seat("bot:easy", 25, 8, 1), Seat("bot:easy", 25, 8, 3), Seat("u", 25, 8, 2)])
    alone = rate([Seat("x", 25, 8, 1), Seat("y", 25, 8, 3), Seat("u", 25, 8, 2)])
    assert set(two) == {"bot:easy", "u"}
    assert two["bot:easy"][0] == pytest.approx((alone["x"][0] + alone["y"][0]) / 2)


def test_the_shown_rating_and_the_outcome_read_from_a_record() -> None:
    assert shown(INITIAL_MU, INITIAL_SIGMA) == 1000
    assert shown(30, 2) == 1000 + 40 * 24
    assert outcome_ranks({"outcome": {"ranks": [1, 2]}}) == [1, 2]
    forfeit = {"outcome": None, "meta": {"forfeit": {"outcome": {"ranks": [2, 1]}}}}
    assert outcome_ranks(forfeit) == [2, 1]
    assert outcome_ranks({"outcome": None, "meta": {"closed": {"message": "x"}}}) is None
    assert outcome_ranks({"outcome": {"ranks": [0, "x"]}}) is None


# ----- signed-in seats ------------------------------------------------------------------------


def test_the_seats_signed_in_people_take_are_theirs(db_url: str) -> None:
    with client(db_url) as c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        seats_ = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "open"}, {"kind": "open"}]
        made = as_user(c, ann).post(
            "/api/tables", json={"game": GAME, "players": 3, "seats": seats_}
        )
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        joined = as_user(c, bob).post(f"/api/tables/{table}/join", json={"nickname": "Bob"})
        assert joined.status_code == 201
        guest = as_user(c, None).post(f"/api/tables/{table}/join", json={"nickname": "Cy"})
        assert guest.status_code == 201  # (an unrated table: guests as ever)
        sessions = session_factory(make_engine(db_url))
        with sessions() as s:
            owned = s.execute(
                select(AccountSeatRow.seat, AccountSeatRow.user_id).where(
                    AccountSeatRow.table_id == table
                )
            ).all()
        assert sorted(seat for seat, _ in owned) == [0, 1]  # the guest's seat is nobody's
        # Bob gives his seat back before the start: it is no longer his
        left = as_user(c, None).post(
            f"/api/tables/{table}/leave",
            headers={"Authorization": f"Bearer {joined.json()['token']}"},
        )
        assert left.status_code == 200
        with sessions() as s:
            seats_now = s.scalars(
                select(AccountSeatRow.seat).where(AccountSeatRow.table_id == table)
            ).all()
        assert list(seats_now) == [0]
        games = as_user(c, ann).get("/api/account/games").json()
        assert [g["table"] for g in games["running"]] == [table] and games["finished"] == []
        assert error_code(as_user(c, None).get("/api/account/games"), 401) == "signed_out"


# ----- rated tables: refusals ---------------------------------------------------------------------


def test_a_rated_table_refuses_what_it_cannot_be(sqlite_url: str) -> None:
    me = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "open"}]
    with client(sqlite_url) as c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        assert error_code(rated_table(c, None, me), 403) == "account_needed"
        assert error_code(rated_table(c, ann, me, hints=True), 400) == "bad_request"
        assert error_code(rated_table(c, ann, me, undo=True), 400) == "bad_request"
        assert error_code(rated_table(c, ann, me, rated="yes"), 400) == "bad_request"
        two = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "reserved", "nickname": "Al"}]
        refused = rated_table(c, ann, two)
        assert error_code(refused, 400) == "bad_request"
        assert "reserve only yours" in refused.json()["error"]["message"]
        bots = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "hard"}]
        assert error_code(rated_table(c, ann, bots), 400) == "bad_request"
        realtime = [g for g in all_games() if REALTIME_MODE in g.play_modes]
        for game in realtime:  # their claim windows are timed by the server, always
            body = {"game": game.name, "players": 2, "seats": me, "rated": True}
            no = as_user(c, ann).post("/api/tables", json={**body, "realtime": False})
            assert error_code(no, 400) == "bad_request"
            yes = as_user(c, ann).post("/api/tables", json=body)
            assert yes.status_code == 201 and yes.json()["table"]["realtime"] is True
            alone = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "bot", "level": "easy"}]
            against_a_bot = as_user(c, ann).post("/api/tables", json={**body, "seats": alone})
            assert against_a_bot.json()["table"]["realtime"] is True  # one person, timed too
        # a rated table: guests may not join, the creator not twice, a signed-in person may
        made = rated_table(c, ann, me)
        assert made.status_code == 201 and made.json()["table"]["rated"] is True
        table, token = made.json()["table"]["id"], made.json()["tokens"]["0"]
        join = f"/api/tables/{table}/join"
        assert error_code(as_user(c, None).post(join, json={"nickname": "G"}), 403) == (
            "account_needed"
        )
        assert error_code(as_user(c, ann).post(join, json={"nickname": "A2"}), 409) == (
            "seat_taken"
        )
        assert as_user(c, bob).post(join, json={"nickname": "Bob"}).status_code == 201
        settings_ = c.get(f"/api/tables/{table}/settings").json()
        assert settings_["rated"] is True and settings_["hints"] is False
        assert settings_["undo"] is False
        # an account gone before the start: its seat is nobody's, and the start says whose
        engine = make_engine(sqlite_url)
        with session_factory(engine).begin() as s:
            s.execute(
                AccountSeatRow.__table__.delete().where(  # type: ignore[attr-defined]
                    AccountSeatRow.table_id == table, AccountSeatRow.seat == 1
                )
            )
        start = as_user(c, ann).post(
            f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert error_code(start, 403) == "account_needed"
        assert "Bob" in start.json()["error"]["message"]


# ----- rated games ----------------------------------------------------------------------------


def _rated_game(c: TestClient, ann: dict[str, str], bob: dict[str, str]) -> int:
    """Ann and Bob play a rated game to its end; the table's id."""
    me = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "open"}]
    made = rated_table(c, ann, me)
    assert made.status_code == 201, made.text
    table, tokens = made.json()["table"]["id"], {0: made.json()["tokens"]["0"]}
    joined = as_user(c, bob).post(f"/api/tables/{table}/join", json={"nickname": "Bob"})
    tokens[1] = joined.json()["token"]
    with seats(c, table, tokens, spectator=False) as clients:
        start = as_user(c, ann).post(
            f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert start.status_code == 200, start.text
        for cl in clients:
            cl.receive()
        play_out(clients, first_legal)
    return int(table)


def _rating(c: TestClient, name: str, game: str = GAME) -> dict[str, Any] | None:
    profile = c.get(f"/api/players/{name}").json()
    found = [r for r in profile["ratings"] if r["game"] == game and r["players"] == 0]
    return found[0] if found else None


def test_a_rated_game_changes_both_ratings_once(db_url: str) -> None:
    with client(db_url) as c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        table = _rated_game(c, ann, bob)
        after = wait_for(lambda: _rating(c, "Ann") and _rating(c, "Bob"), "rated")
        ann_r, bob_r = _rating(c, "Ann"), _rating(c, "Bob")
        assert ann_r is not None and bob_r is not None
        assert ann_r["games"] == bob_r["games"] == 1 and after
        assert ann_r["provisional"] and PROVISIONAL_GAMES > 1
        assert ann_r["wins"] + bob_r["wins"] >= 1
        assert [h["table"] for h in ann_r["history"]] == [table]
        record = c.get(f"/api/tables/{table}/record").json()
        assert record["meta"]["rated"] is True
        winner = "Ann" if record["outcome"]["ranks"][0] == 1 else "Bob"
        loser = "Bob" if winner == "Ann" else "Ann"
        if record["outcome"]["ranks"][0] != record["outcome"]["ranks"][1]:
            assert _rating(c, winner)["rating"] > _rating(c, loser)["rating"]  # type: ignore[index]
        # rating the game again (a second process, a restart's sweep) changes nothing
        ratings = c.app.state.manager.game_ratings  # type: ignore[attr-defined]
        assert ratings.rate_game(table, 1) is False
        assert ratings.sweep() == 0
        assert _rating(c, "Ann") == ann_r
        # the profile lists the game with its result and change; "my games" too
        games = c.get("/api/players/ann").json()["games"]
        assert [(g["table"], g["game_number"], g["rated"]) for g in games] == [(table, 1, True)]
        assert games[0]["change"] == ann_r["history"][0]["change"]
        exported = as_user(c, ann).get("/api/account/export").json()
        assert [r["rating"] for r in exported["ratings"] if r["players"] == 0] == [ann_r["rating"]]
        mine = as_user(c, bob).get("/api/account/games").json()
        assert mine["running"] == [] and [g["table"] for g in mine["finished"]] == [table]
        board = c.get(f"/api/leaderboards/{GAME}").json()
        assert {r["name"] for r in board["rows"]} == {"Ann", "Bob"}
        assert board["rows"][0]["rating"] >= board["rows"][1]["rating"]
        game = get_game(GAME)
        if game.min_players != game.max_players:  # a rating per player count too
            assert board["counts"] == [2]
            two = c.get(f"/api/leaderboards/{GAME}?players=2").json()
            assert [r["rating"] for r in two["rows"]] == [r["rating"] for r in board["rows"]]
        assert error_code(c.get("/api/players/nobody"), 404) == "unknown_player"
        assert error_code(c.get("/api/players/%3Cb%3E"), 404) == "unknown_player"
        assert error_code(c.get("/api/leaderboards/chess"), 404) == "unknown_game"
        assert error_code(c.get(f"/api/leaderboards/{GAME}?players=99"), 400) == "bad_request"
        # the pages: a player's and a leaderboard's; a name or game that is none is a bad link
        assert c.get("/player/ann").status_code == 200 and c.get("/games").status_code == 200
        assert c.get(f"/leaderboard/{GAME}").status_code == 200
        for address in ("/player/nobody", "/player/%3Cb%3E", "/leaderboard/chess"):
            page = c.get(address)
            assert page.status_code == 404 and "text/html" in page.headers["content-type"]


def test_a_game_the_server_stopped_before_rating_is_rated_at_the_next_start_once(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TableRatings, "finished", lambda self, live: None)  # (stopped first)
    with client(db_url) as c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        table = _rated_game(c, ann, bob)
        assert _rating(c, "Ann") is None
    monkeypatch.undo()
    for _ in range(2):  # two restarts: rated at the first, not again at the second
        with client(db_url) as c:
            wait_for(lambda: _rating(c, "Ann"), "rated at the start")
            assert _rating(c, "Ann")["games"] == 1  # type: ignore[index]
    engine = make_engine(db_url)
    with session_factory(engine)() as s:
        assert s.scalar(select(func.count()).select_from(RatedGameRow)) == 1
        rows = s.scalar(select(func.count()).select_from(RatingHistoryRow))
        game = get_game(GAME)
        counts = 1 if game.min_players == game.max_players else 2  # (and per player count)
        assert rows == 2 * counts and table


def test_bots_are_rated_per_level_against_people(sqlite_url: str) -> None:
    # an easy bot answers at once: Ann's moves come faster than a person's socket may send them
    with client(sqlite_url, rate=10_000.0, burst=10_000) as c:
        ann = sign_up(c, "Ann")
        me = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "bot", "level": "easy"}]
        made = rated_table(c, ann, me)
        table, tokens = made.json()["table"]["id"], {0: made.json()["tokens"]["0"]}
        with seats(c, table, tokens, spectator=False) as clients:
            start = as_user(c, ann).post(
                f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
            )
            assert start.status_code == 200
            clients[0].receive()
            answered = -1
            while clients[0].last["outcome"] is None:
                last = clients[0].last
                if last["legal"] and last["seq"] != answered:  # each position once
                    answered = last["seq"]
                    clients[0].act(last["legal"][0]["notation"])
                frame = clients[0].receive()
                assert frame["type"] != "error", frame
        board = wait_for(
            lambda: c.get(f"/api/leaderboards/{GAME}").json()["rows"][1:], "both rated"
        )
        rows = c.get(f"/api/leaderboards/{GAME}").json()["rows"]
        assert {(r["name"], r["bot"]) for r in rows} == {("Ann", None), (None, "easy")}
        assert all(r["games"] == 1 for r in rows) and board
        # what Play now pairs by (quick.RatingLookup): the same ratings' μ, the bots' too
        quick = c.app.state.quick  # type: ignore[attr-defined]
        assert quick.ratings is c.app.state.manager.game_ratings  # type: ignore[attr-defined]
        mu = {r["name"] or r["bot"]: r["mu"] for r in rows}
        assert round(quick.ratings.rating(1, GAME, 2), 4) == mu["Ann"]
        assert round(quick.ratings.bot_rating("easy", GAME, 2), 4) == mu["easy"]
        assert quick.ratings.bot_rating("hard", GAME, 2) is None  # never played a person


def test_a_game_lost_on_time_is_rated_with_the_forfeit(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        me = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "open"}]
        clock = {"kind": "move", "seconds": 0.2, "on_timeout": "loss"}
        made = rated_table(c, ann, me, clock=clock)
        assert made.status_code == 201, made.text
        table, token = made.json()["table"]["id"], made.json()["tokens"]["0"]
        assert as_user(c, bob).post(f"/api/tables/{table}/join", json={"nickname": "B"}).is_success
        start = as_user(c, ann).post(
            f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert start.status_code == 200
        wait_for(lambda: _rating(c, "Ann") and _rating(c, "Bob"), "rated after the time-out")
        record = c.get(f"/api/tables/{table}/record").json()
        lost = record["meta"]["forfeit"]["seat"]
        loser, winner = ("Ann", "Bob") if lost == 0 else ("Bob", "Ann")
        assert _rating(c, winner)["wins"] == 1 and _rating(c, loser)["wins"] == 0  # type: ignore[index]
        assert _rating(c, winner)["rating"] > _rating(c, loser)["rating"]  # type: ignore[index]


# ----- the migration --------------------------------------------------------------------------


def test_the_ratings_migration_upgrades_a_database_without_losing_a_game(db_url: str) -> None:
    old = OldDatabase(db_url, "0006", status="finished")  # the schema before the ratings
    old.run(
        "INSERT INTO records (table_id, game_number, record, finished)"
        " VALUES (7, 1, '{\"game\": \"tracker\"}', '2026-01-01 00:00:02')",
        "INSERT INTO users (id, name, name_key, password_hash, created)"
        " VALUES (3, 'Ann', 'ann', 'x', '2026-01-01 00:00:00')",
        "INSERT INTO account_seats (user_id, table_id, seat, claimed)"
        " VALUES (3, 7, 0, '2026-01-01 00:00:00')",
    )
    old.upgrade()
    tables = set(inspect(old.engine).get_table_names())
    assert {"ratings", "rating_history", "rated_games"} <= tables
    with session_factory(old.engine)() as s:
        assert s.get_one(RecordRow, (7, 1)).record == '{"game": "tracker"}'
        assert s.scalar(select(AccountSeatRow.user_id)) == 3
        assert s.scalar(select(func.count()).select_from(RatingRow)) == 0
    old.downgrade("0006")
    assert "ratings" not in set(inspect(old.engine).get_table_names())
    old.engine.dispose()
