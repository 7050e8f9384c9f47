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


@lru_cache(maxsize=4096)
def _count_values(
    cards: tuple[int, ...], o: int, kind_of: tuple[int, ...]
) -> tuple[tuple[int, float], ...]:
    """``(o + relative kind, count / 9)`` of an Apache pile or the discards, once per distinct one.

    They are long and change only when a window is resolved.
    """
    return tuple([(o + kind_of[kind], value / 9) for kind, value in float_counts(cards)])


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


class _Row(Part):
    """The memo of a kept Apache row (:meth:`ApacheEncoder._update_row`): what it shows.

    The offsets of the one-hot values it set (``-1``: none, as in the blank): the phase, the
    revealer, the table's newest card. The seats to act as bits of relative seats, "protect
    me" as bits of type slots (``-1``: the seat is not answering a poll). The window (``0``,
    the blank's) and the cards face down (``-1``: not written yet). The answers as
    :func:`_answers_key` (``0``: nobody answered, the blank's), the queue as :func:`_queue_key`
    with the offsets it set. Copies of the table, the discards and every seat's pile; every
    card's relative kind for the row's seat in its game's colours (read at its first call).
    :meth:`reset` makes it a new one's again.
    """

    def reset(self) -> None:
        """Show the blank (a new row, or one put back to the blank)."""
        self.acting = self.window = self.answers = self.queue = 0
        self.phase_at = self.revealer_at = self.last_at = self.left = self.protect = -1
        self.queue_at: list[int] = []
        self.table: list[int] = []
        self.discard: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(_MAX_PLAYERS)]
        self.kinds: tuple[int, ...] = ()


class ApacheEncoder(Encoder):
    """Apache: the table, piles, scores, the claim poll and the resolution queue.

    It is :attr:`incremental`: a kept row is brought up to date with only what changed (the
    phase and progress, the table, the newest card, "protect me", the answers, the queue, the
    discards, each seat's pile), kept by a memo of its own (:meth:`_update_row`).
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

    # ----- the state path: the values of each part of a row -------------------------------------
    #
    # encode_state (_encode_state) writes every part's values, made by one function per part;
    # a kept row (_update_row) writes the same values where they changed (the queue's
    # offsets from _queue_values, "protect me" from claim_is_legal as _protect_values reads it)

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
        # the fields ApacheState.view builds the keys read by _encode from, part by part
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

    # ----- a kept row (Encoder._update_row), with its own memo -------------------------------

    #: a kept row is brought up to date with only what changed (:meth:`_update_row`,
    #: one :class:`_Row` as its memo)
    incremental = True
    row_class = _Row

    def _update_row(
        self, state: Any, seat: int, belief: Belief | None, out: memoryview[float], part: Part
    ) -> None:
        """Bring a kept row up to date: only what changed since it was last written.

        The memo is one :class:`_Row`, which holds what the row shows as ints and lists. The
        phase, the revealer and the table's newest card are kept as the offset each one-hot
        value set, moved when it changes; the seats to act and "protect me" as bits; the
        window and the cards face down as the numbers shown; the answers to an open poll as
        :func:`_answers_key` (a digit per seat, only the seats whose digit changed written);
        the queue as :func:`_queue_key` and the offsets it set (written again when the key
        changes, a few times a window); the table, the discards and each seat's pile as
        copies, recounted only at the kinds the change touched
        (:meth:`~campfire.core.encoding.Encoder._show_counts`: cards put on the table or
        taken from it are a kind or two). "Protect me" is worked out again only when the
        table changed while the seat answers a poll. Every value is written through an offset
        and a float that are Python objects already
        (:attr:`~campfire.core.encoding.Encoder._box`).
        """
        st = cast(ApacheState, state)
        row = cast(_Row, part)
        cells: Any = out  # written through boxed offsets and values (see _box)
        box = self._box
        n = self.players
        bits = 0
        for s in st.to_act:
            bits |= 1 << (s - seat) % n
        if bits != row.acting:
            row.acting = self._show_bits(cells, self._o_to_act, row.acting, bits)
        # the step: the phase, the revealer, the window, the cards face down
        phase = st.phase
        at = self._o_phase + _APACHE_PHASE_SLOT[phase]
        if at != row.phase_at:
            row.phase_at = self._move(cells, row.phase_at, at)
        at = self._o_revealer + (st.revealer - seat) % n
        if at != row.revealer_at:
            row.revealer_at = self._move(cells, row.revealer_at, at)
        o = self._o_progress
        if st.window != row.window:
            cells[box[o]] = st.window / 114
            row.window = st.window
        left = len(st.deck) - st.deck_pos
        if left != row.left:
            if left > 0:
                cells[box[o + 1]] = left / 114
                cells[box[o + 2]] = self._zero
            else:  # the last card is out
                cells[box[o + 1]] = self._zero
                cells[box[o + 2]] = self._one
            row.left = left
        # the table, its newest card, the discards and the piles
        kind_of = row.kinds
        if not kind_of:  # the colours are the game's: read once per game
            kind_of = row.kinds = self._rel_kinds_of(st, seat)
        table = st.table
        changed = len(table) != len(row.table) or table != row.table
        if changed:
            self._show_counts(cells, self._o_table, row.table, table, kind_of, 9.0)
            row.table = table.copy()
            at = self._o_last + kind_of[table[-1]] if table else -1
            if at != row.last_at:
                row.last_at = self._move(cells, row.last_at, at)
        cards = st.discard
        if len(cards) != len(row.discard) or cards != row.discard:
            self._show_counts(cells, self._o_discard, row.discard, cards, kind_of, 9.0)
            row.discard = cards.copy()
        piles = st.piles
        for s in range(n):
            cards = piles[s]
            shown = row.piles[s]
            if len(cards) != len(shown) or cards != shown:
                r = (s - seat) % n
                self._show_counts(cells, self._o_piles + r * _K, shown, cards, kind_of, 9.0)
                cells[box[self._o_scores + r]] = len(cards) / 40
                row.piles[s] = cards.copy()
        # an open poll: the answers and, while the seat answers, "protect me"
        polling = phase == apache_state.POLLING
        key = _answers_key(st, seat) if polling else 0
        if key != row.answers:
            o = self._o_answers
            old = row.answers
            for s in range(n):
                code, was = key >> 3 * s & 7, old >> 3 * s & 7
                if code != was:
                    self._show_answer(cells, o + (s - seat) % n * 7, was, code)
            row.answers = key
        if polling and seat in st.to_act:
            if changed or row.protect < 0:
                bits = 0
                for t in range(4):
                    if claim_is_legal(table, seat, t, st.rules, st.counts):
                        bits |= 1 << _APACHE_TYPE_SLOT[t]
                self._show_protect(cells, row, bits)
        elif row.protect >= 0:
            self._show_protect(cells, row, -1)
        # the resolution queue
        key = _queue_key(st.queue, st.resolved)
        if key != row.queue:
            for i in row.queue_at:
                cells[box[i]] = self._zero
            row.queue_at = [i for i, _ in self._queue_values(st.queue, st.resolved, seat)]
            for i in row.queue_at:
                cells[box[i]] = self._one
            row.queue = key

    def _show_protect(self, cells: Any, row: _Row, bits: int) -> None:
        """Show "protect me" as the type slots of ``bits`` (``-1``: not answering, none)."""
        self._show_bits(cells, self._o_protect, max(row.protect, 0), max(bits, 0))
        row.protect = bits

    def _show_answer(self, cells: Any, base: int, was: int, code: int) -> None:
        """Show a seat's answer ``code`` (an :func:`_answers_key` digit) at ``base``.

        Where it showed ``was``: the cells only the old one set are cleared, those only the new
        one sets set (the first cell, "not answered", is the blank's 1.0 too).
        """
        old, new = _answer_cells(base, was), _answer_cells(base, code)
        box = self._box
        for i in old:
            if i >= 0 and i not in new:
                cells[box[i]] = self._zero
        for i in new:
            if i >= 0 and i not in old:
                cells[box[i]] = self._one


def _answer_cells(base: int, code: int) -> tuple[int, int]:
    """The cells an answer ``code`` (an :func:`_answers_key` digit) sets from ``base``.

    Not answered: the first; answered (hidden): the second; a pass: the second and the
    third; a claim: the second and its type's (``-1``: none).

    >>> _answer_cells(10, 0), _answer_cells(10, 6), _answer_cells(10, 1), _answer_cells(10, 2)
    ((10, -1), (11, -1), (11, 12), (11, 13))
    """
    if code == 0:
        return base, -1
    if code == 6:
        return base + 1, -1
    if code == 1:
        return base + 1, base + 2
    return base + 1, base + 3 + _APACHE_TYPE_SLOT[code - 2]
