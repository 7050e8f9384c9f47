"""The language choice: --lang, then CAMPFIRE_LANG, then the system locale, then English."""

from __future__ import annotations

import pytest

from campfire.cli import main
from campfire.core import OptionError
from campfire.i18n import (
    get_language,
    negotiate,
    resolve_language,
    system_language,
    translator,
)


def test_lang_beats_the_environment_and_the_locale() -> None:
    env = {"CAMPFIRE_LANG": "cs", "LANG": "hu_HU.UTF-8"}
    assert resolve_language("en", env) == "en"
    assert resolve_language("hu", env) == "hu"


def test_campfire_lang_beats_the_locale() -> None:
    assert resolve_language(None, {"CAMPFIRE_LANG": "cs", "LC_ALL": "hu_HU.UTF-8"}) == "cs"


def test_the_locale_beats_english() -> None:
    assert resolve_language(None, {"LANG": "cs_CZ.UTF-8"}) == "cs"
    assert resolve_language(None, {"LANGUAGE": "de:hu", "LANG": "en_US.UTF-8"}) == "hu"
    assert resolve_language(None, {}) == "en"


def test_lc_all_beats_lang_and_c_means_english() -> None:
    assert system_language({"LC_ALL": "hu_HU.UTF-8", "LANG": "cs_CZ.UTF-8"}) == "hu"
    assert resolve_language(None, {"LC_ALL": "C", "LANG": "cs_CZ.UTF-8"}) == "en"


def test_an_unspoken_campfire_lang_falls_through_to_the_locale() -> None:
    assert resolve_language(None, {"CAMPFIRE_LANG": "de", "LANG": "hu_HU"}) == "hu"


def test_an_unknown_lang_is_refused_naming_the_languages() -> None:
    with pytest.raises(OptionError, match="en, hu, cs"):
        resolve_language("de", {})


def test_accept_language_picks_by_quality() -> None:
    assert negotiate("de-DE,cs;q=0.8,hu;q=0.9") == "hu"
    assert negotiate("cs-CZ") == "cs"
    assert negotiate("fr, de;q=0.5") == "en"
    assert negotiate("hu;q=0, cs;q=0.1") == "cs"
    assert negotiate("") == "en"


BAD_OPTION = ["play", "tracker", "--option", "peek_count=9"]
ENGLISH = "option 'peek_count' must be one of 2, 3, 4 (got 9)"


def _error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        (["--lang", "cs", *BAD_OPTION], {"CAMPFIRE_LANG": "hu", "LANG": "hu_HU.UTF-8"}, "cs"),
        ([*BAD_OPTION, "--lang=hu"], {"CAMPFIRE_LANG": "cs"}, "hu"),
        ([*BAD_OPTION, "--lang", "en"], {"CAMPFIRE_LANG": "cs"}, "en"),
        (BAD_OPTION, {"CAMPFIRE_LANG": "hu", "LANG": "cs_CZ.UTF-8"}, "hu"),
        (BAD_OPTION, {"LANG": "cs_CZ.UTF-8"}, "cs"),
        (BAD_OPTION, {}, "en"),
    ],
)
def test_the_command_line_follows_the_precedence(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    env: dict[str, str],
    expected: str,
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    tr = translator(expected)
    wanted = tr.gettext("campfire: error: {message}").format(message=tr.error(ENGLISH))
    assert _error_line(capsys, argv) == wanted + "\n"
    if expected != "en":
        assert tr.error(ENGLISH) != ENGLISH  # the option error is translated in the catalog
    assert get_language() == "en"  # the command leaves the process's language as it was
