"""Apache's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Final, cast, get_args

from campfire.core import Belief
from campfire.core.encoding import Encoder, Vector, float_counts

from . import state as apache_state
from .cards import BOOTY_KINDS, KIND_NAMES
from .cards import TYPES as APACHE_TYPE_NAMES
from .resolve import claim_is_legal
from .state import ApacheState
from .types import ApacheView
from .types import Phase as ApachePhase

__all__ = ["ApacheEncoder"]

_APACHE_COLOURS: Final = ("red", "yellow", "purple", "green", "blue")
_APACHE_TYPES: Final = ("chief", "maiden", "warrior", "hunter")
_APACHE_BOOTY: Final = {KIND_NAMES[k]: k for k in BOOTY_KINDS}
_APACHE_PHASES: Final[tuple[str, ...]] = get_args(ApachePhase)
_APACHE_TYPE: Final = {t: i for i, t in enumerate(_APACHE_TYPES)}
_APACHE_PHASE: Final = {p: i for i, p in enumerate(_APACHE_PHASES)}
# the engine's numbers (claim types, phases) as encoder slots
_APACHE_TYPE_SLOT: Final = tuple(_APACHE_TYPE[name] for name in APACHE_TYPE_NAMES)
_APACHE_PHASE_SLOT: Final = tuple(_APACHE_PHASE[name] for name in apache_state.PHASES)
_K: Final = 25  # relative card kinds (ApacheEncoder.K)
_MAX_PLAYERS: Final = 5


@lru_cache(maxsize=4096)
def _kind_counts(cards: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``(card, count)`` of an Apache pile or the discards, computed once per distinct list.

    They are long and change only when a window is resolved.
    """
    return float_counts(cards)


class ApacheEncoder(Encoder):
    """Apache: the table, piles, scores, the claim poll and the resolution queue."""

    game = "apache"
    max_players = _MAX_PLAYERS
    state_class = ApacheState
    K: ClassVar[int] = _K  # relative card kinds

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

    def _table(self, out: Vector | memoryview[float], kinds: Sequence[int]) -> None:
        """The face-up cards by kind / 9 and the newest one's kind.

        ``kinds`` are the table's cards as relative kinds, in order (the view's cards by name,
        a state's by number, mapped by the caller).
        """
        if kinds:
            o = self._o_table
            counts: dict[int, int] = {}
            for kind in kinds:
                counts[kind] = counts.get(kind, 0) + 1
            for kind, count in counts.items():
                out[o + kind] = count / 9
            out[self._o_last + kinds[-1]] = 1.0

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
        self._table(out, [kind_of[card] for card in view["table"]])
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
        k, n = _K, self.players
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
        self._table(out, [kind_of[card] for card in st.table])
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
