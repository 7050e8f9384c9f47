"""Apache options (apache §10, §11): the defaults are the base rules.

The three optional rules of §10 are independent switches, off by default. The two marriage
flags settle the open points of §13 P9 (their defaults are the spec's decisions) and matter only
with ``marriage`` on. ``claim_order`` chooses how a claim window's queue is ordered (§11).

>>> ApacheOptions()  # doctest: +NORMALIZE_WHITESPACE
ApacheOptions(war_tribute=False, marriage=False, marriage_chief_is_male=True,
              marriage_allow_neutral_spouse=True, sharing=False, claim_order='reaction')
>>> ApacheOptions.from_mapping({"sharing": "on"}).sharing
True
"""

from __future__ import annotations

from dataclasses import dataclass

from campfire.core import Options, option

__all__ = ["ARRIVAL", "REACTION", "ApacheOptions"]

REACTION = "reaction"
ARRIVAL = "arrival"


@dataclass(frozen=True)
class ApacheOptions(Options):
    """The variants of apache §10 and the claim-ordering model of §11."""

    war_tribute: bool = option(
        False, help="war tribute: a warrior taking tomahawks collects buffalo from every opponent"
    )
    marriage: bool = option(
        False, help="marriage: with a teepee face up, marry a face-up Indian of the other sex"
    )
    marriage_chief_is_male: bool = option(
        True, help="marriage: a Chief counts as a male Indian (spec decision P9)"
    )
    marriage_allow_neutral_spouse: bool = option(
        True, help="marriage: the spouse may be of a neutral colour (spec decision P9)"
    )
    sharing: bool = option(
        False, help="sharing: neutral Indians of the played type join a successful claim"
    )
    claim_order: str = option(
        REACTION,
        choices=(REACTION, ARRIVAL),
        help=(
            "how a window's claims are ordered: 'reaction' = simultaneous poll ordered by "
            "reaction time and a seeded tie-break (§11.3); 'arrival' = the order in which the "
            "claims are applied, as a real-time server logs them (§11.1)"
        ),
    )
