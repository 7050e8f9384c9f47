"""The replay viewer in a real Chromium: step through a finished game, change the point of view,
open a record file, all by clicking and typing what a person would.

What the page shows at each step is checked against the server's own replay frames
(``GET /api/tables/{id}/replay``). The waiting loops are bounded in count; no duration is
asserted.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from tests.server.live_server import http

from .people import until, wait_for_js


def bot_game(base: str, game: str, players: int) -> int:
    """A table of bots that plays one game to its end; its id."""
    seats = [{"kind": "bot", "level": "easy"}] * players
    status, text = http(
        "POST", f"{base}/api/tables", {"game": game, "players": players, "seats": seats}
    )
    assert status == 201, text
    table = int(json.loads(text)["table"]["id"])
    status, text = http("POST", f"{base}/api/tables/{table}/start")
    assert status == 200, text
    for _ in range(1200):
        # the record, not the table's status: the server may show "finished" a moment before
        # the last step's commit (and with it the record) is on disk
        status, text = http("GET", f"{base}/api/tables/{table}/record")
        if status == 200:
            return table
        time.sleep(0.05)
    raise AssertionError(f"the bots' game at table {table} did not end")


def frames(base: str, table: int, seat: str) -> dict[str, Any]:
    """The server's replay of the table's first game from ``seat``."""
    status, text = http("GET", f"{base}/api/tables/{table}/replay?game=1&seat={seat}&lang=en")
    assert status == 200, text
    data: dict[str, Any] = json.loads(text)
    return data


def saved_game(base: str, game: str, players: int, path: Path) -> dict[str, Any]:
    """A bots' finished game saved as a record file at ``path``; its spectator's replay."""
    table = bot_game(base, game, players)
    status, text = http("GET", f"{base}/api/tables/{table}/record")
    assert status == 200, text
    path.write_text(text, encoding="utf-8")
    return frames(base, table, "spectator")


def step_of(page: Any) -> int:
    """The step the page shows."""
    return int(page.locator("body").get_attribute("data-step") or "-1")


def wait_step(page: Any, step: int) -> None:
    wait_for_js(page, f"document.body.dataset.step === '{step}'")


def check_shows(page: Any, replay: dict[str, Any], step: int) -> None:
    """The board and the log show the replay's frame ``step``."""
    wait_step(page, step)
    display = replay["frames"][step]["display"]
    board = page.locator("#cf-board")
    assert board.locator(".cf-status").inner_text() == display["status"]
    if not display["over"]:
        assert board.locator(".cf-prompt").inner_text() == display["prompt"]
    zones = board.locator("[data-zone]").evaluate_all("zs => zs.map(z => z.dataset.zone)")
    assert zones == [z["id"] for z in display["zones"]]
    names = board.locator(".cf-player-name").all_inner_texts()
    assert names == [p["name"] for p in display["players"]]
    shown = page.locator("#cf-log li").all_inner_texts()
    said = [m["text"] for f in replay["frames"][1 : step + 1] for m in f["step"]["messages"]]
    assert shown == said
    assert page.get_by_text(f"Step {step} of {len(replay['frames']) - 1}").count() == 1
    # the moves the seat could choose from at this step, listed (read-only)
    moves = [a["label"] for a in display["actions"]]
    assert page.locator("#cf-moves-list li").all_inner_texts() == moves
    assert page.locator("#cf-replay-moves").is_visible() == bool(moves)


def test_step_through_a_finished_game(server: Any, new_page: Any) -> None:
    table = bot_game(server.base, "tracker", 2)
    spectator = frames(server.base, table, "spectator")
    last = len(spectator["frames"]) - 1
    assert last > 10
    page = new_page()
    page.goto(f"{server.base}/replay")
    page.get_by_label("Finished games").select_option(label=f"Table {table}, game 1: Tracker")
    check_shows(page, spectator, 0)
    page.get_by_role("button", name="One step forward").click()
    check_shows(page, spectator, 1)
    page.locator("#cf-board").click(position={"x": 5, "y": 5})  # the keys work anywhere
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check_shows(page, spectator, 3)
    page.keyboard.press("ArrowLeft")
    check_shows(page, spectator, 2)
    page.get_by_role("slider", name="Step").fill("7")
    check_shows(page, spectator, 7)
    # the same moment from seat 1's point of view: its own cards, its own log lines
    seat1 = frames(server.base, table, "1")
    page.get_by_label("Point of view").select_option("1")
    wait_for_js(page, "document.querySelector('#cf-board .cf-you') !== null")
    check_shows(page, seat1, 7)
    to_act = next(k for k, f in enumerate(seat1["frames"]) if k > 7 and f["display"]["actions"])
    page.get_by_role("slider", name="Step").fill(str(to_act))
    check_shows(page, seat1, to_act)  # seat 1's moves at that step are listed
    page.get_by_role("button", name="To the end").click()
    check_shows(page, seat1, last)
    result = page.locator("#cf-board .cf-result").inner_text()
    for name, score in zip(seat1["names"], seat1["outcome"]["scores"], strict=True):
        assert name in result and f"{score:g}" in result
    assert page.get_by_role("button", name="One step forward").is_disabled()
    page.keyboard.press("Home")
    check_shows(page, seat1, 0)
    # the address keeps the game, the seat and the step: a shared link opens the same view
    page.get_by_role("button", name="One step forward").click()
    check_shows(page, seat1, 1)
    other = new_page(390, 844)
    other.goto(page.url)
    check_shows(other, seat1, 1)
    assert other.get_by_label("Point of view").input_value() == "1"
    assert page.errors == [] and other.errors == []


def test_open_a_record_file_at_360_px(server: Any, new_page: Any, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    spectator = saved_game(server.base, "dudab", 3, path)
    page = new_page(360, 740)
    page.goto(f"{server.base}/replay")
    page.get_by_label("Open a record file").set_input_files(str(path))
    check_shows(page, spectator, 0)
    page.get_by_role("button", name="To the end").click()
    check_shows(page, spectator, len(spectator["frames"]) - 1)
    page.get_by_role("button", name="One step back").click()
    check_shows(page, spectator, len(spectator["frames"]) - 2)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide at 360 px"
    # a broken file: a clear message, the page goes on
    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "dudab"', encoding="utf-8")
    page.get_by_label("Open a record file").set_input_files(str(broken))
    page.get_by_role("alert").filter(has_text="not valid JSON").wait_for()
    assert page.errors == []


def test_a_record_file_chosen_while_the_page_sets_up_is_opened(
    server: Any, new_page: Any, tmp_path: Path
) -> None:
    """A file picked before the page has its list of finished games is opened, not dropped.

    The page's request for that list is held back until the file has been chosen, so the
    choice falls surely inside the set-up (a person quick to pick a file, a slow network).
    """
    path = tmp_path / "game.json"
    spectator = saved_game(server.base, "tracker", 2, path)
    page = new_page()
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    games_list = re.compile(r"/api/tables\?status=")
    page.route(games_list, hold)
    page.goto(f"{server.base}/replay")
    page.get_by_label("Open a record file").set_input_files(str(path))
    assert until(page, lambda: held), "the page never asked for its list of finished games"
    assert step_of(page) == -1  # nothing shown yet: the page is still setting up
    for route in held:
        route.continue_()
    page.unroute(games_list, hold)
    check_shows(page, spectator, 0)
    page.get_by_role("button", name="One step forward").click()
    check_shows(page, spectator, 1)
    assert page.errors == []


def test_play_and_pause_a_replay_with_the_mouse_and_the_keyboard(
    server: Any, new_page: Any
) -> None:
    """Play steps through the game by itself at a readable pace until paused (by the button,
    the P key or a step chosen by hand); at the end it stops, and Play starts over."""
    table = bot_game(server.base, "tracker", 2)
    spectator = frames(server.base, table, "spectator")
    last = len(spectator["frames"]) - 1
    page = new_page()
    page.goto(f"{server.base}/replay?table={table}&game=1&seat=spectator&step={last - 2}")
    wait_step(page, last - 2)
    play = page.locator("#cf-play")
    assert play.inner_text().endswith("Play") and play.is_enabled()
    play.click()  # plays to the end by itself, then stops
    assert page.get_by_role("button", name="Pause").count() == 1
    check_shows(page, spectator, last - 1)
    check_shows(page, spectator, last)
    wait_for_js(page, "document.body.dataset.playing === 'false'")
    assert page.get_by_role("button", name="Play").count() == 1
    # by the keyboard: Tab to the button and Enter starts over from the start, P pauses
    page.get_by_role("button", name="One step back").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "cf-play"
    page.keyboard.press("Enter")
    check_shows(page, spectator, 1)
    page.keyboard.press("p")
    wait_for_js(page, "document.body.dataset.playing === 'false'")
    paused = step_of(page)
    page.keyboard.press("p")  # plays on from there; a step chosen by hand pauses it
    check_shows(page, spectator, paused + 1)
    page.keyboard.press("ArrowLeft")
    wait_for_js(page, "document.body.dataset.playing === 'false'")
    assert page.errors == []
