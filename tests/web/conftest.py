"""Fixtures of the browser tests: a live ``campfire serve`` and the machine's Chromium.

Chromium is the Debian package's (``/usr/bin/chromium``, or ``CAMPFIRE_CHROMIUM``), driven by
Playwright for Python through its executable path; ``make test`` installs both when missing.
The tests are skipped, saying why, only when neither can be found.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the browser tests need the server extra")

from tests.benchmark_scripts import load_script
from tests.server.live_server import LiveServer

from .people import PATIENCE


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium for the tests of one module.

    Not for the whole session: while Playwright's synchronous API is started, its event loop
    counts as running in this thread, and other tests' ``asyncio.run`` would fail; pytest ends
    a module's fixtures before a test of another module runs.
    """
    pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is not installed (make test does it)"
    )
    bench = load_script("web_browser")  # the benchmarks' Chromium: the same finding, the same flags
    try:
        bench.chromium_path()
    except RuntimeError:
        pytest.skip("no Chromium at /usr/bin/chromium: make test installs the chromium package")
    with bench.chromium() as launched:
        yield launched


#: the search's iterations per decision of the test servers' reviews (``--review-iterations``)
REVIEW_ITERATIONS = 10


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A ``campfire serve`` on its own SQLite file, shared by the tests of one module.

    Starting a server is a Python process's whole start (a second or more of CPU): the tests
    share one, each on tables of its own (found by their ids, never by being the only ones).
    A module whose test stops the server (``test_resume.py``) has a fresh one of its own.
    Its post-game reviews search :data:`REVIEW_ITERATIONS` times per decision: the review pages
    draw what any review has, and a full one takes a minute of the machine's time.
    """
    live = LiveServer(
        None,
        tmp_path_factory.mktemp("server"),
        args=("--review-iterations", str(REVIEW_ITERATIONS)),
    )
    try:
        yield live
    finally:
        live.stop()


#: Records every Content-Security-Policy violation of a page (``window.__cspViolations``).
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.lineNumber}`);
});
"""


def csp_violations(page: Any) -> list[str]:
    """The page's Content-Security-Policy violations: its listener's and its console's."""
    found: list[str] = list(page.csp)
    if not page.is_closed():
        with contextlib.suppress(Exception):  # a page gone elsewhere: its console's only
            found += page.evaluate("window.__cspViolations || []")
    return found


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Make pages, each in a context of its own (a separate person: own storage, own seat).

    Every page runs under the server's Content-Security-Policy; a violation (an inline
    script or style, a source the policy does not allow) fails the test that made the page.
    """
    contexts: list[Any] = []
    pages: list[Any] = []

    def make(width: int = 1280, height: int = 800) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
        # generous: a replay is built on the server (every step's display model), and a busy
        # 2-core machine running the other test worker took over 15 s for one once
        context.set_default_timeout(PATIENCE * 1000)
        contexts.append(context)
        context.add_init_script(CSP_LISTENER)
        page = context.new_page()
        page.errors = []
        page.csp = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.on(
            "console",
            lambda message: (
                page.csp.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        pages.append(page)
        return page

    yield make
    violations = [v for page in pages for v in csp_violations(page)]
    for context in contexts:
        context.close()
    assert not violations, f"Content-Security-Policy violations: {violations}"
