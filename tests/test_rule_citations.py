"""Every rule a player is shown is a section of the game's own rules document.

A refused action names the rule it breaks (``IllegalActionError.rule``), and position, setup and
option errors may cite a rule too. What a player reads must point only at what the player has:
``rules/<game>.md`` in the game's package (linked from ``docs/rules``, printed by ``campfire
rules``), cited as ``<game> rules §N.M``, or a plain rule word such as ``turn order`` — never a
section or a decision id of the specifications the engines were written from (``tracker §5.1B``,
``(P15)``).

Two nets: random games of every game try illegal actions built from the whole action index space
and check every rule name they get; and every string literal of the sources (docstrings and
comments excepted) is checked for citations.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from campfire.core import Game, IllegalActionError, all_games
from tests.built_in import built_in_names

SRC = Path(__file__).resolve().parents[1] / "src" / "campfire"
GAMES = {g.name: g for g in all_games()}

#: a rule name of a game: "tracker rules §4.3" (a section) or "dudab rules §4" (a chapter)
RULE_NAME = re.compile(r"(?P<game>[a-z]+) rules §(?P<section>\d+(?:\.\d+)?)")
#: a plain rule word, citing nothing: "turn order", "seat"
PLAIN_RULE = re.compile(r"[a-z][a-z ]*[a-z]")
#: a run of citations in a text: "rules §4.4", "dudab rules §6.1, §7.1", "rules §4.2 and §4.3"
CITATION = re.compile(
    r"(?:(?P<game>[a-z]+) )?rules (?P<refs>§\d+(?:\.\d+)?(?:(?:, | and |–|-)§\d+(?:\.\d+)?)*)"
    r"(?![\w.]*\w)"
)
SECTION = re.compile(r"§(\d+(?:\.\d+)?)")
#: the specifications' decision ids and words, which a player has no way to look up
DECISION_ID = re.compile(r"\((?:[PDM]\d{1,2})\)|\b(?:[PDM]\d{1,2}):|§\s*\d+\s+[PDMH]\d")
SPEC_WORDS = re.compile(r"spec decision|the shared specs?|\.\./shared|/work/shared")
#: headings "## 4. A turn" and "### 4.2 Peeking"
HEADING = re.compile(r"^#{2,3} (\d+)\.(\d+)?\s+\S")


@cache
def sections(name: str) -> frozenset[str]:
    """The numbers of the chapters ("4") and sections ("4.2") of a game's rules document."""
    found: set[str] = set()
    for line in GAMES[name].rules_text().splitlines():
        m = HEADING.match(line)
        if m:
            found.add(m.group(1) if m.group(2) is None else f"{m.group(1)}.{m.group(2)}")
    return frozenset(found)


def rule_problem(rule: str, name: str) -> str | None:
    """Why ``rule`` (a rule name of game ``name``) is not one a player can look up, or None."""
    m = RULE_NAME.fullmatch(rule)
    if m:
        if m["game"] != name:
            return f"{rule!r} is a rule of {m['game']!r}, not of {name!r}"
        if m["section"] not in sections(name):
            return f"{rule!r}: {name}.md has no section {m['section']}"
        return None
    if "§" in rule or not PLAIN_RULE.fullmatch(rule):
        return f"{rule!r} is neither '{name} rules §N.M' nor a plain rule word"
    return None


# ----- rule names met in play ------------------------------------------------------------------


def configurations(game: Game[Any]) -> Iterator[tuple[int, Any]]:
    """The fewest players with the default options, the most with the most options switched."""
    yield game.min_players, game.options_type()
    richest = max(game.options_type.combinations(), key=lambda o: len(o.non_default()))
    yield game.max_players, richest


def refused_rules(game: Game[Any], players: int, options: Any, seed: int) -> set[str]:
    """The rule names of illegal actions tried along one random game.

    Every few steps each seat to act tries every action of the index space that is not legal
    now; a seat not to act tries a few.
    """
    rng = random.Random(seed)
    state = game.new_game(players, options, seed=seed)
    space = [game.action_from_index(i, players) for i in range(game.num_distinct_actions(players))]
    found: set[str] = set()
    step = 0
    while not state.is_terminal():
        to_act = state.seats_to_act()
        if step % 7 == 0:
            for seat in range(players):
                legal = set(state.legal_actions(seat)) if seat in to_act else set()
                tries = [a for a in space if a not in legal]
                if seat not in to_act:
                    tries = rng.sample(tries, 8)
                for action in tries:
                    with pytest.raises(IllegalActionError) as info:
                        state.apply(seat, action)
                    found.add(info.value.rule)
        seat = rng.choice(to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1
    for action in space[:3]:  # after the end
        with pytest.raises(IllegalActionError) as info:
            state.apply(0, action)
        found.add(info.value.rule)
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_refused_action_cites_a_section_of_the_rules_document(name: str) -> None:
    game = GAMES[name]
    found: set[str] = set()
    for i, (players, options) in enumerate(configurations(game)):
        found |= refused_rules(game, players, options, seed=100 + i)
    problems = [p for rule in sorted(found) if (p := rule_problem(rule, name))]
    assert not problems, problems
    cited = {rule for rule in found if "§" in rule}
    # the net did catch something: each built-in game has many refusals; a small plugin fewer
    least = 5 if name in built_in_names() else 3
    assert len(cited) >= least, f"only {sorted(found)} met in play"


@pytest.mark.parametrize(
    ("rule", "name"),
    [
        ("tracker §5.1B", "tracker"),  # a specification's section
        ("apache §5 (P15)", "apache"),  # a decision id
        ("dudab rules §4.9", "dudab"),  # no such section
        ("manitou rules §4.6", "tracker"),  # another game's rules
        ("Turn order!", "apache"),
    ],
)
def test_rule_names_a_player_cannot_look_up_are_caught(rule: str, name: str) -> None:
    assert rule_problem(rule, name) is not None


@pytest.mark.parametrize(
    ("rule", "name"),
    [("tracker rules §4.3", "tracker"), ("dudab rules §4", "dudab"), ("turn order", "apache")],
)
def test_rule_names_of_the_rules_document_pass(rule: str, name: str) -> None:
    assert rule_problem(rule, name) is None


# ----- citations in the sources ----------------------------------------------------------------


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
        ):
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def literals(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of every string literal of a source file but its docstrings.

    Adjacent literals are one text; an f-string's replacement fields read ``{}``.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree)
    inner: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            inner.update(id(v) for v in node.values)
            parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]
            yield node.lineno, "".join(str(p) for p in parts)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if id(node) not in skip and id(node) not in inner:
            yield node.lineno, node.value


def citation_problems(text: str, game: str | None) -> list[str]:
    """What is wrong with the rule citations of one literal of game ``game``'s sources."""
    problems = []
    rest = text
    for m in CITATION.finditer(text):
        name = m["game"] or game
        if name not in GAMES:
            problems.append(f"{m[0]!r} names no game's rules document")
            continue
        for section in SECTION.findall(m["refs"]):
            if section not in sections(name):
                problems.append(f"{m[0]!r}: {name}.md has no section {section}")
        rest = rest.replace(m[0], "")
    if "§" in rest:
        problems.append(f"{text!r} cites a section that is not 'rules §N.M'")
    if DECISION_ID.search(text) or SPEC_WORDS.search(text):
        problems.append(f"{text!r} cites the specifications")
    return problems


def test_every_literal_of_the_sources_cites_only_the_rules_documents() -> None:
    problems = []
    cited = 0
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC).parts
        game = parts[1] if parts[0] == "games" and len(parts) > 2 else None
        for line, text in literals(path):
            cited += "§" in text
            problems += [
                f"{path.relative_to(SRC)}:{line}: {p}" for p in citation_problems(text, game)
            ]
    assert not problems, "\n".join(problems)
    assert cited > 50  # the engines' rule names were read


@pytest.mark.parametrize(
    ("text", "game"),
    [
        ("tracker §5.1B", "tracker"),
        ("(a capture plays trackers, tracker §5.1B)", "tracker"),
        ("dudab §5.7.6–§5.7.7", "dudab"),
        ("column 2 is not eligible (D19)", "dudab"),
        ("one hand card per reveal (apache §5, P15)", "apache"),
        ("apache rules §12", "apache"),
        ("rules §4.2", None),
        ("see rules/dudab.md of the shared specs", "dudab"),
    ],
)
def test_spec_citations_in_a_literal_are_caught(text: str, game: str | None) -> None:
    assert citation_problems(text, game)


@pytest.mark.parametrize(
    ("text", "game"),
    [
        ("is laid at once, dudab rules §6.1, §7.1)", "dudab"),
        ("claims arrive, as in real-time play (rules §8.4)", "apache"),
        ("manitou rules §4.10", None),
        ("the ground being shared", "manitou"),
    ],
)
def test_rules_document_citations_in_a_literal_pass(text: str, game: str | None) -> None:
    assert citation_problems(text, game) == []
