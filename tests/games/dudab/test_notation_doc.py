"""docs/notation/dudab.md matches the code: action indices, examples, view fields, events."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from campfire.games.dudab import GAME
from campfire.games.dudab.actions import (
    ACTIONS,
    K_BABY,
    K_DRAW,
    K_JUNGLE,
    K_KEEP,
    K_PENALTY,
    K_PILE,
    K_PLACE,
    K_REST,
    NUM_ACTIONS,
    DudabKind,
    parse_action,
)
from campfire.games.dudab.cards import FACE_DUDAB, FACE_SHAMAN

DOC = Path(__file__).resolve().parents[3] / "docs" / "notation" / "dudab.md"


def _section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _table_rows(section: str) -> list[list[str]]:
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[1:]]


def _documented_index(kind: DudabKind, face: int, col: int, call: int) -> int:
    """The index formulas of the doc's action table (K = col + 1, F = face)."""
    k = col + 1
    if kind == K_PLACE and face < 64:
        return face * 3 + (k - 1)
    if kind == K_PLACE and face == FACE_DUDAB:
        return 204 + (k - 1) * 13 + call
    if kind == K_PLACE:
        return 192 + (face - FACE_SHAMAN) * 3 + (k - 1)
    fixed = {K_DRAW: 243, K_PENALTY: 244}
    if kind in fixed:
        return fixed[kind]
    if kind == K_KEEP:
        return 245 + face
    if kind == K_REST:
        return 315 if call else 314
    if kind == K_PILE:
        return 316 + face
    return (384 if kind == K_JUNGLE else 387) + k


def test_doc_index_formulas_match_the_code() -> None:
    section = _section("Actions")
    for formula in [
        "F·3 + (K−1)",
        "192 + colour·3 + (K−1)",
        "204 + (K−1)·13 + x",
        "245 + F",
        "314 / 315",
        "316 + F",
        "384 + K",
        "387 + K",
        "**391**",
    ]:
        assert formula in section, formula
    assert NUM_ACTIONS == 391 == len(ACTIONS)
    for action in ACTIONS:
        assert action.kind in (K_PLACE, K_DRAW, K_PENALTY, K_KEEP, K_REST, K_PILE, K_JUNGLE, K_BABY)
        documented = _documented_index(action.kind, action.face, action.col, action.call)
        assert documented == action.index, str(action)
        assert parse_action(str(action)) == action


def test_doc_action_examples_parse_back() -> None:
    rows = _table_rows(_section("Actions"))
    examples = [m for row in rows for m in re.findall(r"`([^`]+)`", row[0])]
    assert len(examples) >= 12
    for text in examples:
        assert str(parse_action(text)) == text


def test_doc_example_game_notation() -> None:
    section = _section("Actions")
    block = section[section.index("```") + 3 : section.rindex("```")]
    for line in block.strip().splitlines():
        seat, text = re.match(r"seat (\d): (.+?)\s+#", line).groups()  # type: ignore[union-attr]
        assert int(seat) in range(4)
        assert str(parse_action(text)) == text


def _play(seed: int) -> tuple[set[str], dict[str, set[bool]]]:
    state = GAME.new_game(5, {"use_jungle": True, "use_baby": True}, seed=seed)
    rng = random.Random(seed)
    keys: set[str] = set()
    events: dict[str, set[bool]] = {}
    while not state.is_terminal():
        for seat in (None, *range(state.num_players)):
            keys |= set(state.view(seat))
        seat = state.seats_to_act()[0]
        for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
            events.setdefault(event.type, set()).add(event.to is None)
    keys |= set(state.view(0))
    return keys, events


@pytest.mark.parametrize("seed", [1, 2])
def test_doc_lists_every_view_field_and_event(seed: int) -> None:
    keys, events = _play(seed)
    views = _section("Views")
    documented = {m for row in _table_rows(views) for m in re.findall(r"`([a-z_]+)`", row[0])}
    assert keys <= documented, keys - documented
    table = _table_rows(_section("Events"))
    seen_by = {}
    for row in table:
        names = re.findall(r"`([a-z_]+)`", row[0])
        who = [w.strip() for w in row[1].split("/")]
        for i, name in enumerate(names):
            seen_by[name] = who[min(i, len(who) - 1)]
    for name, public in events.items():
        assert name in seen_by, name
        assert public == {seen_by[name] == "all"}, name
