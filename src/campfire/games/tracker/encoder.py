"""Tracker's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
#: the parts of a kept row (Encoder.update_state_into): their places in the memo
_PHASE_STEP: Final = 1
_SEATS: Final = 2
_COUNTS: Final = 3
_TURN: Final = 4
_PEEKED: Final = 5
_LIFTED: Final = 6
_OCCUPIED: Final = 7
_KNOWN: Final = 8
_INTEREST: Final = 9
_PARTS: Final = 9
_NO_CARD: Final = -1  # no card known at a position (in a look-up)
#: no known card, no interest: what a row holds before they are first written (never changed)
_NOTHING: Final[dict[int, int]] = {}


@dataclass(eq=False)
class _Shown:
    """What a kept row shows of a :class:`TrackerMemory` (the key of its memory part).

    The memory, how many of its changes (``TrackerMemory.touched``) the row has followed, the
    known cards and interest the row shows (its own dicts, changed as the row is), and the
    board channel of each card's kind for the row's seat (fixed for a game).
    """

    memory: TrackerMemory
    count: int
    known: dict[int, int]
    interest: dict[int, int]
    channel: tuple[int, ...]


class TrackerEncoder(Encoder):
    """Tracker: the board as 60 positions × 13 channels, with the seat's memory of its peeks."""

    game = "tracker"
    max_players = _MAX_PLAYERS
    uses_memory = True
    state_class = TrackerState
    POSITIONS: ClassVar[int] = NUM_POSITIONS
    #: a kept row is brought up to date part by part (:meth:`_update_state`)
    incremental = True
    parts = _PARTS

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
        # occupied positions (never which card), counts, and the seat's own memory; each part
        # written by the functions that _update_state uses to keep a row up to date
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
            self._write_known(out, _NOTHING, known, self._channel(st, seat))
        if interest:
            self._write_interest(out, _NOTHING, interest)

    def _update_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], memo: list[Part]
    ) -> None:
        """Bring the parts of a kept row up to date that changed since it was last written.

        The keys: the phase and step, the start and last seats, the peeked positions and the
        lifted one (small parts, written again whole with :meth:`_rewrite` when their key
        changes); the trackers in hand and pile sizes (as one int), the centre and relocations
        (values at fixed offsets, each written again when its key changes);
        the board (a copy of the list: on a change only the positions that differ from it are
        written, and the copy is made only then); the known cards and the interest: with the
        game's own memory, its change log (:meth:`_follow`); with any other, copies of its
        dicts compared as the board's list is.
        """
        st = cast(TrackerState, state)
        part = memo[_PHASE_STEP]
        phase_step = st.phase * 8 + st.step
        if phase_step != part.key:
            self._rewrite(out, part, phase_step, self._phase_values(st, []))
        part = memo[_SEATS]
        seats = st.last_player * 8 + st.start_player  # NO_SEAT (-1) for nobody yet
        if seats != part.key:
            self._rewrite(out, part, seats, self._seat_values(st, seat, []))
        part = memo[_COUNTS]
        counts = 0  # per seat its trackers in hand (< 8) and pile size (< 64), as one int
        hands = st.hands
        for s, pile in enumerate(st.captured):
            counts = (counts * 8 + hands[s]) * 64 + len(pile)
        # (the counts' and the turn's offsets are fixed and always written: nothing to put back)
        if counts != part.key:
            self._write_hands_and_piles(out, st, seat)
            part.key = counts
        part = memo[_TURN]
        turn = st.moves * 64 + st.centre  # the centre holds at most 18
        if turn != part.key:
            self._overwrite(out, part, turn, self._turn_values(st, []))
        part = memo[_PEEKED]
        peeked = st.peeked
        if peeked != part.key:
            self._rewrite(out, part, peeked.copy(), self._peeked_values(peeked, []))
        part = memo[_LIFTED]
        lifted = st.lifted
        if lifted != part.key:
            self._rewrite(out, part, lifted, self._lifted_values(lifted, []))
        part = memo[_OCCUPIED]
        board = st.board
        if board != part.key:
            old_board = part.key
            self._write_occupied(out, old_board if isinstance(old_board, list) else None, board)
            part.key = board.copy()
        part = memo[_KNOWN]
        if isinstance(belief, TrackerMemory):  # its change log says which positions to look at
            self._follow(out, part, belief, st, seat)
            return
        known, interest = _memory(belief)
        if known != part.key:
            old = part.key
            now = dict(known)  # a plain dict: looked up at C speed, never changed
            self._write_known(
                out, old if isinstance(old, dict) else _NOTHING, now, self._channel(st, seat)
            )
            part.key = now
        part = memo[_INTEREST]
        if interest != part.key:
            old = part.key
            now = dict(interest)
            self._write_interest(out, old if isinstance(old, dict) else _NOTHING, now)
            part.key = now

    def _follow(
        self, out: memoryview[float], part: Part, memory: TrackerMemory, st: TrackerState, seat: int
    ) -> None:
        """Bring the row's known cards and interest up to date from ``memory``'s change log.

        Only the positions changed since the row last looked are compared (a move changes one
        or two, where the known cards are dozens); the first time, or after the log was
        emptied, the row is compared whole with what it shows.
        """
        touched = memory.touched
        n = len(touched)
        shown = part.key
        if isinstance(shown, _Shown) and shown.memory is memory and shown.count <= n:
            if shown.count == n:
                return
            channel = shown.channel
            for k in range(shown.count, n):
                self._follow_position(out, touched[k], shown, memory, channel)
            shown.count = n
            return
        old_known, old_interest = (
            (shown.known, shown.interest) if isinstance(shown, _Shown) else (_NOTHING, _NOTHING)
        )
        known, interest = dict(memory.known), dict(memory.interest)
        channel = self._channel(st, seat)
        self._write_known(out, old_known, known, channel)
        self._write_interest(out, old_interest, interest)
        part.key = _Shown(memory, n, known, interest, channel)

    def _follow_position(
        self,
        out: memoryview[float],
        pos: int,
        shown: _Shown,
        memory: TrackerMemory,
        channel: tuple[int, ...],
    ) -> None:
        """Write position ``pos``'s known card and interest where they differ from ``shown``."""
        base = self._occupied_at[pos]
        was = shown.known.get(pos, _NO_CARD)
        card = memory.known.get(pos, _NO_CARD)
        if card != was:
            if was != _NO_CARD:  # as _write_known clears it
                out[base + 3] = 0.0
                out[base + channel[was]] = 0.0
                del shown.known[pos]
            if card != _NO_CARD:
                out[base + 3] = 1.0
                out[base + channel[card]] = 1.0
                shown.known[pos] = card
        was = shown.interest.get(pos, 0)
        count = memory.interest.get(pos, 0)
        if count != was:
            if count:
                out[base + 12] = _interest(count)
                shown.interest[pos] = count
            else:
                out[base + 12] = 0.0
                del shown.interest[pos]

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
        self,
        out: memoryview[float],
        old: dict[int, int],
        known: dict[int, int],
        channel: tuple[int, ...],
    ) -> None:
        """Write the known cards where they differ from ``old`` (what the row holds).

        A known card sets its position's "known" channel and its kind's (``channel``).
        """
        at = self._occupied_at
        if old:
            for pos, card in old.items():
                if known.get(pos, _NO_CARD) != card:  # forgotten, taken, moved away
                    base = at[pos]
                    out[base + 3] = 0.0
                    out[base + channel[card]] = 0.0
            for pos, card in known.items():
                if old.get(pos, _NO_CARD) != card:
                    base = at[pos]
                    out[base + 3] = 1.0
                    out[base + channel[card]] = 1.0
            return
        for pos, card in known.items():
            base = at[pos]
            out[base + 3] = 1.0
            out[base + channel[card]] = 1.0

    def _write_interest(
        self, out: memoryview[float], old: dict[int, int], interest: dict[int, int]
    ) -> None:
        """Write other seats' peeks per position where they differ from ``old``."""
        at = self._occupied_at
        if old:
            for pos in old:
                if pos not in interest:
                    out[at[pos] + 12] = 0.0
            for pos, count in interest.items():
                if old.get(pos, 0) != count:
                    out[at[pos] + 12] = _interest(count)
            return
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
