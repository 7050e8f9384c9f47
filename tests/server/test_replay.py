"""Replays over HTTP: a finished game step by step from a seat's point of view or a spectator's.

- the replay of a table's game holds, step by step, exactly what each client was sent live (the
  display model, the legal actions, the step's events and log lines);
- an uploaded record replays the same; malformed records, bad seats, unfinished games and
  oversized bodies get clear JSON errors;
- hidden information: every frame of a seat's replay holds only what that seat could know then
  (checked against the true position at each step, and against a determinisation).
"""

from __future__ import annotations

import gzip
import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import campfire
from campfire.core import Match
from campfire.server.replay import MAX_RECORD_BYTES, REPLAY_SCHEMA, build_replay

from .helpers import app_client, new_table, play_out, seats
from .test_hidden import GAMES, _forms, _hidden_places, _tokens

VALIDATOR = jsonschema.Draft202012Validator(REPLAY_SCHEMA)
DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_the_protocol_document_shows_the_replay_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(REPLAY_SCHEMA)
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Replays (HTTP, JSON)", 1)[1]
    shown = re.search(r"```json\n(.*?)\n```", section, re.S)
    assert shown is not None and json.loads(shown.group(1)) == REPLAY_SCHEMA
    assert "`GET /api/tables/{id}/replay" in text and "`POST /api/replay" in text


def _error(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and error["message"]
    return str(error["message"])


def _random_record(name: str, players: int, seed: int, stop: int | None = None) -> Match:
    """A game of random moves (stopped after ``stop`` actions, if given)."""
    match = Match(
        campfire.get_game(name), players, seed=seed, names=[f"P{i}" for i in range(3)][:players]
    )
    rng = random.Random(seed)
    while not match.state.is_terminal() and (stop is None or len(match.actions) < stop):
        seat = rng.choice(match.state.seats_to_act())
        match.play(seat, rng.choice(match.state.legal_actions(seat)))
    return match


def test_a_tables_replay_holds_exactly_what_each_client_was_sent(sqlite_url: str) -> None:
    rng = random.Random(4)
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        # an unfinished game has no replay: its record would tell the seed
        _error(client.get(f"/api/tables/{table}/replay?seat=0"), 409, "no_record")
        with seats(client, table, tokens) as clients:
            play_out(
                clients,
                lambda to_act: (c := rng.choice(to_act), rng.choice(c.last["legal"])["notation"]),
            )
        for c in clients:
            seat = "spectator" if c.seat is None else str(c.seat)
            answer = client.get(f"/api/tables/{table}/replay?seat={seat}&lang=en")
            assert answer.status_code == 200, answer.text
            assert answer.headers["content-encoding"] == "gzip"  # httpx asked for it
            replay = answer.json()
            VALIDATOR.validate(replay)
            assert replay["seat"] == c.seat and replay["game"] == "tracker"
            assert replay["names"] == ["P0", "P1"] and replay["table"] == table
            assert replay["game_number"] == 1 and replay["language"] == "en"
            frames = replay["frames"]
            live = [f for f in c.frames if f["type"] in ("snapshot", "delta")]
            assert len(frames) == len(live)
            assert frames[0]["step"] is None and frames[0]["seq"] == 0
            for k, (mine, sent) in enumerate(zip(frames, live, strict=True)):
                assert mine["seq"] == sent["seq"] == k
                assert mine["display"] == sent["display"], k
                assert mine["legal"] == sent["legal"], k
                if k:
                    assert mine["step"] == sent["step"], k
            assert replay["outcome"] == clients[0].last["outcome"]
            assert frames[-1]["display"]["over"] is True
        # the same game in Hungarian: the same steps, other words
        hu = client.get(f"/api/tables/{table}/replay?seat=0", headers={"Accept-Language": "hu"})
        en = client.get(f"/api/tables/{table}/replay?seat=0").json()
        assert hu.headers["content-language"] == "hu"
        hu_frames = hu.json()["frames"]
        assert [f["seq"] for f in hu_frames] == [f["seq"] for f in en["frames"]]
        assert (
            hu_frames[1]["step"]["messages"][0]["id"]
            == en["frames"][1]["step"]["messages"][0]["id"]
        )
        assert (
            hu_frames[1]["step"]["messages"][0]["text"]
            != en["frames"][1]["step"]["messages"][0]["text"]
        )
        # a client that does not take gzip gets plain JSON
        plain = client.get(
            f"/api/tables/{table}/replay?seat=1&game=1", headers={"Accept-Encoding": "identity"}
        )
        assert "content-encoding" not in plain.headers
        assert json.loads(plain.content)["frames"][-1]["display"]["over"] is True


def test_an_uploaded_record_replays_like_the_tables_game(sqlite_url: str) -> None:
    rng = random.Random(8)
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "dudab", 3)
        with seats(client, table, tokens, spectator=False) as clients:
            play_out(
                clients,
                lambda to_act: (c := rng.choice(to_act), rng.choice(c.last["legal"])["notation"]),
            )
        record = client.get(f"/api/tables/{table}/record").content
        for seat in ("1", "spectator"):
            uploaded = client.post(f"/api/replay?seat={seat}", content=record)
            assert uploaded.status_code == 200, uploaded.text
            assert uploaded.json() == client.get(f"/api/tables/{table}/replay?seat={seat}").json()


def test_replay_errors_are_clear_json(sqlite_url: str) -> None:
    match = _random_record("tracker", 2, seed=3)
    good = match.record().dumps()
    with app_client(sqlite_url) as client:
        _error(client.get("/api/tables/99/replay"), 404, "unknown_table")
        _error(client.get("/api/tables/x1/replay"), 404, "unknown_table")
        table, _ = new_table(client, "tracker", 2, start=False)
        english = _error(client.get(f"/api/tables/{table}/replay"), 404, "no_record")
        # errors speak the request's language too
        hungarian = _error(client.get(f"/api/tables/{table}/replay?lang=hu"), 404, "no_record")
        assert hungarian != english and str(table) in hungarian
        _error(client.get(f"/api/tables/{table}/replay?game=one"), 400, "bad_request")
        assert "spectator" in _error(
            client.post("/api/replay?seat=me", content=good), 400, "bad_request"
        )
        assert "0–1" in _error(client.post("/api/replay?seat=2", content=good), 400, "bad_request")
        _error(client.post("/api/replay", content=b""), 400, "bad_record")
        _error(client.post("/api/replay", content=b"{not json"), 400, "bad_record")
        _error(client.post("/api/replay", content=b"[1, 2]"), 400, "bad_record")
        data = json.loads(good)
        data["actions"][5][1] = "peek 99"
        message = _error(client.post("/api/replay", content=json.dumps(data)), 400, "bad_record")
        assert "peek 99" in message
        data = json.loads(good)
        data["game"] = "chess"
        assert "chess" in _error(
            client.post("/api/replay", content=json.dumps(data)), 400, "bad_record"
        )
        big = good.replace('"meta": {', '"meta": {"pad": "' + "x" * MAX_RECORD_BYTES + '", ', 1)
        _error(client.post("/api/replay", content=big), 413, "too_large")
        # the good record, from a seat's point of view, in Czech
        answer = client.post("/api/replay?seat=1&lang=cs", content=good)
        assert answer.status_code == 200 and answer.json()["language"] == "cs"
        assert answer.json()["table"] is None and answer.json()["seat"] == 1


def test_a_record_lost_on_time_and_its_causes() -> None:
    match = _random_record("tracker", 2, seed=5, stop=6)
    outcome = {"scores": [0.0, 1.0], "ranks": [2, 1], "winners": [1]}
    meta = {
        "forfeit": {"seat": 0, "seq": 6, "reason": "time", "outcome": outcome},
        "causes": [{"seq": 2, "seat": 0, "cause": "timeout"}, {"seq": 3, "cause": "nonsense"}, 7],
    }
    replay = build_replay(match.record(meta).dumps(), None)
    VALIDATOR.validate(json.loads(json.dumps(replay)))
    assert replay["outcome"] == outcome and replay["forfeit"]["seat"] == 0
    assert [f["step"].get("cause") for f in replay["frames"][1:]] == [
        None,
        None,
        "timeout",
        None,
        None,
        None,
    ]
    # a forfeit that does not fit the record is ignored, never trusted
    meta["forfeit"] = {"seat": 0, "seq": 5, "outcome": outcome}
    replay = build_replay(match.record(meta).dumps(), None)
    assert replay["outcome"] is None and replay["forfeit"] is None
    meta["forfeit"] = {"seat": 0, "seq": 6, "outcome": {"scores": [1], "ranks": "x"}}
    assert build_replay(match.record(meta).dumps(), 0)["forfeit"] is None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seats_replay_holds_nothing_it_could_not_know(name: str) -> None:
    """Every frame of a seat's (and the spectator's) replay, against the truth at that step."""
    game = campfire.get_game(name)
    players = GAMES[name]
    match = _random_record(name, players, seed=21)
    text = match.record().dumps()
    names = [p.name for p in match.players]
    rng = random.Random(name)
    for seat in (None, 1):
        replay = json.loads(json.dumps(build_replay(text, seat)))  # as it goes on the wire
        VALIDATOR.validate(replay)
        truth = Match(game, players, seed=match.seed, names=names)
        frames = replay["frames"]
        assert len(frames) == len(match.actions) + 1
        for k, frame in enumerate(frames):
            if k:
                truth.play(*match.actions[k - 1])
            state = truth.state
            events = frame["step"]["events"] if frame["step"] else []
            for event in events:
                assert "to" not in event or (seat is not None and seat in event["to"])
            view = json.loads(json.dumps(state.view(seat)))
            legal = (
                state.legal_actions(seat)
                if seat in state.seats_to_act() and not state.is_terminal()
                else []
            )
            expected = game.presenter().display(view, legal, names).to_json()
            assert frame["display"] == json.loads(json.dumps(expected)), (name, seat, k)
            knowable = _tokens(json.dumps(view) + json.dumps(events) + json.dumps(frame["legal"]))
            hidden = {
                form
                for card in _hidden_places(name, state.to_position(), seat)
                for form in _forms(name, card)
            }
            leaked = (hidden - knowable) & _tokens(json.dumps(frame))
            assert not leaked, (name, seat, k, sorted(leaked))
            if seat is not None and not state.is_terminal() and k % 4 == 0:
                world = state.determinize(seat, rng)
                shown = game.presenter().display(world.view(seat), legal, names).to_json()
                assert json.loads(json.dumps(shown)) == frame["display"], (name, seat, k)
        assert replay["outcome"] == match.state.outcome().to_json()


def test_replays_are_compressed_and_kept(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, "manitou", 2)
        with seats(client, table, tokens, spectator=False) as clients:
            play_out(clients, lambda to_act: (to_act[0], to_act[0].last["legal"][0]["notation"]))
        first = client.get(f"/api/tables/{table}/replay?seat=0")
        cache = client.app.state.replay_cache  # type: ignore[attr-defined]
        assert len(cache.items) == 1
        packed = next(iter(cache.items.values()))
        assert json.loads(gzip.decompress(packed)) == first.json()
        assert client.get(f"/api/tables/{table}/replay?seat=0").json() == first.json()
        assert len(cache.items) == 1
