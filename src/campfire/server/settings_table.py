"""Writes the settings table of ``docs/deploy.md`` from ``campfire serve``'s parser.

``python -m campfire.server.settings_table [FILE]`` prints the table
(:func:`campfire.server.settings.markdown_table` of the ``serve`` parser), or writes it into
FILE between the lines :data:`TABLE_BEGIN` and :data:`TABLE_END`. It sits above both the
settings and the command that builds the parser (:mod:`campfire.server.cli`), which reads the
settings: so :mod:`~campfire.server.settings` imports no part of the command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .cli import add_serve_command
from .settings import markdown_table

__all__ = ["TABLE_BEGIN", "TABLE_END", "main", "serve_parser"]

#: the lines of ``docs/deploy.md`` around the table
TABLE_BEGIN = (
    "<!-- settings table: made by python -m campfire.server.settings_table docs/deploy.md -->"
)
TABLE_END = "<!-- end of the settings table -->"


def serve_parser() -> argparse.ArgumentParser:
    """``campfire serve``'s parser (as :mod:`campfire.cli` adds it)."""
    sub = argparse.ArgumentParser(prog="campfire").add_subparsers()
    add_serve_command(sub)
    parser: argparse.ArgumentParser = sub.choices["serve"]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m campfire.server.settings_table [FILE]``: print the table, or write it in FILE.

    In FILE, the table goes between the lines :data:`TABLE_BEGIN` and :data:`TABLE_END`.
    """
    from campfire.i18n import use_language

    names = list(sys.argv[1:] if argv is None else argv)
    with use_language("en"):
        table = markdown_table(serve_parser())
    if not names:
        sys.stdout.write(table)
        return 0
    path = Path(names[0])
    text = path.read_text(encoding="utf-8")
    head, begin, rest = text.partition(TABLE_BEGIN)
    _, end, tail = rest.partition(TABLE_END)
    if not begin or not end:
        print(f"{path}: no lines {TABLE_BEGIN!r} … {TABLE_END!r}", file=sys.stderr)
        return 1
    path.write_text(f"{head}{TABLE_BEGIN}\n{table}{TABLE_END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
