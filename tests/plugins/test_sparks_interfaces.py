"""Sparks in Campfire's interfaces, with no edit outside its package: the command line
(``campfire games``, ``rules``, ``sim``, ``replay``), the terminal app (``campfire play``, driven
by its keys) and the server (its lobby, a table played over WebSockets, the record replayed).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from campfire_sparks import GAME

from campfire.cli import main
from campfire.core import Game, Record, replay


def test_campfire_games_lists_sparks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("sparks"))
    assert "Sparks" in line and "2–4" in line and "hand_size=5" in line and "trumps=false" in line
    assert main(["games", "--json"]) == 0
    data = {g["name"]: g for g in json.loads(capsys.readouterr().out)}
    assert data["sparks"]["max_players"] == 4
    assert [o["name"] for o in data["sparks"]["options"]] == ["hand_size", "trumps"]


def test_campfire_rules_prints_the_package_s_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "sparks", "--plain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Sparks — the rules") and "hand_size=5" in out


@pytest.mark.skipif(
    not hasattr(Game, "package_files"),
    reason="Campfire before the plugin contract reads no package's translated rules or catalogs",
)
def test_campfire_speaks_the_package_s_languages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "sparks", "--lang", "hu", "--plain"]) == 0
    assert capsys.readouterr().out.startswith("# Szikrák — a szabályok")
    assert main(["rules", "sparks", "--lang", "cs", "--plain"]) == 0
    assert capsys.readouterr().out.startswith("# Jiskry — pravidla")
    assert main(["games", "--lang", "cs"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("sparks"))
    assert "Jiskry" in line


def test_campfire_sim_plays_and_its_records_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["sim", "sparks", "--players", "3", "--agents", "heuristic,random,ismcts:iterations=30"]
    args += ["--games", "6", "--seed", "4", "--jobs", "1", "--records", str(tmp_path)]
    args += ["--json", str(tmp_path / "stats.json")]
    assert main(args) == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "stats.json").read_text(encoding="utf-8"))
    assert (report["game"], report["completed"], report["failed"]) == ("sparks", 6, 0)
    records = sorted(p for p in tmp_path.rglob("*.json") if p.name != "stats.json")
    assert len(records) == 6
    for path in records[:2]:
        assert main(["replay", str(path)]) == 0
        out = capsys.readouterr().out
        assert "Sparks, 3 players" in out and "winner" in out
        assert replay(Record.load(path)).state.is_terminal()


@pytest.mark.parametrize("players", [2, 4])
def test_campfire_play_a_whole_game_by_keys(players: int, tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from campfire.tui.app import ScoreScreen
    from tests.tui.helpers import SIZE, make_app, play_to_end, seats

    async def run() -> None:
        app, clock = make_app(
            "sparks", seats(None, *["heuristic"] * (players - 1)), tmp_path, seed=3
        )
        async with app.run_test(size=SIZE) as pilot:
            counts = await play_to_end(app, clock, pilot)
            assert counts["moves"] == 5  # one card a trick, five tricks
            assert isinstance(app.screen, ScoreScreen)

    asyncio.run(run())
    record = Record.load(tmp_path / "game.json")
    assert record.game == "sparks" and replay(record).state.is_terminal()


def test_campfire_play_hot_seat_hides_each_hand_behind_a_privacy_screen(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from campfire.tui.app import ScoreScreen
    from campfire.tui.launch import play_config
    from tests.tui.helpers import SIZE, make_app, play_to_end, seats

    config = play_config("sparks", players=2, opponents=["heuristic"], options=["trumps=true"])
    assert config.options["trumps"] is True and [s.agent for s in config.seats] == [
        None,
        "heuristic",
    ]

    async def run() -> None:
        app, clock = make_app("sparks", seats(None, None), tmp_path, {"hand_size": 4}, seed=8)
        async with app.run_test(size=SIZE) as pilot:
            counts = await play_to_end(app, clock, pilot)
            assert counts["moves"] == 8 and counts["privacy"] >= 2
            assert isinstance(app.screen, ScoreScreen)

    asyncio.run(run())


def test_the_server_s_lobby_and_a_table(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from tests.server.helpers import app_client, new_table, play_out, seats

    with app_client(f"sqlite:///{tmp_path / 'db.sqlite'}") as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert games["sparks"]["title"] == "Sparks"
        table, tokens = new_table(client, "sparks", 3, options={"trumps": True})
        with seats(client, table, tokens) as clients:
            hands = {c.seat: _hand(c.last) for c in clients if c.seat is not None}
            rng = random.Random(2)
            play_out(clients, lambda to_act: _choose(to_act, rng))
            for c in clients:  # nobody ever saw a card of another hand before it was played
                for frame in c.frames:
                    shown = _cards_on_show(frame)
                    for seat, hand in hands.items():
                        if seat != c.seat:
                            assert not (shown & hand) - _played_before(frame)
            outcome = clients[0].last["outcome"]
        data = client.get(f"/api/tables/{table}/record").json()
        for c in clients:  # the table's replay: exactly what each client was sent
            who = "spectator" if c.seat is None else str(c.seat)
            replayed = client.get(f"/api/tables/{table}/replay?seat={who}").json()
            live = [f for f in c.frames if f["type"] in ("snapshot", "delta")]
            assert [f["display"] for f in replayed["frames"]] == [f["display"] for f in live]
            assert replayed["game"] == "sparks" and replayed["outcome"] == outcome
    match = replay(Record.from_json(data), game=GAME)
    assert match.state.outcome().to_json() == outcome


def _choose(to_act: list[Any], rng: random.Random) -> tuple[Any, Any]:
    client = rng.choice(to_act)
    return client, rng.choice(client.last["legal"])["notation"]


def _hand(frame: dict[str, Any]) -> set[str]:
    zones = {z["id"]: z for z in frame["display"]["zones"]}
    seat = frame["seat"]
    return {card["short"] for card in zones[f"hand:{seat}"]["cards"]} if seat is not None else set()


def _cards_on_show(frame: dict[str, Any]) -> set[str]:
    """Every card a frame's display shows face up (hands, the trick, the last trick)."""
    display = frame.get("display") or {}
    return {c["short"] for z in display.get("zones", ()) for c in z["cards"] if c["short"]}


def _played_before(frame: dict[str, Any]) -> set[str]:
    """The cards played so far at that frame: those in the trick and the last trick."""
    display = frame.get("display") or {}
    zones = {z["id"]: z for z in display.get("zones", ())}
    played = set()
    for key in ("trick", "last"):
        if key in zones:
            played |= {c["short"] for c in zones[key]["cards"]}
    return played
