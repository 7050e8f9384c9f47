"""A game driven by action indices: what every adapter wraps.

A :class:`Session` holds one campfire state and, for every seat, its memory (the game's
:class:`~campfire.core.Belief`, told the events that seat may see). It speaks the adapters'
language: integer actions from the game's fixed index space, one seat at a time (the lowest
seat of those still to act, so simultaneous steps become hidden sequential moves), observation
vectors from :mod:`campfire.adapters.encoders`, and zero-sum returns from the outcome.

A session also enforces the adapter's move cap (:func:`default_max_moves`): a game that reaches
it ends as a draw, marked :attr:`Session.truncated`.

A session caches what it computes from the state (the seat to act, the legal indices, the
observations) until the next :meth:`Session.apply`; change its state only through ``apply``.
A memory the encoder does not read (``Encoder.uses_memory`` false) is told its events only when
it is asked for (:attr:`Session.beliefs`, :meth:`Session.determinize`), move by move.

>>> from campfire import all_games
>>> game = all_games()[0]
>>> session = Session(game.name, game.min_players, seed=3)
>>> seat = session.current_seat()
>>> session.observation(seat).shape == (session.encoder.size,)
True
>>> session.legal(seat) == [i for i, ok in enumerate(session.legal_mask(seat)) if ok]
True
>>> events = session.apply(seat, session.legal(seat)[0])
>>> session.moves
1
"""

from __future__ import annotations

import json
import operator
import random
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any, Final, SupportsIndex

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from campfire.core import (
    Action,
    Belief,
    Event,
    Game,
    IllegalActionError,
    OptionError,
    Options,
    State,
    get,
    visible_events,
)
from campfire.core.encoding import Part

from .encoders import Encoder, encoder_for

__all__ = ["Session", "default_max_moves", "win_share_returns"]

_INDEX_CACHE: Final[dict[tuple[str, int], dict[Action, int]]] = {}
_ID_CACHE: Final[dict[tuple[str, int], dict[int, tuple[Action, int]]]] = {}
#: per game and player count: every action by index, and whether each carries its index as an
#: ``index`` attribute (the built-in games' actions do), which spares the index look-up
_ACTIONS: Final[dict[tuple[str, int], tuple[tuple[Action, ...], bool]]] = {}
#: per game and player count: action masks (read-only arrays) by the tuple of legal indices (a
#: game offers the same legal sets again and again); cleared when it grows past _MASK_CACHE_SIZE
_MASKS: Final[dict[tuple[str, int], dict[tuple[int, ...], npt.NDArray[np.int8]]]] = {}
_INT8: Final = np.dtype(np.int8)
_MASK_CACHE_SIZE: Final = 4096
#: per game and player count: the latest long legal list of each length, with its indices and
#: mask (``[actions, indices, mask or None]``); the engines hand out the same action objects
#: again and again (a poll of every seat: 160 of them), and two equal lists compare by identity
#: far faster than their indices are read
_LEGAL_MEMO: Final[dict[tuple[str, int], dict[int, list[Any]]]] = {}
_LONG: Final = 12  # legal lists from this length on are remembered
_INDEX: Final = attrgetter("index")
_UNKNOWN: Final = -1  # the seat to act has not been computed since the last move
_NOBODY: Final = -2  # (as the seat to act) nobody: the game is over
#: every attribute of a Session (what it pickles)
_ATTRIBUTES: Final = (
    "game",
    "players",
    "options",
    "max_moves",
    "memory",
    "seed",
    "keep_history",
    "follow_memories",
    "state",
    "_beliefs",
    "moves",
    "encoder",
    "num_actions",
    "_index",
    "_by_id",
    "_obs_cache",
    "_actions",
    "_indexed",
    "_masks",
    "_legal_memo",
    "_listening",
    "_lazy",
    "_pending",
    "_turn",
    "_legal_seat",
    "_legal_ids",
    "_legal_actions",
    "_legal_entry",
    "_log",
    "_histories",
    "_history_moves",
)
#: the attributes a pickled Session leaves out and its ``__setstate__`` makes anew
_REBUILT: Final = frozenset(
    (
        "game",
        "state",
        "encoder",
        "_index",
        "_by_id",
        "_actions",
        "_indexed",
        "_masks",
        "_legal_memo",
    )
)


def _action_table(game: Game[Any], players: int) -> tuple[tuple[Action, ...], bool]:
    """Every action of ``game``'s index space, and whether ``action.index`` is its index."""
    key = (game.name, players)
    table = _ACTIONS.get(key)
    if table is None:
        actions = tuple(
            game.action_from_index(i, players) for i in range(game.num_distinct_actions(players))
        )
        indexed = all(
            getattr(a, "index", None).__class__ is int and a.index == i  # type: ignore[attr-defined]
            for i, a in enumerate(actions)
        )
        table = _ACTIONS[key] = (actions, indexed)
    return table


def default_max_moves(game: str | Game[Any], players: int) -> int:
    """The adapter's cap on the number of moves (actions) of one game: ``Game.move_cap``.

    By default twice the engine's playout bound; a game with a bound from its rules, or with no
    bound at all, declares its own.

    >>> from campfire import all_games
    >>> all(default_max_moves(g.name, g.min_players) >= 1 for g in all_games())
    True
    """
    return (get(game) if isinstance(game, str) else game).move_cap(players)


def win_share_returns(winners: tuple[int, ...], players: int) -> list[float]:
    """Zero-sum returns from the winners: a lone winner gets 1, each loser −1/(N−1).

    Shared wins split the winner's share; when everybody wins, every return is 0.

    >>> win_share_returns((0,), 2), win_share_returns((1,), 3), win_share_returns((0, 1), 2)
    ([1.0, -1.0], [-0.5, 1.0, -0.5], [0.0, 0.0])
    """
    n = players
    share = 1.0 / len(winners) if winners else 0.0
    return [n / (n - 1) * ((share if s in winners else 0.0) - 1.0 / n) for s in range(n)]


@mypyc_attr(allow_interpreted_subclasses=True)  # a benchmark's, a test's
class Session:
    """One game played through action indices, with every seat's memory.

    ``game`` is a game name or object; ``options`` a mapping or options object; ``seed`` the
    game's seed; ``max_moves`` the cap (default :func:`default_max_moves`); ``memory`` the
    seats' memory model (``perfect`` by default; see ``Game.new_belief``).

    ``keep_history=False`` keeps no log of the moves: :meth:`history`,
    :meth:`information_state_string` and :meth:`determinize` then raise ``OptionError``
    (everything else is the same), and the seats' memories are told every move rather than
    when :attr:`beliefs` is read. What a batch of games that never asks for them uses
    (``campfire.adapters.vector``): a log, or events waiting for the memories, would hold
    every move's events until the game ends, and so many live objects make Python's cyclic
    garbage collector a large share of a step.

    ``follow_memories=False`` tells a memory nothing when the encoder does not read it
    (``Encoder.uses_memory`` false): for a caller that only asks for observations, masks and
    returns, which do not depend on it (a batch of games). :attr:`beliefs`,
    :meth:`observation_string` and :meth:`determinize` then raise ``OptionError``; an encoder
    that reads the memories keeps them followed, and then nothing changes.
    """

    def __init__(
        self,
        game: str | Game[Any],
        players: int,
        options: Options | Mapping[str, Any] | None = None,
        *,
        seed: int = 0,
        max_moves: int | None = None,
        memory: str = "perfect",
        keep_history: bool = True,
        follow_memories: bool = True,
    ) -> None:
        self.game: Game[Any] = get(game) if isinstance(game, str) else game
        self.game.check_players(players)
        self.players = players
        self.options = self.game.options(options)
        if max_moves is None:
            max_moves = self.game.move_cap(players)
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise OptionError(f"max_moves must be a positive integer (got {max_moves!r})")
        self.max_moves = max_moves
        self.memory = memory
        self.seed = seed
        self.keep_history = bool(keep_history)
        self.follow_memories = bool(follow_memories)
        self.encoder: Encoder = encoder_for(self.game, players)
        self.num_actions = self.game.num_distinct_actions(players)
        key = (self.game.name, players)
        self._index = _INDEX_CACHE.setdefault(key, {})
        self._by_id = _ID_CACHE.setdefault(key, {})
        self._obs_cache: dict[int, npt.NDArray[np.float32]] = {}
        self._actions, self._indexed = _action_table(self.game, players)
        self._masks = _MASKS.setdefault(key, {})
        self._legal_memo = _LEGAL_MEMO.setdefault(key, {})
        self.restart(seed)  # the game itself: its state, memories, moves and log

    def restart(self, seed: int) -> None:
        """Start a new game here from ``seed``: the same game, players, options, cap and memory.

        The session then holds what a new ``Session`` with these settings and ``seed`` would
        (the state, fresh memories, no moves, no log), without checking the options and
        looking up the tables and caches every game of its kind shares again: what a batch of
        games does in a slot whose game ended (``campfire.adapters.vector``); a new session
        starts its first game here too.
        """
        self.seed = seed
        self.state: State = self.game.new_game(self.players, self.options, seed=seed)
        self._beliefs: list[Belief] = [
            self.game.new_belief(s, self.players, self.options, self.memory, seed + s)
            for s in range(self.players)
        ]
        self.moves = 0
        self._listen()
        self._invalidate()
        #: every move: the seat, the action index and the events (for perfect-recall histories)
        self._log: list[tuple[int, int, list[Event]]] = []
        self._forget_histories()

    def _forget_histories(self) -> None:
        """Drop the per-seat histories built from the log (they are rebuilt when asked)."""
        #: per seat: its history entries as JSON, and how many moves of the log they cover
        self._histories: list[list[str]] = [[] for _ in range(self.players)]
        self._history_moves = [0] * self.players

    def _listen(self) -> None:
        """Sort the memories: told every move, told when asked, or never told (they ignore it).

        The encoder reads the memories when its ``uses_memory`` is set, so they follow every
        move; so do they in a session that keeps no history, where nothing else would hold the
        events: pending, every move's would pile up until the game ends (in a batch, whose
        sessions are never asked for :attr:`beliefs`, the garbage collector took a fifth of
        a step walking them). Otherwise they wait for :attr:`beliefs` with their events
        pending (the log holds them anyway).
        """
        # beliefs that remember something (the base Belief ignores every event); none when
        # nothing will read them (follow_memories=False, an encoder that does not)
        listening = (
            [b for b in self._beliefs if type(b).observe is not Belief.observe]
            if self._memories_followed()
            else []
        )
        eager = self.encoder.uses_memory or not self.keep_history
        self._listening = listening if eager else []
        self._lazy = [] if eager else listening
        #: each move's events not yet told to the lazy memories (filtered when they are told)
        self._pending: list[list[Event]] = []

    def _memories_followed(self) -> bool:
        """Whether the seats' memories are told the moves (see ``follow_memories``)."""
        return self.follow_memories or self.encoder.uses_memory

    @property
    def beliefs(self) -> list[Belief]:
        """Every seat's memory, told every event it may see so far (by seat).

        Raises ``OptionError`` in a session that does not follow them (``follow_memories``).
        """
        if not self._memories_followed():
            raise OptionError(
                "this session does not follow the seats' memories (follow_memories=False): "
                "no memories, observation string or determinisation"
            )
        if self._pending:
            pending, self._pending = self._pending, []
            for events in pending:
                for belief in self._lazy:
                    belief.observe(visible_events(events, belief.seat))
        return self._beliefs

    def _told_beliefs(self) -> list[Belief]:
        """The memories, told every pending event where they are followed (as they are if not)."""
        return self.beliefs if self._memories_followed() else self._beliefs

    def _invalidate(self) -> None:
        """Forget what was computed from the state (after a move or a new state)."""
        self._obs_cache.clear()
        #: the seat to act, or _NOBODY, or _UNKNOWN (an int: compared natively where compiled)
        self._turn = _UNKNOWN
        self._legal_seat = _UNKNOWN
        self._legal_ids: tuple[int, ...] = ()
        #: the engine's legal list, in _legal_ids' order (``None``: the index table's actions
        #: at those indices, as ``State.legal_action_indices`` promises)
        self._legal_actions: Sequence[Action] | None = ()  # (a tuple: nothing made per move)
        self._legal_entry: list[Any] | None = None  # the memo entry of the legal list

    # ----- turn order and actions ----------------------------------------------------------

    @property
    def truncated(self) -> bool:
        """Whether the game was cut at :attr:`max_moves` before its end."""
        return self.moves >= self.max_moves and not self.state.is_terminal()

    def is_over(self) -> bool:
        """Whether the game ended, by the rules or at the cap."""
        return self.state.is_terminal() or self.moves >= self.max_moves

    def current_seat(self) -> int | None:
        """The seat to act: the lowest of those that may act (``None`` when over)."""
        turn = self._turn
        if turn == _UNKNOWN:
            if self.is_over():
                turn = _NOBODY
            else:
                seats = self.state.seats_to_act()
                turn = seats[0] if len(seats) == 1 else (min(seats) if seats else _NOBODY)
            self._turn = turn
        return None if turn == _NOBODY else turn

    def index_of(self, action: Action) -> int:
        """The index of ``action`` in the game's fixed index space."""
        # Keyed by identity first: engines hand out the same action objects again and again,
        # and an identity lookup skips hashing the action. The cache holds the action itself,
        # so its id cannot be reused by another object while it is cached.
        hit = self._by_id.get(id(action))
        if hit is not None and hit[0] is action:
            return hit[1]
        index = self._index.get(action)
        if index is None:
            index = self._index[action] = self.game.action_index(action, self.players)
        if len(self._by_id) < 100_000:
            self._by_id[id(action)] = (action, index)
        return index

    def action(self, index: int) -> Action:
        """The action with index ``index`` (raise a ``NotationError`` if out of range)."""
        if index.__class__ is int and 0 <= index < self.num_actions:
            return self._actions[index]
        return self.game.action_from_index(int(index), self.players)

    def _legal_indices(self, seat: int) -> tuple[int, ...]:
        """The legal indices of ``seat`` in the engine's order, cached until the next move."""
        if seat != self._legal_seat:
            if seat != self.current_seat():
                return ()
            known = self.state.legal_action_indices(seat)
            entry = None
            if known is not None:  # the engine's own (State.legal_action_indices)
                self._legal_actions = None  # the index table's objects
                # (remembered when its mask is asked for; a tuple is taken as it is)
                ids = known if type(known) is tuple else tuple(known)
            else:
                actions = self._legal_actions = self.state.legal_actions(seat)
                if len(actions) >= _LONG:
                    entry = self._remembered(actions, None)
                    ids = entry[1]
                else:
                    ids = self._indices(actions)
            self._legal_ids = ids
            self._legal_entry = entry
            self._legal_seat = seat
        return self._legal_ids

    def _remembered(self, same: Sequence[object], ids: tuple[int, ...] | None) -> list[Any]:
        """The memo entry of a long legal list: ``[same, its indices, its mask or None]``.

        ``same`` (the engine's indices, or its actions with ``ids`` ``None``) is what tells two
        lists apart: the latest list of each length is remembered, and an equal one given later
        (the same objects, compared by identity first) takes its indices and mask from there.
        """
        entry: list[Any] | None = self._legal_memo.get(len(same))
        if entry is None or (entry[0] is not same and entry[0] != same):
            entry = [same, self._indices(same) if ids is None else ids, None]
            self._legal_memo[len(same)] = entry
        return entry

    def _indices(self, actions: Sequence[Any]) -> tuple[int, ...]:
        if self._indexed:
            return tuple(map(_INDEX, actions))
        return tuple(map(self.index_of, actions))

    def _legal_action(self, position: int) -> Action:
        """The action at ``position`` of the legal list computed last (``_legal_indices``)."""
        actions = self._legal_actions
        if actions is None:  # the engine gave the indices: the table's actions are its own
            return self._actions[self._legal_ids[position]]
        return actions[position]

    def legal_indices(self, seat: int) -> tuple[int, ...]:
        """The legal action indices of ``seat`` in the engine's order (``()`` unless to act).

        Computed once per move: the cheapest form for a membership test.
        """
        return self._legal_indices(seat)

    def legal(self, seat: int) -> list[int]:
        """The legal action indices of ``seat``, ascending (``[]`` unless it is to act)."""
        return sorted(self._legal_indices(seat))

    def legal_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """A 0/1 vector over the index space: the legal actions of ``seat`` (a new array)."""
        # masks are kept as read-only arrays, handed out as copies (cheaper than np.zeros and
        # a fancy assignment, and than a numpy view of a bytearray copy)
        return self.shared_legal_mask(seat).copy()

    def shared_legal_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """:meth:`legal_mask` as a read-only array shared with other callers (no copy made).

        What a batch copies into one of its rows (``campfire.adapters.vector``).
        """
        legal = self._legal_indices(seat)
        entry = None
        if seat == self._legal_seat:
            entry = self._legal_entry
            if entry is None and len(legal) >= _LONG:  # the engine's indices, remembered now
                entry = self._legal_entry = self._remembered(legal, legal)
        mask = None if entry is None else entry[2]
        if mask is None:
            mask = self._masks.get(legal)
            if mask is None:
                if len(legal) < _LONG:
                    built = bytearray(self.num_actions)
                    for i in legal:
                        built[i] = 1
                    mask = np.frombuffer(bytes(built), _INT8)
                else:  # one fancy write beats a loop over many indices
                    mask = np.zeros(self.num_actions, _INT8)
                    mask[np.fromiter(legal, np.intp, len(legal))] = 1
                    mask.flags.writeable = False
                if len(self._masks) >= _MASK_CACHE_SIZE:
                    self._masks.clear()
                self._masks[legal] = mask
            if entry is not None:
                entry[2] = mask
        return mask

    def apply(self, seat: int, index: int) -> list[Event]:
        """Play the action with index ``index`` for ``seat`` (the seat to act); its events.

        Raises :class:`~campfire.core.errors.IllegalActionError` (state unchanged) when it is
        not that seat's turn or the action is not legal.
        """
        current = self.current_seat()
        if seat != current:
            raise IllegalActionError(
                "turn order",
                f"seat {seat} may not act now; the adapter's seat to act is {current}",
            )
        return self._applied(seat, index, self.state.apply(seat, self.action(index)))

    def apply_index(self, seat: int, index: SupportsIndex) -> list[Event]:
        """:meth:`apply`, checked against the legal indices already computed for ``seat``.

        The legal list the session holds for the seat to act (:meth:`legal`, :meth:`legal_mask`
        compute it) decides: the action played is the engine's own object from that list,
        through the engine's unchecked path (``State.apply_legal``), so the engine does not
        check it a second time. Raises :class:`~campfire.core.errors.IllegalActionError`
        (state unchanged) as :meth:`apply` does.
        """
        legal = self._legal_indices(seat)
        if index.__class__ is int:
            number = index
        elif isinstance(index, bool) or not hasattr(index, "__index__"):
            raise IllegalActionError("not legal", f"an action is an integer index (got {index!r})")
        else:  # a NumPy integer, say
            number = operator.index(index)
        if number in legal:
            action = self._legal_action(legal.index(number))
            return self._applied(seat, number, self.state.apply_legal(seat, action))
        current = self.current_seat()
        if seat != current:
            raise IllegalActionError(
                "turn order",
                f"seat {seat} may not act now; the adapter's seat to act is {current}",
            )
        raise IllegalActionError(
            "not legal",
            f"action index {index!r} is not legal for seat {seat} now; the legal ones are "
            f"{sorted(legal)}",
        )

    def apply_legal_at(self, seat: int, position: int) -> list[Event]:
        """Play the legal action at ``position`` of :meth:`legal_indices` ``(seat)``; its events.

        For a caller that has found the index in that list already (a batch checks every
        game's action before it plays any): no second search. ``seat`` must be the seat to act
        and ``position`` a position in its legal list (``IndexError`` otherwise; nothing moves).
        """
        legal = self._legal_indices(seat)
        if not 0 <= position < len(legal):
            raise IndexError(f"no legal action at position {position} for seat {seat}")
        action = self._legal_action(position)
        return self._applied(seat, legal[position], self.state.apply_legal(seat, action))

    def _applied(self, seat: int, index: int, events: list[Event]) -> list[Event]:
        """The bookkeeping after a move: caches, the log, the memories."""
        self.moves += 1
        self._invalidate()
        if self.keep_history:
            self._log.append((seat, index, events))
        if self._lazy:
            self._pending.append(events)
        listening = self._listening
        if listening:
            for e in events:
                if e.to is not None:  # a private event: each memory is told what it may see
                    for belief in listening:
                        belief.observe(visible_events(events, belief.seat))
                    break
            else:
                for belief in listening:
                    belief.observe(events)
        return events

    # ----- observations --------------------------------------------------------------------

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The seat's observation vector (see :mod:`campfire.adapters.encoders`)."""
        obs = self._obs_cache.get(seat)
        if obs is None:
            obs = self._obs_cache[seat] = self.encoder.encode_state(
                self.state, seat, self._beliefs[seat]
            )
        return obs

    def update_observation(
        self, seat: int, out: memoryview[float], memo: list[Part] | None
    ) -> list[Part]:
        """Bring a kept row of ``seat``'s observations up to date (``Encoder.update_state_into``).

        ``out`` holds the encoder's blank (``memo`` ``None``) or the vector written for this seat
        of this game when ``memo`` was returned; the answer is the next call's memo. What a
        batch calls for each game's seat to act (``campfire.adapters.vector``).
        """
        return self.encoder.update_state_into(self.state, seat, self._beliefs[seat], out, memo)

    def new_observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The seat's observation vector, encoded anew: an array that nobody else holds.

        What an environment hands out once per step: no copy of a cached array to make (see
        :meth:`observation` for repeated reads of the same move).
        """
        obs = self._obs_cache.get(seat)
        if obs is not None:
            return obs.copy()
        return self.encoder.encode_state(self.state, seat, self._beliefs[seat])

    def observation_string(self, seat: int) -> str:
        """The seat's view and memory as compact JSON (what the seat knows now)."""
        known = getattr(self.beliefs[seat], "known", None)
        memory = sorted(known.items()) if known else []
        return json.dumps(
            {"view": self.state.view(seat), "memory": memory}, sort_keys=True, separators=(",", ":")
        )

    def history(self, seat: int) -> list[str]:
        """``seat``'s perfect-recall history: per move, what it did and saw, as JSON texts.

        One entry per move that ``seat`` made or saw something of: ``{"act": index}`` for its
        own action (``-1`` where a determinisation left it unknown, see :meth:`determinize`)
        and ``"seen"``, the events of the move addressed to it, as ``[type, data]`` pairs. A
        move that showed it nothing is no entry (the seat cannot tell it happened).
        """
        self._check_history()
        entries = self._histories[seat]
        log = self._log
        start = self._history_moves[seat]
        if start < len(log):
            dumps = json.dumps
            for actor, index, events in log[start:]:
                seen = [[e.type, e.data] for e in visible_events(events, seat)]
                if actor == seat:
                    entries.append(
                        dumps({"act": index, "seen": seen}, sort_keys=True, separators=(",", ":"))
                    )
                elif seen:
                    entries.append(dumps({"seen": seen}, sort_keys=True, separators=(",", ":")))
            self._history_moves[seat] = len(log)
        return entries

    def _check_history(self) -> None:
        """Raise ``OptionError`` if the session keeps no history (``keep_history=False``)."""
        if not self.keep_history:
            raise OptionError(
                "this session keeps no history (keep_history=False): no perfect-recall "
                "history, information state or determinisation"
            )

    def information_state_string(self, seat: int) -> str:
        """``seat``'s information state with perfect recall: its view and its history.

        Two sessions give a seat the same string exactly when it saw the same events and made
        the same moves (:meth:`history`) and its view is the same.
        """
        view = json.dumps(self.state.view(seat), sort_keys=True, separators=(",", ":"))
        return '{"history":[' + ",".join(self.history(seat)) + '],"view":' + view + "}"

    # ----- results -------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """Zero-sum win-share returns at the end (:func:`win_share_returns`); 0 before, or cut."""
        if not self.state.is_terminal():
            return [0.0] * self.players
        return win_share_returns(self.state.outcome().winners, self.players)

    def score_potential(self) -> list[float]:
        """Per seat: its score minus the mean of the others' (higher is better).

        During the game from the scores every seat can see (``Game.public_scores``; 0 in a game
        that shows none), at the end from the outcome's scores.
        """
        if self.state.is_terminal():
            outcome = self.state.outcome()
            scores = [float(x) for x in outcome.scores]
            best = outcome.ranks.index(min(outcome.ranks))
            worst = outcome.ranks.index(max(outcome.ranks))
            if scores[best] < scores[worst]:  # a game where the lowest score wins
                scores = [-x for x in scores]
        else:
            # (a game that shows no scores is not asked: its view is not built)
            public = None
            if type(self.game).public_scores is not Game.public_scores:
                public = self.game.public_scores(self.state.view(None))
            if public is None:
                return [0.0] * self.players
            scores = public
        total = sum(scores)
        n = self.players
        return [x - (total - x) / (n - 1) for x in scores]

    # ----- copies --------------------------------------------------------------------------

    def clone(self) -> Session:
        """An independent copy (state and memories)."""
        # attribute by attribute: a compiled Session keeps them in slots, not in a __dict__
        other = Session.__new__(Session)
        other.game = self.game
        other.players = self.players
        other.options = self.options
        other.max_moves = self.max_moves
        other.memory = self.memory
        other.seed = self.seed
        other.keep_history = self.keep_history
        other.follow_memories = self.follow_memories
        other.moves = self.moves
        other.encoder = self.encoder
        other.num_actions = self.num_actions
        other._index = self._index
        other._by_id = self._by_id
        other._actions = self._actions
        other._indexed = self._indexed
        other._masks = self._masks
        other._legal_memo = self._legal_memo
        other.state = self.state.clone()
        other._beliefs = [b.clone() for b in self._told_beliefs()]
        other._listen()
        other._log = self._log[:]
        other._histories = [entries[:] for entries in self._histories]
        other._history_moves = self._history_moves[:]
        other._obs_cache = {}
        other._invalidate()
        return other

    def determinize(self, seat: int, rng: random.Random) -> Session:
        """A copy in which what ``seat`` cannot know is re-sampled (through its memory).

        The seat's own memory is kept; the other seats' memories are copied as they are (they
        may remember cards the re-sampled deal does not hold). ``seat``'s observation is the
        same in the copy.
        """
        self._check_history()
        other = self.clone()
        other.state = self.beliefs[seat].sample(self.state, rng)
        other._invalidate()
        # the copy's log holds only what ``seat`` saw: the other seats' histories in it are
        # never built from what the seat does not know (their own actions become -1)
        other._log = [
            (
                actor,
                index if actor == seat else -1,
                visible_events(events, seat),
            )
            for actor, index, events in self._log
        ]
        other._forget_histories()
        other._histories[seat] = self.history(seat)[:]
        other._history_moves[seat] = len(other._log)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Session:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        """Pickle through the position JSON (the game object is stored by name)."""
        # every attribute by name (a compiled Session has no __dict__; a subclass's own
        # attributes are in its __dict__)
        data = {name: getattr(self, name) for name in _ATTRIBUTES}
        data.update(getattr(self, "__dict__", {}))
        data["game"] = self.game.name
        data["state"] = json.dumps(self.state.to_position())
        data["_beliefs"] = self._told_beliefs()
        data["_pending"] = []
        data["_obs_cache"] = {}
        data["encoder"] = None  # shared, with its caches: looked up again
        data["_index"] = None
        data["_by_id"] = None
        data["_actions"] = None
        data["_masks"] = None
        data["_legal_memo"] = None
        data["_legal_entry"] = None
        data["_legal_actions"] = []  # (forgotten by __setstate__ anyway)
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.follow_memories = True  # (a session pickled before the option followed them)
        for name, value in data.items():
            if name not in _REBUILT:  # (typed attributes: set from the game below)
                setattr(self, name, value)
        self.game = get(data["game"])
        self.state = self.game.state_from_position(json.loads(data["state"]))
        self.encoder = encoder_for(self.game, self.players)
        self._index = _INDEX_CACHE.setdefault((self.game.name, self.players), {})
        self._by_id = _ID_CACHE.setdefault((self.game.name, self.players), {})
        self._actions, self._indexed = _action_table(self.game, self.players)
        self._masks = _MASKS.setdefault((self.game.name, self.players), {})
        self._legal_memo = _LEGAL_MEMO.setdefault((self.game.name, self.players), {})
        self._obs_cache = {}
        self._invalidate()
