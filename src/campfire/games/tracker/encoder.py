"""Tracker's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, cast, get_args

from campfire.core import Belief
from campfire.core.encoding import Encoder, Vector

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
_TRACKER_INTEREST: Final = (0.0, 1 / 3, 2 / 3)  # other seats' peeks / 3 (1 from 3 peeks on)
_TRACKER_PHASE_SLOT: Final = tuple(_TRACKER_PHASE[name] for name in tracker_state.PHASES)
_TRACKER_STEP_SLOT: Final = tuple(_TRACKER_STEP[name] for name in tracker_state.STEPS)
_MAX_PLAYERS: Final = 6
_WIDTH: Final = 13  # len(_TRACKER_CHANNELS): the channels of a board position
assert len(_TRACKER_CHANNELS) == _WIDTH


class TrackerEncoder(Encoder):
    """Tracker: the board as 60 positions × 13 channels, with the seat's memory of its peeks."""

    game = "tracker"
    max_players = _MAX_PLAYERS
    uses_memory = True
    state_class = TrackerState
    POSITIONS: ClassVar[int] = NUM_POSITIONS

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
            out[board + pos * width + 12] = _TRACKER_INTEREST[count] if count < 3 else 1.0

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        # the fields TrackerState.view builds the keys read by _encode from: the board's
        # occupied positions (never which card), counts, and the seat's own memory
        st = cast(TrackerState, state)
        p, n = _MAX_PLAYERS, self.players
        out[self._o_phase + _TRACKER_PHASE_SLOT[st.phase]] = 1.0
        out[self._o_step + _TRACKER_STEP_SLOT[st.step]] = 1.0
        o = self._o_seats
        nobody = tracker_state.NO_SEAT
        out[o + (st.start_player - seat) % n] = 1.0
        last = st.last_player
        out[o + p + 1 + (p if last == nobody else (last - seat) % n)] = 1.0
        o = self._o_counts
        trackers, captured = st.hands, st.captured
        for s in range(n):
            r = (s - seat) % n
            if trackers[s]:
                out[o + r] = trackers[s] / TRACKERS_PER_PLAYER
            if captured[s]:
                out[o + p + r] = len(captured[s]) / NUM_CARDS
        out[self._o_turn] = st.centre / 18
        out[self._o_turn + 1] = st.moves / 3
        board = self._o_board
        empty = tracker_state.EMPTY
        # the occupied positions: every position starts occupied (_fill_blank), the empty ones
        # are cleared (a loop over the board's ints, a C loop where compiled)
        cells = st.board
        at = self._occupied_at  # each position's first channel
        for pos in range(NUM_POSITIONS):
            if cells[pos] == empty:
                out[at[pos]] = 0.0
        for pos in st.peeked:
            out[board + pos * _WIDTH + 1] = 1.0
        if st.lifted != empty:
            out[board + st.lifted * _WIDTH + 2] = 1.0
        known: dict[int, int]
        interest: dict[int, int]
        if isinstance(belief, TrackerMemory):  # the game's own memory: its fields, typed
            known, interest = belief.known, belief.interest
        else:
            known = getattr(belief, "known", None) or {} if belief else {}
            interest = getattr(belief, "interest", None) or {} if belief else {}
        if known:
            key = (seat, *st.tribes)
            channel = self._channels.get(key)
            if channel is None:  # per card: its channel seen from this seat
                owner = {t: 4 + (s - seat) % n for s, t in enumerate(st.tribes)}
                channel = tuple(
                    owner.get(tribe_of(card), 10) if is_scout(card) else 11
                    for card in range(NUM_CARDS)
                )
                self._channels[key] = channel
            for pos, card in known.items():
                base = at[pos]
                out[base + 3] = 1.0
                out[base + channel[card]] = 1.0
        if interest:
            for pos, count in interest.items():
                out[at[pos] + 12] = _TRACKER_INTEREST[count] if count < 3 else 1.0
