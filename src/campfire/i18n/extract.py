"""Extraction and update of the catalogs (``python -m campfire.i18n extract|update|check``).

``extract`` writes ``src/campfire/locale/campfire.pot``, the template of every catalog, from

- the core's ``campfire.core.present.MESSAGES`` and every registered game's presenter
  catalogue ``MESSAGES`` (context: the message id, msgid: the English template; a ``<id>.one``
  / ``<id>`` pair becomes one plural entry whose context is ``<id>``),
- every game's title (context ``<game>.title``) and option help text (context
  ``<game>.option.<name>``),
- the browser client's ``campfire.web.strings.STRINGS`` (id → English template), the same way
  as the presenters' messages,
- the strings marked with ``_``, ``N_``, ``ngettext``, ``pgettext`` and ``npgettext`` in the
  command line, the terminal app, the arena's commands, the server and this package,
- the templates of error messages, ``ErrorText("...")``, anywhere in the package (the core and
  the games raise them; ``campfire.i18n.errors`` translates them at the edge).

``update`` merges the template into each language's ``campfire.po`` (new and changed entries
come in empty, with no guessed "fuzzy" text; entries gone from the template stay as obsolete
``#~`` lines); ``check`` fails when the template is out of date.
The output is deterministic (no line numbers, a fixed date), so the committed template can be
compared with a fresh extraction.
"""

from __future__ import annotations

import datetime as dt
import importlib
import io
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po, write_po

from . import LANGUAGES, plural_base
from .catalogs import DOMAIN

__all__ = ["SOURCES", "extract", "pot_text", "update"]

PACKAGE = Path(__file__).resolve().parents[1]
SRC = PACKAGE.parent
LOCALE = PACKAGE / "locale"
POT = LOCALE / f"{DOMAIN}.pot"
#: the source files (globs under ``src/campfire``) whose marked strings are extracted
SOURCES = (
    "cli.py",
    "arena/*.py",
    "tui/*.py",
    "i18n/*.py",
    "server/**/*.py",
)
_KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}
#: the error messages' templates, collected from every module of the package
_ERROR_KEYWORDS = {"ErrorText": None}
#: the modules whose ``STRINGS`` (id → English template) are catalogued like ``MESSAGES``
STRING_TABLES = ("campfire.web.strings",)
_DATE = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
_WIDTH = 100


def _new_catalog(locale: str | None = None) -> Catalog:
    return Catalog(
        locale=locale,
        domain=DOMAIN,
        project="Campfire",
        version="",
        copyright_holder="the Campfire authors",
        msgid_bugs_address="",
        creation_date=_DATE,
        revision_date=_DATE,
        fuzzy=False,
        header_comment="# Campfire's messages (docs/i18n.md).",
    )


def _at(path: str) -> list[Any]:
    """A location without a line number (line numbers would make every edit a template change)."""
    return [(path, None)]


def _presenter_messages() -> list[tuple[str, dict[str, str]]]:
    """The presenters' ``MESSAGES`` (the core's and every game's) and the browser's ``STRINGS``."""
    importlib.import_module("campfire.games")
    from campfire.core import all_games

    names = ["campfire.core.present"]
    for game in sorted(all_games(), key=lambda g: g.name):
        name = type(game.presenter()).__module__
        if name not in names:
            names.append(name)
    out = []
    for name in names:
        module = importlib.import_module(name)
        messages = getattr(module, "MESSAGES", None)
        if isinstance(messages, dict):
            path = Path(str(module.__file__)).resolve().relative_to(SRC.parent).as_posix()
            out.append((path, messages))
    for name in STRING_TABLES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional part not written (or installed) yet
            continue
        strings = getattr(module, "STRINGS", None)
        if isinstance(strings, dict):
            path = Path(str(module.__file__)).resolve().relative_to(SRC.parent).as_posix()
            out.append((path, strings))
    return out


def extract() -> Catalog:
    """The template catalog of every user-facing string (see the module's docstring)."""
    catalog = _new_catalog()
    for path, messages in _presenter_messages():
        for message_id, template in messages.items():
            base, singular = plural_base(message_id)
            if singular and base in messages:  # made with its family's entry, below
                continue
            one = next((k for k in messages if plural_base(k) == (message_id, True)), None)
            text: str | tuple[str, str] = (messages[one], template) if one else template
            catalog.add(text, locations=_at(path), context=message_id)
    from campfire.core import all_games

    for game in sorted(all_games(), key=lambda g: g.name):
        catalog.add(game.title, locations=_at(f"{game.name} title"), context=f"{game.name}.title")
        for info in game.options_type.infos():
            if info.help:
                catalog.add(
                    info.help,
                    locations=_at(f"{game.name} options"),
                    context=f"{game.name}.option.{info.name}",
                )
    for pattern in SOURCES:
        for file in sorted(PACKAGE.glob(pattern)):
            rel = file.relative_to(SRC.parent).as_posix()
            for _lineno, message, comments, context in extract_from_file(
                "python", str(file), keywords=_KEYWORDS, comment_tags=("TRANSLATORS:",)
            ):
                existing = catalog.get(
                    message[0] if isinstance(message, tuple) else message, context=context
                )
                if existing is not None:
                    if _at(rel)[0] not in existing.locations:
                        existing.locations.extend(_at(rel))
                    continue
                catalog.add(message, locations=_at(rel), auto_comments=comments, context=context)
    for file in sorted(PACKAGE.glob("**/*.py")):
        rel = file.relative_to(SRC.parent).as_posix()
        for _lineno, message, comments, context in extract_from_file(
            "python", str(file), keywords=_ERROR_KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            if not isinstance(message, str):
                continue
            existing = catalog.get(message, context=context)
            if existing is not None:
                if _at(rel)[0] not in existing.locations:
                    existing.locations.extend(_at(rel))
                continue
            catalog.add(message, locations=_at(rel), auto_comments=comments, context=context)
    return catalog


def _po_text(catalog: Catalog) -> str:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=_WIDTH, include_lineno=False, sort_output=False)
    lines = buffer.getvalue().decode("utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith('"Generated-By:'))


def pot_text() -> str:
    """The text of a freshly extracted ``campfire.pot``."""
    return _po_text(extract())


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, domain=DOMAIN)


def update(languages: tuple[str, ...] = LANGUAGES[1:]) -> list[Path]:
    """Merge the committed template into each language's catalog (creating missing ones)."""
    template = _read(POT)
    written = []
    for language in languages:
        path = LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.exists():
            catalog = _read(path, language)
            # entries no longer in the template are kept as obsolete (#~), so no translation is lost
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        else:
            catalog = _new_catalog(language)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
        catalog.revision_date = _DATE
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_po_text(catalog), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m campfire.i18n extract|update|check``."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else ""
    if command == "extract":
        POT.write_text(pot_text(), encoding="utf-8")
        print(f"wrote {POT.relative_to(SRC.parent)}")
        return 0
    if command == "update":
        for path in update():
            print(f"updated {path.relative_to(SRC.parent)}")
        return 0
    if command == "check":
        if not POT.exists() or POT.read_text(encoding="utf-8") != pot_text():
            print("campfire.pot is out of date: run 'python -m campfire.i18n extract'")
            return 1
        print("campfire.pot is up to date")
        return 0
    print("usage: python -m campfire.i18n extract|update|check", file=sys.stderr)
    return 2
