"""Screenshots of every game's table at 1280×800 and 390×844, saved under ``test-artifacts/``.

The test runs ``benchmarks/screenshots.py``'s own code (so the script keeps working) a few steps
into each game; the pictures are left in ``test-artifacts/screenshots/`` (ignored by git) for a
person to look at. ``benchmarks/screenshots.py --docs`` takes the ones the README shows, further
into the game.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from tests.benchmark_scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("game", ["apache", "dudab", "manitou", "tracker"])
def test_each_games_table_at_a_laptops_and_a_phones_size(
    game: str, server: Any, browser: Any
) -> None:
    script = load_script("screenshots")
    out = ROOT / "test-artifacts" / "screenshots"
    taken = script.shoot(browser, server.base, game, out, steps=8)
    assert taken["seq"] >= 8
    sizes = [_png_size(path) for path in taken["files"]]
    assert sizes == [(1280, 800), (390, 844)]
    for path in taken["files"]:
        assert path.stat().st_size > 5000  # a drawn table, not a blank page
