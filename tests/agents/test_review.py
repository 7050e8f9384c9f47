"""The post-game review and the hint (campfire.agents.review, ISMCTSAgent.assess)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from campfire import get_game
from campfire.agents import make_agent
from campfire.agents.ismcts import ISMCTSAgent
from campfire.agents.review import (
    BLUNDER,
    INACCURACY,
    Decision,
    Review,
    action_words,
    assessor,
    hint,
    mark_of,
    review,
)
from campfire.core import Belief, Event, Observation, OptionError, RecordError
from campfire.core.records import Record
from campfire.core.table import Table
from tests.built_in import built_in_games


def _finished(name: str, players: int = 2, seed: int = 3) -> Record:
    game = get_game(name)
    agents = [make_agent("easy", game, s, players, seed=s) for s in range(players)]
    table = Table(game, players, seed=seed, agents=agents)
    table.run()
    return table.match.record()


def test_marks_follow_the_thresholds() -> None:
    assert mark_of(0.0) == "" and mark_of(INACCURACY - 0.01) == ""
    assert mark_of(INACCURACY) == "inaccuracy" and mark_of(BLUNDER - 0.01) == "inaccuracy"
    assert mark_of(BLUNDER) == "blunder" and mark_of(1.0) == "blunder"


def test_the_played_move_that_is_the_best_loses_nothing() -> None:
    d = Decision(4, 1, "a", "a", 0.2, 0.9, 0.1, 0.8, 3, 50)
    assert d.loss == 0.0 and d.mark == ""
    worse = Decision(4, 1, "b", "a", 0.6, 0.9, 0.5, 0.8, 3, 50)
    assert worse.loss == pytest.approx(0.3) and worse.mark == "blunder"
    better = Decision(4, 1, "b", "a", 0.95, 0.9, 0.9, 0.8, 3, 50)
    assert better.loss == 0.0


def test_assess_reports_what_act_plays() -> None:
    game = get_game("dudab")
    state = game.new_game(2, seed=5)
    seat = state.seats_to_act()[0]
    obs = Observation.of(state, seat, rng=random.Random(1))
    assert len(obs.legal_actions) > 1
    config = ISMCTSAgent.config_type.from_mapping({"iterations": "60"})
    found = ISMCTSAgent(game, seat, 2, state.options, config, seed=9).assess(obs)
    played = ISMCTSAgent(game, seat, 2, state.options, config, seed=9).act(obs)
    assert found.best.action == played and found.iterations == 60
    assert sum(e.visits for e in found.entries) == 60
    assert all(0.0 <= e.value <= 1.0 and 0.0 <= e.win <= 1.0 for e in found.entries)
    visits = [e.visits for e in found.entries]
    assert visits == sorted(visits, reverse=True)


@pytest.mark.parametrize("name", [g.name for g in built_in_games()])
def test_review_covers_every_decision_with_a_choice(name: str) -> None:
    record = _finished(name)
    result = review(record, iterations=3, seats=[1])
    game = get_game(name)
    state = game.new_game(2, record.options, seed=record.seed)
    expected = []
    for index, (seat, text) in enumerate(record.actions):
        if seat == 1 and len(state.legal_actions(seat)) > 1:
            expected.append(index)
        state.apply(seat, game.canonical_action(text))
    reviewed = [d.index for d in result.decisions]
    if isinstance(assessor(game, 1, 2), ISMCTSAgent):
        assert reviewed == expected
    else:  # a game's own search may weigh some kinds of decision only
        assert reviewed and set(reviewed) <= set(expected)
    assert all(d.seat == 1 for d in result.decisions)
    played = dict(enumerate(text for _, text in record.actions))
    assert all(d.played == played[d.index] for d in result.decisions)
    assert [s.seat for s in result.summary()] == [1]


def test_review_is_deterministic_and_round_trips_through_json() -> None:
    record = _finished("manitou")
    one = review(record, iterations=8, seed=4)
    two = review(record, iterations=8, seed=4)
    assert one.to_json() == two.to_json()
    back = Review.from_json(one.to_json())
    assert back.to_json() == one.to_json()
    data = one.to_json()
    assert data["thresholds"] == {"inaccuracy": INACCURACY, "blunder": BLUNDER}
    assert {d["mark"] for d in data["decisions"]} <= {"", "inaccuracy", "blunder"}
    marked = sum(s["inaccuracies"] + s["blunders"] for s in data["summary"])
    assert marked == sum(1 for d in data["decisions"] if d["mark"])


def _spy_beliefs(monkeypatch: pytest.MonkeyPatch, game: Any) -> list[tuple[int, list[Event]]]:
    """Record every batch of events a belief of ``game`` is fed, with the belief's seat."""
    fed: list[tuple[int, list[Event]]] = []
    make_belief: Callable[..., Belief] = type(game).new_belief

    def recording(self: Any, seat: int, *args: Any, **kwargs: Any) -> Belief:
        belief = make_belief(self, seat, *args, **kwargs)
        observe = belief.observe

        def spy(events: Any) -> None:
            fed.append((seat, list(events)))
            observe(events)

        belief.observe = spy  # type: ignore[method-assign]
        return belief

    monkeypatch.setattr(type(game), "new_belief", recording)
    return fed


def test_a_hint_is_searched_from_the_events_the_seat_saw_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game("tracker")
    agents = [make_agent("easy", game, s, 2, seed=s) for s in range(2)]
    table = Table(game, 2, seed=4, agents=agents)
    for _ in range(20):
        table.step()
    seat = table.state.seats_to_act()[0]
    record = table.match.record()
    fed = _spy_beliefs(monkeypatch, game)
    got = hint(record, seat, seed=2)
    assert got.action in table.state.legal_actions(seat)
    assert any(e.to is not None for _, events in fed for e in events)
    assert all(s == seat and (e.to is None or seat in e.to) for s, events in fed for e in events)


def test_a_seat_is_reviewed_from_the_events_it_saw_only(monkeypatch: pytest.MonkeyPatch) -> None:
    record = _finished("tracker")
    fed = _spy_beliefs(monkeypatch, get_game("tracker"))
    seen: list[tuple[int, int]] = []
    assess = ISMCTSAgent.assess

    def spy_assess(self: ISMCTSAgent, obs: Observation, **kwargs: Any) -> Any:
        seen.append((self.seat, obs.seat))
        return assess(self, obs, **kwargs)

    monkeypatch.setattr(ISMCTSAgent, "assess", spy_assess)
    review(record, iterations=2, seats=[0])
    private = [e for _, events in fed for e in events if e.to is not None]
    assert private, "the game's record has private events for the seat"
    assert all(seat == 0 and (e.to is None or 0 in e.to) for seat, events in fed for e in events)
    assert seen and all(agent == 0 and obs == 0 for agent, obs in seen)


def test_a_bad_record_or_seat_is_refused() -> None:
    record = _finished("manitou")
    with pytest.raises(OptionError):
        review(record, iterations=2, seats=[2])
    with pytest.raises(OptionError):
        review(record, iterations=0)
    broken = Record.from_json({**record.to_json(), "actions": [[0, "fly away"]]})
    with pytest.raises(RecordError):
        review(broken, iterations=2)


def test_words_name_the_moves_in_the_presenters_language() -> None:
    record = _finished("manitou")
    result = review(record, iterations=3, seats=[0])
    words = action_words(record, result.decisions)
    assert len(words) == len(result.decisions)
    assert all(played and best for played, best in words)
    assert any(played != d.played for (played, _), d in zip(words, result.decisions, strict=True))


def test_hint_suggests_a_legal_move_from_the_seats_view() -> None:
    game = get_game("dudab")
    agents = [make_agent("easy", game, s, 2, seed=s) for s in range(2)]
    table = Table(game, 2, seed=8, agents=agents)
    for _ in range(6):
        table.step()
    seat = table.state.seats_to_act()[0]
    got = hint(table.match.record(), seat, seed=1)
    assert got.action in table.state.legal_actions(seat)
    assert 0.0 <= got.win <= 1.0 and got.iterations >= 1
    assert hint(table.match.record(), seat, seed=1).to_json() == got.to_json()
    with pytest.raises(OptionError):
        hint(table.match.record(), 1 - seat)
