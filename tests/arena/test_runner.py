"""The arena runner: seeds, seat rotation, determinism across jobs, failures, records."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from campfire.arena import derive_seed, make_tasks, prepare, run, summarize
from campfire.arena.runner import MAX_ACTIONS_FACTOR, agent_label, play_game, record_name
from campfire.core import CampfireError, OptionError, Record, UnknownGameError, get, replay


def test_tasks_derive_seeds_from_the_run_seed() -> None:
    config = prepare("dudab", 3, ["random"], 5, seed=42)
    tasks = list(make_tasks(config))
    assert [t.index for t in tasks] == [0, 1, 2, 3, 4]
    assert [t.seed for t in tasks] == [derive_seed(42, i) for i in range(5)]
    assert len({t.seed for t in tasks}) == 5
    assert all(0 <= t.seed < 2**63 for t in tasks)
    assert list(make_tasks(config)) == tasks
    other = list(make_tasks(prepare("dudab", 3, ["random"], 5, seed=43)))
    assert {t.seed for t in other}.isdisjoint({t.seed for t in tasks})
    # agents get their own seeds, different per slot and per game
    seeds = [s for t in tasks for s in t.agent_seeds]
    assert len(set(seeds)) == len(seeds)


def test_agents_repeat_to_fill_the_seats() -> None:
    config = prepare("dudab", 5, ["Heuristic", "random"], 1, 0)
    assert config.lineup == ("heuristic", "random", "heuristic", "random", "heuristic")
    assert config.agents == ["heuristic", "random"]
    assert config.player_names() == [
        "heuristic #1",
        "random #1",
        "heuristic #2",
        "random #2",
        "heuristic #3",
    ]


def test_seats_rotate_so_every_agent_plays_every_seat() -> None:
    config = prepare("manitou", 4, ["ismcts:iterations=5", "heuristic", "random"], 8, 1)
    tasks = list(make_tasks(config))
    assert tasks[0].agents == config.lineup
    for slot in range(4):
        seats = [t.seats.index(slot) for t in tasks[:4]]
        assert sorted(seats) == [0, 1, 2, 3]
    for prev, nxt in itertools.pairwise(tasks):
        # no slot keeps its seat from one game to the next
        assert all(prev.seats[s] != nxt.seats[s] for s in range(4))
    counts = Counter((t.agents[s], s) for t in tasks for s in range(4))
    assert config.lineup[3] == "ismcts:iterations=5"  # the list repeats: ismcts holds 2 slots
    assert all(counts[("ismcts:iterations=5", s)] == 4 for s in range(4))
    assert all(counts[("random", s)] == counts[("heuristic", s)] == 2 for s in range(4))


def test_result_is_identical_whatever_the_number_of_jobs() -> None:
    config = prepare("manitou", 3, ["random", "heuristic"], 12, seed=5)
    one = run(config, jobs=1)
    two = run(config, jobs=2)
    assert one.results == two.results
    assert [r.index for r in two.results] == list(range(12))
    a, b = summarize(one).to_json(), summarize(two).to_json()
    assert a.pop("throughput")["jobs"] == 1
    assert b.pop("throughput")["jobs"] == 2
    assert a == b
    # a different seed gives different games
    other = run(prepare("manitou", 3, ["random", "heuristic"], 12, seed=6), jobs=1)
    assert other.results != one.results


def test_play_game_matches_a_replay_of_its_record() -> None:
    config = prepare("dudab", 3, ["heuristic", "random"], 2, seed=3, records=True)
    for task in make_tasks(config):
        result = play_game(task)
        assert not result.failed and result.record is not None
        record = Record.from_json(result.record)
        assert record.seed == task.seed
        assert [p.agent for p in record.players] == list(task.agents)
        assert record.meta["arena"]["agent_seeds"] == list(task.agent_seeds)
        match = replay(record)
        outcome = match.state.outcome()
        assert outcome.scores == result.scores and outcome.winners == result.winners
        assert len(record.actions) == result.actions


def test_records_folder_holds_replayable_records(tmp_path: Path) -> None:
    config = prepare("manitou", 3, ["random"], 4, seed=8)
    result = run(config, jobs=1, records_dir=tmp_path / "recs")
    files = sorted((tmp_path / "recs").iterdir())
    assert [f.name for f in files] == [record_name(i, 4) for i in range(4)]
    for file, game in zip(files, result.results, strict=True):
        record = Record.load(file)
        assert {p.name for p in record.players} == {"random #1", "random #2", "random #3"}
        assert all(p.agent == "random" for p in record.players)
        assert replay(record).state.outcome().ranks == game.ranks
    assert all(r.record is None for r in result.results)  # written, not kept in memory


@pytest.mark.usefixtures("broken_agents")
def test_an_agent_that_raises_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    config = prepare("tracker", 2, ["raising", "random"], 4, seed=2)
    result = run(config, jobs=1, records_dir=tmp_path)
    assert len(result.results) == 4
    assert len(result.failures) == 4  # the raising agent plays every game
    failure = result.failures[0]
    assert failure.kind == "exception" and failure.agent == "raising"
    assert "RuntimeError: deliberately broken" in failure.message
    assert failure.seed == derive_seed(2, 0)
    assert "Traceback" in failure.traceback
    assert failure.record["outcome"] is None
    partial = replay(Record.from_json(failure.record))  # replays to the failing position
    assert not partial.state.is_terminal()
    assert failure.record["seed"] == failure.seed
    assert (tmp_path / record_name(0, 4, failed=True)).exists()
    assert f"game 0 (seed {failure.seed}), seat" in failure.describe()
    summary = summarize(result)
    assert summary.failed == 4 and summary.completed == 0
    assert {a.agent: a.failures for a in summary.agents} == {"raising": 4, "random": 0}


@pytest.mark.usefixtures("broken_agents")
def test_an_illegal_action_is_reported_and_counted() -> None:
    config = prepare("dudab", 3, ["random", "random", "illegal"], 3, seed=4)
    result = run(config, jobs=1)
    assert len(result.failures) == 3
    for failure in result.failures:
        assert failure.kind == "illegal_action" and failure.agent == "illegal"
        assert "not legal" in failure.message
        assert failure.seat is not None
        assert failure.record["players"][failure.seat]["agent"] == "illegal"


@pytest.mark.usefixtures("broken_agents")
def test_failed_games_are_counted_apart_from_the_others() -> None:
    result = run(prepare("tracker", 2, ["flaky", "random"], 12, seed=9), jobs=1)
    failed = {f.game for f in result.failures}
    assert 0 < len(failed) < 12
    assert {r.index for r in result.results if r.failed} == failed
    summary = summarize(result)
    assert summary.completed == 12 - len(failed) and summary.failed == len(failed)
    assert all(a.games == summary.completed for a in summary.agents)
    assert abs(sum(s.win_share for s in summary.seats) - 1.0) < 1e-9
    assert summary.to_json()["failed"] == len(failed)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"game": "chess"}, UnknownGameError, "known games: apache, dudab"),
        ({"players": 9}, OptionError, "played by 2–6 players"),
        ({"agents": ["genius"]}, OptionError, "unknown agent 'genius' for Dudab; agents: "),
        ({"agents": ["ismcts:depth=3"]}, OptionError, "unknown option 'depth'"),
        ({"agents": ["random"] * 4}, OptionError, "4 agents given for 3 players; give 1 to 3"),
        ({"agents": []}, OptionError, "at least one agent"),
        ({"games": 0}, OptionError, "positive integer"),
        ({"seed": -1}, OptionError, "non-negative"),
        ({"options": {"colour": "red"}}, OptionError, "unknown option 'colour'"),
    ],
)
def test_prepare_rejects_bad_input(
    kwargs: dict[str, object], error: type[CampfireError], match: str
) -> None:
    args: dict[str, object] = {
        "game": "dudab",
        "players": 3,
        "agents": ["random"],
        "games": 2,
        "seed": 0,
    }
    args.update(kwargs)
    with pytest.raises(error, match=match):
        prepare(**args)  # type: ignore[arg-type]


def test_run_rejects_bad_settings() -> None:
    config = prepare("tracker", 2, ["random"], 1, 0)
    with pytest.raises(OptionError, match="backends: process, ray"):
        run(config, backend="slurm")
    with pytest.raises(OptionError, match="add --backend ray"):
        run(config, address="10.0.0.1:6379")
    with pytest.raises(OptionError, match="jobs must be a positive"):
        run(config, jobs=0)


def test_agent_labels_are_canonical() -> None:
    assert agent_label("Random") == "random"
    assert agent_label("ismcts: iterations=5 , rollout=random") == (
        "ismcts:iterations=5,rollout=random"
    )


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    run(prepare("tracker", 2, ["random"], 5, 0), jobs=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 5) and seen[-1] == (5, 5)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_game_that_does_not_end_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get("tracker")
    monkeypatch.setattr(game, "playout_bound", 2)  # limit: 2 * MAX_ACTIONS_FACTOR actions
    result = run(prepare("tracker", 2, ["random"], 1, seed=0), jobs=1)
    (failure,) = result.failures
    assert failure.kind == "too_long" and failure.seat is None and failure.agent is None
    assert failure.actions == 2 * MAX_ACTIONS_FACTOR
    assert "did not end within 10 actions" in failure.message


@pytest.mark.usefixtures("broken_agents")
def test_agents_are_told_only_the_events_their_seat_may_see() -> None:
    from tests.arena.conftest import SpyAgent

    result = run(prepare("tracker", 3, ["spy"], 2, seed=1), jobs=1)
    assert not result.failures
    assert SpyAgent.log and all(event.visible_to(seat) for seat, event in SpyAgent.log)
    private = [(seat, e) for seat, e in SpyAgent.log if e.to is not None]
    assert private  # Tracker peeks are private events ...
    assert all(e.to == frozenset({seat}) for seat, e in private if e.type == "peek_card")
    public = [e for seat, e in SpyAgent.log if seat == 0 and e.to is None]
    assert len(public) == len([e for seat, e in SpyAgent.log if seat == 1 and e.to is None])


def test_records_are_kept_in_memory_without_a_folder() -> None:
    result = run(prepare("tracker", 2, ["random"], 2, seed=1, records=True), jobs=1)
    assert all(r.record is not None for r in result.results)
    assert [Record.from_json(r.record).seed for r in result.results if r.record] == [
        derive_seed(1, 0),
        derive_seed(1, 1),
    ]
    plain = run(prepare("tracker", 2, ["random"], 2, seed=1), jobs=1)
    assert all(r.record is None for r in plain.results)
