"""Display patches: what changed in a seat's display model since the last frame it was sent.

A client that connects with ``patch=1`` gets each step's ``delta`` with a ``patch`` instead of
the whole ``display`` (``docs/protocol.md``, "Display patches"). A patch is a list of
``[path, value]`` pairs: ``path`` is a list of object keys and array indices into the display
model the connection holds (that of the last ``snapshot`` or ``delta`` it received), and
``value`` is what is found there now. Applying the pairs in order (:func:`apply_patch`) gives
the new display model; an empty path replaces the whole model (the first frame after a model of
``None``). A large board is about 11 KB of JSON per seat and step; its patch is usually a few
hundred bytes.

A patch is computed from two display models of the *same* seat and language — the one the
connection was sent last and the new one — and every value it carries is a part of the new
model. It therefore holds nothing the seat was not sent in full before patches existed: the
hidden-information guarantee of display models carries over unchanged.

:func:`display_patch` compares the display dataclasses themselves (frozen, so a part shared by
both models is skipped by identity, and presenters share the faces of untouched cards):

>>> from campfire.core.present import CardFace, Display, Zone
>>> def model(prompt, card):
...     zone = Zone("board", "Board", "grid", (CardFace("pos:0"), card))
...     return Display("g", 0, "", prompt, (0,), (), (zone,))
>>> old = model("Peek.", CardFace("pos:1", short="1"))
>>> new = model("Peek again.", CardFace("pos:1", short="*1"))
>>> ops = display_patch(old, new)
>>> ops
[[['prompt'], 'Peek again.'], [['zones', 0, 'cards', 1, 'short'], '*1']]
>>> apply_patch(to_json(old), to_json(ops)) == to_json(new)
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields, is_dataclass
from typing import Any

from campfire.core.present import Display

from .wire import encode

__all__ = ["Memo", "PatchError", "apply_patch", "display_patch", "patch_frame", "to_json"]

#: a key of an object or an index of an array
PathKey = str | int
#: one change: where (a path from the model's root), and the value found there now
Op = list[Any]

#: the field names of each class met (``None``: not a dataclass)
_FIELDS: dict[type, tuple[str, ...] | None] = {}
_SEQUENCES = (tuple, list)


def _names(kind: type) -> tuple[str, ...] | None:
    try:
        return _FIELDS[kind]
    except KeyError:
        names = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None
        _FIELDS[kind] = names
        return names


#: what :func:`display_patch` found already in one round of patches (a step's): the changes
#: between two parts, by the parts' identities (both kept in the value, so the ids stay theirs)
Memo = dict[tuple[int, int], tuple[Any, Any, list[Op]]]


def display_patch(old: Display | None, new: Display | None, memo: Memo | None = None) -> list[Op]:
    """The ``[path, value]`` pairs that turn ``old`` (its JSON) into ``new`` (its JSON).

    ``old`` is ``None`` when the client holds no model: the patch then replaces the root.
    Values are parts of ``new`` as they are (dataclasses, tuples): the frame's encoder writes
    them as JSON (:mod:`.wire`). A dataclass of which more than half the fields changed, and
    an array of which more than half the items did (or whose length changed), is sent whole:
    it is then about as short as its changes, and quicker to apply (one change alone is
    always followed down).

    ``memo`` (a dict, empty at first) shares the work between the patches of one step: the
    seats' models share parts (a presenter keeps them: the board, the panels), and the
    changes between two parts are found once for all the seats whose models hold them.
    """
    out: list[Op] = []
    if old is None or new is None:
        if old is not new:
            out.append([[], new])
        return out
    if old is not new and old != new:
        _diff(old, new, [], out, memo, root=True)
    return out


def _diff(
    old: Any, new: Any, path: list[PathKey], out: list[Op], memo: Memo | None, root: bool = False
) -> None:
    """Append to ``out`` the changes from ``old`` to ``new`` (both at ``path``; not equal).

    Parts both models share are skipped by identity, equal ones by ``==`` (in C for tuples
    and atoms); only the parts that differ are followed down, while they are containers of
    the same shape.
    """
    kind = type(new)
    if kind is type(old):
        if kind in _SEQUENCES:
            if len(old) == len(new):
                changed = [
                    i
                    for i, (a, b) in enumerate(zip(old, new, strict=True))
                    if a is not b and a != b
                ]
                if len(changed) < 2 or 2 * len(changed) <= len(new):
                    for i in changed:
                        _diff(old[i], new[i], [*path, i], out, memo)
                    return
        elif kind is dict:
            if old.keys() == new.keys() and all(type(k) is str for k in new):
                keys = [k for k, b in new.items() if old[k] is not b and old[k] != b]
                if len(keys) < 2 or 2 * len(keys) <= len(new):
                    for k in keys:
                        _diff(old[k], new[k], [*path, k], out, memo)
                    return
        else:
            names = _names(kind)
            if names is not None:
                if memo is None or root:
                    if _fields(old, new, names, path, out, memo, root):
                        return
                else:
                    key = (id(old), id(new))
                    found = memo.get(key)
                    if found is None:
                        changes: list[Op] = []
                        if not _fields(old, new, names, [], changes, memo, False):
                            changes = [[[], new]]
                        found = memo[key] = (old, new, changes)
                    out.extend([[*path, *where], value] for where, value in found[2])
                    return
    out.append([path, new])


def _fields(
    old: Any,
    new: Any,
    names: tuple[str, ...],
    path: list[PathKey],
    out: list[Op],
    memo: Memo | None,
    root: bool,
) -> bool:
    """The changes of two dataclasses of one class, field by field (``False``: send it whole)."""
    changed = []
    for name in names:
        a, b = getattr(old, name), getattr(new, name)
        if a is not b and a != b:
            changed.append((name, a, b))
    n = len(changed)
    if not root and n >= 2 and 2 * n > len(names):
        return False
    for name, a, b in changed:
        _diff(a, b, [*path, name], out, memo)
    return True


def to_json(value: Any) -> Any:
    """``value`` (a patch, a display model) as a client reads it: its JSON text, parsed."""
    return json.loads(encode({"value": value}))["value"]


class PatchError(ValueError):
    """A patch that does not fit the model it is applied to (a path that leads nowhere)."""


def apply_patch(model: Any, ops: Sequence[Sequence[Any]]) -> Any:
    """The JSON display model ``model`` with ``ops`` applied (a new value; ``model`` is kept).

    What a client does with a delta's ``patch`` (``docs/protocol.md``): every container on a
    path is copied before it is changed, so the model the client held is left as it was.
    """
    copied: set[int] = set()  # containers already copied by this patch (changed in place)

    def fresh(value: Any) -> Any:
        if id(value) in copied:
            return value
        made = list(value) if isinstance(value, list) else dict(value)
        copied.add(id(made))
        keep.append(made)
        return made

    keep: list[Any] = []  # the copies, alive until the end (their ids stay theirs)
    for op in ops:
        if not isinstance(op, (list, tuple)) or len(op) != 2 or not isinstance(op[0], list):
            raise PatchError(f"a patch entry is [path, value] (got {op!r:.80})")
        path, value = op
        if not path:
            model = value
            continue
        model = fresh(model) if isinstance(model, (list, dict)) else model
        node = model
        for i, key in enumerate(path):
            last = i == len(path) - 1
            _check_step(node, key, path)
            if last:
                node[key] = value
            else:
                child = node[key]
                if not isinstance(child, (list, dict)):
                    raise PatchError(f"the path {path!r} goes through a {type(child).__name__}")
                node[key] = child = fresh(child)
                node = child
    return model


def _check_step(node: Any, key: Any, path: list[Any]) -> None:
    if isinstance(node, dict):
        if not isinstance(key, str) or key not in node:
            raise PatchError(f"the path {path!r} names {key!r}, which the model has not")
    elif isinstance(node, list):
        if type(key) is not int or not 0 <= key < len(node):
            raise PatchError(f"the path {path!r} names index {key!r} of {len(node)} items")
    else:
        raise PatchError(f"the path {path!r} goes through a {type(node).__name__}")


def patch_frame(
    frame: dict[str, Any], shown: Display | None, memo: Memo | None = None
) -> dict[str, Any]:
    """``frame`` (a ``delta`` with its whole display model) as a client of patches gets it.

    ``shown`` is the display model that client was sent last; the frame's ``display`` becomes
    ``patch``, the changes from it (``memo``: see :func:`display_patch`).
    """
    out = {k: v for k, v in frame.items() if k != "display"}
    out["patch"] = display_patch(shown, frame["display"], memo)
    return out
