"""Big Manitou's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, cast, get_args

from campfire.core import Belief
from campfire.core.encoding import Encoder, Part, Vector

from . import state as manitou_state
from .cards import CARD_NAMES as MANITOU_CARD_NAMES
from .cards import FULL_POOL as MANITOU_FULL_POOL
from .cards import TILE_NAMES as MANITOU_TILE_NAMES
from .state import PLAYS_PER_HUNT, ManitouState
from .types import Phase as ManitouPhase
from .types import SharingStep

__all__ = ["ManitouEncoder"]

_MANITOU_CARDS: Final = (
    *(f"h{i}" for i in range(1, 11)),
    "chief",
    "squaw",
    "shaman",
    "spy",
    "healer",
)
_MANITOU_CARD: Final = {name: i for i, name in enumerate(_MANITOU_CARDS)}
_MANITOU_TILES: Final = (
    tuple(f"buffalo{i}" for i in range(1, 6))
    + tuple(f"tipi{i}" for i in range(1, 6))
    + ("horse", "totem", "tomahawk")
)
_MANITOU_TILE: Final = {name: i for i, name in enumerate(_MANITOU_TILES)}
_MANITOU_PHASES: Final[tuple[str, ...]] = get_args(ManitouPhase)
_MANITOU_STEPS: Final[tuple[str, ...]] = get_args(SharingStep)
_MANITOU_PHASE: Final = {name: i for i, name in enumerate(_MANITOU_PHASES)}
# the engine's numbers (card and tile types, phases, sharing steps) as encoder slots
_MANITOU_CARD_SLOT: Final = tuple(_MANITOU_CARD[name] for name in MANITOU_CARD_NAMES)
_MANITOU_TILE_SLOT: Final = tuple(_MANITOU_TILE[name] for name in MANITOU_TILE_NAMES)
_MANITOU_PHASE_SLOT: Final = tuple(_MANITOU_PHASE[name] for name in manitou_state.PHASES)
_MANITOU_STEP_SLOT: Final = tuple(_MANITOU_STEPS.index(name) for name in manitou_state.EV_STEPS)
_C: Final = 15  # card types (ManitouEncoder.C)
_T: Final = 13  # tile types (ManitouEncoder.T)
assert (len(_MANITOU_CARDS), len(_MANITOU_TILES)) == (_C, _T)
_MAX_PLAYERS: Final = 5
_MANITOU_SHARING: Final = (manitou_state.THIEF, manitou_state.SHARE)
_NOBODY: Final = manitou_state.NO_SEAT
assert len(_MANITOU_PHASES) <= 8 and _MAX_PLAYERS < 7 and _NOBODY == -1

# the parts of a kept row (Encoder.update_state_into): their places in the memo (0 is the seats
# to act) and the keys _update_state compares. An int key packs small numbers; a list of the
# state's is compared with the copy made when the part was written
_P_SITUATION: Final = 1  # the phase, the dealer (and so the first player), the holders: an int
_P_PROGRESS: Final = 2  # the hunt, the play turn and the bag's size: an int
_P_TILES: Final = 3  # per ground (3): a copy of its tiles, counted (_count_offsets)
_P_TABLE: Final = 6  # per ground (3): a copy of the cards played there, counted
_P_OUT: Final = 9  # a copy of the tiles out of the game, counted
_P_HAND: Final = 10  # a copy of the seat's hand, counted
_P_DECK: Final = 11  # a copy of the seat's deck, counted
# the parts of numbers at fixed offsets (Encoder._update_numbers): only the numbers that
# changed are written
_P_SELECTION: Final = 12  # a copy of the seat's selection (a count per card type)
_P_OWNED: Final = 13  # copies of every seat's tiles owned (a count per tile type)
_P_USED: Final = 14  # copies of every seat's cards left (a count per card type)
_P_COUNTS: Final = 15  # the per-seat counts, in a list
_P_SHARING: Final = 16  # the sharing and the thief's queue in a list (None: no sharing)
_PARTS: Final = _P_SHARING


class ManitouEncoder(Encoder):
    """Big Manitou: grounds, tiles, pieces, counts and the seat's own cards."""

    game = "manitou"
    max_players = _MAX_PLAYERS
    state_class = ManitouState
    C: ClassVar[int] = _C  # 15 card types
    T: ClassVar[int] = _T  # 13 tile types

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
        # the offsets of the parts of numbers (Encoder._update_numbers): the seat's selection
        # by card type; per observer seat, every seat's counts, tiles owned and cards used
        n = self.players
        self._selection_at = tuple(self._o_own + slot for slot in _MANITOU_CARD_SLOT)
        self._counts_at = tuple(
            tuple(self._o_counts + i * p + (s - seat) % n for i in range(4) for s in range(n))
            for seat in range(n)
        )
        self._owned_at = self._by_seat_and_type(self._o_owned, t, _MANITOU_TILE_SLOT)
        self._used_at = self._by_seat_and_type(self._o_used, c, _MANITOU_CARD_SLOT)

    def _by_seat_and_type(
        self, o: int, width: int, slots: tuple[int, ...]
    ) -> tuple[tuple[int, ...], ...]:
        """Per observer seat: the offsets of a count per seat and type, seat by seat.

        ``o`` + the seat's relative place × ``width`` + the type's slot (``slots``: by the
        engine's type number), in the order :func:`_flat` and :func:`_used` list the counts.
        """
        n = self.players
        return tuple(
            tuple(o + (s - seat) % n * width + slot for s in range(n) for slot in slots)
            for seat in range(n)
        )

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
        # cards only counts, and the seat's own selection, hand and deck. Each part written by
        # the functions that _update_state keeps a row up to date with (one source)
        st = cast(ManitouState, state)
        rel = self._rel[seat]
        values: list[tuple[int, float]] = []  # the small parts' values, in one list
        self._situation_values(st, rel, values)
        self._progress_values(st, values)
        if st.phase in _MANITOU_SHARING:
            self._sharing_values(st, rel, values)
        for i, value in values:
            out[i] = value
        # the parts of numbers at fixed offsets
        self._write_numbers(out, None, st.selected[seat], self._selection_at, 1.0)
        self._write_numbers(out, None, _flat(st.owned), self._owned_at[seat], 1.0)
        self._write_numbers(out, None, _used(st.pool), self._used_at[seat], 1.0)
        self._write_numbers(out, None, _counts(st), self._counts_at[seat], 10.0)
        # the parts that count things by type, all counted at once
        offsets: list[int] = []
        for g in range(3):
            self._tile_offsets(st.grounds[g], self._o_ground_tiles + g * _T, offsets)
            self._table_offsets(st.table[g], g, rel, offsets)
        self._tile_offsets(st.out_of_game, self._o_out, offsets)
        self._card_offsets(st.hands[seat], self._o_own + _C, offsets)
        self._card_offsets(st.decks[seat], self._o_own + 2 * _C, offsets)
        self._write_counts(out, offsets)

    # ----- a kept row part by part (Encoder.update_state_into) ------------------------------

    incremental: ClassVar[bool] = True
    parts: ClassVar[int] = _PARTS

    def _update_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], memo: list[Part]
    ) -> None:
        """Rewrite the parts of a kept row whose key changed (``_P_SITUATION`` … ``_P_SHARING``).

        The small parts are rewritten with :meth:`_rewrite` from the functions that
        :meth:`_encode_state` writes with; the grounds' tiles and cards, the tiles out of the
        game and the seat's hand and deck are counts, brought up to date with
        :meth:`_count_offsets` (a card played, a card taken: a count or two).
        """
        st = cast(ManitouState, state)
        rel = self._rel[seat]
        part = memo[_P_SITUATION]
        # phase < 8, dealer < 8, holders + 1 < 8
        key = ((st.phase * 8 + st.dealer) * 8 + st.totem_holder + 1) * 8 + st.horse_holder + 1
        if key != part.key:
            self._rewrite(out, part, key, self._situation_values(st, rel, []))
        part = memo[_P_PROGRESS]
        key = (st.hunt * 64 + st.turn) * 128 + len(st.bag)  # turn < 7·5, bag ≤ 60
        if key != part.key:  # three fixed offsets, always written: nothing to put back
            self._overwrite(out, part, key, self._progress_values(st, []))
        for g in range(3):
            part = memo[_P_TILES + g]
            tiles = st.grounds[g]
            if tiles != part.key:
                offsets = self._tile_offsets(tiles, self._o_ground_tiles + g * _T, [])
                self._count_offsets(out, part, tiles[:], offsets)
            part = memo[_P_TABLE + g]
            cards = st.table[g]
            if cards != part.key:
                self._count_offsets(out, part, cards[:], self._table_offsets(cards, g, rel, []))
        part = memo[_P_OUT]
        tiles = st.out_of_game
        if tiles != part.key:
            self._count_offsets(out, part, tiles[:], self._tile_offsets(tiles, self._o_out, []))
        part = memo[_P_HAND]
        cards = st.hands[seat]
        if cards != part.key:
            offsets = self._card_offsets(cards, self._o_own + _C, [])
            self._count_offsets(out, part, cards[:], offsets)
        part = memo[_P_DECK]
        cards = st.decks[seat]
        if cards != part.key:
            offsets = self._card_offsets(cards, self._o_own + 2 * _C, [])
            self._count_offsets(out, part, cards[:], offsets)
        # the parts of numbers: a copy of the numbers written is the key
        part = memo[_P_SELECTION]
        selected = st.selected[seat]
        if selected != part.key:
            numbers = selected[:]
            self._update_numbers(out, part, numbers, numbers, self._selection_at, 1.0)
        part = memo[_P_OWNED]
        owned = st.owned
        if owned != part.key:  # (the state's lists compared as they are: no copy made)
            copies = [o[:] for o in owned]
            self._update_numbers(out, part, copies, _flat(owned), self._owned_at[seat], 1.0)
        part = memo[_P_USED]
        pool = st.pool
        if pool != part.key:
            copies = [p[:] for p in pool]
            self._update_numbers(out, part, copies, _used(pool), self._used_at[seat], 1.0)
        part = memo[_P_COUNTS]
        counts = _counts(st)
        if counts != part.key:
            self._update_numbers(out, part, counts, counts, self._counts_at[seat], 10.0)
        part = memo[_P_SHARING]
        sharing: list[int] | None = None
        if st.phase in _MANITOU_SHARING:
            sharing = [st.ev_ground, st.ev_step, st.chooser, st.picks_left, *st.rob_queue]
        if sharing != part.key:
            values = [] if sharing is None else self._sharing_values(st, rel, [])
            self._rewrite(out, part, sharing, values)

    # ----- each part's values (an offset and its value) or counted offsets -------------------

    def _situation_values(
        self, st: ManitouState, rel: tuple[int, ...], values: list[tuple[int, float]]
    ) -> list[tuple[int, float]]:
        """The phase, the dealer and the first player, the totem's and the horse's holders."""
        p = _MAX_PLAYERS
        values.append((self._o_phase + _MANITOU_PHASE_SLOT[st.phase], 1.0))
        values.append((self._o_seats + rel[st.dealer], 1.0))
        values.append((self._o_seats + p + rel[st.first_player], 1.0))
        o = self._o_holders
        for i, holder in enumerate((st.totem_holder, st.horse_holder)):
            values.append((o + i * (p + 1) + (p if holder == _NOBODY else rel[holder]), 1.0))
        return values

    def _progress_values(
        self, st: ManitouState, values: list[tuple[int, float]]
    ) -> list[tuple[int, float]]:
        """The hunt of the hunts, the play turn and the tiles in the bag."""
        o = self._o_progress
        hunts = st.hunts
        values.append((o, min(st.hunt + 1, hunts) / max(1, hunts)))
        values.append((o + 1, st.turn / (PLAYS_PER_HUNT * self.players)))
        values.append((o + 2, len(st.bag) / 60))
        return values

    def _sharing_values(
        self, st: ManitouState, rel: tuple[int, ...], values: list[tuple[int, float]]
    ) -> list[tuple[int, float]]:
        """The ground being shared, its step, the chooser, the picks left, the thief's queue."""
        o = self._o_sharing
        values.append((o + st.ev_ground, 1.0))
        values.append((o + 3 + _MANITOU_STEP_SLOT[st.ev_step], 1.0))
        if st.chooser != _NOBODY:
            values.append((o + 7 + rel[st.chooser], 1.0))
        values.append((o + 7 + _MAX_PLAYERS, st.picks_left / 2))
        for s in st.rob_queue:
            values.append((self._o_thief + rel[s], 1.0))
        return values

    def _tile_offsets(self, tiles: list[int], base: int, offsets: list[int]) -> list[int]:
        """Each of ``tiles``' offset from ``base`` by tile type."""
        tile_of = _MANITOU_TILE_SLOT
        for tile in tiles:
            offsets.append(base + tile_of[tile])
        return offsets

    def _card_offsets(self, cards: list[int], base: int, offsets: list[int]) -> list[int]:
        """Each of ``cards``' offset from ``base`` by card type."""
        card_of = _MANITOU_CARD_SLOT
        for card in cards:
            offsets.append(base + card_of[card])
        return offsets

    def _table_offsets(
        self, codes: list[int], g: int, rel: tuple[int, ...], offsets: list[int]
    ) -> list[int]:
        """The offsets of the cards played on ground ``g``.

        ``codes``: owner · 16 + type, + ``DOWN`` face down. Each card counts at its owner's
        relative seat and its type, and a face-down one again at its owner's face-down count.
        """
        c, card_of, down = _C, _MANITOU_CARD_SLOT, manitou_state.DOWN
        o = self._o_ground_cards + g * _MAX_PLAYERS * (c + 1)
        for code in codes:
            base = o + rel[(code & 255) >> 4] * (c + 1)
            offsets.append(base + card_of[code & 15])
            if code & down:
                offsets.append(base + c)
        return offsets


def _flat(lists: list[list[int]]) -> list[int]:
    """The numbers of ``lists``, one after the other (every seat's, by seat)."""
    out: list[int] = []
    for numbers in lists:
        out.extend(numbers)
    return out


def _used(pool: list[list[int]]) -> list[int]:
    """Every seat's cards played this cycle per card type (from its cards left), by seat."""
    full = MANITOU_FULL_POOL
    out: list[int] = []
    for left in pool:
        for card in range(len(left)):
            out.append(full[card] - left[card])
    return out


def _counts(st: ManitouState) -> list[int]:
    """Per seat: its selection's size, then cards selected, hand sizes, deck sizes."""
    counts = st.sel_size + st.picked
    for hand in st.hands:
        counts.append(len(hand))
    for deck in st.decks:
        counts.append(len(deck))
    return counts
