"""A table the operator closes: the page of its player shows the operator's message.

Ann plays Tracker against a bot; ``campfire admin close`` (another process) closes the table
while her page is open: the page says why, offers no rematch, and links the game's replay.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.live_server import LiveServer

from .people import click_something, create_table, seq_of, start, until


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[LiveServer, str]]:
    """A server of this test's own, and its database's URL."""
    url = f"sqlite:///{tmp_path / 'campfire.db'}"
    live = LiveServer(url, tmp_path)
    try:
        yield live, url
    finally:
        live.stop()


def test_the_page_shows_the_operator_s_message_when_the_table_is_closed(
    server: tuple[LiveServer, str], new_page: Any
) -> None:
    live, url = server
    ann = new_page()
    table = create_table(ann, live.base, "tracker", 2, ["easy"], name="Ann")
    start(ann)
    rng = random.Random(3)
    for _ in range(200):  # a few moves of Ann's (the bot answers)
        if seq_of(ann) >= 3:
            break
        if not click_something(ann, rng):
            ann.wait_for_timeout(30)
    close = ["admin", "close", str(table), "--message", "Closed for maintenance"]
    done = subprocess.run(
        [sys.executable, "-m", "campfire.cli", *close, "--database-url", url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    box = ann.locator("#cf-notice")
    until(ann, lambda: "Closed for maintenance" in (box.text_content() or ""))
    assert box.text_content() == "The server's operator closed this table: Closed for maintenance"
    assert box.is_visible()
    assert ann.locator("#cf-rematch").is_hidden()  # closed for good: no rematch
    assert ann.locator("#cf-replay-link").is_visible()  # the record is there
    assert ann.errors == []
