"""The translated rules documents (rules/<game>.<lang>.md in a game's package) and the glossary.

A translation keeps the English document's numbered headings, in the same order, so that "rules
§4.2" means the same section in every language; it explains every option under its own name; it
keeps every command, option value and notation word (the English document's code spans) as they
are; and, like the English documents, it never refers to the specifications the rules were written
from. The glossary gives, per game, the Hungarian and Czech words the translations use.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from campfire.core import Game, all_games
from tests.built_in import built_in_names

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
GAMES = [g.name for g in all_games()]
#: the translation languages; English is the unsuffixed master document
LANGUAGES = ("hu", "cs")
#: the languages whose documents must exist for every game
REQUIRED_LANGUAGES = ("hu", "cs")

#: headings "## 4. A turn" and "### 4.2 Peeking" (as in tests/test_rules_docs.py)
HEADING = re.compile(r"^(#{2,3}) (\d+)\.(\d+)?\s+\S")
SECTION_REF = re.compile(r"§\s*(\d+(?:\.\d+)*)([A-Za-z]?)")
SPEC_WORDS = re.compile(r"\bspec(ification)?s?\b|\bseed rulebook\b|\[S\]|\[D\]", re.IGNORECASE)
DECISION_ID = re.compile(r"\b[PDMXY]\d{1,2}\b")
OUTSIDE = re.compile(r"\.\./shared|/work/shared|\bshared/(rules|seeds)")
CODE_SPAN = re.compile(r"`([^`]+)`")
#: code spans that are placeholders in words, not literal input: a translation may translate them
PLACEHOLDER_SPANS = frozenset({"name:count"})

#: per game, the English terms the glossary must translate (the words players say at the table)
REQUIRED_TERMS: dict[str, tuple[str, ...]] = {
    "apache": (
        "hand card",
        "prairie card",
        "booty",
        "Chief",
        "Maiden",
        "Warrior",
        "Hunter",
        "buffalo",
        "totem pole",
        "tomahawk",
        "necklace",
        "teepee",
        "neutral (colour, Indian)",
        "claim (noun)",
        "prisoner",
        "penalty",
        "victory pile",
        "war tribute",
        "marriage",
        "sharing",
        "reaction time",
    ),
    "manitou": (
        "hunter",
        "hero",
        "Chief",
        "Squaw",
        "Shaman",
        "Spy",
        "Healer",
        "tile",
        "bag",
        "tipi",
        "horse",
        "totem",
        "totem piece",
        "horse piece",
        "hunt",
        "hunting ground",
        "dealer",
        "pool",
        "hero fight",
        "sacrifice",
        "thief",
        "multiplier (×1, ×2, ×3)",
    ),
    "dudab": (
        "Number card",
        "Dudab",
        "Shaman",
        "Jungle",
        "Baby",
        "hand (symbol)",
        "mammoth",
        "club",
        "fur",
        "draw pile",
        "discard pile",
        "own pile",
        "column",
        "round",
        "call (noun)",
        "penalty",
        "capture (a column)",
        "keep two",
        "mirror, mirror card",
        "heap",
    ),
    "tracker": (
        "Tracker (Stopař)",
        "tribe",
        "chief card",
        "tracker card, tracker",
        "scout",
        "false track",
        "board",
        "peek (noun)",
        "capture (noun)",
        "relocate, relocation",
        "final peek",
        "final capture",
    ),
}


def rules_file(name: str, lang: str = "") -> Path:
    """A game's rules document in its package (``lang``: "" for the English master)."""
    game = next(g for g in all_games() if g.name == name)
    folder = Path(str(sys.modules[type(game).__module__].__file__)).parent / "rules"
    return folder / (f"{name}.{lang}.md" if lang else f"{name}.md")


def _translations() -> list[tuple[str, str]]:
    """Every (game, language) whose translated document exists, and the required ones."""
    pairs = {(g, lang) for g in GAMES for lang in LANGUAGES if rules_file(g, lang).exists()}
    pairs |= {(g, lang) for g in GAMES for lang in REQUIRED_LANGUAGES}
    return sorted(pairs)


TRANSLATIONS = _translations()


def english(name: str) -> str:
    return rules_file(name).read_text(encoding="utf-8")


def translation(name: str, lang: str) -> str:
    path = rules_file(name, lang)
    assert path.exists(), f"rules/{name}.{lang}.md is missing in the game's package"
    return path.read_text(encoding="utf-8")


def headings(text: str) -> list[str]:
    """The numbered headings in order: "2" for "## 2. …", "2.1" for "### 2.1 …"."""
    found = []
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            found.append(m.group(2) if m.group(3) is None else f"{m.group(2)}.{m.group(3)}")
    return found


def code_spans(text: str) -> set[str]:
    """The document's code spans, whitespace normalised (a span may be wrapped over two lines)."""
    return {" ".join(span.split()) for span in CODE_SPAN.findall(text)}


def game(name: str) -> Game[Any]:
    return next(g for g in all_games() if g.name == name)


def glossary_tables() -> dict[str, dict[str, list[str]]]:
    """Per glossary section (its heading's `game` name, or "common"): English term → its row."""
    tables: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            m = re.search(r"`(\w+)`", line)
            current = tables.setdefault(m.group(1) if m else "common", {})
        elif current is not None and line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells != ["en", "hu", "cs"]:
                current[cells[0]] = cells
    return tables


@pytest.mark.parametrize(("name", "lang"), TRANSLATIONS)
def test_translation_has_the_english_headings_in_order(name: str, lang: str) -> None:
    text = translation(name, lang)
    assert text.startswith("# ")
    assert headings(text) == headings(english(name))
    # every "##"/"###" heading is numbered, as in the English document
    for line in text.splitlines():
        if line.startswith(("## ", "### ")):
            assert HEADING.match(line), f"unnumbered heading in {name}.{lang}.md: {line}"


@pytest.mark.parametrize(("name", "lang"), TRANSLATIONS)
def test_translation_explains_every_option_by_name(name: str, lang: str) -> None:
    text = translation(name, lang)
    missing = [i.name for i in game(name).options_type.infos() if f"`{i.name}`" not in text]
    assert not missing, f"{name}.{lang}.md does not explain {missing}"


@pytest.mark.parametrize(("name", "lang"), TRANSLATIONS)
def test_translation_keeps_commands_values_and_notation(name: str, lang: str) -> None:
    missing = code_spans(english(name)) - code_spans(translation(name, lang)) - PLACEHOLDER_SPANS
    assert not missing, f"{name}.{lang}.md lacks the code spans {sorted(missing)}"


@pytest.mark.parametrize(("name", "lang"), TRANSLATIONS)
def test_translation_has_no_spec_references_and_its_citations_resolve(name: str, lang: str) -> None:
    text = translation(name, lang)
    assert not SPEC_WORDS.findall(text)
    assert not DECISION_ID.findall(text), DECISION_ID.findall(text)
    assert not OUTSIDE.findall(text)
    numbered = set(headings(text))
    for number, suffix in SECTION_REF.findall(text):
        assert not suffix and number in numbered, f"§{number}{suffix} in {name}.{lang}.md"


@pytest.mark.parametrize("name", built_in_names())  # docs/glossary.md: Campfire's own games
def test_glossary_translates_the_required_terms_of_every_game(name: str) -> None:
    table = glossary_tables().get(name)
    assert table is not None, f"docs/glossary.md has no section for `{name}`"
    missing = [t for t in REQUIRED_TERMS[name] if t not in table]
    assert not missing, f"docs/glossary.md ({name}) lacks rows for {missing}"


def test_glossary_rows_have_three_columns_and_hungarian_throughout() -> None:
    tables = glossary_tables()
    assert {"common", *built_in_names()} <= set(tables)
    for section, rows in tables.items():
        for term, cells in rows.items():
            assert len(cells) == 3, f"glossary ({section}) row {term!r}: {cells}"
            assert cells[1] and cells[1] != "—", f"glossary ({section}) {term!r} has no Hungarian"
            assert cells[2], f"glossary ({section}) {term!r}: an unfilled Czech cell is '—'"


def test_glossary_points_only_inside_the_repository() -> None:
    assert not OUTSIDE.findall(GLOSSARY.read_text(encoding="utf-8"))
