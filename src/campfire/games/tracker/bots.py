"""Tracker computer players: a memory model and a heuristic bot.

:class:`TrackerMemory` is what a seat remembers: the cards it peeked (followed through
relocations, dropped when collected), and where the other players peeked. It may be perfect or
forgetful (a capacity and a per-step decay). Determinisations pin the remembered cards.

:class:`TrackerHeuristic` plays like a sensible club player: it peeks at cards it does not know,
captures when it remembers enough enemy scouts (sooner when the game is closing), takes only
remembered enemy scouts, and relocates its own scouts and the cards others were interested in.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from campfire.core import (
    Action,
    Agent,
    AgentConfig,
    Belief,
    Event,
    Observation,
    OptionError,
    State,
    option,
)

from .actions import DECLINE, DONE, DROP, LIFT, PEEK, TAKE, TRACK
from .cards import is_scout, parse_card, parse_tribe, tribe_of

__all__ = [
    "TrackerHeuristic",
    "TrackerHeuristicConfig",
    "TrackerMemory",
    "parse_memory",
    "rollout_policy",
]


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
            f"memory must be perfect, none, CAPACITY or CAPACITY/DECAY (e.g. 8/0.05); got {text!r}"
        )
    return capacity, rate


class TrackerMemory(Belief):
    """A seat's memory of Tracker cards (perfect or forgetful)."""

    def __init__(self, seat: int, capacity: int = 0, decay: float = 0.0, seed: int = 0) -> None:
        super().__init__(seat)
        self.capacity = capacity
        self.decay = decay
        self.rng = random.Random(seed)
        #: position → card number, least recently refreshed first
        self.known: OrderedDict[int, int] = OrderedDict()
        #: position → how many times other seats peeked there (followed through relocations)
        self.interest: dict[int, int] = {}

    def clone(self) -> TrackerMemory:
        """An independent copy."""
        other = TrackerMemory(self.seat, self.capacity, self.decay)
        other.rng.setstate(self.rng.getstate())
        other.known = OrderedDict(self.known)
        other.interest = dict(self.interest)
        return other

    def remember(self, pos: int, card: int) -> None:
        """Store a fact, forgetting the oldest one beyond the capacity."""
        if self.capacity < 0:
            return
        self.known[pos] = card
        self.known.move_to_end(pos)
        if self.capacity > 0:
            while len(self.known) > self.capacity:
                self.known.popitem(last=False)

    def observe(self, events: Sequence[Event]) -> None:
        """Follow peeks, captures and relocations."""
        others_acted = False
        for e in events:
            t = e.type
            data = e.data
            if t == "peek_card" and data["seat"] == self.seat:
                self.remember(data["pos"], parse_card(data["card"]))
            elif t == "peek" and data["seat"] != self.seat:
                self.interest[data["pos"]] = self.interest.get(data["pos"], 0) + 1
            elif t == "take":
                self.known.pop(data["pos"], None)
                self.interest.pop(data["pos"], None)
            elif t == "relocate":
                src, dst = data["from"], data["to"]
                if src in self.known:
                    self.known[dst] = self.known.pop(src)
                if src in self.interest:
                    self.interest[dst] = self.interest.pop(src)
            elif t == "game_over":
                self.known.clear()
                self.interest.clear()
            if data.get("seat", self.seat) != self.seat:
                others_acted = True
        if others_acted and self.decay > 0 and self.known:
            for pos in list(self.known):
                if self.rng.random() < self.decay:
                    del self.known[pos]

    def sample(self, state: State, rng: random.Random) -> State:
        """A determinisation with the remembered cards pinned to their positions."""
        from .state import TrackerState

        if isinstance(state, TrackerState) and self.known:
            try:
                return state.determinize(self.seat, rng, known=dict(self.known))
            except ValueError:  # a stale memory: fall back to no pins
                pass
        return state.determinize(self.seat, rng)


@dataclass(frozen=True)
class TrackerHeuristicConfig(AgentConfig):
    """Parameters of the Tracker heuristic bot."""

    memory: str = option("perfect", help="perfect, none, CAPACITY or CAPACITY/DECAY (e.g. 8/0.05)")
    greed: int = option(3, help="remembered enemy scouts needed before capturing")

    def validate(self) -> None:
        """Check the memory spec and greed."""
        parse_memory(self.memory)
        if self.greed < 1:
            raise OptionError("greed must be at least 1")


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
        v = obs.view
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
            candidates = [p for p in sorted(occupied) if p not in v["peeked_this_turn"]]
            return PEEK[rng.choice(candidates)]
        if step == "collecting":
            return TAKE[enemies[0]] if enemies else DONE
        if step == "relocating":
            return self._relocate(v, known, my_tribe)
        # placing: any empty position
        empty = [p for p in range(60) if p not in occupied]
        return DROP[rng.choice(empty)]

    def _should_capture(self, v: dict[str, Any], enemies: list[int]) -> bool:
        if not enemies:
            return False
        if len(enemies) >= self.config.greed:
            return True
        others = sum(t for s, t in enumerate(v["trackers"]) if s != self.seat)
        # the game is closing: few trackers left elsewhere, or few cards left to learn about
        return others <= 2 or len(v["occupied"]) <= 12

    def _relocate(self, v: dict[str, Any], known: dict[int, int], my_tribe: int) -> Action:
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
            if e.type == "relocate" and e.data["seat"] == self.seat:
                self._moved.add(e.data["to"])


def rollout_policy(state: State, seat: int, rng: random.Random) -> Action:
    """A fast model of plausible play for search rollouts (uses the determinised state).

    A seat peeks at random cards and, now and then, captures: it takes enemy scouts it "knows"
    (each with some chance of being remembered) and never relocates. Played on determinisations
    inside a search, so seeing the cards stands for a player's memory of them.
    """
    from .state import (
        COLLECTING,
        FINAL_CAPTURE,
        FINAL_PEEK,
        PEEKING,
        RELOCATING,
        TURN_START,
        TrackerState,
    )

    assert isinstance(state, TrackerState)
    board = state.board
    step = state.step
    if step in (TURN_START, PEEKING):
        if step == TURN_START:
            if state.phase == FINAL_CAPTURE:
                return TRACK[state.hands[seat] - 1]
            if state.phase == FINAL_PEEK:
                return DECLINE
            if rng.random() < 0.25:
                return TRACK[0]
        peeked = state.peeked
        choices = [p for p in range(60) if board[p] >= 0 and p not in peeked]
        return PEEK[choices[rng.randrange(len(choices))]]
    if step == COLLECTING:
        tribe = state.tribes[seat]
        enemies = [
            p for p in range(60) if board[p] >= 0 and board[p] % 10 < 3 and board[p] // 10 != tribe
        ]
        if enemies and rng.random() < 0.7:
            return TAKE[enemies[rng.randrange(len(enemies))]]
        return DONE
    if step == RELOCATING:  # no moves in rollouts
        return DONE
    empty = [p for p in range(60) if board[p] < 0]
    return DROP[empty[rng.randrange(len(empty))]]
