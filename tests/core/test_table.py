"""The Table: the one loop that drives a match of people and agents."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest

from campfire import get_game
from campfire.agents import make_agent
from campfire.core import (
    Action,
    Agent,
    Event,
    IllegalActionError,
    Observation,
    replay,
    visible_events,
)
from campfire.core.table import AgentError, RandomSeat, Step, Table, TooLongError, first_seat


def agents_for(game_name: str, n: int, spec: str = "random") -> list[Agent | None]:
    game = get_game(game_name)
    return [make_agent(spec, game, s, n, game.options(), seed=s) for s in range(n)]


class Recorder:
    def __init__(self) -> None:
        self.steps: list[Step] = []

    def on_step(self, table: Table, step: Step) -> None:
        self.steps.append(step)


@pytest.mark.parametrize("name", ["apache", "dudab", "manitou", "tracker"])
def test_each_seat_receives_exactly_the_events_it_may_see(name: str) -> None:
    n = 3
    table = Table(get_game(name), n, seed=11, agents=agents_for(name, n))
    received: dict[int | None, list[Event]] = {s: [] for s in [*range(n), None]}
    for seat in received:
        table.subscribe(seat, received[seat].extend)
    recorder = Recorder()
    table.listeners.append(recorder)
    table.run()
    every = [e for step in recorder.steps for e in step.events]
    for seat, events in received.items():
        assert events == visible_events(every, seat)
    # the record replays to the same end
    assert replay(table.match.record()).state.outcome() == table.state.outcome()


def test_listeners_get_decision_times_from_the_injected_clock() -> None:
    ticks = itertools.count(0.0, 0.5)
    table = Table(
        get_game("tracker"), 2, seed=3, agents=agents_for("tracker", 2), clock=lambda: next(ticks)
    )
    recorder = Recorder()
    table.listeners.append(recorder)
    table.run()
    assert recorder.steps and all(s.seconds == 0.5 for s in recorder.steps)
    assert [s.index for s in recorder.steps] == list(range(len(table.match.actions)))
    assert all(s.choices >= 1 for s in recorder.steps)


def test_people_play_through_play_and_run_refuses_to_play_for_them() -> None:
    game = get_game("tracker")
    first = game.new_game(2, seed=5).current_seat()
    bot = make_agent("random", game, 1 - first, 2, game.options(), seed=1)
    agents: list[Agent | None] = [None, None]
    agents[1 - first] = bot
    table = Table(game, 2, seed=5, agents=agents, names=["Ann", "Bot"])
    assert table.match.record().players[1 - first].agent == "random"
    assert table.match.record().players[first].agent is None
    assert table.person_to_act() == first
    assert table.agent_to_act() is None and table.step() is None
    with pytest.raises(ValueError, match="person"):
        table.run()
    steps = Recorder()
    table.listeners.append(steps)
    legal = table.state.legal_actions(first)
    table.play(first, str(legal[0]))
    assert steps.steps[-1].seconds is None and steps.steps[-1].choices == len(legal)


def test_an_action_out_of_turn_is_refused_and_changes_nothing() -> None:
    game = get_game("tracker")
    table = Table(game, 2, seed=5)
    before = table.state.to_position()
    other = 1 - table.state.current_seat()
    with pytest.raises(IllegalActionError, match="may not act"):
        table.play(other, "peek 0")
    assert table.state.to_position() == before and table.match.actions == []


class Illegal(Agent):
    name = "illegal"

    def act(self, obs: Observation) -> Action:
        return get_game("dudab").parse_action("draw") if obs.view else obs.legal_actions[0]


class Raising(Agent):
    name = "raising"

    def act(self, obs: Observation) -> Action:
        raise RuntimeError("boom")


@pytest.mark.parametrize(("cls", "kind"), [(Raising, "exception"), (Illegal, "illegal_action")])
def test_a_failing_agent_is_reported_and_the_table_is_unchanged(cls: Any, kind: str) -> None:
    game = get_game("tracker")
    agents: list[Agent | None] = [cls(game, s, 2, game.options()) for s in range(2)]
    table = Table(game, 2, seed=2, agents=agents, labels=["x", "y"])
    before = table.state.to_position()
    with pytest.raises(AgentError) as info:
        table.step()
    assert info.value.kind == kind and info.value.seat == table.state.current_seat()
    assert table.state.to_position() == before


def test_too_long_games_stop_at_the_cap() -> None:
    table = Table(get_game("tracker"), 2, seed=2, agents=agents_for("tracker", 2))
    with pytest.raises(TooLongError, match="within 5 actions"):
        table.run(max_actions=5)
    assert len(table.match.actions) == 5


def test_the_policy_chooses_among_simultaneous_seats() -> None:
    # Big Manitou's card selection: every seat chooses at once
    game = get_game("manitou")
    chosen: list[tuple[int, ...]] = []

    def last(state: Any, seats: Sequence[int]) -> int:
        chosen.append(tuple(seats))
        return max(seats)

    table = Table(game, 3, seed=1, agents=agents_for("manitou", 3), policy=last)
    while not chosen:
        step = table.step()
        assert step is not None
    assert len(chosen[0]) > 1 and table.match.actions[-1][0] == max(chosen[0])
    assert first_seat(table.state, [2, 1]) == 1
    assert RandomSeat(random.Random(0))(table.state, [1, 2]) in (1, 2)


def test_a_table_continues_an_existing_match() -> None:
    game = get_game("tracker")
    first = Table(game, 2, seed=9)
    seat = first.state.current_seat()
    first.play(seat, str(first.state.legal_actions(seat)[0]))
    second = Table(game, match=first.match, agents=agents_for("tracker", 2))
    second.run()
    assert second.match is first.match and second.state.is_terminal()


# ----- taking back (undo) -----------------------------------------------------------------------


def _undo_table(name: str, seed: int) -> Table:
    game = get_game(name)

    def factory(seat: int) -> Agent:
        return make_agent("random", game, seat, 2, game.options(), seed=seat)

    return Table(game, 2, seed=seed, agents=[None, factory(1)], agent_factory=factory)


def _first_undoable(table: Table, rng: random.Random, limit: int = 2000) -> tuple[str, Action]:
    """Play seat 0 at random (agents for seat 1) until seat 0 may take back its action."""
    for _ in range(limit):
        if table.state.is_terminal():
            break
        if table.step() is not None:
            continue
        before = table.state.to_position()
        action = rng.choice(table.state.legal_actions(0))
        table.play(0, action)
        if table.can_undo(0):
            return json_text(before), action
    raise AssertionError("no undoable action found")


def json_text(data: Any) -> str:
    import json

    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize(("name", "seed"), [("tracker", 1), ("dudab", 2), ("manitou", 3)])
def test_undo_takes_back_the_step_in_progress_and_restores_the_position(
    name: str, seed: int
) -> None:
    table = _undo_table(name, seed)
    before, action = _first_undoable(table, random.Random(seed))
    count = len(table.match.actions)
    assert table.undo(0) == action
    assert len(table.match.actions) == count - 1
    assert json_text(table.state.to_position()) == before
    # the game goes on from there, and its record replays
    table.play(0, table.state.legal_actions(0)[0])
    assert replay(table.match.record()).state.to_position() == table.state.to_position()


def test_undo_never_takes_back_revealed_information() -> None:
    table = _undo_table("tracker", 1)
    while table.step() is not None:
        pass
    peeks = [a for a in table.state.legal_actions(0) if str(a).startswith("peek")]
    table.play(0, peeks[0])  # the peeked card was shown to seat 0 only
    assert not table.can_undo(0)
    with pytest.raises(IllegalActionError, match="revealed information"):
        table.undo(0)


def test_undo_never_crosses_another_players_move() -> None:
    table = _undo_table("tracker", 1)
    rng = random.Random(5)
    _first_undoable(table, rng)
    while 0 in table.state.seats_to_act() and not table.state.is_terminal():
        table.play(0, rng.choice(table.state.legal_actions(0)))
        if table.state.is_terminal():
            break
    table.step()  # seat 1 moves
    assert not table.can_undo(0)
    assert not table.can_undo(1)  # an agent's action is never taken back


def test_undo_rebuilds_agents_from_the_remaining_events() -> None:
    table = _undo_table("dudab", 2)
    _first_undoable(table, random.Random(2))
    old_agent = table.agents[1]
    table.undo(0)
    assert table.agents[1] is not old_agent


def test_without_an_agent_factory_nothing_can_be_taken_back() -> None:
    game = get_game("tracker")
    table = Table(game, 2, seed=1, agents=[None, make_agent("random", game, 1, 2, seed=1)])
    rng = random.Random(0)
    for _ in range(50):
        if table.step() is None and not table.state.is_terminal():
            table.play(0, rng.choice(table.state.legal_actions(0)))
        assert not table.can_undo(0)
