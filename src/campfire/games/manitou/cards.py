"""Big Manitou components: the playable cards, the hero beat charts and the tiles (manitou §1).

Cards are numbered by *type* (the two chiefs of a deck, and the two squaws, are interchangeable):
0–9 are the hunters of strength 1–10, then the five heroes.

>>> card_name(6), card_name(CHIEF), parse_card("spy")
('h7', 'chief', 13)
>>> beats("seed_plus_1997", SPY, CHIEF), beats("manitou_1997", SPY, CHIEF)
(True, False)
>>> tile_name(TIPI + 2), parse_tile("buffalo1"), tile_value(TOTEM)
('tipi3', 0, 1)
>>> parse_tile_mix("tipi2:3, totem:1")
(0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0)
"""

from __future__ import annotations

from typing import Final

from campfire.core import ErrorText, OptionError, SetupError

__all__ = [
    "BUFFALO",
    "CARD_NAMES",
    "CHIEF",
    "FULL_POOL",
    "HEALER",
    "HERO_CHARTS",
    "HORSE",
    "MAX_BAG_TILES",
    "MAX_MULTIPLIER",
    "NUM_CARD_TYPES",
    "NUM_HUNTERS",
    "NUM_TILE_TYPES",
    "PLACEHOLDER_TILE_MIX",
    "SHAMAN",
    "SPY",
    "SQUAW",
    "TILE_NAMES",
    "TIPI",
    "TOMAHAWK",
    "TOTEM",
    "beat_table",
    "beats",
    "card_name",
    "is_hero",
    "parse_card",
    "parse_tile",
    "parse_tile_mix",
    "strength",
    "tile_mix_text",
    "tile_name",
    "tile_value",
]

# ----- cards (manitou §1.1) --------------------------------------------------------------------

NUM_HUNTERS: Final = 10
CHIEF, SQUAW, SHAMAN, SPY, HEALER = range(NUM_HUNTERS, NUM_HUNTERS + 5)
NUM_CARD_TYPES: Final = NUM_HUNTERS + 5
HERO_NAMES: Final = ("chief", "squaw", "shaman", "spy", "healer")
CARD_NAMES: Final[tuple[str, ...]] = tuple(f"h{s}" for s in range(1, NUM_HUNTERS + 1)) + HERO_NAMES
_CARD_BY_NAME: Final = {name: c for c, name in enumerate(CARD_NAMES)}
#: The 17 playable cards of a deck, as a count per card type (manitou §1.1).
FULL_POOL: Final[tuple[int, ...]] = (1,) * NUM_HUNTERS + (2, 2, 1, 1, 1)
assert sum(FULL_POOL) == 17


def card_name(card: int) -> str:
    """The notation of a card type: ``h1`` … ``h10`` (hunters) or a hero name."""
    return CARD_NAMES[card]


def parse_card(name: object) -> int:
    """The card type of a card name (raise :class:`SetupError` for an unknown name)."""
    card = _CARD_BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if card is None:
        raise SetupError(
            ErrorText(
                "unknown card {got}; cards are h1 … h10 (hunters), chief, squaw, shaman, spy, "
                "healer",
                got=repr(name),
            )
        )
    return card


def is_hero(card: int) -> bool:
    """Whether a card type is a hero (great warrior)."""
    return card >= NUM_HUNTERS


def strength(card: int) -> int:
    """The printed strength of a hunter card type (1–10)."""
    return card + 1


# ----- hero beat charts (manitou §5.3, §12 M3) -------------------------------------------------

#: Each chart lists, per attacker, the heroes it beats; exactly one direction per unordered pair.
_CHARTS: Final[dict[str, dict[int, tuple[int, ...]]]] = {
    # seed relations + the remaining pairs from the 1997 Manitou chart (default)
    "seed_plus_1997": {
        CHIEF: (SHAMAN, HEALER),
        SQUAW: (CHIEF,),
        SHAMAN: (SQUAW, SPY),
        SPY: (CHIEF, SQUAW, HEALER),
        HEALER: (SQUAW, SHAMAN),
    },
    # the exact 1997 chart: the chief beats the spy (contradicts the seed's sacrifice example)
    "manitou_1997": {
        CHIEF: (SHAMAN, HEALER, SPY),
        SQUAW: (CHIEF,),
        SHAMAN: (SQUAW, SPY),
        SPY: (SQUAW, HEALER),
        HEALER: (SQUAW, SHAMAN),
    },
    # SPY > CHIEF > HEALER > SHAMAN > SQUAW, and the squaw beats the spy
    "seed_linear": {
        SPY: (CHIEF, HEALER, SHAMAN),
        CHIEF: (HEALER, SHAMAN, SQUAW),
        HEALER: (SHAMAN, SQUAW),
        SHAMAN: (SQUAW,),
        SQUAW: (SPY,),
    },
}
HERO_CHARTS: Final[tuple[str, ...]] = tuple(_CHARTS)


def beat_table(chart: str) -> tuple[tuple[bool, ...], ...]:
    """``table[a][d]``: whether hero ``a`` beats hero ``d`` (indexed by card type)."""
    relations = _CHARTS[chart]
    return tuple(
        tuple(d in relations.get(a, ()) for d in range(NUM_CARD_TYPES))
        for a in range(NUM_CARD_TYPES)
    )


def beats(chart: str, attacker: int, defender: int) -> bool:
    """Whether hero ``attacker`` beats hero ``defender`` under ``chart``."""
    return defender in _CHARTS[chart].get(attacker, ())


# ----- tiles (manitou §1.2) --------------------------------------------------------------------

#: Buffalo and tipi tiles carry a multiplier 1 … MAX_MULTIPLIER (the seed shows 1–3).
MAX_MULTIPLIER: Final = 5
BUFFALO: Final = 0
TIPI: Final = MAX_MULTIPLIER
HORSE: Final = 2 * MAX_MULTIPLIER
TOTEM: Final = 2 * MAX_MULTIPLIER + 1
TOMAHAWK: Final = 2 * MAX_MULTIPLIER + 2
NUM_TILE_TYPES: Final = 2 * MAX_MULTIPLIER + 3
TILE_NAMES: Final[tuple[str, ...]] = (
    *(f"buffalo{m}" for m in range(1, MAX_MULTIPLIER + 1)),
    *(f"tipi{m}" for m in range(1, MAX_MULTIPLIER + 1)),
    "horse",
    "totem",
    "tomahawk",
)
_TILE_BY_NAME: Final = {name: t for t, name in enumerate(TILE_NAMES)}
_TILE_VALUES: Final = tuple(
    t % MAX_MULTIPLIER + 1 if t < HORSE else 1 for t in range(NUM_TILE_TYPES)
)

#: The most tiles a bag may hold, from a tile mix or an explicit setup (the game has 60).
MAX_BAG_TILES: Final = 1000

#: manitou §1.2 (D): the placeholder mix of the 60 tiles — UNVERIFIED, not the rules.
PLACEHOLDER_TILE_MIX: Final = (
    "buffalo1:8,buffalo2:5,buffalo3:3,tipi1:8,tipi2:5,tipi3:3,tomahawk:10,totem:9,horse:9"
)


def tile_name(tile: int) -> str:
    """The notation of a tile type: ``buffalo1`` …, ``tipi1`` …, ``horse``, ``totem``, ..."""
    return TILE_NAMES[tile]


def parse_tile(name: object) -> int:
    """The tile type of a tile name (raise :class:`SetupError` for an unknown name)."""
    tile = _TILE_BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if tile is None:
        raise SetupError(
            ErrorText(
                "unknown tile {got}; tiles are buffalo1–{most}, tipi1–{most}, horse, totem, "
                "tomahawk",
                got=repr(name),
                most=MAX_MULTIPLIER,
            )
        )
    return tile


def tile_value(tile: int) -> int:
    """The value of a tile: its multiplier (buffalo, tipi) or 1 (manitou §7, §12 M13)."""
    return _TILE_VALUES[tile]


def parse_tile_mix(text: object) -> tuple[int, ...]:
    """Read a tile mix ``name:count,...`` into a count per tile type (raise :class:`OptionError`).

    Tile types not named have count 0. Counts are written with the digits 0-9, and the bag
    holds 1 to :data:`MAX_BAG_TILES` tiles in all.
    """
    counts = [0] * NUM_TILE_TYPES
    if not isinstance(text, str) or not text.strip():
        raise OptionError(ErrorText("tile_mix must be a list such as 'buffalo1:8,tipi1:8,totem:9'"))
    for item in text.split(","):
        name, sep, count = item.partition(":")
        tile = _TILE_BY_NAME.get(name.strip().lower())
        count = count.strip()
        if not sep or tile is None or not (count.isascii() and count.isdigit()):
            raise OptionError(
                ErrorText(
                    "tile_mix entry {got} is not name:count with a count written 0-9 (names: "
                    "{names})",
                    got=repr(item.strip()[:40]),
                    names=", ".join(TILE_NAMES),
                )
            )
        if len(count) > 4 or counts[tile] + int(count) > MAX_BAG_TILES:
            raise OptionError(
                ErrorText(
                    "tile_mix holds at most {most} tiles (got {got})", most=MAX_BAG_TILES, got=count
                )
            )
        counts[tile] += int(count)
    if sum(counts) == 0:
        raise OptionError(ErrorText("tile_mix must hold at least one tile"))
    if sum(counts) > MAX_BAG_TILES:
        raise OptionError(
            ErrorText(
                "tile_mix holds at most {most} tiles (got {got})",
                most=MAX_BAG_TILES,
                got=sum(counts),
            )
        )
    return tuple(counts)


def tile_mix_text(counts: tuple[int, ...] | list[int]) -> str:
    """The ``name:count,...`` text of a count per tile type (inverse of :func:`parse_tile_mix`)."""
    return ",".join(f"{TILE_NAMES[t]}:{c}" for t, c in enumerate(counts) if c)
