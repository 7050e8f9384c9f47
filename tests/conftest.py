"""Every test starts in English, whatever the machine's locale or CAMPFIRE_LANG say.

Tests compare English output; the language tests (tests/i18n) choose other languages
explicitly.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from campfire.i18n import LOCALE_VARS, use_language


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--all-option-combinations``: the conformance suite's full size."""
    parser.addoption(
        "--all-option-combinations",
        action="store_true",
        help="run the conformance suite's step-level checks for every option combination "
        "of every game (by default: every pair of option values)",
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the ``slow`` tests first, each group keeping its (random) order.

    With pytest-xdist, long tests then start beside the short ones instead of being left
    for one worker at the end while the others wait.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in (*LOCALE_VARS, "CAMPFIRE_LANG"):
        monkeypatch.delenv(var, raising=False)
    with use_language("en"):
        yield
