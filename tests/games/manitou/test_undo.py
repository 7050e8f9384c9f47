"""Taking back a secret pick of Big Manitou's card selection (the step in progress)."""

from __future__ import annotations

from campfire.core.table import Table
from campfire.games.manitou import GAME


def test_a_secret_pick_can_be_taken_back_but_not_a_dealt_hand() -> None:
    table = Table(GAME, 2, seed=4, names=["Ann", "Bob"])
    assert set(table.state.seats_to_act()) == {0, 1}
    first = table.state.legal_actions(0)[0]
    before = table.state.to_position()
    table.play(0, first)
    assert table.can_undo(0) and not table.can_undo(1)
    assert table.undo(0) == first
    assert table.state.to_position() == before
    # a private event that revealed something new is refused by the default rule
    events = table.play(0, first)
    assert GAME.undoable(0, first, events)
    dealt = [e for e in events if e.to is not None]
    assert dealt and all(e.type == "pick_card" for e in dealt)
    assert not GAME.undoable(0, first, [*events, type(dealt[0])("draw_card", {}, frozenset({0}))])
