"""core.draws makes the very draws of random.Random's own methods (and leaves it in their state)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from campfire.core import draws
from campfire.core.rng import GameRng


class _OwnRandom(random.Random):
    """A generator with its own ``random``: the standard library then draws without bits."""

    def random(self) -> float:
        return super().random()


@pytest.mark.parametrize("cls", [random.Random, GameRng, _OwnRandom])
def test_randbelow_and_choice_are_the_generators_own(cls: type[random.Random]) -> None:
    for seed in range(20):
        ours, theirs = cls(seed), cls(seed)
        for n in (1, 2, 3, 5, 7, 8, 9, 64, 65, 1000, 2**40 + 3):
            assert draws.randbelow(ours, n) == theirs.randrange(n)
            seq = list(range(n % 50 + 1))
            assert draws.choice(ours, seq) == theirs.choice(seq)
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("cls", [random.Random, GameRng, _OwnRandom])
def test_shuffle_is_the_generators_own(cls: type[random.Random]) -> None:
    for seed in range(20):
        ours, theirs = cls(seed), cls(seed)
        for length in (0, 1, 2, 3, 10, 17, 33, 114, 255, 256, 1025):
            mine, others = list(range(length)), list(range(length))
            draws.shuffle(ours, mine)
            theirs.shuffle(others)
            assert mine == others
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("cls", [random.Random, GameRng, _OwnRandom])
def test_sample_is_the_generators_own_in_both_of_its_ways(cls: type[random.Random]) -> None:
    # small populations take the pool, large ones next to k the set of drawn positions
    for seed in range(10):
        ours, theirs = cls(seed), cls(seed)
        for n, k in ((1, 1), (5, 0), (6, 6), (21, 4), (22, 5), (30, 3), (100, 6), (200, 20)):
            population = [f"x{i}" for i in range(n)]
            assert draws.sample(ours, population, k) == theirs.sample(population, k)
            assert draws.sample(ours, range(n), k) == theirs.sample(range(n), k)
        assert ours.getstate() == theirs.getstate()


def test_bad_arguments_get_the_generators_own_errors() -> None:
    rng = random.Random(1)
    with pytest.raises(IndexError, match="empty sequence"):
        draws.choice(rng, [])
    with pytest.raises(ValueError, match="empty range"):
        draws.randbelow(rng, 0)
    with pytest.raises(ValueError, match="Sample larger than population"):
        draws.sample(rng, [1, 2], 3)
    with pytest.raises(ValueError, match="Sample larger than population"):
        draws.sample(rng, [1, 2], -1)


class _Counting(random.Random):
    """A generator with its own shuffle and sample: they are the ones used."""

    calls = 0

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        self.calls += 1
        super().shuffle(x)

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        self.calls += 1
        return super().sample(population, k, counts=counts)


def test_a_generator_with_its_own_methods_is_asked_through_them() -> None:
    rng = _Counting(3)
    items = list(range(10))
    draws.shuffle(rng, items)
    assert sorted(items) == list(range(10))
    assert sorted(draws.sample(rng, items, 10)) == list(range(10))
    assert rng.calls == 2
