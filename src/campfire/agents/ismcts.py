"""Information-set Monte Carlo tree search (single-observer ISMCTS), for every game.

Each iteration draws a determinisation of the current position from the agent's information
(:meth:`Observation.sample`), descends a tree shared by all determinisations with UCT selection
(counting a child's *availability* rather than its parent's visits), expands one action, finishes
the game with a rollout (random, or the game's heuristic bot), and backs the result up as a reward
per seat. The move played is the most visited child of the root.

Rewards are multi-player: each node keeps the reward of the seat that chose its action, so every
seat maximises its own result.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from campfire.core import Action, Agent, AgentConfig, Observation, Outcome, State, option

__all__ = ["ISMCTSAgent", "ISMCTSConfig", "reward_vector"]


@dataclass(frozen=True)
class ISMCTSConfig(AgentConfig):
    """Parameters of the ISMCTS agent."""

    iterations: int = option(500, help="search iterations per move (when seconds is 0)")
    seconds: float = option(0.0, help="time per move in seconds (0: use iterations)")
    exploration: float = option(0.7, help="UCT exploration constant")
    rollout: str = option(
        "auto",
        choices=("auto", "random", "heuristic"),
        help="policy that finishes simulated games (auto: the game's heuristic bot if it has one)",
    )
    reward: str = option(
        "mixed", choices=("win", "rank", "mixed"), help="win share, rank, or their mean"
    )
    max_rollout: int = option(10_000, help="most actions in one rollout")
    memory: str = option(
        "perfect", help="how well the seat remembers (games with memory): perfect, none, N, N/D"
    )

    def validate(self) -> None:
        """Budgets must be positive."""
        from campfire.core import OptionError

        if self.iterations < 1:
            raise OptionError("iterations must be at least 1")
        if self.seconds < 0 or self.exploration < 0 or self.max_rollout < 1:
            raise OptionError("seconds and exploration must be ≥ 0 and max_rollout ≥ 1")


def reward_vector(outcome: Outcome, kind: str = "mixed") -> list[float]:
    """Rewards in [0, 1] per seat: the win share, the normalised rank, or their mean.

    >>> reward_vector(Outcome.from_scores([3, 9, 9]), "win")
    [0.0, 0.5, 0.5]
    >>> reward_vector(Outcome.from_scores([3, 9, 1]), "rank")
    [0.5, 1.0, 0.0]
    """
    n = len(outcome.scores)
    wins = outcome.win_shares()
    ranks = [(n - r) / (n - 1) if n > 1 else 1.0 for r in outcome.ranks]
    if kind == "win":
        return list(wins)
    if kind == "rank":
        return ranks
    return [(w + r) / 2 for w, r in zip(wins, ranks, strict=True)]


class _Node:
    __slots__ = ("avail", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat whose action led to this node
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS with UCT, multi-player rewards and random or heuristic rollouts."""

    name = "ismcts"
    description = "information-set Monte Carlo tree search"
    config_type = ISMCTSConfig
    config: ISMCTSConfig

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._rollout_agents: dict[int, Agent] | None = None
        self.last_iterations = 0

    def _rollout_policy(self, state: State, seat: int, legal: list[Action]) -> Action:
        if self.config.rollout != "random":
            agents = self._rollout_agents
            if agents is None:
                factory = self.game.agents().get("heuristic")
                if factory is None:
                    self._rollout_agents = agents = {}
                else:
                    agents = self._rollout_agents = {
                        s: factory(
                            self.game, s, self.num_players, self.options, seed=self.seed + 1 + s
                        )
                        for s in range(self.num_players)
                    }
            agent = agents.get(seat)
            if agent is not None:
                return agent.act(Observation(state, seat, agent.belief))
        return legal[self.rng.randrange(len(legal))]

    def act(self, obs: Observation) -> Action:
        """Search and return the most visited action."""
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        cfg = self.config
        rng = self.rng
        root = _Node(-1)
        c = cfg.exploration
        deadline = time.perf_counter() + cfg.seconds if cfg.seconds > 0 else None
        iterations = 0
        while True:
            if deadline is None:
                if iterations >= cfg.iterations:
                    break
            elif iterations > 0 and time.perf_counter() >= deadline:
                break
            iterations += 1
            state = obs.sample(rng)
            node = root
            path = [root]
            first = True
            # selection and expansion
            while not state.is_terminal():
                seat = obs.seat if first else state.seats_to_act()[0]
                first = False
                actions = state.legal_actions(seat)
                children = node.children
                untried = []
                for a in actions:
                    child = children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.avail += 1
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    child = _Node(seat)
                    child.avail = 1
                    children[action] = child
                    state.apply(seat, action)
                    path.append(child)
                    break
                best_value = -1.0
                best_action = actions[0]
                for a in actions:
                    ch = children[a]
                    value = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if value > best_value:
                        best_value, best_action = value, a
                node = children[best_action]
                state.apply(seat, best_action)
                path.append(node)
            # rollout
            steps = 0
            while not state.is_terminal() and steps < cfg.max_rollout:
                seats = state.seats_to_act()
                seat = seats[0]
                moves = state.legal_actions(seat)
                state.apply(seat, self._rollout_policy(state, seat, moves))
                steps += 1
            if state.is_terminal():
                rewards = reward_vector(state.outcome(), cfg.reward)
            else:  # cut off: score the position as a draw
                rewards = [0.5] * self.num_players
            for n in path[1:]:
                n.visits += 1
                n.reward += rewards[n.seat]
        self.last_iterations = iterations
        best = max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)
        return best
