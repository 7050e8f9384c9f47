"""Error messages in the chosen language.

The kernel and the games (``campfire.core``, ``campfire.games``) raise errors in English and
know nothing of languages. Most messages are :class:`~campfire.core.ErrorText` values: the
English text together with its template and parameters. At the edge, :func:`translate_error`
looks the template up in the catalog (extraction collects every ``ErrorText("...")`` literal)
and fills the translation with the parameters, translating those that are texts themselves (a
card's name, a list of choices).

A message raised as a plain string is recognised by its English wording instead: the
templates listed here (:data:`ERROR_TEMPLATES`, :data:`PART_TEMPLATES`), matched against the
text; parts of a message (what was allowed, which number) are translated the same way. A
message that matches nothing is shown as it is, in English: nothing is lost, only
untranslated. ``tests/i18n`` checks that these templates still match what the core raises.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

from campfire.core.errors import CampfireError, ErrorText

from . import N_

if TYPE_CHECKING:
    from . import Translator

__all__ = ["ERROR_TEMPLATES", "render", "translate_error"]

#: whole error messages of the core (``campfire.core``)
ERROR_TEMPLATES = (
    N_("unknown game {name}; known games: {known}"),
    N_("unknown option {name}; this game's options are: {known}"),
    N_("an option is written key=value (got {got})"),
    N_("option {name} must be a number (a finite one; got {got})"),
    N_("option {name} is at most {limit} characters long (got {got})"),
    N_("{what} must be an integer written with the digits 0-9 (got {got})"),
    N_("{what} is a whole number 0 … 2**63 - 1 (got {got})"),
    N_("{what} must be {allowed} (got {got})"),
)

#: parts of messages: what was allowed, what a number was
PART_TEMPLATES = (
    N_("one of {values}"),
    N_("true or false"),
    N_("an integer"),
    N_("a number"),
    N_("a string"),
    N_("an integer from {low} to {high}"),
    N_("an integer of at least {low}"),
    N_("an integer of at most {high}"),
    N_("a number from {low} to {high}"),
    N_("a number of at least {low}"),
    N_("a number of at most {high}"),
    N_("at least {low}"),
    N_("at most {high}"),
    N_("option {name}"),
    N_("a seed"),
    N_("the player count"),
    N_("the number of games"),
    N_("the number of runs"),
    N_("the number of jobs"),
)

_FIELD = re.compile(r"\{(\w+)\}")


@cache
def _pattern(template: str) -> re.Pattern[str]:
    out = []
    pos = 0
    for match in _FIELD.finditer(template):
        out.append(re.escape(template[pos : match.start()]))
        out.append(f"(?P<{match.group(1)}>.+?)")
        pos = match.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out), re.DOTALL)


def _match(text: str, templates: tuple[str, ...], tr: Translator) -> str | None:
    for template in templates:
        found = _pattern(template).fullmatch(text)
        if found is None:
            continue
        parts = {k: _part(v, tr) for k, v in found.groupdict().items()}
        try:
            return tr.gettext(template).format(**parts)
        except (KeyError, IndexError, ValueError):
            return None
    return None


def _part(text: str, tr: Translator) -> str:
    """A part of a message: translated if it is one of :data:`PART_TEMPLATES`, else as is.

    A part after a prefix that ends in ``": "`` (argparse's ``argument --games: the number of
    games``, already in the language) is translated after the prefix.
    """
    if "–" in text and re.fullmatch(r"-?\d+–-?\d+", text):
        return text
    found = _match(text, PART_TEMPLATES, tr)
    if found is not None:
        return found
    head, sep, tail = text.rpartition(": ")
    inner = _match(tail, PART_TEMPLATES, tr) if sep else None
    return head + sep + inner if inner is not None else text


def render(text: ErrorText, tr: Translator) -> str:
    """``text`` in ``tr``'s language: its template translated and filled with its parameters.

    Parameters that are :class:`~campfire.core.ErrorText` are rendered the same way; a
    template with no translation (or a broken one) keeps its English wording, with the
    parameters translated. A plain text (no parameters) unknown to the catalog is matched
    against the registered English templates.
    """
    params: dict[str, Any] = {
        k: render(v, tr) if isinstance(v, ErrorText) else v for k, v in text.params.items()
    }
    template = text.template
    if text.context is not None:
        translated = tr.pgettext(text.context, template)
    else:
        translated = tr.gettext(template)
    if not params:
        if translated == template and text.context is None:
            return _plain(template, tr)
        return translated
    for candidate in (translated, template):
        try:
            return candidate.format(**params)
        except (KeyError, IndexError, ValueError):
            continue
    return str(text)


def _plain(text: str, tr: Translator) -> str:
    """An English message with no known template: by the registered templates, else as is."""
    whole = _match(text, ERROR_TEMPLATES, tr)
    if whole is not None:
        return whole
    start = 0
    while (cut := text.find(": ", start)) >= 0:
        tail = _match(text[cut + 2 :], ERROR_TEMPLATES, tr)
        if tail is not None:
            return text[: cut + 2] + tail
        start = cut + 2
    return text


def translate_error(error: str | BaseException, tr: Translator) -> str:
    """``error`` (an exception, or an English error message) in ``tr``'s language.

    An exception of Campfire is rendered from its :attr:`~campfire.core.CampfireError.text`;
    any other, and a plain message, is recognised by the registered English templates, where a
    prefix ending in ``": "`` (a rule citation, ``argument --players``) is kept and the rest
    translated.
    """
    if isinstance(error, CampfireError):
        return render(error.text, tr)
    if isinstance(error, ErrorText):
        return render(error, tr)
    return _plain(str(error), tr)
