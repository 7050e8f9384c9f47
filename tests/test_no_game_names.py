"""Outside a game's own package nothing of Campfire names a game (docs/architecture.md, "Games
are plugins").

What differs between games is declared by the game; the entry points of ``pyproject.toml`` are
the one list of the built-in games. This test reads that list, asks each game (and every plugin
under ``tests/plugins``) for its name and its title in every language Campfire speaks, and
searches every file under ``src/campfire`` — Python, JavaScript, CSS, HTML, catalogs, styles —
outside ``src/campfire/games/<name>/`` for any of them, as a whole word, in any case. The
obsolete entries of a catalog (``#~`` lines, which ``python -m campfire.i18n update`` keeps so that
no translation is lost) are records of the past that nothing reads: they are not searched.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from campfire import _compiled
from campfire.core import get
from campfire.i18n import LANGUAGES, game_title, translator
from tests.built_in import built_in_names

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "campfire"
PLUGINS = ROOT / "tests" / "plugins"


def plugin_games() -> list[str]:
    """The games of the plugin packages under ``tests/plugins`` (their own ``pyproject.toml``)."""
    names: list[str] = []
    for file in sorted(PLUGINS.glob("*/pyproject.toml")):
        project = tomllib.loads(file.read_text(encoding="utf-8"))
        names += project["project"].get("entry-points", {}).get("campfire.games", {})
    return sorted(names)


def words_of(name: str) -> set[str]:
    """The names of a game to look for: its name and its title in every language."""
    found = {name}
    try:
        game = get(name)
    except Exception:  # a plugin not installed here: its name is still looked for
        return found
    found.add(game.title)
    found.update(game_title(game, translator(language)) for language in LANGUAGES)
    return found


def test_the_built_in_games_are_the_entry_points() -> None:
    names = built_in_names()
    assert len(names) >= 4
    assert all((PACKAGE / "games" / name / "__init__.py").is_file() for name in names)


@pytest.mark.parametrize("name", built_in_names() + plugin_games())
def test_no_file_outside_the_game_names_it(name: str) -> None:
    pattern = re.compile(
        "|".join(rf"\b{re.escape(word)}\b" for word in sorted(words_of(name))), re.IGNORECASE
    )
    own = PACKAGE / "games" / name
    offenders: list[str] = []
    for path in sorted(PACKAGE.rglob("*")):
        if not path.is_file() or own in path.parents or "__pycache__" in path.parts:
            continue
        if path.name == _compiled.STAMP:  # the compiled build's list of its modules (generated)
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # an image, a compiled catalog
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if path.suffix == ".po" and line.startswith("#~"):
                continue
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not offenders, "\n".join(offenders)
