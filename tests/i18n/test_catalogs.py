"""The catalogs: complete in every language, placeholders kept, the templates up to date.

There is the core's catalog and one for each registered game, in the game's package; each is
checked the same way, and the core's holds no game's strings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from campfire.core import all_games
from campfire.i18n import LANGUAGES, Translator, placeholders
from campfire.i18n import extract as extraction
from campfire.i18n.catalogs import DOMAIN, CompiledCatalog, game_domain, load_catalog
from campfire.i18n.extract import Template, pot_texts, templates

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = LANGUAGES[1:]
TEMPLATES = {template.domain: template for template in templates()}
#: every (domain, language) pair: the core's catalogs and each game's
CATALOGS = [(domain, language) for domain in TEMPLATES for language in TRANSLATED]
#: a %-conversion as argparse's strings use them (``%s``, ``%(prog)s``, ``%d``); the ``-`` and
#: space flags are left out, which no string of ours uses, so that prose such as "95% interval"
#: or Hungarian "95%-os" is not taken for one
_PERCENT = re.compile(r"%(?:\(\w+\))?[#0+]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def _catalog(domain: str, language: str) -> Catalog:
    return _read(TEMPLATES[domain].po(language), language)


def _key(message: object) -> tuple[str | None, str]:
    msgid = message.id  # type: ignore[attr-defined]
    return message.context, msgid[0] if isinstance(msgid, tuple) else msgid  # type: ignore[attr-defined]


def _forms(value: object) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (str(value or ""),)


def _fields(text: str) -> tuple[list[str], list[str]]:
    return placeholders(text), sorted(_PERCENT.findall(text.replace("%%", "")))


def test_every_game_has_its_catalogs_in_its_package() -> None:
    assert next(iter(TEMPLATES)) == DOMAIN
    for game in all_games():
        domain = game_domain(game)
        assert domain is not None and game.name in TEMPLATES, game.name
        assert domain.pot().is_file(), game.name
        for language in TRANSLATED:
            assert domain.po(language).is_file(), (game.name, language)
        # the files the translators edit are the ones the package reads
        assert Path(str(domain.pot())).resolve() == TEMPLATES[game.name].pot.resolve()


def test_the_templates_are_up_to_date() -> None:
    for template, text in pot_texts():
        assert template.pot.read_text(encoding="utf-8") == text, (
            f"{template.pot.name}: run 'python -m campfire.i18n extract' and then 'update'"
        )


def test_the_core_catalogs_hold_no_game_string() -> None:
    core = [_read(TEMPLATES[DOMAIN].pot)] + [_catalog(DOMAIN, lang) for lang in TRANSLATED]
    for game in all_games():
        folder = TEMPLATES[game.name].locale.parent.resolve()
        for catalog in core:
            for message in catalog:
                assert not (message.context or "").startswith(f"{game.name}."), message.context
                for path, _line in message.locations:
                    assert not (ROOT / path).resolve().is_relative_to(folder), path


@pytest.mark.parametrize(("domain", "language"), CATALOGS)
def test_every_message_has_a_translation(domain: str, language: str) -> None:
    catalog = _catalog(domain, language)
    missing = []
    for message in _read(TEMPLATES[domain].pot):
        if not message.id:
            continue
        found = catalog.get(_key(message)[1], context=message.context)
        if found is None or found.fuzzy or not all(_forms(found.string)):
            missing.append(f"{message.context or ''}|{_key(message)[1]}")
    assert missing == [], (
        f"{len(missing)} untranslated or fuzzy in {domain}.{language}: {missing[:10]}"
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_string_two_games_share_reads_the_same_in_both(language: str) -> None:
    """The catalogs are merged into one: a shared entry must not depend on which game wins."""
    seen: dict[tuple[str | None, str], tuple[str, tuple[str, ...]]] = {}
    for domain in TEMPLATES:
        for message in _catalog(domain, language):
            if not message.id:
                continue
            key, forms = _key(message), _forms(message.string)
            if key in seen:
                assert seen[key][1] == forms, (key, seen[key][0], domain)
            seen[key] = (domain, forms)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_language_reads_every_catalog(language: str) -> None:
    """The catalog a translator uses is the core's with every game's laid over it."""
    merged = load_catalog(language)
    assert merged is not None
    for domain in TEMPLATES:
        for message in _catalog(domain, language):
            if message.id and not message.fuzzy and all(_forms(message.string)):
                assert merged.entries[_key(message)][1] == _forms(message.string)


def test_a_games_entry_wins_over_the_cores() -> None:
    core, game = Catalog(locale="hu"), Catalog(locale="hu")
    core.add("Pass", "Passz")
    core.add("Quit", "Kilépés")
    game.add("Pass", "Nem kérek")
    compiled = CompiledCatalog(core)
    compiled.add(game)
    tr = Translator("hu", compiled)
    assert (tr.gettext("Pass"), tr.gettext("Quit"), tr.gettext("Other")) == (
        "Nem kérek",
        "Kilépés",
        "Other",
    )


def test_update_moves_a_translation_from_the_core_to_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A string that left the core's template for a game's takes its translation along."""
    core = Template(DOMAIN, tmp_path / "core" / "locale")
    game = Template("demo", tmp_path / "demo" / "locale")
    old = Catalog(locale="hu", domain=DOMAIN)
    old.add("Quit", "Kilépés")
    old.add("Draw a card", "Húzz egy lapot")
    old.add("{count} card", "", context="unrelated")
    for template, entries in ((core, ["Quit"]), (game, ["Draw a card", "Shuffle"])):
        pot = Catalog(domain=template.domain)
        for msgid in entries:
            pot.add(msgid)
        template.pot.parent.mkdir(parents=True)
        template.pot.write_text(extraction._po_text(pot), encoding="utf-8")
    core.po("hu").parent.mkdir(parents=True)
    core.po("hu").write_text(extraction._po_text(old), encoding="utf-8")
    monkeypatch.setattr(extraction, "templates", lambda: [core, game])

    assert extraction.update(("hu",)) == [core.po("hu"), game.po("hu")]
    moved = _read(game.po("hu"), "hu")
    assert moved.get("Draw a card").string == "Húzz egy lapot"  # type: ignore[union-attr]
    assert moved.get("Shuffle").string == ""  # type: ignore[union-attr]  # new: for a translator
    kept = _read(core.po("hu"), "hu")
    assert kept.get("Quit").string == "Kilépés"  # type: ignore[union-attr]
    assert kept.get("Draw a card") is None
    assert "Draw a card" not in kept.obsolete  # moved, not lost: no obsolete copy is left behind


@pytest.mark.parametrize(("domain", "language"), CATALOGS)
def test_plural_entries_have_the_languages_forms(domain: str, language: str) -> None:
    catalog = _catalog(domain, language)
    for message in catalog:
        if message.id and isinstance(message.id, (tuple, list)) and any(_forms(message.string)):
            assert len(_forms(message.string)) == catalog.num_plurals, message.id


@pytest.mark.parametrize(("domain", "language"), CATALOGS)
def test_placeholders_agree_between_languages(domain: str, language: str) -> None:
    bad = []
    for message in _catalog(domain, language):
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
