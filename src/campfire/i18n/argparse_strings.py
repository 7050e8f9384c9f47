"""The messages of Python's :mod:`argparse` that the ``campfire`` command can show.

:mod:`argparse` translates its own strings with :mod:`gettext`; :func:`argparse_language`
points it at Campfire's catalogs while a command line is read and its help printed, and the
strings are listed here so that extraction puts them in the catalogs (wording of Python 3.11+).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from . import N_

if TYPE_CHECKING:
    from . import Translator

__all__ = ["ARGPARSE_STRINGS", "argparse_language"]

ARGPARSE_STRINGS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unexpected option string: %s"),
)


@contextmanager
def argparse_language(tr: Translator) -> Iterator[None]:
    """Let :mod:`argparse` speak ``tr``'s language inside the block."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = tr.gettext  # type: ignore[attr-defined]
    argparse.ngettext = tr.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
