"""Tracker computer players: a memory model and a heuristic bot.

:class:`TrackerMemory` is what a seat remembers: the cards it peeked (followed through
relocations and, with a perfect memory, into the pile of whoever collected them), and where the
other players peeked. It may be perfect or forgetful (a capacity and a per-step decay).
Determinisations pin the remembered cards.

:class:`TrackerHeuristic` plays like a sensible club player: it peeks at cards it does not know,
captures when it remembers enough enemy scouts (sooner when the game is closing, or when it has
waited long), takes only remembered enemy scouts, and relocates its own scouts and the cards
others were interested in.

Every game between bots ends. The rules let players peek for ever (tracker §5.1, D4: a turn is a
peek or a capture, and nothing limits the peeks), so the bots bound their own waiting: a seat's
memory counts its peeking turns since it last played a tracker (:attr:`TrackerMemory.peek_turns`),
and a bot that has peeked ``patience`` turns in a row captures anyway (possibly nothing), whatever
its memory holds — a forgetful memory may never hold enough enemy scouts at once. With 3 trackers
each, a bot takes at most ``3 * (patience + 1)`` normal turns, so a game of bots is bounded. The
search (ISMCTS) is held to the same bound through :class:`TrackerRollout`, which lets it consider
only captures once its seat has peeked :data:`DEFAULT_PATIENCE` turns in a row.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, cast

from campfire.core import (
    Action,
    Agent,
    Belief,
    ErrorText,
    Event,
    Observation,
    OptionError,
    Outcome,
    RolloutPolicy,
    State,
)
from campfire.core.draws import choice, sample

# from its own module, not the package: mypyc's non-native subclass needs it imported
from .actions import DECLINE, DONE, DROP, LIFT, PEEK, TAKE, TRACK, TrackerAction, TrackerKind
from .cards import NUM_POSITIONS, is_enemy_scout, is_scout, parse_card, parse_tribe, tribe_of
from .config import DEFAULT_PATIENCE, TrackerHeuristicConfig
from .state import (
    COLLECTING,
    EMPTY,
    FINAL_CAPTURE,
    FINAL_PEEK,
    NO_SEAT,
    NORMAL,
    PEEKING,
    RELOCATING,
    TURN_START,
    TrackerState,
)
from .types import PeekCardData, RelocateData, TrackerView

__all__ = [
    "DEFAULT_PATIENCE",
    "TrackerHeuristic",
    "TrackerHeuristicConfig",
    "TrackerMemory",
    "TrackerRollout",
    "parse_memory",
]


_PEEK: Final = TrackerKind.PEEK
_TAKE: Final = TrackerKind.TAKE
_TRACK: Final = TrackerKind.TRACK
_ENDS_OR_TRACKS: Final = frozenset((TrackerKind.TRACK, TrackerKind.DONE, TrackerKind.DECLINE))


def parse_memory(text: str) -> tuple[int, float]:
    """Read a memory spec: ``perfect`` → (0, 0.0), ``none`` → (-1, 0), ``8`` or ``8/0.05``.

    Capacity 0 means unlimited; -1 remembers nothing.

    >>> parse_memory("perfect"), parse_memory("12/0.1")
    ((0, 0.0), (12, 0.1))
    """
    text = text.strip().lower()
    if text == "perfect":
        return 0, 0.0
    if text == "none":
        return -1, 0.0
    cap, _, decay = text.partition("/")
    try:
        capacity = int(cap)
        rate = float(decay) if decay else 0.0
    except ValueError:
        capacity, rate = -2, -1.0
    if capacity < 1 or not 0.0 <= rate <= 1.0:
        raise OptionError(
            ErrorText(
                "memory must be perfect, none, CAPACITY or CAPACITY/DECAY (e.g. "
                "8/0.05); got {text}",
                text=repr(text),
            )
        )
    return capacity, rate


class TrackerMemory(Belief):
    """A seat's memory of Tracker cards (perfect or forgetful)."""

    #: with more than two players, sample other seats' piles as their enemy scouts (:meth:`sample`)
    scout_piles = True

    def __init__(self, seat: int, capacity: int = 0, decay: float = 0.0, seed: int = 0) -> None:
        super().__init__(seat)
        self.capacity = capacity
        self.decay = decay
        self.seed = seed
        # the generator of forgetting, made when first used (:attr:`rng`): seeding one costs
        # more than a move, and a perfect memory never draws
        self._rng: random.Random | None = None
        #: position → card number, least recently refreshed first (a plain dict, in the order
        #: its facts were put in: a refreshed fact is taken out and put in again)
        self.known: dict[int, int] = {}
        #: position → how many times other seats peeked there (followed through relocations)
        self.interest: dict[int, int] = {}
        #: the positions whose known card or interest changed, one entry per change, in order
        #: (emptied when the game ends): an encoder keeping a row reads only those since it
        #: last looked (``TrackerEncoder``); a copy starts with none
        self.touched: list[int] = []
        #: position → the other seats that peeked there (same positions as :attr:`interest`)
        self.peekers: dict[int, set[int]] = {}
        #: seat → the peeked cards it collected (a perfect memory follows a card into a pile)
        self.in_piles: dict[int, list[int]] = {}
        #: this seat's peeking turns since it last played a tracker (or since the start)
        self.peek_turns = 0
        self._peeking = False  # this seat's latest step was a peek (its turn may go on)

    def clone(self) -> TrackerMemory:
        """An independent copy."""
        other = TrackerMemory(self.seat, self.capacity, self.decay, self.seed)
        if self._rng is not None:  # else the copy makes the same generator when it first draws
            rng = other._rng = random.Random(0)
            rng.setstate(self._rng.getstate())
        other.known = dict(self.known)
        other.interest = dict(self.interest)
        other.peekers = {pos: set(seats) for pos, seats in self.peekers.items()}
        other.in_piles = {s: cards[:] for s, cards in self.in_piles.items()}
        other.peek_turns = self.peek_turns
        other._peeking = self._peeking
        return other

    @property
    def rng(self) -> random.Random:
        """The generator of forgetting (``decay``), seeded with :attr:`seed` when first used."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self.seed)
        return rng

    def remember(self, pos: int, card: int) -> None:
        """Store a fact, forgetting the oldest one beyond the capacity."""
        if self.capacity < 0:
            return
        known = self.known
        if pos in known:  # refreshed: the most recent now (a dict keeps its keys in the order
            del known[pos]  # they were put in, so a fact put in again is the last)
        known[pos] = card
        self.touched.append(pos)
        if self.capacity > 0:
            while len(known) > self.capacity:
                oldest = next(iter(known))
                del known[oldest]
                self.touched.append(oldest)

    def observe(self, events: Sequence[Event]) -> None:
        """Follow peeks, captures and relocations, and count this seat's peeking turns.

        Read natively where compiled (a batch of games tells two or more memories every
        move): each event's seat as an int (``NO_SEAT`` for none, as in ``game_over``) and
        compared once, the dicts looked up and changed without their methods (``pop``,
        ``setdefault``: calls through Python's method look-up).
        """
        me = self.seat
        touched = self.touched
        others_acted = False
        # a list is walked natively where compiled (a sequence through Python's iterator)
        told: list[Event] = events if isinstance(events, list) else list(events)
        for e in told:
            t = e.type
            data = e.data
            actor: int = data.get("seat", NO_SEAT)  # every Tracker event's seat is an int
            mine = actor == me
            if t == "peek_card":
                if mine:
                    self.remember(cast(PeekCardData, data)["pos"], parse_card(data["card"]))
            elif t == "peek":
                pos: int = data["pos"]
                if not mine:
                    interest = self.interest
                    interest[pos] = interest.get(pos, 0) + 1
                    touched.append(pos)
                    peekers = self.peekers.get(pos)
                    if peekers is None:
                        peekers = self.peekers[pos] = set()
                    peekers.add(actor)
                elif not self._peeking:  # the first peek of one of this seat's turns
                    self.peek_turns += 1
            elif t == "take":
                pos = data["pos"]
                known = self.known
                card = known.get(pos, -1)
                if card >= 0:
                    del known[pos]
                    if self.capacity == 0 and self.decay == 0:
                        piles = self.in_piles.get(actor)
                        if piles is None:
                            piles = self.in_piles[actor] = []
                        piles.append(card)
                if pos in self.interest:
                    del self.interest[pos]
                if pos in self.peekers:
                    del self.peekers[pos]
                touched.append(pos)
            elif t == "relocate":
                src: int = data["from"]
                dst: int = data["to"]
                known = self.known
                if src in known:
                    known[dst] = known[src]
                    del known[src]
                if src in self.interest:
                    self.interest[dst] = self.interest[src]
                    del self.interest[src]
                if src in self.peekers:
                    self.peekers[dst] = self.peekers[src]
                    del self.peekers[src]
                touched.append(src)
                touched.append(dst)
            elif t == "trackers_played":
                if mine:
                    self.peek_turns = 0
            elif t == "game_over":
                self.known.clear()
                self.interest.clear()
                touched.clear()
                self.peekers.clear()
                self.in_piles.clear()
                self.peek_turns = 0
            if actor != NO_SEAT and not mine:
                others_acted = True
            # a turn of peeks is this seat's peeks with nothing else in between
            self._peeking = mine and (t == "peek" or t == "peek_card")
        if others_acted and self.decay > 0 and self.known:
            rng = self.rng
            for pos in list(self.known):
                if rng.random() < self.decay:
                    del self.known[pos]
                    touched.append(pos)

    def sample(self, state: State, rng: random.Random) -> State:
        """A determinisation with the remembered cards pinned to their positions.

        The remembered cards that were collected stay in their collector's pile: each lands on
        a uniform place of that pile, and the card that was there moves to where the remembered
        card was drawn, which keeps the deal uniform among those consistent with the memory.

        With more than two players (:attr:`scout_piles`), the other cards in other seats' piles
        are taken to be what a player collects on purpose: each that is not an enemy scout of
        its collector is swapped, while any is left, with an enemy scout of that seat from a
        place this memory knows nothing of (see :meth:`_scout_piles`). With two players the
        piles stay uniform, as the two-player ``hard`` level was measured.
        """
        if not isinstance(state, TrackerState):
            return state.determinize(self.seat, rng)
        scouts = self.scout_piles and state.num_players > 2
        if not (self.known or self.in_piles or scouts):
            return state.determinize(self.seat, rng)
        try:
            world = state.determinize(self.seat, rng, known=dict(self.known))
        except ValueError:  # a stale memory: fall back to no pins
            return state.determinize(self.seat, rng)
        if self.in_piles and not world.is_terminal():
            self._pin_piles(world, rng)
        if scouts and not world.is_terminal():
            self._scout_piles(world, rng)
        return world

    def _scout_piles(self, world: TrackerState, rng: random.Random) -> None:
        """Fill other seats' piles with their enemy scouts where this memory does not object.

        A card stays where it is if the memory pins it (a remembered card on the board or one
        followed into a pile) or if it already is an enemy scout of the pile's owner; any other
        card of another seat's pile is swapped with a uniform one of the enemy scouts of that
        seat lying on a free place (the board, or any pile's unpinned cards), while one is left.
        """
        board, piles, tribes = world.board, world.captured, world.tribes
        fixed: set[tuple[int, int]] = {(-1, pos) for pos in self.known}
        for owner, cards in self.in_piles.items():
            if 0 <= owner < len(piles):
                remembered = set(cards)
                fixed.update((owner, i) for i, c in enumerate(piles[owner]) if c in remembered)
        where: dict[int, tuple[int, int]] = {}  # a scout on a free place → that place
        for pos, card in enumerate(board):
            if card != EMPTY and is_scout(card) and (-1, pos) not in fixed:
                where[card] = (-1, pos)
        for owner, pile in enumerate(piles):
            for i, card in enumerate(pile):
                if is_scout(card) and (owner, i) not in fixed:
                    where[card] = (owner, i)
        for owner, pile in enumerate(piles):
            if owner == self.seat:
                continue
            tribe = tribes[owner]
            for i, card in enumerate(pile):
                if (owner, i) in fixed:
                    continue
                fixed.add((owner, i))
                where.pop(card, None)
                if is_enemy_scout(card, tribe):
                    continue
                choices = sorted(c for c in where if tribe_of(c) != tribe)
                if not choices:
                    continue
                scout = choice(rng, choices)
                src = where.pop(scout)
                pile[i] = scout
                if src[0] < 0:
                    board[src[1]] = card
                else:
                    piles[src[0]][src[1]] = card
                if is_scout(card):
                    where[card] = src

    def _pin_piles(self, world: TrackerState, rng: random.Random) -> None:
        """Move each collected remembered card into its collector's pile (see :meth:`sample`)."""
        board, piles = world.board, world.captured
        where: dict[int, tuple[int, int]] = {}  # card → (owner or -1 for the board, index)
        for pos, card in enumerate(board):
            if card != EMPTY:
                where[card] = (-1, pos)
        for owner, pile in enumerate(piles):
            for i, card in enumerate(pile):
                where[card] = (owner, i)
        fixed: set[tuple[int, int]] = {(-1, pos) for pos in self.known}
        for owner in sorted(self.in_piles):
            if not 0 <= owner < len(piles):
                continue
            pile = piles[owner]
            for card in self.in_piles[owner]:
                src = where.get(card)
                if src is None or src in fixed:
                    continue  # a stale memory: leave this card alone
                if src[0] == owner:
                    fixed.add(src)
                    continue
                free = [i for i in range(len(pile)) if (owner, i) not in fixed]
                if not free:
                    continue
                dst = choice(rng, free)
                other_card = pile[dst]
                pile[dst] = card
                if src[0] < 0:
                    board[src[1]] = other_card
                else:
                    piles[src[0]][src[1]] = other_card
                where[other_card] = src
                where[card] = (owner, dst)
                fixed.add((owner, dst))


class TrackerHeuristic(Agent):
    """A rule-based Tracker player with a memory model."""

    name = "heuristic"
    description = "peeks unknown cards, captures remembered enemy scouts, relocates to confuse"
    config_type = TrackerHeuristicConfig
    config: TrackerHeuristicConfig
    belief: TrackerMemory

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._moved: set[int] = set()

    def act(self, obs: Observation) -> Action:
        """Choose the next step of the turn."""
        v = cast(TrackerView, obs.view)
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        mem = self.belief
        seat = self.seat
        my_tribe = parse_tribe(v["tribes"][seat])
        occupied: set[int] = set(v["occupied"])
        trackers: list[int] = v["trackers"]
        known = {p: c for p, c in mem.known.items() if p in occupied}
        enemies = [p for p, c in known.items() if is_scout(c) and tribe_of(c) != my_tribe]
        step = v["step"]
        phase = v["phase"]
        rng = self.rng
        if step in ("turn_start", "peeking"):
            if phase == "final_capture":
                return TRACK[trackers[seat] - 1]
            if phase == "normal" and step == "turn_start" and self._should_capture(v, enemies):
                return TRACK[0]
            unknown = [
                p for p in sorted(occupied) if p not in known and p not in v["peeked_this_turn"]
            ]
            if unknown:
                # prefer cards others were interested in: they may hide scouts
                weights = [1 + 2 * mem.interest.get(p, 0) for p in unknown]
                return PEEK[rng.choices(unknown, weights)[0]]
            if phase == "final_peek" and step == "turn_start":
                return DECLINE
            if phase == "normal" and step == "turn_start":
                # nothing left to learn: capture (possibly nothing) so the game moves on
                return TRACK[0]
            candidates = [p for p in sorted(occupied) if p not in v["peeked_this_turn"]]
            return PEEK[choice(rng, candidates)]
        if step == "collecting":
            return TAKE[enemies[0]] if enemies else DONE
        if step == "relocating":
            return self._relocate(v, known, my_tribe)
        # placing: any empty position
        empty = [p for p in range(NUM_POSITIONS) if p not in occupied]
        return DROP[choice(rng, empty)]

    def _should_capture(self, v: TrackerView, enemies: list[int]) -> bool:
        mem = self.belief
        patience = self.config.patience
        waited = mem.peek_turns
        if waited >= patience:
            # waited long enough: capture what it remembers, even nothing. This bounds every
            # game: a forgetful memory may never hold `greed` enemy scouts at once.
            return True
        if not enemies:
            return False
        need = self.config.greed
        if mem.capacity > 0:
            need = min(need, mem.capacity)  # a memory cannot hold more than its capacity
        if 2 * waited >= patience:
            need = 1  # half-way through its patience: any remembered enemy scout will do
        if len(enemies) >= need:
            return True
        others = sum(t for s, t in enumerate(v["trackers"]) if s != self.seat)
        # the game is closing: few trackers left elsewhere, or few cards left to learn about
        return others <= 2 or len(v["occupied"]) <= 12

    def _relocate(self, v: TrackerView, known: dict[int, int], my_tribe: int) -> Action:
        if v["relocations_this_turn"] >= v["max_relocations"]:
            return DONE
        if v["relocations_this_turn"] == 0:
            self._moved.clear()
        occupied: set[int] = set(v["occupied"])
        interest = self.belief.interest
        own = [p for p, c in known.items() if is_scout(c) and tribe_of(c) == my_tribe]
        watched_own = [p for p in own if interest.get(p, 0) > 0]
        watched = sorted((p for p in interest if p in occupied), key=lambda p: -interest[p])
        for p in watched_own + watched:
            if p not in self._moved:
                return LIFT[p]
        return DONE

    def observe(self, events: Sequence[Event]) -> None:
        """Remember peeks and follow this seat's own moves (not to move a card twice)."""
        super().observe(events)
        for e in events:
            if e.type == "relocate":
                move = cast(RelocateData, e.data)
                if move["seat"] == self.seat:
                    self._moved.add(move["to"])


class TrackerRollout(RolloutPolicy):
    """Plausible play with memory, for search rollouts.

    Every seat remembers the cards it peeks (by identity, so relocations do not matter); the
    searching seat starts with its own memory, and every other seat with the cards at the
    positions it was seen peeking at. A seat captures, like the heuristic bot, when it remembers
    enough enemy scouts, takes only remembered enemy scouts, and never relocates. Because peeks
    made inside the search are remembered too, the search sees what a peek is worth.

    The searching seat's patience is bounded like the bot's: once it has peeked
    :data:`DEFAULT_PATIENCE` turns in a row (its memory's ``peek_turns``), the first candidates
    asked for — the root of the search, at the start of its turn — are the captures only.

    With more than two players three things depend on the player count (with two players the
    model is exactly the one the two-player ``hard`` level was measured with): each other seat
    starts knowing the cards at the positions *it* was seen peeking at (the memory's
    ``peekers``; with two players, every peek of the other seat), the other seats peek
    unknown cards weighted like the heuristic bot's (1, plus 2 for each other seat that has seen
    the card; :attr:`interest_peeks`), and the estimate shares a scout that several seats
    remember (:attr:`share_scouts`, see :meth:`evaluate`).
    """

    horizon = 30
    #: with more than two players, share a scout that several seats remember (see :meth:`evaluate`)
    share_scouts = True
    #: with more than two players, the other seats peek like the heuristic bot (see :meth:`act`)
    interest_peeks = True

    def __init__(self, seat: int, belief: Belief) -> None:
        self.seat = seat
        self.belief = belief
        self.known: list[set[int]] = []
        #: card → how many seats know it (kept with more than two players, for the peeks)
        self.seen: dict[int, int] = {}
        self._root = True  # the next prune is the search's root (a policy serves one search)

    def _start(self, state: TrackerState) -> None:
        self.known = [set() for _ in range(state.num_players)]
        belief = self.belief
        if isinstance(belief, TrackerMemory):
            self.known[self.seat] = set(belief.known.values())
            board = state.board
            for pos, seats in belief.peekers.items():
                if board[pos] != EMPTY:
                    for other in seats:
                        self.known[other].add(board[pos])
        if self.interest_peeks and state.num_players > 2:
            seen = self.seen
            for known in self.known:
                for card in known:
                    seen[card] = seen.get(card, 0) + 1

    def after(self, state: State, seat: int, action: Action) -> None:
        """Remember a peeked card."""
        assert isinstance(state, TrackerState) and isinstance(action, TrackerAction)
        if not self.known:
            self._start(state)
        if action.kind == _PEEK:
            card = state.board[action.arg]
            known = self.known[seat]
            if card not in known:
                known.add(card)
                if len(self.known) > 2 and self.interest_peeks:
                    self.seen[card] = self.seen.get(card, 0) + 1

    def act(self, state: State, seat: int, rng: random.Random) -> Action:
        """The next step of ``seat``."""
        assert isinstance(state, TrackerState)
        if not self.known:
            self._start(state)
        board = state.board
        step = state.step
        phase = state.phase
        known = self.known[seat]
        if step == COLLECTING or (step == TURN_START and phase == NORMAL):
            tribe = state.tribes[seat]
            targets = [p for p, c in enumerate(board) if c in known and is_enemy_scout(c, tribe)]
            if step == COLLECTING:
                return TAKE[targets[0]] if targets else DONE
            others = sum(state.hands) - state.hands[seat]
            if len(targets) >= 3 or (targets and (others <= 2 or state.cards_left <= 12)):
                return TRACK[0]
        if step == TURN_START and phase == FINAL_CAPTURE:
            return TRACK[state.hands[seat] - 1]
        if step in (TURN_START, PEEKING):
            peeked = state.peeked
            # the same list as a filter of BOARD_POSITIONS, built faster (``known`` holds no EMPTY)
            if peeked:
                fresh = [
                    p
                    for p, c in enumerate(board)
                    if c != EMPTY and c not in known and p not in peeked
                ]
            else:
                fresh = [p for p, c in enumerate(board) if c != EMPTY and c not in known]
            if fresh:
                if self.interest_peeks and seat != self.seat and len(self.known) > 2:
                    return PEEK[self._interesting(fresh, board, seat, rng)]
                return PEEK[choice(rng, fresh)]
            if step == TURN_START and phase == FINAL_PEEK:
                return DECLINE
            if step == TURN_START and phase == NORMAL:
                return TRACK[0]  # nothing left to learn
            any_card = [p for p in range(NUM_POSITIONS) if board[p] != EMPTY and p not in peeked]
            return PEEK[choice(rng, any_card)]
        if step == RELOCATING:
            return DONE
        empty = [p for p in range(NUM_POSITIONS) if board[p] == EMPTY]
        return DROP[choice(rng, empty)]

    def _interesting(
        self, fresh: list[int], board: list[int], seat: int, rng: random.Random
    ) -> int:
        """A position of ``fresh`` for another seat's peek, drawn like the heuristic bot's.

        Each card weighs 1, plus 2 for every other seat that has seen it: a card others looked
        at may hide a scout (:class:`TrackerHeuristic` weighs by ``interest``).
        """
        # ``fresh`` holds no card ``seat`` knows: every seat that knows one is another seat
        seen = self.seen.get
        return rng.choices(fresh, [1 + 2 * seen(board[p], 0) for p in fresh])[0]

    def prune(
        self, state: State, seat: int, actions: list[Action], rng: random.Random
    ) -> list[Action]:
        """Sensible candidates: few unknown peeks, remembered targets, a bounded set of moves.

        At the root, a seat that has peeked :data:`DEFAULT_PATIENCE` turns in a row is offered
        only its captures, so that a search, too, always ends its game.
        """
        assert isinstance(state, TrackerState)
        if not self.known:
            self._start(state)
        if self._root:
            self._root = False
            belief = self.belief
            if (
                seat == self.seat
                and state.step == TURN_START
                and state.phase == NORMAL
                and isinstance(belief, TrackerMemory)
                and belief.peek_turns >= DEFAULT_PATIENCE
            ):
                captures: list[Action] = [
                    a for a in actions if isinstance(a, TrackerAction) and a.kind == _TRACK
                ]
                if captures:
                    return captures
        known = self.known[seat]
        board = state.board
        tribe = state.tribes[seat]
        keep: list[Action] = []
        unknown: list[Action] = []
        other: list[Action] = []
        for a in actions:
            assert isinstance(a, TrackerAction)
            kind = a.kind
            if kind in _ENDS_OR_TRACKS:
                keep.append(a)
            elif kind in (_PEEK, _TAKE):
                card = board[a.arg]
                if card in known:
                    if kind == _TAKE and is_enemy_scout(card, tribe):
                        keep.append(a)  # a remembered enemy scout
                else:
                    unknown.append(a)
            else:
                other.append(a)
        if len(unknown) > 4:
            unknown = sample(rng, unknown, 4)
        if len(other) > 4:
            other = sample(rng, other, 4)
        if state.step == COLLECTING:
            unknown = unknown[:1]  # blind grabs are rarely right: one candidate is enough
        chosen = keep + unknown + other
        return chosen if chosen else actions

    def evaluate(self, state: State) -> Outcome | None:
        """The score now, plus 3 for every remembered enemy scout a seat can still capture.

        With more than two players, a scout that several seats remember and can capture is
        shared: each of them gets ``3 / k`` (and ``1 / k`` of an enemy scout for the tiebreak),
        since only one of them will collect it. With two players every seat that remembers it
        gets the full 3, as the two-player ``hard`` level was measured.
        """
        assert isinstance(state, TrackerState)
        if not self.known:
            self._start(state)
        outcome = state.score()
        board = state.board
        scores: list[float] = list(outcome.scores)
        enemies: list[float] = [d["enemy_scouts_captured"] for d in outcome.details]
        players = state.num_players
        if players > 2 and self.share_scouts:
            hands, tribes, all_known = state.hands, state.tribes, self.known
            able = [s for s in range(players) if hands[s] > 0]
            for c in board:
                if c == EMPTY:
                    continue
                takers = [s for s in able if c in all_known[s] and is_enemy_scout(c, tribes[s])]
                if takers:
                    share = 1.0 / len(takers)
                    for s in takers:
                        scores[s] += 3 * share
                        enemies[s] += share
            return Outcome.from_scores(scores, tiebreak=enemies)
        for seat in range(players):
            if state.hands[seat] == 0:
                continue
            tribe = state.tribes[seat]
            known = self.known[seat]
            gain = sum(1 for c in board if c in known and is_enemy_scout(c, tribe))
            scores[seat] += 3 * gain
            enemies[seat] += gain
        return Outcome.from_scores(scores, tiebreak=enemies)
