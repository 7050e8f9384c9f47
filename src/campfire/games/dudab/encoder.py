"""Dudab's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar, Final, cast

from campfire.core import Belief
from campfire.core.encoding import Encoder, Part, Vector, count_into, float_counts

from . import state as dudab_state
from .cards import CALL_NAMES as DUDAB_CALL_NAMES
from .cards import COLOURS as DUDAB_COLOURS
from .cards import FACE as DUDAB_FACE_OF_CARD
from .cards import FACE_NAMES as DUDAB_FACE_NAMES
from .cards import SYMBOLS as DUDAB_SYMBOLS
from .state import PROMPTS as DUDAB_PROMPTS
from .state import DudabState

__all__ = ["DudabEncoder"]

_DUDAB_COLOURS: Final = DUDAB_COLOURS
_DUDAB_SYMBOLS: Final = DUDAB_SYMBOLS
_DUDAB_CALLS: Final = (*_DUDAB_COLOURS, *_DUDAB_SYMBOLS, "1", "2", "3", "4")
_DUDAB_PROMPTS: Final = DUDAB_PROMPTS
_DUDAB_FACES: Final = 71  # 64 numbers, dudab, 4 shamans, jungle, baby
_MAX_PLAYERS: Final = 6
_MAX_COLUMNS: Final = 3

#: no cards (a seat keeps none, no hand is revealed): what a new row shows (never changed)
_NO_CARDS: Final[list[int]] = []
#: the width of a column's values: visible cards, Jungle, cards above it, heap, by face, top
_COLUMN: Final = 4 + 2 * _DUDAB_FACES


def _dudab_face(face: str) -> int:
    """Face number: Number cards colour·16 + symbol·4 + value − 1, Dudab 64, Shamans 65–68."""
    if face == "dudab":
        return 64
    if face == "jungle":
        return 69
    if face == "baby":
        return 70
    first, _, rest = face.partition("/")
    if first == "shaman":
        return 65 + _DUDAB_COLOURS.index(rest)
    symbol, _, value = rest.partition("/")
    return _DUDAB_COLOURS.index(first) * 16 + _DUDAB_SYMBOLS.index(symbol) * 4 + int(value) - 1


_DUDAB_PROMPT: Final = {name: i for i, name in enumerate(_DUDAB_PROMPTS)}
#: every face name's number (see :func:`_dudab_face`)
_DUDAB_FACE: Final = {
    name: _dudab_face(name)
    for name in (
        *(
            f"{colour}/{symbol}/{value}"
            for colour in _DUDAB_COLOURS
            for symbol in _DUDAB_SYMBOLS
            for value in range(1, 5)
        ),
        "dudab",
        *(f"shaman/{colour}" for colour in _DUDAB_COLOURS),
        "jungle",
        "baby",
    )
}
assert sorted(_DUDAB_FACE.values()) == list(range(_DUDAB_FACES))
# the engine's numbers (cards, calls) as encoder slots: a card's face, a call's one-hot
_DUDAB_CARD_SLOT: Final = tuple(_DUDAB_FACE[DUDAB_FACE_NAMES[f]] for f in DUDAB_FACE_OF_CARD)
_DUDAB_CALL_SLOT: Final = tuple(
    _DUDAB_CALLS.index(name) if name else -1 for name in DUDAB_CALL_NAMES
)


@lru_cache(maxsize=4096)
def _face_counts(cards: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``(face, count)`` of Dudab's discard pile or a seat's pile, once per distinct pile.

    Both are long and change seldom (a discard, a capture).
    """
    return float_counts([_DUDAB_CARD_SLOT[card] for card in cards])


class _Row(Part):
    """The memo of a kept Dudab row (:meth:`DudabEncoder._update_row`): what it shows.

    The offsets of the one-hot values it set (``-1``: none, as in the blank): the seat to act,
    the prompt, the actor, the round's start player, the obligation's kind, column and call,
    each column's top card, the revealed hand's seat. The numbers it shows: the round
    (``-1``: not written yet) and the draw pile's size; per column the cards above its Jungle
    (``-1``: no Jungle) and its heap's size; per seat the hand size, the pile size and how
    many rounds its total has. Copies of the lists of cards it shows by face: per column its
    visible cards, the seat's hand, kept cards and pile, a revealed hand, the discard pile.
    :meth:`reset` makes it a new one's again, for a row put back to the blank.
    """

    def reset(self) -> None:
        """Show the blank (a new row, or one put back to the blank)."""
        self.acting = self.prompt_at = self.actor_at = self.start_at = -1
        self.kind_at = self.column_at = self.call_at = self.revealed_at = -1
        self.round = -1
        self.draw = 0
        self.above = [-1] * _MAX_COLUMNS
        self.heaps = [0] * _MAX_COLUMNS
        self.tops = [-1] * _MAX_COLUMNS
        self.columns: list[list[int]] = [[] for _ in range(_MAX_COLUMNS)]
        self.hand: list[int] = []
        self.kept: list[int] = []
        self.revealed: list[int] = []
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.sizes = [0] * _MAX_PLAYERS
        self.pile_sizes = [0] * _MAX_PLAYERS
        self.rounds = [0] * _MAX_PLAYERS


class DudabEncoder(Encoder):
    """Dudab: columns, the discard pile, the obligation, counts and the seat's own cards."""

    game = "dudab"
    max_players = _MAX_PLAYERS
    state_class = DudabState
    F: ClassVar[int] = _DUDAB_FACES

    def _build(self) -> None:
        f, p = self.F, self.max_players
        faces = (
            "faces: Number cards colour·16 + symbol·4 + value − 1 (colours blue, red, yellow, "
            "green; symbols hand, mammoth, club, fur), 64 Dudab, 65–68 Shamans (blue, red, "
            "yellow, green), 69 Jungle, 70 Baby"
        )
        self._common()
        self._o_prompt = self._add(
            "prompt",
            (len(_DUDAB_PROMPTS),),
            "one-hot: " + ", ".join(_DUDAB_PROMPTS),
        )
        self._o_seats = self._add(
            "actor_starter", (2, p), "one-hot relative seats: the actor, the round's start player"
        )
        self._o_progress = self._add("progress", (2,), "round / rounds, draw pile / 96")
        self._o_obligation = self._add(
            "obligation",
            (3 + 3 + 12,),
            "kind one-hot (none, shaman_reaction, call), its column one-hot (3), the call "
            "one-hot (blue, red, yellow, green, hand, mammoth, club, fur, 1, 2, 3, 4)",
        )
        self._o_columns = self._add(
            "columns",
            (3, 4 + 2 * f),
            f"per column: visible cards / 6, Jungle (0/1), cards above the Jungle / 6, buried "
            f"heap / 10, then the visible cards by face, then the top card one-hot; {faces}",
        )
        self._o_discard = self._add("discard", (f,), "discard pile by face / 4")
        self._o_counts = self._add(
            "counts", (3, p), "per relative seat: hand size / 10, own pile / 30, total / 100"
        )
        self._o_own = self._add(
            "own_cards", (3, f), "the seat's own hand, own pile and kept cards by face"
        )
        self._o_revealed = self._add(
            "revealed",
            (p + f,),
            "a revealed five-card hand waiting for its pile choice: one-hot relative seat, faces",
        )

    def _encode(
        self, view: Mapping[str, Any], belief: Belief | None, out: Vector, seat: int
    ) -> None:
        f, p, n = self.F, self.max_players, self.players
        face = _DUDAB_FACE.__getitem__
        out[self._o_prompt + _DUDAB_PROMPT[view["prompt"]]] = 1.0
        if view["actor"] is not None:
            out[self._o_seats + (view["actor"] - seat) % n] = 1.0
        out[self._o_seats + p + (view["round_start_player"] - seat) % n] = 1.0
        out[self._o_progress] = view["round"] / view["rounds"]
        out[self._o_progress + 1] = view["draw_pile"] / 96
        ob = view["obligation"]
        o = self._o_obligation
        if ob is None:
            out[o] = 1.0
        else:
            out[o + (1 if ob["kind"] == "shaman_reaction" else 2)] = 1.0
            out[o + 3 + ob["column"] - 1] = 1.0
            if ob.get("call") is not None:
                out[o + 6 + _DUDAB_CALLS.index(str(ob["call"]))] = 1.0
        # the cards by face (columns, own cards, a revealed hand) are counted here first, then
        # written once
        counts: dict[int, int] = {}
        get = counts.get
        width = 4 + 2 * f
        for k, column in enumerate(view["columns"]):
            base = self._o_columns + k * width
            cards = column["cards"]
            out[base + 1] = 1.0 if column["jungle"] else 0.0
            if column["above"]:
                out[base + 2] = column["above"] / 6
            if column["heap"]:
                out[base + 3] = column["heap"] / 10
            if cards:
                out[base] = len(cards) / 6
                for card in cards:
                    i = base + 4 + face(card)
                    counts[i] = get(i, 0) + 1
                out[base + 4 + f + face(cards[-1])] = 1.0
        o = self._o_own
        for k, key in enumerate(("hand", "pile", "kept")):
            base = o + k * f
            for card in view.get(key, ()):
                i = base + face(card)
                counts[i] = get(i, 0) + 1
        revealed = view["revealed"]
        if revealed is not None:
            out[self._o_revealed + (revealed["seat"] - seat) % n] = 1.0
            base = self._o_revealed + p
            for card in revealed["cards"]:
                i = base + face(card)
                counts[i] = get(i, 0) + 1
        for i, count in counts.items():
            out[i] = count
        if view["discard"]:
            count_into(out, self._o_discard, map(face, view["discard"]), 0.25)
        o = self._o_counts
        for i, (key, scale) in enumerate((("hand_sizes", 10), ("pile_sizes", 30), ("totals", 100))):
            base = o + i * p
            for s, value in enumerate(view[key]):
                if value:
                    out[base + (s - seat) % n] = value / scale

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        # the fields DudabState.view builds the keys read by _encode from; of the hands only
        # their sizes, the seat's own hand, pile and kept cards, and a revealed hand
        st = cast(DudabState, state)
        n, o = self.players, self._o_obligation
        out[self._o_prompt + _DUDAB_PROMPT[st.prompt()]] = 1.0
        if st.phase != dudab_state.OVER:
            out[self._o_seats + (st.actor - seat) % n] = 1.0
        out[self._o_seats + _MAX_PLAYERS + (st.round_start_player() - seat) % n] = 1.0
        for i in _obligation_at(o, st.ob, st.ob_col, st.ob_call):
            if i >= 0:
                out[i] = 1.0
        out[self._o_progress] = (st.round + 1) / n
        out[self._o_progress + 1] = len(st.draw) / 96
        above, heap, vis = st.above, st.heap, st.vis
        for k in range(st.ncols):
            base = self._o_columns + k * _COLUMN
            if above[k] >= 0:
                out[base + 1] = 1.0
                if above[k]:
                    out[base + 2] = above[k] / 6
            if heap[k]:
                out[base + 3] = len(heap[k]) / 10
            cards = vis[k]
            if cards:
                out[base] = len(cards) / 6
                out[base + 4 + _DUDAB_FACES + _DUDAB_CARD_SLOT[cards[-1]]] = 1.0
                _put_cards(out, base + 4, cards)
        o = self._o_own
        hands = st.hands
        capturer = _capturer(st)
        _put_cards(out, o, hands[seat])
        if seat == capturer:
            _put_cards(out, o + 2 * _DUDAB_FACES, st.kept)
        revealed = st.revealed
        if revealed >= 0:
            out[self._o_revealed + (revealed - seat) % n] = 1.0
            _put_cards(out, self._o_revealed + _MAX_PLAYERS, hands[revealed])
        if st.piles[seat]:
            _put_pile(out, o + _DUDAB_FACES, st.piles[seat], 1.0)
        if st.discard:
            _put_pile(out, self._o_discard, st.discard, 0.25)
        o = self._o_counts
        kept = len(st.kept)
        scores = st.scores
        for s in range(n):
            r = (s - seat) % n
            size = len(hands[s]) + (kept if s == capturer else 0)
            if size:
                out[o + r] = size / 10
            if st.piles[s]:
                out[o + _MAX_PLAYERS + r] = len(st.piles[s]) / 30
            total = sum(scores[s])
            if total:
                out[o + 2 * _MAX_PLAYERS + r] = total / 100

    # ----- a kept row (Encoder._update_row), with its own memo -------------------------------

    #: a kept row is brought up to date with only what changed (:meth:`_update_row`,
    #: one :class:`_Row` as its memo)
    incremental = True
    row_class = _Row

    def _update_row(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], part: Part
    ) -> None:
        """Bring a kept row up to date: only what changed since it was last written.

        The memo is one :class:`_Row`, which holds what the row shows as ints and lists (a
        move changes a handful of the row's 871 values). One-hot values (the
        seat to act, the prompt, the actor, the round's start player, the obligation's kind,
        column and call, each column's top card, the revealed hand's seat) are kept as the
        offset set, moved when it changes; the progress, each column's Jungle and heap and
        every seat's counts as the numbers shown, written where they changed; each list of
        cards shown by face (the columns, the seat's hand, kept cards and pile, a revealed
        hand, the discard pile) as a copy of the list, and where a list changed only the faces
        of the cards between the parts it shares with the copy at its start and at its end
        are counted again and written
        (:meth:`~campfire.core.encoding.Encoder._show_counts`: a card placed, drawn or given up
        is one face or two).

        Every value is written through an offset and a float that are Python objects already
        (:attr:`~campfire.core.encoding.Encoder._box`): where compiled, an int above 256 or a
        float constant is made into a new object at every write.
        """
        st = cast(DudabState, state)
        row = cast(_Row, part)
        n = self.players
        cells: Any = out  # written through boxed offsets and values (see _box)
        box = self._box
        over = st.phase == dudab_state.OVER
        # the seat to act, the prompt, the actor, the round's start player, the obligation
        at = -1 if over else self._o_to_act + (st.to_act() - seat) % n
        if at != row.acting:
            row.acting = self._move(cells, row.acting, at)
        at = self._o_prompt + _DUDAB_PROMPT[st.prompt()]
        if at != row.prompt_at:
            row.prompt_at = self._move(cells, row.prompt_at, at)
        o = self._o_seats
        at = -1 if over else o + (st.actor - seat) % n
        if at != row.actor_at:
            row.actor_at = self._move(cells, row.actor_at, at)
        at = o + _MAX_PLAYERS + (st.round_start_player() - seat) % n
        if at != row.start_at:
            row.start_at = self._move(cells, row.start_at, at)
        kind, column, call = _obligation_at(self._o_obligation, st.ob, st.ob_col, st.ob_call)
        if kind != row.kind_at:
            row.kind_at = self._move(cells, row.kind_at, kind)
        if column != row.column_at:
            row.column_at = self._move(cells, row.column_at, column)
        if call != row.call_at:
            row.call_at = self._move(cells, row.call_at, call)
        # the progress
        o = self._o_progress
        if st.round != row.round:
            cells[box[o]] = (st.round + 1) / n
            row.round = st.round
        size = len(st.draw)
        if size != row.draw:
            cells[box[o + 1]] = size / 96
            row.draw = size
        # the columns: each one's Jungle, heap and visible cards
        above, heap, vis = st.above, st.heap, st.vis
        for k in range(st.ncols):
            base = self._o_columns + k * _COLUMN
            number = above[k]
            if number != row.above[k]:
                cells[box[base + 1]] = self._one if number >= 0 else self._zero
                cells[box[base + 2]] = number / 6 if number > 0 else self._zero
                row.above[k] = number
            size = len(heap[k])
            if size != row.heaps[k]:
                cells[box[base + 3]] = size / 10
                row.heaps[k] = size
            cards = vis[k]
            shown = row.columns[k]
            if len(cards) != len(shown) or cards != shown:
                cells[box[base]] = len(cards) / 6
                at = base + 4 + _DUDAB_FACES + _DUDAB_CARD_SLOT[cards[-1]] if cards else -1
                if at != row.tops[k]:
                    row.tops[k] = self._move(cells, row.tops[k], at)
                self._show_counts(cells, base + 4, shown, cards, _DUDAB_CARD_SLOT, 1.0)
                row.columns[k] = cards.copy()
        # the seat's own hand, kept cards and pile, a revealed hand, the discard pile
        o = self._o_own
        hands = st.hands
        cards = hands[seat]
        if len(cards) != len(row.hand) or cards != row.hand:
            self._show_counts(cells, o, row.hand, cards, _DUDAB_CARD_SLOT, 1.0)
            row.hand = cards.copy()
        capturer = _capturer(st)
        cards = st.kept if seat == capturer else _NO_CARDS
        if len(cards) != len(row.kept) or cards != row.kept:
            self._show_counts(cells, o + 2 * _DUDAB_FACES, row.kept, cards, _DUDAB_CARD_SLOT, 1.0)
            row.kept = cards.copy()
        revealed = st.revealed
        at = -1 if revealed < 0 else self._o_revealed + (revealed - seat) % n
        if at != row.revealed_at:
            row.revealed_at = self._move(cells, row.revealed_at, at)
        cards = _NO_CARDS if revealed < 0 else hands[revealed]
        if len(cards) != len(row.revealed) or cards != row.revealed:
            self._show_counts(
                cells, self._o_revealed + _MAX_PLAYERS, row.revealed, cards, _DUDAB_CARD_SLOT, 1.0
            )
            row.revealed = cards.copy()
        piles = st.piles
        cards = piles[seat]
        if len(cards) != len(row.pile) or cards != row.pile:
            self._show_counts(cells, o + _DUDAB_FACES, row.pile, cards, _DUDAB_CARD_SLOT, 1.0)
            row.pile = cards.copy()
        cards = st.discard
        if len(cards) != len(row.discard) or cards != row.discard:
            self._show_counts(cells, self._o_discard, row.discard, cards, _DUDAB_CARD_SLOT, 4.0)
            row.discard = cards.copy()
        # every seat's hand size (the capturer's kept cards in it), pile size and total; the
        # scores are only ever added to (a round's at its end), so a total changes with their
        # number
        o = self._o_counts
        kept = len(st.kept)
        scores = st.scores
        sizes, pile_sizes, rounds = row.sizes, row.pile_sizes, row.rounds
        for s in range(n):
            r = (s - seat) % n
            size = len(hands[s]) + (kept if s == capturer else 0)
            if size != sizes[s]:
                cells[box[o + r]] = size / 10
                sizes[s] = size
            size = len(piles[s])
            if size != pile_sizes[s]:
                cells[box[o + _MAX_PLAYERS + r]] = size / 30
                pile_sizes[s] = size
            size = len(scores[s])
            if size != rounds[s]:
                cells[box[o + 2 * _MAX_PLAYERS + r]] = sum(scores[s]) / 100
                rounds[s] = size


def _obligation_at(o: int, ob: int, col: int, call: int) -> tuple[int, int, int]:
    """The obligation's one-hot offsets from ``o``: its kind, column and call (``-1``: none).

    ``ob``, ``col`` and ``call`` are the state's ``ob``, ``ob_col`` and ``ob_call``.

    >>> _obligation_at(100, dudab_state.OB_NONE, -1, 0)
    (100, -1, -1)
    """
    if ob == dudab_state.OB_NONE:
        return o, -1, -1
    if ob == dudab_state.OB_CALL:
        return o + 2, o + 3 + col, o + 6 + _DUDAB_CALL_SLOT[call]
    return o + 1, o + 3 + col, -1


def _put_cards(out: memoryview[float], base: int, cards: list[int]) -> None:
    """``cards`` by face from ``base`` (a column, a hand, kept cards: short lists).

    Counted in ``out`` itself, one card at a time: the blank is zero there.
    """
    face = _DUDAB_CARD_SLOT
    for card in cards:
        out[base + face[card]] += 1.0


def _put_pile(out: memoryview[float], base: int, cards: list[int], scale: float) -> None:
    """A pile (long, changed seldom) by face × ``scale`` from ``base``."""
    for i, value in _face_counts(tuple(cards)):
        out[base + i] = value * scale


def _capturer(st: DudabState) -> int:
    """The seat keeping cards after a capture (``-1``: none): its kept cards are its own."""
    tasks = st.tasks
    return tasks[-1][1] if tasks and tasks[-1][0] == dudab_state.T_KEEP else -1
