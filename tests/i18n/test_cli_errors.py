"""The CLI error for a bad option in each language: English exact, the others from the catalog."""

from __future__ import annotations

from pathlib import Path

import pytest

from campfire.cli import main
from campfire.core import get
from campfire.i18n import LANGUAGES, translator


def _err(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    return capsys.readouterr().err


def test_a_bad_option_value_in_english_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    err = _err(capsys, "play", "tracker", "--option", "peek_count=9", "--lang", "en")
    assert err == "campfire: error: option 'peek_count' must be one of 2, 3, 4 (got 9)\n"


def test_an_unknown_option_in_english_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    err = _err(
        capsys,
        "sim",
        "tracker",
        "--players",
        "2",
        "--agents",
        "random",
        "--games",
        "1",
        "--option",
        "nosuch=1",
        "--lang",
        "en",
    )
    assert err == (
        "campfire: error: unknown option 'nosuch'; this game's options are: "
        "peek_count, max_relocations\n"
    )


def test_an_unknown_flag_in_english_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    err = _err(capsys, "games", "--bogus", "--lang", "en")
    assert err == (
        "campfire games: error: unrecognized arguments: --bogus (see 'campfire games --help')\n"
    )


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_a_bad_option_value_reads_in_the_language(
    capsys: pytest.CaptureFixture[str], language: str
) -> None:
    tr = translator(language)
    err = _err(capsys, "play", "tracker", "--option", "peek_count=9", "--lang", language)
    what = tr.gettext("option {name}").format(name="'peek_count'")
    allowed = tr.gettext("one of {values}").format(values="2, 3, 4")
    message = tr.gettext("{what} must be {allowed} (got {got})").format(
        what=what, allowed=allowed, got="9"
    )
    assert err == tr.gettext("campfire: error: {message}").format(message=message) + "\n"
    assert "must be" not in err and "one of" not in err  # no English left in the message


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_an_unknown_flag_reads_in_the_language(
    capsys: pytest.CaptureFixture[str], language: str
) -> None:
    tr = translator(language)
    err = _err(capsys, "games", "--bogus", "--lang", language)
    unknown = tr.gettext("unrecognized arguments: %s") % "--bogus"
    assert unknown != "unrecognized arguments: --bogus"
    expected = tr.gettext("{prog}: error: {message} (see '{prog} --help')").format(
        prog="campfire games", message=unknown
    )
    assert err == expected + "\n"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_bad_lang_names_the_languages(
    capsys: pytest.CaptureFixture[str], language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAMPFIRE_LANG", language)
    err = _err(capsys, "--lang", "xx", "games")
    assert "'xx'" in err and "en, hu, cs" in err


def test_the_core_templates_still_match_what_the_core_raises() -> None:
    """Each error template of campfire.i18n.errors recognises the core's real message."""
    from campfire.core import OptionError, UnknownGameError
    from campfire.core.options import parse_option_assignments
    from campfire.i18n.errors import ERROR_TEMPLATES, _match

    class Marker:
        language = "xx"

        def gettext(self, text: str) -> str:
            return "<" + text + ">"

    raised = []
    for make in (
        lambda: get("nosuch"),
        lambda: get("tracker").options({"nosuch": 1}),
        lambda: parse_option_assignments(["novalue"]),
        lambda: get("tracker").options({"peek_count": "x"}),
        lambda: get("tracker").options({"peek_count": 9}),
    ):
        with pytest.raises((OptionError, UnknownGameError)) as info:
            make()
        raised.append(str(info.value))
    for text in raised:
        assert _match(text, ERROR_TEMPLATES, Marker()) is not None, text  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "campfire: error: Tracker is played by 2–6 players (got 9)\n"),
        ("hu", "a(z) Nyomkereső játékot 2–6 játékos játssza (kapott: 9)"),
        ("cs", "hru Stopař hraje 2–6 hráčů (zadáno: 9)"),
    ],
)
def test_a_bad_player_count_in_each_language(
    capsys: pytest.CaptureFixture[str], language: str, expected: str
) -> None:
    argv = ["sim", "tracker", "--players", "9", "--agents", "random", "--games", "1"]
    err = _err(capsys, *argv, "--lang", language)
    if language == "en":
        assert err == expected
    else:
        assert expected in err


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "argument --games: the number of games must be 1–10000000 (got 0)"),
        ("hu", "--games argumentum: a játszmák száma: a megengedett érték 1–10000000 (kapott: 0)"),
        ("cs", "argument --games: počet her musí být 1–10000000 (zadáno: 0)"),
    ],
)
def test_a_bad_count_argument_names_the_count_in_each_language(
    capsys: pytest.CaptureFixture[str], language: str, expected: str
) -> None:
    argv = ["sim", "tracker", "--players", "2", "--agents", "random", "--games", "0"]
    assert expected in _err(capsys, *argv, "--lang", language)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "is not valid JSON: Expecting value (line 1, column 1)"),
        ("hu", "nem érvényes JSON: Expecting value (1. sor, 1. oszlop)"),
        ("cs", "není platný JSON: Expecting value (řádek 1, sloupec 1)"),
    ],
)
def test_a_record_that_is_no_json_in_each_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, language: str, expected: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text("nope", encoding="utf-8")
    assert main(["replay", str(path), "--lang", language]) == 2
    assert expected in capsys.readouterr().err
