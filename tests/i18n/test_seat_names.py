"""The names Campfire gives (a bot's, an unnamed seat's) come out in the reader's language.

A record keeps the names as they were written, in the language of whoever made the game; the
server's replays, ``campfire replay``, its ``--watch`` screen and a resumed game show them in
the reader's language (``campfire.i18n.names``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from campfire.cli import main
from campfire.core import Match, get
from campfire.i18n import LANGUAGES, translator, use_language
from campfire.i18n.names import LEVELS, bot_name, shown_name
from campfire.server.replay import build_replay
from campfire.tui.app import WatchScreen
from campfire.tui.session import PlaySession, SeatSpec

#: the names of each language, as its catalog says them
EXPECTED = {
    "en": ("Bot 2 (easy)", "Bot 3 (hard)", "Seat 4", "Player 2", "You"),
    "hu": ("2. bot (könnyű)", "3. bot (nehéz)", "4. hely", "2. játékos", "Te"),
    "cs": ("Bot 2 (snadný)", "Bot 3 (těžký)", "Místo 4", "Hráč 2", "Vy"),
}
AGENTS = ("easy", "hard", None, None, None)


@pytest.mark.parametrize("written", LANGUAGES)
@pytest.mark.parametrize("reader", LANGUAGES)
def test_every_name_campfire_gives_is_said_in_the_readers_language(
    written: str, reader: str
) -> None:
    tr = translator(reader)
    shown = [shown_name(n, a, tr) for n, a in zip(EXPECTED[written], AGENTS, strict=True)]
    assert shown == list(EXPECTED[reader])


@pytest.mark.parametrize("language", LANGUAGES)
def test_bot_names_of_every_level_round_trip(language: str) -> None:
    for other in LANGUAGES:
        for level in [*LEVELS, "random"]:
            written = bot_name(12, level, translator(other))
            assert shown_name(written, level, translator(language)) == bot_name(
                12, level, translator(language)
            )


def test_other_names_are_kept() -> None:
    hu = translator("hu")
    assert shown_name("Ann", None, hu) == "Ann"
    assert shown_name("heuristic #1", "heuristic", hu) == "heuristic #1"
    # a person called like a bot keeps the name; so does a bot called like a person
    assert shown_name("Bot 2 (easy)", None, hu) == "Bot 2 (easy)"
    assert shown_name("Player 2", "easy", hu) == "Player 2"
    assert shown_name("Seat 12345", None, hu) == "Seat 12345"


def _record(names: list[str], agents: list[str | None]) -> Match:
    match = Match(get("manitou"), 2, seed=3, names=names, agents=agents)
    rng = random.Random(3)
    while not match.state.is_terminal():
        seat = match.state.seats_to_act()[0]
        match.play(seat, rng.choice(match.state.legal_actions(seat)))
    return match


@pytest.mark.parametrize(("language", "bot"), [("hu", "2. bot (könnyű)"), ("cs", "Bot 2 (snadný)")])
def test_a_server_replay_names_the_bot_in_the_readers_language(language: str, bot: str) -> None:
    match = _record(["Ann", "Bot 2 (easy)"], [None, "heuristic"])
    replay = build_replay(match.record().dumps(), None, language)
    assert replay["names"] == ["Ann", bot]
    assert [p["name"] for p in replay["frames"][-1]["display"]["players"]] == ["Ann", bot]
    lines = [m["text"] for f in replay["frames"][1:] for m in f["step"]["messages"]]
    assert any(bot in line for line in lines)
    assert not any("Bot 2 (easy)" in line for line in lines)


def test_a_server_replay_of_a_hungarian_game_in_english() -> None:
    match = _record(["Anna", "2. bot (közepes)"], [None, "medium"])
    assert build_replay(match.record().dumps(), 0, "en")["names"] == ["Anna", "Bot 2 (medium)"]


@pytest.mark.parametrize(("language", "bot"), [("hu", "2. bot (könnyű)"), ("cs", "Bot 2 (snadný)")])
def test_campfire_replay_names_the_bot_in_the_readers_language(
    language: str, bot: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    _record(["Ann", "Bot 2 (easy)"], [None, "easy"]).record().save(path)
    assert main(["--lang", language, "replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert bot in out and "Bot 2 (easy)" not in out
    assert main(["replay", str(path), "--json", "--lang", language]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert players[1]["name"] == "Bot 2 (easy)"  # the record's data, as it holds it


@pytest.mark.parametrize(("language", "bot"), [("hu", "2. bot (nehéz)"), ("cs", "Bot 2 (těžký)")])
def test_the_watch_screen_names_the_bot_in_the_readers_language(language: str, bot: str) -> None:
    record = _record(["You", "Bot 2 (hard)"], [None, "hard"]).record()
    with use_language(language) as tr:
        screen = WatchScreen(record)
        assert screen.names == [tr.gettext("You"), bot]
        assert any(bot in line for line in screen.lines)


def test_a_resumed_game_names_the_bots_in_todays_language() -> None:
    game = get("dudab")
    with use_language("hu"):
        session = PlaySession(
            game, [SeatSpec("Te"), SeatSpec("2. bot (könnyű)", "easy")], seed=4, bot_seed=1
        )
        while session.human_to_act() is None:
            session.bot_step()
        seat = session.human_to_act()
        assert seat is not None
        session.play(seat, session.legal_actions(seat)[0])
        record = session.match.record()
    with use_language("cs"):
        resumed = PlaySession.resume(record)
        assert resumed.names == ["Vy", "Bot 2 (snadný)"]
        assert [p.name for p in resumed.match.players] == ["Te", "2. bot (könnyű)"]
