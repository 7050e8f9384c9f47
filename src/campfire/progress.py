"""A progress bar on the terminal's standard error, for the commands' long runs.

``campfire arena`` (games played) and ``campfire review`` (decisions assessed) show one while
they work, when standard error is a terminal; elsewhere (a pipe, a file, a test) nothing.

>>> with progress_bar(False, "games") as update:
...     update is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .i18n import _

__all__ = ["progress_bar"]


@contextmanager
def progress_bar(
    enabled: bool, label: str, total: int | None = None
) -> Iterator[Callable[[int, int], None] | None]:
    """A bar labelled ``label`` (already translated), as ``update(done, total)``.

    ``None`` when it is not ``enabled`` or standard error is no terminal. ``total``: ``None``
    until the first update says it.
    """
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn(_("ETA")),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
