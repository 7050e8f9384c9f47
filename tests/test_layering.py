"""Imports point downward only (docs/architecture.md, "Layers").

``core`` imports nothing else of Campfire; a game imports ``core`` (and its own package);
generic agents import ``core`` and never a game; the arena imports agents and core. Every
import counts, including those under ``TYPE_CHECKING`` and inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import cast

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "campfire"

#: what each layer may import from Campfire, besides itself
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "agents": {"core"},
    "games": {"core"},
    "arena": {"core", "agents", "i18n", "progress"},
    "i18n": {"core"},
    "progress": {"i18n"},  # the commands' progress bar (campfire arena, campfire review)
    "server": {"core", "agents", "i18n", "web"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def campfire_imports(path: Path) -> set[str]:
    """The Campfire modules ``path`` imports (absolute names, relative imports resolved)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "campfire")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.split(".")[0] == "campfire":
                found.add(target)
    return found


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _game(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def violations(layer: str) -> list[str]:
    out = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        me = _module_name(path)
        for target in sorted(campfire_imports(path)):
            other = _layer(target)
            if other == layer and (layer != "games" or _game(target) in (None, _game(me))):
                continue
            if other in ALLOWED[layer]:
                continue
            out.append(f"{me} imports {target}")
    return out


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_imports_point_downward(layer: str) -> None:
    assert violations(layer) == []


def test_the_scan_sees_relative_and_absolute_imports(tmp_path: Path) -> None:
    # the checker itself must catch what it is meant to catch
    path = PACKAGE / "core" / "state.py"
    found = campfire_imports(path)
    assert "campfire.core.errors" in found
    assert _layer("campfire.games.tracker.state") == "games"
    assert _game("campfire.games.tracker.state") == "tracker"


def test_a_game_importing_another_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = campfire_imports

    def fake(path: Path) -> set[str]:
        found = real(path)
        if path.name == "bots.py" and path.parent.name == "tracker":
            found.add("campfire.games.dudab.cards")
        return found

    monkeypatch.setitem(globals(), "campfire_imports", fake)
    assert violations("games") == ["campfire.games.tracker.bots imports campfire.games.dudab.cards"]


def test_the_adapters_never_import_a_game() -> None:
    # each game brings its own observation encoder (Game.encoder), the adapters ask the game
    found = [
        f"{_module_name(path)} imports {target}"
        for path in sorted((PACKAGE / "adapters").rglob("*.py"))
        for target in sorted(campfire_imports(path))
        if _layer(target) == "games"
    ]
    assert found == []


# ----- the terminal app knows no game ---------------------------------------------------------


def test_the_terminal_app_never_imports_a_game() -> None:
    found: list[str] = []
    for path in sorted((PACKAGE / "tui").rglob("*.py")):
        found.extend(f"{_module_name(path)} imports {t}" for t in sorted(campfire_imports(path)))
    assert [f for f in found if _layer(f.rpartition(" ")[2]) == "games"] == []
    allowed = {"core", "agents", "i18n", "tui"}
    assert [f for f in found if _layer(f.rpartition(" ")[2]) not in allowed] == []


def _game_names() -> set[str]:
    return {p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").exists()}


def test_the_terminal_app_names_no_game_in_its_code() -> None:
    # docstrings and comments may give examples; code (strings and names) may not branch on one
    names = _game_names()
    assert {"apache", "tracker"} <= names
    hits = []
    for path in sorted((PACKAGE / "tui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            text = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = None if id(node) in docstrings else node.value
            elif isinstance(node, ast.Name | ast.Attribute):
                text = node.id if isinstance(node, ast.Name) else node.attr
            if text and any(name in text.lower() for name in names):
                # text is set for expressions only (constants, names, attributes)
                hits.append(f"{path.name}:{cast(ast.expr, node).lineno}: {text!r}")
    assert hits == []


def test_the_server_sits_on_top() -> None:
    # nothing below the server imports it; the server itself needs only core, agents, i18n and
    # the browser client it serves (web)
    below = ["core", "agents", "games", "arena"]
    upward = [
        f"{_module_name(path)} imports {target}"
        for layer in below
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for target in sorted(campfire_imports(path))
        if _layer(target) == "server"
    ]
    assert upward == []
    server = [
        f"{_module_name(path)} imports {target}"
        for path in sorted((PACKAGE / "server").rglob("*.py"))
        for target in sorted(campfire_imports(path))
        if _layer(target) not in ("core", "agents", "i18n", "server", "web")
    ]
    assert server == []


def test_the_browser_client_is_below_the_server() -> None:
    # campfire.web is the client's files and texts: it needs only core and i18n
    found = [
        f"{_module_name(path)} imports {target}"
        for path in sorted((PACKAGE / "web").rglob("*.py"))
        for target in sorted(campfire_imports(path))
        if _layer(target) not in ("core", "i18n", "web")
    ]
    assert found == []


# ----- the server as services (issue 27) ------------------------------------------------------

#: the longest a module of the server may be
SERVER_MODULE_LINES = 600
#: modules over it that another part of the work splits (its schemas move out); none other
SERVER_MODULES_TO_SPLIT = {"protocol.py"}


def test_no_server_module_is_over_600_lines() -> None:
    long = {
        path.name: n
        for path in sorted((PACKAGE / "server").rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > SERVER_MODULE_LINES
    }
    assert set(long) <= SERVER_MODULES_TO_SPLIT, long


#: what puts the server together: the ASGI app, the command, the process supervisor
SERVER_TOP = {"app", "cli", "web", "graceful_server", "supervisor", "settings_table"}
#: the table services and the cluster's parts, with what they share
SERVER_PARTS = [
    *("tables", "hub", "live", "connection", "seating", "store", "storage", "writer"),
    *("lobby_ops", "pipeline", "timers", "windows", "takeover", "bots", "recovery"),
    *("table_socket", "cluster", "leases", "bus", "remote", "forwarding"),
]


def test_the_cluster_and_the_services_never_import_the_app() -> None:
    # the app puts the server together; nothing it puts together imports it
    found = [
        f"{name} imports {target}"
        for name in SERVER_PARTS
        for target in sorted(campfire_imports(PACKAGE / "server" / f"{name}.py"))
        if target.split(".")[-1] in SERVER_TOP
    ]
    assert found == []


def test_the_settings_import_no_part_of_the_command_line() -> None:
    # the command (cli) builds the serve parser from the settings; the settings never import the
    # command layer back (the docs table writer that needs both sits above them, settings_table)
    found = [
        f"settings imports {target}"
        for target in sorted(campfire_imports(PACKAGE / "server" / "settings.py"))
        if target.split(".")[-1] in SERVER_TOP or target in ("campfire.cli", "campfire.__main__")
    ]
    assert found == []


def test_the_table_services_import_no_other_service() -> None:
    # each service reaches the others through the small protocols of server/hub.py only
    services = ["lobby_ops", "pipeline", "timers", "takeover", "bots", "recovery", "chat"]
    found = [
        f"{name} imports {target}"
        for name in [*services, "windows"]
        for target in sorted(campfire_imports(PACKAGE / "server" / f"{name}.py"))
        if target.split(".")[-1] in {*services, "windows", "tables"} - {name}
    ]
    assert found == []
