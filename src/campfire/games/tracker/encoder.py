"""Tracker's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, cast, get_args

from campfire.core import Belief
from campfire.core.encoding import Encoder, Part, Vector

from . import state as tracker_state
from .bots import TrackerMemory
from .cards import (
    NUM_CARDS,
    NUM_POSITIONS,
    TRACKERS_PER_PLAYER,
    is_scout,
    parse_tribe,
    tribe_of,
)
from .state import TrackerState
from .types import Phase as TrackerPhase
from .types import Step as TrackerStep
from .types import TrackerView

__all__ = ["TrackerEncoder"]

_TRACKER_PHASES: Final[tuple[str, ...]] = get_args(TrackerPhase)
_TRACKER_STEPS: Final[tuple[str, ...]] = get_args(TrackerStep)
_TRACKER_CHANNELS: Final = (
    "occupied",
    "peeked_this_turn",
    "lifted",
    "known",
    "known_own_scout",
    "known_scout_seat_1",
    "known_scout_seat_2",
    "known_scout_seat_3",
    "known_scout_seat_4",
    "known_scout_seat_5",
    "known_scout_no_player",
    "known_false_track",
    "interest",
)


_TRACKER_PHASE: Final = {name: i for i, name in enumerate(_TRACKER_PHASES)}
_TRACKER_STEP: Final = {name: i for i, name in enumerate(_TRACKER_STEPS)}


def _interest(count: int) -> float:
    """A position's interest channel: other seats' peeks there / 3, 1 from three on."""
    return min(count, 3) / 3


_TRACKER_PHASE_SLOT: Final = tuple(_TRACKER_PHASE[name] for name in tracker_state.PHASES)
_TRACKER_STEP_SLOT: Final = tuple(_TRACKER_STEP[name] for name in tracker_state.STEPS)
_MAX_PLAYERS: Final = 6
_WIDTH: Final = 13  # len(_TRACKER_CHANNELS): the channels of a board position
assert len(_TRACKER_CHANNELS) == _WIDTH
_NO_CARD: Final = -1  # no card known at a position (in a look-up)


class _Row(Part):
    """The memo of a kept Tracker row (:meth:`TrackerEncoder._update_row`): what it shows.

    The offsets of the one-hot values it set (``-1``: none, as in the blank): the seat to act,
    the phase, the step, the start and last seats, the lifted position; per seat the trackers
    in hand and the pile size it shows, and the trackers in the centre and the relocations
    this turn (zeros: the blank's); copies of the peeked positions and of the board it
    shows (an empty board: the blank's). Of the seat's memory, per position, the known card
    it shows (``-1``: none) and the interest (other seats' peeks), with the channel of each
    card's kind it wrote them with; with the game's own memory, that memory and how many
    entries of its change log (``TrackerMemory.touched``) the row has followed; with another
    memory, copies of the dicts it was written from (one of the two, the other ``None``).
    :meth:`reset` makes it a new one's again, for a row put back to the blank.
    """

    def reset(self) -> None:
        """Show the blank (a new row, or one put back to the blank)."""
        self.acting = self.phase_at = self.step_at = self.start_at = self.last_at = -1
        self.hands = [0] * _MAX_PLAYERS
        self.piles = [0] * _MAX_PLAYERS
        self.centre = self.moves = 0
        self.peeked: list[int] = []
        self.lifted_at = -1
        self.board: list[int] = []
        self.cards = [_NO_CARD] * NUM_POSITIONS
        self.peeks = [0] * NUM_POSITIONS
        self.channel: tuple[int, ...] = ()
        self.memory: TrackerMemory | None = None
        self.count = 0
        self.known: dict[int, int] | None = None
        self.interest: dict[int, int] | None = None


class TrackerEncoder(Encoder):
    """Tracker: the board as 60 positions × 13 channels, with the seat's memory of its peeks."""

    game = "tracker"
    max_players = _MAX_PLAYERS
    uses_memory = True
    state_class = TrackerState
    POSITIONS: ClassVar[int] = NUM_POSITIONS
    #: a kept row is brought up to date with only what changed (:meth:`_update_row`, one
    #: :class:`_Row` as its memo)
    incremental = True
    row_class = _Row

    def _build(self) -> None:
        p = self.max_players
        self._channels: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._common()
        self._o_phase = self._add(
            "phase", (4,), "one-hot: normal, final_peek, final_capture, game_over"
        )
        self._o_step = self._add(
            "step", (5,), "one-hot: turn_start, peeking, collecting, relocating, placing"
        )
        self._o_seats = self._add(
            "start_last", (2, p + 1), "one-hot relative seat (last: nobody): start, last player"
        )
        self._o_counts = self._add(
            "counts",
            (2, p),
            "per relative seat: trackers left / 3, captured cards / 60 (never which)",
        )
        self._o_turn = self._add(
            "turn", (2,), "trackers in the centre / 18, relocations this turn / 3"
        )
        self._o_board = self._add(
            "board",
            (self.POSITIONS, len(_TRACKER_CHANNELS)),
            "per position: occupied; peeked this turn; lifted; and from the seat's own memory "
            "(its peeks, followed through relocations): known card; known scout of its own "
            "tribe; known scout of relative seat 1…5's tribe; known scout of a tribe nobody "
            "plays; known false track; other seats' peeks there / 3 (capped at 1)",
        )
        width = len(_TRACKER_CHANNELS)
        #: the "occupied" channel of every position
        self._occupied_at = tuple(self._o_board + pos * width for pos in range(self.POSITIONS))

    def _fill_blank(self, blank: Vector) -> None:
        blank[list(self._occupied_at)] = 1.0  # cleared where a position is empty

    def _encode(
        self, view: Mapping[str, Any], belief: Belief | None, out: Vector, seat: int
    ) -> None:
        view = cast(TrackerView, view)
        p, n = self.max_players, self.players
        out[self._o_phase + _TRACKER_PHASE[view["phase"]]] = 1.0
        out[self._o_step + _TRACKER_STEP[view["step"]]] = 1.0
        o = self._o_seats
        for i, who in enumerate((view["start_player"], view["last_player"])):
            out[o + i * (p + 1) + (p if who is None else (who - seat) % n)] = 1.0
        o = self._o_counts
        trackers, captured = view["trackers"], view["captured_counts"]
        for s in range(n):
            r = (s - seat) % n
            if trackers[s]:
                out[o + r] = trackers[s] / TRACKERS_PER_PLAYER
            if captured[s]:
                out[o + p + r] = captured[s] / NUM_CARDS
        out[self._o_turn] = view["centre"] / 18
        out[self._o_turn + 1] = view["relocations_this_turn"] / 3
        width = len(_TRACKER_CHANNELS)
        board = self._o_board
        for pos in view["occupied"]:
            out[board + pos * width] = 1.0
        for pos in view["peeked_this_turn"]:
            out[board + pos * width + 1] = 1.0
        if view["lifted"] is not None:
            out[board + view["lifted"] * width + 2] = 1.0
        known: dict[int, int] = getattr(belief, "known", None) or {} if belief else {}
        interest: dict[int, int] = getattr(belief, "interest", None) or {} if belief else {}
        if known:
            owner = {parse_tribe(t): 4 + (s - seat) % n for s, t in enumerate(view["tribes"])}
            get = owner.get
            for pos, card in known.items():
                base = board + pos * width
                out[base + 3] = 1.0
                # a false track, or a scout of a tribe: a seat's (relative) or nobody's
                out[base + (get(tribe_of(card), 10) if is_scout(card) else 11)] = 1.0
        for pos, count in interest.items():
            out[board + pos * width + 12] = _interest(count)

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        # the fields TrackerState.view builds the keys read by _encode from: the board's
        # occupied positions (never which card), counts, and the seat's own memory (a kept
        # row writes the same values where they changed: _update_row)
        st = cast(TrackerState, state)
        values: list[tuple[int, float]] = []  # the small parts' values, in one list
        self._phase_values(st, values)
        self._seat_values(st, seat, values)
        self._turn_values(st, values)
        self._peeked_values(st.peeked, values)
        self._lifted_values(st.lifted, values)
        for i, value in values:
            out[i] = value
        self._write_hands_and_piles(out, st, seat)
        self._write_occupied(out, None, st.board)
        known, interest = _memory(belief)
        if known:
            self._write_known(out, known, self._channel(st, seat))
        if interest:
            self._write_interest(out, interest)

    def _update_row(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], part: Part
    ) -> None:
        """Bring a kept row up to date: only what changed since it was last written.

        The memo is one :class:`_Row`, which holds what the row shows as ints and lists (a
        Tracker move changes two or three values of a row, and comparing native ints is what
        is left of the work where nothing changed). One-hot values (the
        seat to act, the phase, the step, the start and last seats, the lifted position) are
        kept as the offset set, moved when it changes; each seat's trackers in hand and pile
        size, the centre and the relocations as the numbers shown, each written where it
        changed; the peeked positions as a copy of the state's list. With the game's own
        memory, the board's occupied positions, the known cards and the interest are compared
        only at the positions its change log names (:meth:`_follow`); the first time, or with
        a memory of another kind, the board is compared with the row's copy and the memory's
        dicts with what the row shows (:meth:`_show_memory`).

        Every value is written through an offset and a float that are Python objects already
        (``_box``, ``_zero``, ``_one``): where compiled, an int above 256 or a float constant
        is made into a new object at every write.
        """
        st = cast(TrackerState, state)
        row = cast(_Row, part)
        n = self.players
        cells: Any = out  # written through boxed offsets and values (see _box)
        box = self._box
        acting = (
            -1 if st.phase == tracker_state.GAME_OVER else self._o_to_act + (st.seat - seat) % n
        )
        if acting != row.acting:
            row.acting = self._move(cells, row.acting, acting)
        at = self._o_phase + _TRACKER_PHASE_SLOT[st.phase]
        if at != row.phase_at:
            row.phase_at = self._move(cells, row.phase_at, at)
        at = self._o_step + _TRACKER_STEP_SLOT[st.step]
        if at != row.step_at:
            row.step_at = self._move(cells, row.step_at, at)
        p, o = _MAX_PLAYERS, self._o_seats
        at = o + (st.start_player - seat) % n
        if at != row.start_at:
            row.start_at = self._move(cells, row.start_at, at)
        last = st.last_player
        at = o + p + 1 + (p if last == tracker_state.NO_SEAT else (last - seat) % n)
        if at != row.last_at:
            row.last_at = self._move(cells, row.last_at, at)
        # per seat its trackers in hand and pile size, each written where it changed (a move
        # changes one at most; the blank's are zeros, as a new row's lists)
        o = self._o_counts
        hands, captured, shown_hands, shown_piles = st.hands, st.captured, row.hands, row.piles
        for s in range(n):
            number = hands[s]
            if number != shown_hands[s]:
                cells[box[o + (s - seat) % n]] = number / TRACKERS_PER_PLAYER
                shown_hands[s] = number
            number = len(captured[s])
            if number != shown_piles[s]:
                cells[box[o + p + (s - seat) % n]] = number / NUM_CARDS
                shown_piles[s] = number
        if st.centre != row.centre:
            cells[box[self._o_turn]] = st.centre / 18
            row.centre = st.centre
        if st.moves != row.moves:
            cells[box[self._o_turn + 1]] = st.moves / 3
            row.moves = st.moves
        peeked = st.peeked
        if peeked != row.peeked:
            self._write_peeked(out, row.peeked, peeked)
            row.peeked = peeked.copy()
        lifted = st.lifted
        at = -1 if lifted == tracker_state.EMPTY else self._occupied_at[lifted] + 2
        if at != row.lifted_at:
            row.lifted_at = self._move(cells, row.lifted_at, at)
        board = st.board
        memory = belief if isinstance(belief, TrackerMemory) else None
        if memory is not None and memory is row.memory and row.count <= len(memory.touched):
            self._follow(out, row, memory, board)
            return
        # the first time, or another memory: the board and the memory compared whole
        if board != row.board:
            self._write_occupied(out, row.board if row.board else None, board)
            row.board = board.copy()
        if memory is not None:
            self._show_memory(out, row, memory.known, memory.interest, self._channel(st, seat))
            row.memory, row.count = memory, len(memory.touched)
            row.known = row.interest = None
            return
        known, interest = _memory(belief)
        if known != row.known or interest != row.interest:
            self._show_memory(out, row, known, interest, self._channel(st, seat))
            row.known, row.interest = dict(known), dict(interest)
            row.memory = None

    def _follow(
        self, out: memoryview[float], row: _Row, memory: TrackerMemory, board: list[int]
    ) -> None:
        """Bring the board and the memory up to date at the positions of ``memory``'s log.

        The entries since the row last looked name every position whose known card or interest
        changed, and every position a card was taken from or moved from or to (the memory
        follows every take and relocation, which every seat sees): only those are compared,
        where the board has 60 positions and the known cards are dozens.
        """
        touched = memory.touched
        n = len(touched)
        if row.count == n:
            return
        empty = tracker_state.EMPTY
        at = self._occupied_at
        cells: Any = out  # written through boxed offsets and values (see _box)
        box = self._box
        shown = row.board
        known, interest = memory.known, memory.interest
        for k in range(row.count, n):
            pos = touched[k]
            cell = board[pos]
            was = shown[pos]
            if cell != was:
                if cell == empty or was == empty:
                    cells[box[at[pos]]] = self._zero if cell == empty else self._one
                shown[pos] = cell
            self._show(out, row, pos, known.get(pos, _NO_CARD))
            self._show_interest(cells, row, pos, interest.get(pos, 0))
        row.count = n

    def _show(self, out: memoryview[float], row: _Row, pos: int, card: int) -> None:
        """Show ``card`` as known at ``pos`` (``-1``: none) where the row shows another.

        A known card sets its position's "known" channel and its kind's (``row.channel``).
        """
        was = row.cards[pos]
        if card != was:
            base = self._occupied_at[pos]
            channel = row.channel
            cells: Any = out  # written through boxed offsets and values (see _box)
            box = self._box
            if was != _NO_CARD:
                cells[box[base + 3]] = self._zero
                cells[box[base + channel[was]]] = self._zero
            if card != _NO_CARD:
                cells[box[base + 3]] = self._one
                cells[box[base + channel[card]]] = self._one
            row.cards[pos] = card

    def _show_interest(self, cells: Any, row: _Row, pos: int, count: int) -> None:
        """Show ``count`` other seats' peeks at ``pos`` where the row shows another count."""
        if count != row.peeks[pos]:
            cells[self._box[self._occupied_at[pos] + 12]] = _interest(count)
            row.peeks[pos] = count

    def _show_memory(
        self,
        out: memoryview[float],
        row: _Row,
        known: Mapping[int, int],
        interest: Mapping[int, int],
        channel: tuple[int, ...],
    ) -> None:
        """Show ``known`` and ``interest`` whole, where the row shows something else.

        ``channel`` is the board channel of each card's kind for the row's seat and deal
        (:meth:`_channel`); cards shown with another one are cleared first.
        """
        cells: Any = out
        cards = row.cards
        if channel != row.channel:
            for pos in range(NUM_POSITIONS):
                if cards[pos] != _NO_CARD:
                    self._show(out, row, pos, _NO_CARD)
            row.channel = channel
        for pos in range(NUM_POSITIONS):
            if cards[pos] != _NO_CARD and pos not in known:
                self._show(out, row, pos, _NO_CARD)
            if pos not in interest:
                self._show_interest(cells, row, pos, 0)
        for pos, card in known.items():
            self._show(out, row, pos, card)
        for pos, count in interest.items():
            self._show_interest(cells, row, pos, count)

    # the small parts' values: (offset, value) pairs appended to ``values``, which is returned

    def _phase_values(
        self, st: TrackerState, values: list[tuple[int, float]]
    ) -> list[tuple[int, float]]:
        """The phase and step, one-hot."""
        values.append((self._o_phase + _TRACKER_PHASE_SLOT[st.phase], 1.0))
        values.append((self._o_step + _TRACKER_STEP_SLOT[st.step], 1.0))
        return values

    def _seat_values(
        self, st: TrackerState, seat: int, values: list[tuple[int, float]]
    ) -> list[tuple[int, float]]:
        """The start player and the last player (or nobody), one-hot relative seats."""
        p, n, o = _MAX_PLAYERS, self.players, self._o_seats
        last = st.last_player
        values.append((o + (st.start_player - seat) % n, 1.0))
        values.append(
            (o + p + 1 + (p if last == tracker_state.NO_SEAT else (last - seat) % n), 1.0)
        )
        return values

    def _write_hands_and_piles(self, out: memoryview[float], st: TrackerState, seat: int) -> None:
        """Per relative seat: its trackers in hand / 3 and its pile's size / 60 (zeros too)."""
        p, n, o = _MAX_PLAYERS, self.players, self._o_counts
        trackers, captured = st.hands, st.captured
        for s in range(n):
            r = (s - seat) % n
            out[o + r] = trackers[s] / TRACKERS_PER_PLAYER
            out[o + p + r] = len(captured[s]) / NUM_CARDS

    def _turn_values(
        self, st: TrackerState, values: list[tuple[int, float]]
    ) -> list[tuple[int, float]]:
        """The trackers in the centre / 18 and the relocations this turn / 3."""
        values.append((self._o_turn, st.centre / 18))
        values.append((self._o_turn + 1, st.moves / 3))
        return values

    def _peeked_values(
        self, peeked: list[int], values: list[tuple[int, float]]
    ) -> list[tuple[int, float]]:
        """The positions peeked this turn."""
        at = self._occupied_at
        for pos in peeked:
            values.append((at[pos] + 1, 1.0))
        return values

    def _lifted_values(
        self, lifted: int, values: list[tuple[int, float]]
    ) -> list[tuple[int, float]]:
        """The lifted position, if any."""
        if lifted != tracker_state.EMPTY:
            values.append((self._occupied_at[lifted] + 2, 1.0))
        return values

    def _write_peeked(self, out: memoryview[float], old: list[int], peeked: list[int]) -> None:
        """Write the peeked channel where ``peeked`` differs from ``old`` (what the row shows).

        Within a turn the list grows by one position at a time: only the new ones are
        written; otherwise (a new turn) the old ones are cleared first.
        """
        at = self._occupied_at
        cells: Any = out  # written through boxed offsets and values (see _box)
        box = self._box
        k = len(old)
        if k > len(peeked) or peeked[:k] != old:
            for pos in old:
                cells[box[at[pos] + 1]] = self._zero
            k = 0
        for i in range(k, len(peeked)):
            cells[box[at[peeked[i]] + 1]] = self._one

    def _write_occupied(
        self, out: memoryview[float], old: list[int] | None, board: list[int]
    ) -> None:
        """Write the occupied channel where it differs from ``old``'s (``None``: the blank's).

        Every position is occupied in the blank (:meth:`_fill_blank`); a loop over the board's
        ints (a C loop where compiled) clears the empty ones, or, from ``old``, writes the
        positions emptied or filled since.
        """
        empty = tracker_state.EMPTY
        # each position's cell with its first channel's offset; the lists and the tuple are as
        # long as the board (mypyc compiles a zip of positional arguments only to a C loop)
        if old is None:
            for cell, i in zip(board, self._occupied_at):  # noqa: B905 - see above
                if cell == empty:
                    out[i] = 0.0
            return
        for cell, was, i in zip(board, old, self._occupied_at):  # noqa: B905 - see above
            if cell != was and (cell == empty or was == empty):
                out[i] = 0.0 if cell == empty else 1.0

    def _write_known(
        self, out: memoryview[float], known: dict[int, int], channel: tuple[int, ...]
    ) -> None:
        """Write the known cards into a row that shows none (the blank's).

        A known card sets its position's "known" channel and its kind's (``channel``).
        """
        at = self._occupied_at
        for pos, card in known.items():
            base = at[pos]
            out[base + 3] = 1.0
            out[base + channel[card]] = 1.0

    def _write_interest(self, out: memoryview[float], interest: dict[int, int]) -> None:
        """Write other seats' peeks per position into a row that shows none (the blank's)."""
        at = self._occupied_at
        for pos, count in interest.items():
            out[at[pos] + 12] = _interest(count)

    def _channel(self, st: TrackerState, seat: int) -> tuple[int, ...]:
        """Per card: the board channel of its kind seen from ``seat``.

        A scout of relative seat ``k``'s tribe (4 + k), of a tribe nobody plays (10), or a
        false track (11); kept per seat and deal of tribes.
        """
        key = (seat, *st.tribes)
        channel = self._channels.get(key)
        if channel is None:
            n = self.players
            owner = {t: 4 + (s - seat) % n for s, t in enumerate(st.tribes)}
            channel = tuple(
                owner.get(tribe_of(card), 10) if is_scout(card) else 11 for card in range(NUM_CARDS)
            )
            self._channels[key] = channel
        return channel


def _memory(belief: Belief | None) -> tuple[dict[int, int], dict[int, int]]:
    """The seat's known cards and other seats' interest (empty without a memory)."""
    if isinstance(belief, TrackerMemory):  # the game's own memory: its fields, typed
        return belief.known, belief.interest
    known: dict[int, int] = getattr(belief, "known", None) or {} if belief else {}
    interest: dict[int, int] = getattr(belief, "interest", None) or {} if belief else {}
    return known, interest
