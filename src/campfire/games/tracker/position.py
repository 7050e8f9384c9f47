"""Reading a Tracker position strictly: the fields, then one named check per rule (tracker §3–§5).

:func:`read_state` reads a position's ``state`` object (``docs/notation/tracker.md``, section
"Position"): :func:`~campfire.core.fields.read_fields` reads each field as
``TrackerState.FIELDS`` declares it (presence, no unknown field, types, ranges, card names);
then each invariant across fields is one ``_check_*`` function below, named after the
invariant, whose docstring says the rules section it comes from and the error it raises. The
checks run in a fixed order and the first one broken is reported, so a position breaking
several rules is refused for the first of them.
``tests/games/tracker/test_positions.py`` builds, for every check, a position that breaks only
its invariant.

>>> from campfire.games.tracker import GAME
>>> position = GAME.new_game(2, seed=1).to_position()
>>> position["state"]["relocations"] = 1
>>> read_state(2, GAME.options({}), position["state"])
Traceback (most recent call last):
    ...
campfire.core.errors.PositionError: relocations: moves are counted only while relocating
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campfire.core import ErrorText, PositionError
from campfire.core.fields import ReadContext, read_fields

from .cards import NUM_CARDS, NUM_POSITIONS, TRACKERS_PER_PLAYER, card_name
from .options import TrackerOptions
from .state import (
    COLLECTING,
    EMPTY,
    FINAL_CAPTURE,
    FINAL_PEEK,
    GAME_OVER,
    NO_SEAT,
    NORMAL,
    PEEKING,
    PHASES,
    PLACING,
    RELOCATING,
    STEPS,
    TURN_START,
    TrackerState,
)

__all__ = ["check_cards", "read_state"]

#: the steps each phase has (tracker §4: a normal turn peeks or captures and relocates; §5.1: the
#: final peek only peeks, the final capture has no relocation)
_PHASE_STEPS = {
    NORMAL: (TURN_START, PEEKING, COLLECTING, RELOCATING, PLACING),
    FINAL_PEEK: (TURN_START, PEEKING),
    FINAL_CAPTURE: (TURN_START, COLLECTING),
    GAME_OVER: (TURN_START,),
}
#: the steps of a capture turn, after its trackers were played (tracker §4.3, §4.4)
_CAPTURE_STEPS = (COLLECTING, RELOCATING, PLACING)


def read_state(players: int, options: TrackerOptions, s: Mapping[str, Any]) -> TrackerState:
    """Read and check a position's ``state`` object (every problem is a :class:`PositionError`).

    The checks run in this order; each raises the error its docstring names.
    """
    f = _read(players, options, s)
    _check_every_card_once(f)
    _check_captures_played_trackers(f)
    _check_someone_acts_before_the_end(f)
    _check_nobody_acts_after_the_end(f)
    _check_last_player_only_in_final_turns(f)
    _check_final_turns_are_the_last_players(f)
    _check_one_holder_means_final_turns(f)
    _check_only_the_last_player_holds_trackers(f)
    _check_step_belongs_to_phase(f)
    _check_board_not_empty_before_the_end(f)
    _check_turn_needs_trackers(f)
    _check_capture_began_with_trackers(f)
    _check_peeked_distinct_and_occupied(f)
    _check_peek_in_progress_not_complete(f)
    _check_peeked_only_while_peeking(f)
    _check_relocation_has_an_empty_position(f)
    _check_relocations_only_while_relocating(f)
    _check_lifted_card_on_the_board(f)
    _check_lifted_only_while_placing(f)
    state = _build(f)
    _check_seat_has_a_legal_step(state)
    return state


# ----- the fields, read and built ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Fields:
    """A position's ``state`` fields as :func:`read_fields` decoded them (the state's names)."""

    players: int
    options: TrackerOptions
    tribes: list[int]
    start_player: int
    board: list[int]
    hands: list[int]
    captured: list[list[int]]
    phase: int
    step: int
    seat: int
    peeked: list[int]
    moves: int
    lifted: int
    last_player: int
    #: the number of cards on the board
    occupied: int

    @property
    def over(self) -> bool:
        """Whether the game is over."""
        return self.phase == GAME_OVER

    def others_with_trackers(self) -> int:
        """How many seats other than the one to act still hold trackers."""
        return sum(1 for p in range(self.players) if p != self.seat and self.hands[p] > 0)


def _read(players: int, options: TrackerOptions, s: Mapping[str, Any]) -> _Fields:
    """Read every field by ``TrackerState.FIELDS`` (the errors of :func:`read_fields`)."""
    v = read_fields(TrackerState, s, ReadContext(players, options))
    board: list[int] = v["board"]
    return _Fields(
        players=players,
        options=options,
        tribes=v["tribes"],
        start_player=v["start_player"],
        board=board,
        hands=v["trackers"],
        captured=v["captured"],
        phase=v["phase"],
        step=v["step"],
        seat=v["seat"],
        peeked=v["peeked"],
        moves=v["relocations"],
        lifted=v["lifted"],
        last_player=v["last_player"],
        occupied=sum(1 for c in board if c != EMPTY),
    )


def _build(f: _Fields) -> TrackerState:
    """The state of checked fields (the centre holds every tracker played)."""
    state = TrackerState.new(f.options, f.tribes, f.board, f.start_player)
    state.hands = f.hands
    state.centre = sum(TRACKERS_PER_PLAYER - h for h in f.hands)
    state.captured = f.captured
    state.phase = f.phase
    state.step = f.step
    state.seat = f.seat
    state.peeked = f.peeked
    state.moves = f.moves
    state.lifted = f.lifted
    state.last_player = f.last_player
    return state


def check_cards(cards: list[int], error: type[ValueError]) -> None:
    """Each of the 60 cards must appear exactly once (a setup's board, a position's cards).

    Raises ``error``: "card X appears twice; …" for the first card seen twice, else "card X
    is missing; …" for the first card absent (``EMPTY`` entries are skipped).
    """
    present = [c for c in cards if c != EMPTY]
    if len(present) != NUM_CARDS or len(set(present)) != NUM_CARDS:
        seen: set[int] = set()
        dup = next((c for c in present if c in seen or seen.add(c)), None)  # type: ignore[func-returns-value]
        if dup is not None:
            raise error(
                ErrorText(
                    "card {value} appears twice; each of the 60 cards appears once",
                    value=card_name(dup),
                )
            )
        missing = sorted(set(range(NUM_CARDS)) - set(present))
        raise error(
            ErrorText(
                "card {value} is missing; each of the 60 cards appears exactly once",
                value=card_name(missing[0]),
            )
        )


# ----- the cards and the trackers ----------------------------------------------------------------


def _check_every_card_once(f: _Fields) -> None:
    """Each of the 60 cards is on the board or in one captured pile, exactly once (tracker §3).

    All 60 cards are laid on the board (§3) and a capture only moves them to a pile (§4.3).
    Raises :class:`PositionError` "card X appears twice; …" or "card X is missing; …"
    (:func:`check_cards`).
    """
    check_cards(f.board + [c for pile in f.captured for c in pile], PositionError)


def _check_captures_played_trackers(f: _Fields) -> None:
    """A seat with captured cards has played at least one tracker (tracker §4.3).

    Raises :class:`PositionError` "captured[p]: seat p has captured cards but still holds all
    its trackers …".
    """
    for p in range(f.players):
        if f.captured[p] and f.hands[p] == TRACKERS_PER_PLAYER:
            raise PositionError(
                ErrorText(
                    "captured[{p}]: seat {p} has captured cards but still holds all its "
                    "trackers (a capture plays trackers, tracker rules §4.3)",
                    p=p,
                )
            )


# ----- the seat to act and the phase -------------------------------------------------------------


def _check_someone_acts_before_the_end(f: _Fields) -> None:
    """Until the game is over, a seat is to act (tracker §4.1: players take turns).

    Raises :class:`PositionError` "seat must be a whole number 0–N (got None)".
    """
    if not f.over and f.seat == NO_SEAT:
        raise PositionError(
            ErrorText("seat must be a whole number 0–{last} (got None)", last=f.players - 1)
        )


def _check_nobody_acts_after_the_end(f: _Fields) -> None:
    """In a finished game no seat is to act (tracker §5: the game ends).

    Raises :class:`PositionError` "seat: nobody is to act in a finished game (null)".
    """
    if f.over and f.seat != NO_SEAT:
        raise PositionError(ErrorText("seat: nobody is to act in a finished game (null)"))


def _check_last_player_only_in_final_turns(f: _Fields) -> None:
    """In the normal phase there is no last player yet (tracker §5.1).

    Raises :class:`PositionError` "last_player is set only once the final turns have begun".
    """
    if f.phase == NORMAL and f.last_player != NO_SEAT:
        raise PositionError(ErrorText("last_player is set only once the final turns have begun"))


def _check_final_turns_are_the_last_players(f: _Fields) -> None:
    """The final peek and the final capture are taken by the last player (tracker §5.1).

    Raises :class:`PositionError` "last_player: the final turns are the last player's (seat)".
    """
    if f.phase in (FINAL_PEEK, FINAL_CAPTURE) and f.last_player != f.seat:
        raise PositionError(ErrorText("last_player: the final turns are the last player's (seat)"))


def _check_one_holder_means_final_turns(f: _Fields) -> None:
    """In the normal phase another seat than the one to act holds trackers (tracker §5.1).

    With one player left holding trackers the final turns have begun. Raises
    :class:`PositionError` "trackers: with one player left holding trackers the final turns
    begin …; phase must be final_peek".
    """
    if f.phase == NORMAL and f.others_with_trackers() == 0:
        raise PositionError(
            ErrorText(
                "trackers: with one player left holding trackers the final turns begin "
                "(tracker rules §5.1); phase must be final_peek"
            )
        )


def _check_only_the_last_player_holds_trackers(f: _Fields) -> None:
    """In the final turns no seat but the last player holds trackers (tracker §5.1).

    Raises :class:`PositionError` "trackers: in the final turns only the last player holds
    trackers …".
    """
    if f.phase in (FINAL_PEEK, FINAL_CAPTURE) and f.others_with_trackers():
        raise PositionError(
            ErrorText(
                "trackers: in the final turns only the last player holds trackers "
                "(tracker rules §5.1)"
            )
        )


def _check_step_belongs_to_phase(f: _Fields) -> None:
    """The step is one the phase's turns have (tracker §4, §5.1).

    A normal turn peeks, or captures and relocates (§4); the final peek only peeks, the final
    capture has no relocation (§5.1); a finished game rests at ``turn_start``. Raises
    :class:`PositionError` "step: a P turn has no S step (allowed: …)".
    """
    allowed = _PHASE_STEPS[f.phase]
    if f.step not in allowed:
        raise PositionError(
            ErrorText(
                "step: a {phases} turn has no {steps} step (allowed: {items})",
                phases=PHASES[f.phase],
                steps=STEPS[f.step],
                items=", ".join(STEPS[a] for a in allowed),
            )
        )


def _check_board_not_empty_before_the_end(f: _Fields) -> None:
    """Until the game is over the board holds a card (tracker §5.2: an empty board ends it).

    Raises :class:`PositionError` "board: the game ends when the board is empty …".
    """
    if not f.over and f.occupied == 0:
        raise PositionError(
            ErrorText("board: the game ends when the board is empty (tracker rules §5.2)")
        )


def _check_turn_needs_trackers(f: _Fields) -> None:
    """A turn starts only for a seat that holds trackers (tracker §4.5).

    Checked at ``turn_start`` and while peeking (a capture may have played the last one).
    Raises :class:`PositionError` "trackers[s]: a player without trackers takes no more
    turns …".
    """
    if not f.over and f.step in (TURN_START, PEEKING) and f.hands[f.seat] == 0:
        raise PositionError(
            ErrorText(
                "trackers[{seat}]: a player without trackers takes no more turns "
                "(tracker rules §4.5)",
                seat=f.seat,
            )
        )


def _check_capture_began_with_trackers(f: _Fields) -> None:
    """During a capture the seat to act has played at least one tracker (tracker §4.3).

    Raises :class:`PositionError` "trackers[s]: a capture turn begins by playing trackers …".
    """
    if not f.over and f.step in _CAPTURE_STEPS and f.hands[f.seat] == TRACKERS_PER_PLAYER:
        raise PositionError(
            ErrorText(
                "trackers[{seat}]: a capture turn begins by playing trackers (tracker rules §4.3)",
                seat=f.seat,
            )
        )


# ----- the turn in progress ----------------------------------------------------------------------


def _check_peeked_distinct_and_occupied(f: _Fields) -> None:
    """A peek in progress has looked at different positions, each holding a card (tracker §4.2).

    Raises :class:`PositionError` "peeked: distinct occupied positions …".
    """
    if f.step == PEEKING and (
        len(set(f.peeked)) != len(f.peeked) or any(f.board[p] == EMPTY for p in f.peeked)
    ):
        raise PositionError(ErrorText("peeked: distinct occupied positions (tracker rules §4.2)"))


def _check_peek_in_progress_not_complete(f: _Fields) -> None:
    """A peek in progress has looked at 1 card or more, fewer than the peek takes (tracker §4.2).

    A peek takes ``min(peek_count, cards on the board)`` cards (§4.2, §8.1) and ends by itself
    with the last. Raises :class:`PositionError` "peeked: a peek turn in progress has looked at
    1–N cards (got n)".
    """
    takes = min(f.options.peek_count, f.occupied)
    if f.step == PEEKING and not 1 <= len(f.peeked) < takes:
        raise PositionError(
            ErrorText(
                "peeked: a peek turn in progress has looked at 1–{last} cards (got {n_peeked})",
                last=takes - 1,
                n_peeked=len(f.peeked),
            )
        )


def _check_peeked_only_while_peeking(f: _Fields) -> None:
    """Peeked positions are listed only during a peek turn (tracker §4.2).

    Raises :class:`PositionError` "peeked: positions are listed only during a peek turn".
    """
    if f.step != PEEKING and f.peeked:
        raise PositionError(ErrorText("peeked: positions are listed only during a peek turn"))


def _check_relocation_has_an_empty_position(f: _Fields) -> None:
    """While relocating, the board has an empty position to move a card to (tracker §4.4).

    Raises :class:`PositionError` "step: relocation needs an empty position …".
    """
    if f.step in (RELOCATING, PLACING) and f.occupied == NUM_POSITIONS:
        raise PositionError(
            ErrorText("step: relocation needs an empty position (tracker rules §4.4)")
        )


def _check_relocations_only_while_relocating(f: _Fields) -> None:
    """Moves are counted only during the relocation step (tracker §4.4).

    Raises :class:`PositionError` "relocations: moves are counted only while relocating".
    """
    if f.step not in (RELOCATING, PLACING) and f.moves:
        raise PositionError(ErrorText("relocations: moves are counted only while relocating"))


def _check_lifted_card_on_the_board(f: _Fields) -> None:
    """While placing, ``lifted`` is an occupied position: the card being moved (tracker §4.4).

    Raises :class:`PositionError` "lifted: the occupied position whose card is being moved".
    """
    if f.step == PLACING and (f.lifted == EMPTY or f.board[f.lifted] == EMPTY):
        raise PositionError(ErrorText("lifted: the occupied position whose card is being moved"))


def _check_lifted_only_while_placing(f: _Fields) -> None:
    """A card is lifted only while it is being moved (tracker §4.4).

    Raises :class:`PositionError` "lifted: a card is lifted only while placing it".
    """
    if f.step != PLACING and f.lifted != EMPTY:
        raise PositionError(ErrorText("lifted: a card is lifted only while placing it"))


# ----- the state built ---------------------------------------------------------------------------


def _check_seat_has_a_legal_step(state: TrackerState) -> None:
    """Until the game is over the seat to act has a legal step (tracker §4.1: no passing).

    A backstop: the checks above already leave every seat a step, so no position read through
    :func:`read_state` reaches it today. Raises :class:`PositionError` "seat s would have no
    legal step in this position".
    """
    if state.phase != GAME_OVER and not state.legal_actions():
        raise PositionError(
            ErrorText("seat {seat} would have no legal step in this position", seat=state.seat)
        )
