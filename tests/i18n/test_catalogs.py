"""The catalogs: complete in every language, placeholders kept, the template up to date."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from campfire.i18n import LANGUAGES, placeholders
from campfire.i18n.extract import POT, pot_text

LOCALE = Path(__file__).resolve().parents[2] / "src" / "campfire" / "locale"
TRANSLATED = LANGUAGES[1:]
#: a %-conversion as argparse's strings use them (``%s``, ``%(prog)s``, ``%d``); the ``-`` and
#: space flags are left out, which no string of ours uses, so that prose such as "95% interval"
#: or Hungarian "95%-os" is not taken for one
_PERCENT = re.compile(r"%(?:\(\w+\))?[#0+]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def _catalog(language: str) -> Catalog:
    return _read(LOCALE / language / "LC_MESSAGES" / "campfire.po", language)


def _key(message: object) -> tuple[str | None, str]:
    msgid = message.id  # type: ignore[attr-defined]
    return message.context, msgid[0] if isinstance(msgid, tuple) else msgid  # type: ignore[attr-defined]


def _forms(value: object) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (str(value or ""),)


def _fields(text: str) -> tuple[list[str], list[str]]:
    return placeholders(text), sorted(_PERCENT.findall(text.replace("%%", "")))


def test_the_template_is_up_to_date() -> None:
    assert POT.read_text(encoding="utf-8") == pot_text(), (
        "run 'python -m campfire.i18n extract' and then 'update'"
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation(language: str) -> None:
    catalog = _catalog(language)
    missing = []
    for message in _read(POT):
        if not message.id:
            continue
        found = catalog.get(_key(message)[1], context=message.context)
        if found is None or found.fuzzy or not all(_forms(found.string)):
            missing.append(f"{message.context or ''}|{_key(message)[1]}")
    assert missing == [], f"{len(missing)} untranslated or fuzzy in {language}: {missing[:10]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_entries_have_the_languages_forms(language: str) -> None:
    catalog = _catalog(language)
    for message in catalog:
        if message.id and isinstance(message.id, (tuple, list)) and any(_forms(message.string)):
            assert len(_forms(message.string)) == catalog.num_plurals, message.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_agree_between_languages(language: str) -> None:
    bad = []
    for message in _catalog(language):
        if not message.id or message.fuzzy:  # a fuzzy entry is never shown
            continue
        ids = _forms(message.id)
        english = [_fields(text) for text in ids]
        braces_all = set().union(*(set(b) for b, _ in english))
        braces_common = set.intersection(*(set(b) for b, _ in english))
        percents = english[-1][1]
        for form in _forms(message.string):
            if not form:
                continue
            braces, percent = _fields(form)
            if len(ids) == 1:
                ok = braces == english[0][0] and percent == percents
            else:  # a plural form may leave out the count, as English's singular does
                ok = braces_common <= set(braces) <= braces_all and len(braces) == len(set(braces))
            if not ok:
                bad.append(f"{message.context}|{ids[0]!r} -> {form!r}")
    assert bad == []
