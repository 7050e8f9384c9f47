"""Apache actions, their notation and the fixed action index space.

See ``docs/notation/apache.md``. Every index space has 202 actions, whatever the player count:

===========================  ==================================================  ===========
notation                     meaning                                             index
===========================  ==================================================  ===========
``reveal``                   the revealer turns up the next prairie card         0
``pass``                     answer the claim poll without a claim               1
``claim T``                  claim with hand card T (``claim_order=arrival``)    2 + T
``claim T MS``               claim with T after MS ms (``claim_order=reaction``) 6 + 41·T + MS/50
``booty``                    resolve a claim with its normal booty               170
``teepees``                  resolve a claim with the teepees                    171
``prisoner C-W``/``C-H``     Chief's normal booty, taking that prisoner          172 + 2·C + (T−2)
``marry C-T``                marriage (variant) with that partner                182 + 4·C + T
===========================  ==================================================  ===========

T is a type (chief 0, maiden 1, warrior 2, hunter 3), C a colour (red 0, yellow 1, purple 2,
green 3, blue 4). Reaction times are bucketed: multiples of 50 ms from 0 to 2000 ms (41 values);
a bot or a test rounds its reaction time to that grid, and equal times are ordered by the
window's seeded tie-break.

>>> a = parse_action("claim hunter 350")
>>> a, a.index, action_from_index(a.index) == a
(ApacheAction('claim hunter 350'), 136, True)
>>> parse_action("prisoner GW"), parse_action("Marry  red-maiden").index
(ApacheAction('prisoner green-warrior'), 183)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from campfire.core import Action, ErrorText, IllegalActionError, NotationError
from campfire.core.actions import hand_built
from campfire.core.validate import short_repr

from .cards import (
    COLOURS,
    HUNTER,
    NUM_COLOURS,
    NUM_TYPES,
    TYPES,
    WARRIOR,
    card_name,
    indian,
    is_indian,
    is_male,
    parse_card,
    parse_type,
)

__all__ = [
    "BOOTY",
    "CLAIM",
    "CLAIM_MS",
    "MARRY",
    "NUM_ACTIONS",
    "PASS",
    "PRISONER",
    "REACTION_MAX_MS",
    "REACTION_STEP_MS",
    "REACTION_VALUES",
    "REVEAL",
    "TEEPEES",
    "ApacheAction",
    "ApacheKind",
    "action_from_index",
    "action_index",
    "canonical_action",
    "parse_action",
    "window_actions",
]

#: Reaction times of the claim poll (apache §11.3) are multiples of this many milliseconds ...
REACTION_STEP_MS: Final = 50
#: ... from 0 up to this cap (bots and tests round and cap their reaction times).
REACTION_MAX_MS: Final = 2000
REACTION_VALUES: Final = REACTION_MAX_MS // REACTION_STEP_MS + 1

NO: Final = -1


class ApacheKind(StrEnum):
    """The kinds of Apache actions; each member is its notation keyword (``CLAIM == "claim"``).

    Every game's action has such a ``kind`` (a ``str`` enum), so code that reads kinds reads
    them the same way in every game.
    """

    REVEAL = "reveal"
    PASS = "pass"
    CLAIM = "claim"
    BOOTY = "booty"
    TEEPEES = "teepees"
    PRISONER = "prisoner"
    MARRY = "marry"


@dataclass(frozen=True, slots=True)
class ApacheAction(Action):
    """One Apache action: a kind with its type, reaction time and card (``-1`` when unused)."""

    kind: ApacheKind
    type: int = NO
    ms: int = NO
    card: int = NO
    index: int = field(default=NO, compare=False)

    def notation(self) -> str:
        """The text notation, e.g. ``claim hunter 350`` or ``prisoner green-warrior``."""
        if self.kind == "claim":
            base = f"claim {TYPES[self.type]}"
            return base if self.ms < 0 else f"{base} {self.ms}"
        if self.card >= 0:
            return f"{self.kind} {card_name(self.card)}"
        return str(self.kind)

    def __repr__(self) -> str:
        return f"ApacheAction({self.notation()!r})"


_K: Final = ApacheKind
REVEAL: Final = ApacheAction(_K.REVEAL, index=0)
PASS: Final = ApacheAction(_K.PASS, index=1)
#: ``CLAIM[t]``: an arrival-ordered claim with type t (apache §11.1).
CLAIM: Final = tuple(ApacheAction(_K.CLAIM, t, index=2 + t) for t in range(NUM_TYPES))
#: ``CLAIM_MS[t][i]``: a poll claim with type t and reaction time ``i * REACTION_STEP_MS``.
CLAIM_MS: Final = tuple(
    tuple(
        ApacheAction(_K.CLAIM, t, i * REACTION_STEP_MS, index=6 + REACTION_VALUES * t + i)
        for i in range(REACTION_VALUES)
    )
    for t in range(NUM_TYPES)
)
_CHOICE_BASE: Final = 6 + REACTION_VALUES * NUM_TYPES
BOOTY: Final = ApacheAction(_K.BOOTY, index=_CHOICE_BASE)
TEEPEES: Final = ApacheAction(_K.TEEPEES, index=_CHOICE_BASE + 1)
#: ``PRISONER[kind]`` for a hunter or warrior kind: the Chief takes that prisoner.
PRISONER: Final[dict[int, ApacheAction]] = {
    indian(c, t): ApacheAction(
        _K.PRISONER, card=indian(c, t), index=_CHOICE_BASE + 2 + 2 * c + (t - WARRIOR)
    )
    for c in range(NUM_COLOURS)
    for t in (WARRIOR, HUNTER)
}
#: ``MARRY[kind]`` for an Indian kind: marriage (apache §10.2) with that partner.
MARRY: Final = tuple(
    ApacheAction(_K.MARRY, card=k, index=_CHOICE_BASE + 12 + k) for k in range(NUM_COLOURS * 4)
)

_ALL: Final[tuple[ApacheAction, ...]] = (
    REVEAL,
    PASS,
    *CLAIM,
    *(a for row in CLAIM_MS for a in row),
    BOOTY,
    TEEPEES,
    *sorted(PRISONER.values(), key=lambda a: a.index),
    *MARRY,
)
NUM_ACTIONS: Final = len(_ALL)
assert [a.index for a in _ALL] == list(range(NUM_ACTIONS))
_BY_TEXT: Final = {a.notation(): a for a in _ALL}
_BY_FIELDS: Final = {(a.kind, a.type, a.ms, a.card): a for a in _ALL}

#: the title in messages, translated at the edge under ``apache.title`` (as ``Game.title_text``)
_TITLE_TEXT: Final = "Apache"
_TITLE: Final = ErrorText(_TITLE_TEXT, context="apache.title")
_HELP: Final = ErrorText(
    "Apache actions are: reveal, pass, claim <type> (arrival order) or claim <type> <ms> "
    "(reaction time, a multiple of {step} from 0 to {most}), booty, teepees, prisoner "
    "<colour>-<warrior|hunter>, marry <colour>-<type>; types are {types}; colours are {colours}",
    step=REACTION_STEP_MS,
    most=REACTION_MAX_MS,
    types=", ".join(TYPES),
    colours=", ".join(COLOURS),
)


def parse_action(text: str) -> ApacheAction:
    """Parse an Apache action's notation (raise :class:`NotationError` with the allowed forms)."""
    if not isinstance(text, str):
        raise NotationError(
            ErrorText(
                "an action is written as text (got {got}); {help}", got=repr(text), help=_HELP
            )
        )
    words = text.lower().split()
    action = _BY_TEXT.get(" ".join(words))
    if action is not None:
        return action
    if len(words) in (2, 3) and words[0] == "claim":
        t = parse_type(words[1], NotationError)
        if len(words) == 2:
            return CLAIM[t]
        try:
            ms = int(words[2])
        except ValueError:
            ms = -1
        if ms < 0 or ms > REACTION_MAX_MS or ms % REACTION_STEP_MS:
            raise NotationError(
                ErrorText(
                    "cannot read reaction time {got}: reaction times are multiples of {step} ms "
                    "from 0 to {most} (round and cap yours)",
                    got=repr(words[2]),
                    step=REACTION_STEP_MS,
                    most=REACTION_MAX_MS,
                )
            )
        return CLAIM_MS[t][ms // REACTION_STEP_MS]
    if len(words) == 2 and words[0] in ("prisoner", "marry"):
        kind = parse_card(words[1], NotationError)
        if words[0] == "marry" and is_indian(kind):
            return MARRY[kind]
        if words[0] == "prisoner" and is_male(kind):
            return PRISONER[kind]
        raise NotationError(
            ErrorText(
                "cannot read {got}: a prisoner is a hunter or warrior card, a partner an Indian "
                "card; {help}",
                got=repr(text),
                help=_HELP,
            )
        )
    raise NotationError(ErrorText("cannot read {got}; {help}", got=repr(text), help=_HELP))


def canonical_action(action: Action) -> ApacheAction:
    """The Apache action equal to ``action``, one of the 202 of the index space.

    An :class:`ApacheAction` built by hand with fields outside the notation (a type or card
    out of range, an off-grid reaction time) raises :class:`NotationError`, so that it can
    never reach the rules:

    >>> canonical_action(ApacheAction("claim", 3, 350)) is parse_action("claim hunter 350")
    True
    >>> canonical_action(ApacheAction("claim", 3, 37))
    Traceback (most recent call last):
    ...
    campfire.core.errors.NotationError: ApacheAction('claim hunter 37') is not an Apache action; ...

    Every field must agree with the action it matches (an index left out is not compared):

    >>> canonical_action(ApacheAction("claim", 3.0, 350))
    Traceback (most recent call last):
    ...
    campfire.core.errors.NotationError: ApacheAction(...) is not ...: its type is 3.0, not 3
    """
    if isinstance(action, ApacheAction):
        index = action.index
        if index.__class__ is int and 0 <= index < NUM_ACTIONS and _ALL[index] == action:
            found: ApacheAction | None = _ALL[index]
        else:
            try:
                found = _BY_FIELDS.get((action.kind, action.type, action.ms, action.card))
            except TypeError:  # unhashable fields
                found = None
        if found is action:
            return found
        if found is not None:
            hand_built(action, found, _TITLE)
            return found
    raise NotationError(
        ErrorText("{value} is not an Apache action; {help}", value=_safe_repr(action), help=_HELP)
    )


def _safe_repr(action: object) -> str:
    if isinstance(action, ApacheAction):
        try:
            return repr(action)
        except (IndexError, TypeError):  # a type or card out of range
            kind = action.kind
            plain_kind = str(kind) if isinstance(kind, ApacheKind) else kind
            return (
                f"ApacheAction(kind={plain_kind!r}, type={action.type!r}, ms={action.ms!r}, "
                f"card={action.card!r})"
            )
    return repr(action)


def action_index(action: Action) -> int:
    """The index of ``action`` in the fixed space ``0 .. NUM_ACTIONS - 1``."""
    return canonical_action(action).index


def action_from_index(index: int) -> ApacheAction:
    """The action with the given index (raise :class:`NotationError` if out of range)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise NotationError(
            ErrorText(
                "Apache action indices are 0–{last} (got {index})",
                last=NUM_ACTIONS - 1,
                index=short_repr(index),
            )
        )
    return _ALL[index]


def window_actions(
    arrivals: Sequence[tuple[int, int | str]], players: int
) -> list[tuple[int, ApacheAction]]:
    """The record lines of one claim window logged in arrival order (apache §11.1).

    ``arrivals`` lists ``(seat, type)`` in the order the claims reached the server; the result
    is those claims in that order followed by a ``pass`` for every other seat, to be applied to
    a game with ``claim_order=arrival``. Replaying them resolves the window exactly as it was
    resolved live. A seat outside ``0 .. players - 1`` raises :class:`NotationError`, a seat
    listed twice :class:`IllegalActionError` (one hand card per reveal, apache rules §4.3).
    """
    out: list[tuple[int, ApacheAction]] = []
    seen: set[int] = set()
    for seat, type_ in arrivals:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise NotationError(
                ErrorText(
                    "a seat is 0–{last} (got {seat})", last=players - 1, seat=short_repr(seat)
                )
            )
        if seat in seen:
            raise IllegalActionError(
                "apache rules §4.3",
                ErrorText(
                    "seat {seat} claims twice in one window: one hand card per reveal", seat=seat
                ),
            )
        seen.add(seat)
        t = parse_type(type_, NotationError) if isinstance(type_, str) else type_
        if not 0 <= t < NUM_TYPES:
            raise NotationError(
                ErrorText(
                    "unknown Indian type {type_}; types are {types}",
                    type_=repr(type_),
                    types=", ".join(TYPES),
                )
            )
        out.append((seat, CLAIM[t]))
    claimed = {seat for seat, _ in arrivals}
    out.extend((seat, PASS) for seat in range(players) if seat not in claimed)
    return out
