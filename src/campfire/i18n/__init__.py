"""Languages: message catalogs, the chosen language, and translation at the edge.

Campfire speaks English (``en``), Hungarian (``hu``) and Czech (``cs``). Every user-facing
string goes through a gettext catalog, managed with Babel (``docs/i18n.md``): the core's
(``campfire/locale/<lang>/LC_MESSAGES/campfire.po``) and each game's, in the game's own package
(``locale/<lang>/LC_MESSAGES/<game>.po``), laid over the core's (:mod:`campfire.i18n.catalogs`):

- the interfaces' own strings (the CLI, the terminal app) are marked with :func:`_`,
  :func:`ngettext` and :func:`N_` and translated into the *current* language
  (:func:`set_language`, chosen once at start by :func:`resolve_language`);
- the games speak through their presenters, which produce :class:`~campfire.core.Message`
  objects (a message id, parameters and the English text from the game's ``MESSAGES``); a
  :class:`Translator` turns a message into text in its language by the message id (the catalog
  entry's context), falling back to the English text when there is no translation.

The language is chosen by ``--lang``, then the ``CAMPFIRE_LANG`` environment variable, then the
system locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), then English. A server picks
it from the page's switcher, then the ``Accept-Language`` header (:func:`negotiate`).

>>> resolve_language("hu", {"CAMPFIRE_LANG": "cs", "LANG": "en_US.UTF-8"})
'hu'
>>> resolve_language(None, {"CAMPFIRE_LANG": "cs", "LANG": "hu_HU.UTF-8"})
'cs'
>>> resolve_language(None, {"LANG": "hu_HU.UTF-8"})
'hu'
>>> resolve_language(None, {})
'en'
>>> negotiate("de-DE,cs;q=0.8,en;q=0.5")
'cs'
>>> from campfire.core.present import Message
>>> translator("en").message(Message.make("demo.hi", "Hello, {name}.", name="Ann"))
'Hello, Ann.'
"""

from __future__ import annotations

import os
import re
import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import Any

from babel import Locale
from babel.numbers import format_decimal

from campfire.core.errors import OptionError
from campfire.core.present import Message

from .catalogs import CompiledCatalog, load_catalog

__all__ = [
    "DEFAULT_LANGUAGE",
    "ENV_VAR",
    "LANGUAGES",
    "N_",
    "Translator",
    "_",
    "check_language",
    "current",
    "game_title",
    "get_language",
    "language_name",
    "negotiate",
    "ngettext",
    "normalize",
    "npgettext",
    "pgettext",
    "placeholders",
    "plural_base",
    "resolve_language",
    "set_language",
    "system_language",
    "translate",
    "translator",
    "use_language",
]

#: the languages Campfire speaks, English first (the source language: msgids are English)
LANGUAGES = ("en", "hu", "cs")
DEFAULT_LANGUAGE = "en"
#: the environment variable that chooses the language (after ``--lang``)
ENV_VAR = "CAMPFIRE_LANG"
#: the locale variables read for the system's language, in the order gettext reads them
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_TAG = re.compile(r"[A-Za-z]{2,8}")


def normalize(tag: str | None) -> str | None:
    """The language of ``tag`` if Campfire speaks it: ``hu_HU.UTF-8`` → ``hu``, ``cs-CZ`` → ``cs``.

    >>> normalize("hu_HU.UTF-8"), normalize("CS"), normalize("de"), normalize("C")
    ('hu', 'cs', None, None)
    """
    if not tag:
        return None
    match = _TAG.match(tag.strip())
    language = match.group(0).lower() if match else ""
    return language if language in LANGUAGES else None


def check_language(tag: str) -> str:
    """``tag`` as one of :data:`LANGUAGES`, or :class:`~campfire.core.OptionError` naming them."""
    language = normalize(tag)
    if language is None or len(tag.strip()) > 20:
        raise OptionError(
            _("unknown language {got}; Campfire speaks {allowed}").format(
                got=repr(tag[:20]), allowed=", ".join(LANGUAGES)
            )
        )
    return language


def system_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of the system locale, if Campfire speaks it.

    As gettext does, the first of ``LANGUAGE`` (a colon-separated list), ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set decides; ``C`` and ``POSIX`` mean English.
    """
    env = os.environ if environ is None else environ
    for var in LOCALE_VARS:
        value = env.get(var, "")
        if value:
            for item in value.split(":"):
                language = normalize(item)
                if language is not None:
                    return language
            if var != "LANGUAGE":  # an unspoken locale: no further variable decides
                return None
    return None


def resolve_language(cli: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``cli`` (``--lang``), then ``CAMPFIRE_LANG``, then the locale.

    ``cli`` must be a language Campfire speaks (:func:`check_language`); an unspoken
    ``CAMPFIRE_LANG`` or locale is passed over, and English is the last resort.
    """
    if cli is not None:
        return check_language(cli)
    env = os.environ if environ is None else environ
    return normalize(env.get(ENV_VAR)) or system_language(env) or DEFAULT_LANGUAGE


def negotiate(accept_language: str | None) -> str:
    """The language to answer an HTTP ``Accept-Language`` header with (English by default).

    Languages are taken by quality (``q``), then in the header's order; ``*`` means English.

    >>> negotiate("hu-HU,hu;q=0.9,en-US;q=0.8"), negotiate("fr, *;q=0.1"), negotiate(None)
    ('hu', 'en', 'en')
    """
    if not accept_language:
        return DEFAULT_LANGUAGE
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate(accept_language[:1000].split(",")):
        tag, _sep, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        language = DEFAULT_LANGUAGE if tag.strip() == "*" else normalize(tag)
        if language is not None and quality > 0:
            ranked.append((-quality, position, language))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


def language_name(language: str, in_language: str | None = None) -> str:
    """The name of ``language`` in ``in_language`` (default: itself), from Babel's CLDR data.

    >>> language_name("hu"), language_name("cs", "en")
    ('magyar', 'Czech')
    """
    return str(Locale.parse(language).get_display_name(in_language or language))


def plural_base(message_id: str) -> tuple[str, bool]:
    """The id of a message's plural family and whether it is the singular (``.one``) member.

    Presenters name the singular of a counted sentence ``<id>.one`` (``demo.score.one``,
    ``demo.cards_played.one.you``); the catalog holds the family as one plural entry whose
    context is the id without ``.one``, so each language has its own plural forms.

    >>> plural_base("demo.cards_played.one.you"), plural_base("demo.peek")
    (('demo.cards_played.you', True), ('demo.peek', False))
    """
    parts = message_id.split(".")
    if "one" in parts[1:]:
        parts.remove("one")
        return ".".join(parts), True
    return message_id, False


_FORMATTER = string.Formatter()


class Translator:
    """Text in one language: gettext look-ups, messages by id, numbers.

    Everything falls back to English: a string with no (or a fuzzy, or an out-of-date)
    translation is shown as written in English.
    """

    def __init__(self, language: str, catalog: CompiledCatalog | None) -> None:
        self.language = language
        self.catalog = catalog

    def _forms(self, context: str | None, msgid: str) -> tuple[Any, tuple[str, ...]] | None:
        if self.catalog is None:
            return None
        return self.catalog.entries.get((context, msgid))

    def _plural_index(self, n: int) -> int:
        assert self.catalog is not None
        return max(0, min(self.catalog.plural(n), self.catalog.num_plurals - 1))

    def gettext(self, msgid: str) -> str:
        """``msgid`` in this language."""
        found = self._forms(None, msgid)
        return found[1][0] if found else msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` for the count ``n`` in this language."""
        found = self._forms(None, singular)
        if found is None or not isinstance(found[0], tuple):
            return singular if n == 1 else plural
        return found[1][self._plural_index(n)]

    def pgettext(self, context: str, msgid: str) -> str:
        """``msgid`` in this language, in ``context``."""
        found = self._forms(context, msgid)
        return found[1][0] if found else msgid

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        """:meth:`ngettext` in ``context``."""
        found = self._forms(context, singular)
        if found is None or not isinstance(found[0], tuple):
            return singular if n == 1 else plural
        return found[1][self._plural_index(n)]

    def number(self, value: float, digits: int | None = None) -> str:
        r"""``value`` written as this language writes numbers (grouping, decimal sign).

        >>> translator("en").number(1234567.5), translator("hu").number(1234567.5)
        ('1,234,567.5', '1\xa0234\xa0567,5')
        """
        pattern = None if digits is None else "#,##0." + "0" * digits if digits else "#,##0"
        return str(format_decimal(value, format=pattern, locale=self.language))

    def message(self, message: Message) -> str:
        """The text of a presenter's ``message`` in this language (English if untranslated).

        The message's id is the catalog entry's context and its English template the msgid, so
        a template changed since it was translated falls back to English until the catalog is
        updated. Parameters that are messages themselves are translated too.
        """
        params = {
            k: self.message(v) if isinstance(v, Message) else v for k, v in message.params.items()
        }
        nested = any(isinstance(v, Message) for v in message.params.values())
        english = message.template.format(**params) if nested else message.text
        if self.catalog is None or not message.template:
            return english
        return self._by_id(message.id, message.template, params, english)

    def text(self, message_id: str, template: str, params: Mapping[str, Any]) -> str:
        """The text of message ``message_id`` (English ``template``) filled with ``params``.

        The signature of the core's presentation translator (``campfire.core.present``): a
        presenter asks for each text by id while it builds a display.
        """
        english = template.format(**params)
        if self.catalog is None:
            return english
        return self._by_id(message_id, template, params, english)

    def _by_id(
        self, message_id: str, template: str, params: Mapping[str, Any], english: str
    ) -> str:
        assert self.catalog is not None
        base, singular = plural_base(message_id)
        found = self.catalog.by_context.get(base) or self.catalog.by_context.get(message_id)
        if found is None:
            return english
        msgid, forms = found
        if isinstance(msgid, tuple):
            if template not in msgid:
                return english
            count = params.get("count", 1 if singular else 2)
            n = count if isinstance(count, int) else (1 if singular else 2)
            text = forms[self._plural_index(n)]
        elif msgid == template:
            text = forms[0]
        else:
            return english
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):  # a broken translation: show the English
            return english

    def error(self, error: str | BaseException) -> str:
        """An error's message in this language where it is known (else in English).

        ``error`` is an exception (its :class:`~campfire.core.ErrorText`, the template and
        parameters it was raised with, is translated) or an English message (recognised by
        the core's templates, :mod:`campfire.i18n.errors`).
        """
        from .errors import translate_error

        if self.catalog is None:
            return str(error)
        return translate_error(error, self)


def translator(language: str) -> Translator:
    """The translator of ``language`` (one of :data:`LANGUAGES`).

    Its catalog is the core's with every registered game's over it
    (:func:`~campfire.i18n.catalogs.load_catalog`); a game registered later gets a new one.
    """
    language = _checked(language)
    return _translator(language, None if language == DEFAULT_LANGUAGE else load_catalog(language))


@cache
def _checked(tag: str) -> str:
    return check_language(tag)


@cache
def _translator(language: str, catalog: CompiledCatalog | None) -> Translator:
    return Translator(language, catalog)


_current: list[Translator] = []


def current() -> Translator:
    """The translator of the current language (English until :func:`set_language`)."""
    return _current[-1] if _current else translator(DEFAULT_LANGUAGE)


def get_language() -> str:
    """The current language."""
    return current().language


def _core_hook(tr: Translator | None) -> Any:
    """What the core's presentation translator should be for ``tr`` (``None``: English)."""
    return None if tr is None or tr.catalog is None else tr.text


def _install(tr: Translator | None) -> None:
    """Hand ``tr`` to the core's presenters too, where the core has that hook."""
    from campfire.core import present

    hook = getattr(present, "set_translator", None)
    if hook is not None:
        hook(_core_hook(tr))


def set_language(language: str) -> Translator:
    """Make ``language`` the current language of this process; return its translator."""
    tr = translator(language)
    _current[:] = [tr]
    _install(tr)
    return tr


@contextmanager
def use_language(language: str) -> Iterator[Translator]:
    """Speak ``language`` inside a ``with`` block (tests, a request), then the previous one."""
    saved = list(_current)
    _current[:] = [translator(language)]
    _install(_current[-1])
    try:
        yield _current[-1]
    finally:
        _current[:] = saved
        _install(saved[-1] if saved else None)


def _(msgid: str) -> str:
    """``msgid`` in the current language."""
    return current().gettext(msgid)


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction only; translate it later with :func:`_`."""
    return msgid


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for the count ``n`` in the current language."""
    return current().ngettext(singular, plural, n)


def pgettext(context: str, msgid: str) -> str:
    """``msgid`` in ``context``, in the current language."""
    return current().pgettext(context, msgid)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in ``context``, in the current language."""
    return current().npgettext(context, singular, plural, n)


def game_title(game: Any, tr: Translator | None = None) -> str:
    """A game's title in ``tr``'s language (default: the current one).

    The game's catalogs hold its title with the context ``<game>.title``
    (``campfire.i18n.extract``); a game the catalogs do not know keeps its own title.

    >>> from types import SimpleNamespace
    >>> game_title(SimpleNamespace(name="demo", title="Demo"), translator("hu"))
    'Demo'
    """
    context = f"{game.name}.title"
    return (tr or current()).pgettext(context, game.title)


def translate(message: Message, language: str | None = None) -> str:
    """The text of ``message`` in ``language`` (default: the current one).

    The one call a server or browser back end needs: ``translate(m, negotiate(header))``.
    """
    return (translator(language) if language else current()).message(message)


def placeholders(text: str) -> list[str]:
    """The ``{name:spec}`` fields of ``text``, sorted (``[]`` for text that is no template).

    >>> placeholders("{player} scores {points:+d}")
    ['player', 'points:+d']
    """
    try:
        fields = [
            name + (":" + spec if spec else "")
            for _lit, name, spec, _conv in _FORMATTER.parse(text)
            if name is not None
        ]
    except ValueError:
        return []
    return sorted(fields)
