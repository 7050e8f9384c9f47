"""Reading the message catalogs: ``campfire/locale/<lang>/LC_MESSAGES/campfire.po``.

The ``.po`` files are the only form kept in the project and in the package: a catalog is read
with Babel's :func:`~babel.messages.pofile.read_po` the first time a language is used and
compiled in memory (no ``.mo`` file, no build step; an editable install and a wheel behave the
same). Fuzzy and empty entries do not count: their text falls back to English.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

__all__ = ["DOMAIN", "CompiledCatalog", "load_catalog", "po_path"]

#: the gettext domain: the catalogs' file name without ``.po``
DOMAIN = "campfire"


def po_path(language: str) -> Any:
    """The package resource of ``language``'s catalog (it may not exist)."""
    root = resources.files(__name__.partition(".")[0]).joinpath("locale")
    return root.joinpath(language, "LC_MESSAGES", f"{DOMAIN}.po")


class CompiledCatalog:
    """A catalog's usable entries: ``(context, msgid)`` → the translated form(s).

    ``plural(n)`` is the index of the plural form for ``n`` (from the catalog's
    ``Plural-Forms`` header, the language's CLDR rule).
    """

    def __init__(self, catalog: Catalog) -> None:
        self.language = str(catalog.locale) if catalog.locale else ""
        self.plural: Callable[[int], int] = gettext.c2py(catalog.plural_expr)
        self.num_plurals = catalog.num_plurals
        #: (context, singular msgid) -> (msgid, forms)
        self.entries: dict[tuple[str | None, str], tuple[Any, tuple[str, ...]]] = {}
        #: context -> (msgid, forms), for messages translated by id
        self.by_context: dict[str, tuple[Any, tuple[str, ...]]] = {}
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


def read_catalog(language: str) -> Catalog | None:
    """The Babel catalog of ``language`` as it is on disk (``None``: there is none)."""
    path = po_path(language)
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=DOMAIN)


@cache
def load_catalog(language: str) -> CompiledCatalog | None:
    """The compiled catalog of ``language`` (read once per process; ``None``: none exists)."""
    catalog = read_catalog(language)
    return CompiledCatalog(catalog) if catalog is not None else None
