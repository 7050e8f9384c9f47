"""Apache components: colours, Indian types, prairie cards and the deck (apache §1).

A prairie card is a *kind* number 0..24 (identical cards share a kind):

* Indian cards ``colour * 4 + type`` (0..19), colours red, yellow, purple, green, blue
  (0..4) and types chief, maiden, warrior, hunter (0..3);
* booty cards ``20 + type`` for the booty a type claims (totem, necklace, tomahawk, buffalo),
  and 24 for the teepee, which every type may claim.

>>> card_name(indian(RED, HUNTER)), card_name(BUFFALO), card_name(booty_of(CHIEF))
('red-hunter', 'buffalo', 'totem')
>>> parse_card("Green-Warrior") == parse_card("GW") == indian(GREEN, WARRIOR)
True
>>> len(PRAIRIE_DECK), sum(1 for k in PRAIRIE_DECK if is_indian(k))
(114, 45)
"""

from __future__ import annotations

from typing import Final

from campfire.core import ErrorText, SetupError

from .types import TypeName

__all__ = [
    "BLUE",
    "BOOTY_KINDS",
    "BUFFALO",
    "CHIEF",
    "COLOURS",
    "COLOUR_CODES",
    "DECK_COUNTS",
    "GREEN",
    "HUNTER",
    "KIND_NAMES",
    "MAIDEN",
    "NECKLACE",
    "NUM_COLOURS",
    "NUM_KINDS",
    "NUM_TYPES",
    "PRAIRIE_DECK",
    "PURPLE",
    "RED",
    "TEEPEE",
    "TOMAHAWK",
    "TOTEM",
    "TYPES",
    "TYPE_CODES",
    "WARRIOR",
    "YELLOW",
    "booty_of",
    "card_name",
    "colour_of",
    "indian",
    "is_indian",
    "is_male",
    "parse_card",
    "parse_colour",
    "parse_type",
    "type_of",
]

# apache §1.1 (P16): the five colours of the seed's examples
COLOURS: Final = ("red", "yellow", "purple", "green", "blue")
COLOUR_CODES: Final = ("R", "Y", "P", "G", "B")
RED: Final = 0
YELLOW: Final = 1
PURPLE: Final = 2
GREEN: Final = 3
BLUE: Final = 4
NUM_COLOURS: Final = 5

# apache §1.1: the four types of Indians (the four hand cards of a colour)
TYPES: Final[tuple[TypeName, ...]] = ("chief", "maiden", "warrior", "hunter")
TYPE_CODES: Final = ("C", "M", "W", "H")
CHIEF: Final = 0
MAIDEN: Final = 1
WARRIOR: Final = 2
HUNTER: Final = 3
NUM_TYPES: Final = 4

# apache §1.4 (P2): the normal booty of each type is kind 20 + type; teepees for every type
TOTEM: Final = 20
NECKLACE: Final = 21
TOMAHAWK: Final = 22
BUFFALO: Final = 23
TEEPEE: Final = 24
BOOTY_KINDS: Final = (TOTEM, NECKLACE, TOMAHAWK, BUFFALO, TEEPEE)
NUM_KINDS: Final = 25

KIND_NAMES: Final[tuple[str, ...]] = (
    *(f"{COLOURS[k // 4]}-{TYPES[k % 4]}" for k in range(20)),
    "totem",
    "necklace",
    "tomahawk",
    "buffalo",
    "teepee",
)

# apache §1.2: 114 prairie cards — per colour 2 chiefs, 2 maidens, 2 warriors, 3 hunters;
# 33 buffalo and 9 of each other booty card.
_PER_COLOUR: Final = {CHIEF: 2, MAIDEN: 2, WARRIOR: 2, HUNTER: 3}
DECK_COUNTS: Final[tuple[int, ...]] = (
    *(_PER_COLOUR[k % 4] for k in range(20)),
    9,  # totem
    9,  # necklace
    9,  # tomahawk
    33,  # buffalo
    9,  # teepee
)
#: The 114 prairie cards in a canonical (unshuffled) order.
PRAIRIE_DECK: Final[tuple[int, ...]] = tuple(
    k for k in range(NUM_KINDS) for _ in range(DECK_COUNTS[k])
)
assert len(PRAIRIE_DECK) == 114

_BY_NAME: Final[dict[str, int]] = {name: k for k, name in enumerate(KIND_NAMES)}
for _k in range(20):
    _BY_NAME[(COLOUR_CODES[_k // 4] + TYPE_CODES[_k % 4]).lower()] = _k
_BY_NAME["totem-pole"] = TOTEM
_BY_NAME["tent"] = TEEPEE


def indian(colour: int, type_: int) -> int:
    """The kind of the Indian card of ``colour`` and ``type_``."""
    return colour * 4 + type_


def is_indian(kind: int) -> bool:
    """Whether a kind is an Indian card (as opposed to a booty card)."""
    return kind < 20


def colour_of(kind: int) -> int:
    """The colour of an Indian card."""
    return kind >> 2


def type_of(kind: int) -> int:
    """The type of an Indian card."""
    return kind & 3


def is_male(kind: int) -> bool:
    """Whether an Indian card is a hunter or a warrior (a Chief's possible prisoner, §4)."""
    return kind < 20 and (kind & 3) >= WARRIOR


def booty_of(type_: int) -> int:
    """The normal booty kind that a played type claims (apache §1.4)."""
    return 20 + type_


def card_name(kind: int) -> str:
    """The id of a prairie card kind: ``red-hunter``, ``buffalo``, ``teepee``, ..."""
    return KIND_NAMES[kind]


def parse_card(name: object, error: type[ValueError] = SetupError) -> int:
    """The kind of a card id such as ``red-hunter`` (or ``RH``), ``buffalo``, ``teepee``."""
    kind = _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if kind is None:
        raise error(
            ErrorText(
                "unknown card {got}; cards are <colour>-<type> (colours {colours}; types "
                "{types}), totem, necklace, tomahawk, buffalo, teepee",
                got=repr(name),
                colours=", ".join(COLOURS),
                types=", ".join(TYPES),
            )
        )
    return kind


def parse_colour(name: object, error: type[ValueError] = SetupError) -> int:
    """The number of a colour name (``red`` .. ``blue``, or its letter)."""
    if isinstance(name, str):
        key = name.strip().lower()
        if key in COLOURS:
            return COLOURS.index(key)
        if key.upper() in COLOUR_CODES and len(key) == 1:
            return COLOUR_CODES.index(key.upper())
    raise error(
        ErrorText(
            "unknown colour {got}; colours are {colours}",
            got=repr(name),
            colours=", ".join(COLOURS),
        )
    )


def parse_type(name: object, error: type[ValueError] = SetupError) -> int:
    """The number of a type name (``chief``, ``maiden``, ``warrior``, ``hunter``, or its letter)."""
    if isinstance(name, str):
        key = name.strip().lower()
        if key in TYPES:
            return TYPES.index(key)
        if len(key) == 1 and key.upper() in TYPE_CODES:
            return TYPE_CODES.index(key.upper())
    raise error(
        ErrorText(
            "unknown Indian type {got}; types are {types}", got=repr(name), types=", ".join(TYPES)
        )
    )
