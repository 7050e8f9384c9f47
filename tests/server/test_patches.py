"""Display patches (``patch=1``): applied in order, they rebuild exactly the model sent whole.

The pure tests play random games of every game and compare, after every step and for every
seat and the spectator, the display model rebuilt from the patches (encoded as the server
encodes frames, parsed as a client parses them) with the whole model; the patches found with a
step's memo (shared by its readers, as the server shares it) are those found without. The
server tests connect clients of patches and check what they are sent: patches only in deltas,
whole models in snapshots (after a reconnection or a ``sync`` too), and no patch for a client
that did not ask. Hidden information: ``test_hidden.py`` checks every patch frame of full games
of every game.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import campfire
from campfire.core import Match, all_games
from campfire.core.present import CardFace, Display, PlayerPanel, Zone
from campfire.server.patches import Memo, PatchError, apply_patch, display_patch, to_json
from campfire.server.protocol import seat_display
from campfire.server.wire import encode

from .helpers import Seat, app_client, check_frame, new_table, seats


@pytest.mark.parametrize("name", sorted(g.name for g in all_games()))
def test_patches_rebuild_every_model_of_random_games(name: str) -> None:
    game = campfire.get_game(name)
    rng = random.Random(name)
    steps = 0
    players, language = game.min_players, "hu"
    names = [f"P{i}" for i in range(players)]
    match = Match(game, players, {}, seed=rng.getrandbits(32))
    readers: list[int | None] = [*range(players), None]
    sent: dict[int | None, Display | None] = dict.fromkeys(readers)
    held: dict[int | None, Any] = dict.fromkeys(readers)
    while True:
        state = match.state
        memo: Memo = {}  # one step's, shared by its readers (as the server's flush does)
        for seat in readers:
            acting = seat is not None and not state.is_terminal()
            legal = state.legal_actions(seat) if acting and seat in state.seats_to_act() else []
            model = seat_display(game, state.view(seat), legal, names, language)
            ops = display_patch(sent[seat], model, memo)
            assert to_json(ops) == to_json(display_patch(sent[seat], model))
            wire = json.loads(encode({"type": "delta", "patch": ops}))["patch"]
            held[seat] = apply_patch(held[seat], wire)
            assert held[seat] == to_json(model), (name, players, seat, steps)
            assert display_patch(model, model) == []
            sent[seat] = model
        if state.is_terminal():
            break
        seat = rng.choice(list(state.seats_to_act()))
        match.play(seat, str(rng.choice(state.legal_actions(seat))))
        steps += 1
    assert steps >= 2 * players  # a whole game: every seat played, more than once


def _card(short: str) -> CardFace:
    return CardFace("pos:1", short=short)


def _display(prompt: str = "Go.", cards: tuple[CardFace, ...] = (), panels: int = 2) -> Display:
    players = tuple(PlayerPanel(s, f"P{s}") for s in range(panels))
    return Display("g", 0, "", prompt, (0,), players, (Zone("board", "Board", "grid", cards),))


def test_a_patch_from_nothing_is_the_whole_model_and_an_equal_model_no_change() -> None:
    model = _display()
    assert display_patch(None, model) == [[[], model]]
    assert display_patch(model, None) == [[[], None]]
    assert display_patch(None, None) == []
    assert display_patch(model, _display()) == []  # equal, not the same objects
    assert apply_patch({"old": 1}, [[[], {"new": 2}]]) == {"new": 2}


def test_changes_are_followed_down_to_what_changed() -> None:
    old = _display("Go.", (_card("1"), _card("2"), _card("3")))
    new = _display("Peek.", (_card("1"), _card("*2"), _card("3")))
    assert to_json(display_patch(old, new)) == [
        [["prompt"], "Peek."],
        [["zones", 0, "cards", 1, "short"], "*2"],
    ]


def test_an_array_whose_length_or_most_items_changed_is_sent_whole() -> None:
    old = _display(cards=(_card("1"), _card("2"), _card("3")))
    longer = _display(cards=(_card("1"), _card("2"), _card("3"), _card("4")))
    most = _display(cards=(_card("7"), _card("8"), _card("3")))
    assert to_json(display_patch(old, longer)) == [
        [["zones", 0, "cards"], to_json(longer)["zones"][0]["cards"]]
    ]
    assert to_json(display_patch(old, most)) == [
        [["zones", 0, "cards"], to_json(most)["zones"][0]["cards"]]
    ]


def test_applying_a_patch_leaves_the_model_it_started_from_as_it_was() -> None:
    old = to_json(_display("Go.", (_card("1"), _card("2"))))
    kept = json.loads(json.dumps(old))
    new = apply_patch(old, [[["zones", 0, "cards", 0, "short"], "x"], [["prompt"], "Now."]])
    assert old == kept
    assert new["zones"][0]["cards"][0]["short"] == "x" and new["prompt"] == "Now."
    assert new["players"] is old["players"]  # what did not change is shared


@pytest.mark.parametrize(
    ("ops", "says"),
    [
        ([[["nope"], 1]], "'nope', which the model has not"),
        ([[["zones", 5], 1]], "index 5 of 1 items"),
        ([[["zones", "0"], 1]], "index '0'"),
        ([[["prompt", 0], 1]], "goes through a str"),
        ([["prompt", 1]], "[path, value]"),
        ([[["prompt"]]], "[path, value]"),
    ],
)
def test_a_patch_that_does_not_fit_the_model_is_refused(ops: Any, says: str) -> None:
    with pytest.raises(PatchError, match=re.escape(says)):
        apply_patch(to_json(_display()), ops)


# ----- the server -------------------------------------------------------------------------------


def _without_presence(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``frames`` with the seats' presence left out (it tells when each connection came)."""
    return [
        {**f, "seats": [{k: v for k, v in s.items() if k != "presence"} for s in f["seats"]]}
        if isinstance(f.get("seats"), list)
        else f
        for f in frames
    ]


def _play(clients: list[Seat], rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if clients[0].last["outcome"] is not None:
            return
        mover = rng.choice([c for c in clients if c.last["legal"]])
        mover.act(rng.choice(mover.last["legal"])["index"])
        for c in clients:
            assert c.receive()["type"] == "delta"


def test_clients_of_patches_get_patches_in_deltas_and_whole_models_in_snapshots(
    sqlite_url: str,
) -> None:
    rng = random.Random(5)
    with app_client(sqlite_url, seed=2) as client:
        table, tokens = new_table(client, "tracker", 3)
        with (
            seats(client, table, tokens) as plain,
            seats(client, table, tokens, patches=True) as patched,
        ):
            assert all(p.raw[0]["type"] == "snapshot" and p.raw[0]["display"] for p in patched)
            _play([*plain, *patched], rng, 30)
            for p, c in zip(patched, plain, strict=True):
                deltas = [f for f in p.raw if f["type"] == "delta"]
                assert deltas and all("patch" in f and "display" not in f for f in deltas)
                assert all("display" in f and "patch" not in f for f in c.raw[1:])
                # rebuilt from patches: every frame the same, but for who was connected when each
                # snapshot was taken (the plain seats joined before the patched ones)
                assert _without_presence(p.frames) == _without_presence(c.frames)
            # a patch is much shorter than the model it changes
            sent = sum(len(json.dumps(f["patch"])) for p in patched for f in p.raw[1:])
            whole = sum(len(json.dumps(f["display"])) for c in plain for f in c.raw[1:])
            assert sent * 3 < whole
            # sync: a whole model again, and the patches go on from it
            spectator = patched[-1]
            spectator.send({"type": "sync"})
            assert spectator.receive()["type"] == "snapshot"
            assert "display" in spectator.raw[-1]
            _play([*plain, *patched], rng, 5)
            assert patched[-1].last == plain[-1].last


def test_a_client_of_patches_that_reconnects_starts_from_a_whole_model(sqlite_url: str) -> None:
    rng = random.Random(8)
    with app_client(sqlite_url, seed=4) as client:
        table, tokens = new_table(client, "dudab", 2)
        with seats(client, table, tokens, spectator=False, patches=True) as clients:
            _play(clients, rng, 6)
            seq = clients[1].last["seq"]
        url = f"/ws/tables/{table}?token={tokens[1]}&since={seq}&patch=1"
        with (
            seats(client, table, {0: tokens[0]}, spectator=False, patches=True) as first,
            client.websocket_connect(url) as ws,
        ):
            again = Seat(ws, 1, patches=True)
            snapshot = again.receive()
            assert snapshot["type"] == "snapshot" and snapshot["display"]["seat"] == 1
            _play([first[0], again], rng, 6)
            live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
            state = live.table.state
            legal = state.legal_actions(1) if 1 in state.seats_to_act() else []
            model = seat_display(
                campfire.get_game("dudab"), state.view(1), legal, live.names(), "en"
            )
            assert again.last["display"] == to_json(model)
            check_frame(again.raw[-1])
