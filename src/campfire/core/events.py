"""Events: what happened, and who may see it.

Applying an action returns a list of :class:`Event`. An event is either public (``to`` is
``None``) or private to some seats. Views and events are the only channel from the engine to user
interfaces, logs and agents, so hidden information never leaves the engine any other way.

>>> e = Event("peek_card", {"seat": 0, "pos": 12, "card": "S-T3-1"}, to=frozenset({0}))
>>> e.visible_to(0), e.visible_to(1), e.visible_to(None)
(True, False, False)
>>> [ev.type for ev in visible_events([e, Event("peeked", {"seat": 0, "pos": 12})], 1)]
['peeked']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Event", "visible_events"]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in a game.

    ``type`` is a short snake_case name, ``data`` a JSON-ready dict, and ``to`` the set of seats
    that may see the event (``None``: everybody, spectators included).
    """

    type: str
    data: dict[str, Any]
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        """Return the event as a JSON-ready dict."""
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.to is not None:
            out["to"] = sorted(self.to)
        return out


def visible_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    """Keep only the events that ``seat`` (``None``: a spectator) may see."""
    return [e for e in events if e.to is None or (seat is not None and seat in e.to)]
