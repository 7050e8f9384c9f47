"""The server speaks each connection's language: display models, log lines and error frames.

A connection's language is ``?lang=``, else its upgrade request's ``Accept-Language``, else
English; the lobby's JSON errors follow the same choice. Frames for different languages at one
table are built per language (never one connection's language for another).
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from campfire.core import get as get_game
from campfire.core.events import Event
from campfire.i18n import translator, use_language

from .helpers import Seat, app_client, new_table

GAME = "tracker"


def _display(frame: dict[str, Any], names: list[str], language: str) -> dict[str, Any]:
    """The display model of a frame's own view and legal actions, built here in ``language``."""
    game = get_game(GAME)
    legal = [game.parse_action(a["notation"]) for a in frame["legal"]]
    with use_language(language):
        display = game.presenter().display(frame["view"], legal, names).to_json()
    result: dict[str, Any] = json.loads(json.dumps(display))  # as the wire carries it
    return result


def _messages(step: dict[str, Any], names: list[str], seat: int | None, language: str) -> list[str]:
    game = get_game(GAME)
    events = [
        Event(e["type"], e["data"], frozenset(e["to"]) if "to" in e else None)
        for e in step["events"]
    ]
    with use_language(language):
        return [m.text for m in game.presenter().messages(events, names, seat)]


def test_each_connection_gets_frames_in_its_own_language(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, GAME, 2)
        base = f"/ws/tables/{table}"
        connections = [
            (f"{base}?token={tokens[0]}&lang=hu&view=1", {}, 0, "hu"),
            (
                f"{base}?token={tokens[1]}&view=1",
                {"Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5"},
                1,
                "cs",
            ),
            (f"{base}?view=1", {"Accept-Language": "en-GB"}, None, "en"),
            (f"{base}?lang=de&view=1", {}, None, "en"),  # a language Campfire does not speak
            (f"{base}?lang=xx-YY&view=1", {"Accept-Language": "fr"}, None, "en"),
        ]
        with contextlib.ExitStack() as stack:
            clients = []
            for path, headers, seat, language in connections:
                ws = stack.enter_context(client.websocket_connect(path, headers=headers))
                clients.append((Seat(ws, seat, views=True), language))
            names = ["P0", "P1"]
            for c, language in clients:
                snapshot = c.receive()
                assert snapshot["type"] == "snapshot"
                assert snapshot["display"] == _display(snapshot, names, language)
            english = clients[2][0].last["display"]
            for c, _language in clients[:2]:
                # the texts differ from the English ones (the same view and actions otherwise)
                assert c.last["display"]["prompt"] != _display(c.last, names, "en")["prompt"]
                assert c.last["display"]["status"] != english["status"]
            mover = next(c for c, _ in clients if c.last["legal"])
            mover.act(mover.last["legal"][0]["notation"])
            for c, language in clients:
                delta = c.receive()
                assert delta["type"] == "delta"
                assert delta["display"] == _display(delta, names, language)
                texts = [m["text"] for m in delta["step"]["messages"]]
                assert texts and texts == _messages(delta["step"], names, c.seat, language)
            hu_text = clients[0][0].last["step"]["messages"][0]["text"]
            en_text = clients[2][0].last["step"]["messages"][0]["text"]
            assert hu_text != en_text


def _error_of(c: Seat) -> dict[str, Any]:
    frame = c.receive()
    assert frame["type"] == "error", frame
    return frame


def test_error_frames_speak_the_connections_language(sqlite_url: str) -> None:
    # the JSON reader's own words (the problem, in English) come after the translated part
    expected = {
        "hu": ("a(z) üzenet nem érvényes JSON: ", "(1. sor, 2. oszlop)"),
        "cs": ("zpráva není platný JSON: ", "(řádek 1, sloupec 2)"),
        "en": ("the message is not valid JSON: ", "(line 1, column 2)"),
    }
    with app_client(sqlite_url) as client:
        table, tokens = new_table(client, GAME, 2)
        for language, text in expected.items():
            path = f"/ws/tables/{table}?token={tokens[0]}&lang={language}"
            with client.websocket_connect(path) as ws:
                c = Seat(ws, 0)
                c.receive()
                c.ws.send_text("{not json")
                bad = _error_of(c)["message"]
                assert bad.startswith(text[0]) and bad.endswith(text[1]), bad
                # a stale action: the message's numbers go into the translated sentence
                c.send({"type": "action", "seq": 99, "action": "pass"})
                stale = _error_of(c)
                assert stale["code"] == "stale" and "99" in stale["message"]
                if language != "en":
                    assert stale["message"] == translator(language).gettext(
                        "the action answers sequence number {got}, but the table is at {seq}: "
                        "look at the latest frame and choose again"
                    ).format(got=99, seq=0)
                # a refused action: the engine's reason in the connection's language
                c.send({"type": "action", "seq": 0, "action": "bogus move"})
                illegal = _error_of(c)
                assert illegal["code"] == "illegal"
                start = {"hu": "nem olvasható: ", "cs": "nelze přečíst ", "en": "cannot read "}
                assert illegal["message"].startswith(start[language] + "'bogus move'")
        with client.websocket_connect("/ws/tables/999?lang=cs") as ws:
            frame = ws.receive_json()
            assert frame["code"] == "unknown_table"
            assert frame["message"] == "stůl '999' neexistuje"


def test_lobby_errors_speak_lang_or_accept_language(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        cases = [
            ("?lang=hu", {}, "nincs ilyen asztal: 404"),
            ("?lang=cs", {"Accept-Language": "hu"}, "stůl 404 neexistuje"),
            ("", {"Accept-Language": "hu-HU,hu;q=0.9"}, "nincs ilyen asztal: 404"),
            ("?lang=de", {}, "there is no table 404"),
            ("", {}, "there is no table 404"),
        ]
        for query, headers, text in cases:
            answer = client.get(f"/api/tables/404{query}", headers=headers)
            assert answer.status_code == 404
            assert answer.json()["error"]["message"] == text
        # an engine's error inside a lobby answer (a bad option) is translated too
        bad = client.post(
            "/api/tables?lang=hu", json={"game": GAME, "players": 2, "options": {"nope": 1}}
        )
        assert bad.status_code == 400
        english = client.post(
            "/api/tables", json={"game": GAME, "players": 2, "options": {"nope": 1}}
        )
        assert bad.json()["error"]["message"] != english.json()["error"]["message"]
        assert bad.json()["error"]["message"] == translator("hu").error(
            english.json()["error"]["message"]
        )


def test_the_games_option_help_speaks_the_request_language(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:

        def help_of(query: str, headers: dict[str, str]) -> str:
            games = client.get(f"/api/games{query}", headers=headers).json()
            tracker = next(g for g in games if g["name"] == GAME)
            option = next(o for o in tracker["options"] if o["name"] == "peek_count")
            text: str = option["help"]
            return text

        english = help_of("", {})
        infos = get_game(GAME).options_type.infos()
        assert english == next(i.help for i in infos if i.name == "peek_count")
        hu = help_of("?lang=hu", {})
        cs = help_of("", {"Accept-Language": "cs"})
        assert hu == translator("hu").pgettext("tracker.option.peek_count", english) != english
        assert cs == translator("cs").pgettext("tracker.option.peek_count", english) != english


def test_a_bots_name_is_in_the_readers_language(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        seats = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "bot", "level": "easy"}]
        table, _tokens = new_table(client, GAME, 2, seats=seats)
        names = {}
        for language in ("en", "hu", "cs"):
            with client.websocket_connect(f"/ws/tables/{table}?lang={language}") as ws:
                snapshot = Seat(ws, None).receive()
                names[language] = [p["name"] for p in snapshot["display"]["players"]]
        assert names == {
            "en": ["Ann", "Bot 2 (easy)"],
            "hu": ["Ann", "2. bot (könnyű)"],
            "cs": ["Ann", "Bot 2 (snadný)"],
        }
