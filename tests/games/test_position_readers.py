"""Each game reads positions by small named checks (docs/architecture.md, "Positions").

A game's ``position.py`` holds its position reader, ``read_state``: a sequence of calls to
``_check_*`` functions, each one invariant of the rules with the error it raises. None of its
functions is longer than :data:`MAX_LINES` lines, so each check can be read (and tested) alone;
each game's own tests build one position per check that breaks exactly that check.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "src" / "campfire" / "games"

#: the longest a function of a position reader may be, from ``def`` to its last line
MAX_LINES = 60


def _games() -> list[str]:
    return sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())


@pytest.mark.parametrize("game", _games())
def test_the_position_reader_is_a_sequence_of_short_named_checks(game: str) -> None:
    path = GAMES / game / "position.py"
    assert path.exists(), f"{game} reads its positions in {path.name}"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    long = {
        f.name: f"{(f.end_lineno or f.lineno) - f.lineno + 1} lines"
        for f in functions
        if (f.end_lineno or f.lineno) - f.lineno + 1 > MAX_LINES
    }
    assert long == {}, f"{game}: functions of position.py over {MAX_LINES} lines"
    checks = {f.name for f in functions if f.name.startswith("_check_")}
    assert len(checks) >= 3, f"{game}: position.py names its checks _check_*"
    (read_state,) = [f for f in functions if f.name == "read_state"]
    called = {
        n.func.id
        for n in ast.walk(read_state)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    docless = sorted(
        c for c in checks if not ast.get_docstring(next(f for f in functions if f.name == c))
    )
    assert docless == [], f"{game}: every check says its rule and its error"
    assert called & checks, f"{game}: read_state calls its checks"
