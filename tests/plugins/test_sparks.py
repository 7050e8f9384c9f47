"""Sparks, the plugin game: its rules document's examples, positions, bots, catalogs and docs."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from campfire_sparks import GAME, SparksState
from campfire_sparks.bots import SparksHeuristic, SparksMemory
from campfire_sparks.cards import card_name, parse_card

from campfire.core import (
    IllegalActionError,
    Match,
    NotationError,
    Observation,
    PositionError,
    Record,
    get,
    replay,
)
from campfire.core import present as present_module
from campfire.core.present import render_text, translation
from campfire.i18n import Translator, placeholders
from campfire.i18n.catalogs import CompiledCatalog

from . import sparks_catalog

RULES = Path(sparks_catalog.PACKAGE) / "rules"


def deal(players: int, hands: list[str], start: int = 0, **options: Any) -> SparksState:
    """A game from an explicit deal: ``hands`` as space-separated cards, one string per seat."""
    return GAME.new_game(
        players, options, setup={"start_player": start, "hands": [h.split() for h in hands]}
    )


def play(state: SparksState, *moves: str) -> list[str]:
    """Play ``moves`` (``play X`` each, by the seat to act); the types of the events."""
    types: list[str] = []
    for move in moves:
        types.extend(e.type for e in state.apply(state.current_seat(), f"play {move}"))
    return types


# ----- the rules document's worked examples (§7) ------------------------------------------------

HANDS_2 = ["B5 R2 R3 R4 R5", "G9 R1 G1 G2 G3"]


def test_example_1_a_card_of_another_suit_never_takes_the_trick() -> None:
    state = deal(2, HANDS_2)
    events = state.apply(0, "play B5")
    assert state.legal_actions(1) == [
        GAME.parse_action(f"play {c}") for c in ["R1", "G1", "G2", "G3", "G9"]
    ]
    events = state.apply(1, "play G9")
    assert events[0].data == {"seat": 1, "card": "G9", "void": "blue"}  # everybody learns it
    assert events[1].type == "trick" and events[1].data["winner"] == 0
    assert state.current_seat() == 0 and state.view(None)["tricks"] == [1, 0]


def test_example_2_with_trumps_a_red_card_takes_the_trick() -> None:
    state = deal(2, HANDS_2, trumps=True)
    play(state, "B5", "G9")
    assert state.leader == 0
    state = deal(2, HANDS_2, trumps=True)
    events = state.apply(0, "play B5") + state.apply(1, "play R1")
    assert events[-1].data["winner"] == 1 and state.current_seat() == 1


def test_example_3_the_last_trick_scores_one_more_point_and_ties_share() -> None:
    # Ann (seat 0) takes tricks 1-3 with high reds, Bob takes 4 and 5 with greens he leads
    state = deal(2, ["R7 R8 R9 B1 B2", "R1 R2 R3 G8 G9"])
    play(state, "R9", "R1", "R8", "R2", "R7", "R3", "B1", "G8")
    assert state.current_seat() == 0  # B1 led, G8 does not follow: Ann takes trick 4
    state = deal(2, ["R7 R8 R9 B1 B2", "R1 R2 R3 G8 G9"])
    play(state, "R9", "R1", "R8", "R2", "R7", "R3")
    assert state.view(None)["tricks"] == [3, 0]
    state.leader = state.seat = 1  # from here Bob leads (as if he had taken a trick): G8, G9
    play(state, "G8", "B1", "G9", "B2")
    outcome = state.outcome()
    assert outcome.scores == (3, 3) and outcome.winners == (0, 1)
    assert [d["last_trick"] for d in outcome.details] == [0, 1]


def test_following_suit_is_enforced_with_the_rule_named() -> None:
    state = deal(2, HANDS_2, start=1)
    state.apply(1, "play G1")
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "play G9")
    assert info.value.rule == "sparks rules §4.1"
    state = deal(2, ["B5 G4 R3 R4 R5", "G9 R1 G1 G2 G3"], start=1)
    state.apply(1, "play G1")
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "play R3")
    assert info.value.rule == "sparks rules §4.2" and "green" in str(info.value)


def test_each_refusal_names_its_rule_and_tells_nothing_hidden() -> None:
    state = deal(3, ["B5 R2 R3 R4 R5", "G9 R1 B1 G2 G3", "B2 B3 B4 G4 G5"], trumps=True)
    play(state, "B5", "B1", "B2")  # B5, the highest blue, takes the trick
    assert state.current_seat() == 0
    refusals = {
        "play B1": "sparks rules §4.3",  # played in the first trick: public
        "play G9": "sparks rules §4.1",  # in another hand: not said where
        "play B9": "sparks rules §4.1",  # dealt to nobody: not said either
    }
    for move, rule in refusals.items():
        with pytest.raises(IllegalActionError) as info:
            state.apply(0, move)
        assert info.value.rule == rule
        assert "seat 1" not in str(info.value) and "unused" not in str(info.value)
    play(state, "R2")  # red led: seat 1 must follow with R1
    with pytest.raises(IllegalActionError) as info:
        state.apply(1, "play G2")
    assert info.value.rule == "sparks rules §4.2"
    state = deal(2, ["B5 R2 R3 R4 R5", "B9 R1 G1 G2 G3"], trumps=True)
    state.apply(0, "play B5")
    with pytest.raises(IllegalActionError) as info:
        state.apply(1, "play R1")  # a trump, while holding the led blue
    assert info.value.rule == "sparks rules §6.2"
    while not state.is_terminal():
        seat = state.current_seat()
        state.apply(seat, state.legal_actions(seat)[0])
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "play R2")
    assert info.value.rule == "sparks rules §5"


def test_a_game_has_one_trick_per_card_and_the_hand_size_option() -> None:
    for size in (4, 5, 6):
        for players in (2, 3, 4):
            match = Match(GAME, players, {"hand_size": size}, seed=size * players)
            assert isinstance(match.state, SparksState)
            tricks = 0
            while not match.state.is_terminal():
                seat = match.state.current_seat()
                events = match.play(seat, match.state.legal_actions(seat)[0])
                tricks += sum(1 for e in events if e.type == "trick")
            assert tricks == size
            assert sum(match.state.outcome().scores) == size + 1
            assert len(match.state.unused) == 27 - players * size


def test_notation() -> None:
    assert str(GAME.parse_action("  PLAY   g7 ")) == "play G7"
    for bad in ("play X1", "play R0", "R7", "play R7 R8"):
        with pytest.raises(NotationError):
            GAME.parse_action(bad)


def test_the_view_hides_other_hands_and_the_unused_cards() -> None:
    state = GAME.new_game(3, seed=9)
    text = json.dumps(state.view(0))
    for card in [*state.hands[1], *state.hands[2], *state.unused]:
        assert f'"{card_name(card)}"' not in text
    assert state.view(None)["hand"] == [] and state.view(0)["unused_count"] == 12


# ----- positions: one broken rule per named check -----------------------------------------------


def _position_after(moves: int) -> dict[str, Any]:
    state = GAME.new_game(3, seed=4)
    rng = random.Random(1)
    for _ in range(moves):
        seat = state.current_seat()
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return dict(state.to_position())


BROKEN: dict[str, tuple[int, Any, str]] = {
    "every_card_once": (0, lambda s: s["unused"].append(s["hands"][0][0]), "in two places"),
    "card_missing": (0, lambda s: s["unused"].pop(), "is missing"),
    "unused": (0, lambda s: s["hands"][0].append(s["unused"].pop()), "unused:"),
    "whole_tricks": (
        6,
        lambda s: s["won"][s["leader"]].append(s["hands"][0].pop()),
        "whole tricks",
    ),
    "trick_short": (0, lambda s: None, ""),
    "hand_sizes": (
        3,
        lambda s: s["hands"][0].append(s["hands"][1].pop()),
        "expected after",
    ),
    "start_player": (0, lambda s: s.update(leader=(s["start_player"] + 1) % 3), "start player"),
    "last_trick_none": (0, lambda s: s.update(last_leader=0), "no trick is complete"),
    "last_trick": (6, lambda s: s.update(last_leader=(s["last_leader"] + 1) % 3), "last_trick"),
}


@pytest.mark.parametrize("case", [k for k in BROKEN if k != "trick_short"])
def test_each_named_check_refuses_the_position_that_breaks_it(case: str) -> None:
    moves, change, message = BROKEN[case]
    position = _position_after(moves)
    change(position["state"])
    with pytest.raises(PositionError, match=message):
        GAME.state_from_position(position)


def test_who_did_not_follow_must_lack_the_led_suit() -> None:
    position = deal(3, ["B5 R2 R3 R4 R5", "B9 R1 G1 G2 G3", "B1 B2 B3 G4 G5"]).to_position()
    position["state"]["trick"] = ["B5"]
    position["state"]["hands"][0].remove("B5")
    GAME.state_from_position(position)  # a legal position: seat 1 to follow
    position["state"]["trick"] = ["B5", "G1"]
    position["state"]["hands"][1].remove("G1")  # seat 1 did not follow, yet holds B9
    with pytest.raises(PositionError, match="did not follow blue"):
        GAME.state_from_position(position)


def test_a_record_replays() -> None:
    match = Match(GAME, 3, {"trumps": True}, seed=12)
    rng = random.Random(3)
    while not match.state.is_terminal():
        seat = match.state.current_seat()
        match.play(seat, rng.choice(match.state.legal_actions(seat)))
    again = replay(Record.from_json(json.loads(match.record().dumps())))
    assert again.state.outcome() == match.state.outcome()
    assert get("sparks") is GAME


# ----- computer players ---------------------------------------------------------------------------


def test_the_memory_deals_no_card_of_a_suit_a_seat_showed_it_lacks() -> None:
    state = deal(2, ["B5 R2 R3 R4 R5", "G9 R1 G1 G2 G3"])
    memory = SparksMemory(0)
    memory.observe(state.apply(0, "play B5") + state.apply(1, "play G9"))
    assert memory.voids == {1: {1}}
    blues = {parse_card(f"B{r}") for r in range(1, 10)}
    rng = random.Random(0)
    plain = [state.determinize(0, rng) for _ in range(50)]
    assert any(blues & set(world.hands[1]) for world in plain)  # without the memory: some
    for _ in range(50):
        world = memory.sample(state, rng)
        assert isinstance(world, SparksState) and world.view(0) == state.view(0)
        assert not blues & set(world.hands[1])


def test_the_heuristic_takes_a_trick_with_its_lowest_winning_card() -> None:
    state = deal(2, ["R6 B1 B2 B3 B4", "R5 R7 R9 G1 G2"])
    state.apply(0, "play R6")
    bot = SparksHeuristic(GAME, 1, 2, state.options, seed=0)
    assert str(bot.act(Observation.of(state, 1))) == "play R7"


@pytest.mark.parametrize("agent", ["heuristic", "ismcts:iterations=60"])
def test_the_bots_play_whole_games(agent: str) -> None:
    from campfire.agents import make_agent

    state = GAME.new_game(3, seed=2)
    bots = [make_agent(agent, GAME, s, 3, state.options, seed=s) for s in range(3)]
    while not state.is_terminal():
        seat = state.current_seat()
        action = bots[seat].act(Observation.of(state, seat, bots[seat].belief))
        events = state.apply(seat, action)
        for s, bot in enumerate(bots):
            bot.observe([e for e in events if e.to is None or s in e.to])
    assert sum(state.outcome().scores) == 6


# ----- presenter, catalogs, rules documents ---------------------------------------------------


def _translator(language: str) -> Translator:
    with sparks_catalog.po_path(language).open("rb") as handle:
        return Translator(language, CompiledCatalog(read_po(handle, locale=language)))


def test_the_display_shows_the_own_hand_and_the_trick_by_player() -> None:
    state = deal(3, ["B5 R2 R3 R4 R5", "G9 R1 G1 G2 G3", "B1 B2 B3 G4 G5"])
    state.apply(0, "play B5")
    shown = GAME.presenter().display(state.view(1), state.legal_actions(1), ["Ann", "Bob", "Cy"])
    assert shown.zone("trick").cards[0].label == "blue 5"
    assert shown.zone("trick").cards[0].marks == ("Ann",)
    assert [c.short for c in shown.zone("hand:1").cards] == ["R1", "G1", "G2", "G3", "G9"]
    assert shown.zone("hand:0").count == 4 and shown.zone("hand:0").cards == ()
    assert shown.prompt == "Play a card; follow blue if you can."
    assert "Bob (you)" in render_text(shown)


@pytest.mark.parametrize(
    ("language", "prompt", "label"),
    [
        ("hu", "Játssz ki egy lapot; ha tudsz, kék lapot.", "Kijátszás: piros 1"),
        ("cs", "Zahraj kartu; přiznej barvu modrá, pokud můžeš.", "Zahrát červená 1"),
    ],
)
def test_the_display_in_hungarian_and_czech(language: str, prompt: str, label: str) -> None:
    state = deal(2, HANDS_2)
    state.apply(0, "play B5")
    with translation(_translator(language).text):
        shown = GAME.presenter().display(state.view(1), state.legal_actions(1), ["Ann", "Bob"])
    assert shown.prompt == prompt and shown.actions[0].label == label


def test_the_catalog_template_is_up_to_date() -> None:
    fresh = sparks_catalog.po_text(sparks_catalog.extract())
    assert sparks_catalog.POT.read_text(encoding="utf-8") == fresh, (
        "run: python -m tests.plugins.sparks_catalog extract && ... update"
    )


@pytest.mark.parametrize("language", sparks_catalog.LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    template = sparks_catalog.read(sparks_catalog.POT)
    catalog = sparks_catalog.read(sparks_catalog.po_path(language), language)
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        assert found is not None and not found.fuzzy, (message.context, message.id)
        ids = message.id if isinstance(message.id, tuple) else (str(message.id),)
        forms = (
            tuple(found.string) if isinstance(found.string, (tuple, list)) else (str(found.string),)
        )
        assert all(forms), (language, message.context, message.id)
        english = [placeholders(text) for text in ids]
        common = set.intersection(*(set(e) for e in english))
        every = set().union(*(set(e) for e in english))
        for form in forms:
            if len(ids) == 1:  # the same fields, each as often
                assert placeholders(form) == english[0], (language, message.id, form)
            else:  # a plural form may leave out the count, as the English singular does
                assert common <= set(placeholders(form)) <= every, (language, message.id, form)


def test_the_rules_documents_in_three_languages_have_the_same_sections() -> None:
    def sections(name: str) -> list[str]:
        text = (RULES / name).read_text(encoding="utf-8")
        return re.findall(r"^#+ (\d+(?:\.\d+)?)\.? ", text, flags=re.M)

    english = sections("sparks.md")
    assert english[:3] == ["1", "2", "3"] and "6.2" in english
    assert sections("sparks.hu.md") == english
    assert sections("sparks.cs.md") == english
    assert GAME.rules_text().startswith("# Sparks — the rules")


def test_the_rules_sections_the_code_cites_exist() -> None:
    cited = set()
    for file in sparks_catalog.PACKAGE.glob("*.py"):
        cited |= set(re.findall(r"§(\d+(?:\.\d+)?)", file.read_text(encoding="utf-8")))
    text = (RULES / "sparks.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (\d+(?:\.\d+)?)\.? ", text, flags=re.M))
    assert cited and cited <= headings


def test_the_notation_document_lists_every_event_type() -> None:
    from campfire_sparks.types import EVENT_DATA

    text = (sparks_catalog.PACKAGE / "notation" / "sparks.md").read_text(encoding="utf-8")
    events = text.split("## Events", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `(\w+)` \|", events, flags=re.M))
    assert listed == set(EVENT_DATA)


def test_the_entry_point_names_the_game_object() -> None:
    import importlib
    import tomllib

    pyproject = sparks_catalog.PACKAGE.parent / "pyproject.toml"
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    points = data["project"]["entry-points"]["campfire.games"]
    assert list(points) == [GAME.name]
    module, _, attribute = points[GAME.name].partition(":")
    assert getattr(importlib.import_module(module), attribute) is GAME
    # and that entry point is how Campfire knows it: nothing registers it by hand
    from campfire.core import registry

    assert registry.get(GAME.name) is GAME


def test_the_declared_facts() -> None:
    assert GAME.play_modes == ("turns",)
    assert GAME.move_cap(4) == 24 and GAME.move_cap(2) == 12
    state = deal(2, HANDS_2)
    play(state, "B5", "G9")
    assert GAME.public_scores(state.view(None)) == [1.0, 0.0]


@pytest.mark.skipif(
    not hasattr(present_module, "StepDisplay"), reason="a display model without step displays"
)
def test_what_a_step_changed_is_on_the_display() -> None:
    presenter: Any = GAME.presenter()  # step_display: where the display model has steps
    state = GAME.new_game(3, seed=3)
    rng = random.Random(1)
    moves = 0
    while not state.is_terminal():
        seat = state.current_seat()
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        moves += 1
        for reader in (0, 1, None):
            legal = state.legal_actions(reader) if reader is not None else []
            shown = presenter.display(state.view(reader), legal, ["A", "B", "C"])
            ids = {z.id for z in shown.zones} | {c.id for z in shown.zones for c in z.cards}
            step = presenter.step_display(events, reader)
            assert step.changed and set(step.changed) <= ids, (moves, reader, step)
            assert all(target in ids for _source, target in step.moved)


@pytest.mark.parametrize("language", sparks_catalog.LANGUAGES)
def test_a_string_campfire_also_has_reads_the_same(language: str) -> None:
    import campfire

    shared = 0
    for path in sorted(Path(campfire.__file__).parent.rglob(f"{language}/LC_MESSAGES/*.po")):
        with path.open("rb") as handle:
            theirs = read_po(handle, locale=language)  # Campfire's own, or a built-in game's
        for message in sparks_catalog.read(sparks_catalog.po_path(language), language):
            found = theirs.get(message.id, context=message.context) if message.id else None
            if found is not None and found.string and not found.fuzzy:
                assert message.string == found.string, (language, message.id, path.name)
                shared += 1
    assert shared >= 2  # the kernel's words: "an action is written as text", "{what}: {exc}"
