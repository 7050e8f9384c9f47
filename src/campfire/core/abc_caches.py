"""Each compiled class derived from an ABC gets its own ``isinstance`` caches (docs/compiled.md).

The compiled build (``make compiled``) makes native classes with mypyc, which does not run
``ABCMeta.__new__``; this module is never compiled itself.
"""

from __future__ import annotations

import abc

__all__ = ["own_abc_cache"]


def own_abc_cache(*classes: type) -> None:
    """Give each compiled class derived from an ABC its own ABC state (``docs/compiled.md``).

    ``ABCMeta.__new__`` gives every class it makes its own ``_abc_impl``: the caches behind
    ``isinstance`` and ``issubclass``. mypyc makes a native class without calling it, so a
    compiled ``State`` or ``Agent`` subclass would read and fill the caches of its nearest
    interpreted ABC ancestor: once a game's own search agent was found to be an ``Agent``, it
    was found to be an ``ISMCTSAgent`` too. ``State.__init_subclass__`` and
    ``Agent.__init_subclass__`` call it for every subclass (mypyc runs ``__init_subclass__``
    for a native class), and ``core/state.py`` once for ``State`` itself; a class that has its
    own state already (every class of the pure build) is left as it is.

    >>> class Base(abc.ABC):
    ...     pass
    >>> class Made(Base):
    ...     pass
    >>> own_abc_cache(Made)  # made by ABCMeta: nothing to do
    >>> "_abc_impl" in Made.__dict__
    True
    """
    init = getattr(abc, "_abc_init", None)  # CPython's C ABC machinery (not ``_py_abc``)
    for cls in classes:
        if init is not None and isinstance(cls, abc.ABCMeta) and "_abc_impl" not in cls.__dict__:
            init(cls)
