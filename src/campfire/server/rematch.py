"""Rematch proposals: the next game at a finished table starts when every person agreed.

One person proposes (``POST /api/tables/{id}/rematch``); the other people at the table (never
the bots) each accept (the same request) or decline (``{"answer": "decline"}``). The next game
starts when the last of them accepts. A decline cancels the proposal, as does a person whose
last connection closes and who is not back within :data:`LEFT_GRACE_SECONDS` (a page reloaded
stays), and the proposal expires :data:`PROPOSAL_SECONDS` after it was made. A table where the
proposer is the only person starts at once.

Every connection of the table hears of each change in a ``rematch`` frame
(``docs/protocol.md``, "Rematch"), and a snapshot carries the open proposal (``rematch``), so a
page opened or reloaded meanwhile shows it too. Everything is decided here, by the server's
clock; the clients only show it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio

__all__ = [
    "ANSWERS",
    "CANCEL_REASONS",
    "LEFT_GRACE_SECONDS",
    "PROPOSAL_SECONDS",
    "RematchProposal",
    "rematch_frame",
]

#: How long a proposal waits for the others' answers (seconds) before it expires.
PROPOSAL_SECONDS = 120.0
#: How long a person whose last connection closed may take to come back before their absence
#: cancels the proposal (a page reloaded reconnects well within it).
LEFT_GRACE_SECONDS = 5.0
#: What a person may answer a proposal (the request's ``answer``; none: ``accept``).
ANSWERS = ("accept", "decline")
#: Why a proposal ended without a game: a person declined, left, or it expired.
CANCEL_REASONS = ("declined", "left", "expired")


@dataclass
class RematchProposal:
    """An open proposal: who proposed, who must agree, who has, and when it expires.

    ``expires`` is on the server's clock (:attr:`~.live.LiveTable.now`, monotonic seconds).
    """

    proposer: int
    #: the people's seats at the table (the proposer's included): each must accept
    people: frozenset[int]
    expires: float
    accepted: set[int] = field(default_factory=set)
    #: the task that ends the proposal when it expires
    task: asyncio.Task[None] | None = None

    def waiting(self) -> list[int]:
        """The people who have not accepted yet, in seat order."""
        return sorted(self.people - self.accepted)

    def to_json(self, now: float) -> dict[str, Any]:
        """The proposal as frames show it (``expires_ms``: how long it has left, from ``now``)."""
        return {
            "proposer": self.proposer,
            "people": sorted(self.people),
            "accepted": sorted(self.accepted),
            "expires_ms": max(0, round((self.expires - now) * 1000)),
        }


def rematch_frame(
    table: int,
    game_number: int,
    state: str,
    proposal: RematchProposal,
    now: float,
    reason: str | None = None,
    by: int | None = None,
) -> dict[str, Any]:
    """A ``rematch`` frame: a proposal made or answered (``proposed``) or ``cancelled``.

    ``reason`` (one of :data:`CANCEL_REASONS`) and ``by`` (the seat that declined or left; null
    when it expired) say why a proposal was cancelled.
    """
    return {
        "type": "rematch",
        "table": table,
        "game_number": game_number,
        "state": state,
        **proposal.to_json(now),
        "reason": reason,
        "by": by,
    }
