"""'campfire rules GAME --lang L': the document in that language, or English with a note."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from campfire.cli import main
from campfire.core import get
from campfire.i18n import LANGUAGES, translator


def rules_folder(game: str) -> Path:
    """The ``rules`` folder of the game's package."""
    return Path(str(sys.modules[type(get(game)).__module__].__file__)).parent / "rules"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", ["apache", "dudab", "manitou", "tracker"])
def test_rules_print_in_the_language(
    capsys: pytest.CaptureFixture[str], game: str, language: str
) -> None:
    assert main(["rules", game, "--plain", "--lang", language]) == 0
    out = capsys.readouterr().out
    translated = rules_folder(game) / f"{game}.{language}.md"
    if language == "en" or not translated.exists():
        document = (rules_folder(game) / f"{game}.md").read_text(encoding="utf-8").rstrip()
    else:
        document = translated.read_text(encoding="utf-8").rstrip()
    assert document in out
    note = (
        translator(language)
        .gettext(
            "(The rules of {game} are not yet written in this language; here they are in English.)"
        )
        .format(game=get(game).title)
    )
    assert (note in out) == (language != "en" and not translated.exists())


def test_the_options_help_follows_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    tr = translator("hu")
    info = next(i for i in get("tracker").options_type.infos() if i.name == "peek_count")
    assert main(["rules", "tracker", "--plain", "--lang", "hu"]) == 0
    out = capsys.readouterr().out
    assert tr.pgettext("tracker.option.peek_count", info.help) in out
