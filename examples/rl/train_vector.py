"""Train a linear policy for any Campfire game with the batched environment (REINFORCE, numpy).

The learner plays seat 0 of ``--envs`` games at once through
``campfire.adapters.vector.CampfireVectorEnv`` (a Gymnasium ``VectorEnv``; the other seats are
Campfire agents, ``random`` by default). The policy is a softmax over the legal actions of
``obs @ W`` (one weight per observation slot and action), sampled for the whole batch with one
NumPy call per step; training is REINFORCE on every finished game's moves with a running-mean
baseline. Every ``--eval-every`` updates the greedy policy plays ``--eval-games`` games against
the opponents on evaluation seeds (a seed range apart from training's) and the win rate is
printed, and written to ``--out`` as JSON when given.

    .venv/bin/python examples/rl/train_vector.py --game tracker --updates 200
    .venv/bin/python examples/rl/train_vector.py --game dudab --envs 128 --opponents heuristic

Seeds: training uses batch seed ``--seed``; evaluation uses ``--seed + 1_000_000 + k`` for its
``k``-th evaluation, so no evaluation game was seen in training.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from campfire.adapters.vector import CampfireVectorEnv

Array = npt.NDArray[np.float64]


def masked_softmax(logits: Array, masks: npt.NDArray[Any]) -> Array:
    """Row-wise softmax of ``logits`` over the actions ``masks`` allows."""
    shifted = np.where(masks > 0, logits, -np.inf)
    shifted -= shifted.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=1, keepdims=True)


def sample(probs: Array, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One action per row, drawn from each row's probabilities (one NumPy call)."""
    draws = rng.random((probs.shape[0], 1))
    return np.minimum((probs.cumsum(axis=1) < draws).sum(axis=1), probs.shape[1] - 1)


def evaluate(args: argparse.Namespace, weights: Array, number: int) -> float:
    """The greedy policy's mean reward over ``args.eval_games`` evaluation games (1 = all won)."""
    env = CampfireVectorEnv(args.game, args.envs, players=args.players, opponents=args.opponents)
    obs, _ = env.reset(seed=args.seed + 1_000_000 + number)
    total, games = 0.0, 0
    while games < args.eval_games:
        logits = obs["observation"] @ weights
        actions = np.where(obs["action_mask"] > 0, logits, -np.inf).argmax(axis=1)
        obs, rewards, terminated, truncated, _ = env.step(actions)
        ended = terminated | truncated
        total += float(rewards[ended].sum())
        games += int(ended.sum())
    return total / games


def train(args: argparse.Namespace) -> list[dict[str, float]]:
    """Run the training; the evaluations made (update, mean reward)."""
    env = CampfireVectorEnv(args.game, args.envs, players=args.players, opponents=args.opponents)
    rng = np.random.default_rng(args.seed)
    obs, _ = env.reset(seed=args.seed)
    size = obs["observation"].shape[1]
    actions_n = obs["action_mask"].shape[1]
    weights = np.zeros((size, actions_n))
    # per game slot: the moves of the game in progress (observation, mask, action)
    moves: list[list[tuple[Any, Any, int]]] = [[] for _ in range(args.envs)]
    baseline, history = 0.0, []
    for update in range(1, args.updates + 1):
        finished: list[tuple[list[tuple[Any, Any, int]], float]] = []
        while len(finished) < args.envs:  # about one game per slot per update
            observation, mask = obs["observation"], obs["action_mask"]
            probs = masked_softmax(observation @ weights, mask)
            chosen = sample(probs, rng)
            for i in range(args.envs):
                moves[i].append((observation[i], mask[i], int(chosen[i])))
            obs, rewards, terminated, truncated, _ = env.step(chosen)
            for i in np.flatnonzero(terminated | truncated):
                finished.append((moves[i], float(rewards[i])))
                moves[i] = []
        gradient = np.zeros_like(weights)
        for game_moves, reward in finished:
            advantage = reward - baseline
            for observation, mask, action in game_moves:
                probs = masked_softmax((observation @ weights)[None, :], mask[None, :])[0]
                grad_logits = -probs
                grad_logits[action] += 1.0
                gradient += advantage * np.outer(observation, grad_logits)
        baseline = 0.9 * baseline + 0.1 * float(np.mean([r for _, r in finished]))
        weights += args.lr * gradient / len(finished)
        if update % args.eval_every == 0 or update == args.updates:
            score = evaluate(args, weights, update)
            history.append({"update": update, "mean_reward": score})
            print(f"update {update}: mean reward {score:+.3f} against {args.opponents}")
    return history


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, train, print the evaluations (and write them with ``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tracker")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--envs", type=int, default=64, help="games per batch")
    parser.add_argument("--updates", type=int, default=100)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--eval-every", type=int, default=20)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="write the evaluations as JSON")
    args = parser.parse_args(argv)
    if args.envs < 1 or args.updates < 1 or args.eval_every < 1 or args.eval_games < 1:
        parser.error("--envs, --updates, --eval-every and --eval-games are at least 1")
    history = train(args)
    if args.out is not None:
        args.out.write_text(
            json.dumps({"args": vars(args) | {"out": str(args.out)}, "history": history}, indent=1)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
