"""The games raise their errors as ``ErrorText``, so the edge can word them in every language.

A ``raise XError(f"...")`` or ``XError("...")`` in a game would be shown in English only; this
test finds one (docs/i18n.md, "Error messages"). Every ``ErrorText`` template's fields must be
the keyword arguments it is given, so the English text and the translations fill the same way.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from campfire.core import errors as core_errors

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "campfire"
#: the exceptions a user can cause (``campfire.core.errors``), and the games' ``error`` parameters
ERRORS = {name for name in core_errors.__all__ if name.endswith("Error")} | {"error"}
GAME_FILES = sorted((PACKAGE / "games").rglob("*.py"))


def _literal(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_game_raises_no_english_only_message(path: Path) -> None:
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and _called(node) in ERRORS and node.args:
            # an IllegalActionError's message is its second argument (the first names the rule)
            index = 1 if _called(node) == "IllegalActionError" else 0
            if len(node.args) > index and _literal(node.args[index]):
                bad.append(f"line {node.lineno}: {ast.unparse(node.args[index])[:70]}")
    assert bad == [], "use ErrorText(template, **params) for these messages"


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_every_error_text_template_gets_its_fields(path: Path) -> None:
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and _called(node) == "ErrorText" and node.args):
            continue
        template = node.args[0]
        if isinstance(template, ast.JoinedStr):
            bad.append(f"line {node.lineno}: an f-string cannot be looked up")
            continue
        if not (isinstance(template, ast.Constant) and isinstance(template.value, str)):
            continue
        from campfire.i18n import placeholders

        fields = {p.partition(":")[0] for p in placeholders(template.value)}
        given = {k.arg for k in node.keywords if k.arg not in (None, "context")}
        if node.keywords and any(k.arg is None for k in node.keywords):
            continue  # **params: checked when it runs
        if fields != given:
            bad.append(f"line {node.lineno}: fields {sorted(fields)}, given {sorted(given)}")
    assert bad == []
