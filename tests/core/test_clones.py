"""The written clones (campfire.core.clones): in step with FIELDS, and copying as declared."""

from __future__ import annotations

import pytest

import campfire.core.clones as clones
from campfire import all_games
from campfire.core.fields import Copy, Reset, StateField, make_clone


def test_every_written_clone_agrees_with_its_fields() -> None:
    classes = clones.state_classes()
    # every registered game's state writes its clone out (the compiled build needs it)
    assert len(classes) >= len([g for g in all_games() if g.__module__.startswith("campfire.")])
    assert clones.stale() == [], "run: python -m campfire.core.clones"
    assert clones.main(["--check"]) == 0


def test_a_field_left_out_of_the_written_clone_is_found() -> None:
    cls = clones.state_classes()[0]
    # a stand-in of the class in the same file, with the same markers, but one more field
    fields = (*cls.FIELDS, StateField("extra", Copy.LIST))  # type: ignore[attr-defined]
    changed = type(cls.__name__, (), {"FIELDS": fields, "__module__": cls.__module__})
    assert clones.stale([changed]) == [f"{cls.__module__}.{cls.__name__}"]
    assert clones.stale([cls]) == []
    assert "        o.extra = s.extra[:]" in clones.clone_source(changed)


def test_reset_values_must_be_literals() -> None:
    class Odd:
        FIELDS = (StateField("x", Reset(object())),)

    with pytest.raises(TypeError, match="literal"):
        clones.clone_source(Odd)

    class Copier:
        FIELDS = (StateField("x", lambda v: v),)

    with pytest.raises(TypeError, match="copy function"):
        clones.clone_source(Copier)


def test_written_clone_copies_like_the_generated_one() -> None:
    for game in all_games():
        state = game.new_game(game.min_players, seed=3)
        for _ in range(40):
            if state.is_terminal():
                break
            seat = state.seats_to_act()[0]
            state.apply(seat, state.legal_actions(seat)[0])
        copy = state.clone()
        generated = make_clone(type(state), state.FIELDS)(state)
        assert type(copy) is type(state) is type(generated)
        assert copy.to_position() == state.to_position() == generated.to_position()
        # independent: the original goes on, the copy stays where it was
        before = copy.to_position()
        seat = state.seats_to_act()[0] if not state.is_terminal() else None
        if seat is not None:
            state.apply(seat, state.legal_actions(seat)[-1])
            assert copy.to_position() == before
