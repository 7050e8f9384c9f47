"""The lobby and the table page around the game: listing, watching, clocks, languages."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from tests.server.live_server import http

from .people import create_table, must, over, play_by_socket, start, until, wait_for_js


def test_a_running_table_is_listed_and_watched_without_moves(server: Any, new_page: Any) -> None:
    ann, carl = new_page(), new_page(360, 740)
    table = create_table(ann, server.base, "manitou", 2, ["easy"], name="Ann")
    start(ann)
    carl.goto(f"{server.base}/")
    item = carl.locator(f'[data-table="{table}"]')
    item.wait_for()
    assert "Big Manitou" in item.inner_text() and "Ann" in item.inner_text()
    item.get_by_role("link", name=re.compile("^Watch")).click()
    carl.wait_for_url(f"**/t/{table}")
    carl.locator("#cf-board .cf-table-view").wait_for()
    assert carl.get_by_text("You are watching this table.").is_visible()
    assert carl.locator("#cf-board button").count() == 0  # a spectator has no moves
    assert carl.locator(".cf-player").count() == 2
    # the spectator's frames hold the spectator's view only
    assert carl.evaluate("document.body.dataset.status") == "running"
    assert carl.errors == []


def test_a_clock_counts_down_for_the_seat_to_play(server: Any, new_page: Any) -> None:
    ann = new_page()
    ann.goto(f"{server.base}/")
    ann.get_by_label("Game").select_option("tracker")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_label("Seat 2", exact=True).select_option("easy")
    ann.get_by_label("Clock", exact=True).select_option(label="60 s per move")
    ann.get_by_role("button", name="Create table").click()
    ann.wait_for_url(re.compile(r"/t/\d+$"))
    start(ann)
    running = ann.locator('.cf-clock[data-running="1"]')
    running.first.wait_for()
    first = running.first.inner_text()
    assert re.fullmatch(r"\d+:\d\d", first)
    until(ann, lambda: running.count() and running.first.inner_text() != first)
    assert running.first.inner_text() != first  # it counts down between frames


def test_the_real_time_box_is_fixed_while_another_seat_is_a_persons(
    server: Any, new_page: Any
) -> None:
    """The server times the claims at every table of two or more people (issue 26): the lobby
    says so; a table of one person and bots may still be made without real time."""
    ann = new_page()
    ann.goto(f"{server.base}/")
    ann.get_by_label("Game").select_option("apache")
    ann.get_by_label("Players").select_option("3")
    ann.get_by_label("Your name").fill("Ann")
    box = ann.get_by_label(re.compile("^Real time"))
    hint = ann.get_by_text("always at a table of two or more people")
    for kind in ("open", "friend"):
        ann.get_by_label("Seat 2", exact=True).select_option("easy")
        ann.get_by_label("Seat 3", exact=True).select_option("hard")
        assert box.is_enabled() and not hint.is_visible()
        box.set_checked(False)
        ann.get_by_label("Seat 3", exact=True).select_option(kind)
        assert box.is_checked() and not box.is_enabled() and hint.is_visible()
    ann.get_by_label("Seat 3", exact=True).select_option("medium")
    box.set_checked(False)
    ann.get_by_role("button", name="Create table").click()
    ann.wait_for_url(re.compile(r"/t/\d+$"))
    table = ann.url.rsplit("/", 1)[1]
    status, text = http("GET", f"{server.base}/api/tables/{table}/settings")
    assert status == 200 and json.loads(text)["realtime"] is False
    assert ann.errors == []


def test_the_language_switcher_sets_the_page_and_the_socket(server: Any, new_page: Any) -> None:
    page = new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    languages: list[str | None] = []
    page.on(
        "request",
        lambda r: (
            languages.append(r.headers.get("accept-language")) if "/api/tables" in r.url else None
        ),
    )
    page.goto(f"{server.base}/")
    page.get_by_label("Language").select_option("hu")
    wait_for_js(page, "document.documentElement?.lang === 'hu'")
    assert page.evaluate("localStorage.getItem('campfire.lang')") == "hu"
    status, text = http(
        "POST",
        f"{server.base}/api/tables",
        {
            "game": "tracker",
            "players": 2,
            "seats": [{"kind": "open"}, {"kind": "bot", "level": "easy"}],
        },
    )
    assert status == 201, text
    table = json.loads(text)["table"]["id"]
    page.goto(f"{server.base}/t/{table}")  # the language holds on every page
    page.locator("#cf-waiting").wait_for()
    until(page, lambda: sockets)
    assert page.evaluate("document.documentElement.lang") == "hu"
    assert any(f"/ws/tables/{table}?" in url and "lang=hu" in url for url in sockets), sockets
    assert "hu" in languages


def test_rematch_after_the_end(server: Any, new_page: Any) -> None:
    ann = new_page()
    table = create_table(ann, server.base, "manitou", 2, ["easy"], name="Ann")
    start(ann)
    # her moves over the table's socket with her seat (a whole game by clicks: test_play)
    assert play_by_socket(server.ws, table, [ann], random.Random(2)) > 0
    must(ann, lambda: over(ann), "the end of the game")
    assert ann.locator(".cf-scores tr").count() == 2  # each player's rank, score, breakdown
    lines = ann.locator("#cf-log li").count()
    assert lines > 10
    ann.get_by_role("button", name="Play again (same seats)").click()
    until(ann, lambda: not over(ann) and ann.locator("#cf-log li").count() < lines)
    assert not over(ann)
    assert ann.locator("#cf-log li").count() < lines  # a new game, a new log
    assert ann.get_by_role("button", name="Play again (same seats)").is_hidden()
