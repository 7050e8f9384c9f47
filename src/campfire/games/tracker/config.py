"""The options of Tracker's heuristic bot, in a module that is never compiled.

:mod:`.bots` may be compiled (``docs/compiled.md``); a dataclass whose fields are
declared with :func:`campfire.core.option` may not (mypyc checks each field's class-level
default against its type, and ``option`` gives a ``dataclasses.Field``), so the options live
here, interpreted, and are imported from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from campfire.core import AgentConfig, ErrorText, OptionError, option

__all__ = ["DEFAULT_PATIENCE", "TrackerHeuristicConfig"]

#: Peeking turns in a row after which a bot (and the search) captures anyway.
DEFAULT_PATIENCE: Final = 12


@dataclass(frozen=True)
class TrackerHeuristicConfig(AgentConfig):
    """Parameters of the Tracker heuristic bot."""

    memory: str = option("perfect", help="perfect, none, CAPACITY or CAPACITY/DECAY (e.g. 8/0.05)")
    greed: int = option(3, help="remembered enemy scouts needed before capturing")
    patience: int = option(
        DEFAULT_PATIENCE,
        help="peeking turns in a row after which it captures anyway (half-way: one remembered "
        "enemy scout is enough)",
    )

    def validate(self) -> None:
        """Check the memory spec, greed and patience."""
        from .bots import parse_memory

        parse_memory(self.memory)
        if self.greed < 1:
            raise OptionError(ErrorText("greed must be at least 1 (got {greed})", greed=self.greed))
        if self.patience < 1:
            raise OptionError(
                ErrorText(
                    "patience must be at least 1 peeking turn (got {patience})",
                    patience=self.patience,
                )
            )
