"""Tracker bots always end their games (issue 11, item 3: limited-memory bots peeked for ever).

The rules let a player peek on every turn, so it is the bots that must stop waiting: a bot that
has peeked ``patience`` turns in a row captures anyway, and the search (ISMCTS) is offered only
captures at its root once its seat has peeked ``DEFAULT_PATIENCE`` turns in a row.
"""

from __future__ import annotations

import random

import pytest

from campfire import get_game
from campfire.agents import make_agent
from campfire.arena.runner import prepare, run
from campfire.core import Event, Match, Observation, OptionError
from campfire.core.table import Table
from campfire.games.tracker.bots import DEFAULT_PATIENCE, TrackerMemory, TrackerRollout
from campfire.games.tracker.state import NORMAL, TURN_START, TrackerState

GAME = get_game("tracker")


def longest_peeking_streak(match: Match) -> int:
    """The most normal peeking turns any seat took in a row before playing a tracker."""
    state = GAME.new_game(match.state.num_players, match.options, seed=match.seed)
    assert isinstance(state, TrackerState)
    streak = [0] * state.num_players
    longest = 0
    for seat, action in match.actions:
        kind = str(action).split()[0]
        if kind == "peek" and state.phase == NORMAL and state.step == TURN_START:
            streak[seat] += 1
            longest = max(longest, streak[seat])
        elif kind == "track":
            streak[seat] = 0
        state.apply(seat, action)
    return longest


def test_issue_run_with_two_easy_bots_and_four_random_ends_every_game() -> None:
    """The run of the issue: game 15 never ended once only the two easy bots were left."""
    easy = "heuristic:memory=6/0.05"
    config = prepare("tracker", 6, [easy, easy, "random", "random", "random", "random"], 40, 1)
    result = run(config, jobs=1)
    assert [f.describe() for f in result.failures] == []
    assert len(result.completed) == 40


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_forgetful_levels_alone_end_every_game(level: str, players: int) -> None:
    """Only bots of one forgetful level: before the fix, none of these games ended."""
    result = run(prepare("tracker", players, [level], 6, 11), jobs=1)
    assert [f.describe() for f in result.failures] == []
    assert all(r.actions < GAME.playout_bound for r in result.results)


@pytest.mark.parametrize("memory", ["none", "1", "6/0.05", "perfect"])
def test_bot_never_peeks_longer_than_its_patience(memory: str) -> None:
    """Whatever the memory, no bot peeks more than ``patience`` turns without playing a tracker."""
    patience = 4
    spec = f"heuristic:memory={memory},patience={patience}"
    for seed in range(3):
        agents = [
            make_agent(spec, GAME, s, 3, GAME.options(), seed=seed * 10 + s) for s in (0, 1, 2)
        ]
        table = Table(GAME, 3, seed=seed, agents=list(agents))
        table.run(max_actions=GAME.playout_bound)
        assert table.state.is_terminal()
        longest = longest_peeking_streak(table.match)
        assert longest <= patience
        if memory == "none":  # it never remembers an enemy scout: it waits its whole patience
            assert longest == patience


def test_memory_counts_this_seats_peeking_turns_and_resets_on_a_capture() -> None:
    memory = TrackerMemory(0)
    turn = [
        Event("peek", {"seat": 0, "pos": 3}),
        Event("peek_card", {"seat": 0, "pos": 3, "card": "F-T1-1"}, frozenset({0})),
    ]
    memory.observe(turn)
    memory.observe([Event("peek", {"seat": 0, "pos": 4})])  # the same turn goes on
    assert memory.peek_turns == 1
    memory.observe([Event("peek", {"seat": 1, "pos": 5})])  # another seat's turn
    memory.observe(turn)
    assert memory.peek_turns == 2
    assert memory.clone().peek_turns == 2
    memory.observe([Event("trackers_played", {"seat": 1, "count": 1, "left": 2})])
    assert memory.peek_turns == 2  # another seat's capture does not count
    memory.observe([Event("trackers_played", {"seat": 0, "count": 1, "left": 2})])
    assert memory.peek_turns == 0


def test_patience_below_one_is_refused_with_what_is_allowed() -> None:
    with pytest.raises(OptionError, match="patience must be at least 1"):
        make_agent("heuristic:patience=0", GAME, 0, 2, GAME.options())


def _search_root(peek_turns: int) -> tuple[TrackerState, TrackerRollout]:
    state = GAME.new_game(2, seed=5)
    assert isinstance(state, TrackerState)
    memory = TrackerMemory(state.current_seat())
    memory.peek_turns = peek_turns
    return state, TrackerRollout(state.current_seat(), memory)


def test_search_root_offers_only_captures_once_patience_is_spent() -> None:
    state, policy = _search_root(DEFAULT_PATIENCE)
    seat = state.current_seat()
    legal = state.legal_actions(seat)
    rng = random.Random(0)
    root = policy.prune(state, seat, legal, rng)
    assert root and {str(a).split()[0] for a in root} == {"track"}
    # deeper in the tree the candidates are the usual ones again
    assert any(str(a).startswith("peek") for a in policy.prune(state, seat, legal, rng))


def test_search_root_still_peeks_while_patient() -> None:
    state, policy = _search_root(DEFAULT_PATIENCE - 1)
    seat = state.current_seat()
    root = policy.prune(state, seat, state.legal_actions(seat), random.Random(0))
    assert any(str(a).startswith("peek") for a in root)


def test_search_that_has_waited_long_captures() -> None:
    """The ISMCTS agent itself: with its patience spent, it plays a tracker."""
    state = GAME.new_game(2, seed=8)
    seat = state.current_seat()
    agent = make_agent("ismcts:iterations=20", GAME, seat, 2, GAME.options(), seed=1)
    assert isinstance(agent.belief, TrackerMemory)
    agent.belief.peek_turns = DEFAULT_PATIENCE
    action = agent.act(Observation.of(state, seat, agent.belief, random.Random(0)))
    assert str(action).startswith("track")
