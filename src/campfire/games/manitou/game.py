"""The Big Manitou game spec: setup, positions and action notation (manitou §2).

An explicit setup (see ``docs/notation/manitou.md``, section "Setup") holds every random draw of
a physical game: the dealer of the first hunt, the tiles of the bag in the order they are drawn,
and for each hunt the order of each seat's personal deck (cards in the order drawn)::

    {"dealer": 0, "tiles": ["tipi3", "buffalo1", "totem", ...],
     "decks": [[["h7", "chief", "h2", ...], ...], ...]}

Hunts beyond ``decks`` (and the DRAW variant's selections there) are shuffled by the game's
generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from campfire.core import (
    Action,
    ActionSpace,
    Agent,
    Belief,
    ErrorText,
    Event,
    Game,
    GameRng,
    Options,
    RolloutPolicy,
    SetupError,
)
from campfire.core.draws import randbelow, shuffle
from campfire.core.present import Presenter
from campfire.core.validate import short_repr

from . import actions as _actions
from .cards import (
    CARD_NAMES,
    FULL_POOL,
    MAX_BAG_TILES,
    NUM_CARD_TYPES,
    NUM_TILE_TYPES,
    TILE_NAMES,
    parse_tile,
)
from .options import ManitouOptions
from .position import read_deals, read_returns, read_state
from .state import HUNTS, ManitouState

if TYPE_CHECKING:  # numpy: imported with the encoder, by the adapters only
    from .encoder import ManitouEncoder

__all__ = ["GAME", "ManitouGame"]


class ManitouGame(Game[ManitouState]):
    """Big Manitou: hunters and heroes compete for tiles at three hunting grounds.

    >>> game = ManitouGame()
    >>> state = game.new_game(4, seed=1)
    >>> state.hunts, len(state.seats_to_act()), [len(g) for g in state.grounds]
    (4, 4, [3, 3, 3])
    """

    name = "manitou"
    title = "Big Manitou"
    min_players = 2
    max_players = 5
    options_type = ManitouOptions
    action_space = ActionSpace.from_module(_actions)
    # per hunt at most 9 + 3·8 + 7 picks, 7·5 plays, 1 totem play, 1 horse move, 5 thief choices
    # and 3·3 tile choices (91), for at most 5 hunts
    playout_bound = 460
    #: every seat selects its card of a play at once
    simultaneous_steps = True

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw every random element of a game (manitou §2, §5 H4, §12 M15).

        The first dealer, the order of the tiles in the bag, and for every hunt each seat's
        shuffled personal deck (all 17 cards: the seat's deck is its selection in that order,
        and in the DRAW variant the selection is the first available cards); with
        ``leftover_tiles=bag`` also the places of tiles going back into the bag. The draw uses
        a generator derived from ``rng``'s state and leaves ``rng`` itself untouched.

        >>> game = ManitouGame()
        >>> setup = game.random_setup(3, game.options(), GameRng(5))
        >>> sorted(setup), len(setup["decks"]), [len(d) for d in setup["decks"][0]]
        (['dealer', 'decks', 'tiles'], 3, [17, 17, 17])
        >>> game.new_game(3, seed=5).position_equal(game.new_game(3, setup=setup, seed=5))
        True
        """
        assert isinstance(options, ManitouOptions)
        dealer, tiles, deals, returns = self._draw(players, options, rng)
        setup: dict[str, Any] = {
            "dealer": dealer,
            "tiles": [TILE_NAMES[t] for t in tiles],
            "decks": [[[CARD_NAMES[c] for c in order] for order in deal] for deal in deals],
        }
        if options.leftover_tiles == "bag":
            setup["returns"] = returns
        return setup

    def _draw(
        self, players: int, options: Options, rng: random.Random
    ) -> tuple[int, list[int], list[tuple[tuple[int, ...], ...]], list[int]]:
        """:meth:`random_setup`'s draw as numbers: the dealer, the bag, the decks, the returns.

        ``returns`` is empty unless ``leftover_tiles=bag``. The draw uses a generator
        derived from ``rng``'s state and leaves ``rng`` itself untouched.
        """
        assert isinstance(options, ManitouOptions)
        sub = random.Random(f"manitou-setup:{rng.getstate()!r}")
        counts = options.tile_counts()
        tiles = [t for t in range(NUM_TILE_TYPES) for _ in range(counts[t])]
        shuffle(sub, tiles)
        dealer = randbelow(sub, players)
        full = [c for c in range(NUM_CARD_TYPES) for _ in range(FULL_POOL[c])]
        deals = []
        for _ in range(HUNTS[players]):
            deal = []
            for _ in range(players):
                order = full[:]
                shuffle(sub, order)
                deal.append(tuple(order))
            deals.append(tuple(deal))
        returns: list[int] = []
        if options.leftover_tiles == "bag":
            per_ground = options.tiles_per_ground or _per_ground(players)
            returns = [
                randbelow(sub, _RETURN_RANGE) for _ in range(3 * per_ground * HUNTS[players])
            ]
        return dealer, tiles, deals, returns

    def random_state(
        self, players: int, options: Options, rng: random.Random, play: GameRng
    ) -> ManitouState:
        """The state of :meth:`random_setup`'s draw, built from its numbers.

        What ``from_setup(random_setup(...))`` builds, without the names written out, read
        back and checked (a drawn setup is valid by construction): it cost more than the rest
        of a new game (``tests/core/test_random_state.py`` compares the two).
        """
        assert isinstance(options, ManitouOptions)
        dealer, tiles, deals, returns = self._draw(players, options, rng)
        return self._start(players, options, dealer, tiles, deals, returns, play)

    def _start(
        self,
        players: int,
        options: ManitouOptions,
        dealer: int,
        bag: list[int],
        deals: list[tuple[tuple[int, ...], ...]],
        returns: list[int],
        rng: GameRng,
    ) -> ManitouState:
        """The initial state (the first hunt laid out) from a setup's numbers."""
        state = ManitouState.new(options, players, dealer, bag, rng)
        state.deals = deals
        state.returns = returns
        state._start_hunt([])
        return state

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> ManitouState:
        """Build the initial state (the first hunt laid out) from an explicit setup.

        ``dealer`` (default 0), ``tiles`` (the bag in draw order), optionally ``decks`` (per
        hunt, per seat, the personal deck in draw order) and ``returns`` (with
        ``leftover_tiles=bag``); see ``docs/notation/manitou.md``, "Setup".
        """
        assert isinstance(options, ManitouOptions)
        self._check_setup_fields(setup, ("dealer", "tiles", "decks", "returns"))
        dealer = setup.get("dealer", 0)
        if type(dealer) is not int or not 0 <= dealer < players:
            raise SetupError(
                ErrorText(
                    "dealer must be a seat 0–{last} (got {dealer})",
                    last=players - 1,
                    dealer=short_repr(dealer),
                )
            )
        raw = setup.get("tiles")
        if not isinstance(raw, list):
            raise SetupError(
                ErrorText(
                    "tiles must list the tiles of the bag in draw order, e.g. ['tipi3', 'totem']"
                )
            )
        if len(raw) > MAX_BAG_TILES:
            raise SetupError(
                ErrorText(
                    "the bag holds at most {max_bag_tiles} tiles (got {n_raw})",
                    max_bag_tiles=MAX_BAG_TILES,
                    n_raw=len(raw),
                )
            )
        bag = [parse_tile(name) for name in raw]
        deals = read_deals(setup.get("decks", []), players, options, dealer, 0, SetupError)
        returns = read_returns(setup.get("returns", []), options, SetupError)
        return self._start(players, options, dealer, bag, deals, returns, rng)

    def state_from_position(self, data: Mapping[str, Any]) -> ManitouState:
        """Rebuild a state from :meth:`ManitouState.to_position` output.

        Every field is checked (types, ranges, seats, phase and seat to act, each seat's cards
        in one place each): anything else raises :class:`PositionError` naming the field.
        """
        return self._read_position(data, read_state)

    def rollout_policy(self, seat: int, belief: Belief) -> RolloutPolicy | None:
        """The heuristic's play for about a hunt, scored by the tiles owned (:mod:`.rollout`)."""
        from .rollout import ManitouRollout

        return ManitouRollout()

    def agents(self) -> dict[str, type[Agent]]:
        """The Big Manitou heuristic bot."""
        from .bots import ManitouHeuristic

        return {"heuristic": ManitouHeuristic}

    def difficulty_levels(self, players: int) -> dict[str, str]:
        """Easy: the heuristic, 30% random moves; medium: the heuristic; hard: a search.

        Easy plays a uniformly random legal move three times in ten (``noise=0.3``). Hard
        searches with heuristic rollouts: the game's rollout policy plays as the heuristic bot
        does, read straight from the simulated state (the same search as
        ``rollout=heuristic``, several times faster). A short search (30 iterations) lost to
        the heuristic bot, so the heuristic itself is the medium level. Hard runs 250
        iterations, what the compiled build runs in the time pure Python ran 100 (250 won 0.73
        of 200 games against 100, ``docs/strength.md``). The same at every player count.
        """
        return {
            "easy": "heuristic:noise=0.3",
            "medium": "heuristic",
            "hard": "ismcts:iterations=250",
        }

    def undoable(self, seat: int, action: Action, events: Sequence[Event]) -> bool:
        """A secret pick may be taken back: its private line names a card of the seat's own pool.

        Anything else that was private (a dealt or drawn card) revealed something: refused.
        """
        return all(e.to is None or e.type == "pick_card" for e in events)

    def encoder(self, players: int) -> ManitouEncoder:
        """The observation encoder for the research adapters (:mod:`.encoder`)."""
        from .encoder import ManitouEncoder

        self.check_players(players)
        return ManitouEncoder(players)

    def presenter(self) -> Presenter:
        """Big Manitou's presenter: the grounds, the cards and the log in the game's words."""
        from .present import ManitouPresenter

        return ManitouPresenter(self)


#: seeded setups draw each bag return place from 0 … this − 1 (taken modulo the bag size + 1)
_RETURN_RANGE = 2**31


def _per_ground(players: int) -> int:
    from .state import TILES_PER_GROUND

    return TILES_PER_GROUND[players]


GAME = ManitouGame()
ManitouState.game = GAME
