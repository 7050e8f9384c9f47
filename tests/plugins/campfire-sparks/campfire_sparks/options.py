"""Sparks options (sparks rules §6): the defaults are the base rules.

>>> SparksOptions()
SparksOptions(hand_size=5, trumps=False)
>>> SparksOptions.from_mapping({"hand_size": "4", "trumps": "yes"})
SparksOptions(hand_size=4, trumps=True)
"""

from __future__ import annotations

from dataclasses import dataclass

from campfire.core import Options, option

__all__ = ["MAX_HAND", "SparksOptions"]

#: the largest hand (option ``hand_size``, rules §6.1): 4 × 6 = 24 of the 27 cards
MAX_HAND = 6


@dataclass(frozen=True)
class SparksOptions(Options):
    """The variants of Sparks (rules §6)."""

    hand_size: int = option(
        5,
        choices=(4, 5, MAX_HAND),
        help="cards dealt to each player: the number of tricks (rules §6.1)",
    )
    trumps: bool = option(
        False, help="red is trumps: a red card beats every other suit (rules §6.2)"
    )
