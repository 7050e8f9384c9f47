"""The compiled core of :mod:`campfire.adapters.vector`: :class:`VectorGames` and its batches.

:mod:`campfire.adapters.vector` documents and re-exports everything here (import it from there);
this module holds the part a batch's every call runs, which the compiled build compiles
(``docs/compiled.md``). The Gymnasium ``VectorEnv`` stays in :mod:`~campfire.adapters.vector`:
mypyc fails on its constructor's signature, and its steps run the interpreted
:class:`~campfire.adapters.gymnasium.CampfireEnv` anyway.
"""

from __future__ import annotations

import array
import operator
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from campfire.core import Game, IllegalActionError, OptionError, Options, get
from campfire.core.encoding import Part

from .session import Session

__all__ = ["MAX_ENVS", "Batch", "VectorGames", "game_seed"]

#: the most games one batch may hold (a bound on what a caller can ask for)
MAX_ENVS: Final = 65_536
#: up to this many legal actions a game's indices join the one assignment of every mask of the
#: batch; more (a list of a hundred or more, often offered again and again), its session's
#: cached mask is copied into its row
_FEW: Final = 64


def game_seed(seed: int, slot: int, number: int) -> int:
    """The engine seed of game ``number`` (0, 1, …) of batch slot ``slot`` under ``seed``.

    >>> game_seed(1, 0, 0) == game_seed(1, 0, 0) != game_seed(1, 1, 0)
    True
    """
    return random.Random(f"campfire.vector/{seed}/{slot}/{number}").getrandbits(62)


def _small_ints(values: list[int], bound: int) -> npt.NDArray[np.int64]:
    """``values`` (each ``0 <= v < bound``) as a new ``int64`` array.

    Read from bytes where each fits one: numpy converts a list of ints item by item, at a few
    hundred instructions each, where ``bytes`` takes a list of small ints at a tenth of it (a
    batch's seats, legal counts and, in most games, legal indices are below 256). Larger ones
    go through an ``array.array`` of C ``long long``, a quarter of the time of splitting them
    into two lists of bytes (measured on 640 indices below 391).

    >>> _small_ints([3, 0, 255], 256).tolist(), _small_ints([390, 7], 391).tolist()
    ([3, 0, 255], [390, 7])
    """
    if bound <= 256:
        return np.frombuffer(bytes(values), np.uint8).astype(np.int64)
    return np.frombuffer(array.array("q", values), np.int64)


def _position(legal: tuple[int, ...], index: int) -> int:
    """Where ``index`` is in ``legal`` (``-1``: nowhere).

    A binary search first (the built-in engines hand their legal lists out in index order),
    then, where it misses (a list in another order, or an index not there), a loop over every
    item: ints compared natively where compiled (``tuple.index`` compares each item as an
    object, through a Python-level method call).

    >>> _position((2, 4, 9), 9), _position((4, 9, 2), 2), _position((4, 9, 2), 5)
    (2, 2, -1)
    """
    lo, hi = 0, len(legal)
    while lo < hi:
        mid = (lo + hi) // 2
        if legal[mid] < index:
            lo = mid + 1
        else:
            hi = mid
    if lo < len(legal) and legal[lo] == index:
        return lo
    for k in range(len(legal)):
        if legal[k] == index:
            return k
    return -1


@dataclass(frozen=True)
class Batch:
    """What one call of :class:`VectorGames` answers: arrays with one row per game.

    ``observations`` (``float32``, ``(N, observation_size)``) and ``action_masks`` (``int8``,
    ``(N, num_actions)``) are those of ``seats`` (``int64``, ``(N,)``), the seat to act in each
    game; ``rewards`` (``float32``, ``(N, players)``) is every seat's reward of this call — the
    zero-sum win share (``Session.returns``) in a game that just ended by the rules, else 0;
    ``terminated`` and ``truncated`` (``bool``, ``(N,)``) say which games ended in this call, by
    the rules or at the move cap. A game that ended was reset: its row's observation, mask and
    seat are already those of the next game. Each call answers new arrays.
    """

    observations: npt.NDArray[np.float32]
    action_masks: npt.NDArray[np.int8]
    seats: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]


class VectorGames:
    """``num_envs`` games of ``game`` for ``players`` players, stepped together.

    :mod:`campfire.adapters.vector` says how.

    ``options`` are the game's options, ``max_moves`` the adapters' move cap (default
    ``Game.move_cap``) and ``memory`` the seats' memory model, as for
    :class:`~.session.Session`; ``seed`` the batch's seed (:func:`game_seed`). Its sessions
    keep no history (``Session(keep_history=False)``: no log of every move's events, whose
    objects would make the garbage collector a large share of a step), and follow the seats'
    memories only where the game's observations include them
    (``Session(follow_memories=False)``: nothing the batch answers reads the others, so
    ``memory`` changes nothing there). :attr:`sessions` holds each slot's session; when its
    game ends, the same session starts the slot's next game (:meth:`Session.restart`).
    """

    def __init__(
        self,
        game: str | Game[Any],
        num_envs: object,  # an int, checked below (a compiled int would not tell a bool)
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int = 0,
        max_moves: int | None = None,
        memory: str = "perfect",
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int):
            raise OptionError(f"num_envs must be an integer 1–{MAX_ENVS} (got {num_envs!r})")
        if not 1 <= num_envs <= MAX_ENVS:
            raise OptionError(f"num_envs must be 1–{MAX_ENVS} (got {num_envs})")
        self.game: Game[Any] = get(game) if isinstance(game, str) else game
        self.num_envs = num_envs
        self.players = players
        self.options = options
        self.max_moves = max_moves
        self.memory = memory
        self.seed = seed
        self._options: Options | Mapping[str, Any] | None = options
        first = self._session(0, 0)  # checks the players, options, cap and memory at once
        self._options = first.options  # read once: every new game takes them as they are
        self.num_actions = first.num_actions
        self.observation_size = first.encoder.size
        self.sessions: list[Session] = [first]
        self._numbers = [0] * num_envs
        # one kept observation row per game and seat (row i·players + seat), each seat's
        # brought up to date when it is to act (Encoder.update_state_into), with its memo
        self._blank = first.encoder.blank
        self._rows = np.tile(self._blank, (num_envs * players, 1))
        flat: memoryview[float] = self._rows.data.cast("B").cast("f")
        size = self.observation_size
        self._views = [flat[k * size : (k + 1) * size] for k in range(num_envs * players)]
        self._memos: list[list[Part] | None] = [None] * (num_envs * players)
        #: where each game's row of the masks starts in the flat masks
        self._row_starts = np.arange(0, num_envs * self.num_actions, self.num_actions)
        #: each game's first kept row
        self._first_rows = np.arange(0, num_envs * players, players)
        self.reset(seed)

    def _session(self, slot: int, number: int) -> Session:
        return Session(
            self.game,
            self.players,
            self._options,
            seed=game_seed(self.seed, slot, number),
            max_moves=self.max_moves,
            memory=self.memory,
            keep_history=False,  # no log of every move's events (see Session)
            follow_memories=False,  # none told what no observation reads (see Session)
        )

    def reset(self, seed: int | None = None) -> Batch:
        """Start a new game in every slot (``seed``: the batch's new seed); the first batch."""
        if seed is not None:
            self.seed = operator.index(seed)
        self._numbers = [0] * self.num_envs
        self.sessions = [self._session(i, 0) for i in range(self.num_envs)]
        self._rows[:] = self._blank
        self._memos = [None] * (self.num_envs * self.players)
        self.games_finished = 0
        zeros = np.zeros(self.num_envs, dtype=np.bool_)
        return self._batch(
            np.zeros((self.num_envs, self.players), dtype=np.float32), zeros, zeros.copy()
        )

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> Batch:
        """Play one action index per game for its seat to act; reset those that ended.

        ``actions[i]`` is played in game ``i``; the answer is the next batch.
        Every action is checked before any is played: an illegal one raises
        :class:`~campfire.core.errors.IllegalActionError` naming the game, its seat and its
        legal indices, and no game has moved.
        """
        n = self.num_envs
        chosen = np.asarray(actions)
        # signed or unsigned integers (np.issubdtype(dtype, np.integer), at a tenth of its time)
        if chosen.shape != (n,) or chosen.dtype.kind not in "iu":
            raise OptionError(
                f"actions must be {n} integer action indices, one per game "
                f"(got shape {chosen.shape}, dtype {chosen.dtype})"
            )
        indices: list[int] = chosen.tolist()
        sessions = self.sessions
        seats: list[int] = []
        positions: list[int] = []  # where each game's action is in its legal list
        # (loops by index over the lists, of length n each: C loops where compiled)
        for i in range(n):
            session, index = sessions[i], indices[i]
            seat = session.current_seat()
            legal = session.legal_indices(seat) if seat is not None else ()
            position = _position(legal, index)  # one search: found, or not legal
            if position < 0:
                raise IllegalActionError(
                    "not legal",
                    f"game {i}: action index {index} is not legal for its seat to act "
                    f"({seat}); the legal ones are {sorted(legal)}. No game has moved.",
                )
            assert seat is not None  # a game that is over has no legal index
            seats.append(seat)
            positions.append(position)
        rewards = np.zeros((n, self.players), dtype=np.float32)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        for i in range(n):
            session = sessions[i]
            session.apply_legal_at(seats[i], positions[i])
            if session.is_over():
                if session.state.is_terminal():
                    terminated[i] = True
                    rewards[i] = session.returns()
                else:
                    truncated[i] = True
                self._numbers[i] += 1
                self.games_finished += 1
                # the next game in the same session (Session.restart: its caches kept)
                session.restart(game_seed(self.seed, i, self._numbers[i]))
                self._forget_rows(i)
        return self._batch(rewards, terminated, truncated)

    def _forget_rows(self, i: int) -> None:
        """Set game ``i``'s kept rows back to the blank (a new game starts in its slot).

        Their memos' parts are reset (:meth:`~campfire.core.encoding.Part.reset`) rather than
        dropped for new ones: a game's parts, freed and made again at every new game, made
        the garbage collector run up to five times as often as the engine's own loop (4 % of
        a step in the game with the most new games; docs/adapters.md, "Kept rows").
        """
        players = self.players
        first = i * players
        blank = self._blank
        memos = self._memos
        for k in range(first, first + players):
            memo = memos[k]
            if memo is not None:
                self._rows[k] = blank
                for part in memo:
                    part.reset()

    def _batch(
        self,
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
    ) -> Batch:
        n, width, players = self.num_envs, self.num_actions, self.players
        sessions = self.sessions
        views, memos = self._views, self._memos
        masks = np.zeros((n, width), dtype=np.int8)
        seats: list[int] = []
        # the legal indices of the games with few, one after the other: as bytes, game by game,
        # where every index fits one (joined at once), else in one list of ints
        small = width <= 256
        pieces: list[bytes] = []
        flat: list[int] = []
        counts: list[int] = []  # how many each game put there (at most _FEW)
        for i, session in enumerate(sessions):
            seat = session.current_seat()
            assert seat is not None  # a game that is over was reset
            seats.append(seat)
            k = i * players + seat
            # the seat's kept row, brought up to date: only what changed since it last acted
            memos[k] = session.update_observation(seat, views[k], memos[k])
            legal = session.legal_indices(seat)
            if len(legal) <= _FEW:
                if small:
                    pieces.append(bytes(legal))
                else:
                    flat.extend(legal)
                counts.append(len(legal))
            else:  # many: the session's cached mask, copied into the row at once
                masks[i] = session.shared_legal_mask(seat)
                counts.append(0)
        acting = _small_ints(seats, players)
        # the masks in one assignment: each index offset by its game's row
        where = np.repeat(self._row_starts, _small_ints(counts, _FEW + 1))
        if small:
            where += np.frombuffer(b"".join(pieces), np.uint8)
        else:
            where += _small_ints(flat, width)
        masks.reshape(-1)[where] = 1
        # the acting seats' rows (row i·players + seat), copied into a new array at once
        observations = self._rows.take(self._first_rows + acting, axis=0)
        return Batch(observations, masks, acting, rewards, terminated, truncated)
