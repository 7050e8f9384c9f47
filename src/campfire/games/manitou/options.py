"""Big Manitou options (``docs/rules/manitou.md`` §8): open points and the drawn-cards variant.

The defaults are Campfire's reading of the rules where the rulebook is unclear or incomplete.

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
    """The switches of Big Manitou and the drawn-cards variant (rules §8)."""

    hero_chart: str = option(
        "seed_plus_1997",
        choices=HERO_CHARTS,
        help="which hero beats which (rules §8.1): the default chart, the 1997 Manitou chart, "
        "or the linear ranking",
    )
    tiles_per_ground: int = option(
        0,
        choices=(0, 1, 2, 3, 4, 5),
        help="tiles laid out at each hunting ground (rules §8.2); 0 = by player count: "
        "2 / 3 / 3 / 4 for 2 / 3 / 4 / 5 players",
        sweep=(0,),
    )
    tile_mix: str = option(
        PLACEHOLDER_TILE_MIX,
        help="the tiles in the bag as name:count,... (rules §8.3); the default is an unverified "
        "placeholder",
        sweep=(PLACEHOLDER_TILE_MIX,),
    )
    hunter_ranking: str = option(
        "per_card",
        choices=("per_card", "per_player"),
        help="rank single hunter cards, or each player's best hunter (rules §8.4)",
    )
    tomahawk_timing: str = option(
        "snapshot",
        choices=("snapshot", "live"),
        help="tomahawks counted as owned after the thief (snapshot), or as owned when each "
        "ground's hunters are ranked, after its hero tile (live) (rules §8.5)",
    )
    piece_vp: str = option(
        "tiles",
        choices=("tiles", "pieces", "both"),
        help="what scores 1 VP: each totem/horse tile, the wooden pieces instead, or both "
        "(rules §8.6)",
    )
    hero_limit_counts_face_down: bool = option(
        False, help="the limit of two heroes per ground also counts face-down heroes (rules §8.7)"
    )
    leftover_tiles: str = option(
        "remove",
        choices=("remove", "bag"),
        help="tiles nobody may take at a ground leave the game, or go back into the bag "
        "(rules §8.8)",
    )
    draw_cards: bool = option(
        False, help="variant (rules §8.9): each hunt's cards are drawn at random instead of chosen"
    )

    def validate(self) -> None:
        """Check that the tile mix is readable."""
        parse_tile_mix(self.tile_mix)

    def tile_counts(self) -> tuple[int, ...]:
        """The tile mix as a count per tile type."""
        return parse_tile_mix(self.tile_mix)
