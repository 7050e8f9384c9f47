"""The options of Apache's bots, in a module that is never compiled.

:mod:`.bots` and :mod:`.search` may be compiled (``docs/compiled.md``); a dataclass whose fields are
declared with :func:`campfire.core.option` may not (mypyc checks each field's class-level
default against its type, and ``option`` gives a ``dataclasses.Field``), so the options live
here, interpreted, and are imported from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from campfire.core import AgentConfig, ErrorText, OptionError, option

from .actions import REACTION_MAX_MS

__all__ = ["ApacheHeuristicConfig", "ApacheSearchConfig"]


@dataclass(frozen=True)
class ApacheHeuristicConfig(AgentConfig):
    """Parameters of the Apache heuristic bot (times in milliseconds)."""

    reaction_ms: float = option(900.0, help="mean reaction time of a claim, ms (0–2000)")
    spread: float = option(200.0, help="standard deviation of the reaction time, ms")
    patience: int = option(
        5, help="cards a claim must win before the bot claims when nobody threatens its booty"
    )

    def validate(self) -> None:
        """The mean time lies in 0–2000 ms, the spread is ≥ 0, patience ≥ 2."""
        if not 0 <= self.reaction_ms <= REACTION_MAX_MS:
            raise OptionError(
                ErrorText(
                    "reaction_ms is a mean time from 0 to {reaction_max_ms} ms (got {reaction_ms})",
                    reaction_max_ms=REACTION_MAX_MS,
                    reaction_ms=self.reaction_ms,
                )
            )
        if self.spread < 0:
            raise OptionError(ErrorText("spread must be ≥ 0 ms (got {spread})", spread=self.spread))
        if self.patience < 2:
            raise OptionError(
                ErrorText(
                    "patience must be at least 2 (a claim wins 2 cards or more; got {patience})",
                    patience=self.patience,
                )
            )


@dataclass(frozen=True)
class ApacheSearchConfig(ApacheHeuristicConfig):
    """Parameters of the Apache search bot (the heuristic's, plus the search's budget)."""

    iterations: int = option(
        60, minimum=1, maximum=100_000, help="samples per decision (each plays every candidate)"
    )
    horizon: int = option(
        0, minimum=0, maximum=200, help="reveals simulated after the decision (0: to the end)"
    )
    reward: str = option(
        "margin",
        choices=("margin", "win"),
        help="what a simulated game is worth: the lead over the best other seat, or the win",
    )
