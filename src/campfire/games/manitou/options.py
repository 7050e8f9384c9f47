"""Big Manitou options: every uncertain point of the spec (manitou §12) and the variant (§8).

The defaults are the rules as the spec decides them.

>>> o = ManitouOptions()
>>> o.hero_chart, o.hunter_ranking, o.tomahawk_timing, o.draw_cards
('seed_plus_1997', 'per_card', 'snapshot', False)
>>> ManitouOptions.from_mapping({"tiles_per_ground": "4"}).tiles_per_ground
4
>>> ManitouOptions(tile_mix="totem:3").tile_counts()[11]
3
"""

from __future__ import annotations

from dataclasses import dataclass

from campfire.core import Options, option

from .cards import HERO_CHARTS, PLACEHOLDER_TILE_MIX, parse_tile_mix

__all__ = ["ManitouOptions"]


@dataclass(frozen=True)
class ManitouOptions(Options):
    """The switches of manitou §12 and the DRAW variant of §8."""

    hero_chart: str = option(
        "seed_plus_1997",
        choices=HERO_CHARTS,
        help="hero beat chart (§12 M3): seed relations + 1997 chart, the exact 1997 chart, "
        "or the linear ranking",
    )
    tiles_per_ground: int = option(
        0,
        choices=(0, 1, 2, 3, 4, 5),
        help="tiles laid out at each hunting ground (§12 M1); 0 = by player count: "
        "2 / 3 / 3 / 4 for 2 / 3 / 4 / 5 players",
        sweep=(0,),
    )
    tile_mix: str = option(
        PLACEHOLDER_TILE_MIX,
        help="the tiles in the bag as name:count,... (§12 M2); the default is an UNVERIFIED "
        "placeholder",
        sweep=(PLACEHOLDER_TILE_MIX,),
    )
    hunter_ranking: str = option(
        "per_card",
        choices=("per_card", "per_player"),
        help="rank single hunter cards, or each player's best hunter (§12 M7)",
    )
    tomahawk_timing: str = option(
        "snapshot",
        choices=("snapshot", "live"),
        help="tomahawks counted as owned after the thief (snapshot), or as owned when each "
        "ground's hunters are ranked, after its hero tile (live) (§12 M9)",
    )
    piece_vp: str = option(
        "tiles",
        choices=("tiles", "pieces", "both"),
        help="what scores 1 VP: each totem/horse tile, the wooden pieces instead, or both "
        "(§12 M11)",
    )
    hero_limit_counts_face_down: bool = option(
        False, help="the limit of two heroes per ground also counts face-down heroes (§12 M6)"
    )
    leftover_tiles: str = option(
        "remove",
        choices=("remove", "bag"),
        help="tiles nobody may take at a ground leave the game, or go back into the bag (§12 M8)",
    )
    draw_cards: bool = option(
        False, help="variant (§8): each hunt's cards are drawn at random instead of chosen"
    )

    def validate(self) -> None:
        """Check that the tile mix is readable."""
        parse_tile_mix(self.tile_mix)

    def tile_counts(self) -> tuple[int, ...]:
        """The tile mix as a count per tile type."""
        return parse_tile_mix(self.tile_mix)
