"""Tracker actions, their notation and the fixed action index space.

A turn is a sequence of small steps (see ``docs/notation/tracker.md``):

=============  ==========================================================  ============
notation       meaning                                                     index
=============  ==========================================================  ============
``peek P``     look at the card on position P (0–59)                       0 + P
``take P``     collect the card on position P during a capture             60 + P
``lift P``     pick up the card on P to relocate it                        120 + P
``drop P``     put the lifted card on the empty position P                 180 + P
``track M``    play M trackers (1–3) into the centre to start a capture    239 + M
``done``       end the collection, or end the relocations                  243
``decline``    skip the optional final peek                                244
=============  ==========================================================  ============

>>> a = parse_action("take 12")
>>> a, action_index(a), action_from_index(72)
(TrackerAction('take 12'), 72, TrackerAction('take 12'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from campfire.core import Action, ErrorText, NotationError
from campfire.core.actions import hand_built
from campfire.core.validate import short_repr

from .cards import NUM_POSITIONS, TRACKERS_PER_PLAYER

__all__ = [
    "DECLINE",
    "DONE",
    "DROP",
    "LIFT",
    "NUM_ACTIONS",
    "PEEK",
    "TAKE",
    "TRACK",
    "TrackerAction",
    "TrackerKind",
    "action_from_index",
    "action_index",
    "canonical_action",
    "parse_action",
]


class TrackerKind(StrEnum):
    """The kinds of Tracker steps; each member is its notation keyword (``PEEK == "peek"``).

    Every game's action has such a ``kind`` (a ``str`` enum), so code that reads kinds reads
    them the same way in every game.
    """

    PEEK = "peek"
    TAKE = "take"
    LIFT = "lift"
    DROP = "drop"
    TRACK = "track"
    DONE = "done"
    DECLINE = "decline"


@dataclass(frozen=True, slots=True)
class TrackerAction(Action):
    """One step of a Tracker turn: a kind and its argument (a position, a count, or -1)."""

    kind: TrackerKind
    arg: int
    index: int = field(compare=False)

    def notation(self) -> str:
        """The text notation, e.g. ``peek 12`` or ``done``."""
        return str(self.kind) if self.arg < 0 else f"{self.kind} {self.arg}"

    def __repr__(self) -> str:
        return f"TrackerAction({self.notation()!r})"


_K: Final = TrackerKind
PEEK: Final = tuple(TrackerAction(_K.PEEK, p, p) for p in range(NUM_POSITIONS))
TAKE: Final = tuple(TrackerAction(_K.TAKE, p, 60 + p) for p in range(NUM_POSITIONS))
LIFT: Final = tuple(TrackerAction(_K.LIFT, p, 120 + p) for p in range(NUM_POSITIONS))
DROP: Final = tuple(TrackerAction(_K.DROP, p, 180 + p) for p in range(NUM_POSITIONS))
#: ``TRACK[m - 1]`` plays m trackers.
TRACK: Final = tuple(TrackerAction(_K.TRACK, m, 239 + m) for m in range(1, TRACKERS_PER_PLAYER + 1))
DONE: Final = TrackerAction(_K.DONE, -1, 243)
DECLINE: Final = TrackerAction(_K.DECLINE, -1, 244)

_ALL: Final[tuple[TrackerAction, ...]] = (*PEEK, *TAKE, *LIFT, *DROP, *TRACK, DONE, DECLINE)
NUM_ACTIONS: Final = len(_ALL)
_BY_TEXT: Final = {a.notation(): a for a in _ALL}
_CANONICAL: Final[dict[TrackerAction, TrackerAction]] = {a: a for a in _ALL}

#: the title in messages, translated at the edge under ``tracker.title`` (as ``Game.title_text``)
_TITLE_TEXT: Final = "Tracker"
_TITLE: Final = ErrorText(_TITLE_TEXT, context="tracker.title")
_HELP: Final = ErrorText(
    "Tracker actions are: peek P, take P, lift P, drop P (P = position 0–59), "
    "track M (M = 1–3 trackers), done, decline"
)


def parse_action(text: str) -> TrackerAction:
    """Parse a Tracker action's notation (raise :class:`NotationError` with the allowed forms)."""
    if not isinstance(text, str):
        raise NotationError(
            ErrorText(
                "an action is written as text (got {got}); {help}", got=repr(text), help=_HELP
            )
        )
    key = " ".join(text.lower().split())
    action = _BY_TEXT.get(key)
    if action is None:
        raise NotationError(ErrorText("cannot read {got}; {help}", got=repr(text), help=_HELP))
    return action


def canonical_action(action: object) -> TrackerAction:
    """The Tracker action equal to ``action``: one of the 245 of the index space.

    A :class:`TrackerAction` built by hand is found by its kind and argument, and must then
    agree with the action found in every field (its index too, and an ``int`` argument, never
    a ``float`` or a ``bool``); one that is none of the 245 raises :class:`NotationError`, so
    that it never reaches the rules or a record:

    >>> canonical_action(TrackerAction("peek", 12, 12)) is parse_action("peek 12")
    True
    >>> canonical_action(TrackerAction("peek", 12, 999))
    Traceback (most recent call last):
    ...
    campfire.core.errors.NotationError: TrackerAction(...) ...: its index is 999, not 12
    >>> canonical_action(TrackerAction("peek", -1, 0))
    Traceback (most recent call last):
    ...
    campfire.core.errors.NotationError: TrackerAction(kind='peek', arg=-1, index=0) is not a ...
    """
    if action.__class__ is TrackerAction:
        index = action.index
        if index.__class__ is int and 0 <= index < NUM_ACTIONS and _ALL[index] is action:
            return _ALL[index]
    if isinstance(action, TrackerAction):
        try:
            found = _CANONICAL.get(action)
        except TypeError:  # unhashable fields
            found = None
        if found is not None:
            hand_built(action, found, _TITLE)  # every field, the index too, must agree
            return found
    if isinstance(action, TrackerAction):
        plain_kind = str(action.kind) if isinstance(action.kind, TrackerKind) else action.kind
        kind, arg, num = (short_repr(v, 20) for v in (plain_kind, action.arg, action.index))
        shown = f"TrackerAction(kind={kind}, arg={arg}, index={num})"
    else:
        shown = f"a {type(action).__name__} object"
    raise NotationError(
        ErrorText("{shown} is not a Tracker action; {help}", shown=shown, help=_HELP)
    )


def action_index(action: Action) -> int:
    """The index of ``action`` in the fixed space ``0 .. NUM_ACTIONS - 1``."""
    if not isinstance(action, TrackerAction):
        raise NotationError(ErrorText("{action} is not a Tracker action", action=repr(action)))
    return action.index


def action_from_index(index: int) -> TrackerAction:
    """The action with the given index (raise :class:`NotationError` if out of range)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise NotationError(
            ErrorText(
                "Tracker action indices are 0–{last} (got {index})",
                last=NUM_ACTIONS - 1,
                index=short_repr(index),
            )
        )
    return _ALL[index]


assert [a.index for a in _ALL] == list(range(NUM_ACTIONS))
