"""Which of the modules this test run imported were compiled (``docs/compiled.md``).

A compiled module checks the declared types of its classes' attributes and of its functions'
arguments at run time. A few tests break those types on purpose (an action built by hand with
a ``str`` where an enum belongs, a list where an ``int`` belongs: what a careless caller of the
pure-Python API may do): on the compiled build the constructor refuses the value with
``TypeError`` before the engine sees it, so those tests are skipped there, saying why.
"""

from __future__ import annotations

import importlib
import importlib.machinery
from collections.abc import Callable
from typing import Any

import pytest

#: why a test that breaks a compiled module's types is skipped
REASON = "{module} is compiled: it refuses a value of the wrong type before the engine sees it"


def is_compiled(module: str) -> bool:
    """Whether the module ``module`` (imported now if it was not) was loaded from an extension."""
    loader = getattr(importlib.import_module(module), "__loader__", None)
    return isinstance(loader, importlib.machinery.ExtensionFileLoader)


def skip_compiled(module: str) -> pytest.MarkDecorator:
    """Skip a test that breaks ``module``'s declared types on purpose, where it is compiled."""
    return pytest.mark.skipif(is_compiled(module), reason=REASON.format(module=module))


def careless(make: Callable[[], Any], module: str) -> Any:
    """``make()`` (a value built with the wrong types), or a skipped parameter where compiled."""
    if is_compiled(module):
        return pytest.param(None, marks=pytest.mark.skip(reason=REASON.format(module=module)))
    return make()
