"""Observation encoders: a seat's view (and its memory) as a flat ``float32`` vector.

The base of every game's encoder (``Game.encoder(players)``, in the game's own ``encoder.py``),
which the research adapters (:mod:`campfire.adapters`) use as their observations. An encoder is
built for a player count; :meth:`Encoder.encode` reads **only** what ``state.view(seat)`` holds
and, where the game's encoder says so (:attr:`Encoder.uses_memory`), the seat's own memory (its
:class:`~campfire.core.agent.Belief`, fed with the events that seat may see), so an encoding
cannot leak hidden information: a state and any of its determinisations for the seat encode
identically (the adapter tests check this). :meth:`Encoder.encode_state`, which the adapters
call, may read the engine fields that view is built from instead; the tests check after every
move of random games that it equals the view path.

Every encoder has the same shape for every player count of its game (seat slots are padded to
the game's maximum). Seats are **relative**: seat slot ``k`` is the seat ``k`` places to the
observer's left (slot 0 is the observer). :attr:`Encoder.slots` names each part of the vector.

This module needs numpy (``pip install campfire-games[rl]``); nothing else of the core imports
it, and a game imports its encoder only when asked for it.

>>> class Counters(Encoder):
...     game = "counters"
...     max_players = 3
...
...     def _build(self) -> None:
...         self._common()
...         self._o_left = self._add("left", (1,), "counters left / 10")
...
...     def _encode(self, view, belief, out, seat):
...         out[self._o_left] = view["counters"] / 10
>>> enc = Counters(2)
>>> [name for name, _, _ in enc.slots], enc.size
(['players', 'to_act', 'left'], 7)
>>> enc.encode({"seat": 1, "to_act": [0], "counters": 4}, None).tolist()
[0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.4000000059604645]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from .belief import Belief
from .state import State

__all__ = ["Encoder", "Layout", "Part", "Slot", "Vector", "count_into", "float_counts"]

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Slot:
    """A named part of an encoding: where it starts, its shape and what it means."""

    name: str
    offset: int
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        """The number of values in the slot."""
        return int(np.prod(self.shape))


class Layout:
    """Allocates named slots one after the other."""

    def __init__(self) -> None:
        self.slots: list[Slot] = []
        self.size = 0

    def add(self, name: str, shape: tuple[int, ...], meaning: str) -> int:
        """Add a slot after the last one; its offset."""
        slot = Slot(name, self.size, shape, meaning)
        self.slots.append(slot)
        self.size += slot.size
        return slot.offset


class Part:
    """What a kept row shows (:meth:`Encoder.update_state_into`): the item of its memo.

    An :attr:`~Encoder.incremental` encoder subclasses it (its :attr:`~Encoder.row_class`)
    with fields saying what the row shows: the offsets of one-hot values and the numbers shown
    as ints, copies of the state's lists. Its :meth:`reset` sets them to what the blank shows;
    the encoder's :meth:`Encoder._update_row` compares them with the state and brings them up
    to date with the row.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Show the blank: a new part's fields, for a new row or one put back to the blank.

        The same object kept (a batch resets a game's memo when a new game starts in its slot
        rather than making a new one); a subclass sets its own fields (here: none).
        """


@mypyc_attr(allow_interpreted_subclasses=True)  # a plugin's encoder, the doctest's
class Encoder:
    """A game's observation encoder for one player count.

    :meth:`encode` turns a seat's view (and its memory) into a vector of :attr:`size` values;
    :attr:`slots` lists ``(name, shape, meaning)`` for documentation.

    A game's encoder subclasses it: it sets :attr:`game` (the game's name) and
    :attr:`max_players`, lays its slots out in :meth:`_build` (first :meth:`_common`, the
    number of players and the seats to act, then its own with :meth:`_add`, keeping each
    offset) and fills them from a view in :meth:`_encode`. Optionally it reads the state's
    fields instead of the view (:attr:`state_class`, :meth:`_encode_state`,
    :meth:`_fill_blank`), which must give the same vector.
    """

    # class variables, set in a subclass's body: compiled code reads them through the class
    # (docs/compiled.md, change 8), so an interpreted subclass's values are the ones used
    game: ClassVar[str]
    max_players: ClassVar[int]
    #: whether :meth:`encode` reads the seat's memory (else it may be passed ``None``)
    uses_memory: ClassVar[bool] = False

    def __init__(self, players: int) -> None:
        self.players = players
        #: per observer seat: the relative slot of every seat
        self._rel = tuple(
            tuple((s - seat) % players for s in range(players)) for seat in range(players)
        )
        self._layout = Layout()
        self._build()
        #: :attr:`incremental`, :attr:`state_class` and :attr:`row_class`, read once (a compiled
        #: class variable is read through the class, by name, at every use; a subclass's values
        #: are the ones read)
        self._incremental = self.incremental
        self._state_class = self.state_class
        self._row_class = self.row_class
        #: what every encode_state starts from: zeros, the number of players, and the game's
        #: most common values (:meth:`_fill_blank`)
        self._blank = np.zeros(self.size, dtype=np.float32)
        self._blank[self._o_players + players - 1] = 1.0
        self._fill_blank(self._blank)
        self._blank.flags.writeable = False
        #: the blank as a float view (what a row written whole goes back to first)
        self._blank_row = memoryview(self._blank.tobytes()).cast("f")
        #: every offset as an object, for an incremental encoder (:meth:`_update_row`) to
        #: write a kept row's cells through (where compiled, an int offset above 256 is
        #: made into a new object at every write)
        self._box: tuple[object, ...] = tuple(range(self.size))
        #: 0.0 and 1.0 as objects, written as they are (where compiled, a float constant is
        #: made into a new object at every write; a ``Final`` one is inlined, hence fields)
        self._zero: object = 0.0
        self._one: object = 1.0

    @property
    def size(self) -> int:
        """The length of the encoded vector."""
        return self._layout.size

    @property
    def slots(self) -> list[tuple[str, tuple[int, ...], str]]:
        """The slots in order: ``(name, shape, meaning)``."""
        return [(s.name, s.shape, s.meaning) for s in self._layout.slots]

    def slot(self, name: str) -> Slot:
        """The slot called ``name`` (raise :class:`KeyError` if there is none)."""
        for s in self._layout.slots:
            if s.name == name:
                return s
        raise KeyError(name)

    def _add(self, name: str, shape: tuple[int, ...], meaning: str) -> int:
        """Lay out the next slot (in :meth:`_build`); its offset in the vector."""
        return self._layout.add(name, shape, meaning)

    def _build(self) -> None:
        """Lay out the slots: :meth:`_common` first, then the game's own (:meth:`_add`)."""
        raise NotImplementedError

    def encode(self, view: Mapping[str, Any], belief: Belief | None) -> Vector:
        """The encoding of ``view`` (a seat's view) and the seat's memory ``belief``."""
        out = np.zeros(self.size, dtype=np.float32)
        seat = view["seat"]
        n = self.players
        out[self._o_players + n - 1] = 1.0
        for s in view.get("to_act", ()):
            out[self._o_to_act + (s - seat) % n] = 1.0
        self._encode(view, belief, out, seat)
        return out

    def encode_state(self, state: State, seat: int, belief: Belief | None) -> Vector:
        """The encoding of ``seat``'s view of ``state`` and its memory, without the view.

        Always equal to ``encode(state.view(seat), belief)``: an encoder that knows its game's
        state class (:attr:`state_class`) reads the fields the view is built from, only those
        the view shows to ``seat``, and skips building the view's JSON; for any other state it
        builds the view. The adapter tests compare both after every step of random games.
        """
        if type(state) is not self.state_class:
            return self.encode(state.view(seat), belief)
        out = self._blank.copy()  # the number of players set
        self._write_state(state, seat, belief, out)
        return out

    @property
    def blank(self) -> Vector:
        """The vector every :meth:`encode_state` starts from (read-only).

        It holds the number of players and the values :meth:`_fill_blank` gives. A batch of
        rows made from it (``np.tile``) is what :meth:`encode_state_into` writes into.
        """
        return self._blank

    def encode_state_into(
        self, state: State, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        """Write :meth:`encode_state`'s vector into ``out``, which holds :attr:`blank`.

        ``out`` is a memoryview of :attr:`size` ``float32`` values (format ``"f"``), such as
        one row of a batch made with ``np.tile(encoder.blank, (n, 1))`` and cast to floats:
        what a batched environment writes for each of its games at every step, with no vector
        made and copied per game (``campfire.adapters.vector``).
        """
        if type(state) is not self.state_class:
            out[:] = cast("memoryview[float]", self.encode(state.view(seat), belief).data)
            return
        n = self.players
        for s in state.seats_to_act():
            out[self._o_to_act + (s - seat) % n] = 1.0
        self._encode_state(state, seat, belief, out)

    #: whether the encoder keeps a row up to date itself, writing only what changed since
    #: (:meth:`_update_row`, with a memo of one :attr:`row_class`); else
    #: :meth:`update_state_into` writes the whole row again at every call
    incremental: ClassVar[bool] = False
    #: an :attr:`incremental` encoder's memo: what its row shows (made with no argument)
    row_class: ClassVar[type[Part]] = Part

    def update_state_into(
        self,
        state: State,
        seat: int,
        belief: Belief | None,
        out: memoryview[float],
        memo: list[Part] | None,
    ) -> list[Part]:
        """Bring a kept row up to date: afterwards ``out`` holds :meth:`encode_state`'s vector.

        ``out`` (a float memoryview of :attr:`size` values, as for :meth:`encode_state_into`)
        holds either the blank, with ``memo`` ``None`` or a memo whose parts were all reset
        (:meth:`Part.reset`), or what this method wrote there for the same seat of the same
        game when it returned ``memo``; the answer is the memo for the next call. A batch
        keeps one row per game and seat this way and brings a seat's row up to date when that
        seat is to act.

        An :attr:`incremental` encoder's memo is one :attr:`row_class` (what the row shows, as
        ints and lists), and :meth:`_update_row` writes only what changed since, a few values
        a move where the whole row is hundreds. Any other encoder, or a state not of
        :attr:`state_class`, has the whole row written again (the blank, then
        :meth:`encode_state_into`) and an empty memo; an empty memo handed back is the sign of
        that whole write, so the next kept row starts again from the blank.
        """
        if not self._incremental or type(state) is not self._state_class:
            if memo is not None:
                out[:] = self._blank_row
            self.encode_state_into(state, seat, belief, out)
            return []
        if not memo:
            if memo is not None:  # written whole before: start again from the blank
                out[:] = self._blank_row
            memo = [self._row_class()]
        self._update_row(state, seat, belief, out, memo[0])
        return memo

    def _update_row(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], part: Part
    ) -> None:
        """Bring ``out``, which shows what ``part`` says, up to date (an incremental encoder's).

        ``state`` is of :attr:`state_class` and ``part`` of :attr:`row_class`: compare its
        fields with the state (and ``belief``) and, where they differ, write the row's values
        and bring the fields up to date, with :meth:`_move`, :meth:`_show_bits` and
        :meth:`_show_counts`. Afterwards ``out`` equals :meth:`encode_state`'s vector.
        """
        raise NotImplementedError

    def _move(self, cells: Any, old: int, new: int) -> int:
        """Move a one-hot value of a kept row (``cells``) from offset ``old`` to ``new``.

        ``-1`` is none (the blank's zero there); the answer is ``new``. Written through the
        boxed offsets and floats (:attr:`_box`).
        """
        if old >= 0:
            cells[self._box[old]] = self._zero
        if new >= 0:
            cells[self._box[new]] = self._one
        return new

    def _show_bits(self, cells: Any, o: int, old: int, new: int) -> int:
        """Show slot ``o + r`` as 1.0 for each bit ``r`` of ``new``, where ``old``'s bits were.

        For a kept row's set of slots (several seats to act, a queue of seats): only the slots
        whose bit changed are written (a cleared one as the blank's zero); the answer is
        ``new``.

        >>> class Seats(Encoder):
        ...     game, max_players = "seats", 3
        ...
        ...     def _build(self) -> None:
        ...         self._common()
        >>> enc = Seats(3)
        >>> row = memoryview(bytearray(4 * enc.size)).cast("f")
        >>> enc._show_bits(row, enc._o_to_act, 0, 0b011), row.tolist()[enc._o_to_act :]
        (3, [1.0, 1.0, 0.0])
        >>> enc._show_bits(row, enc._o_to_act, 0b011, 0b110), row.tolist()[enc._o_to_act :]
        (6, [0.0, 1.0, 1.0])
        """
        changed = old ^ new
        r = 0
        while changed >> r:
            if changed >> r & 1:
                cells[self._box[o + r]] = self._one if new >> r & 1 else self._zero
            r += 1
        return new

    def _show_counts(
        self,
        cells: Any,
        base: int,
        old: list[int],
        new: list[int],
        slots: tuple[int, ...],
        divisor: float,
    ) -> None:
        """Write ``new``'s items counted by slot (/ ``divisor``) from ``base``, where ``old`` was.

        For an :attr:`incremental` encoder's :meth:`_update_row`: a list of things shown counted
        by kind (cards by face, tiles by type) whose row shows ``old`` (a copy the memo keeps)
        and whose state now holds ``new``; ``slots[item]`` is an item's slot from ``base``
        (``-1``: not counted there). Only the items between the part both lists share from
        their start and the part they share at their end can have another count: each of
        their slots is counted again in ``new`` and written (a zero as the blank's). A thing
        drawn or played is added at the end of its list, one given up leaves the rest in
        order: a move counts a slot or two, where a hand or a pile has dozens.

        ``cells`` is the row (a float memoryview), written through the boxed offsets.

        >>> class Hand(Encoder):
        ...     game, max_players = "hand", 2
        ...
        ...     def _build(self) -> None:
        ...         self._common()
        ...         self._o_hand = self._add("hand", (3,), "cards by kind")
        >>> enc = Hand(2)
        >>> row = memoryview(bytearray(4 * enc.size)).cast("f")
        >>> enc._show_counts(row, enc._o_hand, [], [2, 0, 2], (0, 1, 2), 1.0)
        >>> enc._show_counts(row, enc._o_hand, [2, 0, 2], [2, 2], (0, 1, 2), 1.0)
        >>> row.tolist()[enc._o_hand :]
        [0.0, 0.0, 2.0]
        """
        box = self._box
        n, m = len(old), len(new)
        k = 0
        end = min(n, m)
        while k < end and old[k] == new[k]:
            k += 1
        shared = 0  # at the end (after k in both)
        end -= k
        while shared < end and old[n - 1 - shared] == new[m - 1 - shared]:
            shared += 1
        for j in range(k, n - shared):
            slot = slots[old[j]]
            if slot >= 0:
                cells[box[base + slot]] = _count(new, slots, slot) / divisor
        for j in range(k, m - shared):
            slot = slots[new[j]]
            if slot >= 0:
                cells[box[base + slot]] = _count(new, slots, slot) / divisor

    def _write_state(self, state: State, seat: int, belief: Belief | None, out: Vector) -> None:
        """Write the seats to act and the game's slots into ``out`` (which holds the blank)."""
        # written through a memoryview of the array: an item write costs half a numpy one
        # (every value written must be a float)
        slots = cast("memoryview[float]", out.data)
        n = self.players
        for s in state.seats_to_act():
            slots[self._o_to_act + (s - seat) % n] = 1.0
        self._encode_state(state, seat, belief, slots)

    #: the engine state class whose fields :meth:`encode_state` reads (``None``: none)
    state_class: ClassVar[type[State] | None] = None

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        """Write the game's slots of ``state`` seen by ``seat`` into ``out`` (floats).

        ``out`` starts as the blank of :meth:`_fill_blank`.
        """
        raise NotImplementedError

    def _fill_blank(self, blank: Vector) -> None:
        """Set the values :meth:`_encode_state` finds before it writes (default: none)."""

    def _common(self) -> None:
        """Lay out the slots every encoder starts with: ``players`` and ``to_act``."""
        self._o_players = self._add(
            "players", (self.max_players,), "one-hot: the number of players (index = players − 1)"
        )
        self._o_to_act = self._add("to_act", (self.max_players,), "relative seats that may act now")

    def _encode(
        self, view: Mapping[str, Any], belief: Belief | None, out: Vector, seat: int
    ) -> None:
        """Write the game's slots of ``view`` (``seat``'s) and ``belief`` into ``out`` (zeros)."""
        raise NotImplementedError


def _count(items: list[int], slots: tuple[int, ...], slot: int) -> int:
    """How many of ``items`` have slot ``slot`` (``slots[item]``).

    >>> _count([4, 1, 4], (0, 1, 0, 0, 2), 2)
    2
    """
    count = 0
    for item in items:
        if slots[item] == slot:
            count += 1
    return count


def float_counts(items: Iterable[int]) -> tuple[tuple[int, float], ...]:
    """``(value, count)`` of each distinct value of ``items``, the counts as floats.

    In the order the values first appear, as the slots take them. Counted in a loop (a C
    loop in the compiled build; ``Counter`` counts in Python in either).

    >>> float_counts([3, 1, 3])
    ((3, 2.0), (1, 1.0))
    """
    counts: dict[int, int] = {}
    for i in items:
        counts[i] = counts.get(i, 0) + 1
    return tuple([(i, float(count)) for i, count in counts.items()])


def count_into(out: Vector, offset: int, items: Iterable[int], scale: float) -> None:
    """Set ``out[offset + i]`` to ``scale`` × the number of times ``i`` occurs in ``items``.

    One write per distinct value (a numpy item write is far cheaper than ``+=``); the slots
    written must be zero before.
    """
    counts: dict[int, int] = {}
    get = counts.get
    for i in items:
        counts[i] = get(i, 0) + 1
    for i, count in counts.items():
        out[offset + i] = count * scale
