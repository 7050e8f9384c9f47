"""Campfire's own games, as the tests that know them by their positions and documents see them.

``pyproject.toml``'s entry points (group ``campfire.games``) are the one list of the built-in
games. Most tests run over every installed game (:func:`campfire.all_games`), the test plugins
of ``tests/plugins`` included; the few that read what only the built-in games have — a section
of ``docs/glossary.md``, an example record in ``docs/examples``, the layout of their positions —
run over these.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from campfire.core import Game, get

ROOT = Path(__file__).resolve().parents[1]


def built_in_names() -> list[str]:
    """The names of the built-in games: the entry points ``pyproject.toml`` declares."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return sorted(project["project"]["entry-points"]["campfire.games"])


def built_in_games() -> list[Game[Any]]:
    """The built-in games themselves."""
    return [get(name) for name in built_in_names()]
