"""Draws from a random generator: the very draws of :class:`random.Random`'s methods, faster.

:func:`randbelow`, :func:`choice`, :func:`shuffle` and :func:`sample` make exactly the draws
that ``rng.randrange(n)``, ``rng.choice(seq)``, ``rng.shuffle(items)`` and
``rng.sample(population, k)`` make (Python 3.11–3.13): the same results, and the generator
ends in the same state. They exist for speed: the standard library's methods are Python code
that makes two or three method calls per draw, and these functions are compiled with the
engines (``docs/compiled.md``), so a seeded game plays the same moves whether its draws come
from here or from the generator's methods, compiled or not.

They draw this way only from a :class:`random.Random`, or a subclass of it that overrides none
of the methods concerned (``random``, ``getrandbits``, ``randrange``, ``choice``, ``shuffle``,
``sample``), as :class:`~campfire.core.rng.GameRng`; any other generator is asked through its
own method.
``tests/core/test_draws.py`` compares every function with the method it stands for.

>>> import random
>>> a, b = random.Random(5), random.Random(5)
>>> mine, theirs = list(range(10)), list(range(10))
>>> shuffle(a, mine)
>>> b.shuffle(theirs)
>>> mine == theirs
True
>>> [choice(a, "abcdef") for _ in range(5)] == [b.choice("abcdef") for _ in range(5)]
True
>>> sample(a, range(100), 3) == b.sample(range(100), 3), randbelow(a, 7) == b.randrange(7)
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final, TypeVar

__all__ = ["choice", "randbelow", "sample", "shuffle"]

_T = TypeVar("_T")

#: the methods whose draws this module makes (with those they call): a class that overrides
#: any of them draws its own way, and is asked through its methods
_METHODS: Final = (
    "random",
    "getrandbits",
    "_randbelow",
    "randrange",
    "choice",
    "shuffle",
    "sample",
)
#: for each generator class met: whether it draws as :class:`random.Random` does, by bits
_BY_BITS: Final[dict[type, bool]] = {}


def _draws_by_bits(rng: random.Random) -> bool:
    cls = type(rng)
    known = _BY_BITS.get(cls)
    if known is None:
        base = random.Random
        known = getattr(base, "_randbelow", None) is getattr(
            base, "_randbelow_with_getrandbits", base
        ) and all(getattr(cls, name, None) is getattr(base, name, base) for name in _METHODS)
        _BY_BITS[cls] = known
    return known


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: an integer ``0 <= r < n`` (``n`` > 0), the same draw.

    ``getrandbits(k)``, ``k`` the bit length of ``n``, drawn again while it is not below ``n``.
    """
    if n <= 0 or not _draws_by_bits(rng):
        return rng.randrange(n)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def choice(rng: random.Random, seq: Sequence[_T]) -> _T:
    """``rng.choice(seq)``: an item of the non-empty ``seq`` (``IndexError`` when empty)."""
    n = len(seq)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[randbelow(rng, n)]


def shuffle(rng: random.Random, items: list[_T]) -> None:
    """``rng.shuffle(items)``: shuffle the list in place, with the same draws.

    From the last index ``i`` down to 1: ``j = randbelow(i + 1)``, then ``items[i]`` and
    ``items[j]`` swap.
    """
    if not _draws_by_bits(rng):
        rng.shuffle(items)
        return
    i = len(items) - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        j = rng.getrandbits(k)
        while j >= n:
            j = rng.getrandbits(k)
        items[i], items[j] = items[j], items[i]
        i -= 1


def sample(rng: random.Random, population: Sequence[_T], k: int) -> list[_T]:
    """``rng.sample(population, k)``: ``k`` distinct positions' items, in the order drawn.

    The standard library's two ways, chosen as it chooses them: a pool (a copy of the
    population, each drawn item replaced by the last undrawn one) when the population is
    small next to a set of ``k`` items, else positions drawn until one is new.
    """
    n = len(population)
    if not _draws_by_bits(rng) or not 0 <= k <= n:
        return rng.sample(population, k)
    setsize = 21  # the standard library's rule for its two ways
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    result: list[_T] = []
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = randbelow(rng, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
        return result
    selected: set[int] = set()
    for _ in range(k):
        j = randbelow(rng, n)
        while j in selected:
            j = randbelow(rng, n)
        selected.add(j)
        result.append(population[j])
    return result
