"""Each state's ``clone`` written out as source from its ``FIELDS`` (``docs/compiled.md``).

``FIELDS`` stays the one declaration of a state's attributes. A class whose source holds the
two marker lines below gets its ``clone`` written between them, as plain Python that mypyc can
compile (the ``clone`` that :func:`campfire.core.fields.make_clone` generates at import time is
run by :func:`exec`, which a compiled class cannot use). ``python -m campfire.core.clones``
rewrites every such block from the declarations; ``--check`` only says which ones disagree
(exit status 1), and a test runs that check, so a ``FIELDS`` changed without its ``clone``
fails the tests.

The written copy makes the new object with the class's own constructor without arguments
(``self.__class__()``: a compiled class always runs ``__init__``), so such a state has an
``__init__`` that takes none and leaves every attribute unset, its setup in a class method.

This module names no game: the classes are the :class:`~campfire.core.state.State`
subclasses of the registered games that hold the markers.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .fields import Copy, Reset, StateField

__all__ = ["BEGIN", "END", "clone_source", "stale", "state_classes", "write"]

#: the line before the written ``clone`` (indented as a method)
BEGIN = (
    "    # ----- clone: written from FIELDS by `python -m campfire.core.clones`; do not edit -----"
)
#: the line after it
END = "    # ----- end of the written clone -----"


def _literal(value: Any, where: str) -> str:
    text = repr(value)
    try:
        same = ast.literal_eval(text) == value
    except (ValueError, SyntaxError):
        same = False
    if not same:
        raise TypeError(f"{where}: Reset({value!r}) cannot be written as source (a literal only)")
    return text


def clone_source(cls: type) -> str:
    """The source of ``cls``'s ``clone`` (a method of its class body), from ``cls.FIELDS``.

    >>> from campfire.core.fields import Reset, StateField
    >>> class Demo:
    ...     FIELDS = (StateField("board", Copy.LIST), StateField("_cache", Reset(None)))
    >>> print(clone_source(Demo))
        def clone(self) -> Self:
            ...
            s = self
            o = self.__class__()
            o.board = s.board[:]
            o._cache = None
            return o
    <BLANKLINE>
    """
    lines = [
        "    def clone(self) -> Self:",
        '        """An independent copy, each attribute copied as ``FIELDS`` declares."""',
        "        s = self",
        "        o = self.__class__()",
    ]
    for f in getattr(cls, "FIELDS", ()):
        if not isinstance(f, StateField):
            continue
        src = f"s.{f.name}"
        kind = f.copy
        where = f"{cls.__name__}.{f.name}"
        if isinstance(kind, Copy):
            value = kind.value.format(src=src)
        elif isinstance(kind, Reset):
            value = _literal(kind.value, where)
            if kind.both:
                value = f"{src} = {value}"
        else:
            raise TypeError(f"{where}: a copy function cannot be written as source; use a Copy")
        lines.append(f"        o.{f.name} = {value}")
    lines.append("        return o")
    lines.append("")  # the blank line before the end marker
    return "\n".join(lines)


def _block(text: str, cls: type, path: Path) -> tuple[int, int]:
    """The line numbers (0-based) of ``cls``'s two markers in ``text``."""
    lines = text.split("\n")
    start = next(
        (i for i, line in enumerate(lines) if line.startswith(f"class {cls.__name__}(")), None
    )
    if start is None:
        raise ValueError(f"{path}: no class {cls.__name__}")
    try:
        begin = lines.index(BEGIN, start)
        end = lines.index(END, begin)
    except ValueError:
        raise ValueError(f"{path}: class {cls.__name__} has no written clone's markers") from None
    return begin, end


def _source(cls: type) -> Path | None:
    """The ``.py`` file of ``cls``'s module (beside the extension, when it is compiled)."""
    module = sys.modules.get(cls.__module__)
    file = getattr(module, "__file__", None)
    if file is None:
        return None
    path = Path(file)
    if path.suffix != ".py":  # a compiled module: its source lies beside it
        path = path.with_name(cls.__module__.rpartition(".")[2] + ".py")
    return path if path.exists() else None


def _has_markers(cls: type) -> bool:
    source = _source(cls)
    return source is not None and BEGIN in source.read_text(encoding="utf-8")


def state_classes() -> list[type]:
    """The registered games' state classes whose source holds a written clone, by name."""
    from .registry import all_games
    from .state import State

    all_games()  # import every game's package
    found: list[type] = []
    todo: list[type] = [State]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if "FIELDS" in vars(cls) and _has_markers(cls):
            found.append(cls)
    return sorted(set(found), key=lambda c: f"{c.__module__}.{c.__qualname__}")


def _written(cls: type) -> tuple[Path, str, str]:
    """``cls``'s file, its text now and its text with the clone written from ``FIELDS``."""
    path = _source(cls)
    if path is None:
        raise ValueError(f"{cls.__module__}.{cls.__qualname__}: no source file")
    text = path.read_text(encoding="utf-8")
    begin, end = _block(text, cls, path)
    lines = text.split("\n")
    new = [*lines[: begin + 1], clone_source(cls), *lines[end:]]
    return path, text, "\n".join(new)


def stale(classes: Sequence[type] | None = None) -> list[str]:
    """The classes (``module.Class``) whose written clone disagrees with their ``FIELDS``."""
    out = []
    for cls in state_classes() if classes is None else classes:
        _, text, new = _written(cls)
        if text != new:
            out.append(f"{cls.__module__}.{cls.__qualname__}")
    return out


def write(classes: Sequence[type] | None = None) -> list[Path]:
    """Write each class's clone from its ``FIELDS``; the files changed."""
    changed = []
    for cls in state_classes() if classes is None else classes:
        path, text, new = _written(cls)
        if text != new:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m campfire.core.clones [--check]``."""
    parser = argparse.ArgumentParser(
        prog="python -m campfire.core.clones",
        description="Write each state's clone from its FIELDS (docs/compiled.md).",
    )
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a clone is out of date"
    )
    args = parser.parse_args(argv)
    if args.check:
        out = stale()
        for name in out:
            print(f"{name}: clone out of date; run python -m campfire.core.clones", file=sys.stderr)
        return 1 if out else 0
    for path in write():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
