"""Big Manitou actions, their notation and the fixed action index space.

Every decision is one small step (see ``docs/notation/manitou.md``); grounds are ``g1``–``g3``:

=================  ========================================================  ==============
notation           meaning                                                   index
=================  ========================================================  ==============
``pick C``         add one card of type C to this hunt's secret selection    0 + C
``play C gN``      play card C from the hand to ground N (also the totem      15 + 3·C + N−1
                   extra card)
``move hS gN``     horse move: move own hunter of strength S to ground N     60 + 3·(S−1) + N−1
``take T``         take one tile of type T from the ground being shared      90 + T
``lose T``         give up one tile of type T to the thief                   103 + T
``pass``           skip the totem play or the horse move (or no playable     116
                   card)
=================  ========================================================  ==============

C is a card type (``h1`` … ``h10``, ``chief``, ``squaw``, ``shaman``, ``spy``, ``healer`` =
0 … 14), T a tile type (``buffalo1`` … ``buffalo5``, ``tipi1`` … ``tipi5``, ``horse``,
``totem``, ``tomahawk`` = 0 … 12). The index space has 117 actions for every player count.

>>> a = parse_action("play chief g2")
>>> a, action_index(a), action_from_index(46)
(ManitouAction('play chief g2'), 46, ManitouAction('play chief g2'))
>>> parse_action("MOVE H6 G3").index
77
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from campfire.core import Action, ErrorText, NotationError
from campfire.core.actions import hand_built
from campfire.core.validate import short_repr

from .cards import CARD_NAMES, NUM_CARD_TYPES, NUM_HUNTERS, NUM_TILE_TYPES, TILE_NAMES

__all__ = [
    "LOSE",
    "MOVE",
    "NUM_ACTIONS",
    "NUM_GROUNDS",
    "PASS",
    "PICK",
    "PLAY",
    "TAKE",
    "ManitouAction",
    "ManitouKind",
    "action_from_index",
    "action_index",
    "canonical_action",
    "parse_action",
]

NUM_GROUNDS: Final = 3


class ManitouKind(StrEnum):
    """The kinds of Big Manitou steps; each member is its notation keyword (``PLAY == "play"``).

    Every game's action has such a ``kind`` (a ``str`` enum), so code that reads kinds reads
    them the same way in every game.
    """

    PICK = "pick"
    PLAY = "play"
    MOVE = "move"
    TAKE = "take"
    LOSE = "lose"
    PASS = "pass"


# the kinds as module constants (a module global is read faster than an enum attribute)
K_PICK: Final = ManitouKind.PICK
K_PLAY: Final = ManitouKind.PLAY
K_MOVE: Final = ManitouKind.MOVE
K_TAKE: Final = ManitouKind.TAKE
K_LOSE: Final = ManitouKind.LOSE
K_PASS: Final = ManitouKind.PASS
#: each kind's name (the kind itself: kept for the readers that index it by kind)
KIND_NAMES: Final[dict[ManitouKind, str]] = {k: str(k) for k in ManitouKind}


@dataclass(frozen=True, slots=True)
class ManitouAction(Action):
    """One Big Manitou step: a kind, its argument (card or tile type) and a ground (or -1)."""

    kind: ManitouKind
    arg: int
    ground: int
    index: int = field(compare=False)

    def notation(self) -> str:
        """The text notation, e.g. ``pick h7``, ``play spy g1``, ``take tipi2`` or ``pass``."""
        kind = self.kind
        if kind == K_PASS:
            return "pass"
        if kind in (K_TAKE, K_LOSE):
            return f"{kind} {TILE_NAMES[self.arg]}"
        if kind == K_PICK:
            return f"pick {CARD_NAMES[self.arg]}"
        return f"{kind} {CARD_NAMES[self.arg]} g{self.ground + 1}"

    def __repr__(self) -> str:
        return f"ManitouAction({self.notation()!r})"


PICK: Final = tuple(ManitouAction(K_PICK, c, -1, c) for c in range(NUM_CARD_TYPES))
#: ``PLAY[c][g]`` plays card type c to ground g (0-based).
PLAY: Final = tuple(
    tuple(ManitouAction(K_PLAY, c, g, 15 + 3 * c + g) for g in range(NUM_GROUNDS))
    for c in range(NUM_CARD_TYPES)
)
#: ``MOVE[h][g]`` moves the hunter of card type h (strength h + 1) to ground g.
MOVE: Final = tuple(
    tuple(ManitouAction(K_MOVE, h, g, 60 + 3 * h + g) for g in range(NUM_GROUNDS))
    for h in range(NUM_HUNTERS)
)
TAKE: Final = tuple(ManitouAction(K_TAKE, t, -1, 90 + t) for t in range(NUM_TILE_TYPES))
LOSE: Final = tuple(ManitouAction(K_LOSE, t, -1, 103 + t) for t in range(NUM_TILE_TYPES))
PASS: Final = ManitouAction(K_PASS, -1, -1, 116)

_ALL: Final[tuple[ManitouAction, ...]] = (
    *PICK,
    *(a for row in PLAY for a in row),
    *(a for row in MOVE for a in row),
    *TAKE,
    *LOSE,
    PASS,
)
NUM_ACTIONS: Final = len(_ALL)
_BY_TEXT: Final = {a.notation(): a for a in _ALL}
_CANONICAL: Final[dict[ManitouAction, ManitouAction]] = {a: a for a in _ALL}
assert [a.index for a in _ALL] == list(range(NUM_ACTIONS))

#: the title in messages, translated at the edge under ``manitou.title`` (as ``Game.title_text``)
_TITLE_TEXT: Final = "Big Manitou"
_TITLE: Final = ErrorText(_TITLE_TEXT, context="manitou.title")
_HELP: Final = ErrorText(
    "Big Manitou actions are: pick C, play C gN, move hS gN, take T, lose T, pass "
    "(C = h1–h10, chief, squaw, shaman, spy, healer; N = 1–3; T = buffalo1–5, tipi1–5, horse, "
    "totem, tomahawk)"
)


def parse_action(text: str) -> ManitouAction:
    """Parse a Big Manitou action's notation (raise :class:`NotationError` with the forms)."""
    if not isinstance(text, str):
        raise NotationError(
            ErrorText(
                "an action is written as text (got {got}); {help}", got=repr(text), help=_HELP
            )
        )
    action = _BY_TEXT.get(" ".join(text.lower().split()))
    if action is None:
        raise NotationError(ErrorText("cannot read {got}; {help}", got=repr(text), help=_HELP))
    return action


def canonical_action(action: object) -> ManitouAction:
    """The Big Manitou action equal to ``action``: one of the 117 of the index space.

    A :class:`ManitouAction` built by hand is found by its kind, argument and ground, and must
    then agree with the action found in every field (its index too, and ``int`` arguments,
    never a ``float`` or a ``bool``); one that is none of the 117 raises
    :class:`NotationError`, so that it never reaches the rules or a record:

    >>> canonical_action(ManitouAction(K_PICK, 14, -1, 14)) is parse_action("pick healer")
    True
    >>> canonical_action(ManitouAction(K_PICK, 14, -1, 3))
    Traceback (most recent call last):
    ...
    campfire.core.errors.NotationError: ManitouAction(...) ...: its index is 3, not 14
    >>> canonical_action(ManitouAction(K_PICK, -1, -1, 0))
    Traceback (most recent call last):
    ...
    campfire.core.errors.NotationError: ManitouAction(kind='pick', arg=-1, ground=-1, index=0) ...
    """
    if action.__class__ is ManitouAction:
        index = action.index
        if index.__class__ is int and 0 <= index < NUM_ACTIONS and _ALL[index] is action:
            return _ALL[index]
    if isinstance(action, ManitouAction):
        try:
            found = _CANONICAL.get(action)
        except TypeError:  # unhashable fields
            found = None
        if found is not None:
            hand_built(action, found, _TITLE)  # every field, the index too, must agree
            return found
        plain_kind = str(action.kind) if isinstance(action.kind, ManitouKind) else action.kind
        kind, arg, ground, num = (
            short_repr(v, 20) for v in (plain_kind, action.arg, action.ground, action.index)
        )
        shown = f"ManitouAction(kind={kind}, arg={arg}, ground={ground}, index={num})"
    else:
        shown = f"a {type(action).__name__} object"
    raise NotationError(
        ErrorText("{shown} is not a Big Manitou action; {help}", shown=shown, help=_HELP)
    )


def action_index(action: Action) -> int:
    """The index of ``action`` in the fixed space ``0 .. NUM_ACTIONS - 1``."""
    if not isinstance(action, ManitouAction):
        raise NotationError(ErrorText("{action} is not a Big Manitou action", action=repr(action)))
    return action.index


def action_from_index(index: int) -> ManitouAction:
    """The action with the given index (raise :class:`NotationError` if out of range)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise NotationError(
            ErrorText(
                "Big Manitou action indices are 0–{last} (got {index})",
                last=NUM_ACTIONS - 1,
                index=short_repr(index),
            )
        )
    return _ALL[index]
