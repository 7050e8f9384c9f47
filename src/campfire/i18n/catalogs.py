"""Reading the message catalogs: the core's and each game's, merged into one per language.

There is one gettext *domain* for Campfire's core (``campfire``: the command line, the terminal
app, the server, the browser client, the core's errors and messages) and one for each game,
named as the game and kept in the game's own package (``docs/i18n.md``)::

    campfire/locale/<lang>/LC_MESSAGES/campfire.po             the core's strings
    <game package>/locale/<lang>/LC_MESSAGES/<game>.po          the game's strings

A language's catalog is the core's with every registered game's laid over it (games in the
order of their names): a game's entries win for its own strings, and whatever a game does not
have itself (a word the core already translates) is found in the core's. So ``_()`` and
``ErrorText`` in a game's code, and its presenter's messages, need nothing to know which game
they belong to.

The ``.po`` files are the only form kept in the project and in the packages: a catalog is read
with Babel's :func:`~babel.messages.pofile.read_po` the first time a language is used and
compiled in memory (no ``.mo`` file, no build step; an editable install and a wheel behave the
same). Fuzzy and empty entries do not count: their text falls back to English.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

__all__ = [
    "DOMAIN",
    "CompiledCatalog",
    "Domain",
    "core_domain",
    "domains",
    "game_domain",
    "load_catalog",
    "po_path",
    "read_catalog",
]

#: the core's gettext domain: its catalogs' file name without ``.po``
DOMAIN = "campfire"


@dataclass(frozen=True)
class Domain:
    """A family of catalogs: the core's or one game's (``name`` is the gettext domain).

    ``root`` is the package the catalogs live in: ``root/locale/<name>.pot`` is the template,
    ``root/locale/<lang>/LC_MESSAGES/<name>.po`` a language's catalog.
    """

    name: str
    root: Traversable

    def pot(self) -> Traversable:
        """The template of this domain's catalogs (it may not exist)."""
        return self.root.joinpath("locale").joinpath(f"{self.name}.pot")

    def po(self, language: str) -> Traversable:
        """The catalog of ``language`` (it may not exist)."""
        folder = self.root.joinpath("locale").joinpath(language).joinpath("LC_MESSAGES")
        return folder.joinpath(f"{self.name}.po")


def core_domain() -> Domain:
    """The core's catalogs, in the ``campfire`` package."""
    return Domain(DOMAIN, resources.files(__name__.partition(".")[0]))


def game_domain(game: Any) -> Domain | None:
    """The catalogs of ``game`` (a :class:`~campfire.core.Game`), in its own package.

    ``None`` for a game whose package cannot hold files (a game made up in a test module)
    or whose package is the core's own.
    """
    try:
        root = game.package_files()
    except (TypeError, ValueError, KeyError, ModuleNotFoundError, AttributeError):
        return None
    if str(root) == str(core_domain().root):
        return None
    return Domain(game.name, root)


def domains() -> list[Domain]:
    """The core's domain, then every registered game's, by the games' names."""
    from campfire.core import all_games

    found = [core_domain()]
    for game in all_games():
        domain = game_domain(game)
        if domain is not None:
            found.append(domain)
    return found


def po_path(language: str, domain: Domain | None = None) -> Traversable:
    """The package resource of ``language``'s catalog of ``domain`` (default: the core's)."""
    return (domain or core_domain()).po(language)


class CompiledCatalog:
    """A catalog's usable entries: ``(context, msgid)`` → the translated form(s).

    ``plural(n)`` is the index of the plural form for ``n`` (from the catalog's
    ``Plural-Forms`` header, the language's CLDR rule). :meth:`add` lays a further catalog of
    the same language over it (a game's over the core's).
    """

    def __init__(self, catalog: Catalog) -> None:
        self.language = str(catalog.locale) if catalog.locale else ""
        self.plural: Callable[[int], int] = gettext.c2py(catalog.plural_expr)
        self.num_plurals = catalog.num_plurals
        #: (context, singular msgid) -> (msgid, forms)
        self.entries: dict[tuple[str | None, str], tuple[Any, tuple[str, ...]]] = {}
        #: context -> (msgid, forms), for messages translated by id
        self.by_context: dict[str, tuple[Any, tuple[str, ...]]] = {}
        self.add(catalog)

    def add(self, catalog: Catalog) -> None:
        """Take the translated entries of ``catalog``; they win over the entries already here."""
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            string: Any = message.string
            forms: tuple[str, ...] = (
                tuple(string) if isinstance(string, (tuple, list)) else (string,)
            )
            if not forms or not all(forms):
                continue
            msgid: Any = message.id
            singular: str = msgid[0] if isinstance(msgid, (tuple, list)) else msgid
            self.entries[(message.context, singular)] = (msgid, forms)
            if message.context is not None:
                self.by_context[message.context] = (msgid, forms)


def read_catalog(language: str, domain: Domain | None = None) -> Catalog | None:
    """The Babel catalog of ``language`` in ``domain`` (default: the core's) as it is on disk.

    ``None``: there is none.
    """
    domain = domain or core_domain()
    path = domain.po(language)
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=domain.name)


def load_catalog(language: str) -> CompiledCatalog | None:
    """The compiled catalog of ``language``: the core's with every registered game's over it.

    Read once per process for each set of registered games; ``None``: no catalog exists.
    """
    from campfire.core.registry import names

    return _merged(language, names())  # no sorted list built on every call


@cache
def _merged(language: str, games: tuple[str, ...]) -> CompiledCatalog | None:
    """:func:`load_catalog` for the registered ``games`` (their names: the cache's key)."""
    del games  # the key only: domains() reads the same registry
    compiled: CompiledCatalog | None = None
    for domain in domains():
        catalog = read_catalog(language, domain)
        if catalog is None:
            continue
        if compiled is None:
            compiled = CompiledCatalog(catalog)
        else:
            compiled.add(catalog)
    return compiled
