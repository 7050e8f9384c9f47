"""Rule-by-rule tests of rules/manitou.md that the worked examples leave open (rules review).

Each test names the spec section (or decision) it checks. The worked examples EX-M1 … EX-M16
are in ``test_examples.py``; options, notation, positions and records in ``test_manitou.py``.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from campfire.core import Event, IllegalActionError
from campfire.games.manitou import GAME, ManitouState
from campfire.games.manitou.actions import NUM_ACTIONS, action_from_index
from campfire.games.manitou.cards import (
    CARD_NAMES,
    CHIEF,
    FULL_POOL,
    HEALER,
    HERO_CHARTS,
    SHAMAN,
    SPY,
    SQUAW,
    TILE_NAMES,
    beats,
)
from campfire.games.manitou.state import selection_sizes

from .helpers import cards_at, down, evaluate, fresh, make_state, play_state, takes, tiles_of, up

HEROES = (CHIEF, SQUAW, SHAMAN, SPY, HEALER)
FIXTURE = ["tipi1", "buffalo2", "totem", "horse", "tomahawk", "tipi3", "buffalo1"] * 9


def run_first_legal(state: ManitouState, stop: Any = None) -> list[Event]:
    """Apply the first legal action of the first seat to act until the end (or ``stop``)."""
    events: list[Event] = []
    while not state.is_terminal() and not (stop and stop(state)):
        seat = state.seats_to_act()[0]
        events += state.apply(seat, state.legal_actions(seat)[0])
    return events


# ----- §3: seats, roles, selection sizes, dealer rotation ----------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_s3_selection_sizes_for_every_dealer(players: int) -> None:
    for dealer in range(players):
        sizes = selection_sizes(players, dealer)
        first = (dealer + 1) % players
        assert sizes[dealer] == 7
        assert sizes[first] == (8 if players == 2 else 9)
        assert all(sizes[p] == 8 for p in range(players) if p not in (dealer, first))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_s3_dealer_passes_to_the_left_after_each_hunt(players: int) -> None:
    state = fresh(players, dealer=1, tiles=FIXTURE)
    events = run_first_legal(state)
    starts = [e.data for e in events if e.type == "hunt_start"]
    # hunt 1's start happened at setup; the later ones rotate the dealer to the left
    dealers = [1] + [s["dealer"] for s in starts]
    assert dealers == [(1 + h) % players for h in range(state.hunts)]
    for s in starts:
        assert s["first_player"] == (s["dealer"] + 1) % players
        assert s["selection_sizes"] == selection_sizes(players, s["dealer"])
    # in every hunt the first player plays first and the dealer last
    plays = [e.data["seat"] for e in events if e.type == "play" and not e.data["totem"]]
    for h in range(state.hunts):
        dealer = (1 + h) % players
        rounds = plays[h * 7 * players : (h + 1) * 7 * players]
        assert rounds[:players] == [(dealer + 1 + i) % players for i in range(players)]
        assert all(rounds.count(p) == 7 for p in range(players))


# ----- §4: card cycles ---------------------------------------------------------------------------


def test_s4_unplayed_selected_cards_return_to_the_pool() -> None:
    state = fresh(3, dealer=0, tiles=FIXTURE)  # seat 1 is the first player: 9 cards, plays 7
    run_first_legal(state, stop=lambda s: s.phase_name == "play")
    selected = list(state.selected[1])
    events = run_first_legal(state, stop=lambda s: s.hunt == 1)
    played = [0] * 15
    for e in events:
        if e.type == "play" and e.data["seat"] == 1:
            played[CARD_NAMES.index(e.data["card"])] += 1
    assert sum(played) == 7 and sum(selected) == 9
    kept = [s - p for s, p in zip(selected, played, strict=True)]
    assert sum(kept) == 2
    # hunt 2: the pool is the 17 cards less the 7 played; the 2 kept cards are back in it
    assert state.pool[1] == [f - p for f, p in zip(FULL_POOL, played, strict=True)]
    picks = {str(a) for a in state.legal_actions(1)}
    for c, k in enumerate(kept):
        if k:
            assert f"pick {CARD_NAMES[c]}" in picks


def test_s4_cycles_of_two_hunts_with_five_players() -> None:
    """Pools are reset at hunts 1, 3, 5; in hunts 2 and 4 the cards of hunts 1 and 3 are used."""
    state = fresh(5, dealer=0, tiles=FIXTURE)
    pools: list[list[int]] = []
    played: list[list[list[int]]] = []
    while not state.is_terminal():
        pools.append([sum(p) for p in state.pool])
        events = run_first_legal(state, stop=lambda s, h=state.hunt: s.hunt != h)
        counts = [[0] * 15 for _ in range(5)]
        for e in events:
            if e.type == "play":
                counts[e.data["seat"]][CARD_NAMES.index(e.data["card"])] += 1
        played.append(counts)
    assert len(pools) == 5
    for h in (0, 2, 4):
        assert pools[h] == [17] * 5
    for h in (1, 3):
        assert pools[h] == [17 - sum(played[h - 1][p]) for p in range(5)]
        # nothing played in the first hunt of the cycle is played again in the second
        for p in range(5):
            for c in range(15):
                assert played[h - 1][p][c] + played[h][p][c] <= FULL_POOL[c]


# ----- §5.2, §5.3: hero combat for every pair of every chart -------------------------------------


@pytest.mark.parametrize("chart", HERO_CHARTS)
def test_s52_normal_contest_follows_the_chart_for_every_pair(chart: str) -> None:
    for attacker, defender in itertools.product(HEROES, HEROES):
        a, d = CARD_NAMES[attacker], CARD_NAMES[defender]
        state = play_state(
            2, 1, {1: [a]}, table=[[up(0, d)], [], []], options={"hero_chart": chart}
        )
        state.apply(1, f"play {a} g1")
        if attacker == defender:  # both lose
            expected = [[0, d, False], [1, a, False]]
        elif beats(chart, attacker, defender):
            expected = [[0, d, False], [1, a, True]]
        else:
            expected = [[0, d, True], [1, a, False]]
        assert cards_at(state, 1) == expected, (chart, a, d)


@pytest.mark.parametrize("chart", HERO_CHARTS)
def test_s52_sacrifice_compares_only_with_the_newer_hero(chart: str) -> None:
    for older, newer, attacker in itertools.product(HEROES, HEROES, HEROES):
        if older == newer and FULL_POOL[older] < 2:
            continue  # a deck has one shaman, one spy, one healer
        o, n, a = CARD_NAMES[older], CARD_NAMES[newer], CARD_NAMES[attacker]
        state = play_state(
            2, 1, {1: [a]}, table=[[up(0, o), up(0, n)], [], []], options={"hero_chart": chart}
        )
        state.apply(1, f"play {a} g1")
        removed = attacker == newer or beats(chart, attacker, newer)
        expected = [[0, o, True], [0, n, not removed], [1, a, False]]
        assert cards_at(state, 1) == expected, (chart, o, n, a)


def test_s52_own_heroes_never_fight_and_a_face_down_hero_is_out_of_combat() -> None:
    # seat 1's face-down spy does not defend: seat 0's squaw meets only the face-up chief
    state = play_state(
        2, 0, {0: ["squaw"]}, dealer=1, table=[[down(1, "spy"), up(1, "chief")], [], []]
    )
    state.apply(0, "play squaw g1")
    assert cards_at(state, 1) == [[1, "spy", False], [1, "chief", False], [0, "squaw", True]]
    assert [c >> 4 for c in state.up[0]] == [0]


# ----- §5.6, §5.7: totem extra card and horse move -----------------------------------------------


def _totem_state(table: list[list[list[Any]]], hand: list[str], **fields: Any) -> ManitouState:
    """3 players, dealer 0 about to play his 7th card; seat 1 (first player, two cards left)
    holds the totem piece."""
    return play_state(
        3, 0, {0: ["h1"], 1: hand, 2: ["h2"]}, table=table, turn=20, totem_holder=1, **fields
    )


def test_s56_totem_card_follows_the_hero_limit() -> None:
    table = [[up(1, "spy"), up(1, "chief")], [], []]
    state = _totem_state(table, ["squaw", "h3"])
    state.apply(0, "play h1 g3")
    assert state.phase_name == "totem"
    legal = [str(a) for a in state.legal_actions(1)]
    assert "play squaw g1" not in legal and "play squaw g2" in legal and "pass" in legal
    before = json.dumps(state.to_position())
    with pytest.raises(IllegalActionError) as info:
        state.apply(1, "play squaw g1")
    assert info.value.rule == "manitou rules §4.6"
    assert json.dumps(state.to_position()) == before


def test_s56_totem_card_fights_like_any_hero_and_draws_nothing() -> None:
    # the horse holder's move (seat 0) keeps the hunt open after the totem play
    state = _totem_state([[up(2, "healer")], [], []], ["chief", "h3"], horse_holder=0)
    state.apply(0, "play h1 g3")
    events = state.apply(1, "play chief g1")
    assert [e.type for e in events] == ["play", "hero_down"]  # combat, and no draw
    assert cards_at(state, 1) == [[2, "healer", False], [1, "chief", True]]
    assert state.hands[1] == [2] and state.phase_name == "horse"


def test_s56_totem_pass_goes_on_to_the_horse() -> None:
    state = _totem_state([[up(2, "h4")], [], []], ["h9", "h3"])
    state.apply(0, "play h1 g3")
    events = state.apply(1, "pass")
    assert events[0].type == "totem_pass" and events[0].data == {"seat": 1}
    assert events[1].type == "thief"  # no horse holder: straight on to the evaluation
    assert not any(e.type == "play" for e in events)


def test_s57_no_horse_move_without_own_hunters_on_the_table() -> None:
    # the horse holder (seat 2) has only a hero on the table: the move is skipped
    state = play_state(
        3,
        0,
        {0: ["h1"], 1: ["h9", "h3"], 2: []},
        table=[[up(2, "chief")], [], []],
        turn=20,
        horse_holder=2,
    )
    events = state.apply(0, "play h1 g2")
    assert state.phase_name != "horse"
    assert any(e.type == "thief" for e in events)


def test_s57_horse_move_of_the_totem_card() -> None:
    # the holder of both pieces may move the hunter he played as the 8th card
    state = make_state(
        3,
        0,
        phase="play",
        seat=0,
        play_turn=20,
        hands=[["h1"], ["h9", "h3"], ["h2"]],
        totem_holder=1,
        horse_holder=1,
    )
    state.apply(0, "play h1 g3")
    state.apply(1, "play h9 g1")
    assert state.phase_name == "horse"
    assert [str(a) for a in state.legal_actions(1)] == ["move h9 g2", "move h9 g3", "pass"]
    events = state.apply(1, "move h9 g3")
    assert events[0].type == "horse_move"
    assert cards_at(state, 3) == [] and state.hunt == 1  # the hunt was evaluated


# ----- §5.8: pieces ------------------------------------------------------------------------------


def test_s58_horse_piece_works_like_the_totem() -> None:
    # nobody holds the horse piece: the totem holder (seat 2) passes, and the hunt is evaluated
    state = make_state(
        3,
        phase="totem",
        seat=2,
        play_turn=21,
        totem_holder=2,
        hands=[[], [], ["h1"]],
        table=[[up(0, "h5")], [up(1, "h5")], [up(1, "h7")]],
        grounds=[["horse"], ["horse"], ["horse", "horse"]],
    )
    events = state.apply(2, "pass")
    moves = [(e.data["from"], e.data["to"]) for e in events if e.type == "piece"]
    assert moves == [(None, 0), (0, 1)]
    assert state.horse_holder == 1 and state.totem_holder == 2


def test_s58_piece_goes_to_the_seat_with_most_tiles_after_a_loss() -> None:
    # the thief takes one of holder 0's three totem tiles: seats 1 and 2 now have more
    owned = {0: ["totem"] * 3, 1: ["totem"] * 3, 2: ["totem"] * 3}
    state, events = evaluate(
        3, [[up(0, "h9")], [], []], [[], [], []], owned=owned, holder=2, totem_holder=0
    )
    # seats 1 and 2 both have 3 > 2: the first from the dealer's left (seat 1) takes it
    assert [e.data for e in events if e.type == "piece"] == [{"piece": "totem", "from": 0, "to": 1}]
    owned = {0: ["totem"] * 3, 1: ["totem"] * 3, 2: ["totem"] * 4}
    state, events = evaluate(
        3, [[up(0, "h9")], [], []], [[], [], []], owned=owned, holder=2, totem_holder=0
    )
    assert state.totem_holder == 2  # the most tiles wins over the seat order


# ----- §6.1: thief -------------------------------------------------------------------------------


def test_s61_victim_without_tipi_or_buffalo_chooses_among_the_other_tiles() -> None:
    owned = {0: ["totem", "tomahawk", "tomahawk"]}
    state, _ = evaluate(2, [[up(0, "h9")], [], []], [[], [], []], owned=owned, holder=1)
    assert state.phase_name == "thief" and state.seats_to_act() == (0,)
    assert [str(a) for a in state.legal_actions(0)] == ["lose totem", "lose tomahawk"]
    state.apply(0, "lose tomahawk")
    assert tiles_of(state, 0) == ["totem", "tomahawk"]


def test_s61_ties_are_robbed_from_the_first_player_clockwise() -> None:
    """Engine decision (the spec does not order tied victims): the first player first.

    The order matters for the pieces: here seat 1 loses its totem first, so seat 2 (more
    tiles) takes the piece, and keeps it when it loses one too (equal counts, §5.8).
    """
    owned = {1: ["totem", "totem"], 2: ["totem", "totem"]}
    table = [[up(1, "h9")], [up(2, "h9")], []]
    state, events = evaluate(3, table, [[], [], []], owned=owned, holder=0, totem_holder=1)
    assert next(e for e in events if e.type == "thief").data["robbed"] == [1, 2]
    assert [e.data["seat"] for e in events if e.type == "robbed"] == [1, 2]
    assert state.totem_holder == 2
    # with dealer 1 the first player is seat 2: seat 2 is robbed first and seat 1 keeps it
    state, events = evaluate(
        3, table, [[], [], []], owned=owned, holder=0, totem_holder=1, dealer=1
    )
    assert [e.data["seat"] for e in events if e.type == "robbed"] == [2, 1]
    assert state.totem_holder == 1


# ----- §6.2: distribution ------------------------------------------------------------------------


def test_s62_tomahawks_count_after_the_thief() -> None:
    """§12 M9: a tomahawk stolen by the thief no longer raises the hunters."""
    table = [[up(0, "h5"), up(1, "h5")], [up(0, "h9")], []]
    grounds = [["tipi1", "tipi1"], ["buffalo1"], []]
    _, events = evaluate(2, table, grounds, owned={0: ["tomahawk"]}, holder=1)
    assert [e.data for e in events if e.type == "robbed"] == [{"seat": 0, "tile": "tomahawk"}]
    # the 5s tie again and cancel: nobody takes at g1
    assert takes(events) == [(0, 2, "buffalo1")]
    assert next(e.data for e in events if e.type == "tiles_removed") == {
        "ground": 1,
        "tiles": ["tipi1", "tipi1"],
    }
    # a tomahawk the thief leaves alone (seat 0 also owns a tipi) does count: 6 beats 5
    _, events = evaluate(2, table, grounds, owned={0: ["tomahawk", "tipi2"]}, holder=1)
    assert takes(events)[:2] == [(0, 1, "tipi1"), (0, 1, "tipi1")]


def test_s62_tomahawk_bonus_can_create_a_tie_that_cancels() -> None:
    table = [[up(0, "h6"), up(1, "h7"), up(1, "h2")], [], []]
    _, events = evaluate(2, table, [["tipi1"] * 3, [], []], owned={0: ["tomahawk"]}, holder=1)
    # 6 + 1 = 7 ties the 7: both cancel, seat 1's 2 is the best hunter and takes 2
    assert takes(events) == [(1, 1, "tipi1"), (1, 1, "tipi1")]


def test_s62_per_player_ranking_cancels_equal_best_hunters() -> None:
    table = [[up(0, "h9"), up(0, "h8"), up(1, "h9"), up(2, "h5")], [], []]
    grounds = [["tipi1"] * 4, [], []]
    _, events = evaluate(3, table, grounds)
    assert takes(events) == [(0, 1, "tipi1")] * 2 + [(2, 1, "tipi1")] * 2  # per card: 8, 5
    _, events = evaluate(3, table, grounds, options={"hunter_ranking": "per_player"})
    # seats 0 and 1 are both represented by a 9: they cancel, seat 2 is the only taker
    assert takes(events) == [(2, 1, "tipi1")] * 2
    assert [e.data["tiles"] for e in events if e.type == "tiles_removed"] == [["tipi1"] * 2]


def test_s62_empty_ground_tiles_leave_the_game_even_when_leftovers_go_to_the_bag() -> None:
    """An empty ground's tiles leave the game [S]; a ground with only a face-down hero is not
    empty, so its untaken tiles follow §12 M8 (here: back into the bag)."""
    table = [[down(0, "chief"), down(1, "chief")], [], [up(0, "h3")]]
    grounds = [["totem"], ["horse"], ["tipi1"]]
    state, events = evaluate(
        2, table, grounds, options={"leftover_tiles": "bag"}, bag=["tipi2"] * 10
    )
    assert [e.data for e in events if e.type == "tiles_to_bag"] == [
        {"ground": 1, "tiles": ["totem"]}
    ]
    assert [e.data for e in events if e.type == "tiles_removed"] == [
        {"ground": 2, "tiles": ["horse"]}
    ]
    assert state.view(None)["out_of_game"] == ["horse"]
    state, events = evaluate(2, table, grounds)
    assert [e.data["ground"] for e in events if e.type == "tiles_removed"] == [1, 2]


def test_s62_the_hero_owner_and_a_hunter_can_be_the_same_seat() -> None:
    table = [[up(0, "spy"), up(0, "h2"), up(1, "h1")], [], []]
    state, events = evaluate(2, table, [["tipi1", "tipi2", "tipi3", "totem"], [], []])
    assert takes(events) == []
    # seat 0 chooses in step A (one tile) and in step B (two tiles); step C gives seat 1 the rest
    for tile in ("tipi3", "tipi2", "totem"):
        assert state.seats_to_act() == (0,)
        events = state.apply(0, f"take {tile}")
    assert takes(events)[-1] == (1, 1, "tipi1")
    assert tiles_of(state, 0) == ["tipi2", "tipi3", "totem"]


# ----- §7: scoring -------------------------------------------------------------------------------


def test_s7_victory_points_add_pairs_and_single_tiles() -> None:
    owned = [["tipi2", "buffalo1", "totem", "horse", "horse", "tomahawk"], ["tipi3"]]
    state = make_state(2, phase="game_over", seat=None, tiles_owned=owned, totem_holder=1)
    outcome = state.outcome()
    assert outcome.scores == (1 + 1 + 2 + 1, 0)
    assert outcome.details[0]["pairs"] == 1 and outcome.details[1]["pairs"] == 0
    assert outcome.winners == (0,)


# ----- illegal actions and hidden information ----------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_illegal_action_raises_and_leaves_the_state_unchanged(players: int) -> None:
    """All 117 actions, every seat, at many states of a random game, in every phase."""
    state = fresh(players, dealer=0, tiles=FIXTURE, seed=players)
    rng = random.Random(players)
    phases = set()
    step = 0
    while not state.is_terminal():
        to_act = state.seats_to_act()
        if step % 5 == 0 or state.phase_name not in ("select", "play"):
            phases.add(state.phase_name)
            snapshot = json.dumps(state.to_position())
            for seat in range(players):
                legal = set(state.legal_actions(seat)) if seat in to_act else set()
                for index in range(NUM_ACTIONS):
                    action = action_from_index(index)
                    if action in legal:
                        continue
                    with pytest.raises(IllegalActionError) as info:
                        state.apply(seat, action)
                    assert info.value.rule.startswith(("manitou rules §", "turn order"))
            assert json.dumps(state.to_position()) == snapshot
        seat = to_act[rng.randrange(len(to_act))]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1
    assert {"select", "play", "take"} <= phases


@pytest.mark.parametrize("draw_cards", [False, True])
def test_private_events_go_to_their_seat_only(draw_cards: bool) -> None:
    state = fresh(4, dealer=0, tiles=FIXTURE, seed=3, draw_cards=draw_cards)
    rng = random.Random(3)
    private = {"pick_card", "hand", "draw_card"}
    seen = set()
    while not state.is_terminal():
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
            seen.add(event.type)
            if event.type in private:
                assert event.to == frozenset({event.data["seat"]})
            else:
                assert event.to is None, event
                # a public event names a card only once it lies face up on the table
                if "card" in event.data:
                    assert event.type in ("play", "hero_down", "horse_move")
    assert ({"hand", "draw_card"} | ({"pick_card"} if not draw_cards else set())) <= seen


def test_determinize_resamples_other_hands_and_keeps_the_seats_own() -> None:
    state = fresh(3, dealer=0, tiles=FIXTURE, seed=1)
    run_first_legal(state, stop=lambda s: s.phase_name == "play" and s.turn == 4)
    others = set()
    bags = set()
    for seed in range(12):
        det = state.determinize(0, random.Random(seed))
        assert det.hands[0] == state.hands[0]
        assert sorted(det.decks[0]) == sorted(state.decks[0])
        assert det.table == state.table and det.owned == state.owned
        others.add((tuple(det.hands[1]), tuple(det.decks[2])))
        bags.add(tuple(det.bag))
        assert sorted(det.bag) == sorted(state.bag)
        for p in (1, 2):
            # only cards of the seat's available pool, never more than the pool holds
            on_table = [0] * 15
            for g in det.table:
                for code in g:
                    if (code & 255) >> 4 == p:
                        on_table[code & 15] += 1
            counts = [0] * 15
            for c in det.hands[p] + det.decks[p]:
                counts[c] += 1
            assert all(counts[c] + on_table[c] <= det.pool[p][c] for c in range(15))
    assert len(others) > 1 and len(bags) > 1


# ----- §10: determinism ------------------------------------------------------------------------


def test_s10_decks_are_shuffled_per_seat_from_the_first_player() -> None:
    """After the selection the play generator shuffles each seat's deck, first player first."""
    picks = {
        0: ["h1", "h2", "h3", "h4", "h5", "h6", "h7"],
        1: ["h10", "chief", "squaw", "shaman", "spy", "healer", "chief", "h9"],
    }
    state = fresh(2, dealer=0, tiles=FIXTURE, seed=42)
    for seat in (1, 0):
        for card in picks[seat]:
            state.apply(seat, f"pick {card}")
    assert state.phase_name == "play"
    rng = GAME.play_rng(42)
    for seat in (1, 0):  # seat 1 is the first player
        deck = sorted(CARD_NAMES.index(c) for c in picks[seat])
        rng.shuffle(deck)
        hand = [deck.pop() for _ in range(3)]
        assert state.hands[seat] == hand and state.decks[seat] == deck
    # the DRAW variant: each seat's cards are drawn from its pool, then shuffled, seat by seat
    state = fresh(2, dealer=0, tiles=FIXTURE, seed=42, draw_cards=True)
    rng = GAME.play_rng(42)
    pool = [c for c in range(15) for _ in range(FULL_POOL[c])]
    for seat, size in ((1, 8), (0, 7)):
        deck = sorted(rng.sample(pool, size))
        rng.shuffle(deck)
        hand = [deck.pop() for _ in range(3)]
        assert state.hands[seat] == hand and state.decks[seat] == deck


# ----- §6 against a reference model ---------------------------------------------------------------

TILES = ("buffalo1", "buffalo2", "tipi1", "tipi3", "horse", "totem", "tomahawk")
TILE_ORDER = {name: TILE_NAMES.index(name) for name in TILES}


def _reference_evaluation(
    players: int,
    dealer: int,
    table: list[list[list[Any]]],
    grounds: list[list[str]],
    owned: list[list[str]],
    holders: dict[str, int | None],
    per_player: bool,
    live: bool,
) -> tuple[list[list[str]], dict[str, int | None], list[str]]:
    """§6 and §5.8 written out from the spec, every choice taking the lowest tile type."""
    owned = [list(o) for o in owned]
    holders = dict(holders)
    gone: list[str] = []
    order = [(dealer + 1 + i) % players for i in range(players)]

    def check(piece: str) -> None:  # §5.8
        holder = holders[piece]
        counts = [o.count(piece) for o in owned]
        best = max((counts[p] for p in order if p != holder), default=0)
        if best > (counts[holder] if holder is not None else 0):
            holders[piece] = next(p for p in order if p != holder and counts[p] == best)

    def lowest(names: list[str]) -> str:
        return min(names, key=TILE_ORDER.__getitem__)

    def gain(seat: int, tiles: list[str], count: int) -> None:
        for _ in range(min(count, len(tiles))):
            tile = lowest(tiles)
            tiles.remove(tile)
            owned[seat].append(tile)
            if tile in holders:
                check(tile)

    # §6.1 thief
    sums = [0] * players
    for cards in table:
        for seat, card, _ in cards:
            if card[1:].isdigit():  # a hunter
                sums[seat] += int(card[1:])
    top = max(sums)
    for p in order:
        if top > 0 and sums[p] == top and owned[p]:
            kinds = [t for t in owned[p] if t.startswith(("tipi", "buffalo"))] or owned[p]
            tile = lowest(kinds)
            owned[p].remove(tile)
            gone.append(tile)
            if tile in holders:
                check(tile)
    snapshot = [o.count("tomahawk") for o in owned]
    # §6.2 grounds
    for cards, tiles in zip(table, grounds, strict=True):
        tiles = list(tiles)
        if not cards:
            gone += tiles
            continue
        hero_owners = {seat for seat, card, face_up in cards if face_up and not card[1:].isdigit()}
        if hero_owners:
            gain(hero_owners.pop(), tiles, 1)
        bonus = [o.count("tomahawk") for o in owned] if live else snapshot
        entries = [
            (int(card[1:]) + bonus[seat], seat) for seat, card, _ in cards if card[1:].isdigit()
        ]
        if per_player:
            entries = [max(e for e in entries if e[1] == p) for p in {s for _, s in entries}]
        values = [v for v, _ in entries]
        ranked = sorted((e for e in entries if values.count(e[0]) == 1), reverse=True)
        if ranked:
            gain(ranked[0][1], tiles, 2)
        if len(ranked) > 1:
            gain(ranked[1][1], tiles, len(tiles))
        gone += tiles
    return owned, holders, gone


def _random_evaluation_case(rng: random.Random, players: int) -> dict[str, Any]:
    table: list[list[list[Any]]] = [[], [], []]
    for seat in range(players):
        for strength in rng.sample(range(1, 11), rng.randrange(0, 5)):
            table[rng.randrange(3)].append([seat, f"h{strength}", True])
    # each seat's heroes left in its deck (every card lies in one place)
    heroes = [["spy", "chief", "chief", "healer"] for _ in range(players)]
    shaman = [True] * players
    for g in range(3):
        if rng.random() < 0.5:  # face-up heroes of one seat, face-down heroes of anyone
            seat = rng.randrange(players)
            kinds = sorted(set(heroes[seat]))
            for card in rng.sample(kinds, min(len(kinds), rng.randrange(1, 3))):
                heroes[seat].remove(card)
                table[g].append([seat, card, True])
        seat = rng.randrange(players)
        if rng.random() < 0.3 and shaman[seat]:
            shaman[seat] = False
            table[g].append([seat, "shaman", False])
        rng.shuffle(table[g])
    return {
        "table": table,
        "grounds": [[rng.choice(TILES) for _ in range(rng.randrange(0, 5))] for _ in range(3)],
        "owned": [[rng.choice(TILES) for _ in range(rng.randrange(0, 4))] for _ in range(players)],
        "dealer": rng.randrange(players),
        "holders": {
            "totem": rng.choice([None, *range(players)]),
            "horse": rng.choice([None, *range(players)]),
        },
    }


@pytest.mark.parametrize(
    ("ranking", "timing"),
    [("per_card", "snapshot"), ("per_player", "snapshot"), ("per_card", "live")],
)
def test_s6_evaluation_matches_a_reference_model(ranking: str, timing: str) -> None:
    rng = random.Random(f"{ranking}/{timing}")
    for case_number in range(150):
        players = rng.randrange(2, 6)
        case = _random_evaluation_case(rng, players)
        # the horse piece's holder passes the move; nobody may hold it at first
        holder = case["holders"]["horse"]
        state = make_state(
            players,
            case["dealer"],
            {"hunter_ranking": ranking, "tomahawk_timing": timing},
            phase="totem" if holder is None else "horse",
            seat=case["dealer"] if holder is None else holder,
            # the totem holder (when the horse has none) passes its extra card: a squaw
            hands=[
                ["squaw"] if p == case["dealer"] and holder is None else [] for p in range(players)
            ],
            play_turn=7 * players,
            totem_holder=case["dealer"] if holder is None else case["holders"]["totem"],
            horse_holder=holder,
            table=case["table"],
            grounds=case["grounds"],
            tiles_owned=case["owned"],
            bag=[],
        )
        holders = {"totem": state.totem_holder, "horse": holder}
        holders = {k: (None if v == -1 else v) for k, v in holders.items()}
        state.apply(state.seats_to_act()[0], "pass")
        while state.hunt == 0:
            seat = state.seats_to_act()[0]
            state.apply(seat, state.legal_actions(seat)[0])
        owned, pieces, gone = _reference_evaluation(
            players,
            case["dealer"],
            case["table"],
            case["grounds"],
            case["owned"],
            holders,
            ranking == "per_player",
            timing == "live",
        )
        label = (case_number, case)
        assert [sorted(tiles_of(state, p)) for p in range(players)] == [sorted(o) for o in owned], (
            label
        )
        view = state.view(None)
        assert (view["totem_holder"], view["horse_holder"]) == (pieces["totem"], pieces["horse"])
        assert sorted(view["out_of_game"]) == sorted(gone), label
