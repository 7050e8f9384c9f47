"""An agent cannot read the true state through its observation, by construction.

A deliberately cheating agent searches everything reachable from its :class:`Observation` —
attributes, ``__dict__``, slots, closures, the garbage collector's referents of every object the
observation owns — for game states and plays "perfectly" from what it finds. The observation
holds only a world drawn from the seat's information, so what it finds is no better than a
determinisation of its own: its guesses of the hidden cards match the truth no more often than an
honest sample does, and never the true state itself or any part of it.
"""

from __future__ import annotations

import enum
import gc
import pickle
import random
import types
from pathlib import Path
from typing import Any

import pytest

import campfire
from campfire.core import Action, Agent, Belief, Game, Observation, State, visible_events
from campfire.games.tracker.cards import is_scout, parse_card, tribe_of
from tests.built_in import built_in_games

#: the games whose positions' hidden parts :func:`_hidden` knows (the built-in ones)
GAMES = built_in_games()
#: code and constants, not data: classes, modules, functions, and enum members (the action
#: kinds, singletons of the game's code like its classes)
_SKIP = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.CodeType,
    enum.Enum,
)


def reachable(root: object) -> dict[int, object]:
    """Every object reachable from ``root`` through references (not through code or classes)."""
    found: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in found or isinstance(obj, _SKIP):
            continue
        found[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
        for name in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, name):
                stack.append(getattr(obj, name))
        if isinstance(obj, types.MethodType):
            stack.append(obj.__self__)
    return found


def _mutable(obj: object) -> bool:
    if isinstance(obj, (list, dict, set, bytearray, State)):
        return True
    return hasattr(obj, "__dict__") and not isinstance(obj, _SKIP)


class CheatingAgent(Agent):
    """Digs through its observation for a game state; plays from it as if it were the truth."""

    name = "cheater"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.found: list[State] = []

    def act(self, obs: Observation) -> Action:
        """Play "perfectly" from the first state found, else at random."""
        states = [o for o in reachable(obs).values() if isinstance(o, State)]
        self.found.extend(states)
        legal = obs.legal_actions
        if states and obs.game.name == "tracker":
            return self._tracker_perfect(states[0], obs.seat, legal)
        return legal[self.rng.randrange(len(legal))]

    def _tracker_perfect(self, world: State, seat: int, legal: list[Action]) -> Action:
        """Take the enemy scouts the found board shows (a winning line if the board were true)."""
        board = world.to_position()["state"]["board"]
        tribe = world.to_position()["state"]["tribes"][seat]
        for action in legal:
            if action.kind == "take":  # type: ignore[attr-defined]
                name = board[action.arg]  # type: ignore[attr-defined]
                card = parse_card(name)
                if is_scout(card) and f"T{tribe_of(card)}" != tribe:
                    return action
        for action in legal:
            if action.kind == "track":  # type: ignore[attr-defined]
                return action
        return legal[self.rng.randrange(len(legal))]


def _hidden(game: str, position: dict[str, Any], seat: int) -> list[Any]:
    """The hidden cards of a position from ``seat``'s side, one slot each."""
    s = position["state"]
    others = [p for p in range(len(s.get("hands", []))) if p != seat]
    if game == "tracker":
        return [c for c in s["board"] if c is not None]
    if game == "dudab":
        return [c for p in others for c in s["hands"][p]] + list(s["draw"])
    if game == "manitou":
        return [c for p in others for c in s["hands"][p] + s["decks"][p]] + list(s["bag"])
    return list(s["deck"])


def _hits(guess: list[Any], truth: list[Any]) -> tuple[int, int]:
    assert len(guess) == len(truth)
    return sum(g == t for g, t in zip(guess, truth, strict=True)), len(truth)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_cheating_agent_finds_only_a_world_drawn_from_its_own_knowledge(game: Game[Any]) -> None:
    players = 3
    cheat_hits = honest_hits = slots = decisions = 0
    for seed in range(3):
        state = game.new_game(players, seed=seed)
        cheater = CheatingAgent(game, 0, players, state.options, seed=seed)
        cheater.belief = Belief(0)  # no memory: every hidden card is equally unknown
        obs_rng = random.Random(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and decisions < 60 * (seed + 1):
            seat = state.seats_to_act()[0]
            if seat == 0:
                truth = state.to_position()
                true_parts = reachable(state)
                obs = Observation.of(state, 0, cheater.belief, obs_rng)
                cheater.found.clear()
                action = cheater.act(obs)
                assert cheater.found, "the observation holds a world for searches"
                # never the true state, nor any mutable part of it except public objects: the
                # game, its options and what the spectator's view holds (Dudab's last-round
                # report is shared by reference between a state and its copies)
                public = (
                    reachable(state.game) | reachable(state.options) | reachable(state.view(None))
                )
                shared = [
                    o
                    for i, o in reachable(obs).items()
                    if i in true_parts and i not in public and _mutable(o)
                ]
                assert not shared, shared[:3]
                assert all(w is not state for w in cheater.found)
                hidden = _hidden(game.name, truth, 0)
                found = _hidden(game.name, cheater.found[0].to_position(), 0)
                honest = _hidden(game.name, state.determinize(0, rng).to_position(), 0)
                hits, n = _hits(found, hidden)
                cheat_hits += hits
                honest_hits += _hits(honest, hidden)[0]
                slots += n
                decisions += 1
            else:
                legal = state.legal_actions(seat)
                action = legal[rng.randrange(len(legal))]
            events = state.apply(seat, action)
            cheater.observe(visible_events(events, 0))
    assert decisions >= 30 and slots > 0
    # a cheater that read the true state would score 1.0; it does no better than honest sampling
    assert cheat_hits / slots <= honest_hits / slots + 0.05
    assert cheat_hits / slots < 0.5


def test_the_cheater_would_find_a_state_held_by_reference() -> None:
    """The search is not blind: an object that kept the true state would give it away."""

    class Leaky:
        def __init__(self, state: State) -> None:
            self._state = state

    state = campfire.get_game("tracker").new_game(2, seed=1)
    found = [o for o in reachable(Leaky(state)).values() if isinstance(o, State)]
    assert found == [state]
    leaky_closure = (lambda: state).__closure__
    assert any(o is state for o in reachable(leaky_closure).values())


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_two_true_states_the_seat_cannot_tell_apart_give_the_same_observation(
    game: Game[Any],
) -> None:
    """Everything an observation holds depends only on the seat's information and ``rng``."""
    rng = random.Random(5)
    state = game.new_game(3, seed=5)
    compared = 0
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.seats_to_act()[0]
        other = state.determinize(seat, random.Random(compared))  # same information, other cards
        a = Observation.of(state, seat, rng=random.Random(9))
        b = Observation.of(other, seat, rng=random.Random(9))
        assert a.view == b.view and a.legal_actions == b.legal_actions
        assert pickle.dumps(a.sample(random.Random(3))) == pickle.dumps(b.sample(random.Random(3)))
        assert pickle.dumps(a._world) == pickle.dumps(b._world)
        compared += 1
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    assert compared > 10


def test_only_a_search_hands_its_own_simulated_world_to_an_observation() -> None:
    """``Observation.of_world`` skips the draw, so no driver of a real game may use it."""
    src = Path(campfire.__file__).parent
    users = sorted(
        str(p.relative_to(src))
        for p in src.rglob("*.py")
        if "of_world(" in p.read_text(encoding="utf-8")
    )
    assert users == ["agents/ismcts.py", "core/agent.py"]
