"""State fields declared once (``campfire.core.fields``): generated clone, positions, reading."""

from __future__ import annotations

import random
from typing import Any

import pytest

import campfire
from campfire.core import GameRng, PositionError, State
from campfire.core.fields import (
    RAW,
    SEAT,
    Computed,
    Copy,
    Custom,
    Int,
    ListOf,
    Names,
    Nullable,
    Read,
    ReadContext,
    Reset,
    StateField,
    copy_on_write,
    install_fields,
    position_fields,
    read_fields,
    unshare,
)
from tests.compiled_build import is_compiled, skip_compiled


class _Box:
    def __init__(self, items: list[int]) -> None:
        self.items = items

    def clone(self) -> _Box:
        return _Box(self.items[:])


class _Toy:
    # the attributes FIELDS declares, for the type checker only (install_fields reads FIELDS)
    value: int
    flat: list[int]
    nested: list[list[int]]
    box: _Box
    table: dict[str, int]
    pair: tuple[int, int]
    phase: int
    seat: int | None
    _cache: str | None

    FIELDS = (
        StateField("value", key="v", codec=Int(0, 9, offset=1)),
        StateField("flat", Copy.LIST, codec=ListOf(Int(0, 9), length=2)),
        StateField("nested", Copy.LISTS, codec=ListOf(ListOf(RAW))),
        StateField("box", Copy.CLONE, key=None),
        StateField("table", Copy.COPY, key=None),
        StateField("pair", lambda p: (p[0], p[1]), key=None),
        StateField("phase", codec=Names(("a", "b"))),
        StateField("seat", codec=Nullable(SEAT), default=None),
        StateField("_cache", Reset(None), key=None),
        Computed("total", lambda s: s.value + sum(s.flat)),
    )


install_fields(_Toy, _Toy.FIELDS)
_CTX = ReadContext(3, None)


def _toy() -> Any:
    toy: Any = _Toy()
    toy.value, toy.flat, toy.nested = 2, [1, 2], [[1], [2, 3]]
    toy.box, toy.table, toy.pair = _Box([4]), {"k": 1}, (5, 6)
    toy.phase, toy.seat, toy._cache = 1, -1, "cached"
    return toy


def test_the_generated_clone_copies_each_field_as_its_kind_says() -> None:
    toy = _toy()
    other = toy.clone()
    assert other.__class__ is _Toy
    assert (other.value, other.flat, other.nested, other.box.items) == (
        2,
        [1, 2],
        [[1], [2, 3]],
        [4],
    )
    assert other.flat is not toy.flat
    assert other.nested is not toy.nested
    assert all(a is not b for a, b in zip(other.nested, toy.nested, strict=True))
    assert other.box is not toy.box and other.table == toy.table and other.table is not toy.table
    assert other.pair == (5, 6)
    assert other._cache is None  # a reset cache is not copied
    other.flat.append(3)
    other.nested[0].append(9)
    other.box.items.append(9)
    assert toy.flat == [1, 2] and toy.nested == [[1], [2, 3]] and toy.box.items == [4]


def test_a_copy_on_write_flag_is_set_on_both_copies() -> None:
    class Shared:
        FIELDS = (StateField("x"), StateField("shared", Reset(True, both=True)))

    install_fields(Shared, Shared.FIELDS)
    one: Any = Shared()
    one.x, one.shared = 1, False
    two = one.clone()
    assert one.shared and two.shared and two.x == 1


class _Dice:
    FIELDS = (StateField("rolls", Copy.LIST), *copy_on_write("rng", key=None))

    def __init__(self, seed: int) -> None:
        self.rolls: list[int] = []
        self.rng = GameRng(seed)
        self._rng_shared = False

    def roll(self) -> int:
        roll: int = unshare(self, "rng").randrange(6)
        self.rolls.append(roll)
        return roll


install_fields(_Dice, _Dice.FIELDS)


def test_a_copy_on_write_attribute_is_shared_by_clones_until_one_changes_it() -> None:
    dice: Any = _Dice(3)
    clone = dice.clone()
    assert clone.rng is dice.rng and clone._rng_shared and dice._rng_shared
    clone.roll()
    assert clone.rng is not dice.rng and not clone._rng_shared
    own = clone.rng
    clone.roll()
    assert clone.rng is own  # copied once, not at every change


def test_a_clone_and_its_original_draw_independently_from_a_shared_generator() -> None:
    """Drawing in one never changes the other's future draws, whichever draws first."""
    alone = _Dice(5)
    expected = [alone.roll() for _ in range(20)]
    for first in ("clone", "original"):
        dice: Any = _Dice(5)
        clone = dice.clone()
        one, other = (clone, dice) if first == "clone" else (dice, clone)
        for _ in range(7):
            one.roll()
        assert [other.roll() for _ in range(20)] == expected
        for _ in range(13):
            one.roll()
        assert one.rolls == expected


def test_a_class_with_its_own_clone_keeps_it() -> None:
    def own(self: Any) -> str:
        return "own"

    class Own:
        FIELDS = (StateField("x"),)
        clone = own

    install_fields(Own, Own.FIELDS)
    assert Own().clone() == "own"


@pytest.mark.parametrize(
    "fields",
    [
        (StateField("x"), StateField("x", key="y")),
        (StateField("x"), StateField("y", key="x")),
        (StateField("x"), Computed("x", lambda s: 0)),
    ],
)
def test_a_field_declared_twice_is_refused(fields: tuple[Any, ...]) -> None:
    class Twice:
        pass

    with pytest.raises(TypeError, match="twice"):
        install_fields(Twice, fields)


def test_the_position_encodes_the_keyed_fields_in_declared_order() -> None:
    assert position_fields(_toy()) == {
        "v": 3,
        "flat": [1, 2],
        "nested": [[1], [2, 3]],
        "phase": "b",
        "seat": None,
        "total": 5,
    }
    assert list(position_fields(_toy())) == ["v", "flat", "nested", "phase", "seat", "total"]


def test_reading_decodes_every_field_and_reads_back_what_was_written() -> None:
    written = position_fields(_toy())
    read = read_fields(_Toy, written, _CTX)
    assert read == {
        "v": 2,
        "flat": [1, 2],
        "nested": [[1], [2, 3]],
        "phase": 1,
        "seat": -1,
        "total": 5,
    }
    del written["seat"]  # optional: its default is read
    assert read_fields(_Toy, written, _CTX)["seat"] == -1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"v": True}, r"v must be a whole number 0–9 \(got True\)"),
        ({"v": 11}, r"v must be 0–9 \(got 11\)"),
        ({"flat": "ab"}, r"flat must be a JSON list \(got 'ab'\)"),
        ({"flat": [1]}, r"flat must have 2 entries \(got 1\)"),
        ({"flat": [1, "x"]}, r"flat\[1\] must be a whole number 0–9"),
        ({"nested": [[1], 2]}, r"nested\[1\] must be a JSON list"),
        ({"phase": "c"}, r"phase must be one of a, b \(got 'c'\)"),
        ({"seat": 3}, r"seat must be 0–2 \(got 3\)"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_reading_names_the_field_that_is_wrong(change: dict[str, Any], message: str) -> None:
    data = position_fields(_toy()) | change
    with pytest.raises(PositionError, match=message):
        read_fields(_Toy, data, _CTX)


def test_reading_refuses_a_missing_field_and_a_state_that_is_no_object() -> None:
    data = position_fields(_toy())
    del data["flat"]
    with pytest.raises(PositionError, match="the field 'flat' is missing"):
        read_fields(_Toy, data, _CTX)
    with pytest.raises(PositionError, match="must be a JSON object"):
        read_fields(_Toy, [1, 2], _CTX)


def test_bounds_may_depend_on_the_player_count() -> None:
    codec = ListOf(SEAT, length=lambda c: c.players)
    assert codec.decode([2, 0, 1], "order", ReadContext(3, None)) == [2, 0, 1]
    with pytest.raises(PositionError, match="order must have 2 entries"):
        codec.decode([2, 0, 1], "order", ReadContext(2, None))


def test_a_custom_codec_reads_through_its_function() -> None:
    def read(raw: Any, what: str, ctx: ReadContext) -> int:
        if raw not in ("one", "two"):
            raise PositionError(f"{what}: unknown number {raw!r}")
        return 1 if raw == "one" else 2

    codec = Custom(lambda v: "one" if v == 1 else "two", read)
    assert codec.decode(codec.encode(2), "n", _CTX) == 2
    with pytest.raises(PositionError, match="n: unknown number 'three'"):
        codec.decode("three", "n", _CTX)


def test_a_read_codec_writes_json_as_it_is_and_reads_it_through_its_function() -> None:
    def read(raw: Any, what: str, ctx: ReadContext) -> tuple[int, int]:
        if not isinstance(raw, list) or len(raw) != 2:
            raise PositionError(f"{what} must be [a, b]")
        return (raw[0], raw[1])

    codec = Read(read)
    assert codec.encode([1, 2]) == [1, 2]
    assert codec.decode([1, 2], "pair", _CTX) == (1, 2)
    with pytest.raises(PositionError, match=r"pair must be \[a, b\]"):
        codec.decode([1], "pair", _CTX)


@skip_compiled("campfire.core.state")  # State.clone of an object that is no State
def test_a_state_class_without_fields_gets_no_generated_clone() -> None:
    class Bare(State):
        pass

    assert Bare.clone is State.clone
    with pytest.raises(NotImplementedError, match="declares no FIELDS and no clone"):
        State.clone(_toy())


# ----- every game declares its state once -------------------------------------------------------


_GAMES = [g.name for g in campfire.all_games()]


def _mid_game(name: str, players: int, seed: int) -> State:
    game = campfire.get_game(name)
    state: State = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        if state.is_terminal():
            break
        seat = rng.choice(state.seats_to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    state.legal_actions()  # fill the caches, which are attributes too
    return state


@pytest.mark.parametrize("name", _GAMES)
def test_every_attribute_of_a_game_state_is_declared_in_its_fields(name: str) -> None:
    """A new attribute not declared would be silently missing from every clone."""
    state = _mid_game(name, 3, 5)
    declared = {f.name for f in type(state).FIELDS if isinstance(f, StateField)}
    # no attribute but the declared ones, and every declared one set (compiled, a native class
    # keeps its attributes in slots, not in a __dict__; a plugin's state has both)
    assert set(getattr(state, "__dict__", {})) <= declared
    assert all(hasattr(state, name) for name in declared)
    # generated from FIELDS, or written out from them (campfire.core.clones, checked in step)
    clone = type(state).clone
    # (a compiled method keeps no docstring: the written clone is checked by test_clones.py)
    assert "``FIELDS``" in (clone.__doc__ or "") or is_compiled(type(state).__module__)
    copy = state.clone()
    assert set(getattr(copy, "__dict__", {})) <= declared
    assert all(hasattr(copy, name) for name in declared)


@pytest.mark.parametrize("name", _GAMES)
def test_every_game_position_is_the_encoding_of_its_fields(name: str) -> None:
    state = _mid_game(name, 4, 2)
    position = state.to_position()
    assert position["state"] == position_fields(state)
    keys = [f.key for f in type(state).FIELDS if f.key is not None]
    assert list(position["state"]) == keys
