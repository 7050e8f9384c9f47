"""Tracker options (``docs/rules/tracker.md`` §8): the defaults are the base rules.

>>> TrackerOptions()
TrackerOptions(peek_count=2, max_relocations=3)
>>> TrackerOptions.from_mapping({"peek_count": "4"}).peek_count
4
"""

from __future__ import annotations

from dataclasses import dataclass

from campfire.core import Options, option

__all__ = ["TrackerOptions"]


@dataclass(frozen=True)
class TrackerOptions(Options):
    """The variants of Tracker (rules §8)."""

    peek_count: int = option(
        2,
        choices=(2, 3, 4),
        label="Cards per peek",
        help="cards shown by one peek (variant: 3 or 4; rules §8.1)",
    )
    max_relocations: int = option(
        3,
        choices=(3, 4, 5),
        label="Relocations after a capture",
        help="most relocation moves after a capture (variant: 4 or 5; rules §8.2)",
    )
