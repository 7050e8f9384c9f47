"""Dudab options (``docs/rules/dudab.md`` §9): the defaults are the base game as written.

>>> DudabOptions()
DudabOptions(use_jungle=False, use_baby=False, start_player=-1)
>>> DudabOptions.from_mapping({"use_jungle": "yes"}).use_jungle
True
"""

from __future__ import annotations

from dataclasses import dataclass

from campfire.core import Options, option

__all__ = ["DudabOptions"]


@dataclass(frozen=True)
class DudabOptions(Options):
    """The switches of Dudab (rules §9; the two expansions are independent)."""

    use_jungle: bool = option(
        False, label="Jungle expansion", help="add the 8 Jungle cards (expansion 1, rules §6)"
    )
    use_baby: bool = option(
        False, label="Baby expansion", help="add the 8 Baby cards (expansion 2, rules §7)"
    )
    start_player: int = option(
        -1,
        choices=(-1, 0, 1, 2, 3, 4, 5),
        label="Start player",
        labels={-1: "Random"},
        seat=True,
        help="who starts the first round: a chosen player, or one drawn at random (rules §9.3)",
        # not a rule switch: the conformance suite tries the random draw only
        sweep=(-1,),
    )
