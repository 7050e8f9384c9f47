"""``GET /api/games`` says every option in plain words, in the request's language (issue 28).

Each option comes with its name in words (``label``), words for its choices (``labels``, by the
value written as text) and whether its values are seats (``seat``): the lobby and the table
pages show those, never the code words of the values. A game that declares no labels (the
plugin Sparks) still gets readable ones.
"""

from __future__ import annotations

from typing import Any

import pytest

from campfire.core import all_games
from campfire.i18n import LANGUAGES

from .helpers import app_client


def _options(client: Any, game: str, language: str) -> dict[str, dict[str, Any]]:
    games = client.get(f"/api/games?lang={language}").json()
    found = next(g for g in games if g["name"] == game)
    return {o["name"]: o for o in found["options"]}


def test_a_seat_option_names_random_and_leaves_the_players_to_the_page(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        english = _options(client, "dudab", "en")["start_player"]
        hungarian = _options(client, "dudab", "hu")["start_player"]
        czech = _options(client, "dudab", "cs")["start_player"]
    assert english["label"] == "Start player" and english["seat"] is True
    assert english["labels"] == {"-1": "Random"}  # the seats: "Player 1", … by the page
    assert hungarian["label"] == "Kezdő játékos" and hungarian["labels"] == {"-1": "Véletlenszerű"}
    assert czech["label"] == "Začínající hráč" and czech["labels"] == {"-1": "Náhodně"}


def test_choices_have_words_in_every_language(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        words = {language: _options(client, "manitou", language) for language in LANGUAGES}
    english = words["en"]["hunter_ranking"]
    assert english["label"] == "Ranking the hunters"
    assert english["labels"] == {
        "per_card": "Card by card",
        "per_player": "Each player's best hunter",
    }
    for language in LANGUAGES[1:]:
        option = words[language]["hunter_ranking"]
        assert option["label"] != english["label"]
        assert set(option["labels"]) == set(english["labels"])
        assert all(option["labels"][k] != english["labels"][k] for k in english["labels"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_option_is_shown_in_code_words(sqlite_url: str, language: str) -> None:
    """Every game's every option has a label and words for every choice, none with ``_``."""
    with app_client(sqlite_url) as client:
        games = client.get(f"/api/games?lang={language}").json()
    assert {g["name"] for g in games} == {g.name for g in all_games()}
    for game in games:
        for option in game["options"]:
            assert option["label"] and "_" not in option["label"], option
            for choice in option["choices"] or []:
                if isinstance(choice, bool) or (
                    option["seat"] and str(choice) not in option["labels"]
                ):
                    continue
                words = option["labels"][str(choice)]
                assert words and "_" not in words, (game["name"], option["name"], choice)
            assert "placeholder" not in option["help"].lower()


def test_a_game_without_labels_gets_readable_words(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        options = _options(client, "sparks", "hu")
    assert options["hand_size"]["label"] == "Hand size"
    assert options["hand_size"]["labels"] == {"4": "4", "5": "5", "6": "6"}
    assert options["trumps"]["label"] == "Trumps" and options["trumps"]["labels"] == {}
