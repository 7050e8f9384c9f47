"""Extraction and update of the catalogs (``python -m campfire.i18n extract|update|check``).

There is a template for the core (``src/campfire/locale/campfire.pot``) and one for each
registered game, in the game's own package (``<package>/locale/<game>.pot``; the games are
found through the registry, :func:`campfire.i18n.catalogs.domains`). ``extract`` writes them
all from the code.

The core's template holds

- the core's ``campfire.core.present.MESSAGES`` (context: the message id, msgid: the English
  template; a ``<id>.one`` / ``<id>`` pair becomes one plural entry whose context is ``<id>``),
- the browser client's ``campfire.web.strings.STRINGS`` (id → English template), the same way,
- the strings marked with ``_``, ``N_``, ``ngettext``, ``pgettext`` and ``npgettext`` in the
  command line, the terminal app, the arena's commands, the server and this package,
- the templates of error messages, ``ErrorText("...")``, in every module of the package
  outside the games' packages.

A game's template holds what its own package says:

- its presenter's ``MESSAGES`` (as the core's),
- its title (context ``<game>.title``), its options' help texts (context
  ``<game>.option.<name>``), their labels (``<game>.option.<name>.label``) and their values'
  labels (``<game>.option.<name>=<value>``),
- the strings marked with ``_`` and the others, and the ``ErrorText("...")`` templates, in every
  module of its package,

less the entries the core's template has already (the core's catalog translates those for
every game). ``update`` merges each template into each language's ``.po`` (new and changed
entries come in empty, with no guessed "fuzzy" text; entries gone from a template stay as
obsolete ``#~`` lines). An entry that moved from the core's catalog to a game's takes its
translation along: a game's empty entry is filled from the core's catalog (its obsolete lines
included) when the core's has the same entry translated, and the core's obsolete line is then
dropped. ``check`` fails when a template is out of date. The output is deterministic (no line
numbers, a fixed date), so the committed templates can be compared with a fresh extraction.
"""

from __future__ import annotations

import datetime as dt
import importlib
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po, write_po

from . import LANGUAGES, plural_base
from .catalogs import DOMAIN, Domain, game_domain

__all__ = ["SOURCES", "Template", "extract", "pot_text", "templates", "update"]

PACKAGE = Path(__file__).resolve().parents[1]
SRC = PACKAGE.parent
LOCALE = PACKAGE / "locale"
POT = LOCALE / f"{DOMAIN}.pot"
#: the source files (globs under ``src/campfire``) whose marked strings go to the core's template
SOURCES = (
    "cli.py",
    "review_cli.py",
    "arena/*.py",
    "tui/*.py",
    "i18n/*.py",
    "server/**/*.py",
)
_KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}
#: the error messages' templates
_ERROR_KEYWORDS = {"ErrorText": None}
#: the modules whose ``STRINGS`` (id → English template) are catalogued like ``MESSAGES``
STRING_TABLES = ("campfire.web.strings",)
_DATE = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
_WIDTH = 100


@dataclass(frozen=True)
class Template:
    """Where one domain's catalogs are written: its name and its ``locale`` folder."""

    domain: str
    locale: Path
    #: the registered game the domain belongs to (``None``: the core)
    game: Any = None

    @property
    def pot(self) -> Path:
        """The template file."""
        return self.locale / f"{self.domain}.pot"

    def po(self, language: str) -> Path:
        """The catalog file of ``language``."""
        return self.locale / language / "LC_MESSAGES" / f"{self.domain}.po"


def templates() -> list[Template]:
    """The core's template, then each registered game's whose package is a folder on disk.

    The games come from the registry (``campfire.core.all_games``); importing
    ``campfire.games`` registers the built-in ones.
    """
    importlib.import_module("campfire.games")
    from campfire.core import all_games

    out = [Template(DOMAIN, LOCALE)]
    for game in all_games():
        domain = game_domain(game)
        root = _folder(domain)
        if root is not None and root != PACKAGE:
            out.append(Template(game.name, root / "locale", game))
    return out


def _folder(domain: Domain | None) -> Path | None:
    """The folder of a domain's package, if it is one on disk (not inside a zip file)."""
    if domain is None:
        return None
    path = Path(str(domain.root))
    return path.resolve() if path.is_dir() else None


def _header(domain: str) -> str:
    if domain == DOMAIN:
        return "# Campfire's messages (docs/i18n.md)."
    return f"# The messages of the game {domain} (Campfire, docs/i18n.md)."


def _new_catalog(domain: str, locale: str | None = None) -> Catalog:
    return Catalog(
        locale=locale,
        domain=domain,
        project="Campfire",
        version="",
        copyright_holder="the Campfire authors",
        msgid_bugs_address="",
        creation_date=_DATE,
        revision_date=_DATE,
        fuzzy=False,
        header_comment=_header(domain),
    )


def _at(path: str) -> list[Any]:
    """A location without a line number (line numbers would make every edit a template change)."""
    return [(path, None)]


def _rel(file: Path, base: Path) -> str:
    """``file`` as the templates name it: from the project's root, else from ``base``."""
    file = file.resolve()
    try:
        return file.relative_to(SRC.parent).as_posix()
    except ValueError:
        return file.relative_to(base).as_posix()


def _add(catalog: Catalog, message: Any, rel: str, comments: Any, context: str | None) -> None:
    """Add an extracted string, or only its location when the catalog has it already."""
    existing = catalog.get(message[0] if isinstance(message, tuple) else message, context=context)
    if existing is not None:
        if _at(rel)[0] not in existing.locations:
            existing.locations.extend(_at(rel))
        return
    catalog.add(message, locations=_at(rel), auto_comments=comments, context=context)


def _add_messages(catalog: Catalog, path: str, messages: dict[str, str]) -> None:
    """A ``MESSAGES`` table: context = the id, msgid = the template; ``.one`` pairs as plurals."""
    for message_id, template in messages.items():
        base, singular = plural_base(message_id)
        if singular and base in messages:  # made with its family's entry, below
            continue
        one = next((k for k in messages if plural_base(k) == (message_id, True)), None)
        text: str | tuple[str, str] = (messages[one], template) if one else template
        catalog.add(text, locations=_at(path), context=message_id)


def _table(name: str, attribute: str) -> tuple[Path, dict[str, str]] | None:
    """The module ``name``'s table ``attribute`` (id → English template), if it has one."""
    try:
        module = importlib.import_module(name)
    except ImportError:  # an optional part not written (or installed) yet
        return None
    table = getattr(module, attribute, None)
    if not isinstance(table, dict) or module.__file__ is None:
        return None
    return Path(module.__file__).resolve(), table


def _add_marked(catalog: Catalog, files: list[Path], base: Path, keywords: Any) -> None:
    for file in files:
        rel = _rel(file, base)
        for _lineno, message, comments, context in extract_from_file(
            "python", str(file), keywords=keywords, comment_tags=("TRANSLATORS:",)
        ):
            if keywords is _ERROR_KEYWORDS and not isinstance(message, str):
                continue
            _add(catalog, message, rel, comments, context)


def _core(games: list[Template]) -> Catalog:
    catalog = _new_catalog(DOMAIN)
    found = _table("campfire.core.present", "MESSAGES")
    if found is not None:
        _add_messages(catalog, _rel(found[0], SRC), found[1])
    for name in STRING_TABLES:
        found = _table(name, "STRINGS")
        if found is not None:
            _add_messages(catalog, _rel(found[0], SRC), found[1])
    sources = [file for pattern in SOURCES for file in sorted(PACKAGE.glob(pattern))]
    _add_marked(catalog, sources, SRC, _KEYWORDS)
    game_folders = [t.locale.parent for t in games]
    core_files = [
        file
        for file in sorted(PACKAGE.glob("**/*.py"))
        if not any(file.resolve().is_relative_to(folder) for folder in game_folders)
    ]
    _add_marked(catalog, core_files, SRC, _ERROR_KEYWORDS)
    return catalog


def _game(template: Template, core: Catalog) -> Catalog:
    game = template.game
    folder = template.locale.parent
    base = folder.parent
    catalog = _new_catalog(template.domain)
    found = _table(type(game.presenter()).__module__, "MESSAGES")
    if found is not None and found[0].is_relative_to(folder):
        _add_messages(catalog, _rel(found[0], base), found[1])
    catalog.add(game.title, locations=_at(f"{game.name} title"), context=f"{game.name}.title")
    for info in game.options_type.infos():
        if info.help:
            catalog.add(
                info.help,
                locations=_at(f"{game.name} options"),
                context=f"{game.name}.option.{info.name}",
            )
        if info.label:
            catalog.add(
                info.label,
                locations=_at(f"{game.name} options"),
                context=f"{game.name}.option.{info.name}.label",
            )
        for value, words in info.labels:
            catalog.add(
                words,
                locations=_at(f"{game.name} options"),
                context=f"{game.name}.option.{info.name}={value}",
            )
    files = sorted(folder.glob("**/*.py"))
    _add_marked(catalog, files, base, _KEYWORDS)
    _add_marked(catalog, files, base, _ERROR_KEYWORDS)
    for message in list(catalog):
        if message.id and core.get(message.id, context=message.context) is not None:
            catalog.delete(message.id, context=message.context)
    return catalog


def extract_all() -> list[tuple[Template, Catalog]]:
    """Every template (the core's first, then each game's) with its freshly extracted catalog."""
    found = templates()
    core = _core(found[1:])
    return [(found[0], core), *((t, _game(t, core)) for t in found[1:])]


def extract(domain: str = DOMAIN) -> Catalog:
    """The template catalog of ``domain``: the core's (default) or a game's (its name)."""
    for template, catalog in extract_all():
        if template.domain == domain:
            return catalog
    raise KeyError(domain)


def _po_text(catalog: Catalog) -> str:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=_WIDTH, include_lineno=False, sort_output=False)
    lines = buffer.getvalue().decode("utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith('"Generated-By:'))


def pot_text(domain: str = DOMAIN) -> str:
    """The text of a freshly extracted template of ``domain`` (default: ``campfire.pot``)."""
    return _po_text(extract(domain))


def pot_texts() -> Iterator[tuple[Template, str]]:
    """Every template with the text a fresh extraction gives it."""
    for template, catalog in extract_all():
        yield template, _po_text(catalog)


def _read(path: Path, domain: str, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, domain=domain)


def _merge(template: Template, language: str) -> Catalog:
    """The catalog of ``language`` of ``template``'s domain, merged with its committed template."""
    pot = _read(template.pot, template.domain)
    path = template.po(language)
    if path.exists():
        catalog = _read(path, template.domain, language)
        # entries no longer in the template are kept as obsolete (#~): no translation is lost
        catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False)
    else:
        catalog = _new_catalog(template.domain, language)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()
    catalog.revision_date = _DATE
    return catalog


def _translated(message: Message | None) -> bool:
    if message is None or message.fuzzy:
        return False
    forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
    return bool(forms) and all(forms)


def _key(message: Message) -> Any:
    """The key of ``message`` in a catalog's ``obsolete`` table (as Babel makes it)."""
    singular = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
    return singular if message.context is None else (singular, message.context)


def _core_entry(core: Catalog, message: Message) -> Message | None:
    """The core catalog's entry (current or obsolete) for ``message``, if it is translated."""
    found = core.get(message.id, context=message.context)
    if not _translated(found):
        found = core.obsolete.get(_key(message))
    if found is None or not _translated(found) or found.id != message.id:
        return None
    return found


def update(languages: tuple[str, ...] = LANGUAGES[1:]) -> list[Path]:
    """Merge each committed template into each language's catalog (creating missing ones).

    A game's entry that comes in empty takes the translation the core's catalog has for it
    (an entry moved from the core to the game); the core's obsolete copy is then dropped.
    """
    found = templates()
    written = []
    for language in languages:
        core = _merge(found[0], language)
        catalogs = [(found[0], core)]
        moved = set()
        for template in found[1:]:
            catalog = _merge(template, language)
            for message in catalog:
                if message.id and not _translated(message):
                    source = _core_entry(core, message)
                    if source is not None:
                        message.string = source.string
                        message.flags.discard("fuzzy")
                if message.id and _translated(message):
                    moved.add(_key(message))
            catalogs.append((template, catalog))
        for key in moved:  # kept by a game now: not lost, so no longer an obsolete line
            core.obsolete.pop(key, None)
        for template, catalog in catalogs:
            path = template.po(language)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_po_text(catalog), encoding="utf-8")
            written.append(path)
    return written


def _shown(path: Path) -> str:
    try:
        return path.relative_to(SRC.parent).as_posix()
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    """``python -m campfire.i18n extract|update|check``."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else ""
    if command == "extract":
        for template, text in pot_texts():
            template.pot.parent.mkdir(parents=True, exist_ok=True)
            template.pot.write_text(text, encoding="utf-8")
            print(f"wrote {_shown(template.pot)}")
        return 0
    if command == "update":
        for path in update():
            print(f"updated {_shown(path)}")
        return 0
    if command == "check":
        stale = [
            template.pot
            for template, text in pot_texts()
            if not template.pot.exists() or template.pot.read_text(encoding="utf-8") != text
        ]
        for path in stale:
            print(f"{_shown(path)} is out of date: run 'python -m campfire.i18n extract'")
        if stale:
            return 1
        print("the templates are up to date")
        return 0
    print("usage: python -m campfire.i18n extract|update|check", file=sys.stderr)
    return 2
