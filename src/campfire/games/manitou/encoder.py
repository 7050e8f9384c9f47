"""Big Manitou's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
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

    # ----- the state path: the row in parts, one source for a fresh row and a kept one -----
    #
    # Each part's values are added to a dict ``{offset: value}`` by one ``_add_*`` method, from
    # the fields its key holds. A fresh row (_encode_state) adds every part to one dict and
    # writes it; a kept row (_update_state) compares each part's fields with its key and
    # rewrites only the parts that changed. The parts, what changes together, and their keys:
    #
    # 1. phase: the phase, the sharing and the thief queue (the phase; in the sharing phases
    #    also the ground, step, chooser, picks left and the queue)
    # 2. seats: dealer and first player, the totem and horse holders, the selection sizes
    #    (those three seats and the sizes, set from the dealer at each hunt)
    # 3. play: the progress, the seat's hand and deck, every seat's hand and deck size (hunt,
    #    hunts, turn, bag size, the seat's hand and deck, the seats' hand and deck sizes)
    # 4. picks: the cards each seat selected, the seat's selection (those lists)
    # 5-7. the cards played at each ground (its list)
    # 8. tiles: each ground's tiles, those out of the game, those owned (those lists)
    # 9. used: each seat's cards played in the cycle (the seats' card pools)
    #
    # The seat is fixed per kept row, the number of players per encoder. A key holds copies
    # of the state's lists (the state changes them in place) and is compared with the fields
    # themselves, so an unchanged part costs one comparison and copies nothing.

    incremental = True
    parts = 9

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        # the fields ManitouState.view builds the keys read by _encode from; of the seats'
        # cards only counts, and the seat's own selection, hand and deck
        st = cast(ManitouState, state)
        rel = self._rel[seat]
        values: dict[int, float] = {}
        self._add_phase(values, st, rel)
        self._add_seats(values, st.dealer, st.totem_holder, st.horse_holder, st.sel_size, rel)
        self._add_play(values, st.hunt, st.hunts, st.turn, len(st.bag), st.hands, st.decks, seat)
        self._add_picks(values, st.picked, st.selected[seat], rel)
        self._add_cards(values, st.table, 0, 3, rel)
        self._add_tiles(values, st.grounds, st.out_of_game, st.owned, rel)
        self._add_used(values, st.pool, rel)
        for i, value in values.items():
            out[i] = value

    def _update_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], memo: list[Part]
    ) -> None:
        """Rewrite the parts of a kept row whose fields changed (the parts: see above)."""
        st = cast(ManitouState, state)
        rel = self._rel[seat]
        rewrite = self._rewrite
        values: dict[int, float]
        part = memo[1]
        phase = st.phase
        key: object = (
            (phase, st.ev_ground, st.ev_step, st.chooser, st.picks_left, st.rob_queue[:])
            if phase in _MANITOU_SHARING
            else phase
        )
        if key != part.key:
            values = {}
            self._add_phase(values, st, rel)
            rewrite(out, part, key, list(values.items()))
        part = memo[2]
        dealer, totem, horse, sel_size = st.dealer, st.totem_holder, st.horse_holder, st.sel_size
        if (dealer, totem, horse, sel_size) != part.key:
            values = {}
            self._add_seats(values, dealer, totem, horse, sel_size, rel)
            rewrite(out, part, (dealer, totem, horse, sel_size[:]), list(values.items()))
        part = memo[3]
        hands, decks = st.hands, st.decks
        hand, deck = hands[seat], decks[seat]
        hunt, hunts, turn, bag = st.hunt, st.hunts, st.turn, len(st.bag)
        hand_sizes, deck_sizes = list(map(len, hands)), list(map(len, decks))
        if (hunt, hunts, turn, bag, hand, deck, hand_sizes, deck_sizes) != part.key:
            values = {}
            self._add_play(values, hunt, hunts, turn, bag, hands, decks, seat)
            key = (hunt, hunts, turn, bag, hand[:], deck[:], hand_sizes, deck_sizes)
            rewrite(out, part, key, list(values.items()))
        part = memo[4]
        picked, selected = st.picked, st.selected[seat]
        if (picked, selected) != part.key:
            values = {}
            self._add_picks(values, picked, selected, rel)
            rewrite(out, part, (picked[:], selected[:]), list(values.items()))
        table = st.table
        for g in range(3):
            part = memo[5 + g]
            cards = table[g]
            if cards != part.key:
                values = {}
                self._add_cards(values, table, g, g + 1, rel)
                rewrite(out, part, cards[:], list(values.items()))
        part = memo[8]
        grounds, out_of_game, owned = st.grounds, st.out_of_game, st.owned
        if (grounds, out_of_game, owned) != part.key:
            values = {}
            self._add_tiles(values, grounds, out_of_game, owned, rel)
            key = ([g[:] for g in grounds], out_of_game[:], [o[:] for o in owned])
            rewrite(out, part, key, list(values.items()))
        part = memo[9]
        pool = st.pool
        if pool != part.key:
            values = {}
            self._add_used(values, pool, rel)
            rewrite(out, part, [cards[:] for cards in pool], list(values.items()))

    # each part's values, ``{offset: value}`` added to ``into``, from the fields of its key

    def _add_phase(self, into: dict[int, float], st: ManitouState, rel: tuple[int, ...]) -> None:
        """The phase; in the sharing phases the sharing and the thief queue."""
        phase = st.phase
        into[self._o_phase + _MANITOU_PHASE_SLOT[phase]] = 1.0
        if phase in _MANITOU_SHARING:
            o, p = self._o_sharing, _MAX_PLAYERS
            into[o + st.ev_ground] = 1.0
            into[o + 3 + _MANITOU_STEP_SLOT[st.ev_step]] = 1.0
            if st.chooser != manitou_state.NO_SEAT:
                into[o + 7 + rel[st.chooser]] = 1.0
            into[o + 7 + p] = st.picks_left / 2
            o = self._o_thief
            for s in st.rob_queue:
                into[o + rel[s]] = 1.0

    def _add_seats(
        self,
        into: dict[int, float],
        dealer: int,
        totem: int,
        horse: int,
        sel_size: Sequence[int],
        rel: tuple[int, ...],
    ) -> None:
        """The dealer and the first player, the totem and horse holders, the selection sizes."""
        o, p, nobody = self._o_seats, _MAX_PLAYERS, manitou_state.NO_SEAT
        into[o + rel[dealer]] = 1.0
        into[o + p + rel[(dealer + 1) % self.players]] = 1.0
        o = self._o_holders
        into[o + (p if totem == nobody else rel[totem])] = 1.0
        into[o + p + 1 + (p if horse == nobody else rel[horse])] = 1.0
        o = self._o_counts
        for s in range(self.players):
            size = sel_size[s]
            if size:
                into[o + rel[s]] = size / 10

    def _add_play(
        self,
        into: dict[int, float],
        hunt: int,
        hunts: int,
        turn: int,
        bag: int,
        hands: Sequence[Sequence[int]],
        decks: Sequence[Sequence[int]],
        seat: int,
    ) -> None:
        """The progress, the seat's hand and deck by card type, the seats' hand and deck sizes."""
        o, n = self._o_progress, self.players
        into[o] = min(hunt + 1, hunts) / max(1, hunts)
        into[o + 1] = turn / (PLAYS_PER_HUNT * n)
        into[o + 2] = bag / 60
        get = into.get
        card_of = _MANITOU_CARD_SLOT
        base = self._o_own + _C
        for card in hands[seat]:
            i = base + card_of[card]
            into[i] = get(i, 0.0) + 1.0
        base += _C
        for card in decks[seat]:
            i = base + card_of[card]
            into[i] = get(i, 0.0) + 1.0
        rel = self._rel[seat]
        base = self._o_counts + 2 * _MAX_PLAYERS
        for s in range(n):
            size = len(hands[s])
            if size:
                into[base + rel[s]] = size / 10
            size = len(decks[s])
            if size:
                into[base + _MAX_PLAYERS + rel[s]] = size / 10

    def _add_picks(
        self,
        into: dict[int, float],
        picked: Sequence[int],
        selected: Sequence[int],
        rel: tuple[int, ...],
    ) -> None:
        """The cards each seat selected, the seat's selection by card type."""
        base = self._o_counts + _MAX_PLAYERS
        for s in range(self.players):
            size = picked[s]
            if size:
                into[base + rel[s]] = size / 10
        o = self._o_own
        for i, value in _manitou_counted(tuple(selected)):
            into[o + i] = value

    def _add_cards(
        self,
        into: dict[int, float],
        table: Sequence[Sequence[int]],
        first: int,
        last: int,
        rel: tuple[int, ...],
    ) -> None:
        """The cards played at grounds ``first`` up to ``last``, by relative seat and type."""
        get = into.get
        c, card_of, down = _C, _MANITOU_CARD_SLOT, manitou_state.DOWN
        for g in range(first, last):
            o = self._o_ground_cards + g * _MAX_PLAYERS * (c + 1)
            for code in table[g]:
                base = o + rel[(code & 255) >> 4] * (c + 1)
                i = base + card_of[code & 15]
                into[i] = get(i, 0.0) + 1.0
                if code & down:
                    into[base + c] = get(base + c, 0.0) + 1.0

    def _add_tiles(
        self,
        into: dict[int, float],
        grounds: Sequence[Sequence[int]],
        out_of_game: Sequence[int],
        owned: Sequence[Sequence[int]],
        rel: tuple[int, ...],
    ) -> None:
        """The grounds' tiles, those out of the game and the seats' owned, by tile type."""
        get = into.get
        tile_of = _MANITOU_TILE_SLOT
        base = self._o_ground_tiles
        for g in range(3):
            for tile in grounds[g]:
                i = base + tile_of[tile]
                into[i] = get(i, 0.0) + 1.0
            base += _T
        base = self._o_out
        for tile in out_of_game:
            i = base + tile_of[tile]
            into[i] = get(i, 0.0) + 1.0
        o = self._o_owned
        for s in range(self.players):
            base = o + rel[s] * _T
            for i, value in _manitou_owned(tuple(owned[s])):
                into[base + i] = value

    def _add_used(
        self, into: dict[int, float], pool: Sequence[Sequence[int]], rel: tuple[int, ...]
    ) -> None:
        """Each seat's cards played in the earlier hunt of the cycle, by card type."""
        o = self._o_used
        for s in range(self.players):
            base = o + rel[s] * _C
            for i, value in _manitou_used(tuple(pool[s])):
                into[base + i] = value
