"""Apache options (``docs/rules/apache.md`` §8): the defaults are the base rules.

The three optional rules are independent switches, off by default. The two marriage flags settle
the points the rulebook leaves open and matter only with ``marriage`` on. ``claim_order`` chooses
how a claim window's queue is ordered.

>>> ApacheOptions()  # doctest: +NORMALIZE_WHITESPACE
ApacheOptions(war_tribute=False, marriage=False, marriage_chief_is_male=True,
              marriage_allow_neutral_spouse=True, sharing=False, claim_order='reaction')
>>> ApacheOptions.from_mapping({"sharing": "on"}).sharing
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from campfire.core import Options, option

__all__ = ["ARRIVAL", "REACTION", "ApacheOptions"]

REACTION: Final = "reaction"
ARRIVAL: Final = "arrival"


@dataclass(frozen=True)
class ApacheOptions(Options):
    """The optional rules of Apache and the claim-ordering model (rules §8)."""

    war_tribute: bool = option(
        False,
        label="War tribute",
        help="war tribute: a Warrior taking tomahawks collects buffalo from every opponent "
        "(rules §8.1)",
    )
    marriage: bool = option(
        False,
        label="Marriage",
        help="marriage: with a teepee face up, marry a face-up Indian of the other sex "
        "(rules §8.2)",
    )
    marriage_chief_is_male: bool = option(
        True,
        label="Marriage: a Chief counts as male",
        help="marriage: a Chief counts as a male Indian (rules §8.2)",
    )
    marriage_allow_neutral_spouse: bool = option(
        True,
        label="Marriage: a neutral spouse is allowed",
        help="marriage: the spouse may be of a neutral colour (rules §8.2)",
    )
    sharing: bool = option(
        False,
        label="Sharing",
        help="sharing: neutral Indians of the played type join a successful claim (rules §8.3)",
    )
    claim_order: str = option(
        REACTION,
        choices=(REACTION, ARRIVAL),
        label="Order of claims",
        labels={REACTION: "By reaction time", ARRIVAL: "In the order they arrive"},
        help=(
            "how a window's claims are ordered: by reaction time = everyone answers secretly at "
            "once, the fastest first (a tie drawn by lot); in the order they arrive = as in "
            "real-time play (rules §8.4)"
        ),
    )
