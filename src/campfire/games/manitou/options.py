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
        label="Hero chart",
        labels={
            "seed_plus_1997": "Standard",
            "manitou_1997": "Manitou 1997 (the Chief beats the Spy)",
            "seed_linear": "A plain ranking",
        },
        help="which hero beats which (rules §8.1): the default chart, the 1997 Manitou chart, "
        "or the linear ranking",
    )
    tiles_per_ground: int = option(
        0,
        choices=(0, 1, 2, 3, 4, 5),
        label="Tiles at each hunting ground",
        labels={0: "By the player count"},
        help="tiles laid out at each hunting ground (rules §8.2); by the player count: "
        "2 / 3 / 3 / 4 for 2 / 3 / 4 / 5 players",
        sweep=(0,),
    )
    tile_mix: str = option(
        PLACEHOLDER_TILE_MIX,
        label="Tiles in the bag",
        help="the tiles in the bag, as name:count pairs separated by commas (rules §8.3); the "
        "published game's mix is not known, the default is our best guess",
        sweep=(PLACEHOLDER_TILE_MIX,),
    )
    hunter_ranking: str = option(
        "per_card",
        choices=("per_card", "per_player"),
        label="Ranking the hunters",
        labels={"per_card": "Card by card", "per_player": "Each player's best hunter"},
        help="rank single hunter cards, or each player's best hunter (rules §8.4)",
    )
    tomahawk_timing: str = option(
        "snapshot",
        choices=("snapshot", "live"),
        label="When tomahawks count",
        labels={"snapshot": "As owned after the thief", "live": "As owned at each ground"},
        help="tomahawks counted as owned after the thief, for the whole hunt; or as owned when "
        "each ground's hunters are ranked, after its hero tile (rules §8.5)",
    )
    piece_vp: str = option(
        "tiles",
        choices=("tiles", "pieces", "both"),
        label="Points for totems and horses",
        labels={"tiles": "The tiles", "pieces": "The wooden pieces", "both": "Tiles and pieces"},
        help="what scores 1 VP: each totem/horse tile, the wooden pieces instead, or both "
        "(rules §8.6)",
    )
    hero_limit_counts_face_down: bool = option(
        False,
        label="Face-down heroes count toward the limit",
        help="the limit of two heroes per ground also counts face-down heroes (rules §8.7)",
    )
    leftover_tiles: str = option(
        "remove",
        choices=("remove", "bag"),
        label="Tiles nobody may take",
        labels={"remove": "Leave the game", "bag": "Go back into the bag"},
        help="tiles nobody may take at a ground leave the game, or go back into the bag "
        "(rules §8.8)",
    )
    draw_cards: bool = option(
        False,
        label="Drawn cards (variant)",
        help="variant (rules §8.9): each hunt's cards are drawn at random instead of chosen",
    )

    def validate(self) -> None:
        """Check that the tile mix is readable."""
        parse_tile_mix(self.tile_mix)

    def tile_counts(self) -> tuple[int, ...]:
        """The tile mix as a count per tile type."""
        return parse_tile_mix(self.tile_mix)
