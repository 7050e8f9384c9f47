"""Dudab actions, their notation and the fixed action index space (dudab §5.10).

Every decision is one small step. Cards are named by face (see :mod:`.cards`); columns are
``c1``–``c3`` (2 columns for 2–4 players, 3 for 5–6, dudab §2.3).

===========================  ==================================================  =============
notation                     meaning                                             index
===========================  ==================================================  =============
``p COL/SYM/V cK``           place a Number card on column K                     F·3 + K−1
``p shaman/COL cK``          place a Shaman                                      192 + c·3 + K−1
``p dudab cK [call=X]``      place a Dudab, optionally calling X                 204 + (K−1)·13 + x
``draw``                     TURN draw, or fail a call answer (reveal, draw 1)   243
``penalty``                  take the Shaman penalty                             244
``keep FACE``                keep a card after a capture (twice)                 245 + F
``rest discard``             the other cards go to the discard pile              314
``rest pile``                the other cards go to the own pile                  315
``pile FACE``                move a card from hand to own pile (swap, trim)      316 + F
``jungle cK``                lay the drawn Jungle on column K                    384 + K
``baby cK``                  put the drawn Baby on column K                      387 + K
===========================  ==================================================  =============

``F`` is the face number (0–63 Number cards, 64 Dudab, 65–68 Shaman blue/red/yellow/green),
``c`` the colour 0–3 and ``x`` the call (0 none, 1–4 colours, 5–8 symbols, 9–12 values 1–4).

>>> a = parse_action("p dudab c1 call=yellow")
>>> a, action_index(a)
(DudabAction('p dudab c1 call=yellow'), 207)
>>> action_from_index(action_index(parse_action("p red/fur/3 c2")))
DudabAction('p red/fur/3 c2')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from campfire.core import Action, ErrorText, NotationError
from campfire.core.actions import hand_built
from campfire.core.validate import short_repr

from .cards import CALL_NAMES, FACE_DUDAB, FACE_SHAMAN, HAND_FACES, face_name, parse_call
from .cards import parse_face as _parse_face

__all__ = [
    "ACTIONS",
    "BABY_COL",
    "DRAW",
    "JUNGLE_COL",
    "KEEP",
    "MAX_COLUMNS",
    "NUM_ACTIONS",
    "PENALTY",
    "PILE",
    "PLACE",
    "PLACE_DUDAB",
    "REST_DISCARD",
    "REST_PILE",
    "DudabAction",
    "DudabKind",
    "action_from_index",
    "action_index",
    "canonical_action",
    "parse_action",
]

MAX_COLUMNS: Final = 3


class DudabKind(StrEnum):
    """The kinds of Dudab steps; each member is its notation keyword (``PLACE == "p"``).

    Every game's action has such a ``kind`` (a ``str`` enum), so code that reads kinds reads
    them the same way in every game.
    """

    PLACE = "p"
    DRAW = "draw"
    PENALTY = "penalty"
    KEEP = "keep"
    REST = "rest"
    PILE = "pile"
    JUNGLE = "jungle"
    BABY = "baby"


# the kinds as module constants (a module global is read faster than an enum attribute)
K_PLACE: Final = DudabKind.PLACE
K_DRAW: Final = DudabKind.DRAW
K_PENALTY: Final = DudabKind.PENALTY
K_KEEP: Final = DudabKind.KEEP
K_REST: Final = DudabKind.REST
K_PILE: Final = DudabKind.PILE
K_JUNGLE: Final = DudabKind.JUNGLE
K_BABY: Final = DudabKind.BABY


@dataclass(frozen=True, slots=True)
class DudabAction(Action):
    """One Dudab step: its index (which identifies it) and its decoded parts.

    ``face`` is the card face (-1 if none), ``col`` the column 0–2 (-1 if none), ``call`` the call
    (0 none) or, for ``rest``, 0 = discard pile and 1 = own pile.
    """

    index: int
    kind: DudabKind = field(compare=False)
    face: int = field(compare=False, default=-1)
    col: int = field(compare=False, default=-1)
    call: int = field(compare=False, default=0)

    def notation(self) -> str:
        """The text notation, e.g. ``p red/fur/3 c2`` or ``p dudab c1 call=yellow``."""
        kind = self.kind
        if kind == K_PLACE:
            text = f"p {face_name(self.face)} c{self.col + 1}"
            return f"{text} call={CALL_NAMES[self.call]}" if self.call else text
        if kind == K_DRAW:
            return "draw"
        if kind == K_PENALTY:
            return "penalty"
        if kind == K_KEEP:
            return f"keep {face_name(self.face)}"
        if kind == K_REST:
            return "rest pile" if self.call else "rest discard"
        if kind == K_PILE:
            return f"pile {face_name(self.face)}"
        return f"{'jungle' if kind == K_JUNGLE else 'baby'} c{self.col + 1}"

    def __repr__(self) -> str:
        return f"DudabAction({self.notation()!r})"


#: ``PLACE[face][col]`` for Number and Shaman faces (Dudabs: :data:`PLACE_DUDAB`)
PLACE: Final[tuple[tuple[DudabAction, ...], ...]] = tuple(
    tuple(
        DudabAction(f * 3 + c if f < 64 else 192 + (f - FACE_SHAMAN) * 3 + c, K_PLACE, f, c)
        for c in range(MAX_COLUMNS)
    )
    if f != FACE_DUDAB
    else ()
    for f in range(HAND_FACES)
)
#: ``PLACE_DUDAB[col][call]``
PLACE_DUDAB: Final[tuple[tuple[DudabAction, ...], ...]] = tuple(
    tuple(DudabAction(204 + c * 13 + x, K_PLACE, FACE_DUDAB, c, x) for x in range(13))
    for c in range(MAX_COLUMNS)
)
DRAW: Final = DudabAction(243, K_DRAW)
PENALTY: Final = DudabAction(244, K_PENALTY)
KEEP: Final[tuple[DudabAction, ...]] = tuple(
    DudabAction(245 + f, K_KEEP, f) for f in range(HAND_FACES)
)
REST_DISCARD: Final = DudabAction(314, K_REST, call=0)
REST_PILE: Final = DudabAction(315, K_REST, call=1)
PILE: Final[tuple[DudabAction, ...]] = tuple(
    DudabAction(316 + f, K_PILE, f) for f in range(HAND_FACES)
)
JUNGLE_COL: Final[tuple[DudabAction, ...]] = tuple(
    DudabAction(385 + c, K_JUNGLE, col=c) for c in range(MAX_COLUMNS)
)
BABY_COL: Final[tuple[DudabAction, ...]] = tuple(
    DudabAction(388 + c, K_BABY, col=c) for c in range(MAX_COLUMNS)
)

_ALL: Final[tuple[DudabAction, ...]] = tuple(
    sorted(
        [
            *(a for row in PLACE for a in row),
            *(a for row in PLACE_DUDAB for a in row),
            DRAW,
            PENALTY,
            *KEEP,
            REST_DISCARD,
            REST_PILE,
            *PILE,
            *JUNGLE_COL,
            *BABY_COL,
        ],
        key=lambda a: a.index,
    )
)
NUM_ACTIONS: Final = len(_ALL)
#: every action, by index
ACTIONS: Final = _ALL
_BY_TEXT: Final = {a.notation(): a for a in _ALL}

#: the title in messages, translated at the edge under ``dudab.title`` (as ``Game.title_text``)
_TITLE_TEXT: Final = "Dudab"
_TITLE: Final = ErrorText(_TITLE_TEXT, context="dudab.title")
_HELP: Final = ErrorText(
    "Dudab actions are: p <card> c<column> (e.g. p red/fur/3 c2, p shaman/red c1), "
    "p dudab c<column> [call=<colour|symbol|value>], draw, penalty, keep <card>, "
    "rest discard, rest pile, pile <card>, jungle c<column>, baby c<column>"
)


def _normalise(text: str) -> str:
    parts = text.lower().split()
    # accept "call = x", "call x" and a call given without "call=" nowhere else
    if len(parts) >= 3 and parts[0] == "p":
        tail = " ".join(parts[3:])
        tail = tail.replace(" ", "")
        if tail:
            if tail.startswith("call="):
                tail = tail[5:]
            elif tail.startswith("call"):
                tail = tail[4:]
            try:
                call = parse_call(tail)
            except NotationError:
                return " ".join(parts)
            return f"{parts[0]} {parts[1]} {parts[2]} call={CALL_NAMES[call]}"
        return " ".join(parts[:3])
    return " ".join(parts)


def parse_action(text: str) -> DudabAction:
    """Parse a Dudab action's notation (raise :class:`NotationError` with the allowed forms)."""
    if not isinstance(text, str):
        raise NotationError(
            ErrorText(
                "an action is written as text (got {got}); {help}", got=repr(text), help=_HELP
            )
        )
    action = _BY_TEXT.get(_normalise(text))
    if action is None:
        parts = text.lower().split()
        if len(parts) >= 2 and parts[0] in ("p", "keep", "pile"):
            _parse_face(parts[1])  # raises a precise error for an unknown card
        raise NotationError(ErrorText("cannot read {got}; {help}", got=repr(text), help=_HELP))
    return action


def canonical_action(action: object) -> DudabAction:
    """The Dudab action equal to ``action``: one of the 391 of the index space.

    An action is identified by its index; a :class:`DudabAction` built by hand must agree with
    the action of its index in every other field too (a field left at its default is not
    compared), so that what is applied and recorded is what the caller wrote; anything else
    raises :class:`NotationError`:

    >>> canonical_action(DudabAction(243, DudabKind.DRAW)) is parse_action("draw")
    True
    >>> canonical_action(DudabAction(243, DudabKind.PLACE, 3, 0))
    Traceback (most recent call last):
    ...
    campfire.core.errors.NotationError: DudabAction(...) ...: its kind is 'p', not 'draw'
    """
    if not isinstance(action, DudabAction):
        shown = f"a {type(action).__name__} object"
        raise NotationError(ErrorText("{action} is not a Dudab action", action=shown))
    index = action.index
    if index.__class__ is not int or not 0 <= index < NUM_ACTIONS:
        raise NotationError(
            ErrorText(
                "Dudab action indices are 0–{last} (got {index})",
                last=NUM_ACTIONS - 1,
                index=short_repr(index),
            )
        )
    found = _ALL[index]
    if found is not action:
        hand_built(action, found, _TITLE)
    return found


def action_index(action: Action) -> int:
    """The index of ``action`` in the fixed space ``0 .. NUM_ACTIONS - 1``."""
    if not isinstance(action, DudabAction):
        raise NotationError(ErrorText("{action} is not a Dudab action", action=repr(action)))
    return action.index


def action_from_index(index: int) -> DudabAction:
    """The action with the given index (raise :class:`NotationError` if out of range)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise NotationError(
            ErrorText(
                "Dudab action indices are 0–{last} (got {index})",
                last=NUM_ACTIONS - 1,
                index=short_repr(index),
            )
        )
    return _ALL[index]


assert [a.index for a in _ALL] == list(range(NUM_ACTIONS))
