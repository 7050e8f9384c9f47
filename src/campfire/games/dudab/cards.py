"""Dudab components: the cards, their attributes, faces and names (dudab §1).

Cards are numbered 0..95:

=========  ==========================================================================
ids        cards
=========  ==========================================================================
0–63       Number cards: ``colour * 16 + symbol * 4 + (value - 1)`` (dudab §1.1, D1)
64–71      Dudab ×8 (§1.2)
72–79      Shaman: ``72 + colour * 2 + copy`` (two of each colour, §1.3)
80–87      Jungle ×8 (expansion 1, §1.4)
88–95      Baby ×8 (expansion 2, §1.5)
=========  ==========================================================================

Copies of a Dudab, of a Shaman colour, of a Jungle or of a Baby play identically, so actions and
views name a card by its **face** (``red/fur/3``, ``dudab``, ``shaman/red``, ``jungle``, ``baby``);
setups and positions name the physical card (``N-red-fur-3``, ``DUDAB-1``, ``SHAMAN-red-2``, ...).

>>> card_name(number_card(1, 3, 3)), face_name(FACE[number_card(1, 3, 3)])
('N-red-fur-3', 'red/fur/3')
>>> parse_card("SHAMAN-green-2"), face_name(FACE[79])
(79, 'shaman/green')
>>> parse_face("dudab"), parse_face("yellow/club/1")
(64, 40)
"""

from __future__ import annotations

from typing import Final

from campfire.core import ErrorText, NotationError, SetupError

__all__ = [
    "BABY",
    "CALL_NAMES",
    "COLOUR",
    "COLOURS",
    "DUDAB",
    "FACE",
    "FACE_BABY",
    "FACE_DUDAB",
    "FACE_JUNGLE",
    "FACE_SHAMAN",
    "HAND_FACES",
    "JUNGLE",
    "KIND",
    "MATCH",
    "NUMBER",
    "NUMBER_FITS",
    "NUM_CARDS",
    "SHAMAN",
    "SHARES",
    "SYMBOL",
    "SYMBOLS",
    "VALUE",
    "card_name",
    "cards_in_use",
    "face_name",
    "is_number_face",
    "number_card",
    "parse_call",
    "parse_card",
    "parse_face",
]

COLOURS: Final = ("blue", "red", "yellow", "green")
SYMBOLS: Final = ("hand", "mammoth", "club", "fur")

NUM_CARDS: Final = 96
# card kinds
NUMBER: Final = 0
DUDAB: Final = 1
SHAMAN: Final = 2
JUNGLE: Final = 3
BABY: Final = 4
KIND_NAMES: Final = ("number", "dudab", "shaman", "jungle", "baby")

# faces: 0..63 Number cards, 64 Dudab, 65..68 Shaman by colour, 69 Jungle, 70 Baby
FACE_DUDAB: Final = 64
FACE_SHAMAN: Final = 65
FACE_JUNGLE: Final = 69
FACE_BABY: Final = 70
#: the faces a card in hand can have during play (Jungle and Baby never stay in a hand)
HAND_FACES: Final = 69


def is_number_face(face: int) -> bool:
    """Whether a face is a Number card's (0–63), as opposed to a Dudab, Shaman, Jungle, Baby."""
    return face < FACE_DUDAB


def number_card(colour: int, symbol: int, value: int) -> int:
    """The id of the Number card with the given colour (0–3), symbol (0–3) and value (1–4)."""
    return colour * 16 + symbol * 4 + (value - 1)


def _kind(card: int) -> int:
    if card < 64:
        return NUMBER
    if card < 72:
        return DUDAB
    if card < 80:
        return SHAMAN
    if card < 88:
        return JUNGLE
    return BABY


KIND: Final[tuple[int, ...]] = tuple(_kind(c) for c in range(NUM_CARDS))
#: colour of a Number card or a Shaman (-1 otherwise)
COLOUR: Final[tuple[int, ...]] = tuple(
    c // 16 if c < 64 else (c - 72) // 2 if 72 <= c < 80 else -1 for c in range(NUM_CARDS)
)
#: symbol of a Number card (-1 otherwise)
SYMBOL: Final[tuple[int, ...]] = tuple((c // 4) % 4 if c < 64 else -1 for c in range(NUM_CARDS))
#: value of a Number card (0 otherwise)
VALUE: Final[tuple[int, ...]] = tuple(c % 4 + 1 if c < 64 else 0 for c in range(NUM_CARDS))


def _face(card: int) -> int:
    kind = KIND[card]
    if kind == NUMBER:
        return card
    if kind == DUDAB:
        return FACE_DUDAB
    if kind == SHAMAN:
        return FACE_SHAMAN + COLOUR[card]
    return FACE_JUNGLE if kind == JUNGLE else FACE_BABY


FACE: Final[tuple[int, ...]] = tuple(_face(c) for c in range(NUM_CARDS))

# dudab §4.1: a Number card X fits on a Number card T when the values differ by exactly one and
# both the colours and the symbols differ.
NUMBER_FITS: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(
        abs(VALUE[x] - VALUE[t]) == 1 and COLOUR[x] != COLOUR[t] and SYMBOL[x] != SYMBOL[t]
        for t in range(64)
    )
    for x in range(64)
)
# dudab §4.2: mirror condition between Number cards: at least one attribute in common
SHARES: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(
        VALUE[x] == VALUE[t] or COLOUR[x] == COLOUR[t] or SYMBOL[x] == SYMBOL[t] for t in range(64)
    )
    for x in range(64)
)

#: calls 1..12 (0 = no call): colours 1–4, symbols 5–8, values 9–12 (dudab §3)
CALL_NAMES: Final = ("", *COLOURS, *SYMBOLS, "1", "2", "3", "4")


def _matches(call: int, card: int) -> bool:
    # dudab §3: a Number card with the called attribute value, or a Shaman of a called colour
    kind = KIND[card]
    if call <= 0:
        return False
    if call <= 4:
        return kind in (NUMBER, SHAMAN) and COLOUR[card] == call - 1
    if kind != NUMBER:
        return False
    if call <= 8:
        return SYMBOL[card] == call - 5
    return VALUE[card] == call - 8


#: ``MATCH[call][card]``: whether ``card`` matches ``call`` (dudab §3)
MATCH: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(_matches(call, c) for c in range(NUM_CARDS)) for call in range(13)
)


def card_name(card: int) -> str:
    """The id of a physical card, e.g. ``N-red-fur-3``, ``DUDAB-1``, ``SHAMAN-red-2``."""
    kind = KIND[card]
    if kind == NUMBER:
        return f"N-{COLOURS[COLOUR[card]]}-{SYMBOLS[SYMBOL[card]]}-{VALUE[card]}"
    if kind == DUDAB:
        return f"DUDAB-{card - 63}"
    if kind == SHAMAN:
        return f"SHAMAN-{COLOURS[COLOUR[card]]}-{(card - 72) % 2 + 1}"
    if kind == JUNGLE:
        return f"JUNGLE-{card - 79}"
    return f"BABY-{card - 87}"


_BY_NAME: Final = {card_name(c).lower(): c for c in range(NUM_CARDS)}


def parse_card(name: object) -> int:
    """The card with id ``name`` (raise :class:`SetupError` with the allowed forms)."""
    card = _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if card is None:
        raise SetupError(
            ErrorText(
                "unknown card {name}; cards are N-<colour>-<symbol>-<value> (e.g. "
                "N-red-fur-3), DUDAB-1..8, SHAMAN-<colour>-1..2, JUNGLE-1..8, BABY-1..8",
                name=repr(name),
            )
        )
    return card


def face_name(face: int) -> str:
    """The notation of a face: ``red/fur/3``, ``dudab``, ``shaman/red``, ``jungle``, ``baby``."""
    if face < 64:
        return f"{COLOURS[COLOUR[face]]}/{SYMBOLS[SYMBOL[face]]}/{VALUE[face]}"
    if face == FACE_DUDAB:
        return "dudab"
    if face < FACE_JUNGLE:
        return f"shaman/{COLOURS[face - FACE_SHAMAN]}"
    return "jungle" if face == FACE_JUNGLE else "baby"


FACE_NAMES: Final[tuple[str, ...]] = tuple(face_name(f) for f in range(FACE_BABY + 1))
_FACE_BY_NAME: Final = {name: f for f, name in enumerate(FACE_NAMES)}


def parse_face(text: str) -> int:
    """The face written ``text`` (raise :class:`NotationError`).

    The engine's own names (its events') are found as they are; other spellings (``Red/Fur/3``,
    spaces around) are normalised first.
    """
    face = _FACE_BY_NAME.get(text)
    if face is None:
        face = _FACE_BY_NAME.get(text.strip().lower())
    if face is None:
        raise NotationError(
            ErrorText(
                "unknown card {got}; write <colour>/<symbol>/<value> (e.g. red/fur/3), dudab or "
                "shaman/<colour>",
                got=repr(text),
            )
        )
    return face


_CALL_BY_NAME: Final = {name: i for i, name in enumerate(CALL_NAMES) if name}


def parse_call(text: str) -> int:
    """The call written ``text`` (a colour, a symbol or a value 1–4)."""
    call = _CALL_BY_NAME.get(text.strip().lower())
    if call is None:
        raise NotationError(
            ErrorText(
                "unknown call {got}; a call is a colour ({colours}), a symbol ({symbols}) or a "
                "value (1–4)",
                got=repr(text),
                colours=", ".join(COLOURS),
                symbols=", ".join(SYMBOLS),
            )
        )
    return call


def cards_in_use(use_jungle: bool, use_baby: bool) -> list[int]:
    """The ids of the deck in use (dudab §1.6): 80, 88 or 96 cards."""
    cards = list(range(80))
    if use_jungle:
        cards.extend(range(80, 88))
    if use_baby:
        cards.extend(range(88, 96))
    return cards
