"""Text rendering of the Apache table, the victory piles and the claim window.

Cards are written as in the notation (``red-hunter``, ``buffalo``); runs of equal booty are
counted (``buffalo×3``). Hidden poll answers show as ``?``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import BOOTY_KINDS, COLOURS, card_name

if TYPE_CHECKING:
    from .state import ApacheState

__all__ = ["render", "summarise"]


def summarise(cards: list[int]) -> str:
    """Indian cards one by one in order, then the booty cards counted by kind."""
    indians = [card_name(k) for k in cards if k < 20]
    booty = [f"{card_name(k)}×{cards.count(k)}" for k in BOOTY_KINDS if k in cards]
    return ", ".join(indians + booty) or "—"


def render(state: ApacheState, seat: int | None) -> str:
    """Return the table, the piles and the window as seen by ``seat`` (``None``: a spectator)."""
    view = state.view(seat)
    lines = [
        f"Apache, window {view['window']}, {view['deck_left']} card(s) face down"
        + (" (last card revealed)" if view["last_card"] else "")
        + f", phase {view['phase']}",
        f"  table: {summarise(state.table)}",
    ]
    neutral = view["neutral_colours"]
    if neutral:
        lines.append(f"  neutral colours: {', '.join(neutral)}")
    outcome = state.score() if state.is_terminal() else None
    for s in range(state.num_players):
        marks = []
        if s == seat:
            marks.append("you")
        if s in view["to_act"]:
            marks.append("to act")
        if view["phase"] == "reveal" and s == view["revealer"]:
            marks.append("reveals next")
        answer = view["answers"][s]
        if answer is not None:
            marks.append("answered ?" if answer == "hidden" else f"answered {answer}")
        tag = f" ({', '.join(marks)})" if marks else ""
        pile = state.piles[s]
        line = f"  seat {s} {COLOURS[state.colours[s]]}: {len(pile)} card(s){tag}"
        if outcome is not None and s in outcome.winners:
            line += " WINNER"
        lines.append(line)
        if pile:
            lines.append(f"      pile: {summarise(pile)}")
    if view["queue"]:
        done = view["resolved"]
        items = []
        for i, c in enumerate(view["queue"]):
            ms = "" if c["ms"] is None else f" {c['ms']}ms"
            flag = "" if c["legal"] else " (illegal)"
            mark = "✓" if i < done else ("→" if i == done else " ")
            items.append(f"{mark}{c['seat']}:{c['type']}{ms}{flag}")
        lines.append("  queue: " + "  ".join(items))
    if view["choices"]:
        lines.append(f"  choices: {', '.join(view['choices'])}")
    if state.discard:
        lines.append(f"  out of the game: {len(state.discard)} card(s)")
    return "\n".join(lines)
