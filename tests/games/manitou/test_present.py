"""Big Manitou's presenter: prompts, labels and targets, log lines, summaries, no hidden cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from campfire.core import Event, State
from campfire.core.present import Display
from campfire.games.manitou import GAME
from campfire.games.manitou.present import MESSAGES, ManitouPresenter, card_label

from ..present_checks import (
    check_catalogue_template,
    check_determinisation_shows_the_same,
    check_every_readers_messages,
    check_shorts,
    display,
    log_lines,
)
from .helpers import evaluate, fresh, make_state, play_state, up

NAMES = ["Ann", "Bob", "Cid"]
P = GAME.presenter()


def show(state: State, seat: int | None) -> Display:
    return display(P, state, seat, NAMES)


def lines(events: list[Event], seat: int | None, n: int = 3) -> list[str]:
    return log_lines(P, events, seat, NAMES[:n])


def test_the_game_has_its_own_presenter() -> None:
    assert isinstance(P, ManitouPresenter)


# ----- prompts, status, progress ----------------------------------------------------------------


def test_selection_prompts_count_the_cards_still_to_choose() -> None:
    state = fresh(3, dealer=0, tiles=["tipi1"] * 9)
    d = show(state, 1)
    assert d.status == "Hunt 1 of 3 — choosing cards"
    assert d.prompt == "Choose 9 cards for your hunting deck, one at a time."
    assert d.progress == "chosen 0 of 9"
    state.apply(1, "pick h7")
    d = show(state, 1)
    assert d.prompt == "Choose 8 more cards for your hunting deck."
    assert d.progress == "chosen 1 of 9"
    assert [c.label for c in d.zone("selection").cards] == ["hunter 7"]
    # the pool holds what may still be chosen: h7 is gone, both chiefs are there
    pool = [c.label for c in d.zone("pool").cards]
    assert "hunter 7" not in pool and pool.count("chief") == 2
    assert show(state, None).prompt == "Wait while the players choose their cards."


def test_pick_labels_and_targets() -> None:
    state = fresh(2, dealer=0, tiles=["tipi1"] * 6)
    d = show(state, 1)
    pick = next(a for a in d.actions if a.notation == "pick chief")
    assert (pick.label, pick.target, pick.group, pick.key) == (
        "Choose the chief",
        "pool:chief",
        "pick",
        "chief",
    )
    assert d.actions_on("pool:h10")[0].label == "Choose the hunter 10"


def test_play_prompt_labels_target_the_grounds() -> None:
    state = play_state(2, 1, {1: ["h4", "spy"], 0: ["healer"]}, grounds=[["tipi3"], [], []])
    d = show(state, 1)
    assert d.status == "Hunt 1 of 4 — play, round 1 of 7"
    assert d.prompt == "Play a card from your hand face up at one of the three grounds."
    choice = next(a for a in d.actions if a.notation == "play spy g2")
    assert (choice.label, choice.target, choice.key) == ("Play the spy at ground 2", "g2", "spy g2")
    assert choice.source == "hand:1"  # the hand card it moves
    assert [c.label for c in d.zone("hand").cards] == ["hunter 4", "spy"]
    assert show(state, 0).prompt == "Wait for Bob to play a card."


def test_totem_horse_thief_and_sharing_prompts() -> None:
    totem = play_state(2, 0, {0: [], 1: ["h9"]}, turn=13, totem_holder=1, decks=[[], []], dealer=0)
    events = totem.apply(0, totem.legal_actions(0)[0])
    assert any(e.type == "play_over" for e in events)
    d = show(totem, 1)
    assert d.prompt == "You hold the totem: play one extra card at a ground, or pass."
    assert next(a for a in d.actions if a.notation == "pass").label == "Play no extra card"
    extra = next(a for a in d.actions if a.notation == "play h9 g3")
    assert extra.label == "Play the hunter 9 at ground 3 as the totem's extra card"

    table = [[up(0, "h6")], [up(1, "h2")], []]
    horse = make_state(
        2,
        0,
        phase="horse",
        seat=0,
        play_turn=14,
        horse_holder=0,
        table=table,
        grounds=[["tipi1"], ["buffalo1"], []],
    )
    d = show(horse, 0)
    assert d.prompt == "You hold the horse: move one of your hunters to another ground, or pass."
    move = next(a for a in d.actions if a.notation == "move h6 g3")
    assert (move.label, move.target) == ("Move your hunter 6 from ground 1 to ground 3", "g3")
    assert move.source == "g1:c0"

    # a thief who robs seat 0, which has a tipi and a buffalo: seat 0 chooses
    state, _ = evaluate(
        2,
        [[up(0, "h9")], [up(1, "h2")], []],
        [["totem"], ["horse"], []],
        owned={0: ["tipi2", "buffalo1"]},
    )
    d = show(state, 0)
    assert d.prompt == "The thief robs you: choose the tile you give up."
    assert [c.label for c in d.zone("tiles:0").cards] == ["buffalo ×1", "tipi ×2"]
    lose = d.actions_on("tiles:0:1")[0]
    assert lose.label == "Give up the tipi ×2" and lose.notation == "lose tipi2"
    assert show(state, 1).prompt == "Wait for Ann to give a tile to the thief."


def test_sharing_prompt_names_the_reason_and_targets_the_tile() -> None:
    # seat 0's hero holds ground 1 with three different tiles: it takes one of its choice
    state, _ = evaluate(2, [[up(0, "spy")], [], []], [["tipi3", "buffalo2", "totem"], [], []])
    d = show(state, 0)
    assert d.status == "Hunt 1 of 4 — sharing ground 1"
    assert d.prompt == "At ground 1 your hero holds the ground: choose the tile to take."
    take = next(a for a in d.actions if a.notation == "take buffalo2")
    assert (take.label, take.target) == ("Take the buffalo ×2", "g1:t1")
    assert d.zone("g1").note == "being shared"


# ----- log lines ------------------------------------------------------------------------------


def test_a_beaten_hero_is_logged_with_the_card_that_beat_it() -> None:
    state = play_state(2, 1, {1: ["spy", "h2"], 0: ["h3"]}, table=[[up(0, "chief")], [], []])
    events = state.apply(1, "play spy g1")
    down = next(e for e in events if e.type == "hero_down")
    assert down.data == {
        "seat": 0,
        "card": "chief",
        "ground": 1,
        "by_seat": 1,
        "by": "spy",
        "reason": "beaten",
    }
    assert lines(events, None, 2)[:2] == [
        "Bob plays the spy at ground 1.",
        "Ann's chief at ground 1 is beaten by Bob's spy and turned face down.",
    ]
    assert "Your chief at ground 1 is beaten by Bob's spy and turned face down." in lines(
        events, 0, 2
    )
    assert "Ann's chief at ground 1 is beaten by your spy and turned face down." in lines(
        events, 1, 2
    )


def test_a_failed_attack_names_the_defender_that_beat_it() -> None:
    state = play_state(2, 1, {1: ["healer", "h2"], 0: ["h3"]}, table=[[up(0, "chief")], [], []])
    events = state.apply(1, "play healer g1")
    assert "Bob's healer at ground 1 is beaten by Ann's chief and turned face down." in lines(
        events, None, 2
    )


def test_equal_heroes_and_a_sacrifice_are_told_as_such() -> None:
    state = play_state(2, 1, {1: ["chief", "h2"], 0: ["h3"]}, table=[[up(0, "chief")], [], []])
    said = lines(state.apply(1, "play chief g1"), None, 2)
    assert (
        "Ann's chief at ground 1 meets Bob's chief, the same hero: it is turned face down." in said
    )
    assert (
        "Bob's chief at ground 1 meets Ann's chief, the same hero: it is turned face down." in said
    )
    state = play_state(
        2, 1, {1: ["spy", "h2"], 0: ["h3"]}, table=[[up(0, "spy"), up(0, "chief")], [], []]
    )
    said = lines(state.apply(1, "play spy g1"), None, 2)
    assert "Ann's chief at ground 1 is beaten by Bob's spy and turned face down." in said
    assert (
        "Bob's spy at ground 1 removed Ann's chief and is turned face down with it (a sacrifice)."
        in said
    )


def test_the_drawer_reads_only_the_private_line_of_its_draw() -> None:
    state = play_state(2, 1, {1: ["h4", "spy", "h1"], 0: ["healer"]}, decks=[[], ["h8"]])
    events = state.apply(1, "play h4 g1")
    assert lines(events, 1, 2) == ["You play the hunter 4 at ground 1.", "You draw the hunter 8."]
    assert lines(events, 0, 2) == ["Bob plays the hunter 4 at ground 1.", "Bob draws a card."]


def test_the_picker_reads_only_the_private_line_of_its_pick() -> None:
    state = fresh(2, dealer=0, tiles=["tipi1"] * 6)
    events = state.apply(1, "pick shaman")
    assert lines(events, 1, 2) == ["You choose the shaman."]
    assert lines(events, 0, 2) == ["Bob chooses a card (1 so far)."]


def test_the_thief_and_the_hunt_summary_give_each_player_a_breakdown() -> None:
    state, events = evaluate(
        2,
        [[up(0, "h9"), up(1, "h3")], [up(1, "h2")], []],
        [["tipi1", "buffalo1"], ["tomahawk"], []],
        owned={0: ["tipi2"], 1: ["totem"]},
        hunt=2,
    )
    said = lines(events, None, 2)
    assert (
        "The thief comes. Hunter totals: Ann 9, Bob 5; Ann has the highest and is robbed." in said
    )
    assert "The thief takes Ann's tipi ×2; it leaves the game." in said
    summary = next(m for m in P.messages(events, NAMES[:2], None) if m.id == "manitou.hunt_end")
    assert summary.text == (
        "Hunt 2 is over. Points so far: Ann 1 point (1 tipi–buffalo pair (tipis 1, buffalo 1)); "
        "Bob 2 points (0 tipi–buffalo pairs (tipis 0, buffalo 0), 1 totem tile, 1 tomahawk tile)."
    )
    assert not state.is_terminal()


def test_the_end_of_the_game_says_who_wins_and_how_points_are_made() -> None:
    state = make_state(
        2, 0, phase="game_over", seat=None, tiles_owned=[["tipi3", "buffalo2"], ["tomahawk"]]
    )
    d = show(state, 0)
    assert d.over and d.prompt == "The game is over."
    assert d.result[0] == "Ann: 2 points (2 tipi–buffalo pairs (tipis 3, buffalo 2)) — winner"
    assert (
        d.result[1] == "Bob: 1 point (0 tipi–buffalo pairs (tipis 0, buffalo 0), 1 tomahawk tile)"
    )
    assert "most points win" in d.result[-1]
    assert d.players[0].score == "2 points, winner"


# ----- along seeded games: catalogue, legend, hidden information --------------------------------


def _games(seeds: range = range(3)) -> Any:
    for seed in seeds:
        n = 2 + seed % 4
        state = GAME.new_game(n, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = rng.choice(state.seats_to_act())
            before = state.clone()
            events = state.apply(seat, rng.choice(state.legal_actions(seat)))
            yield before, events, state


def _shorts() -> set[str]:
    return (
        {f"H{s}" for s in range(1, 11)}
        | {f"B{m}" for m in range(1, 6)}
        | {f"T{m}" for m in range(1, 6)}
        | {"CH", "SQ", "SH", "SP", "HE", "HO", "TO", "TK"}
    )


def test_every_message_is_in_the_catalogue_and_every_display_holds_only_what_the_seat_knows() -> (
    None
):
    legend = {e.symbol for e in P.legend()}
    assert {"CH", "SQ", "SH", "SP", "HE", "HO", "TO", "TK", "face down"} <= legend
    used: set[str] = set()
    rng = random.Random(0)
    for k, (_, events, state) in enumerate(_games()):
        n = state.num_players
        used |= check_every_readers_messages(P, events, n, MESSAGES)
        if k % 7:
            continue
        for seat in [*range(n), None]:
            d = show(state, seat)
            check_shorts(d, _shorts() | {""})  # "": a face-down card
            if seat is None:
                assert "hand" not in [z.id for z in d.zones]
                continue
            # what the seat may not know is re-dealt in a determinisation: the display is equal
            check_determinisation_shows_the_same(d, show, state, seat, rng)
            # the seat's own cards are there, as the position has them
            mine = state.to_position()["state"]["hands"][seat]
            if state.view(seat)["phase"] not in ("select", "game_over"):
                assert [c.label for c in d.zone("hand").cards] == [card_label(c) for c in mine]
            # no zone shows another seat's hand, deck or choice
            assert all(z.owner in (None, seat) for z in d.zones if not z.id.startswith("tiles:"))
    assert {"manitou.hunt_end", "manitou.game_over", "manitou.hero_down", "manitou.take"} <= used


def test_render_draws_from_the_display() -> None:
    state = play_state(2, 1, {1: ["h4", "spy"], 0: ["healer"]}, table=[[up(0, "chief")], [], []])
    text = state.render(1)
    assert "Ground 1 cards: seat 0's chief" in text
    assert "Your hand: hunter 4, spy" in text
    assert "Play a card from your hand face up at one of the three grounds." in text
    assert "healer" not in text
    assert "Your hand" not in state.render(None)


#: the event types with log lines; the catalogue's other entries are display texts and words
LOG_EVENTS = {
    "hunt_start",
    "pick",
    "pick_card",
    "hand",
    "dealt",
    "play",
    "hero_down",
    "draw",
    "draw_card",
    "no_play",
    "play_over",
    "totem_pass",
    "horse_pass",
    "horse_move",
    "thief",
    "robbed",
    "thief_finds_nothing",
    "take",
    "piece",
    "tiles_removed",
    "tiles_to_bag",
    "hunt_end",
    "game_over",
}


@pytest.mark.parametrize("mid", sorted(MESSAGES))
def test_catalogue_templates_are_sentences(mid: str) -> None:
    check_catalogue_template(mid, MESSAGES, "manitou", LOG_EVENTS)
