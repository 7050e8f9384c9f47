"""``campfire sim``'s summary, ``campfire rate``'s leaderboard and the arena's errors in each
language: every heading translated, numbers as the language writes them, columns aligned."""

from __future__ import annotations

import re

import pytest

from campfire.arena import prepare, rate_records, run
from campfire.arena.stats import Summary, summarize
from campfire.cli import main
from campfire.core import Outcome, Player, Record
from campfire.i18n import LANGUAGES, translator


@pytest.fixture(scope="module")
def summary() -> Summary:
    return summarize(run(prepare("tracker", 3, ["random", "heuristic"], 4, seed=5), jobs=1))


#: headings of the agents' table, in each language
HEADINGS = {
    "en": ["agent", "seats", "win share", "95% interval", "score", "sd", "rank", "failed"],
    "hu": ["ágens", "helyek", "nyerési arány", "95%-os sáv", "pontszám", "szórás", "helyezés"],
    "cs": ["agent", "místa", "podíl výher", "95% interval", "body", "sm. odch.", "pořadí"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sim_table_in_each_language(summary: Summary, language: str) -> None:
    tr = translator(language)
    text = summary.to_text(tr)
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith(HEADINGS[language][0]))
    for heading in HEADINGS[language]:
        assert heading in lines[header]
    rows = lines[header + 1 : header + 3]
    # every row's last cell ends where the heading's last cell does (right-aligned columns)
    assert {len(row) for row in rows} == {len(lines[header])}
    assert len(lines[header]) <= 80
    fair = tr.number(summary.fair_share, 3)
    assert fair in text
    if language == "en":
        assert lines[0] == "Tracker, 3 players, 4 games, seed 5"
        assert "0.333" in fair
    else:
        assert "," in fair and "." not in fair  # a decimal comma
        assert "players" not in text and "games" not in text and "thinking time" not in text
    cs_forms = {"cs": "3 hráči, 4 hry", "hu": "3 játékos, 4 játszma"}
    if language in cs_forms:
        assert cs_forms[language] in lines[0]


def test_a_failure_line_in_each_language(summary: Summary) -> None:
    from dataclasses import replace

    from campfire.arena.runner import Failure

    failure = Failure(3, 103, 1, "b", "exception", "boom", 4, {})
    failed = replace(summary, failures=[failure])
    assert failed.to_text(translator("en")).endswith(
        "failed: game 3 (seed 103), seat 1 (b) after 4 actions: exception: boom"
    )
    assert failed.to_text(translator("hu")).endswith(
        "hiba: 3. játszma (seed: 103), 1. hely (b), 4 lépés után: kivétel: boom"
    )
    assert failed.to_text(translator("cs")).endswith(
        "selhání: hra 3 (seed 103), místo 1 (b) po 4 tazích: výjimka: boom"
    )


def test_the_leaderboard_in_each_language() -> None:
    records = [
        Record(
            game="tracker",
            players=[Player(f"{p} #{i}", p) for i, p in enumerate(["strong", "weak"])],
            seed=1,
            outcome=Outcome.from_scores([5, 1]),
        )
        for _ in range(5)
    ]
    (board,) = rate_records(records)
    english = board.to_text(translator("en"))
    assert english.startswith("Tracker: 5 games rated")
    assert "win share" in english.splitlines()[1]
    hu = board.to_text(translator("hu")).splitlines()
    assert hu[0].startswith("Nyomkereső: 5 értékelt játszma")
    assert re.search(r"értékszám .* nyerési arány$", hu[1])
    cs = board.to_text(translator("cs")).splitlines()
    assert cs[0].startswith("Stopař: hodnoceno 5 her")
    assert "podíl výher" in cs[1]
    assert len({len(line) for line in cs[1:]}) == 1  # aligned


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "campfire: error: the number of games must be a positive integer (got 0)\n"),
        ("hu", "a játszmák száma pozitív egész szám (kapott: 0)"),
        ("cs", "počet her musí být kladné celé číslo (zadáno: 0)"),
    ],
)
def test_an_arena_error_in_each_language(
    capsys: pytest.CaptureFixture[str], language: str, expected: str
) -> None:
    from campfire.arena.runner import prepare as prepare_run

    with pytest.raises(ValueError) as info:
        prepare_run("tracker", 2, ["random"], 0, seed=1)
    text = translator(language).error(info.value)
    if language == "en":
        assert f"campfire: error: {text}\n" == expected
    else:
        assert text == expected


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_campfire_sim_prints_in_the_chosen_language(
    capsys: pytest.CaptureFixture[str], language: str
) -> None:
    argv = ["sim", "tracker", "--players", "2", "--agents", "random", "--games", "2"]
    assert main([*argv, "--seed", "1", "--jobs", "1", "--lang", language]) == 0
    out = capsys.readouterr().out
    assert HEADINGS[language][2] in out
    assert "win share" not in out
