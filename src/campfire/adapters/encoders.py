"""Observation encoders: a seat's view (and its memory) as a flat ``float32`` vector.

One encoder per game, built for a player count and options. :meth:`Encoder.encode` reads
**only** what ``state.view(seat)`` holds and, for Tracker, the seat's own memory (its
:class:`Belief`, fed with the events that seat may see), so an encoding cannot leak hidden
information: a state and any of its determinisations for the seat encode identically (the
adapter tests check this). :meth:`Encoder.encode_state`, which the adapters call, reads the
engine fields that view is built from instead; the tests check after every move of random games
that it equals the view path.

Every encoder has the same shape for every player count of its game (seat slots are padded to
the game's maximum). Seats are **relative**: seat slot ``k`` is the seat ``k`` places to the
observer's left (slot 0 is the observer). :attr:`Encoder.slots` names each part of the vector;
``docs/adapters.md`` explains every slot.

>>> from campfire import get_game
>>> state = get_game("tracker").new_game(2, seed=3)
>>> enc = encoder_for("tracker", 2)
>>> vec = enc.encode(state.view(0), None)
>>> vec.shape == (enc.size,), vec.dtype.name
(True, 'float32')
>>> [name for name, _, _ in enc.slots][:3]
['players', 'to_act', 'phase']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast, get_args

import numpy as np
import numpy.typing as npt

from campfire.core import Belief, State, UnknownGameError
from campfire.games.apache import state as apache_state
from campfire.games.apache.cards import BOOTY_KINDS, KIND_NAMES
from campfire.games.apache.cards import TYPES as APACHE_TYPE_NAMES
from campfire.games.apache.resolve import claim_is_legal
from campfire.games.apache.state import ApacheState
from campfire.games.apache.types import ApacheView
from campfire.games.apache.types import Phase as ApachePhase
from campfire.games.dudab import state as dudab_state
from campfire.games.dudab.cards import CALL_NAMES as DUDAB_CALL_NAMES
from campfire.games.dudab.cards import COLOURS as DUDAB_COLOURS
from campfire.games.dudab.cards import FACE as DUDAB_FACE_OF_CARD
from campfire.games.dudab.cards import FACE_NAMES as DUDAB_FACE_NAMES
from campfire.games.dudab.cards import SYMBOLS as DUDAB_SYMBOLS
from campfire.games.dudab.state import PROMPTS as DUDAB_PROMPTS
from campfire.games.dudab.state import DudabState
from campfire.games.manitou import state as manitou_state
from campfire.games.manitou.cards import CARD_NAMES as MANITOU_CARD_NAMES
from campfire.games.manitou.cards import FULL_POOL as MANITOU_FULL_POOL
from campfire.games.manitou.cards import TILE_NAMES as MANITOU_TILE_NAMES
from campfire.games.manitou.state import PLAYS_PER_HUNT, ManitouState
from campfire.games.manitou.types import Phase as ManitouPhase
from campfire.games.manitou.types import SharingStep
from campfire.games.tracker import state as tracker_state
from campfire.games.tracker.cards import (
    NUM_CARDS,
    NUM_POSITIONS,
    TRACKERS_PER_PLAYER,
    is_scout,
    parse_tribe,
    tribe_of,
)
from campfire.games.tracker.state import TrackerState
from campfire.games.tracker.types import Phase as TrackerPhase
from campfire.games.tracker.types import Step as TrackerStep
from campfire.games.tracker.types import TrackerView

__all__ = ["Encoder", "Slot", "encoder_for"]

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Slot:
    """A named part of an encoding: where it starts, its shape and what it means."""

    name: str
    offset: int
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        """The number of values in the slot."""
        return int(np.prod(self.shape))


class _Layout:
    """Allocates named slots one after the other."""

    def __init__(self) -> None:
        self.slots: list[Slot] = []
        self.size = 0

    def add(self, name: str, shape: tuple[int, ...], meaning: str) -> int:
        slot = Slot(name, self.size, shape, meaning)
        self.slots.append(slot)
        self.size += slot.size
        return slot.offset


class Encoder:
    """A game's observation encoder for one player count.

    :meth:`encode` turns a seat's view (and its memory) into a vector of :attr:`size` values;
    :attr:`slots` lists ``(name, shape, meaning)`` for documentation.
    """

    game: str
    max_players: int
    #: whether :meth:`encode` reads the seat's memory (else it may be passed ``None``)
    uses_memory = False

    def __init__(self, players: int) -> None:
        self.players = players
        #: per observer seat: the relative slot of every seat
        self._rel = tuple(
            tuple((s - seat) % players for s in range(players)) for seat in range(players)
        )
        self._layout = _Layout()
        self._build()
        #: what every encode_state starts from: zeros, the number of players, and the game's
        #: most common values (:meth:`_fill_blank`)
        self._blank = np.zeros(self.size, dtype=np.float32)
        self._blank[self._o_players + players - 1] = 1.0
        self._fill_blank(self._blank)
        self._blank.flags.writeable = False

    @property
    def size(self) -> int:
        """The length of the encoded vector."""
        return self._layout.size

    @property
    def slots(self) -> list[tuple[str, tuple[int, ...], str]]:
        """The slots in order: ``(name, shape, meaning)``."""
        return [(s.name, s.shape, s.meaning) for s in self._layout.slots]

    def slot(self, name: str) -> Slot:
        """The slot called ``name`` (raise :class:`KeyError` if there is none)."""
        for s in self._layout.slots:
            if s.name == name:
                return s
        raise KeyError(name)

    def _add(self, name: str, shape: tuple[int, ...], meaning: str) -> int:
        return self._layout.add(name, shape, meaning)

    def _build(self) -> None:
        raise NotImplementedError

    def encode(self, view: Mapping[str, Any], belief: Belief | None) -> Vector:
        """The encoding of ``view`` (a seat's view) and the seat's memory ``belief``."""
        out = np.zeros(self.size, dtype=np.float32)
        seat = view["seat"]
        n = self.players
        out[self._o_players + n - 1] = 1.0
        for s in view.get("to_act", ()):
            out[self._o_to_act + (s - seat) % n] = 1.0
        self._encode(view, belief, out, seat)
        return out

    def encode_state(self, state: State, seat: int, belief: Belief | None) -> Vector:
        """The encoding of ``seat``'s view of ``state`` and its memory, without the view.

        Always equal to ``encode(state.view(seat), belief)``: an encoder that knows its game's
        state class (:attr:`state_class`) reads the fields the view is built from, only those
        the view shows to ``seat``, and skips building the view's JSON; for any other state it
        builds the view. The adapter tests compare both after every step of random games.
        """
        if type(state) is not self.state_class:
            return self.encode(state.view(seat), belief)
        out = self._blank.copy()  # the number of players set
        # written through a memoryview of the array: an item write costs half a numpy one
        # (every value written must be a float)
        slots = cast("memoryview[float]", out.data)
        n = self.players
        for s in state.seats_to_act():
            slots[self._o_to_act + (s - seat) % n] = 1.0
        self._encode_state(state, seat, belief, slots)
        return out

    #: the engine state class whose fields :meth:`encode_state` reads (``None``: none)
    state_class: type[State] | None = None

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        """Write the game's slots of ``state`` seen by ``seat`` into ``out`` (floats).

        ``out`` starts as the blank of :meth:`_fill_blank`.
        """
        raise NotImplementedError

    def _fill_blank(self, blank: Vector) -> None:
        """Set the values :meth:`_encode_state` finds before it writes (default: none)."""

    def _common(self) -> None:
        self._o_players = self._add(
            "players", (self.max_players,), "one-hot: the number of players (index = players − 1)"
        )
        self._o_to_act = self._add("to_act", (self.max_players,), "relative seats that may act now")

    def _encode(
        self, view: Mapping[str, Any], belief: Belief | None, out: Vector, seat: int
    ) -> None:
        raise NotImplementedError

    def rel(self, s: int, seat: int) -> int:
        """The relative slot of seat ``s`` seen from ``seat``."""
        return (s - seat) % self.players


def _one_hot(out: Vector, offset: int, index: int | None) -> None:
    if index is not None:
        out[offset + index] = 1.0


def _float_counts(counts: Counter[int]) -> tuple[tuple[int, float], ...]:
    """``(value, count)`` pairs of ``counts``, the counts as floats (what the slots hold)."""
    return tuple((i, float(count)) for i, count in counts.items())


def _count_into(out: Vector, offset: int, items: Iterable[int], scale: float) -> None:
    """Set ``out[offset + i]`` to ``scale`` × the number of times ``i`` occurs in ``items``.

    One write per distinct value (a numpy item write is far cheaper than ``+=``); the slots
    written must be zero before.
    """
    counts: dict[int, int] = {}
    get = counts.get
    for i in items:
        counts[i] = get(i, 0) + 1
    for i, count in counts.items():
        out[offset + i] = count * scale


# ----- Apache ---------------------------------------------------------------------------------

_APACHE_COLOURS = ("red", "yellow", "purple", "green", "blue")
_APACHE_TYPES = ("chief", "maiden", "warrior", "hunter")
_APACHE_BOOTY = {KIND_NAMES[k]: k for k in BOOTY_KINDS}
_APACHE_PHASES: tuple[str, ...] = get_args(ApachePhase)
_APACHE_TYPE = {t: i for i, t in enumerate(_APACHE_TYPES)}
_APACHE_PHASE = {p: i for i, p in enumerate(_APACHE_PHASES)}
# the engine's numbers (claim types, phases) as encoder slots
_APACHE_TYPE_SLOT = tuple(_APACHE_TYPE[name] for name in APACHE_TYPE_NAMES)
_APACHE_PHASE_SLOT = tuple(_APACHE_PHASE[name] for name in apache_state.PHASES)


@lru_cache(maxsize=4096)
def _kind_counts(cards: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``(card, count)`` of an Apache pile or the discards, computed once per distinct list.

    They are long and change only when a window is resolved.
    """
    return _float_counts(Counter(cards))


class ApacheEncoder(Encoder):
    """Apache: the table, piles, scores, the claim poll and the resolution queue."""

    game = "apache"
    max_players = 5
    state_class = ApacheState
    K = 25  # relative card kinds

    def _build(self) -> None:
        k, p = self.K, self.max_players
        kinds = (
            "relative kinds: Indian 4·c + type (c = colour slot: the colours of relative seats "
            "0…N−1, then the neutral colours in view order; types chief, maiden, warrior, "
            "hunter), 20–23 totem, necklace, tomahawk, buffalo, 24 teepee"
        )
        self._kind_cache: dict[tuple[int | str, ...], dict[str, int]] = {}
        self._rel_kinds: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._common()
        self._o_phase = self._add("phase", (4,), "one-hot: reveal, claim, choose, game_over")
        self._o_revealer = self._add("revealer", (p,), "one-hot relative seat: the revealer")
        self._o_progress = self._add(
            "progress", (3,), "window / 114, face-down cards / 114, last card (0/1)"
        )
        self._o_table = self._add("table", (k,), f"face-up cards on the table by kind / 9; {kinds}")
        self._o_last = self._add("last_revealed", (k,), "one-hot kind of the newest table card")
        self._o_piles = self._add("piles", (p, k), "per relative seat: its pile by kind / 9")
        self._o_scores = self._add("scores", (p,), "per relative seat: cards in its pile / 40")
        self._o_discard = self._add("discarded", (k,), "penalty cards out of the game / 9")
        self._o_answers = self._add(
            "answers",
            (p, 7),
            "per relative seat: not answered, answered (hidden), pass, claim chief, maiden, "
            "warrior, hunter (own answer, or every answer in arrival mode)",
        )
        self._o_queue = self._add(
            "queue",
            (p, 7),
            "per relative seat in the resolution queue: queued, claim type one-hot (4), legal "
            "at placement, already resolved",
        )
        self._o_protect = self._add(
            "protect_me", (4,), "per type: a claim would be legal now (only while answering)"
        )

    def _kinds(self, view: Mapping[str, Any], seat: int) -> dict[str, int]:
        """Every card name's relative kind for this view's colours and observer (cached)."""
        colours, neutral = view["colours"], view["neutral_colours"]
        key = (seat, *colours, "|", *neutral)
        kind_of = self._kind_cache.get(key)
        if kind_of is not None:
            return kind_of
        n = self.players
        slot_of = {colour: (s - seat) % n for s, colour in enumerate(colours)}
        for i, colour in enumerate(neutral):
            slot_of[colour] = n + i
        kind_of = dict(_APACHE_BOOTY)
        for colour, c in slot_of.items():
            for t, typ in enumerate(_APACHE_TYPES):
                kind_of[f"{colour}-{typ}"] = 4 * c + t
        if len(self._kind_cache) < 1024:
            self._kind_cache[key] = kind_of
        return kind_of

    def _table(
        self,
        out: Vector | memoryview[float],
        table: Sequence[Any],
        kind_of: Mapping[str, int] | Sequence[int],
    ) -> None:
        """The face-up cards by kind / 9 and the newest one's kind.

        ``kind_of`` maps a card to its relative kind: by name (a view's cards) or by index (a
        state's card numbers).
        """
        kinds = cast(Mapping[Any, int], kind_of)
        if table:
            o = self._o_table
            counts: dict[int, int] = {}
            get = counts.get
            for card in table:
                i = o + kinds[card]
                counts[i] = get(i, 0) + 1
            for i, count in counts.items():
                out[i] = count / 9
            out[self._o_last + kinds[table[-1]]] = 1.0

    def _encode(
        self, view: Mapping[str, Any], belief: Belief | None, out: Vector, seat: int
    ) -> None:
        view = cast(ApacheView, view)
        kind_of = self._kinds(view, seat)
        k, n = self.K, self.players
        out[self._o_phase + _APACHE_PHASE[view["phase"]]] = 1.0
        out[self._o_revealer + (view["revealer"] - seat) % n] = 1.0
        o = self._o_progress
        out[o] = view["window"] / 114
        out[o + 1] = view["deck_left"] / 114
        out[o + 2] = 1.0 if view["last_card"] else 0.0
        self._table(out, view["table"], kind_of)
        # the card counts (piles, discarded) are counted here first, then written once
        counts: dict[int, int] = {}
        get = counts.get
        o = self._o_piles
        for s, pile in enumerate(view["piles"]):
            base = o + (s - seat) % n * k
            for card in pile:
                i = base + kind_of[card]
                counts[i] = get(i, 0) + 1
        o = self._o_discard
        for card in view["discarded"]:
            i = o + kind_of[card]
            counts[i] = get(i, 0) + 1
        for i, count in counts.items():
            out[i] = count / 9
        o = self._o_scores
        for s, score in enumerate(view["scores"]):
            if score:
                out[o + (s - seat) % n] = score / 40
        o = self._o_answers
        for s, answer in enumerate(view["answers"]):
            base = o + (s - seat) % n * 7
            if answer is None:
                out[base] = 1.0
            elif answer == "hidden":
                out[base + 1] = 1.0
            elif answer == "pass":
                out[base + 1] = out[base + 2] = 1.0
            else:
                out[base + 1] = 1.0
                out[base + 3 + _APACHE_TYPE[answer.split()[1]]] = 1.0
        resolved = view["resolved"]
        o = self._o_queue
        for i, entry in enumerate(view["queue"]):
            base = o + (entry["seat"] - seat) % n * 7
            out[base] = 1.0
            out[base + 1 + _APACHE_TYPE[entry["type"]]] = 1.0
            out[base + 5] = 1.0 if entry["legal"] else 0.0
            out[base + 6] = 1.0 if i < resolved else 0.0
        for t, ok in (view.get("protect_me") or {}).items():
            if ok:
                out[self._o_protect + _APACHE_TYPE[t]] = 1.0

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        # the fields ApacheState.view builds the keys read by _encode from; of the poll's
        # answers only whether each seat answered, the seat's own answer (every answer in
        # arrival mode, where they are public)
        st = cast(ApacheState, state)
        k, n = self.K, self.players
        key = (seat, *st.colours, "|", *st.rules.neutral)
        kind_of = self._rel_kinds.get(key)
        if kind_of is None:
            by_name = self._kinds(st.view(seat), seat)
            kind_of = tuple(by_name.get(name, -1) for name in KIND_NAMES)
            if len(self._rel_kinds) < 1024:
                self._rel_kinds[key] = kind_of
        phase = st.phase
        out[self._o_phase + _APACHE_PHASE_SLOT[phase]] = 1.0
        out[self._o_revealer + (st.revealer - seat) % n] = 1.0
        o = self._o_progress
        out[o] = st.window / 114
        out[o + 1] = (len(st.deck) - st.deck_pos) / 114
        out[o + 2] = 1.0 if st.last_card else 0.0
        self._table(out, st.table, kind_of)
        o, o_scores = self._o_piles, self._o_scores
        # piles and discards: long, and changed only when a window is resolved
        for s, pile in enumerate(st.piles):
            if pile:
                r = (s - seat) % n
                base = o + r * k
                for kind, value in _kind_counts(tuple(pile)):
                    out[base + kind_of[kind]] = value / 9
                out[o_scores + r] = len(pile) / 40
        if st.discard:
            o = self._o_discard
            for kind, value in _kind_counts(tuple(st.discard)):
                out[o + kind_of[kind]] = value / 9
        o = self._o_answers
        polling = phase == apache_state.POLLING
        answered, answers, arrival = st.answered, st.answers, st.arrival
        for s in range(n):
            base = o + (s - seat) % n * 7
            if not polling or not answered[s]:
                out[base] = 1.0
                continue
            out[base + 1] = 1.0
            if arrival or s == seat:
                claim = answers[s]
                if claim is None:
                    out[base + 2] = 1.0
                else:
                    out[base + 3 + _APACHE_TYPE_SLOT[claim.type]] = 1.0
        resolved = st.resolved
        o = self._o_queue
        for i, claim in enumerate(st.queue):
            base = o + (claim.seat - seat) % n * 7
            out[base] = 1.0
            out[base + 1 + _APACHE_TYPE_SLOT[claim.type]] = 1.0
            out[base + 5] = 1.0 if claim.legal else 0.0
            out[base + 6] = 1.0 if i < resolved else 0.0
        if polling and seat in st.to_act:
            o = self._o_protect
            for t in range(4):
                if claim_is_legal(st.table, seat, t, st.rules, st.counts):
                    out[o + _APACHE_TYPE_SLOT[t]] = 1.0


# ----- Big Manitou ----------------------------------------------------------------------------

_MANITOU_CARDS = (*(f"h{i}" for i in range(1, 11)), "chief", "squaw", "shaman", "spy", "healer")
_MANITOU_CARD = {name: i for i, name in enumerate(_MANITOU_CARDS)}
_MANITOU_TILES = (
    tuple(f"buffalo{i}" for i in range(1, 6))
    + tuple(f"tipi{i}" for i in range(1, 6))
    + ("horse", "totem", "tomahawk")
)
_MANITOU_TILE = {name: i for i, name in enumerate(_MANITOU_TILES)}
_MANITOU_PHASES: tuple[str, ...] = get_args(ManitouPhase)
_MANITOU_STEPS: tuple[str, ...] = get_args(SharingStep)
_MANITOU_PHASE = {name: i for i, name in enumerate(_MANITOU_PHASES)}
# the engine's numbers (card and tile types, phases, sharing steps) as encoder slots
_MANITOU_CARD_SLOT = tuple(_MANITOU_CARD[name] for name in MANITOU_CARD_NAMES)
_MANITOU_TILE_SLOT = tuple(_MANITOU_TILE[name] for name in MANITOU_TILE_NAMES)
_MANITOU_PHASE_SLOT = tuple(_MANITOU_PHASE[name] for name in manitou_state.PHASES)
_MANITOU_STEP_SLOT = tuple(_MANITOU_STEPS.index(name) for name in manitou_state.EV_STEPS)
_MANITOU_SHARING = (manitou_state.THIEF, manitou_state.SHARE)


# a seat's tiles and cards left, as counts per type, seldom change: their nonzero slots by value
@lru_cache(maxsize=4096)
def _manitou_owned(owned: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``(tile slot, count)`` of a seat's tiles owned, a count per tile type."""
    return tuple((_MANITOU_TILE_SLOT[tile], float(k)) for tile, k in enumerate(owned) if k)


@lru_cache(maxsize=4096)
def _manitou_counted(counts: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``(card slot, count)`` of counts per card type (a seat's selection)."""
    return tuple((_MANITOU_CARD_SLOT[card], float(k)) for card, k in enumerate(counts) if k)


@lru_cache(maxsize=4096)
def _manitou_used(pool: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``(card slot, count)`` of the cards a seat has played, from its cards left per type."""
    full = MANITOU_FULL_POOL
    return tuple(
        (_MANITOU_CARD_SLOT[card], float(full[card] - left))
        for card, left in enumerate(pool)
        if left != full[card]
    )


class ManitouEncoder(Encoder):
    """Big Manitou: grounds, tiles, pieces, counts and the seat's own cards."""

    game = "manitou"
    max_players = 5
    state_class = ManitouState
    C = len(_MANITOU_CARDS)  # 15 card types
    T = len(_MANITOU_TILES)  # 13 tile types

    def _build(self) -> None:
        c, t, p = self.C, self.T, self.max_players
        cards = "card types h1…h10, chief, squaw, shaman, spy, healer"
        tiles = "tile types buffalo1…5, tipi1…5, horse, totem, tomahawk"
        self._common()
        self._o_phase = self._add(
            "phase", (7,), "one-hot: select, play, totem, horse, thief, take, game_over"
        )
        self._o_seats = self._add(
            "dealer_first", (2, p), "one-hot relative seats: the dealer, the first player"
        )
        self._o_progress = self._add(
            "progress", (3,), "hunt / hunts, play turn / (7·N), tiles in the bag / 60"
        )
        self._o_ground_tiles = self._add(
            "ground_tiles", (3, t), f"per ground: its tiles by type; {tiles}"
        )
        self._o_ground_cards = self._add(
            "ground_cards",
            (3, p, c + 1),
            f"per ground and relative seat: cards played by type ({cards}) and, last, how many "
            "of them are face down",
        )
        self._o_owned = self._add("tiles_owned", (p, t), "per relative seat: its tiles by type")
        self._o_out = self._add("out_of_game", (t,), "tiles removed from the game by type")
        self._o_holders = self._add(
            "holders", (2, p + 1), "one-hot relative seat (last: nobody): totem, horse holder"
        )
        self._o_used = self._add(
            "used_this_cycle", (p, c), "per relative seat: cards played in the earlier hunt"
        )
        self._o_counts = self._add(
            "counts",
            (4, p),
            "per relative seat / 10: selection size, cards selected, hand size, deck size",
        )
        self._o_own = self._add(
            "own_cards", (3, c), "the seat's own selection, hand and deck by card type"
        )
        self._o_sharing = self._add(
            "sharing",
            (3 + 4 + p + 1,),
            "ground being shared (one-hot 3), its step (one-hot start, hero, best_hunter, "
            "second_hunter), the chooser (one-hot relative seat), picks left / 2",
        )
        self._o_thief = self._add("thief_queue", (p,), "relative seats the thief has yet to rob")

    def _encode(
        self, view: Mapping[str, Any], belief: Belief | None, out: Vector, seat: int
    ) -> None:
        c, t, p, n = self.C, self.T, self.max_players, self.players
        rel = [(s - seat) % n for s in range(n)]  # relative slot of every seat
        tile, card_of = _MANITOU_TILE, _MANITOU_CARD
        out[self._o_phase + _MANITOU_PHASE[view["phase"]]] = 1.0
        out[self._o_seats + rel[view["dealer"]]] = 1.0
        out[self._o_seats + p + rel[view["first_player"]]] = 1.0
        o = self._o_progress
        out[o] = view["hunt"] / max(1, view["hunts"])
        out[o + 1] = view["play_turn"] / (PLAYS_PER_HUNT * n)
        out[o + 2] = view["bag_size"] / 60
        # every count slot is counted here first, then written once
        counts: dict[int, int] = {}
        get = counts.get
        o_tiles, o_cards = self._o_ground_tiles, self._o_ground_cards
        for g, ground in enumerate(view["grounds"]):
            base = o_tiles + g * t
            for name in ground["tiles"]:
                i = base + tile[name]
                counts[i] = get(i, 0) + 1
            for owner, card, face_up in ground["cards"]:
                base = o_cards + (g * p + rel[owner]) * (c + 1)
                i = base + card_of[card]
                counts[i] = get(i, 0) + 1
                if not face_up:
                    counts[base + c] = get(base + c, 0) + 1
        o = self._o_owned
        for s, owned in enumerate(view["tiles_owned"]):
            base = o + rel[s] * t
            for name in owned:
                i = base + tile[name]
                counts[i] = get(i, 0) + 1
        o = self._o_out
        for name in view["out_of_game"]:
            i = o + tile[name]
            counts[i] = get(i, 0) + 1
        o = self._o_used
        for s, used in enumerate(view["used_this_cycle"]):
            base = o + rel[s] * c
            for card in used:
                i = base + card_of[card]
                counts[i] = get(i, 0) + 1
        you = view.get("you") or {}
        o = self._o_own
        for k, key in enumerate(("selection", "hand", "deck")):
            base = o + k * c
            for card in you.get(key, ()):
                i = base + card_of[card]
                counts[i] = get(i, 0) + 1
        for i, count in counts.items():
            out[i] = count
        o = self._o_holders
        for i, key in enumerate(("totem_holder", "horse_holder")):
            holder = view[key]
            out[o + i * (p + 1) + (p if holder is None else rel[holder])] = 1
        o = self._o_counts
        for i, key in enumerate(("selection_sizes", "selected_counts", "hand_sizes", "deck_sizes")):
            base = o + i * p
            for s, value in enumerate(view[key]):
                if value:
                    out[base + rel[s]] = value / 10
        sharing = view.get("sharing")
        if sharing is not None:
            o = self._o_sharing
            out[o + sharing["ground"] - 1] = 1.0
            out[o + 3 + _MANITOU_STEPS.index(sharing["step"])] = 1.0
            if sharing["chooser"] is not None:
                out[o + 7 + rel[sharing["chooser"]]] = 1.0
            out[o + 7 + p] = sharing["picks_left"] / 2
        for s in view.get("thief_queue") or ():
            out[self._o_thief + rel[s]] = 1.0

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        # the fields ManitouState.view builds the keys read by _encode from; of the seats'
        # cards only counts, and the seat's own selection, hand and deck
        st = cast(ManitouState, state)
        c, t, p, n = self.C, self.T, self.max_players, self.players
        rel = self._rel[seat]
        phase = st.phase
        out[self._o_phase + _MANITOU_PHASE_SLOT[phase]] = 1.0
        out[self._o_seats + rel[st.dealer]] = 1.0
        out[self._o_seats + p + rel[st.first_player]] = 1.0
        o = self._o_progress
        hunts = st.hunts
        out[o] = min(st.hunt + 1, hunts) / max(1, hunts)
        out[o + 1] = st.turn / (PLAYS_PER_HUNT * n)
        out[o + 2] = len(st.bag) / 60
        # tiles and cards by type, counted here and then written once
        counts: dict[int, int] = {}
        get = counts.get
        o_tiles, o_cards = self._o_ground_tiles, self._o_ground_cards
        card_of, tile_of = _MANITOU_CARD_SLOT, _MANITOU_TILE_SLOT
        down = manitou_state.DOWN
        for g in range(3):
            base = o_tiles + g * t
            for tile in st.grounds[g]:
                i = base + tile_of[tile]
                counts[i] = get(i, 0) + 1
            for code in st.table[g]:
                base = o_cards + (g * p + rel[(code & 255) >> 4]) * (c + 1)
                i = base + card_of[code & 15]
                counts[i] = get(i, 0) + 1
                if code & down:
                    counts[base + c] = get(base + c, 0) + 1
        o = self._o_out
        for tile in st.out_of_game:
            i = o + tile_of[tile]
            counts[i] = get(i, 0) + 1
        o = self._o_own
        for k, cards in enumerate((st.hands[seat], st.decks[seat]), start=1):
            base = o + k * c
            for card in cards:
                i = base + card_of[card]
                counts[i] = get(i, 0) + 1
        for i, count in counts.items():
            out[i] = float(count)
        for i, value in _manitou_counted(tuple(st.selected[seat])):
            out[o + i] = value
        o_owned, o_used = self._o_owned, self._o_used
        owned, pool = st.owned, st.pool
        for s in range(n):
            base = o_owned + rel[s] * t
            for i, value in _manitou_owned(tuple(owned[s])):
                out[base + i] = value
            base = o_used + rel[s] * c
            for i, value in _manitou_used(tuple(pool[s])):
                out[base + i] = value
        o = self._o_holders
        nobody = manitou_state.NO_SEAT
        for i, holder in enumerate((st.totem_holder, st.horse_holder)):
            out[o + i * (p + 1) + (p if holder == nobody else rel[holder])] = 1.0
        o = self._o_counts
        for i, values in enumerate(
            (st.sel_size, st.picked, [len(h) for h in st.hands], [len(d) for d in st.decks])
        ):
            base = o + i * p
            for s, value in enumerate(values):
                if value:
                    out[base + rel[s]] = value / 10
        if phase in _MANITOU_SHARING:
            o = self._o_sharing
            out[o + st.ev_ground] = 1.0
            out[o + 3 + _MANITOU_STEP_SLOT[st.ev_step]] = 1.0
            if st.chooser != nobody:
                out[o + 7 + rel[st.chooser]] = 1.0
            out[o + 7 + p] = st.picks_left / 2
            for s in st.rob_queue:
                out[self._o_thief + rel[s]] = 1.0


# ----- Dudab ----------------------------------------------------------------------------------

_DUDAB_COLOURS = DUDAB_COLOURS
_DUDAB_SYMBOLS = DUDAB_SYMBOLS
_DUDAB_CALLS = (*_DUDAB_COLOURS, *_DUDAB_SYMBOLS, "1", "2", "3", "4")
_DUDAB_PROMPTS = DUDAB_PROMPTS
_DUDAB_FACES = 71  # 64 numbers, dudab, 4 shamans, jungle, baby


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


_DUDAB_PROMPT = {name: i for i, name in enumerate(_DUDAB_PROMPTS)}
#: every face name's number (see :func:`_dudab_face`)
_DUDAB_FACE = {
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
_DUDAB_CARD_SLOT = tuple(_DUDAB_FACE[DUDAB_FACE_NAMES[f]] for f in DUDAB_FACE_OF_CARD)
_DUDAB_CALL_SLOT = tuple(_DUDAB_CALLS.index(name) if name else -1 for name in DUDAB_CALL_NAMES)


@lru_cache(maxsize=4096)
def _face_counts(cards: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``(face, count)`` of Dudab's discard pile or a seat's pile, once per distinct pile.

    Both are long and change seldom (a discard, a capture).
    """
    return _float_counts(Counter(map(_DUDAB_CARD_SLOT.__getitem__, cards)))


class DudabEncoder(Encoder):
    """Dudab: columns, the discard pile, the obligation, counts and the seat's own cards."""

    game = "dudab"
    max_players = 6
    state_class = DudabState
    F = _DUDAB_FACES

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
            _count_into(out, self._o_discard, map(face, view["discard"]), 0.25)
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
        f, p, n = self.F, self.max_players, self.players
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


# ----- Tracker --------------------------------------------------------------------------------

_TRACKER_PHASES: tuple[str, ...] = get_args(TrackerPhase)
_TRACKER_STEPS: tuple[str, ...] = get_args(TrackerStep)
_TRACKER_CHANNELS = (
    "occupied",
    "peeked_this_turn",
    "lifted",
    "known",
    "known_own_scout",
    "known_scout_seat_1",
    "known_scout_seat_2",
    "known_scout_seat_3",
    "known_scout_seat_4",
    "known_scout_seat_5",
    "known_scout_no_player",
    "known_false_track",
    "interest",
)


_TRACKER_PHASE = {name: i for i, name in enumerate(_TRACKER_PHASES)}
_TRACKER_STEP = {name: i for i, name in enumerate(_TRACKER_STEPS)}
_TRACKER_INTEREST = (0.0, 1 / 3, 2 / 3)  # other seats' peeks / 3 (1 from 3 peeks on)
_TRACKER_PHASE_SLOT = tuple(_TRACKER_PHASE[name] for name in tracker_state.PHASES)
_TRACKER_STEP_SLOT = tuple(_TRACKER_STEP[name] for name in tracker_state.STEPS)


class TrackerEncoder(Encoder):
    """Tracker: the board as 60 positions × 13 channels, with the seat's memory of its peeks."""

    game = "tracker"
    max_players = 6
    uses_memory = True
    state_class = TrackerState
    POSITIONS = NUM_POSITIONS

    def _build(self) -> None:
        p = self.max_players
        self._channels: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._common()
        self._o_phase = self._add(
            "phase", (4,), "one-hot: normal, final_peek, final_capture, game_over"
        )
        self._o_step = self._add(
            "step", (5,), "one-hot: turn_start, peeking, collecting, relocating, placing"
        )
        self._o_seats = self._add(
            "start_last", (2, p + 1), "one-hot relative seat (last: nobody): start, last player"
        )
        self._o_counts = self._add(
            "counts",
            (2, p),
            "per relative seat: trackers left / 3, captured cards / 60 (never which)",
        )
        self._o_turn = self._add(
            "turn", (2,), "trackers in the centre / 18, relocations this turn / 3"
        )
        self._o_board = self._add(
            "board",
            (self.POSITIONS, len(_TRACKER_CHANNELS)),
            "per position: occupied; peeked this turn; lifted; and from the seat's own memory "
            "(its peeks, followed through relocations): known card; known scout of its own "
            "tribe; known scout of relative seat 1…5's tribe; known scout of a tribe nobody "
            "plays; known false track; other seats' peeks there / 3 (capped at 1)",
        )
        width = len(_TRACKER_CHANNELS)
        #: the "occupied" channel of every position
        self._occupied_at = tuple(self._o_board + pos * width for pos in range(self.POSITIONS))

    def _fill_blank(self, blank: Vector) -> None:
        blank[list(self._occupied_at)] = 1.0  # cleared where a position is empty

    def _encode(
        self, view: Mapping[str, Any], belief: Belief | None, out: Vector, seat: int
    ) -> None:
        view = cast(TrackerView, view)
        p, n = self.max_players, self.players
        out[self._o_phase + _TRACKER_PHASE[view["phase"]]] = 1.0
        out[self._o_step + _TRACKER_STEP[view["step"]]] = 1.0
        o = self._o_seats
        for i, who in enumerate((view["start_player"], view["last_player"])):
            out[o + i * (p + 1) + (p if who is None else (who - seat) % n)] = 1.0
        o = self._o_counts
        trackers, captured = view["trackers"], view["captured_counts"]
        for s in range(n):
            r = (s - seat) % n
            if trackers[s]:
                out[o + r] = trackers[s] / TRACKERS_PER_PLAYER
            if captured[s]:
                out[o + p + r] = captured[s] / NUM_CARDS
        out[self._o_turn] = view["centre"] / 18
        out[self._o_turn + 1] = view["relocations_this_turn"] / 3
        width = len(_TRACKER_CHANNELS)
        board = self._o_board
        for pos in view["occupied"]:
            out[board + pos * width] = 1.0
        for pos in view["peeked_this_turn"]:
            out[board + pos * width + 1] = 1.0
        if view["lifted"] is not None:
            out[board + view["lifted"] * width + 2] = 1.0
        known: dict[int, int] = getattr(belief, "known", None) or {} if belief else {}
        interest: dict[int, int] = getattr(belief, "interest", None) or {} if belief else {}
        if known:
            owner = {parse_tribe(t): 4 + (s - seat) % n for s, t in enumerate(view["tribes"])}
            get = owner.get
            for pos, card in known.items():
                base = board + pos * width
                out[base + 3] = 1.0
                # a false track, or a scout of a tribe: a seat's (relative) or nobody's
                out[base + (get(tribe_of(card), 10) if is_scout(card) else 11)] = 1.0
        for pos, count in interest.items():
            out[board + pos * width + 12] = _TRACKER_INTEREST[count] if count < 3 else 1.0

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        # the fields TrackerState.view builds the keys read by _encode from: the board's
        # occupied positions (never which card), counts, and the seat's own memory
        st = cast(TrackerState, state)
        p, n = self.max_players, self.players
        out[self._o_phase + _TRACKER_PHASE_SLOT[st.phase]] = 1.0
        out[self._o_step + _TRACKER_STEP_SLOT[st.step]] = 1.0
        o = self._o_seats
        nobody = tracker_state.NO_SEAT
        out[o + (st.start_player - seat) % n] = 1.0
        last = st.last_player
        out[o + p + 1 + (p if last == nobody else (last - seat) % n)] = 1.0
        o = self._o_counts
        trackers, captured = st.hands, st.captured
        for s in range(n):
            r = (s - seat) % n
            if trackers[s]:
                out[o + r] = trackers[s] / TRACKERS_PER_PLAYER
            if captured[s]:
                out[o + p + r] = len(captured[s]) / NUM_CARDS
        out[self._o_turn] = st.centre / 18
        out[self._o_turn + 1] = st.moves / 3
        width = len(_TRACKER_CHANNELS)
        board = self._o_board
        empty = tracker_state.EMPTY
        # the occupied positions: every position starts occupied (_fill_blank), and the empty
        # ones are found by the list's own search (far fewer steps than a loop over 60)
        cells = st.board
        gaps = cells.count(empty)
        if gaps:
            at, find = self._occupied_at, cells.index
            pos = -1
            for _ in range(gaps):
                pos = find(empty, pos + 1)
                out[at[pos]] = 0.0
        for pos in st.peeked:
            out[board + pos * width + 1] = 1.0
        if st.lifted != empty:
            out[board + st.lifted * width + 2] = 1.0
        known: dict[int, int] = getattr(belief, "known", None) or {} if belief else {}
        interest: dict[int, int] = getattr(belief, "interest", None) or {} if belief else {}
        if known:
            key = (seat, *st.tribes)
            channel = self._channels.get(key)
            if channel is None:  # per card: its channel seen from this seat
                owner = {t: 4 + (s - seat) % n for s, t in enumerate(st.tribes)}
                channel = tuple(
                    owner.get(tribe_of(card), 10) if is_scout(card) else 11
                    for card in range(NUM_CARDS)
                )
                self._channels[key] = channel
            at = self._occupied_at  # each position's first channel
            for pos, card in known.items():
                base = at[pos]
                out[base + 3] = 1.0
                out[base + channel[card]] = 1.0
        if interest:
            at = self._occupied_at
            for pos, count in interest.items():
                out[at[pos] + 12] = _TRACKER_INTEREST[count] if count < 3 else 1.0


_ENCODERS: dict[str, type[Encoder]] = {
    "apache": ApacheEncoder,
    "manitou": ManitouEncoder,
    "dudab": DudabEncoder,
    "tracker": TrackerEncoder,
}


#: the encoders made so far, by game and player count (shared: they keep only caches)
_INSTANCES: dict[tuple[str, int], Encoder] = {}


def encoder_for(game: str, players: int) -> Encoder:
    """The observation encoder of ``game`` for ``players`` players.

    One encoder per game and player count is shared by every caller: an encoder holds no
    game, only caches of values it computed from its inputs (kept by value), which every
    game of that player count can reuse. Raises
    :class:`~campfire.core.errors.UnknownGameError` for a game without an encoder.
    """
    encoder = _INSTANCES.get((game, players))
    if encoder is None:
        cls = _ENCODERS.get(game)
        if cls is None:
            raise UnknownGameError(
                f"no observation encoder for {game!r}; "
                f"encoders exist for {', '.join(sorted(_ENCODERS))}"
            )
        encoder = _INSTANCES[game, players] = cls(players)
    return encoder


def describe(game: str) -> Sequence[tuple[str, tuple[int, ...], str]]:
    """The slots of ``game``'s encoder (its shape is the same for every player count)."""
    return encoder_for(game, _ENCODERS[game].max_players).slots if game in _ENCODERS else ()
