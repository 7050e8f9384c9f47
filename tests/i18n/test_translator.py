"""Translation at the edge: a presenter's Message becomes text in a language, by its id."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog

from campfire.core.present import Message
from campfire.i18n import Translator, plural_base, translate, use_language
from campfire.i18n.catalogs import CompiledCatalog


def _translator(language: str, entries: list[tuple[object, object, str | None]]) -> Translator:
    catalog = Catalog(locale=language)
    for msgid, string, context in entries:
        catalog.add(msgid, string, context=context)  # type: ignore[arg-type]
    return Translator(language, CompiledCatalog(catalog))


ONE = "{player} plays a tracker ({left} left)."
MANY = "{player} plays {count} trackers ({left} left)."
CS = _translator(
    "cs",
    [
        ("{player} peeks at {position}.", "{player} se dívá na {position}.", "demo.peek"),
        (
            (ONE, MANY),
            (
                "{player}: 1 stopař ({left})",
                "{player}: {count} stopaři ({left})",
                "{player}: {count} stopařů ({left})",
            ),
            "demo.played",
        ),
        ("card {name}", "karta {name}", "demo.card"),
        ("Quit", "Konec", None),
    ],
)


def test_a_message_is_translated_by_its_id() -> None:
    m = Message.make("demo.peek", "{player} peeks at {position}.", player="Ann", position=12)
    assert CS.message(m) == "Ann se dívá na 12."


def test_an_unknown_id_or_a_changed_template_falls_back_to_english() -> None:
    unknown = Message.make("demo.other", "{player} waits.", player="Ann")
    changed = Message.make("demo.peek", "{player} looks at {position}.", player="Ann", position=1)
    assert CS.message(unknown) == "Ann waits."
    assert CS.message(changed) == "Ann looks at 1."


def test_english_is_the_presenters_own_text() -> None:
    m = Message.make("demo.peek", "{player} peeks at {position}.", player="Ann", position=12)
    assert translate(m, "en") == m.text


@pytest.mark.parametrize(("count", "expected"), [(2, "stopaři"), (4, "stopaři"), (5, "stopařů")])
def test_plural_families_take_the_languages_forms(count: int, expected: str) -> None:
    m = Message.make("demo.played", MANY, player="Ann", count=count, left=3)
    assert CS.message(m) == f"Ann: {count} {expected} (3)"


def test_the_singular_member_of_a_family_is_the_first_form() -> None:
    m = Message.make("demo.played.one", ONE, player="Ann", left=3)
    assert CS.message(m) == "Ann: 1 stopař (3)"
    assert plural_base("demo.played.one.you") == ("demo.played.you", True)


def test_message_parameters_are_translated_too() -> None:
    card = Message.make("demo.card", "card {name}", name="S-T3-1")
    m = Message(
        "demo.peek", {"player": "Ann", "position": card}, "", "{player} peeks at {position}."
    )
    assert CS.message(m) == "Ann se dívá na karta S-T3-1."
    assert translate(m, "en") == "Ann peeks at card S-T3-1."


def test_a_broken_translation_shows_the_english() -> None:
    broken = _translator("hu", [("Hi {name}.", "Szia {nev}.", "demo.hi")])
    assert broken.message(Message.make("demo.hi", "Hi {name}.", name="Ann")) == "Hi Ann."


def test_gettext_and_ngettext_fall_back_to_english() -> None:
    assert CS.gettext("Quit") == "Konec" and CS.gettext("Stay") == "Stay"
    assert CS.ngettext("{n} move", "{n} moves", 1) == "{n} move"
    assert CS.ngettext("{n} move", "{n} moves", 3) == "{n} moves"


def test_numbers_follow_the_language() -> None:
    assert CS.number(1234567) == "1\xa0234\xa0567"
    with use_language("en") as tr:
        assert tr.number(10_000_000) == "10,000,000"
