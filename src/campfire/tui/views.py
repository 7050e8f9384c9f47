"""Text pictures of a seat's view, one per game, for the terminal UI.

Everything here is built from a view dict (``state.view(seat)``, or the spectator view) and from
what the UI itself was shown (a Tracker peek while it is on screen); never from the state, so a
screen cannot show anything its seat may not know.

>>> from campfire import get_game
>>> state = get_game("apache").new_game(2, seed=1)
>>> print(render_view(state.view(0), ["Ann", "Bob"]).splitlines()[0])
Apache — window 0, 114 card(s) face down, phase reveal
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from campfire.games.tracker.cards import POSITION_CELLS

__all__ = ["player_marks", "render_view"]


def _count(cards: Sequence[Any]) -> str:
    """Cards in order, runs of equal cards counted (``buffalo×3``)."""
    if not cards:
        return "—"
    counts: dict[str, int] = {}
    for c in cards:
        counts[str(c)] = counts.get(str(c), 0) + 1
    return ", ".join(k if n == 1 else f"{k}×{n}" for k, n in counts.items())


def player_marks(view: Mapping[str, Any], seat: int) -> str:
    """`` (you, to act)``-style marks of ``seat`` in ``view``."""
    marks = []
    if view.get("seat") == seat:
        marks.append("you")
    if seat in view.get("to_act", ()):
        marks.append("to act")
    return f" ({', '.join(marks)})" if marks else ""


def _short_card(card: str) -> str:
    """``S-T3-1`` → ``S:T3`` (a scout of tribe T3), ``F-T5-2`` → ``F:T5`` (a false track)."""
    parts = card.split("-")
    return f"{parts[0]}:{parts[1]}" if len(parts) >= 2 else card


def _tracker(
    view: Mapping[str, Any], names: Sequence[str], shown: Mapping[int, str], marked: Collection[int]
) -> list[str]:
    occupied = set(view["occupied"])
    peeked = set(view.get("peeked_this_turn", ()))
    lifted = view.get("lifted")
    cells: dict[tuple[int, int], str] = {}
    for pos, cell in enumerate(POSITION_CELLS):
        if pos in shown:
            text = _short_card(shown[pos])
        elif pos not in occupied:
            text = "·"
        else:
            text = str(pos)
            if pos in peeked or pos == lifted:
                text = "*" + text
            elif pos in marked:
                text = "+" + text
        cells[cell] = text
    lines = [
        f"Tracker — {str(view['step']).replace('_', ' ')}"
        + ("" if view["phase"] == "normal" else f" ({view['phase']})")
        + f"; {len(occupied)} cards left"
    ]
    for r in range(8):
        row = []
        for c in range(8):
            if (r, c) == (3, 3):
                row.append(f"{str(view['centre']) + 'T':>5}")
            else:
                row.append(f"{cells.get((r, c), ''):>5}")
        lines.append(" " + "".join(row))
    for s in range(view["players"]):
        lines.append(
            f" {names[s]} {view['tribes'][s]}: {view['trackers'][s]} tracker(s), "
            f"{view['captured_counts'][s]} captured{player_marks(view, s)}"
        )
    return lines


def _dudab(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    lines = [
        f"Dudab — round {view['round']}/{view['rounds']}, draw pile {view['draw_pile']}, "
        f"{str(view['prompt']).replace('_', ' ')}"
    ]
    for i, col in enumerate(view["columns"], 1):
        extra = " (jungle)" if col.get("jungle") else ""
        lines.append(f" c{i}{extra}: {' '.join(col['cards']) or '—'}")
    discard = view["discard"]
    lines.append(f" discard ({len(discard)}): {discard[-1] if discard else '—'}")
    if view.get("revealed"):
        lines.append(f" revealed: {view['revealed']}")
    for s in range(view["players"]):
        lines.append(
            f" {names[s]}: hand {view['hand_sizes'][s]}, pile {view['pile_sizes'][s]}, "
            f"total {view['totals'][s]}{player_marks(view, s)}"
        )
    if "hand" in view:
        lines.append(f" your hand: {' '.join(view['hand']) or '—'}")
        if view.get("kept"):
            lines.append(f" kept: {' '.join(view['kept'])}")
    return lines


def _manitou(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    lines = [f"Big Manitou — hunt {view['hunt']}/{view['hunts']}, phase {view['phase']}"]
    for i, g in enumerate(view["grounds"], 1):
        # manitou views: cards are [seat, card, face_up]; a face-down hero is in brackets
        cards = " ".join(
            f"{c[0] + 1}:{c[1]}" if c[2] else f"{c[0] + 1}:({c[1]})" for c in g["cards"]
        )
        lines.append(f" g{i}: {' '.join(g['tiles']) or '—'}" + (f" | {cards}" if cards else ""))
    holders = []
    if view.get("totem_holder") is not None:
        holders.append(f"totem: {names[view['totem_holder']]}")
    if view.get("horse_holder") is not None:
        holders.append(f"horse: {names[view['horse_holder']]}")
    if holders:
        lines.append(" " + ", ".join(holders))
    for s in range(view["players"]):
        lines.append(
            f" {s + 1} {names[s]}: hand {view['hand_sizes'][s]}, deck {view['deck_sizes'][s]}, "
            f"tiles {_count(view['tiles_owned'][s])}{player_marks(view, s)}"
        )
    you = view.get("you")
    if you:
        lines.append(f" your hand: {' '.join(you['hand']) or '—'}")
        if you.get("selection"):
            lines.append(f" selected: {' '.join(you['selection'])}")
        if you.get("deck"):
            lines.append(f" your deck: {' '.join(you['deck'])}")
    return lines


def _apache(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    lines = [
        f"Apache — window {view['window']}, {view['deck_left']} card(s) face down, "
        f"phase {view['phase']}",
        f" table: {_count(view['table'])}",
    ]
    for s in range(view["players"]):
        answer = view["answers"][s]
        said = "" if answer is None else (" answered ?" if answer == "hidden" else f" {answer}")
        lines.append(
            f" {names[s]} ({view['colours'][s]}): {len(view['piles'][s])} card(s), "
            f"score {view['scores'][s]}{said}{player_marks(view, s)}"
        )
    seat = view.get("seat")
    if isinstance(seat, int) and view["piles"][seat]:
        lines.append(f" your pile: {_count(view['piles'][seat])}")
    if view.get("choices"):
        lines.append(f" choices: {', '.join(view['choices'])}")
    protect = view.get("protect_me")
    if protect is not None and view["phase"] == "claim":
        ok = [t for t, legal in protect.items() if legal]
        lines.append(f" claims that would be legal: {', '.join(ok) or 'none'}")
    return lines


def _generic(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    return [f"{k}: {v}" for k, v in view.items()]


_RENDERERS: dict[str, Callable[[Mapping[str, Any], Sequence[str]], list[str]]] = {
    "dudab": _dudab,
    "manitou": _manitou,
    "apache": _apache,
}


def render_view(
    view: Mapping[str, Any],
    names: Sequence[str],
    *,
    shown: Mapping[int, str] | None = None,
    marked: Collection[int] = (),
) -> str:
    """The text picture of ``view``; ``names`` are the players' display names.

    For Tracker, ``shown`` maps positions to cards the seat is looking at right now (a peek on
    screen), and ``marked`` lists positions to mark with ``+`` (the learning mode).
    """
    game = str(view.get("game"))
    if game == "tracker":
        return "\n".join(_tracker(view, names, shown or {}, marked))
    return "\n".join(_RENDERERS.get(game, _generic)(view, names))
