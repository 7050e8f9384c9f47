"""Games are found through the entry-point group ``campfire.games`` (docs/writing-a-game.md).

The fake plugins here are real modules written to a temporary directory and named by real
``importlib.metadata.EntryPoint`` objects; only the list of entry points is replaced, so the
registry loads them exactly as it loads an installed package's.
"""

from __future__ import annotations

import ast
import logging
import sys
import textwrap
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import campfire
from campfire.core import Game, UnknownGameError, registry

ROOT = Path(__file__).resolve().parents[2]

#: a tiny but complete game module: one pile of counters, take one or two, the last taker wins
TOY_GAME = """
from __future__ import annotations

from dataclasses import dataclass

from campfire.core import Action, Event, Game, Options, Outcome, State


class Take(Action):
    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n

    def notation(self):
        return f"take {self.n}"

    def __eq__(self, other):
        return isinstance(other, Take) and other.n == self.n

    def __hash__(self):
        return hash(self.n)


@dataclass(frozen=True)
class PileOptions(Options):
    pass


class PileState(State):
    def __init__(self, game, players, options):
        self.game, self.num_players, self.options = game, players, options
        self.counters, self.turn, self.last = 5, 0, 0

    def seats_to_act(self):
        return () if self.counters == 0 else (self.turn,)

    def legal_actions(self, seat=None):
        return [Take(n) for n in (1, 2) if n <= self.counters]

    def apply(self, seat, action):
        self.counters -= action.n
        self.last, self.turn = seat, (self.turn + 1) % self.num_players
        return [Event("take", {"seat": seat, "n": action.n})]

    def is_terminal(self):
        return self.counters == 0

    def outcome(self):
        return Outcome.from_scores([int(s == self.last) for s in range(self.num_players)])

    def view(self, seat=None):
        return {"seat": seat, "counters": self.counters}

    def determinize(self, seat, rng):
        return self.clone()

    def render(self, seat=None):
        return str(self.counters)


class PileGame(Game[PileState]):
    name = "NAME"
    title = "Pile"
    min_players = 2
    max_players = 3
    options_type = PileOptions

    def random_setup(self, players, options, rng):
        return {}

    def from_setup(self, players, options, setup, rng):
        return PileState(self, players, options)

    def state_from_position(self, data):
        raise NotImplementedError


GAME = PileGame()
"""


def _plugin(tmp_path: Path, module: str, text: str) -> None:
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(text), encoding="utf-8")


def _entry(name: str, value: str) -> metadata.EntryPoint:
    return metadata.EntryPoint(name=name, value=value, group=registry.ENTRY_POINT_GROUP)


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[metadata.EntryPoint]:
    """An empty registry, not yet discovered, whose entry points are the returned list."""
    entries: list[metadata.EntryPoint] = []
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_PROBLEMS", {})
    monkeypatch.setattr(registry, "_discovered", False)
    monkeypatch.setattr(registry, "_entry_points", lambda: list(entries))
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith("fake_plugin")]:
        monkeypatch.delitem(sys.modules, name)
    return entries


def test_a_plugin_named_by_an_entry_point_is_a_game(
    fresh_registry: list[metadata.EntryPoint], tmp_path: Path
) -> None:
    _plugin(tmp_path, "fake_plugin_pile", TOY_GAME.replace('"NAME"', '"pile"'))
    fresh_registry.append(_entry("pile", "fake_plugin_pile:GAME"))
    assert "fake_plugin_pile" not in sys.modules  # nothing is imported before it is needed
    game = campfire.get_game("pile")
    assert isinstance(game, Game) and game.title == "Pile"
    assert [g.name for g in campfire.all_games()] == ["pile"]
    state = game.new_game(2, seed=1)
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    assert state.outcome().winners == (0,)  # 2 + 2 + 1: the first seat takes the last one
    assert registry.plugin_errors() == []


def test_a_broken_plugin_is_reported_by_name_and_the_others_still_load(
    fresh_registry: list[metadata.EntryPoint], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _plugin(tmp_path, "fake_plugin_good", TOY_GAME.replace('"NAME"', '"good"'))
    _plugin(tmp_path, "fake_plugin_raises", "raise RuntimeError('the deck is missing')\n")
    _plugin(tmp_path, "fake_plugin_object", "GAME = 'a string, not a game'\n")
    _plugin(tmp_path, "fake_plugin_renamed", TOY_GAME.replace('"NAME"', '"other"'))
    fresh_registry.extend(
        [
            _entry("broken", "fake_plugin_raises:GAME"),
            _entry("good", "fake_plugin_good:GAME"),
            _entry("missing", "fake_plugin_absent:GAME"),
            _entry("object", "fake_plugin_object:GAME"),
            _entry("renamed", "fake_plugin_renamed:GAME"),
        ]
    )
    with caplog.at_level(logging.ERROR, logger="campfire.core.registry"):
        assert [g.name for g in campfire.all_games()] == ["good"]
    problems = {p.name: p for p in registry.plugin_errors()}
    assert sorted(problems) == ["broken", "missing", "object", "renamed"]
    assert problems["broken"].problem == "RuntimeError: the deck is missing"
    assert problems["missing"].problem.startswith("ModuleNotFoundError")
    assert "not a campfire.core.Game" in problems["object"].problem
    assert "named 'renamed' but the game 'other'" in problems["renamed"].problem
    message = str(problems["broken"].message())
    assert message.startswith("the game plugin 'broken' (entry point fake_plugin_raises:GAME")
    assert "RuntimeError: the deck is missing" in message
    assert sorted(r.getMessage().split("'")[1] for r in caplog.records) == sorted(problems)
    # asking for a broken game by name says why it is not there
    with pytest.raises(UnknownGameError, match=r"the game plugin 'broken' .* could not be loaded"):
        campfire.get_game("broken")
    with pytest.raises(UnknownGameError, match="unknown game 'chess'; known games: good"):
        campfire.get_game("chess")


def test_entry_points_are_read_once(fresh_registry: list[metadata.EntryPoint]) -> None:
    assert campfire.all_games() == []
    fresh_registry.append(_entry("late", "fake_plugin_late:GAME"))  # after discovery: unseen
    assert campfire.all_games() == [] and registry.plugin_errors() == []


def test_a_game_registered_by_hand_keeps_its_name_against_a_plugin(
    fresh_registry: list[metadata.EntryPoint], tmp_path: Path
) -> None:
    _plugin(tmp_path, "fake_plugin_twin", TOY_GAME.replace('"NAME"', '"twin"'))
    namespace: dict[str, object] = {}
    exec(compile(TOY_GAME.replace('"NAME"', '"twin"'), "<twin>", "exec"), namespace)
    twin = namespace["GAME"]
    assert isinstance(twin, Game)
    registry.register(twin)
    fresh_registry.append(_entry("twin", "fake_plugin_twin:GAME"))
    assert campfire.get_game("twin") is twin  # the plugin of the same name is refused
    problem = registry.plugin_errors()[0]
    assert problem.name == "twin" and "already registered" in problem.problem


def test_the_built_in_games_are_the_entry_points_of_pyproject() -> None:
    # pyproject.toml is the one list of the built-in games; the metadata of the installed
    # package (what importlib.metadata reads) is made from it
    with (ROOT / "pyproject.toml").open("rb") as f:
        declared = tomllib.load(f)["project"]["entry-points"][registry.ENTRY_POINT_GROUP]
    installed = {e.name: e.value for e in metadata.entry_points(group=registry.ENTRY_POINT_GROUP)}
    assert {k: v for k, v in installed.items() if k in declared} == declared
    for name, value in declared.items():
        game = campfire.get_game(name)
        assert game.name == name
        assert value == f"{type(game).__module__.rpartition('.')[0]}:GAME"
    assert registry.plugin_errors() == []


def test_nothing_imports_the_games_to_register_them() -> None:
    # the games package lists no game, and no module outside a game's package imports a game:
    # the registry finds them through their entry points
    src = ROOT / "src" / "campfire"
    assert "import" not in (src / "games" / "__init__.py").read_text(encoding="utf-8")
    found = []
    for path in sorted(src.rglob("*.py")):
        if path.is_relative_to(src / "games"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] if node.level == 0 else []
                if node.level == 1 and path.parent == src and node.module == "games":
                    names = ["campfire.games"]
                names += [f"{node.module}.{a.name}" for a in node.names if node.level == 0]
            found += [
                f"{path.relative_to(src)}: {n}" for n in names if n.startswith("campfire.games")
            ]
    assert found == []
