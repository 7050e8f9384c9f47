"""A fast rollout model of Dudab for search (ISMCTS).

Simulated games are played for a short horizon by a cheap rule of thumb (shed high cards, do not
capture, keep the Dudabs for later, draw rather than feed a capture), with some random moves
mixed in; the position is then scored as if the round ended now (dudab §7 on the current hands
and piles, added to the totals so far), except that while the draw pile is long the cards in
hand count only half with 2 or 3 players (most of them will be shed; in full from 4 players on,
where a full hand is forced into captures) and a Dudab in hand counts as an asset rather than
its +5. A search considers only the two most promising of the 12 calls of a Dudab
placement (:meth:`DudabRollout.prune`). That keeps each search iteration cheap in a game of
several long rounds, and the simulated players behave roughly like real ones: uniformly random
moves would, for instance, place a Dudab far too often (13 ways of placing it on each column,
one per call) and capture without a second thought.

The search rewards score margins (:attr:`DudabRollout.reward`) on the scale of
:attr:`DudabRollout.margin_scale` points, so that a move that sheds more points looks better even
when it does not change who leads: in a two-player game a reward for winning alone only tells
ahead from behind, which after a lopsided first round is the same for every move.

>>> from campfire import get_game
>>> import random
>>> state = get_game("dudab").new_game(2, seed=3)
>>> view = state.view(state.to_act())
>>> view["hand"], [column["cards"] for column in view["columns"]]
(['blue/hand/4', 'red/mammoth/3', 'yellow/mammoth/4'], [['yellow/fur/1'], ['yellow/fur/3']])
>>> str(DudabRollout().act(state, state.to_act(), random.Random(0)))  # shed the highest card
'p blue/hand/4 c2'
"""

from __future__ import annotations

import random
from typing import ClassVar, Final, cast

from mypy_extensions import mypyc_attr

from campfire.core import Action, Outcome, RolloutPolicy, State
from campfire.core.draws import randbelow

from .actions import (
    ACTIONS,
    K_DRAW,
    K_JUNGLE,
    K_KEEP,
    K_PENALTY,
    K_PILE,
    K_PLACE,
    K_REST,
    DudabAction,
)
from .cards import FACE_DUDAB, FACE_SHAMAN, MATCH, NUM_CARDS, VALUE
from .scoring import round_total, round_totals
from .state import CAPTURE_AT, MAX_HAND, DudabState

__all__ = ["DudabRollout"]

#: how many cards match each call 1–12 (index 0: no call)
_CALL_TOTAL: Final = tuple(sum(match) for match in MATCH)
#: the calls 1–12 each card matches
_CALLS_OF: Final = tuple(
    tuple(call for call in range(1, 13) if MATCH[call][card]) for card in range(NUM_CARDS)
)

#: what a capture costs on average (about five cards, less what the discard down to 2 sheds)
_CAPTURE_COST: Final = 8.0
#: what a Dudab in hand is worth while the draw pile is long (it fits every column, answers and
#: counters calls); once the pile runs low it is shed, as it would score +5 in hand
_DUDAB_KEEP: Final = 2.0


def _face_value(face: int) -> float:
    """What placing a Number card or a Shaman is worth before a capture (it is shed)."""
    return 6.5 if face >= FACE_SHAMAN else float(VALUE[face])  # a Shaman: the next must react


#: what a placement (by action index) is worth before a capture while the draw pile is long
#: (a Dudab is kept for later: placing it costs its worth in hand, a little less with a call)
_PLACE_EARLY: Final = tuple(
    (-_DUDAB_KEEP + (0.5 if a.call else 0.0) if a.face == FACE_DUDAB else _face_value(a.face))
    if a.kind == K_PLACE
    else 0.0
    for a in ACTIONS
)
#: the same once the draw pile is low (a Dudab is shed: it would score +5 in hand)
_PLACE_LATE: Final = tuple(
    (5.0 if a.face == FACE_DUDAB else _face_value(a.face)) if a.kind == K_PLACE else 0.0
    for a in ACTIONS
)


@mypyc_attr(allow_interpreted_subclasses=True)
class DudabRollout(RolloutPolicy):
    """Rule-of-thumb play with some random moves for a few dozen steps, then the round scored."""

    horizon: ClassVar[int | None] = 20
    reward: ClassVar[str | None] = "margin"
    margin_scale: ClassVar[float | None] = 20.0
    #: probability of playing the rule of thumb's choice (else a uniformly random legal action)
    greedy: ClassVar[float] = 0.85
    #: how many of the 12 calls of a Dudab placement a search considers (:meth:`prune`)
    calls: ClassVar[int] = 2
    #: what the cards in hand count (of their round score) while the draw pile is long, with 2
    #: or 3 players
    hand_weight: ClassVar[float] = 0.5
    #: the same from 4 players on: in full. Three other seats fill the two columns between a
    #: seat's turns, and a seat that draws up to 5 cards must place one if it can (dudab §5.3),
    #: so it is forced into captures; with half the hand counted the search drew into that
    #: (twice the heuristic's captures); see docs/strength.md
    hand_weight_many: ClassVar[float] = 1.0
    #: what a Dudab in hand is worth (points off) while the draw pile is long
    dudab_credit: ClassVar[float] = 2.0
    #: over how many last cards of the draw pile the hand comes to count in full (0: always)
    ramp: ClassVar[float] = 30.0

    def act(self, state: State, seat: int, rng: random.Random) -> Action:
        """The rule of thumb's action, or now and then a random legal one."""
        assert isinstance(state, DudabState)
        legal: list[DudabAction] = state.legal_now()  # ``seat`` is the seat to act
        if len(legal) == 1 or rng.random() >= self.greedy:
            return legal[randbelow(rng, len(legal))]
        best = self._best(state, seat, legal)
        return best[randbelow(rng, len(best))] if len(best) > 1 else best[0]

    @classmethod
    def _best(cls, state: DudabState, seat: int, legal: list[DudabAction]) -> list[Action]:
        """The actions of ``legal`` of the highest :meth:`_value`, in their order.

        A placement's value is read from tables: its card's value (:data:`_PLACE_EARLY`, or
        :data:`_PLACE_LATE` once the draw pile runs low) less what a capture on its column
        would cost, worked out once for all the placements (:func:`_capture_costs`;
        subtracting 0.0 changes no value). Plain loops: a comprehension costs more here.
        """
        table = _PLACE_LATE if len(state.draw) <= 2 * state.num_players else _PLACE_EARLY
        costs = _capture_costs(state)
        best: list[Action] = []
        best_value = float("-inf")
        for a in legal:
            if a.kind is K_PLACE:
                value = table[a.index] - costs[a.col]
            else:
                value = cls._value(state, seat, a)
            if value > best_value:
                best = [a]
                best_value = value
            elif value == best_value:
                best.append(a)
        return best

    @staticmethod
    def _value(state: DudabState, seat: int, a: DudabAction) -> float:
        """A rough value of one action (higher is better)."""
        kind = a.kind
        face = a.face
        if kind == K_PLACE:
            if face == FACE_DUDAB:
                low = len(state.draw) <= 2 * state.num_players
                value = 5.0 if low else -_DUDAB_KEEP + (0.5 if a.call else 0.0)
            elif face >= FACE_SHAMAN:
                value = 6.5  # sheds 5 points and the next player must react
            else:
                value = float(VALUE[face])
            vis = state.vis[a.col]
            above = state.above[a.col]
            n = len(vis) + 1
            if (above >= 0 and n - above > above) or (above < 0 and n == CAPTURE_AT):
                value -= _CAPTURE_COST + 2.5 * len(state.heap[a.col])
            return value
        if kind == K_DRAW:
            return -0.3 - (1.0 if len(state.hands[seat]) >= MAX_HAND else 0.0)
        if kind == K_PENALTY:
            return -1.5
        if kind == K_KEEP:
            return 10.0 if face == FACE_DUDAB else -5.0 if face >= FACE_SHAMAN else -VALUE[face]
        if kind == K_REST:
            return 0.0 if a.call else 1.0  # the rest goes to the discard pile
        if kind == K_PILE:
            return -10.0 if face == FACE_DUDAB else -5.0 if face >= FACE_SHAMAN else -VALUE[face]
        if kind == K_JUNGLE:
            return float(len(state.vis[a.col]))
        return float(len(state.vis[a.col]) + len(state.heap[a.col]))  # a Baby buries the most

    def prune(
        self, state: State, seat: int, actions: list[Action], rng: random.Random
    ) -> list[Action]:
        """Of the 12 calls a Dudab placement may make, keep the :attr:`calls` best.

        A call is better the fewer matching cards the seat has not seen yet (cards on the
        columns, in the discard pile and in its own hand and pile are seen). Dudab placements
        without a call and every other action stay.
        """
        keep = self.calls
        if keep >= 12 or len(actions) <= keep + 2:
            return actions
        assert isinstance(state, DudabState)
        rank: list[int] | None = None
        kept: list[Action] = []
        for a in cast(list[DudabAction], actions):  # a Dudab state's legal steps
            if a.call and a.kind is K_PLACE:  # (a ``rest``'s call is its destination)
                if rank is None:
                    rank = _best_calls(state, seat)[:keep]
                if a.call not in rank:
                    continue
            kept.append(a)
        return kept

    def evaluate(self, state: State) -> Outcome | None:
        """Totals so far plus the running round scored now; lowest total wins.

        While the draw pile is long, the cards in hand count only :attr:`hand_weight` (from 4
        players on :attr:`hand_weight_many`) of what they would score if the round ended now
        (most will be shed before it ends) and a Dudab
        in hand is worth :attr:`dudab_credit` points instead of its +5; the weights reach the
        full score as the draw pile runs out (over its last :attr:`ramp` cards).
        """
        assert isinstance(state, DudabState)
        totals = state.totals()
        left = len(state.draw)
        late = max(0.0, 1.0 - left / self.ramp) if self.ramp > 0 else 1.0
        weight = self.hand_weight if state.num_players < 4 else self.hand_weight_many
        w = weight + (1.0 - weight) * late
        dudab = late * 5.0 - (1.0 - late) * self.dudab_credit
        scores: list[float] = []
        for s in range(state.num_players):
            hand = state.hands[s]
            pile = state.piles[s]
            if late >= 1.0:  # the weights are full: the round as it stands
                scores.append(totals[s] + round_total(hand, pile))
                continue
            # the round total, the pile's alone and the Dudabs in hand
            full, base, dudabs = round_totals(hand, pile)
            rest = full - base - 5 * dudabs
            scores.append(totals[s] + base + w * rest + dudabs * dudab)
        return Outcome.from_scores(scores, lower_is_better=True)


def _capture_costs(state: DudabState) -> list[float]:
    """What a card placed on each column costs for the capture it makes (0.0: none).

    The card captures when it makes B > A above a Jungle (the column has at least 2 A visible
    cards) or is the 6th card of a column without one (dudab §4.2, §4.3).
    """
    costs: list[float] = []
    heap = state.heap
    above = state.above
    for c, vis in enumerate(state.vis):
        a = above[c]
        if len(vis) >= 2 * a if a >= 0 else len(vis) == CAPTURE_AT - 1:
            costs.append(_CAPTURE_COST + 2.5 * len(heap[c]))
        else:
            costs.append(0.0)
    return costs


def _best_calls(state: DudabState, seat: int) -> list[int]:
    """The 12 calls, best first for ``seat``: fewest matching cards it has not seen."""
    seen = [0] * 13
    for cards in (state.discard, state.hands[seat], state.piles[seat], *state.vis):
        for card in cards:
            for call in _CALLS_OF[card]:
                seen[call] += 1
    return sorted(range(1, 13), key=lambda call: (_CALL_TOTAL[call] - seen[call], call))
