"""Big Manitou engine tests beyond the worked examples: options, notation, setup, variants,
hidden information, positions and records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from campfire.core import (
    GameRng,
    IllegalActionError,
    Match,
    NotationError,
    OptionError,
    PositionError,
    Record,
    RecordError,
    SetupError,
    replay,
)
from campfire.games.manitou import GAME, ManitouOptions, ManitouState
from campfire.games.manitou.actions import NUM_ACTIONS, action_from_index, parse_action
from campfire.games.manitou.cards import (
    CHIEF,
    PLACEHOLDER_TILE_MIX,
    SPY,
    TILE_NAMES,
    parse_tile_mix,
)

from .helpers import cards_at, evaluate, fresh, make_state, play_state, takes, tiles_of, up

DATA = Path(__file__).resolve().parents[3] / "examples" / "records"


def _random_game(players: int, seed: int, **options: object) -> Match:
    match = Match(GAME, players, options, seed=seed)
    rng = random.Random(seed)
    state = match.state
    while not state.is_terminal():
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        match.play(seat, rng.choice(state.legal_actions(seat)))
    return match


# ----- options, notation, setup --------------------------------------------------------------


def test_options_defaults_are_the_spec_decisions() -> None:
    assert ManitouOptions().to_dict() == {
        "hero_chart": "seed_plus_1997",
        "tiles_per_ground": 0,
        "tile_mix": PLACEHOLDER_TILE_MIX,
        "hunter_ranking": "per_card",
        "tomahawk_timing": "snapshot",
        "piece_vp": "tiles",
        "hero_limit_counts_face_down": False,
        "leftover_tiles": "remove",
        "draw_cards": False,
    }
    assert sum(ManitouOptions().tile_counts()) == 60


@pytest.mark.parametrize("mix", ["", "tipi1", "tipi9:3", "totem:x", "totem:0"])
def test_bad_tile_mix_is_an_option_error(mix: str) -> None:
    with pytest.raises(OptionError):
        ManitouOptions(tile_mix=mix)


def test_tile_mix_round_trip() -> None:
    counts = parse_tile_mix(PLACEHOLDER_TILE_MIX)
    assert counts[TILE_NAMES.index("tomahawk")] == 10
    assert counts[TILE_NAMES.index("buffalo3")] == 3


def test_notation_round_trips_through_the_index_space() -> None:
    for index in range(NUM_ACTIONS):
        action = action_from_index(index)
        assert parse_action(str(action)) is action
        assert action.index == index
    assert str(parse_action("  Play   SPY  g3 ")) == "play spy g3"
    for bad in ["play spy", "pick h11", "take tipi", "move chief g1", "play h1 g4", "lose"]:
        with pytest.raises(NotationError):
            parse_action(bad)


@pytest.mark.parametrize(
    "setup",
    [
        {"dealer": 0, "tiles": [], "deal": 1},
        {"dealer": 3, "tiles": []},
        {"dealer": True, "tiles": []},
        {"dealer": 0, "tiles": "tipi1"},
        {"dealer": 0, "tiles": ["tipi7"]},
    ],
)
def test_bad_setups_are_setup_errors(setup: dict[str, object]) -> None:
    with pytest.raises(SetupError):
        GAME.new_game(3, setup=setup)


def test_random_setup_holds_the_whole_mix_and_is_seed_stable() -> None:
    setup = GAME.random_setup(4, GAME.options(), GameRng(5))
    assert sorted(setup["tiles"]) == sorted(
        TILE_NAMES[t] for t, c in enumerate(ManitouOptions().tile_counts()) for _ in range(c)
    )
    assert 0 <= setup["dealer"] < 4
    assert setup == GAME.random_setup(4, GAME.options(), GameRng(5))
    seeded = GAME.new_game(4, seed=5)
    explicit = GAME.new_game(4, setup=setup, seed=5)
    assert seeded.position_equal(explicit)
    mix = GAME.random_setup(2, GAME.options({"tile_mix": "totem:5"}), GameRng(1))
    assert mix["tiles"] == ["totem"] * 5


# ----- lay-out ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "k"), [(2, 2), (3, 3), (4, 3), (5, 4)])
def test_tiles_per_ground_by_player_count(players: int, k: int) -> None:
    tiles = [f"tipi{1 + i % 3}" for i in range(20)]
    state = fresh(players, tiles=tiles)
    assert state.grounds == [[tile_id(t) for t in tiles[g * k : (g + 1) * k]] for g in range(3)]
    assert len(state.bag) == 20 - 3 * k


def tile_id(name: str) -> int:
    return TILE_NAMES.index(name)


def test_tiles_per_ground_option_and_an_empty_bag() -> None:
    state = fresh(2, tiles=["totem"] * 7, tiles_per_ground=5)
    assert [len(g) for g in state.grounds] == [5, 2, 0]
    assert state.bag == []


# ----- selection ---------------------------------------------------------------------------


def test_selection_is_simultaneous_and_secret() -> None:
    state = fresh(3, dealer=2)
    assert state.seats_to_act() == (0, 1, 2)
    assert state.sel_size == [9, 8, 7]
    events = state.apply(1, "pick spy")
    public = [e for e in events if e.to is None]
    assert [e.data for e in public] == [{"seat": 1, "count": 1}]
    assert [e.data for e in events if e.to == frozenset({1})] == [{"seat": 1, "card": "spy"}]
    assert state.view(1)["you"]["selection"] == ["spy"]
    assert state.view(0)["you"]["selection"] == []
    assert "spy" not in json.dumps(state.view(0)) and "spy" not in json.dumps(state.view(None))
    assert state.view(0)["selected_counts"] == [0, 1, 0]
    for card in ["h1", "h2", "h3", "h4", "h5", "h6", "h7"]:
        state.apply(1, f"pick {card}")
    assert state.seats_to_act() == (0, 2)  # seat 1 has its 8 cards
    assert state.legal_actions(1) == []
    with pytest.raises(IllegalActionError) as info:
        state.apply(1, "pick h8")
    assert info.value.rule == "turn order"
    # each card type only as often as the pool holds it
    state.apply(0, "pick chief")
    state.apply(0, "pick chief")
    assert "pick chief" not in [str(a) for a in state.legal_actions(0)]
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "pick chief")
    assert info.value.rule == "manitou rules §4.4"
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "play h1 g1")
    assert info.value.rule == "manitou rules §4.3"


def test_determinize_resamples_the_other_selections_only() -> None:
    state = fresh(3, dealer=2)
    for card in ["spy", "healer", "h10"]:
        state.apply(1, f"pick {card}")
    state.apply(0, "pick h1")
    seen = set()
    for seed in range(20):
        det = state.determinize(0, random.Random(seed))
        assert det.view(0) == state.view(0)
        assert det.selected[0] == state.selected[0]
        assert sum(det.selected[1]) == 3
        seen.add(tuple(det.selected[1]))
    assert len(seen) > 1


def test_draw_cards_variant_selects_at_random() -> None:
    state = fresh(4, dealer=0, draw_cards=True)
    assert state.phase_name == "play"
    assert [sum(s) for s in state.selected] == [7, 9, 8, 8]
    assert all(len(h) == 3 for h in state.hands)
    for p in range(4):
        assert sorted(state.hands[p] + state.decks[p]) == [
            c for c in range(15) for _ in range(state.selected[p][c])
        ]
    match = _random_game(5, 3, draw_cards=True)
    assert match.state.is_terminal()
    assert not any(str(a).startswith("pick") for _, a in match.actions)


# ----- play --------------------------------------------------------------------------------


def test_play_draws_a_card_and_passes_the_turn() -> None:
    state = play_state(3, 1, {1: ["h4", "spy", "h2"]}, decks=[[], ["h9", "chief"], []])
    events = state.apply(1, "play h4 g3")
    assert [e.type for e in events] == ["play", "draw", "draw_card"]
    assert events[2].to == frozenset({1}) and events[2].data["card"] == "chief"
    assert state.hands[1] == [SPY, 1, CHIEF]  # spy, h2, then the drawn chief
    assert state.seats_to_act() == (2,)
    assert "chief" not in json.dumps(state.view(0))
    with pytest.raises(IllegalActionError) as info:
        state.apply(2, "play h4 g1")
    assert info.value.rule == "manitou rules §4.5"
    with pytest.raises(IllegalActionError) as info:
        state.apply(1, "play h9 g1")
    assert info.value.rule == "turn order"


def test_a_player_passes_only_without_a_playable_card() -> None:
    full = [[up(0, "spy"), up(0, "chief")], [up(0, "squaw"), up(0, "chief")]]
    full.append([up(0, "squaw"), up(0, "shaman")])
    state = play_state(2, 0, {0: ["healer"]}, dealer=1, table=full)
    assert [str(a) for a in state.legal_actions(0)] == ["pass"]
    events = state.apply(0, "pass")
    assert events[0].type == "no_play"
    assert state.hands[0] == [14]
    state = play_state(2, 0, {0: ["healer", "h1"]}, dealer=1, table=full)
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "pass")
    assert info.value.rule == "manitou rules §4.5"


def test_own_second_hero_is_no_contest_and_attacks_only_the_newer() -> None:
    state = play_state(2, 1, {1: ["squaw", "h1"]}, table=[[up(1, "shaman")], [], []])
    state.apply(1, "play squaw g1")
    assert cards_at(state, 1) == [[1, "shaman", True], [1, "squaw", True]]
    # squaw (newer) is beaten by the healer; the sacrifice downs both, shaman survives
    state = play_state(
        2, 0, {0: ["healer"]}, dealer=1, table=[[up(1, "shaman"), up(1, "squaw")], [], []]
    )
    state.apply(0, "play healer g1")
    assert cards_at(state, 1) == [[1, "shaman", True], [1, "squaw", False], [0, "healer", False]]


def test_horse_move_errors() -> None:
    state = make_state(
        2,
        phase="horse",
        seat=0,
        horse_holder=0,
        play_turn=14,
        table=[[up(0, "h6"), up(0, "chief")], [], []],
    )
    assert [str(a) for a in state.legal_actions(0)] == ["move h6 g2", "move h6 g3", "pass"]
    for bad in ["move h6 g1", "move h7 g2", "take tipi1", "play h6 g2"]:
        with pytest.raises(IllegalActionError) as info:
            state.apply(0, bad)
        assert info.value.rule == "manitou rules §4.10"


# ----- evaluation options ------------------------------------------------------------------


def test_step_a_takes_one_tile_even_with_two_heroes_and_b_takes_the_rest() -> None:
    table = [[up(0, "spy"), up(0, "chief"), up(1, "h3")], [], []]
    _, events = evaluate(2, table, [["tipi1", "tipi1"], [], []])
    assert takes(events) == [(0, 1, "tipi1"), (1, 1, "tipi1")]


def test_untaken_tiles_leave_the_game_or_go_back_to_the_bag() -> None:
    table = [[up(0, "spy")], [], []]
    grounds = [["tipi1", "tipi1", "tipi1"], [], []]
    state, events = evaluate(2, table, grounds)
    assert [e.data for e in events if e.type == "tiles_removed"] == [
        {"ground": 1, "tiles": ["tipi1", "tipi1"]}
    ]
    assert state.out_of_game == [tile_id("tipi1")] * 2
    state, events = evaluate(
        2, table, grounds, options={"leftover_tiles": "bag"}, bag=["totem"] * 4
    )
    assert [e.data for e in events if e.type == "tiles_to_bag"] == [
        {"ground": 1, "tiles": ["tipi1", "tipi1"]}
    ]
    assert state.out_of_game == []
    # the next hunt (2 per ground) was laid out from a bag of 4 totems + 2 tipis
    laid = sorted(t for g in state.grounds for t in g) + sorted(state.bag)
    assert sorted(laid) == sorted([tile_id("totem")] * 4 + [tile_id("tipi1")] * 2)


def test_hunter_ranking_per_card_or_per_player() -> None:
    table = [[up(0, "h9"), up(0, "h8"), up(1, "h5"), up(1, "h9")], [], []]
    grounds = [["tipi1"] * 4, [], []]
    # per card: the 9s cancel; seat 0's 8 takes 2, seat 1's 5 the rest
    _, events = evaluate(2, table, grounds)
    assert takes(events) == [(0, 1, "tipi1")] * 2 + [(1, 1, "tipi1")] * 2
    table = [[up(0, "h9"), up(0, "h8"), up(1, "h5"), up(2, "h4")], [], []]
    _, events = evaluate(3, table, grounds)
    assert takes(events) == [(0, 1, "tipi1")] * 4  # the same player is B and C
    _, events = evaluate(3, table, grounds, options={"hunter_ranking": "per_player"})
    assert takes(events) == [(0, 1, "tipi1")] * 2 + [(1, 1, "tipi1")] * 2


def test_tomahawk_timing_snapshot_or_live() -> None:
    table = [[up(0, "h5")], [up(0, "h6"), up(1, "h6")], []]
    grounds = [["tomahawk"], ["tipi1", "tipi1", "tipi1"], []]
    # snapshot: the tomahawk won at g1 does not count at g2, the 6s cancel
    _, events = evaluate(2, table, grounds)
    assert takes(events) == [(0, 1, "tomahawk")]
    assert [e.data["ground"] for e in events if e.type == "tiles_removed"] == [2]
    # live: seat 0's 6 is a 7 at g2
    _, events = evaluate(2, table, grounds, options={"tomahawk_timing": "live"})
    assert takes(events)[1:] == [(0, 2, "tipi1")] * 2 + [(1, 2, "tipi1")]


@pytest.mark.parametrize(("piece_vp", "vp"), [("tiles", 4), ("pieces", 3), ("both", 5)])
def test_piece_vp(piece_vp: str, vp: int) -> None:
    owned = [["totem", "horse", "tomahawk", "tipi2", "buffalo1"], []]
    state = make_state(
        2,
        options={"piece_vp": piece_vp},
        phase="game_over",
        seat=None,
        tiles_owned=owned,
        totem_holder=0,
        horse_holder=1,
    )
    assert state.outcome().scores[0] == vp


def test_horse_piece_keeps_its_holder_when_counts_drop() -> None:
    # seat 0 holds the horse with 1 tile and loses it to the thief: nobody has more, he keeps it
    state, _ = evaluate(
        2,
        [[up(0, "h9")], [], []],
        [[], [], []],
        owned={0: ["horse"]},
        holder=0,
    )
    assert tiles_of(state, 0) == [] and state.horse_holder == 0


# ----- hidden information, positions, records ----------------------------------------------


def test_views_hide_hands_and_decks_and_determinize_keeps_the_view() -> None:
    match = Match(GAME, 4, seed=9)
    state = match.state
    assert isinstance(state, ManitouState)
    rng = random.Random(9)
    while state.phase_name == "select":
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for _ in range(6):
        seat = state.current_seat()
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for seat in range(4):
        view = state.view(seat)
        assert set(view["you"]) == {"selection", "hand", "deck"}
        assert len(view["you"]["hand"]) == 3
        for _ in range(5):
            det = state.determinize(seat, rng)
            assert det.view(seat) == view
            assert det.hands[seat] == state.hands[seat]
            for p in range(4):
                assert len(det.hands[p]) == len(state.hands[p])
                assert len(det.decks[p]) == len(state.decks[p])
                played = [code & 15 for g in det.table for code in g if (code & 255) >> 4 == p]
                assert sorted(det.hands[p] + det.decks[p] + played) == [
                    c for c in range(15) for _ in range(det.selected[p][c])
                ]
                assert all(det.selected[p][c] <= det.pool[p][c] for c in range(15))
    assert "you" not in state.view(None)


def test_position_round_trip_and_errors() -> None:
    match = _random_game(3, 4)
    position = match.state.to_position()
    again = GAME.state_from_position(json.loads(json.dumps(position)))
    assert again.to_position() == position
    assert again.outcome() == match.state.outcome()
    broken = json.loads(json.dumps(position))
    broken["state"]["table"] = [[[0, "h1", False]], [], []]
    with pytest.raises(PositionError):
        GAME.state_from_position(broken)
    broken = json.loads(json.dumps(position))
    del broken["state"]["bag"]
    with pytest.raises(PositionError):
        GAME.state_from_position(broken)


def test_explicit_setup_record_replays() -> None:
    record = Record.load(DATA / "manitou-explicit-setup.json")
    assert record.setup is not None and record.seed is None  # every draw is in the setup
    match = replay(record)
    assert match.state.is_terminal()
    assert match.state.outcome() == record.outcome


def test_records_of_random_games_replay_for_every_player_count() -> None:
    for players in range(2, 6):
        match = _random_game(players, players, hero_chart="seed_linear")
        rec = Record.from_json(json.loads(match.record().dumps()))
        assert replay(rec).state.position_equal(match.state)


def test_render_for_a_seat_and_a_spectator() -> None:
    state = play_state(
        2,
        1,
        {1: ["h4", "spy"], 0: ["healer"]},
        table=[[up(0, "chief")], [], []],
        grounds=[["tipi3"], ["totem"], []],
    )
    text = state.render(1)  # the presenter's display as text (test_present.py)
    assert "Ground 1: tipi ×3" in text and "Ground 1 cards: seat 0's chief" in text
    assert "Your hand: hunter 4, spy" in text
    assert "healer" not in text
    assert "Your hand" not in state.render(None)


def test_no_thief_when_nobody_played_a_hunter() -> None:
    _, events = evaluate(
        2, [[up(0, "spy")], [up(1, "chief")], []], [[], [], []], owned={0: ["tipi1"]}
    )
    assert next(e for e in events if e.type == "thief").data == {"sums": [0, 0], "robbed": []}
    assert not any(e.type == "robbed" for e in events)


@pytest.mark.parametrize(("dealer", "new_holder"), [(0, 2), (2, 3)])
def test_piece_after_a_loss_goes_to_the_first_of_tied_seats_from_the_dealers_left(
    dealer: int, new_holder: int
) -> None:
    # seat 1 holds the totem piece with one tile and loses it to the thief; seats 0, 2 and 3
    # now all have more (1 > 0): the first of them from the dealer's left takes the piece
    owned = {0: ["totem"], 1: ["totem"], 2: ["totem"], 3: ["totem"]}
    state, events = evaluate(
        4, [[up(1, "h9")], [], []], [[], [], []], owned=owned, dealer=dealer, totem_holder=1
    )
    assert [e.data for e in events if e.type == "piece"] == [
        {"piece": "totem", "from": 1, "to": new_holder}
    ]
    assert state.totem_holder == new_holder


def test_determinize_reseeds_the_generator_from_rng() -> None:
    state = fresh(3, dealer=0, tiles=["tipi1"] * 12)
    a = state.determinize(0, random.Random(1))
    b = state.determinize(0, random.Random(1))
    c = state.determinize(0, random.Random(2))
    assert a.rng.getstate() == b.rng.getstate() != c.rng.getstate()
    assert a.rng.getstate() != state.rng.getstate()


def test_cli_lists_the_game_and_replays_the_explicit_setup_record(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from campfire.cli import main

    assert main(["games"]) == 0
    listing = capsys.readouterr().out
    assert "Big Manitou" in listing and "hero_chart=seed_plus_1997" in listing
    assert main(["replay", str(DATA / "manitou-explicit-setup.json")]) == 0
    out = capsys.readouterr().out
    assert "150 actions verified" in out and "Béla (seat 1): 8  winner" in out
    assert main(["rules", "manitou"]) == 0
    assert "tipis and buffalo score in pairs" in capsys.readouterr().out
    # a record whose last action was tampered with is rejected with the rule broken
    record = Record.load(DATA / "manitou-explicit-setup.json")
    record.actions[-1] = (record.actions[-1][0], "pass")
    with pytest.raises(RecordError, match="action 149"):
        replay(record)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"leftover_tiles": "bag", "tomahawk_timing": "live", "tiles_per_ground": 5},
        {"hunter_ranking": "per_player", "hero_limit_counts_face_down": True},
        {"draw_cards": True, "hero_chart": "manitou_1997", "tiles_per_ground": 1},
    ],
)
def test_invariants_hold_through_random_games(options: dict[str, object]) -> None:
    """Tiles are conserved, face-up heroes match the table, pools and counts stay >= 0."""
    fixture = ["tipi1", "buffalo2", "totem", "horse", "tomahawk", "tipi3", "buffalo1"] * 8
    rng = random.Random(len(options))
    for players in range(2, 6):
        state = fresh(players, dealer=players % 2, tiles=fixture, seed=players, **options)
        total = len(fixture)
        while not state.is_terminal():
            seats = state.seats_to_act()
            seat = seats[rng.randrange(len(seats))]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            count = len(state.bag) + sum(map(len, state.grounds)) + len(state.out_of_game)
            assert count + sum(map(sum, state.owned)) == total
            for g in range(3):
                heroes = [c for c in state.table[g] if c & 15 >= 10 and not c & 256]
                assert heroes == state.up[g]
                assert len(heroes) <= 2 and len({c >> 4 for c in heroes}) <= 1
            assert min(min(p) for p in state.pool) >= 0
            assert min(min(o) for o in state.owned) >= 0
