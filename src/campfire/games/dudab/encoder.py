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

# the parts of a kept row (Encoder.update_state_into): their places in the memo (0 is the seats
# to act) and the keys _update_state compares. Where a key is made afresh at every call it is an
# int (no object made, nothing for the garbage collector); a list of the state's is compared with
# the copy made when it was written
_P_SITUATION: Final = 1  # the prompt, actor, round's start player and obligation packed in an int
_P_PROGRESS: Final = 2  # the round · 128 + the draw pile's size (0–96)
_P_JUNGLES: Final = 3  # every column's Jungle count (−1: none) + 1 and heap size, packed
_P_COLUMNS: Final = 4  # one per column: a copy of its visible cards
_P_HAND: Final = _P_COLUMNS + _MAX_COLUMNS  # a copy of the seat's hand
_P_KEPT: Final = _P_HAND + 1  # a copy of the kept cards when the seat keeps them, else None
_P_REVEALED: Final = _P_KEPT + 1  # [the seat, *its hand] of a revealed hand, else None
_P_PILE: Final = _P_REVEALED + 1  # a copy of the seat's pile
_P_DISCARD: Final = _P_PILE + 1  # a copy of the discard pile
_P_SIZES: Final = _P_DISCARD + 1  # every seat's hand size (the capturer's kept cards in it)
_P_PILE_SIZES: Final = _P_SIZES + 1  # every seat's pile size, packed
_P_TOTALS: Final = _P_PILE_SIZES + 1  # a copy of every seat's scores
_PARTS: Final = _P_TOTALS
#: a card count's bound (a pile, a hand, a column), for packing counts into an int key
_PACK: Final = 128


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
# the situation's key packs its numbers into one int (_update_state): each within its bound
assert len(_DUDAB_PROMPTS) <= 16 and len(DUDAB_CALL_NAMES) < 32
assert _MAX_PLAYERS < 8 and _MAX_COLUMNS < 4


@lru_cache(maxsize=4096)
def _face_counts(cards: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``(face, count)`` of Dudab's discard pile or a seat's pile, once per distinct pile.

    Both are long and change seldom (a discard, a capture).
    """
    return float_counts([_DUDAB_CARD_SLOT[card] for card in cards])


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
        # their sizes, the seat's own hand, pile and kept cards, and a revealed hand. Written
        # part by part by the writers _update_state rewrites a kept row's parts with (one
        # source), with no offsets listed (at None)
        st = cast(DudabState, state)
        at: list[int] | None = None
        self._put_situation(
            out,
            at,
            _DUDAB_PROMPT[st.prompt()],
            -1 if st.phase == dudab_state.OVER else st.actor,
            st.round_start_player(),
            st.ob,
            st.ob_col,
            st.ob_call,
            seat,
        )
        self._put_progress(out, at, st.round, len(st.draw))
        above, heap, vis = st.above, st.heap, st.vis
        for k in range(st.ncols):
            self._put_jungle(out, at, k, above[k], len(heap[k]))
            self._put_column(out, at, k, vis[k])
        o = self._o_own
        hands = st.hands
        capturer = _capturer(st)
        self._put_cards(out, at, o, hands[seat])
        if seat == capturer:
            self._put_cards(out, at, o + 2 * _DUDAB_FACES, st.kept)
        revealed = st.revealed
        if revealed >= 0:
            self._put_revealed(out, at, revealed, hands[revealed], seat)
        if st.piles[seat]:
            self._put_pile(out, at, o + _DUDAB_FACES, st.piles[seat], 1.0)
        if st.discard:
            self._put_pile(out, at, self._o_discard, st.discard, 0.25)
        o = self._o_counts
        self._put_per_seat(out, at, o, _hand_sizes(st, capturer), 10, seat)
        self._put_per_seat(out, at, o + _MAX_PLAYERS, [len(p) for p in st.piles], 30, seat)
        self._put_per_seat(out, at, o + 2 * _MAX_PLAYERS, _totals(st.scores), 100, seat)

    # ----- a kept row part by part (Encoder.update_state_into) ------------------------------

    incremental: ClassVar[bool] = True
    parts: ClassVar[int] = _PARTS

    def _update_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], memo: list[Part]
    ) -> None:
        """Rewrite the parts of a kept row whose key changed (``_P_SITUATION`` … ``_P_TOTALS``).

        A part that changed is put back to the blank by :meth:`_rewrite` (given no values, it
        forgets the old offsets), then its writer writes the new values and lists their
        offsets in the part's ``at``: the writers :meth:`_encode_state` writes with.
        """
        st = cast(DudabState, state)
        # the prompt, the seats and the obligation (they change together), the progress
        part = memo[_P_SITUATION]
        prompt = _DUDAB_PROMPT[st.prompt()]
        actor = -1 if st.phase == dudab_state.OVER else st.actor
        start = st.round_start_player()
        ob, col, call = st.ob, st.ob_col, st.ob_call
        # prompt < 16, actor + 1 < 8, start < 8, ob < 4, col + 1 < 4, call < 32
        key = ((((prompt * 8 + actor + 1) * 8 + start) * 4 + ob) * 4 + col + 1) * 32 + call
        if key != part.key:
            self._rewrite(out, part, key, [])
            self._put_situation(out, part.at, prompt, actor, start, ob, col, call, seat)
        part = memo[_P_PROGRESS]
        draw = len(st.draw)
        key = st.round * _PACK + draw
        if key != part.key:  # its two offsets are always written: nothing to put back first
            self._put_progress(out, None, st.round, draw)
            part.key = key
        # the columns: their Jungles and heaps, then each one's visible cards
        above, heap, vis = st.above, st.heap, st.vis
        ncols = st.ncols
        key = 0
        for k in range(ncols):
            key = (key * _PACK + above[k] + 1) * _PACK + len(heap[k])
        part = memo[_P_JUNGLES]
        if key != part.key:
            self._rewrite(out, part, key, [])
            for k in range(ncols):
                self._put_jungle(out, part.at, k, above[k], len(heap[k]))
        for k in range(ncols):
            part = memo[_P_COLUMNS + k]
            cards = vis[k]
            if cards != part.key:
                self._update_column(out, part, k, cards)
        # the seat's own cards, a revealed hand, the discard pile
        o = self._o_own
        hands = st.hands
        part = memo[_P_HAND]
        hand = hands[seat]
        if hand != part.key:
            self._update_cards(out, part, o, hand)
        capturer = _capturer(st)
        part = memo[_P_KEPT]
        kept = st.kept if seat == capturer else None
        if kept != part.key:
            if kept is None:
                self._rewrite(out, part, None, [])
            else:
                self._update_cards(out, part, o + 2 * _DUDAB_FACES, kept)
        part = memo[_P_REVEALED]
        revealed = st.revealed
        if revealed < 0:
            if part.key is not None:
                self._rewrite(out, part, None, [])
        else:
            shown = [revealed] + hands[revealed]
            if shown != part.key:
                self._rewrite(out, part, shown, [])
                self._put_revealed(out, part.at, revealed, hands[revealed], seat)
        part = memo[_P_PILE]
        pile = st.piles[seat]
        if pile != part.key:
            self._update_pile(out, part, o + _DUDAB_FACES, pile, 1.0)
        part = memo[_P_DISCARD]
        discard = st.discard
        if discard != part.key:
            self._update_pile(out, part, self._o_discard, discard, 0.25)
        # the counts per seat: hand sizes (with the kept cards), pile sizes, totals
        o = self._o_counts
        part = memo[_P_SIZES]
        sizes = _hand_sizes(st, capturer)  # they change at almost every call: the list as key
        if sizes != part.key:
            self._update_per_seat(out, part, o, sizes, 10, seat)
        part = memo[_P_PILE_SIZES]
        piles = st.piles
        key = 0
        for pile in piles:
            key = key * _PACK + len(pile)
        if key != part.key:
            self._rewrite(out, part, key, [])
            self._put_per_seat(out, part.at, o + _MAX_PLAYERS, [len(p) for p in piles], 30, seat)
        part = memo[_P_TOTALS]
        scores = st.scores
        if scores != part.key:
            self._rewrite(out, part, [s[:] for s in scores], [])
            self._put_per_seat(out, part.at, o + 2 * _MAX_PLAYERS, _totals(scores), 100, seat)

    def _update_cards(
        self, out: memoryview[float], part: Part, base: int, cards: list[int]
    ) -> None:
        """Bring a part of cards by face up to date (its key: a copy of the cards written).

        The cards gone since are counted out and the new ones in (as :meth:`_put_cards` counts
        them, in ``out``); a part not written yet is written whole.
        """
        old = part.key
        if not isinstance(old, list):
            self._rewrite(out, part, cards[:], [])
            self._put_cards(out, part.at, base, cards)
            return
        face = _DUDAB_CARD_SLOT
        at = part.at
        was: list[int] = old
        n, m = len(was), len(cards)
        # a move mostly draws a card (added at the end) or gives one up (taken from anywhere):
        # found by comparing the lists' ints in place, the one card is counted in or out
        k = _common_prefix(cards, was)
        if m == n + 1 and k == n:
            i = base + face[cards[n]]
            out[i] += 1.0
            at.append(i)
        elif m + 1 == n and _common_prefix(cards, was, k, 1) == m:
            out[base + face[was[k]]] -= 1.0  # back to the blank's zero when none is left
        else:
            gone: list[int] = was[:]
            for card in cards:
                if _remove_int(gone, card) < 0:
                    i = base + face[card]
                    out[i] += 1.0
                    at.append(i)
            for card in gone:
                out[base + face[card]] -= 1.0
        part.key = cards[:]
        if len(at) > 2 * len(cards) + 8:  # the offsets of faces gone to zero, dropped
            part.at = [base + face[card] for card in cards]

    def _update_column(self, out: memoryview[float], part: Part, k: int, cards: list[int]) -> None:
        """Bring column ``k``'s part up to date (its key: a copy of its visible cards written).

        A column mostly grows by a card placed on it: then only its size, its top card and the
        cards added are written (as :meth:`_put_column` writes them); any other change (a
        capture, a column not written yet) writes it whole.
        """
        old = part.key
        n = len(old) if isinstance(old, list) else 0
        if not isinstance(old, list) or n == 0 or len(cards) <= n or _common_prefix(cards, old) < n:
            self._rewrite(out, part, cards[:], [])
            self._put_column(out, part.at, k, cards)
            return
        f = _DUDAB_FACES
        face = _DUDAB_CARD_SLOT
        base = self._o_columns + k * (4 + 2 * f)
        at = part.at
        out[base] = len(cards) / 6  # (its offset is in at: the column was not empty)
        was = base + 4 + f + face[old[-1]]
        top = base + 4 + f + face[cards[-1]]
        if top != was:
            out[was] = self._blank_values[was]
            out[top] = 1.0
            at.append(top)
        for card in cards[n:]:
            i = base + 4 + face[card]
            out[i] += 1.0
            at.append(i)
        part.key = cards[:]

    def _update_per_seat(
        self,
        out: memoryview[float],
        part: Part,
        base: int,
        values: list[int],
        scale: int,
        seat: int,
    ) -> None:
        """Bring a part of one value per seat up to date (its key: the values written).

        Only the seats whose value changed are written (a zero as the blank's zero, which
        :meth:`_put_per_seat` leaves); a part not written yet is written whole.
        """
        old = part.key
        if not isinstance(old, list):
            self._rewrite(out, part, values, [])
            self._put_per_seat(out, part.at, base, values, scale, seat)
            return
        n = self.players
        for s in range(n):
            value = values[s]
            if value != old[s]:
                i = base + (s - seat) % n
                out[i] = value / scale
                part.note(i)
        part.key = values

    def _update_pile(
        self, out: memoryview[float], part: Part, base: int, cards: list[int], scale: float
    ) -> None:
        """Bring a pile's part up to date (its key: a copy of the pile when it was written).

        A pile only grows in a round: the cards added since are counted in (``scale`` each, as
        :meth:`_put_pile` writes them, exactly), without writing the whole pile again; a pile
        that is no longer what was written followed by more cards is rewritten.
        """
        old = part.key
        if isinstance(old, list) and len(old) < len(cards) and cards[: len(old)] == old:
            face = _DUDAB_CARD_SLOT
            at = part.at
            for card in cards[len(old) :]:
                i = base + face[card]
                out[i] += scale
                at.append(i)
            part.key = cards[:]
        else:
            self._rewrite(out, part, cards[:], [])
            self._put_pile(out, part.at, base, cards, scale)

    # ----- the writers: each writes one part into out (which holds the blank there) and, for a
    # kept row's part, adds the offsets it wrote to at (None: the full path, nothing kept)

    def _put_situation(
        self,
        out: memoryview[float],
        at: list[int] | None,
        prompt: int,
        actor: int,
        start: int,
        ob: int,
        col: int,
        call: int,
        seat: int,
    ) -> None:
        """The prompt, the actor, the round's start player and the obligation.

        ``prompt`` is the prompt's number, ``actor`` ``-1`` when there is none (the game is
        over), ``ob``, ``col`` and ``call`` the state's ``ob``, ``ob_col`` and ``ob_call``.
        """
        n = self.players
        i = self._o_prompt + prompt
        j = self._o_seats + _MAX_PLAYERS + (start - seat) % n
        out[i] = 1.0
        out[j] = 1.0
        if at is not None:
            at += (i, j)
        if actor >= 0:
            i = self._o_seats + (actor - seat) % n
            out[i] = 1.0
            if at is not None:
                at.append(i)
        o = self._o_obligation
        if ob == dudab_state.OB_NONE:
            out[o] = 1.0
            if at is not None:
                at.append(o)
            return
        i = o + (2 if ob == dudab_state.OB_CALL else 1)
        j = o + 3 + col
        out[i] = 1.0
        out[j] = 1.0
        if at is not None:
            at += (i, j)
        if ob == dudab_state.OB_CALL:
            i = o + 6 + _DUDAB_CALL_SLOT[call]
            out[i] = 1.0
            if at is not None:
                at.append(i)

    def _put_progress(
        self, out: memoryview[float], at: list[int] | None, round_: int, draw: int
    ) -> None:
        """The round (0-based) of the rounds and the draw pile's size."""
        o = self._o_progress
        out[o] = (round_ + 1) / self.players
        out[o + 1] = draw / 96
        if at is not None:
            at += (o, o + 1)

    def _put_jungle(
        self, out: memoryview[float], at: list[int] | None, k: int, above: int, heap: int
    ) -> None:
        """Column ``k``'s Jungle (``above`` ≥ 0: the cards above it) and heap size."""
        base = self._o_columns + k * (4 + 2 * _DUDAB_FACES)
        if above >= 0:
            out[base + 1] = 1.0
            if at is not None:
                at.append(base + 1)
            if above:
                out[base + 2] = above / 6
                if at is not None:
                    at.append(base + 2)
        if heap:
            out[base + 3] = heap / 10
            if at is not None:
                at.append(base + 3)

    def _put_column(
        self, out: memoryview[float], at: list[int] | None, k: int, cards: list[int]
    ) -> None:
        """Column ``k``'s visible cards: how many, by face, the top card."""
        f = _DUDAB_FACES
        base = self._o_columns + k * (4 + 2 * f)
        if cards:
            top = base + 4 + f + _DUDAB_CARD_SLOT[cards[-1]]
            out[base] = len(cards) / 6
            out[top] = 1.0
            if at is not None:
                at += (base, top)
            self._put_cards(out, at, base + 4, cards)

    def _put_cards(
        self, out: memoryview[float], at: list[int] | None, base: int, cards: list[int]
    ) -> None:
        """``cards`` by face from ``base`` (a column, a hand, kept cards: short lists).

        Counted in ``out`` itself, one card at a time: the blank is zero there (no dict made,
        no number boxed for it in the compiled build).
        """
        face = _DUDAB_CARD_SLOT
        for card in cards:
            i = base + face[card]
            out[i] += 1.0
            if at is not None:
                at.append(i)

    def _put_revealed(
        self,
        out: memoryview[float],
        at: list[int] | None,
        revealed: int,
        cards: list[int],
        seat: int,
    ) -> None:
        """A revealed hand: whose (``revealed``) and its ``cards`` by face."""
        o = self._o_revealed
        i = o + (revealed - seat) % self.players
        out[i] = 1.0
        if at is not None:
            at.append(i)
        self._put_cards(out, at, o + _MAX_PLAYERS, cards)

    def _put_pile(
        self,
        out: memoryview[float],
        at: list[int] | None,
        base: int,
        cards: list[int],
        scale: float,
    ) -> None:
        """A pile (long, changed seldom) by face × ``scale`` from ``base``."""
        if cards:
            counts = _face_counts(tuple(cards))
            for i, value in counts:
                out[base + i] = value * scale
            if at is not None:
                at.extend([base + i for i, _ in counts])

    def _put_per_seat(
        self,
        out: memoryview[float],
        at: list[int] | None,
        base: int,
        values: list[int],
        scale: int,
        seat: int,
    ) -> None:
        """One value per seat / ``scale`` by relative seat from ``base``, zeros left out."""
        n = self.players
        for s, value in enumerate(values):
            if value:
                i = base + (s - seat) % n
                out[i] = value / scale
                if at is not None:
                    at.append(i)


def _common_prefix(a: list[int], b: list[int], start: int = 0, shift: int = 0) -> int:
    """The first ``k >= start`` where ``a[k] != b[k + shift]``, or where either list ends.

    A loop of ints (a native comparison each where compiled; a list comparison or ``in``
    compares every item as an object).

    >>> _common_prefix([1, 2, 3], [1, 2, 4]), _common_prefix([1, 3], [1, 2, 3], 1, 1)
    (2, 2)
    """
    k = start
    end = min(len(a), len(b) - shift)
    while k < end and a[k] == b[k + shift]:
        k += 1
    return k


def _remove_int(cards: list[int], card: int) -> int:
    """Remove the first ``card`` from ``cards``; where it was (``-1``: not there).

    >>> cards = [4, 7, 7]
    >>> _remove_int(cards, 7), cards, _remove_int(cards, 5)
    (1, [4, 7], -1)
    """
    for k in range(len(cards)):
        if cards[k] == card:
            del cards[k]
            return k
    return -1


def _capturer(st: DudabState) -> int:
    """The seat keeping cards after a capture (``-1``: none): its kept cards are its own."""
    tasks = st.tasks
    return tasks[-1][1] if tasks and tasks[-1][0] == dudab_state.T_KEEP else -1


def _hand_sizes(st: DudabState, capturer: int) -> list[int]:
    """Every seat's hand size, the capturer's kept cards counted in its hand."""
    sizes = [len(hand) for hand in st.hands]
    if capturer >= 0:
        sizes[capturer] += len(st.kept)
    return sizes


def _totals(scores: list[list[int]]) -> list[int]:
    """Every seat's total score."""
    return [sum(s) for s in scores]
