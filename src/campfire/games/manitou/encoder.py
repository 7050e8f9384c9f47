"""Big Manitou's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, cast, get_args

from campfire.core import Belief
from campfire.core.encoding import Encoder, Vector

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

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        # the fields ManitouState.view builds the keys read by _encode from; of the seats'
        # cards only counts, and the seat's own selection, hand and deck
        st = cast(ManitouState, state)
        c, t, p, n = _C, _T, _MAX_PLAYERS, self.players
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
        # counts per type, read in place: the seat's selection, each seat's tiles owned and
        # cards played (from its cards left of each type)
        for card, k in enumerate(st.selected[seat]):
            if k:
                out[o + card_of[card]] = float(k)
        o_owned, o_used = self._o_owned, self._o_used
        owned, pool, full = st.owned, st.pool, MANITOU_FULL_POOL
        for s in range(n):
            base = o_owned + rel[s] * t
            for tile, k in enumerate(owned[s]):
                if k:
                    out[base + tile_of[tile]] = float(k)
            base = o_used + rel[s] * c
            for card, left in enumerate(pool[s]):
                if left != full[card]:
                    out[base + card_of[card]] = float(full[card] - left)
        o = self._o_holders
        nobody = manitou_state.NO_SEAT
        for i, holder in enumerate((st.totem_holder, st.horse_holder)):
            out[o + i * (p + 1) + (p if holder == nobody else rel[holder])] = 1.0
        o = self._o_counts
        for i, values in enumerate(
            (st.sel_size, st.picked, [len(h) for h in st.hands], [len(d) for d in st.decks])
        ):
            base = o + i * p
            for s, size in enumerate(values):  # (an int: `value` above is a float)
                if size:
                    out[base + rel[s]] = size / 10
        if phase in _MANITOU_SHARING:
            o = self._o_sharing
            out[o + st.ev_ground] = 1.0
            out[o + 3 + _MANITOU_STEP_SLOT[st.ev_step]] = 1.0
            if st.chooser != nobody:
                out[o + 7 + rel[st.chooser]] = 1.0
            out[o + 7 + p] = st.picks_left / 2
            for s in st.rob_queue:
                out[self._o_thief + rel[s]] = 1.0
