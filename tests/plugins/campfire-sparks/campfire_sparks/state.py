"""The Sparks state machine (sparks rules §3–§5).

A trick: the leader plays any card, the others follow clockwise, each following the led suit if
they can. The highest card of the led suit wins (with ``trumps``, the highest red card if any was
played) and its player leads the next trick. When every hand is empty the game is over.

>>> from campfire_sparks import GAME
>>> state = GAME.new_game(2, seed=5)
>>> state.seats_to_act(), [str(a) for a in state.legal_actions()][:3]
((1,), ['play B5', 'play G1', 'play G7'])
>>> [e.type for e in state.apply(1, "play G9")]
['play']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from campfire.core import (
    Action,
    ErrorText,
    Event,
    IllegalActionError,
    Outcome,
    PositionError,
    SetupError,
    State,
)
from campfire.core.fields import SEAT, Copy, Custom, ListOf, Nullable, ReadContext, StateField

from .actions import PLAY, SparksAction, canonical_action, parse_action
from .cards import NUM_RANKS, SUIT_NAMES, TRUMP, card_name, parse_card, suit_text
from .options import SparksOptions

if TYPE_CHECKING:
    from .game import SparksGame
    from .types import SparksOutcome, SparksView

__all__ = ["NO_SEAT", "SparksState", "trick_winner"]

NO_SEAT = -1


def _read_card(raw: Any, what: str, ctx: ReadContext) -> int:
    try:
        return parse_card(raw)
    except SetupError as exc:
        raise PositionError(ErrorText("{what}: {exc}", what=what, exc=exc.text)) from None


def _players(ctx: ReadContext) -> int:
    return ctx.players


_CARD = Custom(card_name, _read_card)
_CARDS = ListOf(_CARD)


def trick_winner(trick: Sequence[int], trumps: bool) -> int:
    """The position in ``trick`` (0: the leader) of the card that wins it (sparks rules §4.3).

    >>> trick_winner([3, 7, 12], False), trick_winner([12, 3, 14], True)
    (1, 1)
    """
    led = trick[0] // NUM_RANKS
    best = 0
    for i, card in enumerate(trick):
        suit, top = card // NUM_RANKS, trick[best]
        top_suit = top // NUM_RANKS
        if trumps and suit == TRUMP:
            beats = top_suit != TRUMP or card > top
        elif trumps and top_suit == TRUMP:
            beats = False
        else:
            beats = suit == led and card > top
        if beats:
            best = i
    return best


class SparksState(State):
    """A Sparks position and its rules. ``hands[s]`` is seat ``s``'s hand, sorted."""

    game: ClassVar[SparksGame]
    options: SparksOptions

    FIELDS = (
        StateField("num_players", key=None),
        StateField("options", key=None),
        StateField("trumps", key=None),
        StateField("start_player", codec=SEAT),
        StateField("hands", Copy.LISTS, codec=ListOf(_CARDS, length=_players)),
        StateField("unused", Copy.LIST, codec=_CARDS),
        StateField("won", Copy.LISTS, codec=ListOf(_CARDS, length=_players)),
        StateField("leader", codec=SEAT),
        StateField("trick", Copy.LIST, codec=_CARDS),
        StateField("last_trick", Copy.LIST, codec=_CARDS),
        StateField("last_leader", codec=Nullable(SEAT)),
        StateField("seat", key=None),  # follows from the leader and the trick
        StateField("over", key=None),  # follows from the hands
    )

    def __init__(
        self,
        options: SparksOptions,
        hands: Sequence[Sequence[int]],
        unused: Sequence[int],
        start_player: int,
    ) -> None:
        """Create the initial state (sparks rules §3): use ``SparksGame.new_game`` instead."""
        n = len(hands)
        self.num_players = n
        self.options = options
        self.trumps = options.trumps
        self.start_player = start_player
        self.hands = [sorted(h) for h in hands]
        self.unused = sorted(unused)
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.leader = start_player
        self.trick: list[int] = []
        self.last_trick: list[int] = []
        self.last_leader = NO_SEAT
        self.seat = start_player
        self.over = False

    def settle(self) -> None:
        """Derive the seat to act and the end from the other fields (after reading a position)."""
        self.over = not self.trick and not any(self.hands)
        self.seat = NO_SEAT if self.over else (self.leader + len(self.trick)) % self.num_players

    # ----- the protocol ----------------------------------------------------------------------

    def seats_to_act(self) -> tuple[int, ...]:
        """The seat whose turn it is (none once the game is over)."""
        return () if self.over else (self.seat,)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The cards ``seat`` may play now, in index order (sparks rules §4.2: follow suit)."""
        if seat is not None:
            if seat.__class__ is not int or not 0 <= seat < self.num_players:
                self._check_seat(seat)
            if seat != self.seat:
                return []
        if self.over:
            return []
        return [PLAY[c] for c in self._playable()]

    def _playable(self) -> list[int]:
        hand = self.hands[self.seat]
        if not self.trick:
            return hand
        led = self.trick[0] // NUM_RANKS
        follow = [c for c in hand if c // NUM_RANKS == led]
        return follow or hand

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Play one card for ``seat``; return the events (``play``, ``trick``, ``game_over``)."""
        action = parse_action(action) if isinstance(action, str) else canonical_action(action)
        if seat.__class__ is not int or seat != self.seat or self.over:
            if self.over and seat.__class__ is int and 0 <= seat < self.num_players:
                raise IllegalActionError(
                    "sparks rules §5",
                    ErrorText("the game is over: every card has been played"),
                )
            self._check_turn(seat)
        card = action.card
        if card not in self._playable():
            raise self._illegal(seat, action)
        hand = self.hands[seat]
        void = None
        if self.trick:
            led = self.trick[0] // NUM_RANKS
            if card // NUM_RANKS != led:
                void = SUIT_NAMES[led]  # §4.2: it did not follow, so it has none of the led suit
        hand.remove(card)
        self.trick.append(card)
        events = [Event("play", {"seat": seat, "card": card_name(card), "void": void})]
        n = self.num_players
        if len(self.trick) < n:
            self.seat = (seat + 1) % n
            return events
        return self._end_trick(events)

    def _end_trick(self, events: list[Event]) -> list[Event]:
        n = self.num_players
        trick = self.trick
        winner = (self.leader + trick_winner(trick, self.trumps)) % n
        self.won[winner].extend(trick)
        number = sum(len(w) for w in self.won) // n
        events.append(
            Event(
                "trick",
                {
                    "number": number,
                    "leader": self.leader,
                    "winner": winner,
                    "cards": [card_name(c) for c in trick],
                },
            )
        )
        self.last_trick = trick
        self.last_leader = self.leader
        self.trick = []
        self.leader = self.seat = winner
        if not any(self.hands):
            self.over = True
            self.seat = NO_SEAT
            events.append(Event("game_over", {"outcome": self.score().to_json()}))
        return events

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.over

    def outcome(self) -> Outcome:
        """Scores, ranks and winners (sparks rules §5); raise :class:`ValueError` while running."""
        if not self.over:
            raise ValueError("the game is not over yet")
        return self.score()

    def score(self) -> Outcome:
        """The scores as if the game ended now: a point per trick, one more for the last trick."""
        n = self.num_players
        details: list[dict[str, Any]] = []
        scores: list[int] = []
        last = self.leader if self.over else NO_SEAT
        for s in range(n):
            tricks = len(self.won[s]) // n
            bonus = 1 if s == last else 0
            scores.append(tricks + bonus)
            details.append({"tricks": tricks, "last_trick": bonus})
        return Outcome.from_scores(scores, details=details)

    # ----- errors ------------------------------------------------------------------------------

    def _illegal(self, seat: int, action: SparksAction) -> IllegalActionError:
        """Explain why ``action`` is refused (only called for a refused action).

        Only what the seat may know is said: a card played is public, but a card the seat does
        not hold may be in another hand or out of play, and which is never told.
        """
        card = action.card
        if card not in self.hands[seat]:
            if card in self.trick or any(card in pile for pile in self.won):
                return IllegalActionError(
                    "sparks rules §4.3",
                    ErrorText(
                        "{card} has already been played; each card is played once",
                        card=card_name(card),
                    ),
                )
            return IllegalActionError(
                "sparks rules §4.1",
                ErrorText(
                    "seat {seat} does not hold {card}; play a card from the hand",
                    seat=seat,
                    card=card_name(card),
                ),
            )
        led = self.trick[0] // NUM_RANKS
        if self.trumps and card // NUM_RANKS == TRUMP:
            return IllegalActionError(
                "sparks rules §6.2",
                ErrorText(
                    "red is trumps, but following suit comes first: seat {seat} holds {suit} cards",
                    seat=seat,
                    suit=suit_text(led),
                ),
            )
        return IllegalActionError(
            "sparks rules §4.2",
            ErrorText(
                "follow suit: the trick was led with {suit} and seat {seat} holds {suit} cards",
                suit=suit_text(led),
                seat=seat,
            ),
        )

    # ----- views -------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SparksView:
        """What ``seat`` may know: its own hand, the counts of the others, every played card."""
        self._check_seat(seat, spectator=True)
        out: SparksView = {
            "game": "sparks",
            "seat": seat,
            "players": self.num_players,
            "hand_size": self.options.hand_size,
            "trumps": self.trumps,
            "phase": "game_over" if self.over else "playing",
            "to_act": list(self.seats_to_act()),
            "start_player": self.start_player,
            "leader": self.leader,
            "trick": [card_name(c) for c in self.trick],
            "led": SUIT_NAMES[self.trick[0] // NUM_RANKS] if self.trick else None,
            "hand": [card_name(c) for c in self.hands[seat]] if seat is not None else [],
            "hand_counts": [len(h) for h in self.hands],
            "tricks": [len(w) // self.num_players for w in self.won],
            "last_trick": [card_name(c) for c in self.last_trick],
            "last_leader": None if self.last_leader == NO_SEAT else self.last_leader,
            "played": [card_name(c) for c in sorted(c for w in self.won for c in w)],
            "unused_count": len(self.unused),
        }
        if self.over:
            out["outcome"] = cast("SparksOutcome", self.score().to_json())
        return out

    def render(self, seat: int | None = None) -> str:
        """The table as text, as ``seat`` (``None``: a spectator) sees it (the presenter's)."""
        self._check_seat(seat, spectator=True)
        from campfire.core.present import render_text

        legal = self.legal_actions(seat) if seat is not None else []
        return render_text(self.game.presenter().display(self.view(seat), legal, ()))

    # ----- copies ------------------------------------------------------------------------------

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A copy with the other hands and the unused cards re-dealt at random.

        What ``seat`` cannot see is every card in another hand and every unused card; they
        are shuffled together and dealt back in the same numbers.
        """
        self._check_seat(seat)
        other = self.clone()
        places = [s for s in range(self.num_players) if s != seat]
        pool = sorted(c for s in places for c in other.hands[s])
        pool.extend(sorted(other.unused))
        pool.sort()  # the copy depends only on what the seat knows and on ``rng``
        rng.shuffle(pool)
        at = 0
        for s in places:
            k = len(other.hands[s])
            other.hands[s] = sorted(pool[at : at + k])
            at += k
        other.unused = sorted(pool[at:])
        return other
