"""The client's routes (``campfire.server.web``): pages, static files, texts, settings, rules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from campfire.core import all_games
from campfire.i18n import placeholders
from campfire.web import static_dir
from campfire.web.strings import STRINGS, strings
from tests.server.helpers import app_client, new_table


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(f"sqlite:///{tmp_path / 'campfire.db'}") as c:
        yield c


def test_pages_are_served(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
    assert "/static/js/lobby.js" in lobby.text
    number, _tokens = new_table(client, "tracker", 2, start=False)
    table = client.get(f"/t/{number}")
    assert table.status_code == 200 and "/static/js/table.js" in table.text
    for path in ("/t/nope", f"/t/{number + 1}"):  # no such table: the page that says so
        answer = client.get(path)
        assert answer.status_code == 404 and "text/html" in answer.headers["content-type"]
        assert "/static/js/table.js" not in answer.text


@pytest.mark.parametrize(
    "path", ["js/render.js", "js/protocol.js", "js/cards.js", "css/campfire.css", "index.html"]
)
def test_static_files_are_served_as_they_are(client: TestClient, path: str) -> None:
    answer = client.get(f"/static/{path}")
    assert answer.status_code == 200
    assert answer.content == (static_dir() / path).read_bytes()
    if path.endswith(".js"):
        assert "javascript" in answer.headers["content-type"]


@pytest.mark.parametrize(
    "path",
    [
        "/static/nothing.js",
        "/static/../strings.py",
        "/static/%2e%2e/strings.py",
        "/static/..%2f..%2fserver%2fweb.py",
        "/static/js/../../__init__.py",
        "/nowhere",
        "/rules/..%2f..%2fpyproject",
        "/rules/nogame",
    ],
)
def test_unknown_paths_and_traversal_are_404(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert "__all__" not in answer.text and "def " not in answer.text


def test_strings_come_in_the_asked_language_with_their_placeholders(client: TestClient) -> None:
    english = client.get("/api/strings?lang=en").json()
    assert english["lang"] == "en" and english["strings"] == STRINGS
    for lang in ("hu", "cs"):
        body = client.get(f"/api/strings?lang={lang}").json()
        assert body["lang"] == lang and set(body["strings"]) == set(STRINGS)
        for key, text in body["strings"].items():
            assert placeholders(text) == placeholders(STRINGS[key]), key
    # no lang: the Accept-Language header decides; an unknown language falls back to English
    assert client.get("/api/strings", headers={"Accept-Language": "cs-CZ"}).json()["lang"] == "cs"
    assert client.get("/api/strings?lang=xx").json()["lang"] == "en"
    assert strings("en")["web.lobby.create"] == "Create table"


def test_play_modes_and_table_settings(client: TestClient) -> None:
    modes = client.get("/api/play-modes").json()
    assert set(modes) == {g.name for g in all_games()}  # the installed plugins too
    assert {"apache", "dudab", "manitou", "tracker"} <= set(modes)
    assert "realtime-claims" in modes["apache"]
    table, _tokens = new_table(client, "apache", 2, start=False, realtime=True)
    settings = client.get(f"/api/tables/{table}/settings").json()
    assert settings["realtime"] is True and "realtime-claims" in settings["modes"]
    assert settings["clock"] is None  # no time control
    assert client.get("/api/tables/999/settings").status_code == 404
    assert client.get("/api/tables/x1/settings").status_code == 404


def test_rules_pages(client: TestClient) -> None:
    page = client.get("/rules/tracker?lang=en")
    assert page.status_code == 200 and "<h1>" in page.text and "Tracker" in page.text
    assert client.get("/rules/dudab?lang=hu").headers["content-language"] == "hu"
    assert "<script" not in client.get("/rules/apache").text


@pytest.mark.parametrize(
    "name",
    sorted(p.name for p in (static_dir() / "js").glob("*.js") if p.name != "cards.js"),
)
def test_the_client_names_no_game(name: str) -> None:
    # games are drawn from their display models; only cards.js may add a game's own touches
    # (every other script, so a new one is checked too)
    text = (static_dir() / "js" / name).read_text(encoding="utf-8").lower()
    for game in ("apache", "manitou", "dudab", "tracker"):
        assert game not in text, (name, game)


def test_the_pages_404s_and_the_rules_title_come_in_the_asked_language(client: TestClient) -> None:
    assert "<title>Nyomkereső</title>" in client.get("/rules/tracker?lang=hu").text
    assert "<title>Tracker</title>" in client.get("/rules/tracker?lang=en").text
    # a page's 404 is a page (tests/server/test_pages.py), in the asked language
    for path, code in (("/rules/nogame", "unknown_game"), ("/t/x1", "unknown_table")):
        english = client.get(f"{path}?lang=en")
        czech = client.get(f"{path}?lang=cs")
        assert english.status_code == czech.status_code == 404
        assert f'data-code="{code}"' in english.text and f'data-code="{code}"' in czech.text
        assert english.headers["content-language"] == "en"
        assert czech.headers["content-language"] == "cs" and '<html lang="cs">' in czech.text
    rules = client.get("/rules/x").text
    assert all(f'href="/rules/{g.name}?lang=en"' in rules for g in all_games())
