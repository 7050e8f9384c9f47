"""Exception classes of Campfire.

Every error a user can cause is a subclass of :class:`CampfireError`, which itself subclasses
:class:`ValueError`. Messages say what was wrong and what is allowed, so a front end can show them
as they are.

>>> try:
...     raise IllegalActionError("tracker rules §4.2", "position 12 is empty")
... except ValueError as exc:
...     print(exc)
tracker rules §4.2: position 12 is empty
"""

from __future__ import annotations

__all__ = [
    "CampfireError",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "PositionError",
    "RecordError",
    "SeatError",
    "SetupError",
    "UnknownGameError",
]


class CampfireError(ValueError):
    """Base class of every error caused by bad input to Campfire."""


class UnknownGameError(CampfireError):
    """A game name that is not in the registry."""


class OptionError(CampfireError):
    """An unknown option, or an option value that is not allowed."""


class NotationError(CampfireError):
    """A text that is not a valid action notation for the game."""


class IllegalActionError(CampfireError):
    """An action that the rules do not allow in the current state.

    ``rule`` names the rule broken (for example ``"tracker rules §4.2"``, a section of
    ``docs/rules/tracker.md``); the state is left unchanged.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.reason = message


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
