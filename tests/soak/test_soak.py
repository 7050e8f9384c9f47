"""The soak (benchmarks/soak.py) at a small size: every game, every player count, every level.

The full size (10,000 games per game) is run by hand; its figures are in docs/soak.md.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from rich.console import Console

import campfire

ROOT = Path(__file__).resolve().parents[2]


def load_soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location("campfire_soak", ROOT / "benchmarks" / "soak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_small_soak_every_game_ends_replays_and_clones_stay_independent() -> None:
    soak = load_soak()
    summary = soak.soak(
        15,
        seed=11,
        search_games=2,
        search_iterations=2,
        level_games=0,
        check_every=10,
        progress=False,
        console=Console(file=None, quiet=True),
    )
    assert summary.faults == []
    assert not summary.stopped_early
    for game, figures in zip(campfire.all_games(), summary.figures, strict=True):
        assert figures.game == game.name
        assert figures.games == 15
        assert figures.replays == 15  # every game's record replayed to its outcome
        assert figures.clone_checks > 0
        assert figures.longest <= game.playout_bound
        assert figures.players == set(range(game.min_players, game.max_players + 1))
        # every difficulty level's agent played (a searching level with fewer iterations)
        specs = {s for n in figures.players for s in game.difficulty_levels(n).values()}
        for spec in specs:
            name = spec.split(":")[0]
            assert any(a.split(":")[0] == name for a in figures.agents), spec
        assert "random" in figures.agents


def test_soak_plan_covers_every_case_and_runs_each_searching_level_as_configured() -> None:
    soak = load_soak()
    game = campfire.get_game("tracker")
    cases = (game.max_players - game.min_players + 1) * len(list(game.options_type.combinations()))
    planned = soak.plan(game, 100, 0, search_games=3, search_iterations=4, level_games=2)
    assert len(planned) == 100
    kinds = [p.kind for p in planned]
    assert kinds.count("levels") == 2 and kinds.count("search") == 3
    bulk = [p for p in planned if p.kind == "bulk"]
    assert len({(p.players, p.options) for p in bulk}) == cases
    levels = [p for p in planned if p.kind == "levels"]
    assert all(game.difficulty_levels(p.players)["hard"] in p.lineup for p in levels)
    searches = [p for p in planned if p.kind == "search"]
    assert all("ismcts:iterations=4" in p.lineup for p in searches)
    assert all(len(p.lineup) == p.players for p in planned)


def test_soak_reports_a_game_that_does_not_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault is counted and described, never hidden (here: a lowered playout bound)."""
    soak = load_soak()
    game = campfire.get_game("tracker")
    # the instance itself: another test may leave an instance attribute that shadows the class
    monkeypatch.setattr(game, "playout_bound", 10)
    summary = soak.soak(
        2, games=["tracker"], search_games=0, level_games=0, progress=False, check_every=5
    )
    assert len(summary.faults) == 2
    assert "too long" in summary.faults[0] or "playout bound" in summary.faults[0]
