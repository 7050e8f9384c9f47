"""The message catalogs of the Sparks plugin: ``campfire_sparks/locale/sparks.pot`` and its ``.po``.

A game's catalog has the same kinds of entries as Campfire's (``docs/i18n.md``): the
presenter's ``MESSAGES`` (context: the message id; a ``<id>.one`` / ``<id>`` pair is one plural
entry), the title (context ``sparks.title``), each option's help (``sparks.option.<name>``) and
the templates of the package's error messages (``ErrorText("...")``). The gettext domain is the
game's name. The files are written as Campfire's own ``python -m campfire.i18n extract`` writes
a game's, where Campfire has that (the same header, locations from the project's root), so
either tool leaves them unchanged.

``python -m tests.plugins.sparks_catalog extract`` writes the template, ``update`` merges it into
the Hungarian and Czech catalogs (new entries come in empty); ``tests/plugins/test_sparks.py``
checks that the template is up to date and every entry translated.
"""

from __future__ import annotations

import datetime as dt
import io
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from campfire.i18n import plural_base

PACKAGE = Path(__file__).resolve().parent / "campfire-sparks" / "campfire_sparks"
#: the project's root: locations are written from it
ROOT = PACKAGE.parents[3]
LOCALE = PACKAGE / "locale"
DOMAIN = "sparks"
POT = LOCALE / f"{DOMAIN}.pot"
LANGUAGES = ("hu", "cs")
_DATE = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


def _new(locale: str | None = None) -> Catalog:
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
        header_comment=f"# The messages of the game {DOMAIN} (Campfire, docs/i18n.md).",
    )


def _at(path: str) -> list[Any]:
    """A location without a line number (line numbers would make every edit a change)."""
    return [(path, None)]


def _rel(file: Path) -> str:
    return file.relative_to(ROOT).as_posix()


def extract() -> Catalog:
    """The template: the presenter's messages, the title, option helps, error templates."""
    from campfire_sparks import GAME
    from campfire_sparks.present import MESSAGES

    catalog = _new()
    where = _at(_rel(PACKAGE / "present.py"))
    for message_id, template in MESSAGES.items():
        base, singular = plural_base(message_id)
        if singular and base in MESSAGES:
            continue  # made with its family's entry
        one = next((k for k in MESSAGES if plural_base(k) == (message_id, True)), None)
        text: str | tuple[str, str] = (MESSAGES[one], template) if one else template
        catalog.add(text, locations=where, context=message_id)
    catalog.add(GAME.title, locations=_at("sparks title"), context="sparks.title")
    for info in GAME.options_type.infos():
        catalog.add(
            info.help, locations=_at("sparks options"), context=f"sparks.option.{info.name}"
        )
    for file in sorted(PACKAGE.glob("**/*.py")):
        rel = _rel(file)
        for _line, message, _comments, context in extract_from_file(
            "python", str(file), keywords={"ErrorText": None}
        ):
            if isinstance(message, str) and catalog.get(message, context=context) is None:
                catalog.add(message, locations=_at(rel), context=context)
    return catalog


def po_text(catalog: Catalog) -> str:
    """A catalog as deterministic ``.po`` text (no line numbers, no generator line)."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, include_lineno=False, sort_output=False)
    lines = buffer.getvalue().decode("utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith('"Generated-By:'))


def po_path(language: str) -> Path:
    """The catalog file of ``language``."""
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path, locale: str | None = None) -> Catalog:
    """A catalog file."""
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, domain=DOMAIN)


def update() -> None:
    """Write each language's catalog: the template's entries with their translations so far.

    A new or changed entry comes in empty; an entry gone from the template is dropped.
    """
    template = read(POT)
    for language in LANGUAGES:
        path = po_path(language)
        old = read(path, language) if path.exists() else _new(language)
        catalog = _new(language)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        for message in catalog:
            if not message.id:
                continue
            known = old.get(message.id, context=message.context)
            if known is not None and not known.fuzzy and known.id == message.id:
                message.string = known.string
        catalog.revision_date = _DATE
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(po_text(catalog), encoding="utf-8")


def main(argv: list[str]) -> int:
    """``extract`` or ``update``."""
    if argv[:1] == ["extract"]:
        POT.write_text(po_text(extract()), encoding="utf-8")
        return 0
    if argv[:1] == ["update"]:
        update()
        return 0
    print("usage: python -m tests.plugins.sparks_catalog extract|update", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.path.insert(0, str(PACKAGE.parent))
    raise SystemExit(main(sys.argv[1:]))
