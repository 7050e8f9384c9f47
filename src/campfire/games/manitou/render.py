"""Text rendering of the Big Manitou hunting grounds for a seat or a spectator.

Each ground shows its tiles and, per seat, the cards played there; a face-down hero is shown in
brackets. A seat also sees its own hand, deck contents and selection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CARD_NAMES, TILE_NAMES

if TYPE_CHECKING:
    from .state import ManitouState

__all__ = ["render"]


def render(state: ManitouState, seat: int | None) -> str:
    """Return the hunting grounds and the players' public data as seen by ``seat``."""
    from .state import DOWN, GAME_OVER, NUM_GROUNDS, PHASES, THIEF

    n = state.num_players
    over = state.phase == GAME_OVER
    lines = [
        f"Big Manitou — hunt {min(state.hunt + 1, state.hunts)} of {state.hunts}, "
        f"dealer seat {state.dealer}, phase {PHASES[state.phase]}"
    ]
    for g in range(NUM_GROUNDS):
        tiles = " ".join(TILE_NAMES[t] for t in state.grounds[g]) or "-"
        lines.append(f"  g{g + 1}: tiles {tiles}")
        for p in range(n):
            cards = [
                f"[{CARD_NAMES[c & 15]}]" if c & DOWN else CARD_NAMES[c & 15]
                for c in state.table[g]
                if (c & 255) >> 4 == p
            ]
            if cards:
                lines.append(f"       seat {p}: {' '.join(cards)}")
    lines.append("")
    to_act = state.seats_to_act()
    outcome = state.score() if over else None
    for p in range(n):
        marks = []
        if p == seat:
            marks.append("you")
        if p in to_act:
            marks.append("to act")
        if p == state.dealer:
            marks.append("dealer")
        if p == state.totem_holder:
            marks.append("totem piece")
        if p == state.horse_holder:
            marks.append("horse piece")
        tag = f" ({', '.join(marks)})" if marks else ""
        owned = state.owned[p]
        tiles = " ".join(TILE_NAMES[t] for t in range(len(owned)) for _ in range(owned[t]))
        line = (
            f"  seat {p}{tag}: hand {len(state.hands[p])}, deck {len(state.decks[p])}, "
            f"tiles: {tiles or '-'}"
        )
        if outcome is not None:
            line += f", score {outcome.scores[p]:g}" + (" WINNER" if p in outcome.winners else "")
        lines.append(line)
    if seat is not None and 0 <= seat < n and not over:
        hand = " ".join(CARD_NAMES[c] for c in state.hands[seat]) or "-"
        deck = " ".join(CARD_NAMES[c] for c in sorted(state.decks[seat])) or "-"
        sel = state.selected[seat]
        chosen = " ".join(CARD_NAMES[c] for c in range(len(sel)) for _ in range(sel[c])) or "-"
        lines.append(f"  your hand: {hand}; your deck holds: {deck}; selection: {chosen}")
    if state.phase == THIEF:
        lines.append(f"  the thief robs seat {state.seat}")
    elif state.phase > THIEF and not over:
        lines.append(
            f"  sharing g{state.ev_ground + 1}: seat {state.seat} takes {state.picks_left} tile(s)"
        )
    lines.append(
        f"  bag {len(state.bag)} tile(s), out of the game: {len(state.out_of_game)} tile(s)"
    )
    return "\n".join(lines)
