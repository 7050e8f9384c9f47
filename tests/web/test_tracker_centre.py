"""Tracker's board in words: the centre shows footprints with the count of trackers played and
is named in plain words (accessible name and tooltip), never "0T" or "··"; a tribe is its
colour, never its code ("T5"); in Czech too."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .people import create_table, start, wait_for_js

_CENTRE = """() => [...document.querySelectorAll('#cf-board [data-card^="centre:"]')].map((n) => ({
  id: n.dataset.card, name: n.getAttribute("aria-label"), title: n.getAttribute("title"),
  art: n.querySelector(".cf-art") ? n.querySelector(".cf-art").dataset.art : null,
  text: n.querySelector("svg").textContent.trim(),
}))"""


def _board_text(page: Any) -> str:
    return str(page.locator("#cf-board").inner_text())


@pytest.mark.parametrize(
    ("lang", "counted", "cell", "tribe"),
    [
        ("en", "Centre of the board: {n} trackers played", "Centre of the board", "tribe"),
        ("cs", "Střed hrací plochy: {n} odložených stopařů", "Střed hrací plochy", "kmen"),
    ],
)
def test_the_centre_and_the_tribes_are_said_in_words(
    server: Any, new_page: Any, lang: str, counted: str, cell: str, tribe: str
) -> None:
    ann = new_page()
    create_table(ann, server.base, "tracker", 2, ["easy"], name="Ann")
    start(ann)
    if lang != "en":  # the person chooses the language in the page's switcher
        ann.get_by_label("Language").select_option(lang)
        wait_for_js(ann, f"document.documentElement?.lang === '{lang}'")
    ann.locator('#cf-board [data-card="centre:0"]').wait_for()
    wait_for_js(
        ann,
        "(name) => document.querySelector('#cf-board [data-card=\"centre:0\"]')"
        "?.getAttribute('aria-label') === name",
        counted.format(n=0),
    )
    centre = ann.evaluate(_CENTRE)
    assert len(centre) == 4, centre
    first = centre[0]
    assert first["art"] == "tracks" and first["text"] == "0"  # footprints, the count above
    assert first["name"] == counted.format(n=0) and first["title"] == first["name"]
    assert all(c["name"].startswith(cell) and c["title"] == c["name"] for c in centre[1:])
    text = _board_text(ann)
    assert "0T" not in text and "··" not in text
    assert not re.search(r"\(T[0-5]\)", text), text  # the tribe's colour, never its code
    # a person who points at the centre reads what it is (its tooltip)
    ann.locator('#cf-board [data-card="centre:0"]').hover()
    facts = ann.locator(".cf-player").first.inner_text()
    assert tribe in facts and not re.search(r"T[0-5]", facts), facts
    assert ann.errors == []
