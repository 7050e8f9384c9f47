"""Train a small policy for two-player Tracker against the random agent (REINFORCE, numpy).

The learner plays seat 0 of ``campfire.adapters.gymnasium.CampfireEnv``; it sees only the
observation vector (its view and its memory of its own peeks) and the action mask. The policy is
linear in *action features*: for an action on a board position (peek, take, lift, drop) the 13
board channels of that position, for every action kind a few global features (trackers, step,
how many enemy scouts the seat remembers), so what it learns about one position carries over to
all 60. Training is plain REINFORCE with a running-mean baseline. Every ``--eval-every``
episodes the greedy policy plays ``--eval-games`` games against ``random`` and ``heuristic``;
the win rates go to a JSON file and a plot.

    .venv/bin/python examples/rl/train_tracker.py --out examples/rl

(about four minutes on one CPU core). See ``docs/adapters.md`` for the measured figures.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from campfire.adapters.gymnasium import CampfireEnv

POSITIONS = 60
CHANNELS = 13
# action kinds: peek, take, lift, drop (positional), track 1/2/3, done, decline
KINDS = 9


def _layout(env: CampfireEnv) -> dict[str, tuple[int, tuple[int, ...]]]:
    enc = env.session.encoder if env.session is not None else None
    assert enc is not None
    return {s.name: (s.offset, s.shape) for s in (enc.slot(n) for n, _, _ in enc.slots)}


def kind_of(index: int) -> tuple[int, int | None]:
    """The kind of an action index and its board position (``None``: not positional)."""
    if index < 240:
        return index // 60, index % 60
    return 4 + (index - 240), None


class Policy:
    """Softmax over legal actions of θ·φ(s, a)."""

    def __init__(self, global_size: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.local = np.zeros((4, CHANNELS + 1))  # positional kinds × (channels + bias)
        self.glob = np.zeros((KINDS, global_size))

    def features(self, obs: np.ndarray, layout: dict[str, tuple[int, tuple[int, ...]]]):
        """The board (60 × 13 channels) and the global features, from the observation."""
        board_off, _ = layout["board"]
        board = obs[board_off : board_off + POSITIONS * CHANNELS].reshape(POSITIONS, CHANNELS)
        parts = [
            obs[layout[name][0] : layout[name][0] + int(np.prod(layout[name][1]))]
            for name in ("phase", "step", "counts", "turn")
        ]
        remembered = board[:, 5:11].sum()  # enemy scouts (of a player's tribe or nobody's)
        own = board[:, 4].sum()
        g = np.concatenate([*parts, [remembered / 5, own / 3, board[:, 0].mean(), 1.0]])
        return board, g

    def scores(self, board: np.ndarray, g: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """θ·φ(s, a) for every legal action."""
        out = np.empty(len(legal))
        for i, a in enumerate(legal):
            k, pos = kind_of(int(a))
            s = self.glob[k] @ g
            if pos is not None:
                s += self.local[k, :CHANNELS] @ board[pos] + self.local[k, CHANNELS]
            out[i] = s
        return out

    def probs(self, board, g, legal) -> np.ndarray:
        """The softmax policy over the legal actions."""
        z = self.scores(board, g, legal)
        z -= z.max()
        p = np.exp(z)
        return p / p.sum()

    def grad_step(self, trajectory, advantage: float, lr: float) -> None:
        """One REINFORCE update: lr · advantage · ∇ log π(a|s) for every step of an episode."""
        for board, g, legal, chosen in trajectory:
            p = self.probs(board, g, legal)
            for i, a in enumerate(legal):
                coef = lr * advantage * ((1.0 if i == chosen else 0.0) - p[i])
                if abs(coef) < 1e-12:
                    continue
                k, pos = kind_of(int(a))
                self.glob[k] += coef * g
                if pos is not None:
                    self.local[k, :CHANNELS] += coef * board[pos]
                    self.local[k, CHANNELS] += coef


def play(env: CampfireEnv, policy: Policy, seed: int, greedy: bool):
    """Play one game; the learner's steps and its total reward."""
    obs, _ = env.reset(seed=seed)
    layout = _layout(env)
    trajectory = []
    reward, done = 0.0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        board, g = policy.features(obs["observation"], layout)
        p = policy.probs(board, g, legal)
        i = int(np.argmax(p)) if greedy else int(policy.rng.choice(len(legal), p=p))
        trajectory.append((board, g, legal, i))
        obs, r, terminated, truncated, _ = env.step(legal[i])
        reward += r
        done = terminated or truncated
    return trajectory, reward


def evaluate(policy: Policy, opponent: str, games: int, seed: int) -> float:
    """The greedy policy's win rate (a draw counts half) against ``opponent``."""
    env = CampfireEnv("tracker", players=2, opponents=opponent)
    wins = 0.0
    for k in range(games):
        _, reward = play(env, policy, seed + k, greedy=True)
        wins += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
    return wins / games


def main() -> None:
    """Train, evaluate on the way, write the JSON figures and the plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--eval-every", type=int, default=200)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("examples/rl"))
    args = parser.parse_args()

    env = CampfireEnv("tracker", players=2, opponents="random")
    env.reset(seed=args.seed)
    _, g = Policy(1, 0).features(np.zeros(env.observation_space["observation"].shape), _layout(env))
    policy = Policy(len(g), args.seed)
    baseline = 0.0
    history: list[dict[str, float]] = []
    start = time.time()

    def checkpoint(episode: int) -> None:
        row = {
            "episode": episode,
            "vs_random": evaluate(policy, "random", args.eval_games, 10_000_000),
            "vs_heuristic": evaluate(policy, "heuristic", args.eval_games, 20_000_000),
            "seconds": round(time.time() - start, 1),
        }
        history.append(row)
        print(json.dumps(row), flush=True)

    checkpoint(0)
    for episode in range(1, args.episodes + 1):
        trajectory, reward = play(env, policy, args.seed * 1_000_003 + episode, greedy=False)
        policy.grad_step(trajectory, reward - baseline, args.lr / max(1, len(trajectory)) * 10)
        baseline += 0.02 * (reward - baseline)
        if episode % args.eval_every == 0:
            checkpoint(episode)

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "tracker_reinforce.json").write_text(json.dumps(history, indent=1) + "\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6))
    episodes = [r["episode"] for r in history]
    ax.plot(episodes, [r["vs_random"] for r in history], marker="o", label="vs random")
    ax.plot(episodes, [r["vs_heuristic"] for r in history], marker="s", label="vs heuristic")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("training episodes (against random)")
    ax.set_ylabel(f"win rate, greedy policy ({args.eval_games} games)")
    ax.set_ylim(0, 1)
    ax.set_title("Tracker, 2 players: linear REINFORCE policy")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out / "tracker_reinforce.png", dpi=110)


if __name__ == "__main__":
    main()
