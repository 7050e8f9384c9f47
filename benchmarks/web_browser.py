"""What the browser benchmarks share: Chromium, a table with one person and bots, clicking.

``benchmarks/screenshots.py`` and ``benchmarks/web_speed.py`` start a real ``campfire serve``
(``server_load.serve``: a subprocess on a free port of 127.0.0.1 with a fresh SQLite file, removed
afterwards), drive the machine's Chromium (the Debian package, ``/usr/bin/chromium``, or
``CAMPFIRE_CHROMIUM``) with Playwright for Python, and play as a person would: by clicking the
cards, places and buttons the table page offers. Every loop is bounded in count.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import serve

__all__ = [
    "chromium",
    "chromium_path",
    "click_something",
    "http",
    "person_table",
    "play_until",
    "serve",
]


def http(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """One JSON request with the standard library: the status and the decoded answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def chromium_path() -> str:
    """The Chromium to drive (``RuntimeError`` saying what to install if there is none)."""
    for candidate in (
        os.environ.get("CAMPFIRE_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("no Chromium found: apt-get install chromium (or set CAMPFIRE_CHROMIUM)")


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (Playwright's ``Browser``), closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(), args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        try:
            yield browser
        finally:
            browser.close()


def wait_for_js(page: Any, expression: str, arg: Any = None, timeout: float = 30_000) -> Any:
    """Wait until the JavaScript ``expression`` is true in ``page``; its value.

    ``expression`` is an expression, or a function of ``arg``. It is polled every 20 ms with
    ``page.evaluate``, which runs through the browser's debugging protocol: Playwright's
    ``wait_for_function`` compiles its predicate inside the page, which the server's
    Content-Security-Policy forbids (no ``'unsafe-eval'``). ``TimeoutError`` after ``timeout``
    milliseconds.
    """
    for _ in range(max(1, int(timeout / 20))):
        try:
            value = page.evaluate(expression, arg)
        except Exception as exc:  # the page navigating (a reload): ask the next one
            if "context was destroyed" not in str(exc):
                raise
            value = None
        if value:
            return value
        page.wait_for_timeout(20)
    raise TimeoutError(f"{expression[:80]} was not true within {timeout / 1000:g} s")


def person_table(
    base: str, game: str, players: int, name: str = "Ann", level: str = "easy"
) -> tuple[int, str]:
    """A started table where seat 0 is a person (``name``) and the others bots; id and token."""
    seats: list[dict[str, Any]] = [{"kind": "reserved", "nickname": name}]
    seats += [{"kind": "bot", "level": level}] * (players - 1)
    status, data = http(
        "POST", f"{base}/api/tables", {"game": game, "players": players, "seats": seats}
    )
    if status != 201:
        raise RuntimeError(f"creating a table failed ({status}): {data}")
    table, token = int(data["table"]["id"]), str(data["tokens"]["0"])
    status, data = http("POST", f"{base}/api/tables/{table}/start", {}, token)
    if status != 200:
        raise RuntimeError(f"starting table {table} failed ({status}): {data}")
    return table, token


def seat_link(base: str, table: int, token: str) -> str:
    """The table's page with the seat's token in the fragment (a personal invitation)."""
    return f"{base}/t/{table}#seat=0&token={token}"


def seq_of(page: Any) -> int:
    """The sequence number the table page shows."""
    return int(page.locator("body").get_attribute("data-seq") or "0")


def my_turn(page: Any) -> bool:
    """Whether the page asks its person to act (the banner of one's turn)."""
    return bool(page.locator("#cf-board .cf-banner-you").count())


def click_something(page: Any, rng: random.Random) -> bool:
    """Click one thing the table offers now, as a person would; whether there was one.

    An open menu of several choices: one of them; a card picked up: a place it may go; else any
    card, place or button of the table except "cancel this step".
    """
    from playwright.sync_api import Error

    board = page.locator("#cf-board")
    candidates = board.locator(".cf-menu button")
    if not candidates.count() and board.locator(".cf-selected").count():
        candidates = board.locator(".cf-hint")
    if not candidates.count():
        candidates = board.locator("button:not(.cf-cancel)")
    n = candidates.count()
    if not n:
        return False
    try:
        candidates.nth(rng.randrange(n)).click(timeout=3000)
    except Error:  # the table changed under the pointer: look again
        return False
    return True


def play_until(page: Any, target: int, rng: random.Random, limit: int = 2000) -> int:
    """Play the page's seat (random clicks) until the table is past ``target`` steps and it is
    the person's turn again (their choices highlighted); the sequence number reached."""
    for _ in range(limit):
        if page.locator("#cf-board .cf-result").count():
            break  # the game ended first
        if my_turn(page):
            if seq_of(page) >= target:
                break
            click_something(page, rng)
        page.wait_for_timeout(40)
    return seq_of(page)
