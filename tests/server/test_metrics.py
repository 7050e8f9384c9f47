"""``GET /metrics``: what it counts after real games, who may read it, and several processes."""

from __future__ import annotations

import itertools
import json
import os
import random
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from campfire.server.app import create_app
from campfire.server.metrics import MetricsConfig, NoMetrics

from .helpers import check_answer, new_table, play_out, seats
from .live_server import LiveServer, http

LOOPBACK = ("127.0.0.1", 50000)
#: the label names a campfire metric may have: a few fixed words, never a table or a seat
ALLOWED_LABELS = {"state", "kind", "code", "via", "le"}


@contextmanager
def client_at(url: str, address: tuple[str, int] = LOOPBACK, **kwargs: Any) -> Iterator[TestClient]:
    """A test client of a new app, its requests coming from ``address``."""
    seeds = itertools.count(1)
    kwargs.setdefault("rate", 10_000.0)
    kwargs.setdefault("burst", 10_000)
    app = create_app(url, seeds=lambda: next(seeds), **kwargs)
    with TestClient(app, client=address) as client:
        client.event_hooks = {"request": [], "response": [check_answer]}
        yield client


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of a ``/metrics`` text: (name, sorted labels) -> value."""
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def value(
    found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str
) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return samples(answer.text)


def test_a_game_played_is_counted(sqlite_url: str) -> None:
    """Actions, their latency, commits, connections, tables by state and errors by code."""
    with client_at(sqlite_url) as client:
        table, tokens = new_table(client, "tracker", 2)
        rng = random.Random(3)
        with seats(client, table, tokens) as clients:
            during = scrape(client)
            assert value(during, "campfire_connections", kind="player") == 2
            assert value(during, "campfire_connections", kind="spectator") == 1
            assert value(during, "campfire_tables", state="running") == 1
            clients[0].send({"type": "action", "seq": 99, "action": 0})  # stale
            while True:
                frame = clients[0].receive()
                if frame["type"] == "error":
                    assert frame["code"] == "stale"
                    break
            steps = play_out(
                clients, lambda to_act: (to_act[0], rng.choice(to_act[0].last["legal"])["notation"])
            )
        assert client.get("/api/tables/999999").status_code == 404
        after = scrape(client)
    assert value(after, "campfire_actions_total") == steps
    assert value(after, "campfire_action_seconds_count") == steps
    assert value(after, "campfire_action_seconds_bucket", le="+Inf") == steps
    assert value(after, "campfire_db_commit_actions_sum") == steps
    assert 1 <= value(after, "campfire_db_commit_seconds_count") <= steps
    assert value(after, "campfire_tables", state="finished") == 1
    assert value(after, "campfire_connections", kind="player") == 0
    assert value(after, "campfire_errors_total", code="stale", via="socket") == 1
    assert value(after, "campfire_errors_total", code="unknown_table", via="http") == 1
    assert value(after, "campfire_lease_takeovers_total") == 0
    assert value(after, "process_cpu_seconds_total") > 0


def test_bots_are_counted(sqlite_url: str) -> None:
    """Every bot decision is timed, and none waits once the game is over."""
    with client_at(sqlite_url) as client:
        table, _ = new_table(client, "tracker", 2, seats=[{"kind": "bot"}, {"kind": "bot"}])
        for _ in range(600):  # bounded: a bots-only game plays itself to the end
            answer = client.get(f"/api/tables/{table}").json()["table"]
            if answer["status"] == "finished":
                break
            time.sleep(0.05)
        else:
            pytest.fail("the bots did not finish their game")
        found = scrape(client)
    assert value(found, "campfire_bot_think_seconds_count") == answer["seq"]
    assert value(found, "campfire_actions_total") == answer["seq"]
    assert value(found, "campfire_bot_queue") == 0


def test_no_label_names_a_table_or_a_seat(sqlite_url: str) -> None:
    with client_at(sqlite_url) as client:
        new_table(client, "tracker", 2)
        text = client.get("/metrics").text
    for family in text_string_to_metric_families(text):
        if family.name.startswith("campfire_"):
            for sample in family.samples:
                assert set(sample.labels) <= ALLOWED_LABELS, sample


def test_other_addresses_get_404(sqlite_url: str) -> None:
    with client_at(sqlite_url, ("192.0.2.7", 40000)) as client:
        answer = client.get("/metrics")
        assert answer.status_code == 404
        assert "campfire" not in answer.text
        assert client.get("/api/games").status_code == 200  # (everything else is served)


def test_allowed_networks_may_read(sqlite_url: str) -> None:
    allow = MetricsConfig(allow="192.0.2.0/24")
    with client_at(sqlite_url, ("192.0.2.7", 40000), metrics=allow) as client:
        assert client.get("/metrics").status_code == 200
    with client_at(sqlite_url, LOOPBACK, metrics=allow) as client:
        assert client.get("/metrics").status_code == 404  # loopback is no longer in the list


def test_metrics_can_be_turned_off(sqlite_url: str) -> None:
    with client_at(sqlite_url, metrics=MetricsConfig(enabled=False)) as client:
        assert client.get("/metrics").status_code == 404
        assert isinstance(client.app.state.metrics, NoMetrics)  # type: ignore[attr-defined]
        assert not client.app.state.metrics.enabled  # type: ignore[attr-defined]


def test_ipv4_mapped_and_bad_networks() -> None:
    config = MetricsConfig(allow="10.0.0.0/8, ::1")
    assert config.allowed("::ffff:10.1.2.3") and config.allowed("::1")
    assert not config.allowed("11.0.0.1") and not config.allowed(None)
    with pytest.raises(ValueError, match="no IP address or network"):
        MetricsConfig(allow="10.0.0.300")


def test_serve_options(tmp_path: Path) -> None:
    """``campfire serve --metrics-allow none`` answers 404 even to this machine."""
    server = LiveServer(
        f"sqlite:///{tmp_path / 'm.db'}", tmp_path, args=("--metrics-allow", "none")
    )
    try:
        assert http("GET", f"{server.base}/metrics")[0] == 404
    finally:
        server.stop()
    server = LiveServer(f"sqlite:///{tmp_path / 'm.db'}", tmp_path)
    try:
        status, text = http("GET", f"{server.base}/metrics")
        assert status == 200 and "campfire_actions_total" in text
    finally:
        server.stop()


def test_a_bad_network_is_refused_by_serve(capsys: pytest.CaptureFixture[str]) -> None:
    from campfire.cli import main

    assert main(["serve", "--metrics-allow", "10.0.0.0/33"]) == 2
    assert "'10.0.0.0/33' is no IP address or network" in capsys.readouterr().err


def test_workers_answer_for_every_process(pg_only: str, tmp_path: Path) -> None:
    """With ``--workers 2`` whichever process answers, it answers for both.

    Tables of bots are created and played through both processes (each connection goes to
    either); every scrape, from fresh connections, counts all their actions, and the shared
    directory holds the counts of two processes.
    """
    shared = tmp_path / "prom"
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(shared)
    try:
        server = LiveServer(pg_only, tmp_path, args=("--workers", "2"))
    finally:
        del os.environ["PROMETHEUS_MULTIPROC_DIR"]
    try:
        ids = []
        for _ in range(6):
            status, text = http(
                "POST",
                f"{server.base}/api/tables",
                {"game": "tracker", "players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}]},
            )
            assert status == 201, text
            table = json.loads(text)["table"]["id"]
            ids.append(table)
            assert http("POST", f"{server.base}/api/tables/{table}/start")[0] == 200
        total = 0
        for table in ids:
            for _ in range(600):  # bounded
                status, text = http("GET", f"{server.base}/api/tables/{table}")
                one = json.loads(text)["table"]
                if one["status"] == "finished":
                    total += one["seq"]
                    break
                time.sleep(0.05)
            else:
                pytest.fail(f"table {table} did not finish")
        pids = {p.name.rsplit("_", 1)[1] for p in shared.glob("counter_*.db")}
        assert len(pids) >= 2, sorted(p.name for p in shared.iterdir())
        finished = 0.0
        for _ in range(100):  # each a new connection: either process may answer (bounded)
            with urllib.request.urlopen(f"{server.base}/metrics", timeout=10) as answer:
                found = samples(answer.read().decode())
            assert value(found, "campfire_actions_total") == total
            assert value(found, "campfire_bot_think_seconds_count") == total
            # the other process samples its tables every few seconds
            finished = value(found, "campfire_tables", state="finished")
            if finished == len(ids):
                break
            time.sleep(0.1)
        assert finished == len(ids)
    finally:
        server.stop()


def test_a_table_taken_over_is_counted(pg_only: str, tmp_path: Path) -> None:
    """Two processes of one cluster: the owner dies mid-game, the other counts the take-over."""
    import asyncio

    from .test_cluster import ARGS, _new_table, _open, _play_one

    a = LiveServer(pg_only, tmp_path, args=ARGS)
    b = LiveServer(pg_only, tmp_path, args=ARGS)
    try:
        table, tokens = _new_table(a.base)  # a owns it
        assert http("POST", f"{a.base}/api/tables/{table}/start", {}, tokens[0])[0] == 200
        before = samples(http("GET", f"{b.base}/metrics")[1])
        assert value(before, "campfire_lease_takeovers_total") == 0

        async def play_then_kill() -> None:
            seat0 = await _open(a, table, 0, f"token={tokens[0]}")
            seat1 = await _open(b, table, 1, f"token={tokens[1]}")
            for _ in range(3):
                await _play_one([seat0, seat1], [seat0, seat1])
            a.kill()
            await seat1.ws.close()

        asyncio.run(play_then_kill())
        for _ in range(300):  # bounded: b takes the table over once a's lease has run out
            found = samples(http("GET", f"{b.base}/metrics")[1])
            if value(found, "campfire_lease_takeovers_total") >= 1:
                break
            time.sleep(0.1)
        assert value(found, "campfire_lease_takeovers_total") == 1
    finally:
        a.stop()
        b.stop()
