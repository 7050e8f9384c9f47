"""The browser client's texts (``campfire.web.strings.STRINGS``) are extracted and translated.

Extraction catalogues each id like a presenter's message (context: the id, msgid: the English
template); ``/api/strings?lang=`` serves them translated with their placeholders left in.
"""

from __future__ import annotations

import pytest

from campfire.i18n import placeholders
from campfire.i18n.catalogs import load_catalog
from campfire.i18n.extract import extract
from campfire.web.strings import STRINGS, strings


def test_every_string_is_in_the_template_under_its_id() -> None:
    template = extract()
    for message_id, english in STRINGS.items():
        entry = template.get(english, context=message_id)
        assert entry is not None, message_id


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_every_string_is_served_translated(language: str) -> None:
    catalog = load_catalog(language)
    assert catalog is not None
    served = strings(language)
    assert set(served) == set(STRINGS)
    same = []
    for message_id, english in STRINGS.items():
        msgid, forms = catalog.by_context[message_id]
        assert msgid == english and forms[0], message_id
        # the client fills the placeholders: they are left in, the same as the English ones
        assert placeholders(served[message_id]) == placeholders(english), message_id
        if served[message_id] == english:
            same.append(message_id)
    # a few texts read the same in every language ("Campfire", "{label}: {count}")
    assert len(same) <= len(STRINGS) // 10, same
