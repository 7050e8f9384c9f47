"""Exception classes of Campfire.

Every error a user can cause is a subclass of :class:`CampfireError`, which itself subclasses
:class:`ValueError`. Messages say what was wrong and what is allowed, so a front end can show them
as they are.

>>> try:
...     raise IllegalActionError("pile rules §4.2", "the pile is empty")
... except ValueError as exc:
...     print(exc)
pile rules §4.2: the pile is empty

A message may be an :class:`ErrorText`: the English text made from a template and its
parameters, which a front end can word anew in the user's language (``campfire.i18n``) while
the kernel itself stays English-only:

>>> err = NotationError(ErrorText("position {position} is empty", position=12))
>>> str(err), err.text.template, err.text.params
('position 12 is empty', 'position {position} is empty', {'position': 12})
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CampfireError",
    "ErrorText",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "PositionError",
    "RecordError",
    "SeatError",
    "SetupError",
    "UnknownGameError",
]


class ErrorText(str):
    """An error message in English, with the template and parameters it was made from.

    It *is* the English text (a ``str``), so it goes wherever a message goes; front ends
    translate it by its template (the catalog's msgid; ``context`` makes it a ``msgctxt``
    entry, as the presenters' card and colour names are) and translate parameters that are
    themselves :class:`ErrorText` (a card's name, a list of choices) the same way. Making one
    costs one ``str.format``: engines raise them freely.

    >>> ErrorText("seat {seat} chooses now", seat=2)
    'seat 2 chooses now'
    >>> ErrorText("hunter", context="pile.card.hunter").context
    'pile.card.hunter'
    """

    template: str
    params: dict[str, Any]
    context: str | None

    def __new__(cls, template: str, /, context: str | None = None, **params: Any) -> ErrorText:
        """The text of ``template`` filled with ``params`` (no ``params``: the template as is)."""
        try:
            text = template.format(**params) if params else template
        except ValueError:  # a parameter that cannot be written: an int of 4,300 digits or more
            params = {key: _printable(value) for key, value in params.items()}
            text = template.format(**params)
        self = super().__new__(cls, text)
        self.template = template
        self.params = params
        self.context = context
        return self

    @classmethod
    def series(cls, items: list[Any] | tuple[Any, ...], sep: str = ", ") -> ErrorText:
        """A list of ``items`` (texts or values) written one after another, ``sep`` between.

        >>> t = ErrorText.series([ErrorText("red"), 3])
        >>> t, sorted(t.params)
        ('red, 3', ['item0', 'item1'])
        """
        params = {f"item{i}": item for i, item in enumerate(items)}
        template = sep.join("{" + k + "}" for k in params)
        return cls.__new__(cls, template, **params)

    def __reduce__(self) -> tuple[Any, ...]:  # pickling (process pools) keeps the parts
        return (_error_text, (str(self.template), self.context, dict(self.params)))


def _printable(value: Any) -> Any:
    """``value``, or words for it if it is an int too long for Python to write (4,300 digits)."""
    if isinstance(value, int):
        try:
            str(value)
        except ValueError:
            return "a number of more than 40 digits"  # the words of validate.short_repr
    return value


def _error_text(template: str, context: str | None, params: dict[str, Any]) -> ErrorText:
    return ErrorText(template, context, **params)


#: the rules an engine cites by a word rather than a section (translated like any message)
_RULE_WORDS = {
    "rules": ErrorText("rules"),
    "seat": ErrorText("seat"),
    "setup": ErrorText("setup"),  # what a game's explicit setup fixes (docs/records.md)
    "turn order": ErrorText("turn order"),
    "undo": ErrorText("undo"),
}


def _rule_text(rule: str) -> str:
    """A rule citation as a text: ``"pile rules §4.2"`` keeps the game and the section."""
    game, sep, section = rule.partition(" rules ")
    if sep and game and " " not in game:
        return ErrorText("{game} rules {section}", game=game, section=section)
    return _RULE_WORDS.get(rule, rule)


def _as_text(message: str) -> ErrorText:
    return message if isinstance(message, ErrorText) else ErrorText(message)


class CampfireError(ValueError):
    """Base class of every error caused by bad input to Campfire.

    Its message may be an :class:`ErrorText`; :attr:`text` is the message as one either way.
    """

    @property
    def text(self) -> ErrorText:
        """The message as an :class:`ErrorText` (a plain message: a template with no fields)."""
        first = self.args[0] if len(self.args) == 1 else None
        if isinstance(first, ErrorText):
            return first
        return ErrorText(str(self))


class UnknownGameError(CampfireError):
    """A game name that is not in the registry."""


class OptionError(CampfireError):
    """An unknown option, or an option value that is not allowed."""


class NotationError(CampfireError):
    """A text that is not a valid action notation for the game."""


class IllegalActionError(CampfireError):
    """An action that the rules do not allow in the current state.

    ``rule`` names the rule broken (for example ``"pile rules §4.2"``, a section of
    the rules document of the game ``pile``); the state is left unchanged.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.reason = message

    @property
    def text(self) -> ErrorText:
        """The message as an :class:`ErrorText`: the rule cited, then the reason."""
        return ErrorText(
            "{rule}: {reason}", rule=_rule_text(self.rule), reason=_as_text(self.reason)
        )


class SeatError(CampfireError):
    """A seat that is not a seat of the game: not a whole number, or out of range.

    Seats are ``int`` (never ``bool``) from ``0`` to ``num_players - 1``; ``None`` (a spectator)
    is accepted only where a spectator makes sense (``view``, ``render``).
    :meth:`~campfire.core.state.State.apply` reports a bad seat as an
    :class:`IllegalActionError` instead, like every other refused action.
    """


class SetupError(CampfireError):
    """An explicit initial setup (a typed-in deal) that is malformed or inconsistent."""


class PositionError(CampfireError):
    """A position document (the JSON of a state) that is malformed or inconsistent."""


class RecordError(CampfireError):
    """A game record that is malformed, or whose actions do not replay.

    ``index`` is the index of the first bad action in the record's action list, or ``None``
    when the problem is not in the actions (a bad header, an unknown game, ...).
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        text = message if index is None else f"action {index}: {message}"
        super().__init__(text)
        self.index = index
        self.reason = message

    @property
    def text(self) -> ErrorText:
        """The message as an :class:`ErrorText` (the bad action's index first, if any)."""
        if self.index is None:
            return super().text
        return ErrorText("action {index}: {reason}", index=self.index, reason=_as_text(self.reason))
