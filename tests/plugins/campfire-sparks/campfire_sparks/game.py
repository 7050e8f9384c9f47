"""The Sparks game spec: setup, positions, agents, presenter and encoder (sparks rules §3)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from campfire.core import (
    ActionSpace,
    Agent,
    Belief,
    ErrorText,
    Game,
    GameRng,
    Options,
    RolloutPolicy,
    SetupError,
)
from campfire.core.validate import short_repr

from . import actions as _actions
from .cards import NUM_CARDS, card_name, parse_card
from .options import MAX_HAND, SparksOptions
from .position import read_state
from .present import SparksPresenter
from .state import SparksState

if TYPE_CHECKING:
    from .encoder import SparksEncoder

__all__ = ["GAME", "SparksGame"]

_SETUP_FIELDS = ("start_player", "hands", "unused")


class SparksGame(Game[SparksState]):
    """Sparks: a small trick-taking game of 27 cards in three suits.

    >>> state = GAME.new_game(3, {"hand_size": 4}, seed=2)
    >>> [len(h) for h in state.hands], len(state.unused)
    ([4, 4, 4], 15)
    """

    name = "sparks"
    title = "Sparks"
    min_players = 2
    max_players = 4
    options_type = SparksOptions
    action_space = ActionSpace.from_module(_actions)
    # at most 4 × 6 cards are played, one action each
    playout_bound = 100

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Shuffle the 27 cards, deal ``hand_size`` to each seat, draw the start player (§3)."""
        assert isinstance(options, SparksOptions)
        cards = list(range(NUM_CARDS))
        rng.shuffle(cards)
        k = options.hand_size
        hands = [sorted(cards[s * k : (s + 1) * k]) for s in range(players)]
        return {
            "start_player": rng.randrange(players),
            "hands": [[card_name(c) for c in h] for h in hands],
            "unused": [card_name(c) for c in sorted(cards[players * k :])],
        }

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> SparksState:
        """Build the initial state from an explicit deal (hands, unused cards, start player)."""
        assert isinstance(options, SparksOptions)
        self._check_setup_fields(setup, _SETUP_FIELDS)
        start = setup.get("start_player", 0)
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
            raise SetupError(
                ErrorText(
                    "start_player must be a seat 0–{last} (got {start})",
                    last=players - 1,
                    start=short_repr(start),
                )
            )
        raw_hands = setup.get("hands")
        k = options.hand_size
        if (
            not isinstance(raw_hands, list)
            or len(raw_hands) != players
            or not all(isinstance(h, list) and len(h) == k for h in raw_hands)
        ):
            raise SetupError(
                ErrorText(
                    "hands must list {players} hands of {count} cards each",
                    players=players,
                    count=k,
                )
            )
        hands = [[parse_card(c) for c in h] for h in raw_hands]
        dealt = {c for h in hands for c in h}
        raw_unused = setup.get("unused")
        if raw_unused is None:
            unused = [c for c in range(NUM_CARDS) if c not in dealt]
        elif isinstance(raw_unused, list):
            unused = [parse_card(c) for c in raw_unused]
        else:
            raise SetupError(ErrorText("unused must list the cards dealt to nobody"))
        every = [*(c for h in hands for c in h), *unused]
        if sorted(every) != list(range(NUM_CARDS)):
            raise SetupError(
                ErrorText("the hands and the unused cards must hold each of the 27 cards once")
            )
        return SparksState(options, hands, unused, start)

    def state_from_position(self, data: Mapping[str, Any]) -> SparksState:
        """Rebuild a state from :meth:`SparksState.to_position` output (:mod:`.position`)."""
        return self._read_position(data, read_state)

    def new_belief(
        self, seat: int, players: int, options: Options, memory: str = "perfect", seed: int = 0
    ) -> Belief:
        """A Sparks memory: which suits each other seat is known to lack (``memory`` ignored)."""
        from .bots import SparksMemory

        return SparksMemory(seat)

    def agents(self) -> dict[str, type[Agent]]:
        """The Sparks heuristic bot."""
        from .bots import SparksHeuristic

        return {"heuristic": SparksHeuristic}

    def rollout_policy(self, seat: int, belief: Belief) -> RolloutPolicy | None:
        """The heuristic's rule of thumb with a little noise (see :class:`.bots.SparksRollout`)."""
        from .bots import SparksRollout

        return SparksRollout()

    def presenter(self) -> SparksPresenter:
        """Sparks' presenter (``present.py``)."""
        return SparksPresenter(self)

    def encoder(self, players: int) -> SparksEncoder:
        """The observation encoder for the adapters (``encoder.py``, imported lazily)."""
        from .encoder import SparksEncoder

        self.check_players(players)
        return SparksEncoder(players)

    def move_cap(self, players: int) -> int:
        """One action per card dealt: a game of ``players`` never lasts longer (rules §5)."""
        return players * MAX_HAND

    def public_scores(self, view: Mapping[str, Any]) -> list[float] | None:
        """The tricks each seat has taken so far (everyone sees them, rules §4.3)."""
        return [float(t) for t in view["tricks"]]

    def rules_text(self) -> str:
        """The English rules, from the package (``campfire_sparks/rules/sparks.md``)."""
        root = resources.files(__name__.rpartition(".")[0]).joinpath("rules")
        return root.joinpath(f"{self.name}.md").read_text(encoding="utf-8")


GAME = SparksGame()
SparksState.game = GAME
