"""Bad links to the browser's pages: an HTML page that says what was wrong, never JSON.

Every page route (``/t/{id}``, ``/replay?...``, ``/rules/{game}``, and any other address that
is not the API's, a file's or a socket's) answers a link it cannot serve with the page of
:mod:`campfire.server.pages`: the right status, ``text/html``, the reader's language (``?lang``,
else ``Accept-Language``), the texts of ``campfire.web.strings`` and a way back to the lobby.
The API's routes keep their JSON errors (``docs/protocol.md``).
"""

from __future__ import annotations

import html
import random
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from campfire.core import all_games
from campfire.web.strings import strings

from .helpers import app_client, new_table, play_out, seats


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path = tmp_path_factory.mktemp("pages") / "campfire.db"
    with app_client(f"sqlite:///{path}") as c:
        yield c


@pytest.fixture(scope="module")
def tables(client: TestClient) -> dict[str, int]:
    """Three tables: one open, one running its first game, one whose first game has ended."""
    open_table, _ = new_table(client, "tracker", 2, start=False)
    running, _ = new_table(client, "tracker", 2)
    finished, tokens = new_table(client, "tracker", 2)
    rng = random.Random(4)
    with seats(client, finished, tokens, spectator=False, check_every=50) as clients:
        play_out(
            clients,
            lambda to_act: (c := rng.choice(to_act), rng.choice(c.last["legal"])["notation"]),
        )
    return {"open": open_table, "running": running, "finished": finished}


def _page(answer: Any, status: int, code: str, language: str = "en") -> str:
    """Check the page of a bad link; return its text with the markup left out."""
    assert answer.status_code == status, (answer.request.url, answer.text)
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert answer.headers["content-language"] == language
    page = answer.text
    assert page.startswith("<!doctype html>") and f'<html lang="{language}">' in page
    assert f'data-status="{status}" data-code="{code}"' in page
    assert '<a class="cf-button cf-primary" href="/" data-t="web.missing.lobby">' in page
    assert "/static/js/missing.js" in page and '"error"' not in page
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


# (path, status, code, text id of the heading, its parameters); {open} … name the tables
BAD_LINKS: list[tuple[str, int, str, str, dict[str, Any]]] = [
    ("/t/abc", 404, "unknown_table", "web.missing.table", {"table": "abc"}),
    ("/t/99999999999999", 404, "unknown_table", "web.missing.table", {"table": "99999999999999"}),
    ("/t/999", 404, "unknown_table", "web.missing.table", {"table": "999"}),
    ("/t/0", 404, "unknown_table", "web.missing.table", {"table": "0"}),
    ("/t/-1", 404, "unknown_table", "web.missing.table", {"table": "-1"}),
    ("/rules/nogame", 404, "unknown_game", "web.missing.rules", {"name": "nogame"}),
    ("/rules/..%2f..%2fpyproject", 404, "not_found", "web.missing.page", {}),
    ("/rules/a.b", 404, "unknown_game", "web.missing.rules", {"name": "a.b"}),
    ("/replay?table=999", 404, "unknown_table", "web.missing.table", {"table": "999"}),
    (
        "/replay?table={open}",
        404,
        "no_record",
        "web.missing.game",
        {"table": "{open}", "number": 1},
    ),
    (
        "/replay?table={finished}&game=2",
        404,
        "no_record",
        "web.missing.game",
        {"table": "{finished}", "number": 2},
    ),
    (
        "/replay?table={running}&game=1",
        409,
        "no_record",
        "web.missing.playing",
        {"table": "{running}", "number": 1},
    ),
    ("/replay?table=abc", 400, "bad_request", "web.missing.replay", {}),
    ("/replay?table={finished}&game=x", 400, "bad_request", "web.missing.replay", {}),
    ("/replay?table={finished}&seat=7", 400, "bad_request", "web.missing.replay", {}),
    ("/replay?table={finished}&seat=me", 400, "bad_request", "web.missing.replay", {}),
    ("/replay?table={finished}&step=last", 400, "bad_request", "web.missing.replay", {}),
    ("/nowhere", 404, "not_found", "web.missing.page", {}),
    ("/t/1/more", 404, "not_found", "web.missing.page", {}),
    ("/rules", 404, "not_found", "web.missing.page", {}),
]


def _fill(template: str, params: dict[str, Any]) -> str:
    for name, value in params.items():
        template = template.replace("{" + name + "}", str(value))
    return template


@pytest.mark.parametrize(("path", "status", "code", "heading", "params"), BAD_LINKS)
def test_a_bad_link_gets_a_page_that_says_what_was_wrong(
    client: TestClient,
    tables: dict[str, int],
    path: str,
    status: int,
    code: str,
    heading: str,
    params: dict[str, Any],
) -> None:
    path = path.format(**tables)
    params = {k: str(v).format(**tables) for k, v in params.items()}
    for language in ("en", "hu", "cs"):
        texts = strings(language)
        sep = "&" if "?" in path else "?"
        text = _page(client.get(f"{path}{sep}lang={language}"), status, code, language)
        assert _fill(texts[heading], params) in text
        assert texts[f"{heading}.help"] in text and texts["web.missing.lobby"] in text
    # the language comes from Accept-Language when there is no ?lang, English by default
    czech = client.get(path, headers={"Accept-Language": "cs-CZ,cs;q=0.9"})
    assert _fill(strings("cs")[heading], params) in _page(czech, status, code, "cs")
    _page(client.get(path, headers={"Accept-Language": "de"}), status, code, "en")
    # HEAD answers as GET does, without the page
    head = client.head(path)
    assert head.status_code == status and head.headers["content-type"].startswith("text/html")


def test_the_pages_offer_a_way_on(client: TestClient, tables: dict[str, int]) -> None:
    running = client.get(f"/replay?table={tables['running']}&game=1").text
    assert f'href="/t/{tables["running"]}" data-t="web.missing.watch"' in running
    assert 'href="/replay" data-t="web.missing.replays"' in client.get("/replay?table=x").text
    rules = client.get("/rules/nogame?lang=hu").text
    for game in all_games():  # every game's rules, in the page's language
        assert f'<a href="/rules/{game.name}?lang=hu" data-game="{game.name}">' in rules


def test_good_links_still_open_their_pages(client: TestClient, tables: dict[str, int]) -> None:
    for table in tables.values():
        page = client.get(f"/t/{table}")
        assert page.status_code == 200 and "/static/js/table.js" in page.text
    for path in (
        "/replay",
        "/replay?seat=spectator",
        f"/replay?table={tables['finished']}&game=1&seat=1&step=3",
        f"/replay?table={tables['finished']}&seat=spectator",
    ):
        page = client.get(path)
        assert page.status_code == 200 and "/static/js/replay.js" in page.text, path
    assert client.get("/rules/tracker").status_code == 200
    # a trailing slash still leads to the page
    assert client.get(f"/t/{tables['open']}/", follow_redirects=False).status_code == 307


def test_what_the_address_says_is_written_as_text(client: TestClient) -> None:
    raw = "<b>\"x'><script>alert(1)"  # what a link may carry, written back as text
    answer = client.get("/t/" + urllib.parse.quote(raw, safe=""))
    text = _page(answer, 404, "unknown_table")
    assert "<b>" not in answer.text and "<script>alert" not in answer.text
    assert f"“{raw[:20]}…”" in text  # cut after 20 characters
    rules = client.get("/rules/" + urllib.parse.quote(raw[:12], safe=""))
    assert "<b>" not in rules.text and "&lt;b&gt;&quot;x&#x27;&gt;&lt;scr" in rules.text


def test_the_api_keeps_its_json_errors(client: TestClient) -> None:
    for path, code in (("/api/tables/abc", "unknown_table"), ("/api/tables/999", "unknown_table")):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json()["error"]["code"] == code
    assert client.get("/api/tables/999/replay").json()["error"]["code"] == "unknown_table"
    # addresses that are no page keep the plain answer: the API's, a file's, other methods
    for method, path in (
        ("GET", "/api/nothing"),
        ("GET", "/static/nothing.js"),
        ("POST", "/nowhere"),
        ("GET", "/ws/tables/1"),
    ):
        answer = client.request(method, path)
        assert answer.status_code == 404, (method, path)
        assert answer.headers["content-type"].startswith("text/plain"), (method, path)
