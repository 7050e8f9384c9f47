"""The Big Manitou game spec: setup, positions and action notation (manitou §2).

An explicit setup (see ``docs/notation/manitou.md``, section "Setup") gives the dealer of the
first hunt and the tiles of the bag in the order they are drawn::

    {"dealer": 0, "tiles": ["tipi3", "buffalo1", "totem", ...]}

The personal deck shuffles (and the DRAW variant's selections) come from the game's seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from campfire.core import (
    ActionSpace,
    Agent,
    Belief,
    Game,
    GameRng,
    Options,
    PositionError,
    RolloutPolicy,
    SetupError,
)

from . import actions as _actions
from .cards import (
    FULL_POOL,
    MAX_BAG_TILES,
    NUM_CARD_TYPES,
    NUM_HUNTERS,
    NUM_TILE_TYPES,
    TILE_NAMES,
    parse_card,
    parse_tile,
)
from .options import ManitouOptions
from .state import (
    DOWN,
    EV_STEPS,
    GAME_OVER,
    HUNTS,
    NO_SEAT,
    PHASES,
    PLAYS_PER_HUNT,
    SELECT,
    ManitouState,
    selection_sizes,
)

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

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw the first dealer and the order of the tiles in the bag (manitou §2, §12 M15).

        The draw uses a generator derived from ``rng``'s state and leaves ``rng`` itself
        untouched, so a seeded game equals the same setup given explicitly with the same seed.
        """
        assert isinstance(options, ManitouOptions)
        sub = random.Random(f"manitou-setup:{rng.getstate()!r}")
        counts = options.tile_counts()
        tiles = [t for t in range(NUM_TILE_TYPES) for _ in range(counts[t])]
        sub.shuffle(tiles)
        return {"dealer": sub.randrange(players), "tiles": [TILE_NAMES[t] for t in tiles]}

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> ManitouState:
        """Build the initial state (the first hunt laid out) from an explicit setup."""
        assert isinstance(options, ManitouOptions)
        known = {"dealer", "tiles"}
        extra = sorted(set(setup) - known)
        if extra:
            raise SetupError(
                f"unknown setup field {extra[0]!r}; a Big Manitou setup has {sorted(known)}"
            )
        dealer = setup.get("dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise SetupError(f"dealer must be a seat 0–{players - 1} (got {dealer!r})")
        raw = setup.get("tiles")
        if not isinstance(raw, list):
            raise SetupError(
                "tiles must list the tiles of the bag in draw order, e.g. ['tipi3', 'totem']"
            )
        if len(raw) > MAX_BAG_TILES:
            raise SetupError(f"the bag holds at most {MAX_BAG_TILES} tiles (got {len(raw)})")
        bag = [parse_tile(name) for name in raw]
        state = ManitouState(options, players, dealer, bag, rng)
        state._start_hunt([])
        return state

    def state_from_position(self, data: Mapping[str, Any]) -> ManitouState:
        """Rebuild a state from :meth:`ManitouState.to_position` output."""
        players, options = self._read_position_header(data)
        assert isinstance(options, ManitouOptions)
        s = data.get("state")
        if not isinstance(s, Mapping):
            raise PositionError("a Big Manitou position needs a 'state' object")
        try:
            state = _read_state(players, options, s)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, PositionError):
                raise
            raise PositionError(f"malformed Big Manitou position: {exc!r}") from None
        return state

    def rollout_policy(self, seat: int, belief: Belief) -> RolloutPolicy | None:
        """Random rollouts of about a hunt, scored by the tiles owned (see :mod:`.rollout`)."""
        from .rollout import ManitouRollout

        return ManitouRollout()

    def agents(self) -> dict[str, type[Agent]]:
        """The Big Manitou heuristic bot."""
        from .bots import ManitouHeuristic

        return {"heuristic": ManitouHeuristic}

    def difficulty_levels(self) -> dict[str, str]:
        """Easy is the heuristic bot; medium and hard search with heuristic rollouts."""
        return {
            "easy": "heuristic",
            "medium": "ismcts:iterations=30,rollout=heuristic",
            "hard": "ismcts:iterations=100,rollout=heuristic",
        }


def _seat(value: Any, players: int, what: str) -> int:
    if value is None:
        return NO_SEAT
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise PositionError(f"{what} must be a seat 0–{players - 1} or null (got {value!r})")
    return value


def _per_seat(raw: Any, players: int, what: str) -> list[Any]:
    if not isinstance(raw, list) or len(raw) != players:
        raise PositionError(f"{what} must hold one entry per seat ({players})")
    return raw


def _counts(names: list[str], size: int, parse: Any) -> list[int]:
    counts = [0] * size
    for name in names:
        counts[parse(name)] += 1
    return counts


def _read_state(players: int, options: ManitouOptions, s: Mapping[str, Any]) -> ManitouState:
    dealer = _seat(s["dealer"], players, "dealer")
    if dealer == NO_SEAT:
        raise PositionError("dealer must be a seat")
    bag = [parse_tile(t) for t in s["bag"]]
    state = ManitouState(options, players, dealer, bag, GameRng.from_json(s["rng"]))
    hunt = int(s["hunt"]) - 1
    if not 0 <= hunt <= HUNTS[players]:
        raise PositionError(f"hunt must be 1–{HUNTS[players]}")
    state.hunt = hunt
    state.phase = PHASES.index(s["phase"])
    state.seat = _seat(s["seat"], players, "seat")
    grounds = s["grounds"]
    if not isinstance(grounds, list) or len(grounds) != 3:
        raise PositionError("grounds must hold the tiles of the 3 hunting grounds")
    state.grounds = [[parse_tile(t) for t in g] for g in grounds]
    state.out_of_game = [parse_tile(t) for t in s["out_of_game"]]
    state.owned = [
        _counts(o, NUM_TILE_TYPES, parse_tile)
        for o in _per_seat(s["tiles_owned"], players, "tiles_owned")
    ]
    state.totem_holder = _seat(s["totem_holder"], players, "totem_holder")
    state.horse_holder = _seat(s["horse_holder"], players, "horse_holder")
    used = [
        _counts(u, NUM_CARD_TYPES, parse_card)
        for u in _per_seat(s["used_this_cycle"], players, "used_this_cycle")
    ]
    state.pool = [[FULL_POOL[c] - u[c] for c in range(NUM_CARD_TYPES)] for u in used]
    if any(x < 0 for p in state.pool for x in p):
        raise PositionError("used_this_cycle holds more cards than a deck has")
    state.sel_size = selection_sizes(players, dealer)
    state.selected = [
        _counts(x, NUM_CARD_TYPES, parse_card)
        for x in _per_seat(s["selected"], players, "selected")
    ]
    state.picked = [sum(x) for x in state.selected]
    state.hands = [[parse_card(c) for c in h] for h in _per_seat(s["hands"], players, "hands")]
    state.decks = [[parse_card(c) for c in d] for d in _per_seat(s["decks"], players, "decks")]
    table = s["table"]
    if not isinstance(table, list) or len(table) != 3:
        raise PositionError("table must hold the cards of the 3 hunting grounds")
    for g, cards in enumerate(table):
        codes = []
        for seat, name, up in cards:
            p = _seat(seat, players, "a card's seat")
            card = parse_card(name)
            if not up and card < NUM_HUNTERS:
                raise PositionError("hunters are never face down")
            codes.append(card | p << 4 | (0 if up else DOWN))
        state.table[g] = codes
        state.up[g] = [c for c in codes if c & 15 >= NUM_HUNTERS and not c & DOWN]
        if len({c >> 4 for c in state.up[g]}) > 1 or len(state.up[g]) > 2:
            raise PositionError(f"g{g + 1}: face-up heroes of one seat, at most two")
    state.turn = int(s["play_turn"])
    if not 0 <= state.turn <= PLAYS_PER_HUNT * players:
        raise PositionError("play_turn out of range")
    state.rob_queue = [_seat(p, players, "thief_queue") for p in s["thief_queue"]]
    state.tom = [int(x) for x in s["tomahawks_counted"]]
    ground, step, chooser, picks, c_taker = s["sharing"]
    state.ev_ground = int(ground) - 1
    state.ev_step = EV_STEPS.index(step)
    state.chooser = _seat(chooser, players, "chooser")
    state.picks_left = int(picks)
    state.c_taker = _seat(c_taker, players, "c_taker")
    if state.phase not in (SELECT, GAME_OVER) and state.seat == NO_SEAT:
        raise PositionError(f"phase {PHASES[state.phase]} needs a seat to act")
    return state


GAME = ManitouGame()
ManitouState.game = GAME
