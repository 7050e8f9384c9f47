"""Build Dudab positions for rule tests: name the cards, the rest goes to the draw pile."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from campfire.games.dudab import GAME, DudabState
from campfire.games.dudab.cards import FACE, FACE_NAMES, card_name, cards_in_use

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
    base = GAME.new_game(players, options, seed=0)
    alloc = _Alloc(cards_in_use(base.options.use_jungle, base.options.use_baby))
    ncols = base.ncols
    hands = hands if hands is not None else []
    hand_cards = [[alloc.take(n) for n in h] for h in hands]
    hand_cards += [[] for _ in range(players - len(hands))]
    piles = piles or []
    pile_cards = [[alloc.take(n) for n in p] for p in piles]
    pile_cards += [[] for _ in range(players - len(piles))]
    columns = columns or []
    cols: list[dict[str, Any]] = []
    for c in range(ncols):
        spec: ColumnSpec = columns[c] if c < len(columns) else ["dudab"]
        col: dict[str, Any] = {"heap": [], "cards": [], "jungle": None, "above": None}
        if isinstance(spec, Mapping):
            col["heap"] = _names([alloc.take(n) for n in spec.get("heap", ())])
            above = [alloc.take(n) for n in spec.get("above", ())]
            below = [alloc.take(n) for n in spec.get("below", ())]
            col["cards"] = _names(above + below)
            if spec.get("jungle", False):
                col["jungle"] = card_name(alloc.take("jungle"))
                col["above"] = len(above)
        else:
            col["cards"] = _names([alloc.take(n) for n in spec])
        cols.append(col)
    disc = [alloc.take(n) for n in discard]
    top = [alloc.take(n) for n in draw]
    rest = sorted(alloc.free, key=lambda c: (c >= 80, c))
    pile = top + rest
    if draw_size is not None:
        disc += pile[draw_size:]
        pile = pile[:draw_size]
    ob: dict[str, Any] | None = None
    if obligation is not None:
        ob = {"kind": "shaman_reaction" if obligation[0] == "shaman" else "call"}
        ob["column"] = obligation[1]
        if obligation[0] != "shaman":
            ob["call"] = obligation[2]
    position = base.to_position()
    position["state"].update(
        actor=actor,
        obligation=ob,
        tasks=[],
        revealed=None,
        draw=_names(pile),
        discard=_names(disc),
        columns=cols,
        # nobody played the named column cards (as a column's first card)
        owners=[{"cards": [None] * len(col["cards"]), "jungle": None} for col in cols],
        hands=[_names(h) for h in hand_cards],
        piles=[_names(p) for p in pile_cards],
        kept=[],
    )
    # built through the public position format, which checks it (every card exactly once)
    state = GAME.state_from_position(json.loads(json.dumps(position)))
    assert state.to_position() == position
    return state


def _names(cards: Sequence[int]) -> list[str]:
    return [card_name(c) for c in cards]


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


def owned_columns() -> DudabState:
    """Seats 0 and 1 play on column 1 of a three-player game, seat 2 lays a Jungle on column 2."""
    state = make(
        3,
        hands=[
            ["dudab", "red/fur/1", "green/fur/3"],
            ["blue/club/3", "green/hand/2", "red/club/4"],
            ["yellow/fur/2", "dudab"],
        ],
        columns=[["red/fur/2"], ["blue/hand/1"]],
        draw=["jungle"],
        options={"use_jungle": True},
    )
    for seat, action in [(0, "p dudab c1"), (1, "p blue/club/3 c1"), (2, "draw"), (2, "jungle c2")]:
        state.apply(seat, action)
    return state


def s7_final() -> DudabState:
    """S7's end: a finished 3-player game read back with the round scores 12, 9, -1 (A),
    5, 10, 5 (B) and 15, 3, 4 (C) for totals 20, 20, 22 (the last round's scores stay those of
    its hands and piles, so only the first two rounds are rewritten)."""
    state = GAME.new_game(3, seed=0)
    rng = random.Random(0)
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    position = state.to_position()
    last = [row[-1] for row in position["state"]["scores"]]
    position["state"]["scores"] = [
        [12, 8 - last[0], last[0]],
        [5, 15 - last[1], last[1]],
        [15, 7 - last[2], last[2]],
    ]
    final: DudabState = GAME.state_from_position(position)
    return final
