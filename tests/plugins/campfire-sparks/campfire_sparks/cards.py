"""Sparks components: 27 cards in three suits of nine ranks (sparks rules §2).

Cards are numbered 0..26: card ``c`` has the suit ``c // 9`` (0 red, 1 blue, 2 green) and the
rank ``c % 9 + 1``. A card is written with its suit's letter and its rank.

>>> card_name(0), card_name(16), card_name(26)
('R1', 'B8', 'G9')
>>> parse_card("b8"), suit_of(16), rank_of(16)
(16, 1, 8)
"""

from __future__ import annotations

from campfire.core import ErrorText, SetupError

__all__ = [
    "ALL_CARDS",
    "NUM_CARDS",
    "NUM_RANKS",
    "NUM_SUITS",
    "SUIT_LETTERS",
    "SUIT_NAMES",
    "TRUMP",
    "card_name",
    "parse_card",
    "rank_of",
    "suit_of",
    "suit_text",
]

NUM_SUITS = 3
NUM_RANKS = 9
NUM_CARDS = NUM_SUITS * NUM_RANKS
ALL_CARDS = tuple(range(NUM_CARDS))
#: the suits' names (their colours) and the letters that write them
SUIT_NAMES = ("red", "blue", "green")
SUIT_LETTERS = ("R", "B", "G")
#: the trump suit of the ``trumps`` variant (sparks rules §6): red, the flames
TRUMP = 0

_NAMES = tuple(f"{SUIT_LETTERS[c // NUM_RANKS]}{c % NUM_RANKS + 1}" for c in ALL_CARDS)
_BY_NAME = {name: c for c, name in enumerate(_NAMES)}


def card_name(card: int) -> str:
    """The name of a card: its suit's letter and its rank (``R1`` … ``G9``)."""
    return _NAMES[card]


def parse_card(name: object) -> int:
    """The number of a card name such as ``R7`` (raise :class:`SetupError`)."""
    card = _BY_NAME.get(name.strip().upper()) if isinstance(name, str) else None
    if card is None:
        raise SetupError(
            ErrorText("unknown card {got}; cards are R1–R9, B1–B9 and G1–G9", got=repr(name)[:40])
        )
    return card


def suit_of(card: int) -> int:
    """The suit of a card (0 red, 1 blue, 2 green)."""
    return card // NUM_RANKS


def rank_of(card: int) -> int:
    """The rank of a card (1–9)."""
    return card % NUM_RANKS + 1


def suit_text(suit: int) -> ErrorText:
    """A suit's name as a word of an error message (translated at the edge: ``sparks.suit.*``)."""
    return _SUIT_TEXTS[suit]


_SUIT_TEXTS = (
    ErrorText("red", context="sparks.suit.red"),
    ErrorText("blue", context="sparks.suit.blue"),
    ErrorText("green", context="sparks.suit.green"),
)
