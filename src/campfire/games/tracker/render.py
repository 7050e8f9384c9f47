"""Text rendering of the Tracker board for a seat or a spectator.

Face-down cards show their position number; empty positions show ``·``; the centre shows the
trackers played. After the game every card is shown face up (``S3`` a scout of tribe T3, ``f``
a false track).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CARDS_PER_TRIBE, POSITION_CELLS, SCOUTS_PER_TRIBE, tribe_name

if TYPE_CHECKING:
    from .state import TrackerState

__all__ = ["render"]


def _face(card: int) -> str:
    if card % CARDS_PER_TRIBE < SCOUTS_PER_TRIBE:
        return f"S{card // CARDS_PER_TRIBE}"
    return "f"


def render(state: TrackerState, seat: int | None) -> str:
    """Return the board and the players' public data as seen by ``seat``."""
    from .state import EMPTY, GAME_OVER, PHASES, STEPS

    over = state.phase == GAME_OVER
    cells: dict[tuple[int, int], str] = {}
    for pos, cell in enumerate(POSITION_CELLS):
        card = state.board[pos]
        if card == EMPTY:
            text = "·"
        elif over:
            text = _face(card)
        else:
            text = str(pos)
        if pos in state.peeked or pos == state.lifted:
            text = "*" + text
        cells[cell] = text
    centre = f"{state.centre}T"
    lines = []
    header = "     " + "".join(f"{c:>4}" for c in range(8))
    lines.append(header)
    for r in range(8):
        row = []
        for c in range(8):
            if (r, c) in cells:
                row.append(f"{cells[(r, c)]:>4}")
            elif (r, c) == (3, 3):
                row.append(f"{centre:>4}")
            else:
                row.append("    ")
        lines.append(f"  {r}: " + "".join(row))
    lines.append("")
    outcome = state.score() if over else None
    for s in range(state.num_players):
        marks = []
        if s == seat:
            marks.append("you")
        if s == state.seat and not over:
            marks.append("to act")
        if s == state.last_player:
            marks.append("last player")
        tag = f" ({', '.join(marks)})" if marks else ""
        line = (
            f"  seat {s} {tribe_name(state.tribes[s])}: {state.hands[s]} tracker(s) left, "
            f"{len(state.captured[s])} card(s) captured{tag}"
        )
        if outcome is not None:
            line += f", score {outcome.scores[s]:g}" + (" WINNER" if s in outcome.winners else "")
        lines.append(line)
    lines.append(
        f"  phase {PHASES[state.phase]}, step {STEPS[state.step]}; "
        f"{state.cards_left} card(s) on the board, {state.centre} tracker(s) in the centre"
    )
    if state.peeked:
        lines.append(f"  peeked this turn: {', '.join(map(str, state.peeked))}")
    return "\n".join(lines)
