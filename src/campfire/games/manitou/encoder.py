"""Big Manitou's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, cast, get_args

from campfire.core import Belief
from campfire.core.encoding import Encoder, Part, Vector, float_counts

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

_DOWN: Final = manitou_state.DOWN
_CODES: Final = 2 * _DOWN  # a card's code on a ground: owner · 16 + type, + DOWN face down


class _Row(Part):
    """The memo of a kept Big Manitou row (:meth:`ManitouEncoder._update_row`).

    What the row shows: the offsets of the one-hot values it set (``-1``: none, as in the
    blank): the phase, the dealer, the first player, the totem's and the horse's holders, the
    ground being shared, its step and its chooser; the seats to act and the thief's queue as
    bits of relative seats; the numbers shown: the hunt (``-1``: not written yet), the play
    turn, the bag's size, the picks left, the seat's selection, every seat's tiles owned and
    cards left (of which the cards used this cycle are shown), the counts (selection sizes,
    cards selected, hand and deck sizes, seat by seat in four runs); copies of the lists of
    things it shows by type: per ground its tiles and cards, the tiles out of the game, the
    seat's hand and deck. :meth:`reset` makes it a new one's again.
    """

    def reset(self) -> None:
        """Show the blank (a new row, or one put back to the blank)."""
        self.acting = self.thief = 0
        self.phase_at = self.dealer_at = self.first_at = self.totem_at = self.horse_at = -1
        self.ground_at = self.step_at = self.chooser_at = -1
        self.hunt = -1
        self.turn = self.bag = self.picks = 0
        self.tiles: list[list[int]] = [[], [], []]
        self.table: list[list[int]] = [[], [], []]
        self.out: list[int] = []
        self.hand: list[int] = []
        self.deck: list[int] = []
        self.selection = [0] * _C
        self.owned = [[0] * _T for _ in range(_MAX_PLAYERS)]
        self.pool = [list(MANITOU_FULL_POOL) for _ in range(_MAX_PLAYERS)]
        self.counts = [0] * (4 * _MAX_PLAYERS)


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
        # the offsets of the numbers at fixed offsets: the seat's selection by card type; per
        # observer seat, every seat's counts, tiles owned and cards used
        n = self.players
        self._selection_at = tuple(self._o_own + slot for slot in _MANITOU_CARD_SLOT)
        self._counts_at = tuple(
            tuple(self._o_counts + i * p + (s - seat) % n for i in range(4) for s in range(n))
            for seat in range(n)
        )
        self._owned_at = self._by_seat_and_type(self._o_owned, t, _MANITOU_TILE_SLOT)
        self._used_at = self._by_seat_and_type(self._o_used, c, _MANITOU_CARD_SLOT)
        # per observer seat, by a ground card's code: its slot from the ground's first value
        # (its owner's relative seat and its type), and its owner's face-down count's (-1:
        # face up), for a kept row's recount (Encoder._show_counts)
        self._card_at = tuple(
            tuple(_card_slot(code, rel, False) for code in range(_CODES)) for rel in self._rel
        )
        self._down_at = tuple(
            tuple(_card_slot(code, rel, True) for code in range(_CODES)) for rel in self._rel
        )

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
        # cards only counts, and the seat's own selection, hand and deck
        st = cast(ManitouState, state)
        rel = self._rel[seat]
        values: list[tuple[int, float]] = []  # the small parts' values, in one list
        self._situation_values(st, rel, values)
        self._progress_values(st, values)
        if st.phase in _MANITOU_SHARING:
            self._sharing_values(st, rel, values)
        for i, value in values:
            out[i] = value
        # the numbers at fixed offsets
        _put_numbers(out, st.selected[seat], self._selection_at, 1.0)
        _put_numbers(out, _flat(st.owned), self._owned_at[seat], 1.0)
        _put_numbers(out, _used(st.pool), self._used_at[seat], 1.0)
        _put_numbers(out, _counts(st), self._counts_at[seat], 10.0)
        # the things counted by type, all counted at once
        offsets: list[int] = []
        for g in range(3):
            self._tile_offsets(st.grounds[g], self._o_ground_tiles + g * _T, offsets)
            self._table_offsets(st.table[g], g, rel, offsets)
        self._tile_offsets(st.out_of_game, self._o_out, offsets)
        self._card_offsets(st.hands[seat], self._o_own + _C, offsets)
        self._card_offsets(st.decks[seat], self._o_own + 2 * _C, offsets)
        for i, count in float_counts(offsets):
            out[i] = count

    # ----- a kept row (Encoder._update_row), with its own memo -------------------------------

    #: a kept row is brought up to date with only what changed (:meth:`_update_row`,
    #: one :class:`_Row` as its memo)
    incremental = True
    row_class = _Row

    def _update_row(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], part: Part
    ) -> None:
        """Bring a kept row up to date: only what changed since it was last written.

        The memo is one :class:`_Row`, which holds what the row shows as ints and lists.
        One-hot values (the phase, the dealer, the first player, the totem's and the horse's
        holders, the ground being shared, its step and its chooser) are kept as the offset
        set, moved when it changes; the seats to act and the thief's queue as bits of
        relative seats; the progress, the picks left, the seat's selection, every seat's
        tiles owned, cards used and counts as the numbers shown, each written where it
        changed; the lists of things shown by type (each ground's tiles and cards, the tiles
        out of the game, the seat's hand and deck) as copies, where a list changed only the
        types of the things between the parts it shares with the copy at its start and at
        its end counted again
        (:meth:`~campfire.core.encoding.Encoder._show_counts`: a card played or taken is a type
        or two). Every value is written through an offset and a float that are Python objects
        already (:attr:`~campfire.core.encoding.Encoder._box`).
        """
        st = cast(ManitouState, state)
        row = cast(_Row, part)
        cells: Any = out  # written through boxed offsets and values (see _box)
        box = self._box
        rel = self._rel[seat]
        n, p = self.players, _MAX_PLAYERS
        # the seats to act, the phase, the dealer and first player, the holders
        bits = 0
        for s in st.seats_to_act():
            bits |= 1 << rel[s]
        if bits != row.acting:
            row.acting = self._show_bits(cells, self._o_to_act, row.acting, bits)
        phase = st.phase
        at = self._o_phase + _MANITOU_PHASE_SLOT[phase]
        if at != row.phase_at:
            row.phase_at = self._move(cells, row.phase_at, at)
        o = self._o_seats
        at = o + rel[st.dealer]
        if at != row.dealer_at:
            row.dealer_at = self._move(cells, row.dealer_at, at)
        at = o + p + rel[st.first_player]
        if at != row.first_at:
            row.first_at = self._move(cells, row.first_at, at)
        o = self._o_holders
        holder = st.totem_holder
        at = o + (p if holder == _NOBODY else rel[holder])
        if at != row.totem_at:
            row.totem_at = self._move(cells, row.totem_at, at)
        holder = st.horse_holder
        at = o + p + 1 + (p if holder == _NOBODY else rel[holder])
        if at != row.horse_at:
            row.horse_at = self._move(cells, row.horse_at, at)
        # the progress (as _progress_values writes it)
        o = self._o_progress
        if st.hunt != row.hunt:
            hunts = st.hunts
            cells[box[o]] = min(st.hunt + 1, hunts) / max(1, hunts)
            row.hunt = st.hunt
        if st.turn != row.turn:
            cells[box[o + 1]] = st.turn / (PLAYS_PER_HUNT * n)
            row.turn = st.turn
        number = len(st.bag)
        if number != row.bag:
            cells[box[o + 2]] = number / 60
            row.bag = number
        # the things counted by type: the grounds' tiles and cards, the tiles out of the game,
        # the seat's hand and deck
        for g in range(3):
            things = st.grounds[g]
            shown = row.tiles[g]
            if len(things) != len(shown) or things != shown:
                base = self._o_ground_tiles + g * _T
                self._show_counts(cells, base, shown, things, _MANITOU_TILE_SLOT, 1.0)
                row.tiles[g] = things.copy()
            things = st.table[g]
            shown = row.table[g]
            if len(things) != len(shown) or things != shown:
                base = self._o_ground_cards + g * p * (_C + 1)
                self._show_counts(cells, base, shown, things, self._card_at[seat], 1.0)
                self._show_counts(cells, base, shown, things, self._down_at[seat], 1.0)
                row.table[g] = things.copy()
        things = st.out_of_game
        if len(things) != len(row.out) or things != row.out:
            self._show_counts(cells, self._o_out, row.out, things, _MANITOU_TILE_SLOT, 1.0)
            row.out = things.copy()
        things = st.hands[seat]
        if len(things) != len(row.hand) or things != row.hand:
            self._show_counts(cells, self._o_own + _C, row.hand, things, _MANITOU_CARD_SLOT, 1.0)
            row.hand = things.copy()
        things = st.decks[seat]
        if len(things) != len(row.deck) or things != row.deck:
            self._show_counts(
                cells, self._o_own + 2 * _C, row.deck, things, _MANITOU_CARD_SLOT, 1.0
            )
            row.deck = things.copy()
        # the numbers at fixed offsets: the selection, the tiles owned, the cards used this
        # cycle (from the cards left), the counts
        numbers = st.selected[seat]
        if numbers != row.selection:
            self._show_numbers(cells, self._selection_at, 0, row.selection, numbers, 1.0)
        owned, pool = st.owned, st.pool
        for s in range(n):
            numbers = owned[s]
            if numbers != row.owned[s]:
                self._show_numbers(cells, self._owned_at[seat], s * _T, row.owned[s], numbers, 1.0)
            numbers = pool[s]
            shown = row.pool[s]
            if numbers != shown:
                at_used = self._used_at[seat]
                for k in range(_C):
                    number = numbers[k]
                    if number != shown[k]:
                        cells[box[at_used[s * _C + k]]] = (MANITOU_FULL_POOL[k] - number) / 1.0
                        shown[k] = number
        counts = row.counts
        at_counts = self._counts_at[seat]
        sizes, picked, hands, decks = st.sel_size, st.picked, st.hands, st.decks
        for s in range(n):
            for k, number in enumerate((sizes[s], picked[s], len(hands[s]), len(decks[s]))):
                if number != counts[k * n + s]:
                    cells[box[at_counts[k * n + s]]] = number / 10.0
                    counts[k * n + s] = number
        # the sharing and the thief's queue (as _sharing_values writes them)
        o = self._o_sharing
        ground = step = chooser = -1
        picks = bits = 0
        if phase == manitou_state.THIEF or phase == manitou_state.SHARE:
            ground = o + st.ev_ground
            step = o + 3 + _MANITOU_STEP_SLOT[st.ev_step]
            if st.chooser != _NOBODY:
                chooser = o + 7 + rel[st.chooser]
            picks = st.picks_left
            for s in st.rob_queue:
                bits |= 1 << rel[s]
        if ground != row.ground_at:
            row.ground_at = self._move(cells, row.ground_at, ground)
        if step != row.step_at:
            row.step_at = self._move(cells, row.step_at, step)
        if chooser != row.chooser_at:
            row.chooser_at = self._move(cells, row.chooser_at, chooser)
        if picks != row.picks:
            cells[box[o + 7 + p]] = picks / 2
            row.picks = picks
        if bits != row.thief:
            row.thief = self._show_bits(cells, self._o_thief, row.thief, bits)

    def _show_numbers(
        self,
        cells: Any,
        at: tuple[int, ...],
        first: int,
        shown: list[int],
        numbers: list[int],
        scale: float,
    ) -> None:
        """Write ``numbers[k] / scale`` at ``at[first + k]`` where it differs from ``shown[k]``.

        ``shown`` (what the row shows) becomes ``numbers``, in place.
        """
        box = self._box
        for k in range(len(numbers)):
            number = numbers[k]
            if number != shown[k]:
                cells[box[at[first + k]]] = number / scale
                shown[k] = number

    # ----- the full write's values (an offset and its value) or counted offsets -------------------

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


def _card_slot(code: int, rel: tuple[int, ...], down: bool) -> int:
    """A ground card's slot from its ground's first value, seen with relative seats ``rel``.

    ``code`` is owner · 16 + type (+ ``DOWN`` face down); the slot of its type at its owner's
    relative seat, or with ``down`` its owner's face-down count's (``-1`` for a face-up card,
    and for a code no card has).

    >>> _card_slot(16 + 2, (1, 0), False), _card_slot(16 + 2, (1, 0), True)
    (2, -1)
    """
    owner, kind = (code & 255) >> 4, code & 15
    if owner >= len(rel) or kind >= _C:
        return -1
    base = rel[owner] * (_C + 1)
    if down:
        return base + _C if code & _DOWN else -1
    return base + _MANITOU_CARD_SLOT[kind]


def _put_numbers(
    out: memoryview[float], numbers: list[int], at: tuple[int, ...], scale: float
) -> None:
    """Write ``numbers[k] / scale`` at ``at[k]``, zeros left out (the blank's)."""
    for k in range(len(numbers)):
        if numbers[k]:
            out[at[k]] = numbers[k] / scale


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
