"""The text on a Textual app's terminal, read back from its screenshot (for the fit checks)."""

from __future__ import annotations

import html
import re
from typing import Any

from textual.app import App

_TEXT = re.compile(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', re.S)


def screen_lines(app: App[Any]) -> list[str]:
    """The rows of text on the app's terminal, from its screenshot."""
    return svg_lines(app.export_screenshot())


def svg_lines(svg: str) -> list[str]:
    """The rows of text of a Textual screenshot (an SVG)."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for x, y, text in _TEXT.findall(svg):
        rows.setdefault(float(y), []).append((float(x), html.unescape(text)))
    return [
        "".join(t for _x, t in sorted(parts)).replace("\xa0", " ")
        for _y, parts in sorted(rows.items())
    ]


def shown_whole(text: str, lines: list[str]) -> bool:
    """Whether ``text`` is on the screen in full (its lines may wrap at spaces)."""
    flat = " ".join(" ".join(line.split()) for line in lines)
    return all(" ".join(part.split()) in flat for part in text.split("\n") if part.strip())


def not_shown_whole(texts: list[str], lines: list[str]) -> list[str]:
    """The ``texts`` that are not on the screen in full (cut off, or missing)."""
    return [t for t in texts if not shown_whole(t, lines)]
