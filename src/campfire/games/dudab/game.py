"""The Dudab game spec: setup, positions and action notation (dudab §2).

An explicit setup (``docs/notation/dudab.md``, section "Setup") gives the round-1 start player
and the deck order of every round, top card first: all the random draws of a physical game, so
a typed-in game needs no seed (rounds without a given deck are shuffled from the game's seed).
Positions (section "Position") are read strictly by :mod:`.position`: an impossible one
raises ``PositionError``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
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
from campfire.core.draws import randbelow
from campfire.core.validate import short_repr

from . import actions as _actions
from .cards import card_name, cards_in_use, parse_card
from .options import DudabOptions
from .position import read_state, require_every_card_once, require_no_jungle_or_baby_dealt
from .present import DudabPresenter
from .state import HAND_DEAL, DudabState, columns_for, random_deck

if TYPE_CHECKING:  # numpy: imported with the encoder, by the adapters only
    from .encoder import DudabEncoder

__all__ = ["GAME", "DudabGame"]


class DudabGame(Game[DudabState]):
    """Dudab: shed your cards onto shared columns; the lowest total after N rounds wins.

    >>> state = GAME.new_game(4, {"use_jungle": True}, seed=3)
    >>> len(state.draw), state.ncols, len(state.decks)   # dudab §2.3: 88 - 12 - 2
    (74, 2, 3)
    """

    name = "dudab"
    title = "Dudab"
    min_players = 2
    max_players = 6
    options_type = DudabOptions
    action_space = ActionSpace.from_module(_actions)
    # every few steps a card leaves the draw pile, so a round is short: over 4,000 random
    # playouts (2–6 players, all expansion sets) the longest game took 672 actions
    playout_bound = 3_000

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw the round-1 start player (D32) and a shuffled deck for every round (§2.3)."""
        start, decks = self._draw(players, options, rng)
        return {"start_player": start, "decks": [[card_name(c) for c in d] for d in decks]}

    def random_state(
        self, players: int, options: Options, rng: random.Random, play: GameRng
    ) -> DudabState:
        """The state :meth:`random_setup`'s setup makes, built from the draws directly."""
        start, decks = self._draw(players, options, rng)
        assert isinstance(options, DudabOptions)
        return DudabState.new(options, players, start, decks)

    @staticmethod
    def _draw(players: int, options: Options, rng: random.Random) -> tuple[int, list[list[int]]]:
        """The start player (drawn unless the options give it) and every round's deck."""
        assert isinstance(options, DudabOptions)
        start = options.start_player
        if start >= players:
            raise SetupError(
                ErrorText(
                    "start_player must be a seat 0–{last} (got {start})",
                    last=players - 1,
                    start=start,
                )
            )
        if start < 0:
            start = randbelow(rng, players)
        cards = cards_in_use(options.use_jungle, options.use_baby)
        head = HAND_DEAL * players + columns_for(players)
        return start, [random_deck(cards, head, rng) for _ in range(players)]

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> DudabState:
        """Build the initial state from an explicit setup (start player, 1–N decks)."""
        assert isinstance(options, DudabOptions)
        self._check_setup_fields(setup, ("start_player", "decks"))
        start = setup.get("start_player", options.start_player)
        if start == -1 and "start_player" not in setup:
            start = randbelow(rng, players)  # D32: drawn at random unless given
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
            raise SetupError(
                ErrorText(
                    "start_player must be a seat 0–{last} (got {start})",
                    last=players - 1,
                    start=short_repr(start),
                )
            )
        raw = setup.get("decks")
        if not isinstance(raw, list) or not 1 <= len(raw) <= players:
            raise SetupError(
                ErrorText(
                    "decks must list the deck order (top card first) of 1–{players} rounds",
                    players=players,
                )
            )
        cards = cards_in_use(options.use_jungle, options.use_baby)
        head = HAND_DEAL * players + columns_for(players)
        decks = []
        for r, deck in enumerate(raw):
            if not isinstance(deck, list):
                raise SetupError(
                    ErrorText("deck {number} must be a list of card ids", number=r + 1)
                )
            ids = [parse_card(name) for name in deck]
            require_every_card_once(ids, cards, f"deck {r + 1}", SetupError)
            require_no_jungle_or_baby_dealt(ids, head, f"deck {r + 1}", SetupError)
            decks.append(ids)
        while len(decks) < players:
            decks.append(random_deck(cards, head, rng))
        return DudabState.new(options, players, start, decks)

    def state_from_position(self, data: Mapping[str, Any]) -> DudabState:
        """Rebuild a state from :meth:`DudabState.to_position` output."""
        return self._read_position(data, read_state)

    def agents(self) -> dict[str, type[Agent]]:
        """The Dudab heuristic bot (see :mod:`.bots`)."""
        from .bots import DudabHeuristic

        return {"heuristic": DudabHeuristic}

    def new_belief(
        self, seat: int, players: int, options: Options, memory: str = "perfect", seed: int = 0
    ) -> Belief:
        """What the seat saw go out of sight (see :mod:`.belief`); ``none`` forgets it."""
        from .belief import DudabMemory

        return Belief(seat) if memory.strip().lower() == "none" else DudabMemory(seat)

    def rollout_policy(self, seat: int, belief: Belief) -> RolloutPolicy | None:
        """Short rule-of-thumb rollouts scored as if the round ended (see :mod:`.rollout`)."""
        from .rollout import DudabRollout

        return DudabRollout()

    def encoder(self, players: int) -> DudabEncoder:
        """The observation encoder for the research adapters (:mod:`.encoder`)."""
        from .encoder import DudabEncoder

        self.check_players(players)
        return DudabEncoder(players)

    def public_scores(self, view: Mapping[str, Any]) -> list[float]:
        """The round totals, negated (the lowest total wins)."""
        return [-float(x) for x in view["totals"]]

    def presenter(self) -> DudabPresenter:
        """Dudab's presenter (``present.py``): columns, prompts, log lines, legend."""
        return DudabPresenter(self)

    def difficulty_levels(self, players: int) -> dict[str, str]:
        """Easy and medium are the heuristic bot (easy with random slips); hard searches.

        ``ismcts:iterations=1000`` with the game's rollout model (:mod:`.rollout`: 20-action
        rule-of-thumb rollouts scored as the round stands, the hand discounted while the draw
        pile is long, the two best calls of a Dudab placement searched, rewarding the score
        margin); its strength against the heuristic is measured in ``docs/strength.md``.

        The spec is the same at every player count; the rollout model's estimate depends on it:
        from 4 players on the hand counts in full while the draw pile is long
        (:attr:`.rollout.DudabRollout.hand_weight_many`; half with 2 or 3 players), since a
        seat that draws up to a full hand is forced into captures there. With 2 and 3 players
        the model, and so every decision, is the one measured before that change.
        """
        return {
            "easy": "heuristic:noise=0.3",
            "medium": "heuristic",
            "hard": "ismcts:iterations=1000",
        }


GAME = DudabGame()
DudabState.game = GAME
