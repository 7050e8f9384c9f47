"""Value objects that engines make at every step, without a frozen dataclass's cost.

A frozen dataclass sets each field in its generated ``__init__`` through
``object.__setattr__``, which costs about as much as the rest of a small engine step and which
neither build can make fast (``docs/compiled.md``). A :class:`Value` subclass writes its own
``__init__`` (plain assignments, which the compiled build turns into stores) and declares its
fields, ``Final`` so that ``mypy`` keeps them unchanged; :class:`Value` gives it what the
dataclass gave: equality and a hash by the fields (of the same class only), and a repr that
names them.

>>> from typing import Final
>>> class Point(Value):
...     __slots__ = ("x", "y")
...     _fields = ("x", "y")
...
...     def __init__(self, x: int, y: int = 0) -> None:
...         self.x: Final = x
...         self.y: Final = y
>>> Point(1, 2) == Point(1, 2) != Point(2, 1), hash(Point(1)) == hash(Point(1, 0))
(True, True)
>>> Point(3)
Point(x=3, y=0)
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["Value"]


class Value:
    """Equality, hash and repr by the fields named in ``_fields`` (see the module)."""

    __slots__ = ()

    #: the fields, in the order of the constructor's arguments
    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Value):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"
