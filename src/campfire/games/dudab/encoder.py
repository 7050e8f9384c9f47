"""Dudab's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar, Final, cast

from campfire.core import Belief
from campfire.core.encoding import Encoder, Vector, count_into, float_counts

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
        f, p, n = _DUDAB_FACES, _MAX_PLAYERS, self.players
        face = _DUDAB_CARD_SLOT
        over = st.phase == dudab_state.OVER
        out[self._o_prompt + _DUDAB_PROMPT[st.prompt()]] = 1.0
        if not over:
            out[self._o_seats + (st.actor - seat) % n] = 1.0
        out[self._o_seats + p + (st.round_start_player() - seat) % n] = 1.0
        out[self._o_progress] = (st.round + 1) / n
        out[self._o_progress + 1] = len(st.draw) / 96
        o = self._o_obligation
        ob = st.ob
        if ob == dudab_state.OB_NONE:
            out[o] = 1.0
        else:
            out[o + (2 if ob == dudab_state.OB_CALL else 1)] = 1.0
            out[o + 3 + st.ob_col] = 1.0
            if ob == dudab_state.OB_CALL:
                out[o + 6 + _DUDAB_CALL_SLOT[st.ob_call]] = 1.0
        # cards by face: the columns, the hand, kept and revealed cards (which change often)
        # counted here, then written once; the pile (long, changed only by a capture) is
        # counted once per distinct pile
        counts: dict[int, int] = {}
        get = counts.get
        width = 4 + 2 * f
        above, heap = st.above, st.heap
        for k, cards in enumerate(st.vis[: st.ncols]):
            base = self._o_columns + k * width
            if above[k] >= 0:
                out[base + 1] = 1.0
                if above[k]:
                    out[base + 2] = above[k] / 6
            if heap[k]:
                out[base + 3] = len(heap[k]) / 10
            if cards:
                out[base] = len(cards) / 6
                for card in cards:
                    i = base + 4 + face[card]
                    counts[i] = get(i, 0) + 1
                out[base + 4 + f + face[cards[-1]]] = 1.0
        tasks = st.tasks
        capturer = tasks[-1][1] if tasks and tasks[-1][0] == dudab_state.T_KEEP else -1
        o = self._o_own
        for card in st.hands[seat]:
            i = o + face[card]
            counts[i] = get(i, 0) + 1
        if seat == capturer:
            base = o + 2 * f
            for card in st.kept:
                i = base + face[card]
                counts[i] = get(i, 0) + 1
        revealed = st.revealed
        if revealed >= 0:
            out[self._o_revealed + (revealed - seat) % n] = 1.0
            base = self._o_revealed + p
            for card in st.hands[revealed]:
                i = base + face[card]
                counts[i] = get(i, 0) + 1
        for i, count in counts.items():
            out[i] = float(count)
        pile = st.piles[seat]
        if pile:
            base = o + f
            for i, value in _face_counts(tuple(pile)):
                out[base + i] = value
        if st.discard:
            o = self._o_discard
            for i, value in _face_counts(tuple(st.discard)):
                out[o + i] = value * 0.25
        o = self._o_counts
        hands, piles, scores = st.hands, st.piles, st.scores
        kept = len(st.kept)
        for s in range(n):
            r = (s - seat) % n
            size = len(hands[s]) + (kept if s == capturer else 0)
            if size:
                out[o + r] = size / 10
            if piles[s]:
                out[o + p + r] = len(piles[s]) / 30
            total = sum(scores[s])
            if total:
                out[o + 2 * p + r] = total / 100
