"""Tracker components: tribes, play cards and the board (tracker §1, §2).

Play cards are numbered 0..59: card ``c`` belongs to tribe ``c // 10``; ``c % 10`` in 0..2 is a
scout, 3..9 a false track.

>>> card_name(32), card_name(17)
('S-T3-3', 'F-T1-5')
>>> parse_card("S-T3-3")
32
>>> is_scout(32), is_scout(17), tribe_of(17)
(True, False, 1)
"""

from __future__ import annotations

from typing import Final

from campfire.core import ErrorText, SetupError

__all__ = [
    "ALL_CARDS",
    "BOARD_POSITIONS",
    "CENTRE",
    "NUM_CARDS",
    "NUM_POSITIONS",
    "NUM_TRIBES",
    "POSITION_CELLS",
    "SCOUTS_PER_TRIBE",
    "TRACKERS_PER_PLAYER",
    "card_name",
    "is_enemy_scout",
    "is_scout",
    "parse_card",
    "parse_tribe",
    "tribe_name",
    "tribe_of",
]

NUM_TRIBES: Final = 6
SCOUTS_PER_TRIBE: Final = 3
FALSE_TRACKS_PER_TRIBE: Final = 7
CARDS_PER_TRIBE: Final = SCOUTS_PER_TRIBE + FALSE_TRACKS_PER_TRIBE
NUM_CARDS: Final = NUM_TRIBES * CARDS_PER_TRIBE
NUM_POSITIONS: Final = 60
#: every board position, 0–59
BOARD_POSITIONS: Final = range(NUM_POSITIONS)
TRACKERS_PER_PLAYER: Final = 3
ALL_CARDS: Final = tuple(range(NUM_CARDS))

# tracker §2 (D1): an 8 × 8 grid without its central 2 × 2 block, numbered row-major.
CENTRE: Final = frozenset({(3, 3), (3, 4), (4, 3), (4, 4)})
POSITION_CELLS: Final[tuple[tuple[int, int], ...]] = tuple(
    (r, c) for r in range(8) for c in range(8) if (r, c) not in CENTRE
)
assert len(POSITION_CELLS) == NUM_POSITIONS

_NAMES: Final = tuple(
    f"S-T{c // CARDS_PER_TRIBE}-{c % CARDS_PER_TRIBE + 1}"
    if c % CARDS_PER_TRIBE < SCOUTS_PER_TRIBE
    else f"F-T{c // CARDS_PER_TRIBE}-{c % CARDS_PER_TRIBE - SCOUTS_PER_TRIBE + 1}"
    for c in ALL_CARDS
)
_BY_NAME: Final = {name: c for c, name in enumerate(_NAMES)}


def card_name(card: int) -> str:
    """The id of a play card: ``S-<tribe>-<1..3>`` (scout) or ``F-<tribe>-<1..7>`` (false track)."""
    return _NAMES[card]


def parse_card(name: object) -> int:
    """The card number of a card id such as ``S-T3-1`` (raise :class:`SetupError`).

    The engine's own names (its events') are found as they are; other spellings (``s-t3-1``,
    spaces around) are normalised first.
    """
    if not isinstance(name, str):
        card = None
    else:
        card = _BY_NAME.get(name)
        if card is None:
            card = _BY_NAME.get(name.strip().upper())
    if card is None:
        raise SetupError(
            ErrorText(
                "unknown card {got}; cards are S-T<0-5>-<1-3> (scouts) and F-T<0-5>-<1-7> (false "
                "tracks)",
                got=repr(name),
            )
        )
    return card


def tribe_of(card: int) -> int:
    """The tribe of a card (0..5)."""
    return card // CARDS_PER_TRIBE


def is_scout(card: int) -> bool:
    """Whether a card is a scout (as opposed to a false track)."""
    return card % CARDS_PER_TRIBE < SCOUTS_PER_TRIBE


def is_enemy_scout(card: int, tribe: int) -> bool:
    """Whether a card is a scout of a tribe other than ``tribe`` (worth capturing, tracker §7)."""
    return card % CARDS_PER_TRIBE < SCOUTS_PER_TRIBE and card // CARDS_PER_TRIBE != tribe


def tribe_name(tribe: int) -> str:
    """The id of a tribe: ``T0`` .. ``T5``."""
    return f"T{tribe}"


def parse_tribe(name: object) -> int:
    """The tribe number of ``T0`` .. ``T5`` (raise :class:`SetupError`)."""
    if isinstance(name, str) and len(name) == 2 and name[0] in "Tt" and name[1] in "012345":
        return int(name[1])
    raise SetupError(
        ErrorText("unknown tribe {got}; tribes are T0, T1, T2, T3, T4, T5", got=repr(name))
    )
