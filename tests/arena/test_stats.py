"""Statistics on known inputs, the JSON document and the plot."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from campfire.arena import GameResult, SimConfig, SimResult, prepare, run, summarize
from campfire.arena.plot import plot_summary
from campfire.arena.runner import Failure
from campfire.arena.stats import wilson_interval


def result(
    index: int, agents: tuple[str, ...], scores: tuple[float, ...], winners: tuple[int, ...]
) -> GameResult:
    ranks = tuple(1 + sum(1 for o in scores if o > s) for s in scores)
    return GameResult(
        index, 100 + index, agents, tuple(range(len(agents))), scores, ranks, winners, 7
    )


def known_run() -> SimResult:
    """Three players, lineup a, b, a; four games, one of them failed, one shared win."""
    config = SimConfig("dudab", 3, ("a", "b", "a"), 4, 1)
    results = [
        result(0, ("a", "b", "a"), (10, 5, 0), (0,)),
        result(1, ("a", "a", "b"), (2, 8, 8), (1, 2)),
        result(2, ("b", "a", "a"), (9, 1, 3), (0,)),
        GameResult(3, 103, ("a", "b", "a"), (0, 1, 2), actions=4, failed=True),
    ]
    failure = Failure(3, 103, 1, "b", "exception", "boom", 4, {})
    results[3].failure = failure
    return SimResult(config, results, seconds=2.0, jobs=1, backend="process")


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(0.0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(1.0, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    assert wilson_interval(0.3, 0) == (0.0, 1.0)


def test_agent_and_seat_statistics_on_known_games() -> None:
    summary = summarize(known_run())
    assert summary.completed == 3 and summary.failed == 1
    a, b = summary.agents
    assert (a.agent, a.slots, b.agent, b.slots) == ("a", 2, "b", 1)
    # per game, a's mean share over its seats: (1+0)/2, (0+.5)/2, (0+0)/2
    assert a.win_share == pytest.approx((0.5 + 0.25 + 0.0) / 3)
    assert b.win_share == pytest.approx((0 + 0.5 + 1) / 3)
    assert a.wins == pytest.approx(1.5) and b.wins == pytest.approx(1.5)
    assert a.win_share_ci == wilson_interval(a.win_share, 3)
    assert a.score_mean == pytest.approx((10 + 0 + 2 + 8 + 1 + 3) / 6)
    assert b.score_mean == pytest.approx((5 + 8 + 9) / 3)
    assert b.score_sd == pytest.approx(statistics.stdev([5, 8, 9]))
    # ranks: game 0: a 1, b 2, a 3; game 1: a 3, a 1, b 1; game 2: b 1, a 3, a 2
    assert a.rank_mean == pytest.approx((1 + 3 + 3 + 1 + 3 + 2) / 6)
    assert b.rank_mean == pytest.approx((2 + 1 + 1) / 3)
    assert (a.failures, b.failures) == (0, 1)
    seats = summary.seats
    assert [s.win_share for s in seats] == pytest.approx([2 / 3, 1 / 6, 1 / 6])
    assert all(s.games == 3 for s in seats)
    assert summary.fair_share == pytest.approx(1 / 3)
    t = summary.throughput()
    assert t["games_per_second"] == pytest.approx(2.0)
    assert t["actions_per_second"] == pytest.approx((7 * 3 + 4) / 2)
    text = summary.to_text()
    assert "Dudab, 3 players, 4 games, seed 1" in text
    assert "4 games (3 completed, 1 failed)" in text
    assert "failed: game 3 (seed 103), seat 1 (b) after 4 actions: exception: boom" in text


def test_win_shares_of_a_real_run_add_up() -> None:
    summary = summarize(run(prepare("manitou", 4, ["heuristic", "random"], 8, seed=2), jobs=1))
    assert sum(s.win_share for s in summary.seats) == pytest.approx(1.0)
    assert sum(a.win_share * a.slots for a in summary.agents) == pytest.approx(1.0)
    for a in summary.agents:
        lo, hi = a.win_share_ci
        assert 0 <= lo <= a.win_share <= hi <= 1


def test_thinking_times_of_a_real_run() -> None:
    """Forced moves count in the mean per move but not in the mean per decision."""
    config = prepare("dudab", 2, ["ismcts:iterations=20", "random"], 2, seed=3)
    sim = run(config, jobs=1)
    for r in sim.results:
        assert all(0 < d < m for d, m in zip(r.decisions, r.moves, strict=True))
        for s in range(2):
            assert r.decision_seconds[s] <= r.think_seconds[s]
            assert r.slowest[s] <= r.think_seconds[s]
    summary = summarize(sim)
    search, rand = summary.agents
    held = [(r, r.agents.index("ismcts:iterations=20")) for r in sim.results]
    assert search.seconds_per_decision == pytest.approx(
        sum(r.decision_seconds[s] for r, s in held) / sum(r.decisions[s] for r, s in held)
    )
    assert search.slowest_move == max(r.slowest[s] for r, s in held)
    assert rand.seconds_per_decision <= rand.slowest_move  # a mean is at most the maximum
    t = summary.throughput()
    assert t["seconds_per_decision"]["random"] == rand.seconds_per_decision
    assert t["slowest_move"]["ismcts:iterations=20"] == search.slowest_move
    text = summary.to_text()
    header = next(line for line in text.splitlines() if line.startswith("thinking time"))
    assert header.split()[2:] == ["per", "move", "with", "a", "choice", "longest"]
    assert any(line.startswith("ismcts:iterations=20 ") for line in text.splitlines())


def test_json_document_follows_the_schema(tmp_path: Path) -> None:
    summary = summarize(known_run())
    data = json.loads(json.dumps(summary.to_json()))
    assert data["format"] == "campfire-sim" and data["version"] == 1
    top = {
        "format": str,
        "version": int,
        "game": str,
        "players": int,
        "options": dict,
        "lineup": list,
        "games": int,
        "seed": int,
        "completed": int,
        "failed": int,
        "fair_share": float,
        "confidence": float,
        "interval": str,
        "agents": list,
        "seats": list,
        "throughput": dict,
        "failures": list,
        "results": list,
    }
    assert set(data) == set(top)
    for key, typ in top.items():
        assert isinstance(data[key], typ), key
    agent_keys = {
        "agent", "slots", "games", "wins", "win_share", "win_share_ci",
        "score_mean", "score_sd", "rank_mean", "failures",
    }  # fmt: skip
    assert all(set(a) == agent_keys for a in data["agents"])
    assert all(len(a["win_share_ci"]) == 2 for a in data["agents"])
    assert all(set(s) == {"seat", "games", "win_share", "win_share_ci"} for s in data["seats"])
    assert set(data["throughput"]) == {
        "seconds", "games_per_second", "actions_per_second", "actions_per_game",
        "seconds_per_move", "seconds_per_decision", "slowest_move", "jobs", "backend",
    }  # fmt: skip
    assert set(data["failures"][0]) == {
        "game", "seed", "seat", "agent", "kind", "message", "actions", "traceback", "record",
    }  # fmt: skip
    assert set(data["results"][0]) == {
        "game", "seed", "agents", "slots", "scores", "ranks", "winners", "actions", "failed",
    }  # fmt: skip
    assert data["results"][3]["failed"] is True


def test_plot_is_written_as_png(tmp_path: Path) -> None:
    summary = summarize(run(prepare("manitou", 3, ["heuristic", "random"], 6, seed=1), jobs=1))
    path = tmp_path / "sim.png"
    plot_summary(summary, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.stat().st_size > 10_000


def test_plot_of_a_run_without_completed_games(tmp_path: Path) -> None:
    run_ = known_run()
    for r in run_.results:
        r.failed = True
    path = tmp_path / "empty.png"
    plot_summary(summarize(run_), path)
    assert path.exists()
