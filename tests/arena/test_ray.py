"""The Ray backend against a local Ray instance started for the test."""

from __future__ import annotations

import pytest

from campfire.arena import prepare, run, summarize
from campfire.core import CampfireError

ray = pytest.importorskip("ray")


def test_ray_backend_gives_the_same_results_as_processes() -> None:
    config = prepare("manitou", 3, ["heuristic", "random"], 10, seed=11)
    local = run(config, jobs=1)
    seen: list[int] = []
    remote = run(config, jobs=2, backend="ray", progress=lambda done, total: seen.append(done))
    assert remote.results == local.results
    assert remote.backend == "ray" and seen[-1] == 10
    assert not ray.is_initialized()  # the local Ray started for the run is stopped
    a, b = summarize(local).to_json(), summarize(remote).to_json()
    a.pop("throughput")
    assert b.pop("throughput")["backend"] == "ray"
    assert a == b


def test_unreachable_ray_address_fails_fast() -> None:
    config = prepare("tracker", 2, ["random"], 1, seed=0)
    with pytest.raises(CampfireError, match=r"cannot reach the Ray cluster at 127\.0\.0\.1:1"):
        run(config, backend="ray", address="127.0.0.1:1")
