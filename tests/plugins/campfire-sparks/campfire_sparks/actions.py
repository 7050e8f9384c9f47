"""Sparks actions, their notation and the fixed action index space.

There is one kind of action: ``play C`` plays the card ``C`` from the hand (``play R7``). Its
index is the card's number, 0–26.

>>> a = parse_action("play b8")
>>> a, action_index(a), action_from_index(16) is a
(SparksAction('play B8'), 16, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from campfire.core import Action, ErrorText, NotationError
from campfire.core.actions import hand_built
from campfire.core.validate import short_repr

from .cards import NUM_CARDS, card_name

__all__ = [
    "NUM_ACTIONS",
    "PLAY",
    "SparksAction",
    "SparksKind",
    "action_from_index",
    "action_index",
    "canonical_action",
    "parse_action",
]


class SparksKind(StrEnum):
    """The kinds of Sparks actions; each member is its notation keyword."""

    PLAY = "play"


@dataclass(frozen=True, slots=True)
class SparksAction(Action):
    """Play one card: its kind, the card's number (0–26) and the action's index."""

    kind: SparksKind
    card: int
    index: int = field(compare=False)

    def notation(self) -> str:
        """The text notation, e.g. ``play R7``."""
        return f"{self.kind} {card_name(self.card)}"

    def __repr__(self) -> str:
        return f"SparksAction({self.notation()!r})"


#: ``PLAY[c]`` plays card ``c``
PLAY = tuple(SparksAction(SparksKind.PLAY, c, c) for c in range(NUM_CARDS))
NUM_ACTIONS = len(PLAY)
_BY_TEXT = {a.notation().lower(): a for a in PLAY}

#: the title in messages, translated at the edge under ``sparks.title``
_TITLE = ErrorText("Sparks", context="sparks.title")
_HELP = ErrorText("Sparks actions are: play C (C = a card R1–R9, B1–B9, G1–G9)")


def parse_action(text: str) -> SparksAction:
    """Parse ``play C`` (raise :class:`NotationError` with the allowed form)."""
    if not isinstance(text, str):
        raise NotationError(
            ErrorText(
                "an action is written as text (got {got}); {help}", got=repr(text), help=_HELP
            )
        )
    action = _BY_TEXT.get(" ".join(text.lower().split()))
    if action is None:
        raise NotationError(ErrorText("cannot read {got}; {help}", got=repr(text)[:60], help=_HELP))
    return action


def canonical_action(action: object) -> SparksAction:
    """The Sparks action equal to ``action`` (a hand-built one must agree in every field).

    >>> canonical_action(SparksAction(SparksKind.PLAY, 3, 3)) is PLAY[3]
    True
    """
    if action.__class__ is SparksAction:
        index = action.index
        if index.__class__ is int and 0 <= index < NUM_ACTIONS and PLAY[index] is action:
            return PLAY[index]
    if isinstance(action, SparksAction):
        card = action.card
        if card.__class__ is int and 0 <= card < NUM_CARDS:
            hand_built(action, PLAY[card], _TITLE)  # every field, the index too, must agree
            return PLAY[card]
        shown = (
            f"SparksAction(kind={short_repr(str(action.kind), 20)}, "
            f"card={short_repr(card, 20)}, index={short_repr(action.index, 20)})"
        )
    else:
        shown = f"a {type(action).__name__} object"
    raise NotationError(
        ErrorText("{shown} is not a Sparks action; {help}", shown=shown, help=_HELP)
    )


def action_index(action: Action) -> int:
    """The index of ``action`` in the fixed space ``0 .. NUM_ACTIONS - 1``."""
    if not isinstance(action, SparksAction):
        raise NotationError(ErrorText("{action} is not a Sparks action", action=repr(action)))
    return action.index


def action_from_index(index: int) -> SparksAction:
    """The action with the given index (raise :class:`NotationError` if out of range)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise NotationError(
            ErrorText(
                "Sparks action indices are 0–{last} (got {index})",
                last=NUM_ACTIONS - 1,
                index=short_repr(index),
            )
        )
    return PLAY[index]
