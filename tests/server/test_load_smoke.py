"""The server benchmarks (benchmarks/server_load.py, server_frames.py, failover.py) at a tiny
size (a second of play per run), so that the scripts keep working.

Their figures are measured by hand (benchmarks/README.md); here only the reports' shape is
checked: actions were played, their latencies measured, their frames sent. No duration is
asserted.
"""

from __future__ import annotations

import asyncio

from tests.benchmark_scripts import load_script


def test_load_benchmark_plays_two_tables_and_reports_actions_and_latencies() -> None:
    bench = load_script("server_load")
    report = bench.run_benchmark(tables=2, seconds=1, think_ms=20, players=3, max_actions=400)
    assert report["tables"] == 2
    assert report["connections"] == 2 * (3 + 1)
    assert report["actions"] > 0
    assert report["actions_per_s"] > 0
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p99"] <= latency["max"]
    assert report["failures"] == []


def test_frames_benchmark_plays_a_few_actions_and_reports_frames_per_action() -> None:
    bench = load_script("server_frames")
    report = asyncio.run(
        bench.run(
            actions=12,
            database_url=None,
            game="tracker",
            players=2,
            spectators=1,
            tables=2,
            concurrent=2,
            seed=1,
            profile=None,
        )
    )
    assert report["actions"] == 12
    # every action sends one delta to each of its table's connections (2 seats, 1 spectator)
    assert report["frames_per_action"] == 3
    assert report["mean_frame_chars"] > 0


def test_load_benchmark_with_its_server_options_reports_them_and_the_load() -> None:
    bench = load_script("server_load")
    report = bench.run_benchmark(
        tables=1,
        seconds=1,
        think_ms=20,
        players=2,
        max_actions=100,
        compress_min=0,
        server_session=True,
    )
    assert report["compress_min"] == 0 and report["server_session"] is True
    assert report["actions"] > 0
    assert set(report["load_average"]) == {"start", "end"}
    assert report["failures"] == []


def test_presenter_benchmark_times_every_seat_and_the_spectator() -> None:
    bench = load_script("present_speed")
    report = bench.run("tracker", 2, 1, 100, 10)
    assert report["displays"] == 10 * 3  # ten steps, two seats and the spectator at each
    assert report["us_per_display"] > 0


def test_load_benchmark_through_nginx_and_the_interleaved_comparison() -> None:
    bench = load_script("server_load")
    report = bench.run_benchmark(
        tables=1, seconds=1, think_ms=20, players=2, max_actions=200, proxy="nginx"
    )
    assert report["proxy"] == "nginx" and report["actions"] > 0
    assert report["failures"] == [] and "nginx" in report["cpu_seconds"]
    compared = bench.compare_proxy(2, tables=1, seconds=1, think_ms=20, players=2)
    for mode in ("direct", "nginx"):
        rounds = compared["rounds"][mode]
        assert [r["round"] for r in rounds] == [1, 2]
        assert all(r["actions"] > 0 and r["failures"] == [] for r in rounds), rounds


def test_failover_benchmark_kills_an_owner_and_times_both_clients(pg_only: str) -> None:
    """One kill (``pg_only``: PostgreSQL and Redis answer; the script makes its own schema)."""
    bench = load_script("failover")
    report = bench.run_benchmark(kills=1)
    summary = report["summary"]
    assert summary["kills"] == 1
    assert summary["proxied"]["close_codes"] == [1012]  # the survivor's client: told to move
    for who in ("proxied", "direct"):
        assert summary[who]["median_s"] > 0 and summary[who]["most_tries"] >= 1
