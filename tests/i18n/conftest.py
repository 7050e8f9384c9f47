"""Every test here starts in English, whatever the machine's locale."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from campfire.i18n import LOCALE_VARS, use_language


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in (*LOCALE_VARS, "CAMPFIRE_LANG"):
        monkeypatch.delenv(var, raising=False)
    with use_language("en"):
        yield
