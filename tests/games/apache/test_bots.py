"""The Apache heuristic bot: legal, never penalised, patient, with configurable reaction times."""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from campfire.agents import make_agent
from campfire.core import Agent, Observation, OptionError
from campfire.games.apache import GAME
from campfire.games.apache.bots import (
    LEVEL_SPECS,
    ApacheHeuristic,
    ApacheHeuristicConfig,
    round_reaction,
)

from .tables import play, play_bots, position

ARRIVAL = {"claim_order": "arrival"}
#: a fast heuristic bot (the search bot of the hard level is tested in test_search.py)
FAST = "heuristic:reaction_ms=500,spread=100,patience=5"
VARIANTS = {"war_tribute": True, "marriage": True, "sharing": True}


def _bot(seat: int, players: int, options: dict[str, Any] | None = None, **config: Any) -> Any:
    cfg = ApacheHeuristicConfig.from_mapping(config)
    return ApacheHeuristic(GAME, seat, players, GAME.options(options), cfg, seed=seat)


def _act(state: Any, bot: Agent) -> str:
    return str(bot.act(Observation(state, bot.seat, bot.belief)))


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, None), (3, VARIANTS), (4, ARRIVAL), (5, {**VARIANTS, **ARRIVAL})],
)
def test_plays_legal_deterministic_games_without_penalties(
    players: int, options: dict[str, Any] | None
) -> None:
    specs = ["heuristic", "easy", FAST, "medium", "heuristic"][:players]
    first = play_bots(specs, seed=players, options=options)
    assert first == play_bots(specs, seed=players, options=options)
    results = first[2]
    assert results and all(r["result"] != "penalty" for r in results)  # claims only when legal
    assert any(r["result"] == "won" for r in results)


def test_heuristic_clearly_beats_random() -> None:
    wins = 0.0
    games = 30
    for seed in range(games):
        seat = seed % 3
        specs = ["random"] * 3
        specs[seat] = "heuristic"
        _, outcome, _ = play_bots(specs, seed=200 + seed)
        wins += outcome.win_shares()[seat]
    assert wins / games >= 0.9


def test_waits_for_several_booty_cards() -> None:
    # red (seat 0) has its hunter and one buffalo up; nobody else could take the buffalo
    state = position(3, ["red-hunter"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    assert state.claim_is_legal(0, "hunter")
    assert _act(state, _bot(0, 3)) == "pass"
    assert _act(state, _bot(0, 3, patience=2)).startswith("claim hunter ")
    # with four buffalo the claim wins five cards: enough for the default patience
    state = position(3, ["red-hunter", "buffalo", "buffalo", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    assert _act(state, _bot(0, 3)).startswith("claim hunter ")


def test_claims_at_once_when_another_seat_threatens_the_booty() -> None:
    # yellow's hunter is up too: whoever claims first takes both buffalo
    state = position(3, ["red-hunter", "yellow-hunter", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    assert _act(state, _bot(0, 3)).startswith("claim hunter ")


def test_claims_in_the_last_window() -> None:
    state = position(3, ["red-hunter"], reveal=["buffalo"], deck_left=1)
    play(state, (0, "reveal"))
    assert state.last_card
    assert _act(state, _bot(0, 3)).startswith("claim hunter ")


def test_never_claims_illegally() -> None:
    # lots of buffalo, but red's hunter is not up: protect_me says no
    state = position(3, ["yellow-warrior", "buffalo", "buffalo", "buffalo"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    assert not any(state.view(0)["protect_me"].values())
    assert _act(state, _bot(0, 3, patience=2)) == "pass"


def test_chooses_the_bigger_option() -> None:
    table = ["red-hunter", "teepee", "buffalo", "buffalo", "yellow-hunter"]
    state = position(3, table, reveal=["purple-maiden"])
    play(state, (0, "reveal"), (0, "claim hunter 100"), (1, "pass"), (2, "pass"))
    assert state.view(0)["phase"] == "choose"
    assert _act(state, _bot(0, 3)) == "booty"  # 3 cards rather than 2


def test_prisoner_is_an_opponents_own_indian() -> None:
    table = ["red-chief", "totem", "blue-hunter", "yellow-hunter", "buffalo"]
    state = position(3, table, reveal=["necklace"])
    play(state, (0, "reveal"), (0, "claim chief 100"), (1, "pass"), (2, "pass"))
    assert state.view(0)["choices"] == ["prisoner yellow-hunter", "prisoner blue-hunter"]
    # the yellow hunter would let yellow claim the buffalo; blue is a neutral colour
    assert _act(state, _bot(0, 3)) == "prisoner yellow-hunter"


def test_reaction_times_follow_the_config() -> None:
    bot = _bot(0, 2, reaction_ms=700, spread=150)
    times = [bot.reaction_time() for _ in range(400)]
    assert all(t % 50 == 0 and 0 <= t <= 2000 for t in times)
    assert abs(statistics.mean(times) - 700) < 30
    assert 100 < statistics.stdev(times) < 200
    fixed = _bot(0, 2, reaction_ms=1230, spread=0)
    assert {fixed.reaction_time() for _ in range(5)} == {1250}
    assert round_reaction(2600) == 2000 and round_reaction(-10) == 0


def test_the_claim_carries_the_drawn_time() -> None:
    state = position(2, ["red-hunter", "yellow-hunter"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    bot = _bot(0, 2, reaction_ms=600, spread=0)
    assert _act(state, bot) == "claim hunter 600"
    assert bot.last_reaction_ms == 600
    play(state, (0, "claim hunter 600"), (1, "pass"))
    play(state, (0, "reveal"))  # a fresh window: nothing to claim for red
    assert _act(state, bot) == "pass" and bot.last_reaction_ms is None


def test_arrival_mode_claims_without_a_time_and_reports_it() -> None:
    state = position(2, ["red-hunter", "yellow-hunter"], reveal=["buffalo"], options=ARRIVAL)
    play(state, (0, "reveal"))
    bot = _bot(0, 2, ARRIVAL, reaction_ms=1400, spread=0)
    assert _act(state, bot) == "claim hunter"  # arrival order: no time in the claim
    assert bot.last_reaction_ms == 1400  # ... the scheduler sends it after this long


def test_arrival_mode_claims_early_when_someone_is_on_the_board() -> None:
    state = position(3, ["red-maiden", "yellow-chief"], reveal=["necklace"], options=ARRIVAL)
    play(state, (0, "reveal"))
    assert _act(state, _bot(0, 3, ARRIVAL)) == "pass"
    play(state, (1, "claim chief"))  # yellow claims (illegal, but red cannot know its worth)
    assert _act(state, _bot(0, 3, ARRIVAL)) == "claim maiden"


def test_levels_differ_in_speed_and_easy_is_slow() -> None:
    means = {}
    for level in ("easy", "medium", "hard"):
        agent = make_agent(level, GAME, 0, 3, seed=5)
        assert isinstance(agent, ApacheHeuristic)
        means[level] = statistics.mean(agent.reaction_time() for _ in range(200))
    assert means["easy"] > means["medium"] > means["hard"]
    assert means["easy"] >= 1200  # a human reacting in about a second beats it to a claim
    assert all(GAME.difficulty_levels(n) == LEVEL_SPECS for n in range(2, 6))


def test_faster_bots_win_races() -> None:
    wins = 0.0
    games = 20
    for seed in range(games):
        specs = ["easy", FAST] if seed % 2 else [FAST, "easy"]
        _, outcome, _ = play_bots(specs, seed=300 + seed)
        wins += outcome.win_shares()[specs.index(FAST)]
    assert wins / games > 0.5


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("heuristic:reaction_ms=2500", "reaction_ms is a mean time from 0 to 2000"),
        ("heuristic:spread=-1", "spread must be"),
        ("heuristic:patience=1", "patience must be at least 2"),
    ],
)
def test_bad_config_is_a_clear_error(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_agent(spec, GAME, 0, 3)
