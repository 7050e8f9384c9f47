"""Reading a Sparks position strictly: the fields, then one named check per rule.

:func:`read_state` reads a position's ``state`` object: :func:`~campfire.core.fields.read_fields`
reads each field as ``SparksState.FIELDS`` declares it (presence, no unknown field, types, seats,
card names); then each invariant across fields is one ``_check_*`` function below, whose
docstring names the rule and the error. The checks run in a fixed order and the first one
broken is reported.

>>> from campfire_sparks import GAME
>>> position = GAME.new_game(2, seed=1).to_position()
>>> position["state"]["leader"] = 1 - position["state"]["leader"]
>>> GAME.state_from_position(position)
Traceback (most recent call last):
    ...
campfire.core.errors.PositionError: leader: the first trick is led by the start player (seat ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campfire.core import ErrorText, PositionError
from campfire.core.fields import ReadContext, read_fields

from .cards import NUM_CARDS, NUM_RANKS, card_name, suit_text
from .options import SparksOptions
from .state import NO_SEAT, SparksState, trick_winner

__all__ = ["read_state"]


@dataclass(frozen=True, slots=True)
class _Fields:
    """A position's ``state`` fields as :func:`read_fields` decoded them."""

    players: int
    options: SparksOptions
    start_player: int
    hands: list[list[int]]
    unused: list[int]
    won: list[list[int]]
    leader: int
    trick: list[int]
    last_trick: list[int]
    last_leader: int

    @property
    def completed(self) -> int:
        """How many tricks are complete."""
        return sum(len(w) for w in self.won) // self.players

    def played_this_trick(self, seat: int) -> bool:
        """Whether ``seat`` has played to the current trick."""
        return any((self.leader + i) % self.players == seat for i in range(len(self.trick)))


def read_state(players: int, options: SparksOptions, s: Mapping[str, Any]) -> SparksState:
    """Read and check a position's ``state`` object (every problem is a :class:`PositionError`).

    The checks run in this order; each raises the error its docstring names.
    """
    v = read_fields(SparksState, s, ReadContext(players, options))
    f = _Fields(
        players,
        options,
        v["start_player"],
        v["hands"],
        v["unused"],
        v["won"],
        v["leader"],
        v["trick"],
        v["last_trick"],
        v["last_leader"],
    )
    _check_every_card_once(f)
    _check_unused_cards(f)
    _check_won_piles_hold_whole_tricks(f)
    _check_trick_is_short_of_a_round(f)
    _check_hand_sizes(f)
    _check_first_trick_led_by_start_player(f)
    _check_last_trick(f)
    _check_who_did_not_follow_has_none(f)
    state = SparksState(options, f.hands, f.unused, f.start_player)
    state.won = [list(w) for w in f.won]
    state.leader = f.leader
    state.trick = list(f.trick)
    state.last_trick = list(f.last_trick)
    state.last_leader = f.last_leader
    state.settle()
    return state


def _check_every_card_once(f: _Fields) -> None:
    """Each of the 27 cards is in exactly one place (§2): "card X is in two places" / "missing"."""
    places = [*f.hands, f.unused, *f.won, f.trick]
    seen: set[int] = set()
    for cards in places:
        for card in cards:
            if card in seen:
                raise PositionError(ErrorText("card {card} is in two places", card=card_name(card)))
            seen.add(card)
    missing = [card_name(c) for c in range(NUM_CARDS) if c not in seen]
    if missing:
        raise PositionError(ErrorText("card {card} is missing", card=missing[0]))


def _check_unused_cards(f: _Fields) -> None:
    """27 − players × hand size cards are left out of the deal (§3): "unused: … cards"."""
    expected = NUM_CARDS - f.players * f.options.hand_size
    if len(f.unused) != expected:
        raise PositionError(
            ErrorText(
                "unused: {expected} cards are dealt to nobody (got {got})",
                expected=expected,
                got=len(f.unused),
            )
        )


def _check_won_piles_hold_whole_tricks(f: _Fields) -> None:
    """A won pile holds whole tricks of one card per player (§4.3): "won[s]: whole tricks"."""
    for seat, pile in enumerate(f.won):
        if len(pile) % f.players:
            raise PositionError(
                ErrorText(
                    "won[{seat}]: a pile holds whole tricks of {players} cards (got {got})",
                    seat=seat,
                    players=f.players,
                    got=len(pile),
                )
            )


def _check_trick_is_short_of_a_round(f: _Fields) -> None:
    """A trick in progress has fewer cards than players (§4.3): "trick: at most … cards"."""
    if len(f.trick) >= f.players:
        raise PositionError(
            ErrorText(
                "trick: a trick in progress holds at most {most} cards (got {got})",
                most=f.players - 1,
                got=len(f.trick),
            )
        )


def _check_hand_sizes(f: _Fields) -> None:
    """Each hand holds the cards not played yet (§4): "hands[s]: … cards expected"."""
    for seat, hand in enumerate(f.hands):
        played = f.completed + (1 if f.played_this_trick(seat) else 0)
        expected = f.options.hand_size - played
        if len(hand) != expected:
            raise PositionError(
                ErrorText(
                    "hands[{seat}]: {expected} cards expected after {tricks} tricks (got {got})",
                    seat=seat,
                    expected=expected,
                    tricks=f.completed,
                    got=len(hand),
                )
            )


def _check_first_trick_led_by_start_player(f: _Fields) -> None:
    """The first trick is led by the start player (§3): "leader: the first trick …"."""
    if f.completed == 0 and f.leader != f.start_player:
        raise PositionError(
            ErrorText(
                "leader: the first trick is led by the start player (seat {start})",
                start=f.start_player,
            )
        )


def _check_last_trick(f: _Fields) -> None:
    """The last trick is the top of its winner's pile, and its winner leads (§4.3)."""
    if f.completed == 0:
        if f.last_trick or f.last_leader != NO_SEAT:
            raise PositionError(ErrorText("last_trick: no trick is complete yet"))
        return
    n = f.players
    if len(f.last_trick) != n or f.last_leader == NO_SEAT:
        raise PositionError(
            ErrorText(
                "last_trick: the last trick holds {players} cards and names its leader",
                players=n,
            )
        )
    winner = (f.last_leader + trick_winner(f.last_trick, f.options.trumps)) % n
    if winner != f.leader or f.won[winner][-n:] != f.last_trick:
        raise PositionError(
            ErrorText(
                "last_trick: its winner (seat {winner}) leads now and holds it on top of the "
                "won pile",
                winner=winner,
            )
        )


def _check_who_did_not_follow_has_none(f: _Fields) -> None:
    """Whoever did not follow suit has none of the led suit (§4.2): "trick: seat s …"."""
    if not f.trick:
        return
    led = f.trick[0] // NUM_RANKS
    for i, card in enumerate(f.trick[1:], start=1):
        seat = (f.leader + i) % f.players
        if card // NUM_RANKS != led and any(c // NUM_RANKS == led for c in f.hands[seat]):
            raise PositionError(
                ErrorText(
                    "trick: seat {seat} did not follow {suit} but holds {suit} cards",
                    seat=seat,
                    suit=suit_text(led),
                )
            )
