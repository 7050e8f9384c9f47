"""Information-set Monte Carlo tree search (single-observer ISMCTS), for every game.

Each iteration draws a determinisation of the current position from the agent's information
(:meth:`Observation.sample`), descends a tree shared by all determinisations with UCT selection
(counting a child's *availability* rather than its parent's visits), expands one action, finishes
the game with a rollout (the game's fast rollout policy, its heuristic bot, or random moves), and
backs the result up as a reward per seat. The move played is the most visited child of the root.

Rewards are multi-player: each node keeps the reward of the seat that chose its action, so every
seat maximises its own result.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from campfire.core import (
    Action,
    ActionValue,
    Agent,
    Assessment,
    Observation,
    Outcome,
    RolloutPolicy,
    State,
    visible_events,
)
from campfire.core.draws import randbelow

# from its own module, not the package: mypyc's non-native subclass needs it imported

__all__ = [
    "DEFAULT_ITERATIONS",
    "MAX_ITERATIONS",
    "MAX_SECONDS",
    "ActionValue",
    "Assessment",
    "ISMCTSAgent",
    "ISMCTSConfig",
    "reward_vector",
]

from .ismcts_config import DEFAULT_ITERATIONS, MAX_ITERATIONS, MAX_SECONDS, ISMCTSConfig


def reward_vector(outcome: Outcome, kind: str = "mixed", scale: float | None = None) -> list[float]:
    """Rewards in [0, 1] per seat.

    ``win``: the win share; ``rank``: the normalised rank (1 for first, 0 for last); ``margin``:
    0.5 plus half the seat's lead over the best other seat, relative to the spread of the scores
    or, given a ``scale`` (a game's :attr:`RolloutPolicy.margin_scale`), ``0.5 + 0.5 ·
    tanh(lead / scale)``, which keeps telling a larger lead from a smaller one; ``mixed`` (the
    default here): half the win share, a quarter each of rank and margin, so a search prefers
    winning, then placing well, then by a larger margin (and does not gamble away a
    large score when a win looks out of reach).

    >>> reward_vector(Outcome.from_scores([3, 9, 9]), "win")
    [0.0, 0.5, 0.5]
    >>> reward_vector(Outcome.from_scores([3, 9, 1]), "rank")
    [0.5, 1.0, 0.0]
    >>> reward_vector(Outcome.from_scores([3, 9, 1]), "margin")
    [0.125, 0.875, 0.0]
    >>> [round(r, 3) for r in reward_vector(Outcome.from_scores([3, 9]), "margin", scale=6)]
    [0.119, 0.881]
    """
    n = len(outcome.scores)
    wins = outcome.win_shares()
    if kind == "win":
        return list(wins)
    ranks = [(n - r) / (n - 1) if n > 1 else 1.0 for r in outcome.ranks]
    if kind == "rank":
        return ranks
    scores = outcome.scores
    # the direction of "better" is read off the winners (lower totals win in some games)
    best = scores[outcome.winners[0]]
    sign = 1.0 if best >= max(scores) else -1.0
    spread = float(max(scores) - min(scores)) or 1.0
    margins = []
    for i, own in enumerate(scores):
        others = [sign * s for j, s in enumerate(scores) if j != i]
        lead = sign * own - max(others) if others else 0.0
        if scale:
            margins.append(0.5 + 0.5 * math.tanh(lead / scale))
        else:
            margins.append(0.5 + 0.5 * max(-1.0, min(1.0, lead / spread)))
    if kind == "margin":
        return margins
    return [0.5 * w + 0.25 * r + 0.25 * m for w, r, m in zip(wins, ranks, margins, strict=True)]


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

    def _rollout(self, state: State, obs: Observation, policy: RolloutPolicy | None) -> None:
        """Play the simulated game on, up to ``max_rollout`` actions or the policy's horizon."""
        cfg = self.config
        rng = self.rng
        limit = cfg.max_rollout
        if policy is not None and policy.horizon is not None:
            limit = min(limit, policy.horizon)
        mode = cfg.rollout
        if mode == "heuristic" and "heuristic" in self.game.agents():
            self._heuristic_rollout(state, obs, limit)
            return
        apply, is_terminal, seats_to_act = state.apply, state.is_terminal, state.seats_to_act
        after = _after_hook(policy)
        steps = 0
        if mode != "random" and policy is not None:
            act = policy.act
            while steps < limit and not is_terminal():
                seat = seats_to_act()[0]
                action = act(state, seat, rng)
                apply(seat, action)
                if after is not None:
                    after(state, seat, action)
                steps += 1
            return
        legal_actions = state.legal_actions
        while steps < limit and not is_terminal():
            seat = seats_to_act()[0]
            moves = legal_actions(seat)
            action = moves[randbelow(rng, len(moves))]
            apply(seat, action)
            if after is not None:
                after(state, seat, action)
            steps += 1

    def _heuristic_rollout(self, state: State, obs: Observation, limit: int) -> None:
        """Finish the game with the game's heuristic bot in every seat.

        Each rollout starts the bots' memories afresh (the searching seat's from its own memory)
        and feeds them the rollout's events.
        """
        if self._rollout_agents is None:
            factory = self.game.agents()["heuristic"]
            self._rollout_agents = {
                s: factory(self.game, s, self.num_players, self.options, seed=self.seed + 1 + s)
                for s in range(self.num_players)
            }
        agents = self._rollout_agents
        for s, agent in agents.items():
            agent.belief = (
                obs.belief.clone()
                if s == obs.seat
                else self.game.new_belief(s, self.num_players, self.options)
            )
        steps = 0
        while steps < limit and not state.is_terminal():
            seat = state.seats_to_act()[0]
            agent = agents[seat]
            events = state.apply(seat, agent.act(Observation.of_world(state, seat, agent.belief)))
            for s, other in agents.items():
                other.observe(visible_events(events, s))
            steps += 1

    def act(self, obs: Observation) -> Action:
        """Search and return the most visited action."""
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        root, _ = self._search(obs)
        return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)

    def assess(
        self,
        obs: Observation,
        *,
        include: Sequence[Action] = (),
        only: Sequence[Action] | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> Assessment:
        """Search as :meth:`act` does and return what the search found at the root.

        For every root action the search tried: its visits, its mean reward for the deciding
        seat (the reward the search maximises, in [0, 1]) and its mean win share (the
        estimated chance to win). ``include`` names actions the search must consider at the
        root even where the game's policy would prune them (a review needs the value of the
        move that was played); ``only`` restricts the root to the actions it names (the value of
        one move, searched on its own). ``iterations`` replaces the configured number;
        ``seconds`` bounds the search's time besides its iterations (a hint must answer
        quickly). The most visited action, :attr:`Assessment.best`, is the
        one :meth:`act` would play with the same generator. With one legal action nothing is
        searched: that action is returned with no visits.
        """
        legal = obs.legal_actions
        if len(legal) == 1:
            return Assessment([ActionValue(legal[0], 0, 0.5, 1.0 / self.num_players)], 0)
        root, wins = self._search(obs, include, seconds, only, iterations)
        entries = [
            ActionValue(a, ch.visits, ch.reward / ch.visits, wins.get(a, 0.0) / ch.visits)
            for a, ch in root.children.items()
            if ch.visits > 0 and a in legal
        ]
        order = {a: i for i, a in enumerate(legal)}
        entries.sort(key=lambda e: (-e.visits, order[e.action]))
        return Assessment(entries, self.last_iterations)

    def _search(
        self,
        obs: Observation,
        include: Sequence[Action] = (),
        seconds: float | None = None,
        only: Sequence[Action] | None = None,
        iterations_wanted: int | None = None,
    ) -> tuple[_Node, dict[Action, float]]:
        """Run the search from ``obs``: the root and the win shares summed per root action."""
        cfg = self.config
        wanted = cfg.iterations if iterations_wanted is None else iterations_wanted
        rng = self.rng
        root = _Node(-1)
        root_wins: dict[Action, float] = {}
        c = cfg.exploration
        log, sqrt = math.log, math.sqrt
        budget = cfg.seconds if cfg.seconds > 0 else None
        if seconds is not None:
            budget = seconds if budget is None else min(budget, seconds)
        deadline = time.perf_counter() + budget if budget is not None else None
        timed = cfg.seconds > 0
        rollout_policy = self.game.rollout_policy
        iterations = 0
        while True:
            if not timed and iterations >= wanted:
                break
            if deadline is not None and iterations > 0 and time.perf_counter() >= deadline:
                break
            iterations += 1
            state = obs.sample(rng)
            policy = rollout_policy(obs.seat, obs.belief)
            after = _after_hook(policy)
            prune = policy.prune if policy is not None else None
            node = root
            path = [root]
            seat = obs.seat
            first: Action | None = None
            # selection and expansion
            while not state.is_terminal():
                if node is not root:
                    seat = state.seats_to_act()[0]
                actions = state.legal_actions(seat)
                if only is not None and node is root:
                    actions = [a for a in actions if a in only] or actions
                elif prune is not None and len(actions) > 1:
                    kept = prune(state, seat, actions, rng)
                    if node is root and include:
                        kept = kept + [a for a in include if a not in kept and a in actions]
                    actions = kept
                children = node.children
                untried = []
                for a in actions:
                    child = children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.avail += 1
                if untried:
                    action = untried[randbelow(rng, len(untried))]
                    child = _Node(seat)
                    child.avail = 1
                    children[action] = child
                    if first is None:
                        first = action
                    # the search's unchecked fast path: ``state`` is its own sample, and the
                    # action one of that state's legal actions (State.apply_legal)
                    state.apply_legal(seat, action)
                    if after is not None:
                        after(state, seat, action)
                    path.append(child)
                    break
                best_value = -1.0
                best_action = actions[0]
                for a in actions:
                    ch = children[a]
                    visits = ch.visits
                    value = ch.reward / visits + c * sqrt(log(ch.avail) / visits)
                    if value > best_value:
                        best_value, best_action = value, a
                node = children[best_action]
                if first is None:
                    first = best_action
                state.apply_legal(seat, best_action)  # (legal in its own state, as above)
                if after is not None:
                    after(state, seat, best_action)
                path.append(node)
            # rollout
            self._rollout(state, obs, policy)
            scale = policy.margin_scale if policy is not None else None
            kind = cfg.reward
            if kind == "auto":
                kind = policy.reward if policy is not None and policy.reward else "mixed"
            if state.is_terminal():
                final: Outcome | None = state.outcome()
            else:  # cut off: the policy's estimate, or a draw
                final = policy.evaluate(state) if policy is not None else None
            if final is not None:
                rewards = reward_vector(final, kind, scale)
                win = final.win_shares()[obs.seat]
            else:
                rewards = [0.5] * self.num_players
                win = 1.0 / self.num_players
            for n in path[1:]:
                n.visits += 1
                n.reward += rewards[n.seat]
            if first is not None:
                root_wins[first] = root_wins.get(first, 0.0) + win
        self.last_iterations = iterations
        return root, root_wins


def _after_hook(policy: RolloutPolicy | None) -> Callable[[State, int, Action], None] | None:
    """The policy's :meth:`~RolloutPolicy.after`, or ``None`` where it does nothing.

    A policy that does not override it is not called at every step of every simulated game.
    """
    if policy is None or type(policy).after is RolloutPolicy.after:
        return None
    return policy.after
