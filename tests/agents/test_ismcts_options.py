"""ISMCTS options: bad values are refused with a clear, translated error, through the CLI too."""

from __future__ import annotations

import pytest

import campfire
from campfire.agents import ISMCTSAgent, make_agent
from campfire.cli import main
from campfire.core import OptionError
from campfire.i18n import LANGUAGES, translator

TRACKER = campfire.get_game("tracker")
BOTH = (
    "give the search either iterations or seconds, not both (iterations={iterations}, "
    "seconds={seconds}): a time budget ignores the iterations"
)


def _sim_error(capsys: pytest.CaptureFixture[str], agent: str, language: str) -> str:
    argv = ["sim", "tracker", "--players", "2", "--agents", f"{agent},random", "--games", "1"]
    assert main([*argv, "--lang", language]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


def test_a_budget_of_both_iterations_and_seconds_is_refused() -> None:
    with pytest.raises(OptionError) as caught:
        make_agent("ismcts:iterations=500,seconds=2", TRACKER, 0, 2)
    assert str(caught.value) == "agent 'ismcts': " + BOTH.format(iterations=500, seconds=2.0)


@pytest.mark.parametrize("spec", ["ismcts:seconds=2", "ismcts:iterations=500", "ismcts"])
def test_one_budget_is_accepted(spec: str) -> None:
    assert isinstance(make_agent(spec, TRACKER, 0, 2), ISMCTSAgent)


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        (
            "ismcts:iterations=0",
            "agent 'ismcts': option 'iterations' must be an integer from 1 to 1000000 (got 0)",
        ),
        (
            "ismcts:exploration=-1",
            "agent 'ismcts': option 'exploration' must be a number from 0 to 100 (got -1.0)",
        ),
        (
            "ismcts:iterations=500,seconds=2",
            "agent 'ismcts': " + BOTH.format(iterations=500, seconds=2.0),
        ),
    ],
)
def test_the_cli_says_what_is_wrong(
    capsys: pytest.CaptureFixture[str], agent: str, message: str
) -> None:
    assert _sim_error(capsys, agent, "en") == f"campfire: error: {message}\n"


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_the_cli_says_it_in_the_language(capsys: pytest.CaptureFixture[str], language: str) -> None:
    translated = translator(language).gettext(BOTH)
    assert translated != BOTH  # the catalog has it
    err = _sim_error(capsys, "ismcts:iterations=500,seconds=2", language)
    head = translated.split("{iterations}")[0]
    assert head in err and "500" in err
    assert "either iterations or seconds" not in err
