"""Engine contracts of Dudab with the expansions, setups, records, notation and views."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest

from campfire.core import (
    IllegalActionError,
    Match,
    NotationError,
    Record,
    SetupError,
    replay,
)
from campfire.games.dudab import GAME, DudabAction, DudabState
from campfire.games.dudab.actions import NUM_ACTIONS, action_from_index, parse_action
from campfire.games.dudab.cards import KIND, card_name, cards_in_use

from .table import A, B, C, D, legal, make

BOTH = {"use_jungle": True, "use_baby": True}


def _as_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _walk(players: int, options: dict[str, Any], seed: int) -> list[DudabState]:
    state = GAME.new_game(players, options, seed=seed)
    rng = random.Random(seed)
    states = []
    while True:
        states.append(state.clone())
        if state.is_terminal():
            return states
        seat = state.seats_to_act()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])


@pytest.mark.parametrize("players", [2, 4, 5, 6])
@pytest.mark.parametrize("options", [{"use_jungle": True}, {"use_baby": True}, BOTH])
def test_expansion_positions_views_determinisations(players: int, options: dict[str, Any]) -> None:
    rng = random.Random(players)
    prompts = set()
    for step, state in enumerate(_walk(players, options, seed=players + 10)):
        prompts.add(state.prompt())
        position = state.to_position()
        restored = GAME.state_from_position(json.loads(json.dumps(position)))
        assert _as_json(restored.to_position()) == _as_json(position)
        assert restored.legal_actions() == state.legal_actions()
        indices = [GAME.action_index(a, players) for a in state.legal_actions()]
        assert indices == sorted(indices)  # legal actions come in index order
        if step % 3:
            continue
        for seat in [None, *range(players)]:
            assert restored.view(seat) == state.view(seat)
        for seat in range(players):
            det = state.determinize(seat, rng)
            assert _as_json(det.view(seat)) == _as_json(state.view(seat))
            assert det.legal_actions(seat) == state.legal_actions(seat)
            GAME.state_from_position(det.to_position())  # a consistent position
        assert _as_json(state.to_position()) == _as_json(position)
        if state.is_terminal():
            continue
        seat = state.seats_to_act()[0]
        ok = {cast(DudabAction, a).index for a in state.legal_actions(seat)}
        for index in rng.sample(range(NUM_ACTIONS), 8):
            if index in ok:
                continue
            with pytest.raises(IllegalActionError) as info:
                state.apply(seat, action_from_index(index))
            assert info.value.rule.startswith("dudab rules §")
            assert _as_json(state.to_position()) == _as_json(position)
    if options.get("use_jungle"):
        assert "jungle" in prompts
    if options.get("use_baby"):
        assert "baby" in prompts


def test_private_events_go_only_to_their_seat() -> None:
    state = GAME.new_game(4, BOTH, seed=3)
    rng = random.Random(3)
    seen_private = set()
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
            if event.to is not None:
                assert event.to == frozenset((event.data["seat"],))
                seen_private.add(event.type)
            else:
                assert "card" not in event.data or event.type in {
                    "place",
                    "penalty_reveal",
                    "baby_cover",
                    "to_pile",
                }
    assert {"deal", "drawn_card"} <= seen_private


def test_views_hide_other_hands_and_piles() -> None:
    state = make(
        hands=[["dudab", "red/fur/3"], ["blue/club/1", "green/hand/2"]],
        piles=[["shaman/red"], ["yellow/fur/4"]],
    )
    mine = state.view(A)
    assert mine["hand"] == ["red/fur/3", "dudab"] and mine["pile"] == ["shaman/red"]
    spectator = state.view(None)
    assert "hand" not in spectator and "pile" not in spectator
    text = json.dumps(state.view(B))
    assert "red/fur/3" not in text and "shaman/red" not in text
    assert state.view(B)["hand_sizes"][A] == 2 and state.view(B)["pile_sizes"][A] == 1
    assert "red fur 3" not in state.render(B) and "red fur 3" in state.render(A)


def test_determinize_resamples_hidden_cards_only() -> None:
    state = GAME.new_game(3, BOTH, seed=9)
    det = state.determinize(0, random.Random(1))
    assert det.hands[0] == state.hands[0]
    assert [len(h) for h in det.hands] == [len(h) for h in state.hands]
    assert det.vis == state.vis
    assert det.draw != state.draw  # re-shuffled
    assert all(KIND[c] <= 2 for h in det.hands for c in h)  # no Jungle/Baby in a hand
    assert len(det.decks) == 2 and det.decks != state.decks


# ----- setups and records -----------------------------------------------------------------------


def test_explicit_setup_replays() -> None:
    deck = [card_name(c) for c in cards_in_use(False, False)]
    setup = {"start_player": B, "decks": [deck]}
    match = Match(GAME, 3, setup=setup, seed=5)
    state = match.state
    assert isinstance(state, DudabState)
    assert state.round_start_player() == B
    # one card at a time clockwise from the start player, then the starters
    assert [card_name(c) for c in state.hands[B]] == [deck[0], deck[3], deck[6]]
    assert [card_name(c) for c in state.hands[C]] == [deck[1], deck[4], deck[7]]
    assert [card_name(v[0]) for v in state.vis] == [deck[9], deck[10]]
    assert card_name(state.draw[-1]) == deck[11]
    rng = random.Random(5)
    while not match.state.is_terminal():
        seat = match.state.seats_to_act()[0]
        match.play(seat, rng.choice(match.state.legal_actions(seat)))
    record = Record.from_json(json.loads(match.record().dumps()))
    assert record.setup == setup
    again = replay(record)
    assert again.state.position_equal(match.state)
    assert again.state.outcome() == match.state.outcome()


def test_seeded_setup_equals_explicit_setup_with_expansions() -> None:
    from campfire.core import GameRng

    seeded = GAME.new_game(5, BOTH, seed=21)
    setup = GAME.random_setup(5, GAME.options(BOTH), GameRng(21))
    assert len(setup["decks"]) == 5
    explicit = GAME.new_game(5, BOTH, setup=json.loads(json.dumps(setup)), seed=0)
    assert seeded.position_equal(explicit)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.update(extra=1), "unknown setup field"),
        (lambda s: s.update(start_player=3), "start_player"),
        (lambda s: s.update(decks=[]), "decks"),
        (lambda s: s["decks"][0].pop(), "missing"),
        (lambda s: s["decks"][0].__setitem__(1, s["decks"][0][0]), "appears 2 times"),
        (lambda s: s["decks"][0].__setitem__(0, "N-red-fur-9"), "unknown card"),
        (lambda s: s["decks"][0].append("JUNGLE-1"), "not in use"),
    ],
)
def test_bad_setups_are_clear_errors(change: Any, message: str) -> None:
    setup = {"start_player": 0, "decks": [[card_name(c) for c in range(80)]]}
    change(setup)
    with pytest.raises(SetupError, match=message):
        GAME.new_game(3, setup=setup)


def test_setup_rejects_jungle_among_dealt_cards() -> None:
    cards = [card_name(c) for c in cards_in_use(True, False)]
    cards.insert(0, cards.pop())  # JUNGLE-8 on top
    with pytest.raises(SetupError, match="set aside"):
        GAME.new_game(2, {"use_jungle": True}, setup={"start_player": 0, "decks": [cards]})


def test_start_player_option() -> None:
    assert GAME.new_game(4, {"start_player": 2}, seed=1).round_start_player() == 2
    with pytest.raises(SetupError):
        GAME.new_game(2, {"start_player": 4}, seed=1)


# ----- notation and actions ---------------------------------------------------------------------


def test_notation_examples() -> None:
    for text in ["p red/fur/3 c2", "p dudab c1 call=yellow", "draw", "penalty", "keep dudab"]:
        assert str(parse_action(text)) == text
    assert parse_action("P  Dudab  C1  call = Fur") == parse_action("p dudab c1 call=fur")
    assert str(parse_action("p shaman/red c3")) == "p shaman/red c3"
    assert parse_action("rest pile").index == 315
    with pytest.raises(NotationError, match="unknown card"):
        parse_action("p red/fur/9 c1")
    with pytest.raises(NotationError):
        parse_action("p dudab c1 call=purple")


def test_illegal_actions_name_the_rule() -> None:
    state = make(
        hands=[["red/fur/3", "dudab"]],
        columns=[["red/fur/1"], {"above": ["blue/club/2"], "jungle": True}],
        options={"use_jungle": True},
    )
    cases = {
        "p red/fur/3 c1": "dudab rules §4.1",
        "p blue/fur/3 c1": "dudab rules §5.2",
        "p dudab c2 call=red": "dudab rules §6.2",
        "penalty": "dudab rules §5.5",
        "keep dudab": "dudab rules §5.1",
        "p red/fur/3 c3": "dudab rules §2.4",
    }
    before = _as_json(state.to_position())
    for text, rule in cases.items():
        with pytest.raises(IllegalActionError) as info:
            state.apply(A, text)
        assert info.value.rule == rule, text
        assert "allowed now" in str(info.value)
    with pytest.raises(IllegalActionError, match="turn order"):
        state.apply(B, "draw")
    assert _as_json(state.to_position()) == before
    assert "p dudab c2" in legal(state) and "p dudab c2 call=red" not in legal(state)


def test_notation_document_example() -> None:
    """The example of docs/notation/dudab.md plays as described."""
    state = make(
        hands=[
            ["dudab", "green/fur/1", "blue/mammoth/3"],
            ["red/hand/3", "blue/fur/2"],
            ["yellow/hand/1", "green/club/4"],
            ["shaman/blue", "red/mammoth/2", "green/fur/3"],
        ],
        columns=[["blue/club/2"], ["blue/fur/4", "green/hand/3"]],
        draw=[
            "red/fur/4",  # B's failed answer
            "yellow/club/2",  # C's refill
            "green/hand/4",  # the penalty reveal: A draws 4
            "red/club/4",
            "red/club/1",
            "blue/hand/1",
            "blue/club/1",
        ],
    )
    script = [
        (A, "p dudab c2 call=yellow"),
        (B, "draw"),
        (C, "p yellow/hand/1 c2"),
        (D, "p shaman/blue c1"),
        (A, "penalty"),
        (A, "pile red/club/4"),
    ]
    for seat, text in script:
        assert state.seats_to_act() == (seat,), text
        state.apply(seat, text)
    assert len(state.hands[A]) == 5 and state.seats_to_act() == (B,)
    assert state.prompt() == "turn"


def test_explicit_setup_without_start_player_draws_one() -> None:
    deck = [card_name(c) for c in range(80)]
    starts = {GAME.new_game(4, setup={"decks": [deck]}, seed=s).start_player for s in range(12)}
    assert len(starts) > 1
    assert GAME.new_game(4, {"start_player": 3}, setup={"decks": [deck]}).start_player == 3
