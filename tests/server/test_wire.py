"""Frames on the wire are what the frame builders made, whatever the encoder and its sharing.

The server encodes each step's frame once per seat and language (``campfire.server.wire``,
orjson when installed) and builds display models with ``Display.to_json``'s compiled copy.
These tests rebuild every frame of full games independently — the seat's view, legal actions
and visible events from a replay of the record, the display model through ``dataclasses.asdict``
and the JSON through the standard library, the path the server took before — and compare.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, replace
from typing import Any

import pytest

import campfire
from campfire.core import Match
from campfire.core.events import visible_events
from campfire.core.present import Zone
from campfire.core.records import replay_text
from campfire.server import protocol, wire
from campfire.server.wire import EncodedParts, encode, encode_json

from .helpers import Seat, app_client, new_table, seats


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _expected_frames(record_text: str, seat: int | None) -> list[dict[str, Any]]:
    """Every delta's view, display, legal actions and step for ``seat``, the old way."""
    rec, _ = replay_text(record_text)
    game = campfire.get_game(rec.game)
    players = len(rec.players)
    names = [p.name for p in rec.players]
    match = Match(game, players, rec.options, seed=rec.seed)
    presenter = game.presenter()
    out = []
    for index, (mover, notation) in enumerate(rec.actions):
        events = visible_events(match.play(mover, notation), seat)
        state = match.state
        to_act = seat is not None and not state.is_terminal() and seat in state.seats_to_act()
        legal = state.legal_actions(seat) if to_act else []
        view = state.view(seat)
        messages = [m.to_json() for m in presenter.messages(events, names, seat)]
        shown = presenter.step_display(events, seat)
        out.append(
            {
                "seq": index + 1,
                "view": _json(view),
                "display": _json(asdict(presenter.display(view, legal, names))),
                "legal": _json(protocol.legal_json(game, players, legal)),
                "step": _json(protocol.step_json(index + 1, mover, events, messages, None, shown)),
            }
        )
    return out


@pytest.mark.parametrize(("game", "players"), [("tracker", 2), ("dudab", 3)])
def test_every_frame_sent_equals_the_frame_built_the_old_way(
    sqlite_url: str, game: str, players: int
) -> None:
    rng = random.Random(7)
    with app_client(sqlite_url, seed=11) as client:
        table, tokens = new_table(client, game, players)
        with seats(client, table, tokens, check_every=10) as clients:
            while clients[0].last["outcome"] is None:
                mover = rng.choice([c for c in clients if c.last["legal"]])
                mover.act(rng.choice(mover.last["legal"])["index"])
                for c in clients:
                    assert c.receive()["type"] == "delta"
            record = client.get(f"/api/tables/{table}/record").text
            received: dict[int | None, list[dict[str, Any]]] = {
                c.seat: [f for f in c.frames if f["type"] == "delta"] for c in clients
            }
    for seat, frames in received.items():
        expected = _expected_frames(record, seat)
        assert len(frames) == len(expected)
        for frame, want in zip(frames, expected, strict=True):
            assert frame["seq"] == want["seq"]
            for key in ("view", "display", "legal", "step"):
                assert frame[key] == want[key], (seat, want["seq"], key)


def test_the_encoder_gives_the_json_of_the_standard_library() -> None:
    frame: dict[Any, Any] = {
        "type": "delta",
        "text": "Pál peeks — 3 ♠",
        "seats": (0, 1),
        "nested": [{"a": None, "b": 1.5, "c": True}],
        7: "a key that is no string",
    }
    text = encode(frame)
    assert json.loads(text) == json.loads(json.dumps(frame))
    assert text.startswith('{"type":"delta","text":"Pál peeks — 3 ♠","seats":[0,1],')
    assert encode_json(frame) == text


def test_a_display_model_in_a_frame_is_written_as_its_json() -> None:
    game = campfire.get_game("dudab")
    state = game.new_game(3, seed=4)
    seat = state.seats_to_act()[0]
    display = game.presenter().display(state.view(seat), state.legal_actions(seat), ["A", "B", "C"])
    frame = {"type": "delta", "display": display}
    want = json.loads(json.dumps({"type": "delta", "display": display.to_json()}))
    assert json.loads(encode(frame)) == want
    assert json.loads(encode_json(frame)) == want


def test_values_the_fast_encoder_refuses_are_encoded_as_the_standard_library_does() -> None:
    frame = {"big": 2**70, "list": [1, 2]}
    assert json.loads(encode(frame)) == frame


def test_a_spectators_frames_are_one_text_for_all_spectators(sqlite_url: str) -> None:
    with app_client(sqlite_url, seed=3) as client:
        table, tokens = new_table(client, "tracker", 2)
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        with (
            seats(client, table, tokens) as clients,  # asking for views (view=1), like this one
            client.websocket_connect(f"/ws/tables/{table}?view=1") as ws,
        ):
            second = Seat(ws, None, views=True)
            second.receive()
            conns = [c for c in live.connections if c.seat is None]
            assert len(conns) == 2
            mover = next(c for c in clients if c.last["legal"])
            texts: list[Any] = []
            original = type(conns[0]).push

            def spy(self: Any, frame: Any) -> None:
                if self.seat is None:
                    texts.append(frame)
                original(self, frame)

            type(conns[0]).push = spy
            try:
                mover.act(mover.last["legal"][0]["index"])
                for c in [*clients, second]:
                    assert c.receive()["type"] == "delta"
            finally:
                type(conns[0]).push = original
            assert len(texts) == 2 and isinstance(texts[0], str) and texts[0] is texts[1]
            assert clients[-1].last == second.last


def _tracker_frames(steps: int) -> list[list[dict[str, Any]]]:
    """The frames (display models as they are) of each of ``steps`` steps of a Tracker game."""
    game = campfire.get_game("tracker")
    match = Match(game, 4, {}, seed=5)
    presenter = game.presenter()
    names = ["Ann", "Bob", "Cid", "Dan"]
    rng = random.Random(3)
    out = []
    for _ in range(steps):
        state = match.state
        mover = rng.choice(list(state.seats_to_act()))
        match.play(mover, str(rng.choice(state.legal_actions(mover))))
        frames = []
        for seat in [0, 1, 2, 3, None]:
            state = match.state
            to_act = seat is not None and seat in state.seats_to_act()
            legal = state.legal_actions(seat) if to_act else []
            display = presenter.display(state.view(seat), legal, names)
            frames.append({"type": "delta", "seq": len(match.actions), "display": display})
        out.append(frames)
    return out


def test_shared_parts_are_written_once_and_give_the_text_of_encode(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    orjson = pytest.importorskip("orjson")
    if wire.ENCODER != "orjson" or not hasattr(orjson, "Fragment"):  # pragma: no cover
        pytest.skip("orjson without Fragment: frames are encoded as they are")
    steps = _tracker_frames(12)
    written: list[Any] = []
    dumps = orjson.dumps

    def counting(value: Any, *args: Any, **kwargs: Any) -> bytes:
        written.append(value)
        made: bytes = dumps(value, *args, **kwargs)
        return made

    monkeypatch.setattr(orjson, "dumps", counting)
    parts = EncodedParts()
    met: list[Zone] = []
    for frames in steps:
        parts.next_round()
        written.clear()
        for frame in frames:
            text = parts.encode(frame)
            assert text == encode(frame)
        zones = {id(z): z for f in frames for z in f["display"].zones}
        shared = [w for w in written if isinstance(w, Zone)]
        # a zone that several seats' models hold is written once for all of them
        assert len(shared) == len({id(w) for w in shared}) <= len(zones)
        assert {id(w) for w in shared} <= set(zones)
        met.extend(shared)
    held = sum(len(f["display"].zones) for frames in steps for f in frames)
    assert len(met) < held // 3  # the seats and the steps share most zones


def test_a_part_no_frame_held_for_a_round_is_written_again() -> None:
    frames = _tracker_frames(1)[0]
    parts = EncodedParts()
    parts.encode(frames[0])
    board = frames[0]["display"].zone("board")
    parts.next_round()
    parts.next_round()  # a round in which no frame held it
    assert parts.encode(frames[0]) == encode(frames[0])
    assert board in [found[0] for found in parts._now.values()]  # written and kept again


def test_a_frame_the_fast_encoder_refuses_is_encoded_as_encode_does() -> None:
    frame = {**_tracker_frames(1)[0][0], "big": 2**70}
    assert json.loads(EncodedParts().encode(frame)) == json.loads(encode(frame))


def test_legal_actions_take_the_indices_of_the_display_model_where_they_match() -> None:
    game = campfire.get_game("tracker")
    state = game.new_game(4, seed=3)
    seat = state.seats_to_act()[0]
    legal = state.legal_actions(seat)
    choices = game.presenter().display(state.view(seat), legal, ["A", "B", "C", "D"]).actions
    plain = protocol.legal_json(game, 4, legal)
    assert plain == [{"index": game.action_index(a, 4), "notation": str(a)} for a in legal]
    assert protocol.legal_json(game, 4, legal, choices) == plain
    # choices that are not the legal actions in order: the game is asked
    assert protocol.legal_json(game, 4, legal, choices[::-1]) == plain
    wrong = [replace(c, index=c.index + 1) for c in choices]
    assert protocol.legal_json(game, 4, legal, wrong[:-1]) == plain
