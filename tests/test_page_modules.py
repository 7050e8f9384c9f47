"""Every page names the modules its script imports (``modulepreload``), no more, no fewer.

A page's HTML lists, beside its script, each module the script imports directly or through
other modules, so that the browser fetches them all at once instead of one level of imports
after another (docs/web.md, "How the client is organised"). A module added to an import and
forgotten in the HTML would be fetched late again; this test keeps the lists true.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[1] / "src" / "campfire" / "web" / "static"
_SCRIPT = re.compile(r'<script type="module" src="/static/js/([\w-]+\.js)"></script>')
_PRELOAD = re.compile(r'<link rel="modulepreload" href="/static/js/([\w-]+\.js)">')
_IMPORT = re.compile(r'^import .* from "\./([\w-]+\.js)";', re.MULTILINE)


def _imports(module: str, seen: set[str] | None = None) -> set[str]:
    """Every module ``module`` imports, directly or not (not itself)."""
    seen = set() if seen is None else seen
    for name in _IMPORT.findall((STATIC / "js" / module).read_text(encoding="utf-8")):
        if name not in seen:
            seen.add(name)
            _imports(name, seen)
    return seen


PAGES = sorted(p.name for p in STATIC.glob("*.html"))


@pytest.mark.parametrize("page", PAGES)
def test_a_page_preloads_every_module_its_script_imports(page: str) -> None:
    html = (STATIC / page).read_text(encoding="utf-8")
    scripts = _SCRIPT.findall(html)
    assert len(scripts) == 1, f"{page}: one module script, found {scripts}"
    wanted = _imports(scripts[0]) - {scripts[0]}
    preloaded = _PRELOAD.findall(html)
    assert sorted(preloaded) == sorted(set(preloaded)), f"{page}: a module preloaded twice"
    assert set(preloaded) == wanted, (
        f"{page}: preload {sorted(wanted - set(preloaded))} too, "
        f"and not {sorted(set(preloaded) - wanted)}"
    )


def test_the_check_sees_an_import() -> None:
    assert {"dom.js", "i18n.js"} <= _imports("table.js")
