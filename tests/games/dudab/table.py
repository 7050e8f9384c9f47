"""Build Dudab positions for rule tests: name the cards, the rest goes to the draw pile."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from campfire.games.dudab import GAME, DudabState
from campfire.games.dudab.cards import FACE, FACE_NAMES, cards_in_use, parse_call
from campfire.games.dudab.state import OB_CALL, OB_SHAMAN

A, B, C, D, E, F = range(6)

ColumnSpec = Sequence[str] | Mapping[str, Any]


class _Alloc:
    def __init__(self, cards: list[int]) -> None:
        self.free = sorted(cards)

    def take(self, face_name: str) -> int:
        face = FACE_NAMES.index(face_name)
        for card in self.free:
            if FACE[card] == face:
                self.free.remove(card)
                return card
        raise AssertionError(f"no {face_name} left")


def make(
    players: int = 4,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    columns: Sequence[ColumnSpec] | None = None,
    draw: Sequence[str] = (),
    draw_size: int | None = None,
    piles: Sequence[Sequence[str]] | None = None,
    discard: Sequence[str] = (),
    actor: int = 0,
    obligation: tuple[Any, ...] | None = None,
    options: Mapping[str, Any] | None = None,
) -> DudabState:
    """A round-1 position with the given cards; unnamed cards fill the draw pile (Jungle and
    Baby at its bottom), and past ``draw_size`` they go to the discard pile."""
    state = GAME.new_game(players, options, seed=0)
    alloc = _Alloc(cards_in_use(state.options.use_jungle, state.options.use_baby))
    ncols = state.ncols
    hands = hands if hands is not None else []
    state.hands = [[alloc.take(n) for n in h] for h in hands] + [
        [] for _ in range(players - len(hands))
    ]
    piles = piles or []
    state.piles = [[alloc.take(n) for n in p] for p in piles] + [
        [] for _ in range(players - len(piles))
    ]
    columns = columns or []
    state.vis = [[] for _ in range(ncols)]
    state.heap = [[] for _ in range(ncols)]
    state.jungle = [-1] * ncols
    state.above = [-1] * ncols
    for c in range(ncols):
        spec: ColumnSpec = columns[c] if c < len(columns) else ["dudab"]
        if isinstance(spec, Mapping):
            state.heap[c] = [alloc.take(n) for n in spec.get("heap", ())]
            above = [alloc.take(n) for n in spec.get("above", ())]
            below = [alloc.take(n) for n in spec.get("below", ())]
            state.vis[c] = above + below
            if spec.get("jungle", False):
                state.jungle[c] = alloc.take("jungle")
                state.above[c] = len(above)
        else:
            state.vis[c] = [alloc.take(n) for n in spec]
    disc = [alloc.take(n) for n in discard]
    top = [alloc.take(n) for n in draw]
    rest = sorted(alloc.free, key=lambda c: (c >= 80, c))
    pile = top + rest
    if draw_size is not None:
        disc += pile[draw_size:]
        pile = pile[:draw_size]
    state.draw = pile[::-1]
    state.discard = disc
    state.actor = actor
    state.tasks = []
    state.kept = []
    state.ob, state.ob_col, state.ob_call = 0, -1, 0
    if obligation is not None:
        if obligation[0] == "shaman":
            state.ob, state.ob_col = OB_SHAMAN, obligation[1] - 1
        else:
            state.ob, state.ob_col, state.ob_call = (
                OB_CALL,
                obligation[1] - 1,
                parse_call(obligation[2]),
            )
    state._legal = None
    # the position is complete and valid (every card exactly once)
    again = GAME.state_from_position(json.loads(json.dumps(state.to_position())))
    assert again.to_position() == state.to_position()
    return state


def hand(state: DudabState, seat: int) -> list[str]:
    """The seat's hand as sorted face names."""
    return sorted(FACE_NAMES[FACE[c]] for c in state.hands[seat])


def pile(state: DudabState, seat: int) -> list[str]:
    """The seat's own pile as sorted face names."""
    return sorted(FACE_NAMES[FACE[c]] for c in state.piles[seat])


def column(state: DudabState, col: int) -> list[str]:
    """The visible cards of column ``col`` (1-based), first → last."""
    return [FACE_NAMES[FACE[c]] for c in state.vis[col - 1]]


def legal(state: DudabState) -> list[str]:
    """The legal actions of the seat to act, as notation."""
    return [str(a) for a in state.legal_actions()]


def can_place(
    card: str,
    col: ColumnSpec,
    *,
    obligation: tuple[Any, ...] | None = None,
    filler: Sequence[str] = ("dudab",),
) -> bool:
    """Whether ``card`` may be placed on a column ``col`` (column 1) by the seat to act."""
    state = make(4, hands=[[card, *filler]], columns=[col], obligation=obligation, actor=A)
    text = f"p {card} c1"
    return state.is_legal(A, text)
