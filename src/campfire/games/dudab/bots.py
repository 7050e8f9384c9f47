"""Dudab heuristic bot: a rule-of-thumb club player that reads only its seat's view.

:class:`DudabHeuristic` answers every decision point of dudab §5.10 with a small scoring rule:

* **turn, Shaman reaction, call answer**: each legal placement is valued (the points it sheds,
  a Shaman that passes a reaction on, a Dudab call that the next players probably cannot
  answer, a called Dudab as the 5th card of a column that forces the next player to capture)
  and compared with drawing or taking the penalty. A placement that would be the 6th card of a
  column (a capture, §4.3) or the capturing card below a Jungle (§4.2) is charged with the
  points of the captured cards, less the hand cards the discard-down-to-2 lets it shed.
  High cards go first; Dudabs are kept for calls, reactions and counters until the round's end
  comes near (a Dudab still in hand scores +5, §7.1).
* **calls** name the attribute whose cards are most often already out of play (seen in the
  discard pile, on the columns, in the own hand and pile, in hands revealed since), preferring
  one the bot can answer itself if the call comes round.
* **keep / rest** after a capture: keep Dudabs and easy-to-place cheap cards; send the rest to
  the own pile only if that lowers the score (Dudabs pair with Shamans and Number cards), else
  to the discard pile.
* **five-card swap, trim**: move the card that costs least in the own pile.
* **Jungle / Baby**: lay the Jungle on the longest eligible column; bury the longest column
  under a Baby.

It is deterministic given its seed; with ``noise`` > 0 it plays a uniformly random legal
action with that probability (the easy level).

>>> from campfire import get_game
>>> from campfire.core import Observation
>>> game = get_game("dudab")
>>> state = game.new_game(3, seed=1)
>>> bot = DudabHeuristic(game, 0, 3, state.options, seed=1)
>>> state.view(0)["hand"], [c["cards"] for c in state.view(0)["columns"]]
(['blue/hand/3', 'yellow/mammoth/1', 'dudab'], [['blue/mammoth/4'], ['green/hand/3']])
>>> str(bot.act(Observation(state, 0)))  # no Number card fits: draw, keep the Dudab
'draw'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from campfire.core import (
    Action,
    Agent,
    ErrorText,
    Event,
    NoisyConfig,
    Observation,
    OptionError,
    option,
)

from .actions import (
    K_BABY,
    K_DRAW,
    K_JUNGLE,
    K_KEEP,
    K_PENALTY,
    K_PILE,
    K_PLACE,
    K_REST,
    DudabAction,
)
from .cards import (
    COLOUR,
    FACE,
    FACE_BABY,
    FACE_DUDAB,
    FACE_JUNGLE,
    FACE_SHAMAN,
    MATCH,
    NUM_CARDS,
    SYMBOL,
    VALUE,
    is_number_face,
    parse_face,
)
from .scoring import round_score
from .state import CAPTURE_AT, KEEP_AFTER_CAPTURE, MAX_HAND
from .types import CardsData, ColumnJson, DudabView

__all__ = ["DudabHeuristic", "DudabHeuristicConfig", "face_cost", "pile_points"]

#: a card id standing for each face (copies of a Dudab or a Shaman colour score alike)
_CARD_OF_FACE: tuple[int, ...] = tuple(
    min(c for c in range(NUM_CARDS) if FACE[c] == f) for f in range(FACE_BABY + 1)
)
#: the points a card is expected to cost if it stays in the hand until the round ends (§7.1)
_STUCK = tuple(VALUE[f] if is_number_face(f) else 5 for f in range(FACE_BABY + 1))
#: what drawing one card costs in a step: little, as most cards drawn are shed later (tuned in
#: heuristic-against-heuristic games: drawing beats spending a Dudab or capturing)
_DRAW_STEP = 0.3
#: what a card trimmed into the own pile costs (the cheapest card of the hand goes)
_PILE_EXCESS = 1.5
#: an estimate of the points of a buried (Baby heap) card
_HEAP_CARD = 2.5
#: how many Number cards and Shamans match each call (1–12): 16 Number cards, plus 2 Shamans
#: for a colour
_CALL_TOTAL = tuple(0 if x == 0 else 18 if x <= 4 else 16 for x in range(13))


def pile_points(faces: Sequence[int]) -> int:
    """The round score of an own pile holding ``faces`` (dudab §7.1, no hand).

    >>> pile_points([parse_face("red/fur/3"), parse_face("shaman/red")])
    8
    >>> pile_points([parse_face("red/fur/3"), parse_face("dudab")])
    -3
    """
    return round_score((), [_CARD_OF_FACE[f] for f in faces]).total


def face_cost(pile: Sequence[int], faces: Sequence[int]) -> int:
    """How many points adding ``faces`` to an own pile holding ``pile`` costs (may be < 0).

    >>> face_cost([parse_face("dudab")], [parse_face("blue/hand/4")])
    -4
    """
    return pile_points([*pile, *faces]) - pile_points(pile)


@dataclass(frozen=True)
class DudabHeuristicConfig(NoisyConfig):
    """Parameters of the Dudab heuristic bot: ``noise`` (:class:`NoisyConfig`) and these."""

    dudab_keep: float = option(
        3.0, help="what keeping a Dudab in hand is worth (points) while the round is young"
    )

    def validate(self) -> None:
        """``noise`` is a probability, ``dudab_keep`` non-negative."""
        super().validate()
        if self.dudab_keep < 0:
            raise OptionError(
                ErrorText("dudab_keep must be ≥ 0 (got {dudab_keep})", dudab_keep=self.dudab_keep)
            )


class DudabHeuristic(Agent):
    """A rule-based Dudab player (deterministic given its seed; uses only its view)."""

    name = "heuristic"
    description = "sheds high cards, avoids captures, calls what others lack; fast"
    config_type = DudabHeuristicConfig
    config: DudabHeuristicConfig

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: faces seen in hands revealed this round (public, §5.7.2), by seat
        self._revealed: dict[int, list[int]] = {}

    # ----- the protocol ----------------------------------------------------------------------

    def observe(self, events: Sequence[Event]) -> None:
        """Remember the hands revealed this round (they tell what the others hold)."""
        super().observe(events)
        for e in events:
            if e.type == "reveal_hand":
                shown = cast(CardsData, e.data)
                if shown["seat"] != self.seat:
                    self._revealed[shown["seat"]] = [_face(c) for c in shown["cards"]]
            elif e.type in ("round_start", "round_end", "deal"):
                self._revealed.clear()

    def act(self, obs: Observation) -> Action:
        """Choose one of the legal actions."""
        legal = [a for a in obs.legal_actions if isinstance(a, DudabAction)]
        if len(legal) == 1:
            return legal[0]
        slip = self.config.slip(self.rng, legal)
        if slip is not None:
            return slip
        view = cast(DudabView, obs.view)
        kind = legal[0].kind
        if kind == K_KEEP:
            return max(legal, key=lambda a: _keep_value(a.face))
        if kind == K_REST:
            return self._rest(view, legal)
        if kind == K_PILE:
            pile = [parse_face(f) for f in view.get("pile", ())]
            return min(legal, key=lambda a: (self._pile_cost(pile, a.face, view), a.index))
        if kind in (K_JUNGLE, K_BABY):
            cols = view["columns"]
            return max(legal, key=lambda a: (len(cols[a.col]["cards"]), -a.index))
        return self._play(view, legal)

    # ----- placing, drawing, the penalty -----------------------------------------------------

    def _play(self, view: DudabView, legal: list[DudabAction]) -> Action:
        hand = [parse_face(f) for f in view.get("hand", ())]
        pile = [parse_face(f) for f in view.get("pile", ())]
        best: DudabAction = legal[0]
        best_value = float("-inf")
        calls: dict[int, float] = {}
        for a in legal:
            if a.kind == K_PLACE:
                value = self._place_value(view, hand, pile, a, calls)
            elif a.kind == K_DRAW:
                value = self._draw_value(view, hand)
            elif a.kind == K_PENALTY:
                value = self._penalty_value(hand)
            else:  # not expected here
                value = -100.0
            if value > best_value + 1e-9:
                best, best_value = a, value
        return best

    def _draw_value(self, view: DudabView, hand: list[int]) -> float:
        if view["prompt"] == "call_answer":
            # a failed answer: reveal, draw one (with 5 cards, one card to the own pile first)
            return -_DRAW_STEP - (1.0 if len(hand) >= MAX_HAND else 0.0)
        return -_DRAW_STEP

    def _penalty_value(self, hand: list[int]) -> float:
        """The Shaman penalty (§5.4): 2.5 cards on average, the excess over 5 to the own pile."""
        overflow = max(0.0, len(hand) + 2.5 - MAX_HAND)
        return -2.5 * _DRAW_STEP - overflow * _PILE_EXCESS

    def _dudab_keep(self, view: DudabView) -> float:
        """What keeping a Dudab is worth now: less as the draw pile runs out (+5 in hand)."""
        left = view["draw_pile"]
        players = view["players"]
        if left <= 2 * players:
            return -5.0  # the round may end before the Dudab finds a use
        if left <= 6 * players:
            return self.config.dudab_keep * 0.3
        return self.config.dudab_keep

    def _place_value(
        self,
        view: DudabView,
        hand: list[int],
        pile: list[int],
        a: DudabAction,
        calls: dict[int, float],
    ) -> float:
        col: ColumnJson = view["columns"][a.col]
        visible = [parse_face(f) for f in col["cards"]]
        face = a.face
        # a Dudab can always be shed later: placing it costs the joker (worth less, and at
        # last negative, as the round's end nears); other cards shed their points
        value = -self._dudab_keep(view) if face == FACE_DUDAB else float(_STUCK[face])
        if FACE_SHAMAN <= face < FACE_JUNGLE:
            value += 1.5  # the next player must react (§5.4)
        # the capture rules (§4.2, §4.3)
        captured: list[int] | None = None
        above = col["above"]  # None: no Jungle on the column
        if above is not None:
            below = len(visible) - above
            if below + 1 > above:
                captured = [*visible, FACE_JUNGLE]  # the whole column, Jungle included
        elif len(visible) + 1 >= CAPTURE_AT:
            captured = visible[-(CAPTURE_AT - 1) :]
        if captured is not None:
            rest = list(hand)
            rest.remove(face)
            value -= face_cost(pile, captured) + _HEAP_CARD * col["heap"]
            if len(rest) > KEEP_AFTER_CAPTURE:
                # discard down to 2 (§4.3): the costliest cards may go to the discard pile
                shed = sorted((_STUCK[f] for f in rest), reverse=True)
                shed = shed[: len(rest) - KEEP_AFTER_CAPTURE]
                value += 0.6 * sum(shed)
        elif face == FACE_DUDAB and a.call:
            if a.call not in calls:
                calls[a.call] = self._call_value(view, hand, a.call)
            value += calls[a.call]
            if len(visible) + 1 == CAPTURE_AT - 1 and not col["jungle"]:
                value += 4.0  # the next player must place the 6th card (and capture) or draw
        if view["prompt"] == "turn" and not col["jungle"] and len(visible) + 1 == CAPTURE_AT - 1:
            value += 0.5  # a 5-card column is a trap for the others
        return value

    def _call_value(self, view: DudabView, hand: list[int], call: int) -> float:
        """How good a call is: few matching cards left unseen, and one in the own hand."""
        match = MATCH[call]
        seen = 0
        faces: list[int] = []
        for col in view["columns"]:
            faces.extend(parse_face(f) for f in col["cards"])
        faces.extend(parse_face(f) for f in view["discard"])
        faces.extend(parse_face(f) for f in view.get("pile", ()))
        faces.extend(hand)
        for f in faces:
            if f < FACE_JUNGLE and match[_CARD_OF_FACE[f]]:
                seen += 1
        unseen = max(0, _CALL_TOTAL[call] - seen)
        value = 2.0 - 0.15 * unseen
        nxt = (self.seat + 1) % view["players"]
        known = self._revealed.get(nxt)
        if known is not None and not any(
            f < FACE_JUNGLE and match[_CARD_OF_FACE[f]] for f in known
        ):
            value += 1.0  # the next player showed no such card
        mine = [f for f in hand if f != FACE_DUDAB and match[_CARD_OF_FACE[f]]]
        if mine:
            value += 0.5  # if the call comes round, the bot can answer it
        return value

    # ----- after a capture, swaps and trims ---------------------------------------------------

    def _rest(self, view: DudabView, legal: list[DudabAction]) -> Action:
        pile = [parse_face(f) for f in view.get("pile", ())]
        rest = [parse_face(f) for f in view.get("hand", ())]
        to_pile = face_cost(pile, rest) < 0
        return next((a for a in legal if bool(a.call) == to_pile), legal[0])

    def _pile_cost(self, pile: list[int], face: int, view: DudabView) -> float:
        cost = float(face_cost(pile, [face]))
        if face == FACE_DUDAB:
            cost += 5.0 + self._dudab_keep(view)  # a joker is worth keeping
        elif is_number_face(face):
            cost -= 0.1 * _flexibility(face)
        return cost


def _face(text: Any) -> int:
    try:
        return parse_face(str(text))
    except ValueError:
        return FACE_JUNGLE


def _flexibility(face: int) -> int:
    """How many columns tops a Number card tends to fit: values 2 and 3 have two neighbours."""
    return 2 if VALUE[face] in (2, 3) else 1


def _keep_value(face: int) -> float:
    """Which cards to keep after a capture: Dudabs, then cheap cards that are easy to place."""
    if face == FACE_DUDAB:
        return 10.0
    if face >= FACE_SHAMAN:
        return -4.0
    return -VALUE[face] + _flexibility(face) + 0.01 * (COLOUR[face] + SYMBOL[face])
