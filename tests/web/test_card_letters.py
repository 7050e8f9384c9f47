"""The letters on the cards are the page's language's: a person who chooses Czech or Hungarian
in the switcher sees the Indians' initials (Czech L for Lovec, the hunter; Hungarian V for
vadász) and the colours' initials in the corners (Czech Č for červená, Hungarian P for piros),
never the English ones."""

from __future__ import annotations

from typing import Any

import pytest

from .people import create_table, start, wait_for_js

#: the letters a card draws: the big value above its pictogram and the corners
_LETTERS = """() => [...document.querySelectorAll('#cf-board .cf-card svg')].flatMap((svg) =>
  [...svg.querySelectorAll('.cf-corner, .cf-value')].map((t) => t.textContent.trim()))
  .filter((t) => /^[^0-9×]+$/.test(t))"""


@pytest.mark.parametrize(
    ("game", "lang", "expected", "english"),
    [
        # Apache's hand: the four Indians (initials big) in the player's colour (corners)
        ("apache", "cs", {"N", "D", "V", "L", "Č", "Ž", "F", "Z", "M"}, {"C", "W", "H"}),
        ("apache", "hu", {"F", "Hj", "Hr", "V", "P", "S", "L", "Z", "K"}, {"C", "M", "W", "H"}),
        # Dudab's hand: number cards with their colour's initial in the corners
        ("dudab", "hu", {"K", "P", "S", "Z"}, {"B", "R", "Y", "G"}),
    ],
)
def test_the_letters_on_the_cards_are_the_languages(
    server: Any, new_page: Any, game: str, lang: str, expected: set[str], english: set[str]
) -> None:
    ann = new_page()
    create_table(ann, server.base, game, 2, ["easy"], name="Ann")
    start(ann)
    ann.get_by_label("Language").select_option(lang)
    wait_for_js(ann, f"document.documentElement?.lang === '{lang}'")
    # the table is drawn again in the new language: its cards' letters are that language's
    letters = wait_for_js(
        ann,
        f"(() => {{ const l = ({_LETTERS})(); return l.length && l.every((x) => "
        f"{sorted(expected)!r}.includes(x)) ? l : null; }})()",
    )
    assert set(letters) <= expected and not set(letters) & english, letters
    assert ann.errors == []
