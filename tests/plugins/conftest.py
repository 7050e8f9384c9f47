"""The Sparks plugin (``tests/plugins/campfire-sparks``) in the tests of its own package.

The root ``tests/conftest.py`` installs the plugin into the test environment (its metadata and
its folder on the path), and Campfire finds it through its entry point (``campfire.games``).
Where it is not installed (these tests run with another root conftest), its directory is put on
the path and the game is registered for the duration of each test here only.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PLUGIN = Path(__file__).parent / "campfire-sparks"
if str(PLUGIN) not in sys.path:
    try:
        import campfire_sparks  # noqa: F401 - installed
    except ImportError:
        sys.path.insert(0, str(PLUGIN))

from campfire_sparks import GAME  # noqa: E402

from campfire.core import registry  # noqa: E402


def installed() -> bool:
    """Whether Campfire knows Sparks by itself (the plugin installed with its entry point)."""
    return any(g is GAME for g in registry.all_games())


@pytest.fixture(autouse=True)
def sparks_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Sparks registered for this test (already so when installed)."""
    if not installed():
        monkeypatch.setitem(registry._GAMES, GAME.name, GAME)
    yield GAME
