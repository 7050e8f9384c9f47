"""Apache's observation encoder for the research adapters (``docs/adapters.md``).

``GAME.encoder(players)`` builds it (:mod:`campfire.core.encoding` has the contract).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Final, cast, get_args

from campfire.core import Belief
from campfire.core.encoding import Encoder, Part, Vector, float_counts

from . import state as apache_state
from .cards import BOOTY_KINDS, KIND_NAMES
from .cards import TYPES as APACHE_TYPE_NAMES
from .resolve import Claim, claim_is_legal
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
# a kept row's parts (ApacheEncoder._update_state): their places in the memo
_P_STEP: Final = 1
_P_TABLE: Final = 2
_P_LAST: Final = 3
_P_PROTECT: Final = 4
_P_ANSWERS: Final = 5
_P_QUEUE: Final = 6
_P_DISCARD: Final = 7
_P_PILES: Final = 8  # one per absolute seat
_PARTS: Final = _P_PILES - 1 + _MAX_PLAYERS


@lru_cache(maxsize=4096)
def _count_values(
    cards: tuple[int, ...], o: int, kind_of: tuple[int, ...]
) -> tuple[tuple[int, float], ...]:
    """``(o + relative kind, count / 9)`` of an Apache pile or the discards, once per distinct one.

    They are long and change only when a window is resolved.
    """
    return tuple([(o + kind_of[kind], value / 9) for kind, value in float_counts(cards)])


def _starts_with(cards: list[int], prefix: list[int]) -> bool:
    """Whether ``cards`` begins with ``prefix`` (a loop of ints: no slice is made).

    >>> _starts_with([3, 1, 4], [3, 1]), _starts_with([3, 1], [1])
    (True, False)
    """
    if len(prefix) > len(cards):
        return False
    for j in range(len(prefix)):  # noqa: SIM110 - a C loop where compiled (all() is not)
        if cards[j] != prefix[j]:
            return False
    return True


def _answers_key(st: ApacheState, seat: int) -> int:
    """What the ``answers`` part shows of an open poll to ``seat``, as one int.

    A base-8 digit per seat: 0 not answered, 6 answered (the answer hidden), 1 a pass or
    2 + the claim's type where the answer is shown (the seat's own; all in arrival mode).
    """
    answered, answers, arrival = st.answered, st.answers, st.arrival
    key = 0
    for s in range(len(answered) - 1, -1, -1):
        code = 0
        if answered[s]:
            if arrival or s == seat:
                claim = answers[s]
                code = 1 if claim is None else 2 + claim.type
            else:
                code = 6
        key = key * 8 + code
    return key


def _queue_key(queue: list[Claim], resolved: int) -> int:
    """What the ``queue`` part shows, as one int.

    Each claim's seat, type and legality (a base-64 digit per claim, never 0), then how many
    of them are resolved (the low 3 bits).
    """
    key = 0
    for claim in queue:
        key = key * 64 + claim.seat * 8 + claim.type * 2 + (1 if claim.legal else 0) + 1
    return key * 8 + resolved


class ApacheEncoder(Encoder):
    """Apache: the table, piles, scores, the claim poll and the resolution queue.

    It is :attr:`incremental`: a kept row is brought up to date part by part (the phase and
    progress, the table, the newest card, "protect me", the answers, the queue, the discards,
    each seat's pile), each part written again only when what it is made of changed.
    """

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

    def _table_values(
        self, counts: Sequence[int], kind_of: Sequence[int]
    ) -> list[tuple[int, float]]:
        """The ``table`` part: the face-up cards by kind / 9.

        ``counts[c]`` is the number of cards ``c`` on the table and ``kind_of[c]`` its relative
        kind (a state's counts by card number, or the view's by relative kind).
        """
        o = self._o_table
        return [(o + kind_of[c], count / 9) for c, count in enumerate(counts) if count]

    def _fill_blank(self, blank: Vector) -> None:
        """Every seat "not answered" (as they are but where a seat answered an open poll)."""
        for s in range(self.players):
            blank[self._o_answers + s * 7] = 1.0

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
        table = view["table"]
        if table:
            on_table = [0] * k  # by relative kind
            for card in table:
                on_table[kind_of[card]] += 1
            for i, value in self._table_values(on_table, range(k)):
                out[i] = value
            out[self._o_last + kind_of[table[-1]]] = 1.0
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

    # ----- the state path: the parts of a row and the values each writes -----------------------
    #
    # encode_state (_encode_state) and a kept row (_update_state) write the same values, made by
    # the same functions: one per part, each reading only what its key holds or follows from it
    # (the table's counts from the table). The key of a part is everything its values depend on
    # but what is fixed for a row (the seat, the number of players) or for a game (the colours,
    # so the relative kinds; the rules "protect me" reads).

    def _rel_kinds_of(self, st: ApacheState, seat: int) -> tuple[int, ...]:
        """Every card number's relative kind for ``seat`` in this game's colours (cached)."""
        key = (seat, st.colours)  # the neutral colours follow from the seats' colours
        kind_of = self._rel_kinds.get(key)
        if kind_of is None:
            by_name = self._kinds(st.view(seat), seat)
            kind_of = tuple(by_name.get(name, -1) for name in KIND_NAMES)
            if len(self._rel_kinds) < 1024:
                self._rel_kinds[key] = kind_of
        return kind_of

    def _step_values(
        self, phase: int, revealer: int, window: int, left: int, seat: int
    ) -> list[tuple[int, float]]:
        """The ``step`` part: the phase, the revealer and the progress (``left``: face down)."""
        o = self._o_progress
        values = [
            (self._o_phase + _APACHE_PHASE_SLOT[phase], 1.0),
            (self._o_revealer + (revealer - seat) % self.players, 1.0),
        ]
        if window:
            values.append((o, window / 114))
        if left > 0:
            values.append((o + 1, left / 114))
        else:
            values.append((o + 2, 1.0))  # the last card is out
        return values

    def _pile_values(
        self, pile: tuple[int, ...], r: int, kind_of: tuple[int, ...]
    ) -> list[tuple[int, float]]:
        """A ``pile`` part: the pile of relative seat ``r`` by kind / 9, and its size / 40."""
        if not pile:
            return []
        values = list(_count_values(pile, self._o_piles + r * _K, kind_of))
        values.append((self._o_scores + r, len(pile) / 40))
        return values

    def _discard_values(
        self, discard: tuple[int, ...], kind_of: tuple[int, ...]
    ) -> list[tuple[int, float]]:
        """The ``discard`` part: the penalty cards out of the game by kind / 9."""
        if not discard:
            return []
        return list(_count_values(discard, self._o_discard, kind_of))

    def _answer_values(
        self, answered: Sequence[bool], answers: Sequence[Claim | None], arrival: bool, seat: int
    ) -> list[tuple[int, float]]:
        """The ``answers`` part while a poll is open (the blank: nobody answered).

        Of the answers only whether each seat answered, the seat's own answer (every answer in
        arrival mode, where they are public).
        """
        n, o = self.players, self._o_answers
        values: list[tuple[int, float]] = []
        for s in range(n):
            if answered[s]:
                base = o + (s - seat) % n * 7
                values.append((base, 0.0))
                values.append((base + 1, 1.0))
                if arrival or s == seat:
                    claim = answers[s]
                    if claim is None:
                        values.append((base + 2, 1.0))
                    else:
                        values.append((base + 3 + _APACHE_TYPE_SLOT[claim.type], 1.0))
        return values

    def _queue_values(
        self, queue: Sequence[Claim], resolved: int, seat: int
    ) -> list[tuple[int, float]]:
        """The ``queue`` part: the resolution queue, ``resolved`` of its claims resolved."""
        n, o = self.players, self._o_queue
        values: list[tuple[int, float]] = []
        for i, claim in enumerate(queue):
            base = o + (claim.seat - seat) % n * 7
            values.append((base, 1.0))
            values.append((base + 1 + _APACHE_TYPE_SLOT[claim.type], 1.0))
            if claim.legal:
                values.append((base + 5, 1.0))
            if i < resolved:
                values.append((base + 6, 1.0))
        return values

    def _protect_values(
        self, st: ApacheState, seat: int, counts: Sequence[int]
    ) -> list[tuple[int, float]]:
        """The ``protect`` part while ``seat`` answers a poll: the types it may claim legally.

        They follow from the table's ``counts`` (the seat and the rules fixed).
        """
        o = self._o_protect
        table, rules = st.table, st.rules
        return [
            (o + _APACHE_TYPE_SLOT[t], 1.0)
            for t in range(4)
            if claim_is_legal(table, seat, t, rules, counts)
        ]

    def _encode_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float]
    ) -> None:
        # the fields ApacheState.view builds the keys read by _encode from, part by part (the
        # values of _update_state's parts, all of them)
        st = cast(ApacheState, state)
        n = self.players
        kind_of = self._rel_kinds_of(st, seat)
        phase = st.phase
        values = self._step_values(phase, st.revealer, st.window, len(st.deck) - st.deck_pos, seat)
        table = st.table
        if table:
            values += self._table_values(st.counts, kind_of)
            values.append((self._o_last + kind_of[table[-1]], 1.0))
        for s, pile in enumerate(st.piles):
            if pile:
                values += self._pile_values(tuple(pile), (s - seat) % n, kind_of)
        if st.discard:
            values += _count_values(tuple(st.discard), self._o_discard, kind_of)
        if phase == apache_state.POLLING:
            values += self._answer_values(st.answered, st.answers, st.arrival, seat)
            if seat in st.to_act:
                values += self._protect_values(st, seat, st.counts)
        if st.queue:
            values += self._queue_values(st.queue, st.resolved, seat)
        for i, value in values:
            out[i] = value

    #: a kept row's parts (``memo[1:]``): step, table, last, protect, answers, queue, discard,
    #: then one pile per absolute seat (those of seats the game lacks never written)
    incremental = True
    parts = _PARTS

    def _update_state(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], memo: list[Part]
    ) -> None:
        """Rewrite the parts whose key changed since the row was last brought up to date.

        The keys: ``step`` (phase, revealer, window, cards face down); ``table`` the table's
        cards and ``last`` its newest card; ``protect`` the table while the seat answers a
        poll, else ``None``; ``answers`` who answered and the answers shown to the seat while a
        poll is open, else ``None``; ``queue`` the queue and how many of it are resolved;
        ``discard`` and each ``pile`` their cards. The table, the discards and the piles, long
        and changed a card or two at a time, write only the kinds whose count may have changed
        (:meth:`_recount`).
        """
        st = cast(ApacheState, state)
        phase = st.phase
        left = len(st.deck) - st.deck_pos
        # phase, revealer, window and cards face down as one int (nothing made to compare)
        key: object = ((phase * 8 + st.revealer) * 1024 + st.window) * 1024 + left
        part = memo[_P_STEP]
        if key != part.key:
            self._rewrite(
                out, part, key, self._step_values(phase, st.revealer, st.window, left, seat)
            )
        # the table, the discards and the piles: long lists, kept as copies (compared with the
        # state's lists, with nothing made while they are unchanged)
        kind_of: tuple[int, ...] | None = None
        table = st.table
        part = memo[_P_TABLE]
        old = part.key
        if table != old:
            kind_of = self._rel_kinds_of(st, seat)
            if isinstance(old, list):
                self._recount(out, part, table[:], old, self._o_table, kind_of)
            else:
                self._rewrite(out, part, table[:], self._table_values(st.counts, kind_of))
        last = table[-1] if table else -1
        part = memo[_P_LAST]
        if last != part.key:
            if kind_of is None:
                kind_of = self._rel_kinds_of(st, seat)
            self._rewrite(
                out, part, last, [] if last < 0 else [(self._o_last + kind_of[last], 1.0)]
            )
        polling = phase == apache_state.POLLING
        # the table (its copy) while the seat answers a poll, else nothing
        key = memo[_P_TABLE].key if polling and seat in st.to_act else None
        part = memo[_P_PROTECT]
        if key != part.key:
            values = [] if key is None else self._protect_values(st, seat, st.counts)
            self._rewrite(out, part, key, values)
        # the answers while a poll is open, as one int (_answers_key), else nothing
        key = _answers_key(st, seat) if polling else None
        part = memo[_P_ANSWERS]
        if key != part.key:
            answered, answers = st.answered, st.answers
            values = [] if key is None else self._answer_values(answered, answers, st.arrival, seat)
            self._rewrite(out, part, key, values)
        key = _queue_key(st.queue, st.resolved)
        part = memo[_P_QUEUE]
        if key != part.key:
            self._rewrite(out, part, key, self._queue_values(st.queue, st.resolved, seat))
        discard = st.discard
        part = memo[_P_DISCARD]
        old = part.key
        if discard != old:
            if kind_of is None:
                kind_of = self._rel_kinds_of(st, seat)
            if isinstance(old, list):
                self._recount(out, part, discard[:], old, self._o_discard, kind_of)
            else:
                self._rewrite(out, part, discard[:], self._discard_values(tuple(discard), kind_of))
        n, o_scores = self.players, self._o_scores
        for s, pile in enumerate(st.piles):
            part = memo[_P_PILES + s]
            old = part.key
            if pile != old:
                if kind_of is None:
                    kind_of = self._rel_kinds_of(st, seat)
                r = (s - seat) % n
                if isinstance(old, list):
                    self._recount(out, part, pile[:], old, self._o_piles + r * _K, kind_of)
                    i = o_scores + r
                    out[i] = len(pile) / 40  # as _pile_values has it (the blank's is 0)
                    part.note(i)
                else:
                    self._rewrite(out, part, pile[:], self._pile_values(tuple(pile), r, kind_of))

    def _recount(
        self,
        out: memoryview[float],
        part: Part,
        cards: list[int],
        old: list[int],
        o: int,
        kind_of: tuple[int, ...],
    ) -> None:
        """Bring a part that counts ``cards`` by relative kind / 9 at ``o`` up to date.

        It counted ``old``, and keeps ``cards`` (a copy) as its key: only the kinds whose count
        may differ are written (as
        :func:`_count_values` and :meth:`_table_values` have them; the blank's are 0). The table,
        the discards and the piles are long and change by a card or two: cards put on top or
        taken from it, most of the time.
        """
        k, m = len(old), len(cards)
        # compared and walked in loops of ints, without a slice or a set (a kind written
        # twice is written with the same count)
        if k <= m and _starts_with(cards, old):  # cards put on top
            for j in range(k, m):
                self._recount_kind(out, part, cards, cards[j], o, kind_of)
        elif m < k and _starts_with(old, cards):  # cards taken from the top
            for j in range(m, k):
                self._recount_kind(out, part, cards, old[j], o, kind_of)
        else:
            changed = set(old)
            changed.update(cards)
            for c in changed:
                self._recount_kind(out, part, cards, c, o, kind_of)
        part.key = cards

    def _recount_kind(
        self,
        out: memoryview[float],
        part: Part,
        cards: list[int],
        c: int,
        o: int,
        kind_of: tuple[int, ...],
    ) -> None:
        """Write the count / 9 of card ``c``'s kind in ``cards`` at ``o``, noted in ``part``."""
        i = o + kind_of[c]
        count = 0  # counted in a loop of ints (native where compiled; list.count compares
        for x in cards:  # each item as an object)
            if x == c:
                count += 1
        out[i] = count / 9
        part.note(i)
