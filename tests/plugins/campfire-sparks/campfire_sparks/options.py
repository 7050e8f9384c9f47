"""Sparks options (sparks rules §6): the defaults are the base rules.

>>> SparksOptions()
SparksOptions(hand_size=5, trumps=False)
>>> SparksOptions.from_mapping({"hand_size": "4", "trumps": "yes"})
SparksOptions(hand_size=4, trumps=True)
"""

from __future__ import annotations

from dataclasses import dataclass

from campfire.core import Options, option

__all__ = ["SparksOptions"]


@dataclass(frozen=True)
class SparksOptions(Options):
    """The variants of Sparks (rules §6)."""

    hand_size: int = option(
        5, choices=(4, 5, 6), help="cards dealt to each player: the number of tricks (rules §6.1)"
    )
    trumps: bool = option(
        False, help="red is trumps: a red card beats every other suit (rules §6.2)"
    )
