"""Events: what happened, and who may see it.

Applying an action returns a list of :class:`Event`. An event is either public (``to`` is
``None``) or private to some seats. Views and events are the only channel from the engine to user
interfaces, logs and agents, so hidden information never leaves the engine any other way.

>>> e = Event("peek_card", {"seat": 0, "pos": 12, "card": "S-T3-1"}, to=frozenset({0}))
>>> e.visible_to(0), e.visible_to(1), e.visible_to(None)
(True, False, False)
>>> [ev.type for ev in visible_events([e, Event("peeked", {"seat": 0, "pos": 12})], 1)]
['peeked']

As JSON the data stays nested under ``data``, so a data key named ``type`` (a claim may
carry a card type) can never overwrite the event's type:

>>> claim = Event("claim", {"seat": 1, "type": "hunter"})
>>> claim.to_json()
{'type': 'claim', 'data': {'seat': 1, 'type': 'hunter'}}
>>> Event.from_json(claim.to_json()) == claim, Event.from_json(e.to_json()) == e
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from .errors import CampfireError, ErrorText
from .validate import short_repr

__all__ = ["Event", "visible_events"]


class Event:
    """One thing that happened in a game.

    ``type`` is a short snake_case name, ``data`` a JSON-ready dict, and ``to`` the set of seats
    that may see the event (``None``: everybody, spectators included).

    An event is a value: equal when its three fields are, and never changed once made (the
    fields are ``Final``, which ``mypy`` holds every caller to). It is a plain class with its
    own constructor rather than a frozen dataclass, because every step of a game makes one or
    more: a frozen dataclass sets each field through ``object.__setattr__``, which neither
    build can make fast, where this constructor compiles to three stores
    (``docs/compiled.md``).
    """

    __slots__ = ("data", "to", "type")

    def __init__(self, type: str, data: dict[str, Any], to: frozenset[int] | None = None) -> None:
        self.type: Final[str] = type
        self.data: Final[dict[str, Any]] = data
        self.to: Final[frozenset[int] | None] = to

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return self.type == other.type and self.data == other.data and self.to == other.to

    #: an event holds a dict: it is not hashable (nor was the frozen dataclass it was)
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Event(type={self.type!r}, data={self.data!r}, to={self.to!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as a call of the constructor (a compiled event has no empty form to fill)."""
        return self.__class__, (self.type, self.data, self.to)

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready dict: ``type``, ``data`` and, if private, ``to``.

        The data stays nested, so none of its keys can overwrite ``type`` or ``to``;
        :meth:`from_json` reads the dict back to an equal event.
        """
        out: dict[str, Any] = {"type": self.type, "data": dict(self.data)}
        if self.to is not None:
            out["to"] = sorted(self.to)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Event:
        """Read back a dict written by :meth:`to_json`.

        Raises :class:`~campfire.core.errors.CampfireError` when ``data`` is not such a dict.
        """
        if not isinstance(data, dict) or set(data) - {"type", "data", "to"}:
            raise CampfireError(
                ErrorText(
                    "an event is a JSON object with 'type', 'data' and optionally 'to' "
                    "(got {data})",
                    data=short_repr(data),
                )
            )
        type_, payload, to = data.get("type"), data.get("data"), data.get("to")
        if not isinstance(type_, str) or not type_:
            raise CampfireError(
                ErrorText(
                    "an event's 'type' is a non-empty string (got {type_})", type_=short_repr(type_)
                )
            )
        if not isinstance(payload, dict):
            raise CampfireError(
                ErrorText(
                    "an event's 'data' is a JSON object (got {payload})",
                    payload=short_repr(payload),
                )
            )
        if to is None:
            return cls(type_, payload)
        if not isinstance(to, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in to
        ):
            raise CampfireError(
                ErrorText("an event's 'to' is a list of seats (got {to})", to=short_repr(to))
            )
        return cls(type_, payload, frozenset(to))


def visible_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    """Keep only the events that ``seat`` (``None``: a spectator) may see."""
    # a list is walked natively where compiled (any other iterable through Python's iterator)
    told: list[Event] = events if isinstance(events, list) else list(events)
    return [e for e in told if e.to is None or (seat is not None and seat in e.to)]
