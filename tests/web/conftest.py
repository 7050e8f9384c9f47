"""Fixtures of the browser tests: a live ``campfire serve`` and the machine's Chromium.

Chromium is the Debian package's (``/usr/bin/chromium``, or ``CAMPFIRE_CHROMIUM``), driven by
Playwright for Python through its executable path; ``make test`` installs both when missing.
The tests are skipped, saying why, only when neither can be found.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the browser tests need the server extra")

from tests.server.live_server import LiveServer


def chromium_path() -> str | None:
    """The Chromium executable to drive (``None``: there is none)."""
    for candidate in (
        os.environ.get("CAMPFIRE_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium for the tests of one module.

    Not for the whole session: while Playwright's synchronous API is started, its event loop
    counts as running in this thread, and other tests' ``asyncio.run`` would fail; pytest ends
    a module's fixtures before a test of another module runs.
    """
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is not installed (make test does it)"
    )
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium at /usr/bin/chromium: make test installs the chromium package")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=path, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A fresh ``campfire serve`` on its own SQLite file."""
    live = LiveServer(None, tmp_path)
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Make pages, each in a context of its own (a separate person: own storage, own seat)."""
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 800) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
