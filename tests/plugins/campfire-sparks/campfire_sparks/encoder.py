"""Sparks' observation encoder for the adapters (OpenSpiel, PettingZoo): a view as a vector.

It reads only the seat's view, so a state and any of its determinisations for the seat encode
identically. Seats are relative: slot ``k`` is the seat ``k`` places to the observer's left.

>>> from campfire_sparks import GAME
>>> state = GAME.new_game(3, seed=1)
>>> enc = GAME.encoder(3)
>>> vec = enc.encode(state.view(0), None)
>>> vec.shape == (enc.size,), float(vec[enc.slot("hand").offset :][:27].sum())
(True, 5.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from campfire.core import Belief

from .cards import NUM_CARDS, SUIT_NAMES, parse_card
from .types import SparksView

if TYPE_CHECKING:
    from campfire.adapters.encoders import Encoder
else:
    try:  # the plugin contract's home of the base class (issue 27)
        from campfire.core.encoding import Encoder
    except ImportError:  # before it: the adapters' own
        from campfire.adapters.encoders import Encoder

__all__ = ["SparksEncoder"]

#: most cards in a trick in progress (one per player but the last)
_TRICK = 3


class SparksEncoder(Encoder):
    """Sparks: the own hand, the trick, the played cards and the counts, as 0/1 and fractions."""

    game = "sparks"
    max_players = 4

    def _build(self) -> None:
        p = self.max_players
        self._common()
        self._o_hand = self._add("hand", (NUM_CARDS,), "the cards in the seat's own hand")
        self._o_trick = self._add(
            "trick", (_TRICK, NUM_CARDS), "the cards of the trick in progress, in the order played"
        )
        self._o_leader = self._add("leader", (p,), "one-hot: the relative seat that led the trick")
        self._o_led = self._add("led", (3,), "one-hot: the led suit (red, blue, green)")
        self._o_played = self._add("played", (NUM_CARDS,), "the cards of the completed tricks")
        self._o_counts = self._add(
            "counts", (2, p), "per relative seat: cards in hand / 6, tricks won / 6"
        )
        self._o_trumps = self._add("trumps", (1,), "1 when red is trumps")

    def _encode(
        self, view: Mapping[str, Any], belief: Belief | None, out: np.ndarray[Any, Any], seat: int
    ) -> None:
        v = cast(SparksView, view)
        n, p = self.players, self.max_players
        for name in v["hand"]:
            out[self._o_hand + parse_card(name)] = 1.0
        for i, name in enumerate(v["trick"]):
            out[self._o_trick + i * NUM_CARDS + parse_card(name)] = 1.0
        out[self._o_leader + (v["leader"] - seat) % n] = 1.0
        if v["led"] is not None:
            out[self._o_led + SUIT_NAMES.index(v["led"])] = 1.0
        for name in v["played"]:
            out[self._o_played + parse_card(name)] = 1.0
        for s in range(n):
            r = (s - seat) % n
            out[self._o_counts + r] = v["hand_counts"][s] / 6
            out[self._o_counts + p + r] = v["tricks"][s] / 6
        out[self._o_trumps] = 1.0 if v["trumps"] else 0.0
