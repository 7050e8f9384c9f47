"""The Tracker game spec: setup, positions and action notation (tracker §3)."""

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
from campfire.core.draws import randbelow, sample, shuffle
from campfire.core.validate import short_repr

from . import actions as _actions
from .bots import TrackerMemory, parse_memory  # (new_belief runs at every new game of a batch)
from .cards import NUM_CARDS, NUM_POSITIONS, NUM_TRIBES, card_name, parse_card, tribe_name
from .options import TrackerOptions
from .position import check_cards, read_state
from .present import TrackerPresenter
from .state import TrackerState, read_tribes

if TYPE_CHECKING:  # numpy: imported with the encoder, by the adapters only
    from .encoder import TrackerEncoder

__all__ = ["GAME", "HARD_ITERATIONS", "TrackerGame"]

#: ISMCTS iterations of the ``hard`` level by player count. The search's multi-player model
#: costs more per iteration than the two-player one, and a decision keeps to half a second of
#: CPU. 3 players: 650, evaluated clearly above the fair share; 4 players: 800, after 550 was
#: not clearly above it (both evaluations in docs/strength.md); 5 and 6 players: chosen from
#: CPU time alone (no strength figure at those counts)
HARD_ITERATIONS = {2: 1000, 3: 650, 4: 800, 5: 700, 6: 650}


class TrackerGame(Game[TrackerState]):
    """Tracker (Stopař): memorise where enemy scouts hide, then capture them blind.

    >>> game = TrackerGame()
    >>> state = game.new_game(2, {"peek_count": 3}, seed=1)
    >>> state.options.peek_count, len(state.view(0)["occupied"])
    (3, 60)
    """

    name = "tracker"
    title = "Tracker"
    min_players = 2
    max_players = 6
    options_type = TrackerOptions
    action_space = ActionSpace.from_module(_actions)
    # random playouts end long before this (peeking forever is legal, so no rule bounds a game)
    playout_bound = 20_000
    #: turns, and a peeked card shows for a few seconds only (docs/play.md, campfire.tui.modes)
    play_modes = ("timed-peek", "turns")
    #: the positions a seat peeked at may stay marked (``timed-peek``)
    assists = ("learning",)

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw tribes, shuffle all 60 cards onto the board, draw the start player (§3)."""
        tribes = sample(rng, range(NUM_TRIBES), players)
        cards = list(range(NUM_CARDS))
        shuffle(rng, cards)
        return {
            "tribes": [tribe_name(t) for t in tribes],
            "start_player": randbelow(rng, players),
            "board": [card_name(c) for c in cards],
        }

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> TrackerState:
        """Build the initial state from an explicit setup (tribes, start player, 60 cards)."""
        assert isinstance(options, TrackerOptions)
        self._check_setup_fields(setup, ("tribes", "start_player", "board"))
        tribes = read_tribes(setup.get("tribes"), players, SetupError)
        start = setup.get("start_player", 0)
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
            raise SetupError(
                ErrorText(
                    "start_player must be a seat 0–{last} (got {start})",
                    last=players - 1,
                    start=short_repr(start),
                )
            )
        raw = setup.get("board")
        if not isinstance(raw, list) or len(raw) != NUM_POSITIONS:
            raise SetupError(
                ErrorText(
                    "board must list the card on each of the {num_positions} positions",
                    num_positions=NUM_POSITIONS,
                )
            )
        board = [parse_card(name) for name in raw]
        check_cards(board, SetupError)
        state = TrackerState.new(options, tribes, board, start)
        return state

    def state_from_position(self, data: Mapping[str, Any]) -> TrackerState:
        """Rebuild a state from :meth:`TrackerState.to_position` output.

        Every impossible position raises :class:`PositionError` naming the field: a card missing
        or in two places, a count or a seat out of range, a phase, step or turn in progress that
        the rules cannot reach (see ``docs/notation/tracker.md``, section "Position"); the
        reader, one named check per rule, is :func:`.position.read_state`.
        """
        return self._read_position(data, read_state)

    def new_belief(
        self, seat: int, players: int, options: Options, memory: str = "perfect", seed: int = 0
    ) -> Belief:
        """A Tracker memory: ``perfect``, ``none``, ``CAPACITY`` or ``CAPACITY/DECAY``."""
        capacity, decay = parse_memory(memory)
        return TrackerMemory(seat, capacity, decay, seed)

    def agents(self) -> dict[str, type[Agent]]:
        """The Tracker heuristic bot."""
        from .bots import TrackerHeuristic

        return {"heuristic": TrackerHeuristic}

    def rollout_policy(self, seat: int, belief: Belief) -> RolloutPolicy | None:
        """Plausible play with memory for search rollouts (see :class:`.bots.TrackerRollout`)."""
        from .bots import TrackerRollout

        return TrackerRollout(seat, belief)

    def encoder(self, players: int) -> TrackerEncoder:
        """The observation encoder for the research adapters (:mod:`.encoder`)."""
        from .encoder import TrackerEncoder

        self.check_players(players)
        return TrackerEncoder(players)

    def move_cap(self, players: int) -> int:
        """1000: the rules have no bound (a player may peek on every turn for ever).

        Random play ends within a few hundred moves; a policy that never captures is cut here.
        """
        return 1000

    def presenter(self) -> TrackerPresenter:
        """Tracker's presenter (``present.py``): board, prompts, log lines, legend."""
        return TrackerPresenter(self)

    def difficulty_levels(self, players: int) -> dict[str, str]:
        """Easy forgets much, medium forgets a little, hard searches with a perfect memory.

        What the search of ``hard`` assumes depends on the player count. With more than two
        players its model (:class:`.bots.TrackerRollout`, :meth:`.bots.TrackerMemory.sample`)
        gives each other seat only its own peeks, lets the others peek where others looked,
        shares a scout several seats remember in its estimate, and samples other seats' piles
        as their enemy scouts; with two players the model is exactly the one the two-player
        figures of ``docs/strength.md`` were measured with. That model costs more per
        iteration, so ``hard`` runs fewer iterations with more than two players
        (:data:`HARD_ITERATIONS`) to keep a decision within the time budget of
        ``docs/strength.md``.

        >>> GAME.difficulty_levels(2)["hard"], GAME.difficulty_levels(4)["hard"]
        ('ismcts:iterations=1000', 'ismcts:iterations=800')
        """
        self.check_players(players)  # a clear error outside 2-6 players
        return {
            "easy": "heuristic:memory=6/0.05",
            "medium": "heuristic:memory=16/0.01",
            "hard": f"ismcts:iterations={HARD_ITERATIONS[players]}",
        }


GAME = TrackerGame()
TrackerState.game = GAME
