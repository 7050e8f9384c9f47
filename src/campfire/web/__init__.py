"""The browser client: static HTML, CSS and JavaScript modules served by ``campfire serve``.

Nothing here runs in Python except :mod:`.strings` (the client's texts, translated by the
server) and :func:`static_dir`; ``docs/web.md`` describes how the client is organised.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["static_dir"]


def static_dir() -> Path:
    """The folder of the client's files (``index.html``, ``table.html``, ``js/``, ``css/``)."""
    return Path(__file__).resolve().parent / "static"
