"""Actions: small immutable values with a text notation.

Each game defines its own action class deriving from :class:`Action`. An action's ``str`` is its
notation, and the game's ``parse_action`` turns the notation back into an equal action (like UCI
moves in chess). Each game also numbers its actions in a fixed integer index space (per player
count) for learning frameworks.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Final, SupportsIndex

from mypy_extensions import mypyc_attr

from .errors import ErrorText, NotationError
from .validate import short_repr

__all__ = ["Action", "answer_name", "field_disagreement", "hand_built", "split_timed"]

#: a timed answer: an answer's notation followed by a reaction time in ms (``claim hunter 350``)
_TIMED: Final = re.compile(r"^(.*\D) (\d+)$")


def split_timed(notation: str) -> tuple[str, int | None]:
    """A timed answer's notation split into the answer and its time in ms (``None``: untimed).

    Real-time games (the ``realtime-claims`` play mode, when answers are ordered by reaction)
    write how fast an answer came as its last word; the terminal app and the server both read
    it from here.

    >>> split_timed("claim hunter 350"), split_timed("pass")
    (('claim hunter', 350), ('pass', None))
    """
    match = _TIMED.match(notation)
    return (match.group(1), int(match.group(2))) if match else (notation, None)


def answer_name(notation: str) -> str:
    """An answer's notation without its reaction time (``claim hunter 350`` → ``claim hunter``).

    >>> answer_name("claim hunter 350")
    'claim hunter'
    """
    return split_timed(notation)[0]


@mypyc_attr(allow_interpreted_subclasses=True)  # a game's, a plugin's, a test's
class Action:
    """Base class of every game's actions.

    Subclasses are immutable and hashable, compare by value, and implement :meth:`notation`.
    """

    __slots__ = ()

    def notation(self) -> str:
        """Return the action's text notation."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.notation()

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """Pickle a dataclass action as a call of its class with its fields.

        The default (an empty object, then its fields set one by one) cannot fill a frozen
        action of the compiled build (``docs/compiled.md``); a class that is no dataclass
        pickles the default way.

        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class Take(Action):
        ...     n: int
        ...
        ...     def notation(self) -> str:
        ...         return f"take {self.n}"
        >>> Take(3).__reduce_ex__(2) == (Take, (3,))
        True
        """
        cls = self.__class__
        if dataclasses.is_dataclass(cls):
            return cls, tuple(getattr(self, f.name) for f in dataclasses.fields(cls) if f.init)
        return object.__reduce_ex__(self, protocol)


#: per action class, its fields as (name, default) pairs (``MISSING``: no default)
_FIELDS: Final[dict[type, tuple[tuple[str, Any], ...]]] = {}


def _fields_of(cls: type) -> tuple[tuple[str, Any], ...]:
    known = _FIELDS.get(cls)
    if known is None:
        known = (
            tuple((f.name, f.default) for f in dataclasses.fields(cls))
            if dataclasses.is_dataclass(cls)
            else ()
        )
        _FIELDS[cls] = known
    return known


def _same(given: object, own: object) -> bool:
    """Whether a field's value ``given`` is ``own``'s, with the same type (a ``str`` for a text)."""
    try:
        if isinstance(own, str):
            return isinstance(given, str) and given == own  # a plain "peek" for a str enum
        return type(given) is type(own) and bool(given == own)  # never 0.0 or False for 0
    except Exception:  # a hand-built field whose comparison fails is no match
        return False


def _shown(value: object) -> str:
    return short_repr(str(value) if isinstance(value, str) else value, 30)


def field_disagreement(given: Action, own: Action) -> ErrorText | None:
    """What a hand-built action ``given`` says that the game's own action ``own`` does not.

    Every field of ``own``'s class must hold the same value with the same type in ``given``
    (an ``int`` field never a ``float`` or a ``bool``; a text field any ``str`` of the same
    text); a field left at its declared default is not stated and agrees. ``None`` when they
    agree.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Take(Action):
    ...     count: int
    ...     pile: str = "left"
    ...
    ...     def notation(self) -> str:
    ...         return f"take {self.count} {self.pile}"
    >>> own = Take(2)
    >>> field_disagreement(Take(2, "left"), own) is None
    True
    >>> field_disagreement(Take(2.0), own)
    'its count is 2.0, not 2'
    """
    if given.__class__ is not own.__class__:
        return ErrorText(
            "it is a {kind}, not a {own}", kind=type(given).__name__, own=type(own).__name__
        )
    for name, default in _fields_of(own.__class__):
        value, expected = getattr(given, name), getattr(own, name)
        if _same(value, expected):
            continue
        if default is not dataclasses.MISSING and _same(value, default):
            continue  # left at its default: not stated
        return ErrorText(
            "its {field} is {value}, not {expected}",
            field=name,
            value=_shown(value),
            expected=_shown(expected),
        )
    return None


def hand_built(given: Action, own: Action, title: str) -> Action:
    """``own``, the game's action that the hand-built ``given`` matches, if every field agrees.

    A game's ``canonical_action`` calls it once it has found its own action for an action
    object built by hand (by index, or by the fields it compares), so that what is applied
    and recorded is exactly what the caller wrote; a field that disagrees (a ``float`` or a
    ``bool`` in an integer field, a kind or a card that is not the action's) raises
    :class:`~campfire.core.errors.NotationError` naming it. ``title`` names the game.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Take(Action):
    ...     count: int
    ...
    ...     def notation(self) -> str:
    ...         return f"take {self.count}"
    >>> own = Take(1)
    >>> hand_built(Take(1), own, "Pile") is own
    True
    >>> hand_built(Take(True), own, "Pile")
    Traceback (most recent call last):
    ...
    campfire.core.errors.NotationError: Take(count=True) is not the Pile action 'take 1': its ...
    """
    problem = field_disagreement(given, own)
    if problem is None:
        return own
    parts = ", ".join(
        f"{name}={_shown(getattr(given, name))}" for name, _ in _fields_of(type(given))
    )
    shown = f"{type(given).__name__}({parts})"
    text = ErrorText(
        "{action} is not the {title} action {notation}: {problem}",
        action=shown,
        title=title,
        notation=repr(str(own)),
        problem=problem,
    )
    raise NotationError(text)
