"""Sparks computer players: a memory of voids, a heuristic bot and a rollout model for search.

* :class:`SparksMemory` remembers which suits each other seat is known to lack (a seat that did
  not follow suit has none of the led suit, sparks rules §4.2, announced in the ``play`` event)
  and deals only worlds that agree.
* :class:`SparksHeuristic` plays a simple rule of thumb (:func:`rule_of_thumb`): lead the
  highest card; when following, win the trick with the lowest card that wins it, else throw the
  lowest card.
* :class:`SparksRollout` is the same rule with a few random moves, on full (determinised) states,
  for ISMCTS.

>>> from campfire.core import Observation
>>> from campfire_sparks import GAME
>>> state = GAME.new_game(2, seed=5)
>>> bot = SparksHeuristic(GAME, 1, 2, state.options, seed=1)
>>> state.view(1)["hand"], str(bot.act(Observation(state, 1)))
(['B5', 'G1', 'G7', 'G8', 'G9'], 'play G9')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from campfire.core import (
    Action,
    Agent,
    Belief,
    Event,
    NoisyConfig,
    Observation,
    RolloutPolicy,
    State,
)

from .actions import SparksAction
from .cards import NUM_RANKS, SUIT_NAMES, TRUMP, parse_card
from .state import SparksState, trick_winner
from .types import PlayData, SparksView

__all__ = ["SparksHeuristic", "SparksMemory", "SparksRollout", "rule_of_thumb"]


def rule_of_thumb(
    legal: Sequence[SparksAction], trick: Sequence[int], trumps: bool
) -> SparksAction:
    """The heuristic's choice among ``legal`` with ``trick`` on the table.

    >>> from campfire_sparks.actions import PLAY
    >>> str(rule_of_thumb([PLAY[2], PLAY[6]], [4], False))  # R7 beats R5: the lowest winner
    'play R7'
    >>> str(rule_of_thumb([PLAY[2], PLAY[3]], [6], False))  # nothing wins: the lowest card
    'play R3'
    """
    if not trick:  # lead the highest card, a trump last
        return max(
            legal, key=lambda a: (not (trumps and a.card // NUM_RANKS == TRUMP), a.card % NUM_RANKS)
        )
    place = len(trick)
    winners = [a for a in legal if trick_winner([*trick, a.card], trumps) == place]
    if winners:
        return min(
            winners, key=lambda a: (a.card // NUM_RANKS == TRUMP and trumps, a.card % NUM_RANKS)
        )
    return min(legal, key=lambda a: (a.card // NUM_RANKS == TRUMP and trumps, a.card % NUM_RANKS))


class SparksMemory(Belief):
    """Which suits each seat is known to lack; worlds are dealt so that they agree.

    >>> from campfire_sparks import GAME
    >>> memory = SparksMemory(0)
    >>> memory.observe([Event("play", {"seat": 1, "card": "B2", "void": "red"})])
    >>> memory.voids
    {1: {0}}
    """

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        #: seat → the suits (0 red, 1 blue, 2 green) it is known to lack
        self.voids: dict[int, set[int]] = {}

    def clone(self) -> SparksMemory:
        """An independent copy."""
        other = SparksMemory(self.seat)
        other.voids = {s: set(v) for s, v in self.voids.items()}
        return other

    def observe(self, events: Sequence[Event]) -> None:
        """Note every ``play`` event that shows a seat lacks the led suit."""
        for event in events:
            if event.type == "play":
                data = cast(PlayData, event.data)
                void = data["void"]
                if void is not None and data["seat"] != self.seat:
                    self.voids.setdefault(data["seat"], set()).add(SUIT_NAMES.index(void))

    def sample(self, state: State, rng: random.Random) -> State:
        """A determinisation in which no seat holds a suit it is known to lack."""
        world = state.determinize(self.seat, rng)
        if not self.voids or not isinstance(world, SparksState):
            return world
        others = [s for s in range(world.num_players) if s != self.seat]
        if all(
            not (self.voids.get(s, set()) & {c // NUM_RANKS for c in world.hands[s]})
            for s in others
        ):
            return world
        pool = sorted(c for s in others for c in world.hands[s])
        pool.extend(world.unused)
        pool.sort()
        rng.shuffle(pool)
        owners = [s for s in others for _ in world.hands[s]] + [-1] * len(world.unused)
        dealt = _match(pool, owners, self.voids)
        if dealt is None:  # a memory that does not fit this state: the plain deal
            return world
        for s in others:
            world.hands[s] = sorted(c for c, o in zip(pool, dealt, strict=True) if o == s)
        world.unused = sorted(c for c, o in zip(pool, dealt, strict=True) if o == -1)
        return world


def _match(cards: list[int], owners: list[int], voids: dict[int, set[int]]) -> list[int] | None:
    """Each card's owner (a seat, or -1: unused), every slot filled and no void broken.

    A bipartite matching of cards to slots (Kuhn's augmenting paths), trying slots in the
    order given; ``None`` when there is none.
    """
    slot_of: list[int] = [-1] * len(cards)  # card index → slot
    card_in: list[int] = [-1] * len(owners)  # slot → card index

    def allowed(card: int, slot: int) -> bool:
        owner = owners[slot]
        return owner < 0 or card // NUM_RANKS not in voids.get(owner, ())

    def place(i: int, seen: set[int]) -> bool:
        for slot in range(len(owners)):
            if slot in seen or not allowed(cards[i], slot):
                continue
            seen.add(slot)
            if card_in[slot] < 0 or place(card_in[slot], seen):
                card_in[slot] = i
                slot_of[i] = slot
                return True
        return False

    for i in range(len(cards)):
        if not place(i, set()):
            return None
    return [owners[slot_of[i]] for i in range(len(cards))]


class SparksHeuristic(Agent):
    """A rule-based Sparks player (reads only its view; deterministic given its seed)."""

    name = "heuristic"
    description = "leads high, wins tricks cheaply, throws low cards; fast"
    config_type = NoisyConfig
    config: NoisyConfig

    def act(self, obs: Observation) -> Action:
        """Choose one of the legal actions by :func:`rule_of_thumb`."""
        legal = [a for a in obs.legal_actions if isinstance(a, SparksAction)]
        if len(legal) == 1:
            return legal[0]
        slip = self.config.slip(self.rng, legal)
        if slip is not None:
            return slip
        view = cast(SparksView, obs.view)
        trick = [parse_card(c) for c in view["trick"]]
        return rule_of_thumb(legal, trick, view["trumps"])


class SparksRollout(RolloutPolicy):
    """The heuristic's rule of thumb on full states, with one move in ten at random."""

    def act(self, state: State, seat: int, rng: random.Random) -> Action:
        """A legal action for ``seat``."""
        st = cast(SparksState, state)
        legal = cast(list[SparksAction], st.legal_actions(seat))
        if len(legal) == 1 or rng.random() < 0.1:
            return legal[rng.randrange(len(legal))]
        return rule_of_thumb(legal, st.trick, st.trumps)
