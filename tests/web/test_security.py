"""The pages under the server's Content-Security-Policy in Chromium: nothing is blocked.

Every browser test runs under the policy (``conftest.py``'s ``new_page`` fails a test whose page
reports a violation); this one visits each kind of page once, plays on a table page (its
WebSocket to the same host included) and checks that the policy was in force.
"""

from __future__ import annotations

from typing import Any

from tests.server.live_server import LiveServer

from .conftest import csp_violations
from .people import create_table, start, until


def test_every_page_kind_runs_under_the_policy(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    answer = page.goto(f"{server.base}/")
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    table = create_table(page, server.base, "tracker", 2, ["easy"])
    # the table page: its socket connected (the game starts, and its board is drawn from the
    # socket's frames)
    start(page)
    page.locator("#cf-board .cf-table-view").wait_for()
    assert page.url.startswith(f"{server.base}/t/{table}")
    for path in ("/replay", "/rules/tracker", "/?lang=hu"):
        page.goto(f"{server.base}{path}")
        page.wait_for_load_state("networkidle")
    # the policy is in force: an inline script is refused, and reported
    page.goto(f"{server.base}/rules/tracker")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.body.append(s); }"
    )
    assert page.evaluate("window.ran") is None
    assert until(page, lambda: csp_violations(page))
    page.csp.clear()
    page.evaluate("window.__cspViolations = []")
    assert page.errors == []
