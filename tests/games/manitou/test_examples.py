"""The worked examples EX-M1 … EX-M16 of rules/manitou.md §11, and the hero charts (§5.3)."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from campfire.core import IllegalActionError
from campfire.games.manitou import GAME, ManitouState
from campfire.games.manitou.cards import (
    CHIEF,
    HEALER,
    HERO_CHARTS,
    SHAMAN,
    SPY,
    SQUAW,
    beats,
    card_name,
)

from .helpers import (
    cards_at,
    down,
    evaluate,
    fresh,
    make_state,
    play_first_legal,
    play_state,
    takes,
    tiles_of,
    up,
)

HEROES = (CHIEF, SQUAW, SHAMAN, SPY, HEALER)


def _pick_first_legal(state: ManitouState) -> None:
    while state.phase_name == "select":
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


# ----- EX-M1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "hunts"), [(2, 4), (3, 3), (4, 4), (5, 5)])
def test_exm1_hunts_per_player_count(players: int, hunts: int) -> None:
    fixture = ["tipi1", "buffalo2", "totem", "horse", "tomahawk", "tipi3"] * 10
    state = fresh(players, dealer=0, tiles=fixture, seed=players)
    assert state.hunts == hunts
    rng = random.Random(players)
    ended = []
    while not state.is_terminal():
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        ended += [e.data["hunt"] for e in events if e.type == "hunt_end"]
    assert ended == list(range(1, hunts + 1))


# ----- EX-M2 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "sizes", "left"),
    [(4, [7, 9, 8, 8], [0, 2, 1, 1]), (2, [7, 8], [0, 1])],
)
def test_exm2_selection_and_leftovers(players: int, sizes: list[int], left: list[int]) -> None:
    state = fresh(players, dealer=0)
    assert state.sel_size == sizes
    assert state.view(None)["selection_sizes"] == sizes
    _pick_first_legal(state)
    assert state.phase_name == "play"
    assert [len(h) for h in state.hands] == [3] * players
    events = play_first_legal(state)
    over = [e for e in events if e.type == "play_over"]
    assert len(over) == 1 and over[0].data["hand_sizes"] == left
    plays = [e.data["seat"] for e in events if e.type == "play"]
    assert all(plays.count(p) == 7 for p in range(players))
    # the first player (dealer's left) starts, the dealer plays last
    assert plays[:players] == [(1 + i) % players for i in range(players)]


# ----- EX-M3, EX-M4, EX-M5, EX-M6: hero combat -----------------------------------------------


@pytest.mark.parametrize("chart", HERO_CHARTS)
@pytest.mark.parametrize(
    ("attacker", "defender", "winner"),
    [
        ("chief", "healer", "chief"),
        ("spy", "healer", "spy"),
        ("healer", "squaw", "healer"),
        ("healer", "shaman", "healer"),
    ],
)
def test_exm3_healer_line(chart: str, attacker: str, defender: str, winner: str) -> None:
    state = play_state(
        2, 1, {1: [attacker]}, table=[[up(0, defender)], [], []], options={"hero_chart": chart}
    )
    state.apply(1, f"play {attacker} g1")
    assert cards_at(state, 1) == [
        [0, defender, winner == defender],
        [1, attacker, winner == attacker],
    ]


@pytest.mark.parametrize("chart", HERO_CHARTS)
def test_exm4_same_type_both_lose(chart: str) -> None:
    state = play_state(
        2, 1, {1: ["chief"]}, table=[[up(0, "chief")], [], []], options={"hero_chart": chart}
    )
    state.apply(1, "play chief g1")
    assert cards_at(state, 1) == [[0, "chief", False], [1, "chief", False]]
    assert state.up[0] == []
    # no face-up hero: nobody takes a tile in step A
    table = state.view(None)["grounds"]
    _, events = evaluate(2, [g["cards"] for g in table], [["tipi1"], [], []])
    assert takes(events) == []


ALEX_SPY_CHIEF = [[up(0, "spy"), up(0, "chief")], [], []]


@pytest.mark.parametrize("chart", ["seed_plus_1997", "seed_linear"])
@pytest.mark.parametrize(
    ("card", "expected"),
    [
        # (a) a spy removes the chief: both go down, Alex's spy survives
        ("spy", [[0, "spy", True], [0, "chief", False], [1, "spy", False]]),
        # (a') a chief does the same
        ("chief", [[0, "spy", True], [0, "chief", False], [1, "chief", False]]),
        # (c) a healer does not beat the chief: only the healer goes down
        ("healer", [[0, "spy", True], [0, "chief", True], [1, "healer", False]]),
    ],
)
def test_exm5_sacrifice(chart: str, card: str, expected: list[list[object]]) -> None:
    state = play_state(2, 1, {1: [card]}, table=ALEX_SPY_CHIEF, options={"hero_chart": chart})
    state.apply(1, f"play {card} g1")
    assert cards_at(state, 1) == expected


def test_exm5_sacrifice_fails_under_the_1997_chart_by_design() -> None:
    # manitou_1997: the chief beats the spy, so Béla's spy only loses itself (spec §12 M3)
    state = play_state(
        2, 1, {1: ["spy"]}, table=ALEX_SPY_CHIEF, options={"hero_chart": "manitou_1997"}
    )
    state.apply(1, "play spy g1")
    assert cards_at(state, 1) == [[0, "spy", True], [0, "chief", True], [1, "spy", False]]


@pytest.mark.parametrize(
    ("chart", "spy_beater"),
    [("seed_plus_1997", "shaman"), ("manitou_1997", "shaman"), ("seed_linear", "squaw")],
)
def test_exm5_b_remaining_hero_needs_a_normal_contest(chart: str, spy_beater: str) -> None:
    options = {"hero_chart": chart}
    state = play_state(
        2,
        1,
        {1: ["chief", spy_beater], 0: ["h1"]},
        table=[[up(0, "spy"), up(0, "chief")], [], []],
        options=options,
    )
    state.apply(1, "play chief g1")  # (a'): the sacrifice removes Alex's chief
    state.apply(0, "play h1 g2")
    state.apply(1, f"play {spy_beater} g1")  # (b): a normal contest against the spy
    cards = cards_at(state, 1)
    assert cards == [
        [0, "spy", False],
        [0, "chief", False],
        [1, "chief", False],
        [1, spy_beater, True],
    ]
    # Béla is the step-A taker at g1 if nothing changes
    _, events = evaluate(2, [cards, [], []], [["tipi2"], [], []], options=options)
    assert takes(events) == [(1, 1, "tipi2")]


def test_exm6_hero_limit() -> None:
    state = play_state(2, 0, {0: ["squaw", "h2"]}, dealer=1, table=ALEX_SPY_CHIEF)
    legal = [str(a) for a in state.legal_actions(0)]
    assert "play squaw g1" not in legal and "play squaw g2" in legal
    before = state.to_position()
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "play squaw g1")
    assert info.value.rule == "manitou rules §4.6"
    assert state.to_position() == before
    # after one of them was turned down, a new hero is legal (spec §12 M6) ...
    table = [[up(0, "spy"), down(0, "chief")], [], []]
    state = play_state(2, 0, {0: ["squaw", "h2"]}, dealer=1, table=table)
    assert "play squaw g1" in [str(a) for a in state.legal_actions(0)]
    state.apply(0, "play squaw g1")
    assert cards_at(state, 1)[-1] == [0, "squaw", True]
    # ... unless the option counts face-down heroes too
    state = play_state(
        2,
        0,
        {0: ["squaw", "h2"]},
        dealer=1,
        table=table,
        options={"hero_limit_counts_face_down": True},
    )
    assert "play squaw g1" not in [str(a) for a in state.legal_actions(0)]
    with pytest.raises(IllegalActionError):
        state.apply(0, "play squaw g1")


# ----- EX-M7: pairs --------------------------------------------------------------------------


def test_exm7_tipi_buffalo_pairs() -> None:
    alex = ["tipi3", "tipi1", "buffalo3", "buffalo2"]
    state = make_state(2, phase="game_over", seat=None, tiles_owned=[alex, []])
    details = state.outcome().details[0]
    assert (details["tipis"], details["buffalo"], details["pairs"]) == (4, 5, 4)
    assert state.outcome().scores[0] == 4
    state = make_state(2, phase="game_over", seat=None, tiles_owned=[[*alex, "tipi1"], []])
    assert state.outcome().details[0]["pairs"] == 5
    assert state.outcome().scores[0] == 5


# ----- EX-M8: tomahawks ----------------------------------------------------------------------


MARIO_TABLE = [
    [up(0, "h5"), up(1, "h6")],
    [up(0, "h3"), up(1, "h4")],
    [up(0, "h7"), up(1, "h8")],
]
THREE_TIPIS = [["tipi1"] * 3, ["tipi1"] * 3, ["tipi1"] * 3]


def test_exm8_tomahawks_raise_hunters_but_not_the_thief_sum() -> None:
    state, events = evaluate(
        2, MARIO_TABLE, THREE_TIPIS, owned={0: ["tomahawk", "tomahawk"]}, holder=1
    )
    thief = next(e for e in events if e.type == "thief")
    assert thief.data["sums"] == [15, 18]  # not 21: tomahawks do not count for the thief
    assert thief.data["robbed"] == [1]
    # effective 7, 5, 9 beat 6, 4, 8: Mário takes 2 at every ground
    assert takes(events) == [(0, g, "tipi1") for g in (1, 1)] + [(1, 1, "tipi1")] + [
        (0, 2, "tipi1"),
        (0, 2, "tipi1"),
        (1, 2, "tipi1"),
        (0, 3, "tipi1"),
        (0, 3, "tipi1"),
        (1, 3, "tipi1"),
    ]
    assert tiles_of(state, 0).count("tipi1") == 6
    # without the tomahawks the other player's hunters are stronger everywhere
    state, events = evaluate(2, MARIO_TABLE, THREE_TIPIS, holder=1)
    assert tiles_of(state, 1) == ["tipi1"] * 6 and tiles_of(state, 0) == ["tipi1"] * 3


# ----- EX-M9: totem extra card ---------------------------------------------------------------


def test_exm9_totem_extra_card() -> None:
    # 3 players, dealer 0: seat 1 is the first player and holds 2 cards after the 7 rounds
    state = play_state(
        3,
        0,
        {0: ["h1"], 1: ["h9", "spy"], 2: ["h2"]},
        turn=20,
        totem_holder=1,
    )
    events = state.apply(0, "play h1 g1")
    assert state.phase_name == "totem" and state.seats_to_act() == (1,)
    legal = [str(a) for a in state.legal_actions(1)]
    assert legal == [
        "play h9 g1",
        "play h9 g2",
        "play h9 g3",
        "play spy g1",
        "play spy g2",
        "play spy g3",
        "pass",
    ]
    events = state.apply(1, "play h9 g2")
    assert events[0].type == "play" and events[0].data["totem"] is True
    assert next(e for e in events if e.type == "thief").data["sums"] == [1, 9, 0]
    # the totem holder is the dealer: no card left, no extra play
    state = play_state(3, 0, {0: ["h1"], 1: ["h9", "spy"], 2: ["h2"]}, turn=20, totem_holder=0)
    events = state.apply(0, "play h1 g1")
    assert [e.data["totem"] for e in events if e.type == "play"] == [False]
    assert any(e.type == "thief" for e in events)  # straight on to the evaluation
    assert state.phase_name != "totem"


# ----- EX-M10: horse -------------------------------------------------------------------------


def test_exm10_horse_move() -> None:
    state = play_state(
        3,
        0,
        {0: ["h1"], 1: ["h9", "h3"], 2: ["h2"]},
        table=[[up(2, "h6")], [], [up(0, "h5")]],
        grounds=[["tipi1"], ["tipi2", "tipi2"], ["buffalo1"] * 3],
        turn=20,
        totem_holder=1,
        horse_holder=2,
    )
    state.apply(0, "play h1 g2")
    state.apply(1, "play h9 g2")  # the totem play comes first
    assert state.phase_name == "horse" and state.seats_to_act() == (2,)
    assert [str(a) for a in state.legal_actions(2)] == ["move h6 g2", "move h6 g3", "pass"]
    events = state.apply(2, "move h6 g3")
    assert events[0].data == {"seat": 2, "card": "h6", "from": 1, "to": 3}
    thief = next(e for e in events if e.type == "thief")
    assert thief.data["sums"] == [6, 9, 6]  # the move changes no sum
    # g1 is now empty: its tile leaves the game; at g3 the 6 beats the 5
    removed = [e.data for e in events if e.type == "tiles_removed"]
    assert removed == [{"ground": 1, "tiles": ["tipi1"]}]
    assert takes(events) == [
        (1, 2, "tipi2"),
        (1, 2, "tipi2"),
        (2, 3, "buffalo1"),
        (2, 3, "buffalo1"),
        (0, 3, "buffalo1"),
    ]


# ----- EX-M11: thief ties --------------------------------------------------------------------


THIEF_TABLE = [
    [up(0, "h10"), up(1, "h10"), up(2, "h7")],
    [up(0, "h9"), up(1, "h8"), up(2, "h4")],
    [up(0, "h1"), up(1, "h2")],
]


def test_exm11_thief_ties() -> None:
    owned = {0: ["tipi1", "buffalo2", "totem"], 1: ["totem"], 2: ["tipi1"]}
    state, events = evaluate(3, THIEF_TABLE, [[], [], []], owned=owned, holder=2, totem_holder=1)
    thief = next(e for e in events if e.type == "thief")
    assert thief.data == {"sums": [20, 20, 11], "robbed": [1, 0]}
    # Béla has no tipi or buffalo: he loses his totem tile, and Alex now has more totems
    robbed = [e.data for e in events if e.type == "robbed"]
    assert robbed == [{"seat": 1, "tile": "totem"}]
    assert state.totem_holder == 0
    # Alex chooses which tipi or buffalo he loses
    assert state.phase_name == "thief" and state.seats_to_act() == (0,)
    assert [str(a) for a in state.legal_actions(0)] == ["lose buffalo2", "lose tipi1"]
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "lose totem")
    assert info.value.rule == "manitou rules §5.1"
    state.apply(0, "lose buffalo2")
    assert tiles_of(state, 0) == ["tipi1", "totem"]
    assert tiles_of(state, 1) == []
    assert tiles_of(state, 2) == ["tipi1"]
    assert sorted(state.view(None)["out_of_game"]) == ["buffalo2", "totem"]
    # a robbed player without any tile loses nothing
    _, events = evaluate(3, THIEF_TABLE, [[], [], []], owned={0: ["tipi1"]}, holder=2)
    assert [e.data for e in events if e.type == "thief_finds_nothing"] == [{"seat": 1}]
    assert [e.data for e in events if e.type == "robbed"] == [{"seat": 0, "tile": "tipi1"}]


# ----- EX-M12: empty ground ------------------------------------------------------------------


def test_exm12_empty_ground() -> None:
    state, events = evaluate(
        2,
        [[up(0, "h5")], [], [up(1, "h3")]],
        [["tipi1"], ["totem", "tipi3"], ["buffalo1"]],
    )
    assert [e.data for e in events if e.type == "tiles_removed"] == [
        {"ground": 2, "tiles": ["totem", "tipi3"]}
    ]
    assert state.view(None)["out_of_game"] == ["totem", "tipi3"]
    assert tiles_of(state, 0) == ["tipi1"] and tiles_of(state, 1) == ["buffalo1"]


# ----- EX-M13: distribution order ------------------------------------------------------------


def test_exm13_distribution_order() -> None:
    table = [
        [up(0, "spy"), up(0, "h4"), up(1, "h9"), up(2, "h9"), up(3, "h8"), up(4, "h6")],
        [],
        [],
    ]
    state, events = evaluate(5, table, [["tipi3", "buffalo2", "totem", "tomahawk"], [], []])
    # step A: Alex (face-up spy) chooses one tile
    assert state.phase_name == "take" and state.seats_to_act() == (0,)
    assert state.view(None)["sharing"] == {
        "ground": 1,
        "step": "hero",
        "chooser": 0,
        "picks_left": 1,
    }
    state.apply(0, "take tipi3")
    # step B: the 9s cancel, Dani's 8 takes two
    assert state.seats_to_act() == (3,)
    assert [str(a) for a in state.legal_actions(3)] == [
        "take buffalo2",
        "take totem",
        "take tomahawk",
    ]
    state.apply(3, "take buffalo2")
    events = state.apply(3, "take totem")
    # step C: Ede's 6 takes the last tile
    assert takes(events) == [(3, 1, "totem"), (4, 1, "tomahawk")]
    assert tiles_of(state, 0) == ["tipi3"]
    assert tiles_of(state, 1) == [] and tiles_of(state, 2) == []
    assert tiles_of(state, 3) == ["buffalo2", "totem"]
    assert tiles_of(state, 4) == ["tomahawk"]
    assert state.totem_holder == 3


# ----- EX-M14: totem piece transfer ----------------------------------------------------------


def test_exm14_totem_piece_transfer() -> None:
    table = [[up(0, "h5")], [up(1, "h5")], [up(1, "h7")]]
    state, events = evaluate(3, table, [["totem"], ["totem"], ["totem", "totem"]], holder=2)
    log = [
        (e.type, e.data["seat"] if e.type == "take" else (e.data["from"], e.data["to"]))
        for e in events
        if e.type in ("take", "piece")
    ]
    assert log == [
        ("take", 0),  # Alex's first totem tile ...
        ("piece", (None, 0)),  # ... brings him the totem piece
        ("take", 1),  # Béla's first: not more than Alex, no change
        ("take", 1),  # Béla's second: strictly more
        ("piece", (0, 1)),
        ("take", 1),
    ]
    assert state.totem_holder == 1


# ----- EX-M15: card cycles -------------------------------------------------------------------


def test_exm15_card_cycle() -> None:
    state = fresh(3, dealer=0)  # 3 hunts: cycles (1, 2) and (3)
    _pick_first_legal(state)
    events = play_first_legal(state)
    played = sorted(e.data["card"] for e in events if e.type == "play" and e.data["seat"] == 0)
    assert len(played) == 7
    assert state.hunt == 1 and state.phase_name == "select"
    assert sorted(state.view(0)["used_this_cycle"][0]) == played
    picks = [str(a) for a in state.legal_actions(0)]
    assert not any(f"pick {c}" in picks for c in played)
    remaining = sum(state.pool[0])
    assert remaining == 10
    before = json.dumps(state.to_position())
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, f"pick {played[0]}")
    assert info.value.rule == "manitou rules §4.4"
    assert json.dumps(state.to_position()) == before
    _pick_first_legal(state)
    play_first_legal(state)
    assert state.hunt == 2 and state.phase_name == "select"
    assert [str(a) for a in state.legal_actions(0)] == [f"pick {card_name(c)}" for c in range(15)]
    assert sum(state.pool[0]) == 17


# ----- EX-M16: end tie-break -----------------------------------------------------------------


def _final(alex: list[str], bela: list[str]):  # type: ignore[no-untyped-def]
    return make_state(2, phase="game_over", seat=None, tiles_owned=[alex, bela]).outcome()


def test_exm16_end_tie_break() -> None:
    alex = ["tipi3", "tipi3", "buffalo3", "buffalo3", *["tomahawk"] * 3]  # 6 pairs + 3
    bela = ["tipi2", "tipi3", "buffalo2", "buffalo3", *["tomahawk"] * 4]  # 5 pairs + 4
    outcome = _final(alex, bela)
    assert outcome.scores == (9, 9)
    assert outcome.winners == (0,)
    # tipis tie too: the highest tile (Alex's ×3) decides
    bela = ["tipi2"] * 3 + ["buffalo2"] * 3 + ["tomahawk"] * 3
    outcome = _final(alex, bela)
    assert outcome.scores == (9, 9)
    assert [d["tipis"] for d in outcome.details] == [6, 6]
    assert outcome.winners == (0,)
    # everything equal: a shared win
    assert _final(alex, list(alex)).winners == (0, 1)


def test_exm16_the_result_says_which_tie_break_decided() -> None:
    """The end screen's result explains EX-M16: the tipis, then the highest tile, then shared."""
    alex = ["tipi3", "tipi3", "buffalo3", "buffalo3", *["tomahawk"] * 3]

    def said(bela: list[str]) -> list[str]:
        state = make_state(2, phase="game_over", seat=None, tiles_owned=[alex, bela])
        return list(GAME.presenter().display(state.view(None), [], ["Alex", "Béla"]).result)

    by_tipis = said(["tipi2", "tipi3", "buffalo2", "buffalo3", *["tomahawk"] * 4])
    assert any(
        "Alex and Béla tie on 9 points; the tie-break, more tipis, puts Alex ahead" in x
        for x in by_tipis
    ), by_tipis
    by_tile = said(["tipi2"] * 3 + ["buffalo2"] * 3 + ["tomahawk"] * 3)
    assert any("the highest tile, puts Alex ahead" in x for x in by_tile), by_tile
    assert any(x.endswith("they share the place.") for x in said(list(alex)))


# ----- hero charts against the relations the rulebook fixes (§5.3, §12 M3) -------------------


@pytest.mark.parametrize("chart", HERO_CHARTS)
def test_every_chart_keeps_the_seed_healer_line(chart: str) -> None:
    assert beats(chart, CHIEF, HEALER) and beats(chart, SPY, HEALER)
    assert beats(chart, HEALER, SQUAW) and beats(chart, HEALER, SHAMAN)


@pytest.mark.parametrize("chart", HERO_CHARTS)
def test_every_chart_is_a_tournament_where_each_hero_beats_and_is_beaten(chart: str) -> None:
    for a, b in itertools.combinations(HEROES, 2):
        assert beats(chart, a, b) != beats(chart, b, a), (card_name(a), card_name(b))
    for h in HEROES:
        assert not beats(chart, h, h)
        assert any(beats(chart, h, o) for o in HEROES), card_name(h)
        assert any(beats(chart, o, h) for o in HEROES), card_name(h)


@pytest.mark.parametrize("chart", ["seed_plus_1997", "seed_linear"])
def test_seed_charts_let_the_spy_beat_the_chief(chart: str) -> None:
    assert beats(chart, SPY, CHIEF)


def test_seed_plus_1997_is_the_default_table() -> None:
    expected = {
        CHIEF: {SHAMAN, HEALER},
        SQUAW: {CHIEF},
        SHAMAN: {SQUAW, SPY},
        SPY: {CHIEF, SQUAW, HEALER},
        HEALER: {SQUAW, SHAMAN},
    }
    for a in HEROES:
        assert {d for d in HEROES if beats("seed_plus_1997", a, d)} == expected[a]


def test_manitou_1997_chart_matches_the_1997_sources() -> None:
    chart = "manitou_1997"
    # M2: the squaw is beaten by the rain maker, the medicine man and the spy
    assert {a for a in HEROES if beats(chart, a, SQUAW)} == {SHAMAN, HEALER, SPY, CHIEF} - {CHIEF}
    # M2/M3: the squaw is the only one beating the chief; the chief beats all others
    assert {a for a in HEROES if beats(chart, a, CHIEF)} == {SQUAW}
    assert {d for d in HEROES if beats(chart, CHIEF, d)} == {SHAMAN, SPY, HEALER}
    # M3: medicine man beats rain maker, rain maker beats scout
    assert beats(chart, HEALER, SHAMAN) and beats(chart, SHAMAN, SPY)
    # it contradicts the seed's sacrifice example on purpose
    assert not beats(chart, SPY, CHIEF)


def test_seed_linear_chart_is_the_ranking_plus_squaw_over_spy() -> None:
    order = [SPY, CHIEF, HEALER, SHAMAN, SQUAW]
    for i, j in itertools.combinations(range(5), 2):
        stronger, weaker = order[i], order[j]
        if (stronger, weaker) == (SPY, SQUAW):
            assert beats("seed_linear", SQUAW, SPY)
        else:
            assert beats("seed_linear", stronger, weaker)
