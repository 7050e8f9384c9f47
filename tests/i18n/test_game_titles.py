"""A game's title is said in the user's language (Tracker is Nyomkereső and Stopař)."""

from __future__ import annotations

import pytest

from campfire.cli import main
from campfire.core import OptionError, get
from campfire.i18n import LANGUAGES, game_title, translator

TRACKER = {"en": "Tracker", "hu": "Nyomkereső", "cs": "Stopař"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_title_is_in_the_catalogs(language: str) -> None:
    tr = translator(language)
    assert game_title(get("tracker"), tr) == TRACKER[language]
    for name in ("apache", "dudab", "manitou"):
        assert game_title(get(name), tr) == get(name).title  # the same name in all three


@pytest.mark.parametrize("language", LANGUAGES)
def test_campfire_games_lists_the_titles_in_the_language(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", language, "games"]) == 0
    assert TRACKER[language] in capsys.readouterr().out


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_error_naming_the_game_names_it_in_the_language(language: str) -> None:
    with pytest.raises(OptionError) as caught:
        get("tracker").check_players(9)
    assert str(caught.value).startswith("Tracker ")  # raised in English
    assert TRACKER[language] in translator(language).error(caught.value)
