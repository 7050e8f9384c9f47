"""The batched environments (campfire.adapters.vector): the same games as one Session each."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import campfire
from campfire.adapters.session import Session
from campfire.adapters.vector import (
    Batch,
    CampfireVectorEnv,
    VectorGames,
    game_seed,
    random_actions,
)
from campfire.core import IllegalActionError, OptionError

GAMES = [g.name for g in campfire.all_games()]


def _random_actions(batch: Batch, rng: random.Random) -> list[int]:
    return [rng.choice(np.flatnonzero(row).tolist()) for row in batch.action_masks]


class _Mirror:
    """The batch's games played one by one through Sessions (what the batch must equal)."""

    def __init__(self, game: str, n: int, players: int, seed: int) -> None:
        self.game, self.players, self.seed = game, players, seed
        self.numbers = [0] * n
        self.sessions = [Session(game, players, seed=game_seed(seed, i, 0)) for i in range(n)]

    def step(self, actions: list[int]) -> tuple[list[list[float]], list[bool], list[bool]]:
        rewards, terminated, truncated = [], [], []
        for i, index in enumerate(actions):
            session = self.sessions[i]
            seat = session.current_seat()
            assert seat is not None
            session.apply(seat, index)  # the checked path
            over = session.is_over()
            rewards.append(session.returns() if over else [0.0] * self.players)
            terminated.append(over and session.state.is_terminal())
            truncated.append(over and not session.state.is_terminal())
            if over:
                self.numbers[i] += 1
                seed = game_seed(self.seed, i, self.numbers[i])
                self.sessions[i] = Session(self.game, self.players, seed=seed)
        return rewards, terminated, truncated

    def check(self, batch: Batch) -> None:
        for i, session in enumerate(self.sessions):
            seat = session.current_seat()
            assert seat is not None
            assert batch.seats[i] == seat
            assert np.array_equal(batch.observations[i], session.observation(seat))
            assert np.array_equal(batch.action_masks[i], session.legal_mask(seat))


@pytest.mark.parametrize("name", GAMES)
def test_every_game_of_a_batch_is_the_game_a_session_plays(name: str) -> None:
    """Observations, masks, seats, rewards and flags equal those of one Session per game,
    through finished games and the same-step resets that follow them."""
    n, players, seed = 6, 2, 5
    games = VectorGames(name, n, players, seed=seed)
    mirror = _Mirror(name, n, players, seed)
    batch = games.reset()
    mirror.check(batch)
    rng = random.Random(1)
    ended = 0
    for _ in range(4000):
        actions = _random_actions(batch, rng)
        batch = games.step(np.array(actions))
        rewards, terminated, truncated = mirror.step(actions)
        assert np.allclose(batch.rewards, np.array(rewards, dtype=np.float32))
        assert batch.terminated.tolist() == terminated
        assert batch.truncated.tolist() == truncated
        mirror.check(batch)
        ended += sum(terminated) + sum(truncated)
        if ended >= n + 2:  # every slot went through a reset, or nearly
            break
    assert ended >= n + 2
    assert games.games_finished == ended
    assert batch.observations.dtype == np.float32 and batch.action_masks.dtype == np.int8


def test_the_same_seed_and_actions_give_the_same_trajectories() -> None:
    name = GAMES[0]

    def trajectory(seed: int) -> list[Any]:
        games = VectorGames(name, 4, 2, seed=seed)
        batch = games.reset()
        rng = random.Random(7)
        out: list[Any] = []
        for _ in range(60):
            actions = _random_actions(batch, rng)
            batch = games.step(actions)
            out.append((actions, batch.observations.tobytes(), batch.rewards.tobytes()))
        return out

    assert trajectory(3) == trajectory(3)
    assert trajectory(3) != trajectory(4)
    # reset(seed) starts the same games again
    games = VectorGames(name, 4, 2, seed=9)
    first = games.reset(seed=3).observations
    assert np.array_equal(first, VectorGames(name, 4, 2, seed=3).reset().observations)


def test_an_illegal_action_moves_no_game_and_says_what_is_legal() -> None:
    name = GAMES[0]
    games = VectorGames(name, 3, 2, seed=2)
    batch = games.reset()
    rng = random.Random(0)
    actions = _random_actions(batch, rng)
    bad = int(np.flatnonzero(batch.action_masks[1] == 0)[0])
    actions[1] = bad
    moves = [s.moves for s in games.sessions]
    with pytest.raises(IllegalActionError) as refused:
        games.step(actions)
    assert f"game 1: action index {bad} is not legal" in str(refused.value)
    assert "the legal ones are [" in str(refused.value)
    assert [s.moves for s in games.sessions] == moves  # no game moved, not even game 0
    with pytest.raises(OptionError, match="3 integer action indices"):
        games.step([0, 1])
    with pytest.raises(OptionError, match="integer"):
        games.step([0.5, 1.0, 2.0])  # type: ignore[list-item]
    with pytest.raises(OptionError, match="integer"):
        games.step(np.array([True, False, True]))  # bools are not action indices
    assert [s.moves for s in games.sessions] == moves
    for wrong in (0, -1, True, 10**6):
        with pytest.raises(OptionError, match="num_envs"):
            VectorGames(name, wrong, 2)


def test_random_actions_draw_each_legal_action_alike_and_nothing_else() -> None:
    masks = np.zeros((3, 6), dtype=np.int8)
    masks[0, [1, 4]] = 1
    masks[1, :] = 1
    masks[2, 5] = 1
    rng = np.random.default_rng(11)
    seen = np.zeros_like(masks, dtype=np.int64)
    draws = 6000
    for _ in range(draws):
        picked = random_actions(masks, rng)
        assert picked.dtype == np.int64
        seen[np.arange(3), picked] += 1
    assert not seen[masks == 0].any()  # never an illegal action
    # each legal action of a row about equally often: within 5 standard deviations
    for row in range(3):
        legal = np.flatnonzero(masks[row])
        expected = draws / len(legal)
        spread = 5 * (draws * (1 / len(legal)) * (1 - 1 / len(legal))) ** 0.5
        assert all(abs(seen[row, i] - expected) <= spread for i in legal), seen[row]
    # the same generator state gives the same actions; a row with no legal action is refused
    again = [random_actions(masks, np.random.default_rng(5)).tolist() for _ in range(2)]
    assert again[0] == again[1]
    masks[2, 5] = 0
    with pytest.raises(OptionError, match="legal action"):
        random_actions(masks, rng)
    masks[2, 5] = 1
    for empty in (0, 1):  # the first row or one between, empty, is refused as well
        holed = masks.copy()
        holed[empty] = 0
        with pytest.raises(OptionError, match="legal action"):
            random_actions(holed, rng)
    with pytest.raises(OptionError, match="legal action"):
        random_actions(np.zeros((2, 0), dtype=np.int8), rng)  # rows with no slot at all
    assert random_actions(np.zeros((0, 6), dtype=np.int8), rng).shape == (0,)  # no row


def test_random_actions_read_any_mask_type_alike() -> None:
    """Bools, int8 and other numbers: a nonzero entry is legal, and the picks are the same."""
    masks = (np.random.default_rng(3).random((5, 40)) < 0.2).astype(np.int8)
    masks[:, 7] = 1  # every row has a legal action
    picks = [
        random_actions(m, np.random.default_rng(9)).tolist()
        for m in (masks, masks.astype(np.bool_), masks * 3, masks.astype(np.uint16))
    ]
    assert picks[0] == picks[1] == picks[2] == picks[3]
    assert masks[np.arange(5), picks[0]].all()


def test_random_actions_play_whole_batches_of_every_game() -> None:
    for name in GAMES:
        games = VectorGames(name, 4, 2, seed=1)
        batch = games.reset()
        rng = np.random.default_rng(1)
        for _ in range(50):
            actions = random_actions(batch.action_masks, rng)
            assert batch.action_masks[np.arange(4), actions].all()
            batch = games.step(actions)


@pytest.mark.parametrize("name", GAMES)
def test_encode_state_into_writes_what_encode_state_gives(name: str) -> None:
    session = Session(name, 2, seed=4)
    encoder = session.encoder
    rng = random.Random(2)
    while (seat := session.current_seat()) is not None:
        rows = np.tile(encoder.blank, (2, 1))
        flat = rows.data.cast("B").cast("f")
        belief = session.beliefs[seat]
        encoder.encode_state_into(session.state, seat, belief, flat[encoder.size :])
        assert np.array_equal(rows[1], encoder.encode_state(session.state, seat, belief))
        assert np.array_equal(rows[0], encoder.blank)  # the other row untouched
        session.apply_index(seat, rng.choice(session.legal(seat)))


def test_apply_legal_at_plays_the_legal_action_at_that_position_and_nothing_else() -> None:
    session = Session(GAMES[0], 2, seed=3)
    seat = session.current_seat()
    assert seat is not None
    legal = session.legal_indices(seat)
    for wrong in (-1, len(legal)):
        with pytest.raises(IndexError, match="no legal action at position"):
            session.apply_legal_at(seat, wrong)
    assert session.moves == 0
    other = Session(GAMES[0], 2, seed=3)
    assert session.apply_legal_at(seat, len(legal) - 1) == other.apply(seat, legal[-1])
    assert session.state.view(seat) == other.state.view(seat)


def test_apply_index_refuses_what_apply_refuses() -> None:
    session = Session(GAMES[0], 2, seed=1)
    seat = session.current_seat()
    assert seat is not None
    other = 1 - seat
    with pytest.raises(IllegalActionError, match="turn order"):
        session.apply_index(other, session.legal(seat)[0])
    illegal = next(i for i in range(session.num_actions) if i not in session.legal(seat))
    with pytest.raises(IllegalActionError, match="not legal"):
        session.apply_index(seat, illegal)
    with pytest.raises(IllegalActionError, match="integer index"):
        session.apply_index(seat, 1.0)  # type: ignore[arg-type]
    assert session.moves == 0
    session.apply_index(seat, np.int64(session.legal(seat)[0]))  # a NumPy integer is fine
    assert session.moves == 1


def test_the_gymnasium_vector_env_steps_a_learner_in_every_game() -> None:
    name = GAMES[-1]
    env = CampfireVectorEnv(name, 3, players=2, seat=0, opponents="random")
    obs, _ = env.reset(seed=11)
    assert obs["observation"].shape[0] == 3
    assert env.single_observation_space["observation"].shape == obs["observation"].shape[1:]
    assert env.observation_space.contains(obs)
    rng = random.Random(3)
    finished = 0
    for _ in range(3000):
        actions = np.array([rng.choice(np.flatnonzero(m).tolist()) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert rewards.shape == (3,) and terminated.shape == (3,)
        ended = terminated | truncated
        if ended.any():
            assert list(infos["_final_obs"]) == list(ended)
            for i in np.flatnonzero(ended):
                assert infos["final_obs"][i]["action_mask"].shape == (env.single_action_space.n,)
            assert all(-1.0 <= r <= 1.0 for r in rewards[ended])
            finished += int(ended.sum())
        assert obs["action_mask"].sum(axis=1).min() > 0  # every game waits for the learner
        if finished >= 4:
            break
    assert finished >= 4
    # the same seed, the same first observations
    again, _ = CampfireVectorEnv(name, 3, players=2).reset(seed=11)
    first, _ = env.reset(seed=11)
    assert np.array_equal(again["observation"], first["observation"])
    with pytest.raises(OptionError, match="one seed"):
        env.reset(seed=[1, 2, 3])


def test_the_training_example_trains_and_evaluates(tmp_path: Path, capsys: Any) -> None:
    """examples/rl/train_vector.py, made tiny: it learns from finished games and reports."""
    path = Path(__file__).resolve().parents[2] / "examples" / "rl" / "train_vector.py"
    spec = importlib.util.spec_from_file_location("train_vector", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "history.json"
    argv = ["--game", GAMES[0], "--envs", "4", "--updates", "2", "--eval-every", "1"]
    assert module.main([*argv, "--eval-games", "4", "--out", str(out)]) == 0
    history = json.loads(out.read_text())["history"]
    assert [h["update"] for h in history] == [1, 2]
    assert all(-1.0 <= h["mean_reward"] <= 1.0 for h in history)
    assert "update 2: mean reward" in capsys.readouterr().out
