"""The core's error messages in the chosen language, by their English wording.

The kernel (``campfire.core``) raises errors with English messages and knows nothing of
languages. At the edge, :func:`translate_error` recognises the common ones by their English
templates (listed here, so extraction puts them in the catalogs) and words them anew; parts of
a message (what was allowed, which number) are translated the same way. A message that matches
no template is shown as it is, in English: nothing is lost, only untranslated.
``tests/i18n`` checks that these templates still match what the core raises.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from . import N_

if TYPE_CHECKING:
    from . import Translator

__all__ = ["ERROR_TEMPLATES", "translate_error"]

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
    """A part of a message: translated if it is one of :data:`PART_TEMPLATES`, else as is."""
    if "–" in text and re.fullmatch(r"-?\d+–-?\d+", text):
        return text
    return _match(text, PART_TEMPLATES, tr) or text


def translate_error(text: str, tr: Translator) -> str:
    """``text`` (an English error message) in ``tr``'s language where its template is known.

    A prefix ending in ``": "`` (a rule citation, ``argument --players``) is kept and the rest
    translated.
    """
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
