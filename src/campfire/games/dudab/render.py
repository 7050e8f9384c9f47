"""Text rendering of the Dudab table for a seat or a spectator."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import DudabState

__all__ = ["render"]


def render(state: DudabState, seat: int | None) -> str:
    """Return the table as seen by ``seat``: columns, piles, hand sizes and the own hand."""
    v = state.view(seat)
    lines = [
        f"Dudab — round {v['round']}/{v['rounds']}, draw pile {v['draw_pile']}, "
        f"prompt: {v['prompt']}, to act: {', '.join(map(str, v['to_act'])) or '-'}"
    ]
    ob = v["obligation"]
    if ob is not None:
        extra = f" call={ob['call']}" if "call" in ob else ""
        lines.append(f"obligation: {ob['kind']} on c{ob['column']}{extra}")
    for i, col in enumerate(v["columns"]):
        cards = list(col["cards"])
        if col["jungle"]:
            cards.insert(col["above"], "[JUNGLE]")
        heap = f"(heap {col['heap']}) " if col["heap"] else ""
        lines.append(f"c{i + 1}: {heap}{' '.join(cards) or '-'}")
    discard = v["discard"]
    lines.append(f"discard ({len(discard)}): {' '.join(discard[-5:]) or '-'}")
    for p in range(v["players"]):
        mark = ">" if p in v["to_act"] else " "
        totals = v["totals"][p]
        line = (
            f"{mark} seat {p}: hand {v['hand_sizes'][p]}, pile {v['pile_sizes'][p]}, total {totals}"
        )
        if p == seat:
            line += f" | hand: {' '.join(v['hand'])}"
            if v["kept"]:
                line += f" | kept: {' '.join(v['kept'])}"
        lines.append(line)
    if v["revealed"] is not None:
        lines.append(
            f"revealed hand of seat {v['revealed']['seat']}: " + " ".join(v["revealed"]["cards"])
        )
    if "outcome" in v:
        lines.append(f"game over: winners {v['outcome']['winners']}, totals {v['totals']}")
    return "\n".join(lines)
