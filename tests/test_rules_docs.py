"""The rules documents (rules/<game>.md in each game's package): complete, self-contained, shipped.

Every game's rules live in one Markdown document with numbered sections ("## 3. Setup",
"### 4.2 Peeking") that option help texts and error messages cite as "rules §4.2". The documents
must stand alone: no reference to the specifications they were written from, their section
numbers or their decision ids.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from campfire.cli import main
from campfire.core import Game, all_games

ROOT = Path(__file__).resolve().parents[1]
#: the rules folder of the documentation: a link to each built-in game's documents
DOCS_RULES = ROOT / "docs" / "rules"
GAMES = [g.name for g in all_games()]

#: a section reference: "§4", "§4.2", "§12 M3"-style would leave a suffix behind
SECTION_REF = re.compile(r"§\s*(\d+(?:\.\d+)*)([A-Za-z]?)")
#: headings "## 4. A turn" and "### 4.2 Peeking"
HEADING = re.compile(r"^(#{2,3}) (\d+)\.(\d+)?\s+\S")
#: decision ids of the specifications (P9, D32, M3, …), spec words, paths outside the project
SPEC_WORDS = re.compile(r"\bspec(ification)?s?\b|\bseed rulebook\b|\[S\]|\[D\]", re.IGNORECASE)
DECISION_ID = re.compile(r"\b[PDMXY]\d{1,2}\b")
OUTSIDE = re.compile(r"\.\./shared|/work/shared|\bshared/(rules|seeds)")


def rules_folder(name: str) -> Path:
    """The ``rules`` folder of the game's package, found from its module's file."""
    module = sys.modules[type(game(name)).__module__]
    return Path(str(module.__file__)).resolve().parent / "rules"


def document(name: str) -> str:
    return (rules_folder(name) / f"{name}.md").read_text(encoding="utf-8")


def sections(text: str) -> set[str]:
    """The section numbers of a document: "4" for "## 4. …", "4.2" for "### 4.2 …"."""
    found: set[str] = set()
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            found.add(m.group(2) if m.group(3) is None else f"{m.group(2)}.{m.group(3)}")
    return found


def game(name: str) -> Game[Any]:
    return next(g for g in all_games() if g.name == name)


@pytest.mark.parametrize("name", GAMES)
def test_rules_document_exists_and_is_what_the_game_reads(name: str) -> None:
    text = document(name)
    assert text.startswith("# ") and len(text) > 5000
    # the game reads its own package's document
    assert game(name).rules_text() == text
    assert game(name).rules_summary() == text


@pytest.mark.parametrize("name", GAMES)
def test_rules_document_names_every_option(name: str) -> None:
    text = document(name)
    missing = [i.name for i in game(name).options_type.infos() if f"`{i.name}`" not in text]
    assert not missing, f"{name}.md does not explain {missing}"


@pytest.mark.parametrize("name", GAMES)
def test_rules_document_has_no_spec_references(name: str) -> None:
    text = document(name)
    assert not SPEC_WORDS.findall(text)
    assert not DECISION_ID.findall(text), DECISION_ID.findall(text)
    assert not OUTSIDE.findall(text)


@pytest.mark.parametrize("name", GAMES)
def test_rules_document_sections_are_numbered_and_references_resolve(name: str) -> None:
    text = document(name)
    numbered = sections(text)
    # every chapter and section heading is numbered, subsections under their chapter, in order
    chapters = [line for line in text.splitlines() if line.startswith("## ")]
    assert [HEADING.match(line) is not None for line in chapters] == [True] * len(chapters)
    assert [int(line[3:].split(".")[0]) for line in chapters] == list(range(1, len(chapters) + 1))
    for line in text.splitlines():
        if line.startswith("### "):
            m = HEADING.match(line)
            assert m is not None and m.group(3) is not None, line
            assert m.group(2) in numbered, line
    # every "§N.M" the document cites is one of its own sections, never a spec's "§5.1B"
    for number, suffix in SECTION_REF.findall(text):
        assert not suffix and number in numbered, f"§{number}{suffix} in {name}.md"


@pytest.mark.parametrize("name", GAMES)
def test_option_help_cites_only_the_rules_document(name: str) -> None:
    numbered = sections(document(name))
    for info in game(name).options_type.infos():
        assert not SPEC_WORDS.findall(info.help), info.help
        assert not DECISION_ID.findall(info.help), info.help
        for m in SECTION_REF.finditer(info.help):
            assert info.help[: m.start()].endswith("rules "), info.help
            assert not m.group(2) and m.group(1) in numbered, info.help


def test_the_docs_rules_folder_links_to_the_games_documents() -> None:
    """docs/rules/<file> is a relative link to the one master copy in the game's package."""
    links = sorted(p for p in DOCS_RULES.iterdir() if p.name != "README.md")
    assert links, "docs/rules has no documents"
    for link in links:
        assert link.is_symlink() and not Path(link.readlink()).is_absolute(), link
        name = link.name.partition(".")[0]
        assert link.resolve() == (rules_folder(name) / link.name).resolve(), link
    for name in GAMES:
        if rules_folder(name).is_relative_to(ROOT / "src"):  # the built-in games
            shipped = {p.name for p in rules_folder(name).glob("*.md")}
            assert shipped <= {p.name for p in links}, shipped


def test_readme_and_docs_point_only_inside_the_repository() -> None:
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        assert not OUTSIDE.findall(path.read_text(encoding="utf-8")), path


@pytest.mark.parametrize("name", GAMES)
def test_rules_command_piped_prints_plain_markdown(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", name]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out  # no escape codes when standard output is not a terminal
    assert out.startswith(document(name).rstrip())
    for info in game(name).options_type.infos():
        assert info.name in out


def test_rules_command_formats_in_a_terminal_unless_plain(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["rules", "tracker"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" in out  # rich's Markdown rendering
    assert "## 4. Playing a turn" not in out and "4. Playing a turn" in out
    assert main(["rules", "tracker", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "## 4. Playing a turn" in out
