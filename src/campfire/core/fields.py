"""State fields declared once: the copy, the position JSON and the generic reading of a state.

A game's state class lists its attributes once, in ``FIELDS``, and the core derives from that
declaration what every game used to write by hand three times:

- :meth:`State.clone` — generated once per class as straight-line Python (compiled with
  :func:`exec`, as :mod:`dataclasses` does), so it is exactly as fast as a hand-written one;
  each attribute is copied as its :class:`Copy` kind says;
- the ``"state"`` part of :meth:`State.to_position` — every field with a position ``key``
  encoded by its :class:`Codec`, in declared order (:func:`position_fields`);
- the generic part of reading a position back — presence of every field, no unknown field, the
  JSON type and shape of each and its decoding, each problem a
  :class:`~campfire.core.errors.PositionError` naming the field (:func:`read_fields`). The
  game's reader keeps only the checks across fields (each card in one place, the phase against
  the seat to act, ...).

Declarations are :class:`StateField` (an attribute; in the position unless ``key=None``) and
:class:`Computed` (a position entry made from several attributes, read back by the game):

>>> class Demo:  # a toy state (a ``State`` subclass gets this from ``State.__init_subclass__``)
...     FIELDS = (
...         StateField("num_players", key=None),
...         StateField("board", Copy.LIST, codec=ListOf(Int(0, 9), length=3)),
...         StateField("turn", key="seat", codec=Nullable(SEAT)),
...         StateField("_cache", Reset(None), key=None),
...     )
>>> install_fields(Demo, Demo.FIELDS)
>>> d = Demo()
>>> d.num_players, d.board, d.turn, d._cache = 2, [1, 2, 3], -1, "computed"
>>> c = d.clone()
>>> c.board == d.board and c.board is not d.board, c._cache
(True, None)
>>> position_fields(d)
{'board': [1, 2, 3], 'seat': None}
>>> read_fields(Demo, {"board": [1, 2, 3], "seat": 1}, ReadContext(2, None))
{'board': [1, 2, 3], 'seat': 1}
>>> read_fields(Demo, {"board": [1, 2], "seat": 1}, ReadContext(2, None))
Traceback (most recent call last):
    ...
campfire.core.errors.PositionError: board must have 3 entries (got 2)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .errors import ErrorText, PositionError
from .validate import short_repr

__all__ = [
    "RAW",
    "SEAT",
    "Codec",
    "Computed",
    "Copy",
    "Custom",
    "Int",
    "ListOf",
    "Names",
    "Nullable",
    "Read",
    "ReadContext",
    "Reset",
    "StateField",
    "copy_on_write",
    "install_fields",
    "position_fields",
    "position_keys",
    "read_fields",
    "read_object",
    "unshare",
]


# ----- copying ------------------------------------------------------------------------------------


class Copy(enum.Enum):
    """How the generated ``clone`` copies an attribute."""

    #: immutable (an ``int``, a ``str``, a tuple of those, a frozen object): shared
    VALUE = "{src}"
    #: a flat list of immutable values: a shallow copy
    LIST = "{src}[:]"
    #: a list of flat lists: each inner list copied
    LISTS = "[_x[:] for _x in {src}]"
    #: an object with its own ``clone()``
    CLONE = "{src}.clone()"
    #: an object with ``copy()``: a dict of immutable values, a :class:`GameRng`, a set
    COPY = "{src}.copy()"


@dataclass(frozen=True, slots=True)
class Reset:
    """Not copied: the clone gets ``value`` (a cache recomputed on demand), shared as is.

    With ``both=True`` the original gets it too: a copy-on-write flag (after a clone, both
    copies share an object, and whichever changes it first must copy it).
    """

    value: Any
    both: bool = False


#: what a field's ``copy`` may be: a :class:`Copy` kind, a :class:`Reset`, or a function of the
#: value returning its copy
CopyKind = Copy | Reset | Callable[[Any], Any]


# ----- reading and writing JSON -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReadContext:
    """What a field's reading may depend on: the player count and the game's options."""

    players: int
    options: Any


#: a bound: a number, or a function of the :class:`ReadContext` (``lambda c: c.players - 1``)
Bound = int | Callable[[ReadContext], int]


def _bound(bound: Bound, ctx: ReadContext) -> int:
    return bound if isinstance(bound, int) else bound(ctx)


class Codec:
    """Converts a field between its attribute value and its position JSON.

    :meth:`encode` writes (it may trust the value); :meth:`decode` reads untrusted JSON, checks
    its type and shape and raises :class:`~campfire.core.errors.PositionError` naming ``what``
    (the field, with its index: ``board[3]``). The base class passes values through unchanged.
    """

    def encode(self, value: Any) -> Any:
        """The JSON of ``value``."""
        return value

    def decode(self, raw: Any, what: str, ctx: ReadContext) -> Any:
        """The attribute value of the JSON ``raw`` (checked)."""
        return raw


#: no conversion and no check (the game's reader checks the value)
RAW: Final = Codec()


@dataclass(frozen=True, slots=True)
class Int(Codec):
    """A whole number ``low``–``high`` (never a ``bool``); JSON = value + ``offset``.

    >>> Int(1, 3, offset=1).encode(0), Int(0, 3).decode(2, "n", ReadContext(2, None))
    (1, 2)
    """

    low: Bound
    high: Bound
    #: added when writing (a 0-based round written 1-based), subtracted when reading
    offset: int = 0

    def encode(self, value: Any) -> Any:
        """``value + offset``."""
        return value + self.offset

    def decode(self, raw: Any, what: str, ctx: ReadContext) -> Any:
        """Check the type and the range (of the JSON value)."""
        low, high = _bound(self.low, ctx), _bound(self.high, ctx)
        if raw.__class__ is not int:
            raise PositionError(
                ErrorText(
                    "{what} must be a whole number {low}–{high} (got {raw})",
                    what=what,
                    low=low,
                    high=high,
                    raw=short_repr(raw),
                )
            )
        if not low <= raw <= high:
            raise PositionError(
                ErrorText(
                    "{what} must be {low}–{high} (got {raw})",
                    what=what,
                    low=low,
                    high=high,
                    raw=raw,
                )
            )
        return raw - self.offset


def _last_seat(ctx: ReadContext) -> int:
    return ctx.players - 1


#: a seat, ``0``–``players - 1``
SEAT: Final = Int(0, _last_seat)


@dataclass(frozen=True, slots=True)
class Nullable(Codec):
    """``null`` in JSON for the attribute value ``none`` (by default ``-1``), else ``inner``."""

    inner: Codec
    none: Any = -1

    def encode(self, value: Any) -> Any:
        """``None`` for ``none``, else the inner encoding."""
        return None if value == self.none else self.inner.encode(value)

    def decode(self, raw: Any, what: str, ctx: ReadContext) -> Any:
        """``none`` for ``null``, else the inner decoding."""
        return self.none if raw is None else self.inner.decode(raw, what, ctx)


@dataclass(frozen=True, slots=True)
class ListOf(Codec):
    """A JSON list of ``item`` (of ``length`` entries when given); ``tuple`` reads a tuple."""

    item: Codec = RAW
    length: Bound | None = None
    tuple: bool = False

    def encode(self, value: Any) -> Any:
        """A list of the items' encodings."""
        if self.item is RAW:
            return list(value)
        encode = self.item.encode
        return [encode(x) for x in value]

    def decode(self, raw: Any, what: str, ctx: ReadContext) -> Any:
        """Check the list and its length, decode each item (named ``what[i]``)."""
        if not isinstance(raw, list):
            raise PositionError(
                ErrorText("{what} must be a JSON list (got {raw})", what=what, raw=short_repr(raw))
            )
        if self.length is not None:
            length = _bound(self.length, ctx)
            if len(raw) != length:
                raise PositionError(
                    ErrorText(
                        "{what} must have {length} entries (got {n_raw})",
                        what=what,
                        length=length,
                        n_raw=len(raw),
                    )
                )
        decode = self.item.decode
        out = [decode(x, f"{what}[{i}]", ctx) for i, x in enumerate(raw)]
        return tuple(out) if self.tuple else out


@dataclass(frozen=True, slots=True)
class Names(Codec):
    """An index into ``names`` written as the name (a phase, a step).

    >>> Names(("a", "b")).decode("c", "phase", ReadContext(2, None))
    Traceback (most recent call last):
        ...
    campfire.core.errors.PositionError: phase must be one of a, b (got 'c')
    """

    names: tuple[str, ...]

    def encode(self, value: Any) -> Any:
        """The name."""
        return self.names[value]

    def decode(self, raw: Any, what: str, ctx: ReadContext) -> Any:
        """The index of the name."""
        if not isinstance(raw, str) or raw not in self.names:
            raise PositionError(
                ErrorText(
                    "{what} must be one of {names} (got {raw})",
                    what=what,
                    names=", ".join(self.names),
                    raw=short_repr(raw),
                )
            )
        return self.names.index(raw)


@dataclass(frozen=True, slots=True)
class Custom(Codec):
    """A codec of two functions: ``write(value)`` and ``read(raw, what, ctx)`` (which checks).

    Without ``read`` the JSON is passed on unread: the game's reader reads it (with a function
    it shares with its setup reader, say).
    """

    write: Callable[[Any], Any]
    read: Callable[[Any, str, ReadContext], Any] | None = None

    def encode(self, value: Any) -> Any:
        """``write(value)``."""
        return self.write(value)

    def decode(self, raw: Any, what: str, ctx: ReadContext) -> Any:
        """``read(raw, what, ctx)``, or ``raw`` itself."""
        return raw if self.read is None else self.read(raw, what, ctx)


def read_object(raw: Any, what: str, keys: Sequence[str]) -> Mapping[str, Any]:
    """``raw``, which must be a JSON object with exactly ``keys`` (a field's nested object).

    >>> read_object({"a": 1}, "pair", ("a", "b"))
    Traceback (most recent call last):
        ...
    campfire.core.errors.PositionError: pair: the field 'b' is missing
    """
    if not isinstance(raw, Mapping):
        raise PositionError(
            ErrorText(
                "{what} must be a JSON object with the fields {keys}",
                what=what,
                keys=", ".join(keys),
            )
        )
    missing = [k for k in keys if k not in raw]
    if missing:
        raise PositionError(
            ErrorText("{what}: the field {missing} is missing", what=what, missing=repr(missing[0]))
        )
    extra = sorted(str(k) for k in raw if k not in keys)
    if extra:
        raise PositionError(
            ErrorText(
                "{what}: unknown field {extra}; the fields are {value}",
                what=what,
                extra=repr(extra[0]),
                value=list(keys),
            )
        )
    return raw


@dataclass(frozen=True, slots=True)
class Read(Codec):
    """JSON written as it is, read back by a function.

    For a :class:`Computed` entry, whose ``get`` makes the JSON itself: ``read(raw, what, ctx)``
    checks it and returns what the game's reader needs.
    """

    read: Callable[[Any, str, ReadContext], Any]

    def decode(self, raw: Any, what: str, ctx: ReadContext) -> Any:
        """``read(raw, what, ctx)``."""
        return self.read(raw, what, ctx)


# ----- declarations -------------------------------------------------------------------------------

_NAME: Final = "<name>"
_ABSENT: Final = object()


@dataclass(frozen=True, slots=True)
class StateField:
    """One attribute of a state: how ``clone`` copies it and how the position holds it.

    ``key`` is its key in the position's ``"state"`` object (by default its name; ``None``: not
    in the position, because it follows from other fields or from the options); ``codec``
    converts it to and from JSON; ``default`` is read when an optional key is absent.
    """

    name: str
    copy: CopyKind = Copy.VALUE
    key: str | None = _NAME
    codec: Codec = RAW
    default: Any = field(default=_ABSENT, compare=False)

    def __post_init__(self) -> None:
        """Resolve the default key (the attribute's name)."""
        if self.key == _NAME:
            object.__setattr__(self, "key", self.name)


@dataclass(frozen=True, slots=True)
class Computed:
    """A position entry made from several attributes (``get(state)``), read back by the game.

    It is no attribute, so ``clone`` ignores it; :func:`read_fields` decodes it with ``codec``
    and the game's reader sets the attributes it stands for.
    """

    key: str
    get: Callable[[Any], Any]
    codec: Codec = RAW
    default: Any = field(default=_ABSENT, compare=False)


Field = StateField | Computed


def copy_on_write(
    name: str, *, key: str | None = _NAME, codec: Codec = RAW
) -> tuple[StateField, StateField]:
    """Declare an attribute that a state and its clones share until one of them changes it.

    Two declarations: the attribute itself (``clone`` shares it) and its flag ``_<name>_shared``
    (``Reset(True, both=True)``: after a clone both copies know they share it). Whoever changes
    it first takes its own copy with :func:`unshare`, so a clone costs nothing for an object
    that is rarely changed (a random generator, drawn from a few times a game, whose copy costs
    more than the rest of the state):

    >>> from campfire.core.rng import GameRng
    >>> class Dice:
    ...     FIELDS = (*copy_on_write("rng", key=None),)
    >>> install_fields(Dice, Dice.FIELDS)
    >>> one = Dice()
    >>> one.rng, one._rng_shared = GameRng(1), False
    >>> two = one.clone()
    >>> two.rng is one.rng, one._rng_shared
    (True, True)
    >>> unshare(two, "rng").random() == unshare(one, "rng").random(), two.rng is one.rng
    (True, False)
    """
    return (
        StateField(name, Copy.VALUE, key=key, codec=codec),
        StateField(f"_{name}_shared", Reset(True, both=True), key=None),
    )


def unshare(state: Any, name: str) -> Any:
    """``state``'s own copy of the :func:`copy_on_write` attribute ``name``, to change it.

    Copied (with its ``copy()``) only while it is still shared with a clone; every change of
    the attribute goes through this function.
    """
    flag = f"_{name}_shared"
    if getattr(state, flag):
        setattr(state, name, getattr(state, name).copy())
        setattr(state, flag, False)
    return getattr(state, name)


# ----- what the core derives ----------------------------------------------------------------------


def _copy_source(f: StateField, i: int, env: dict[str, Any]) -> str:
    src = f"s.{f.name}"
    kind = f.copy
    if isinstance(kind, Copy):
        return kind.value.format(src=src)
    if isinstance(kind, Reset):
        env[f"_reset{i}"] = kind.value
        return f"{src} = _reset{i}" if kind.both else f"_reset{i}"
    env[f"_copy{i}"] = kind
    return f"_copy{i}({src})"


def make_clone(cls: type, fields: Sequence[Field]) -> Callable[[Any], Any]:
    """Compile ``cls``'s ``clone``: one assignment per declared attribute, no loop."""
    # ``cls.__new__``, not ``object.__new__``: the latter refuses a subclass of a compiled class
    env: dict[str, Any] = {"_new": cls.__new__}
    lines = ["def clone(s):", "    o = _new(s.__class__)"]
    for i, f in enumerate(fields):
        if isinstance(f, StateField):
            lines.append(f"    o.{f.name} = {_copy_source(f, i, env)}")
    lines.append("    return o")
    exec("\n".join(lines), env)  # our own declarations, compiled as dataclasses does
    clone: Callable[[Any], Any] = env["clone"]
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    clone.__doc__ = (
        "An independent copy (generated from ``FIELDS``: each attribute copied as declared)."
    )
    clone.__module__ = cls.__module__
    return clone


def install_fields(cls: type, fields: Sequence[Field]) -> None:
    """Check ``cls``'s declaration and give it the generated ``clone`` (unless it has its own).

    Called by ``State.__init_subclass__`` for every class that declares ``FIELDS``.
    """
    names = [f.name for f in fields if isinstance(f, StateField)]
    keys = [f.key for f in fields if f.key is not None]
    for what, items in (("attribute", names), ("position key", keys)):
        twice = sorted({x for x in items if items.count(x) > 1})
        if twice:
            raise TypeError(f"{cls.__name__}.FIELDS declares the {what} {twice[0]!r} twice")
    if "clone" not in cls.__dict__:
        setattr(cls, "clone", make_clone(cls, fields))  # noqa: B010 - set after class creation


def position_fields(state: Any) -> dict[str, Any]:
    """The ``"state"`` object of ``state``'s position: each keyed field encoded, in order."""
    out: dict[str, Any] = {}
    for f in state.FIELDS:
        if f.key is None:
            continue
        value = f.get(state) if isinstance(f, Computed) else getattr(state, f.name)
        out[f.key] = f.codec.encode(value)
    return out


def position_keys(cls: Any, *, optional: bool | None = None) -> tuple[str, ...]:
    """The keys of ``cls``'s position ``"state"`` object, in order (from ``cls.FIELDS``).

    ``optional=False``: only those a position must have; ``True``: only those with a default.
    """
    return tuple(
        f.key
        for f in cls.FIELDS
        if f.key is not None and (optional is None or optional == (f.default is not _ABSENT))
    )


def read_fields(cls: Any, data: Any, ctx: ReadContext) -> dict[str, Any]:
    """Read a position's ``"state"`` object by ``cls.FIELDS``: position key → decoded value.

    Every keyed field must be present (or have a default), no other key may be, and each value
    must have its codec's type and shape; anything else raises
    :class:`~campfire.core.errors.PositionError` naming the field. Checks across fields are
    the game's.
    """
    if not isinstance(data, Mapping):
        raise PositionError(
            ErrorText(
                "the position's state must be a JSON object (got {data})", data=short_repr(data)
            )
        )
    fields = [f for f in cls.FIELDS if f.key is not None]
    for f in fields:
        if f.key not in data and f.default is _ABSENT:
            raise PositionError(
                ErrorText("the position's state: the field {key} is missing", key=repr(f.key))
            )
    keys = [f.key for f in fields]
    extra = sorted(str(k) for k in data if k not in keys)
    if extra:
        raise PositionError(
            ErrorText(
                "the position's state: unknown field {extra} (an unknown state field; "
                "the fields are {keys})",
                extra=repr(extra[0]),
                keys=keys,
            )
        )
    out: dict[str, Any] = {}
    for f in fields:
        raw = data.get(f.key, f.default)
        out[f.key] = f.codec.decode(raw, f.key, ctx)
    return out
