"""The Tracker game spec: setup, positions and action notation (tracker §3)."""

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
    NUM_CARDS,
    NUM_POSITIONS,
    NUM_TRIBES,
    TRACKERS_PER_PLAYER,
    card_name,
    parse_card,
    parse_tribe,
    tribe_name,
)
from .options import TrackerOptions
from .state import EMPTY, NO_SEAT, PHASES, STEPS, TrackerState

__all__ = ["GAME", "TrackerGame"]


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

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw tribes, shuffle all 60 cards onto the board, draw the start player (§3)."""
        tribes = rng.sample(range(NUM_TRIBES), players)
        cards = list(range(NUM_CARDS))
        rng.shuffle(cards)
        return {
            "tribes": [tribe_name(t) for t in tribes],
            "start_player": rng.randrange(players),
            "board": [card_name(c) for c in cards],
        }

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> TrackerState:
        """Build the initial state from an explicit setup (tribes, start player, 60 cards)."""
        assert isinstance(options, TrackerOptions)
        known = {"tribes", "start_player", "board"}
        extra = sorted(set(setup) - known)
        if extra:
            raise SetupError(
                f"unknown setup field {extra[0]!r}; a Tracker setup has {sorted(known)}"
            )
        tribes = _read_tribes(setup.get("tribes"), players, SetupError)
        start = setup.get("start_player", 0)
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
            raise SetupError(f"start_player must be a seat 0–{players - 1} (got {start!r})")
        raw = setup.get("board")
        if not isinstance(raw, list) or len(raw) != NUM_POSITIONS:
            raise SetupError(f"board must list the card on each of the {NUM_POSITIONS} positions")
        board = [parse_card(name) for name in raw]
        _check_cards(board, SetupError)
        state = TrackerState(options, tribes, board, start)
        return state

    def state_from_position(self, data: Mapping[str, Any]) -> TrackerState:
        """Rebuild a state from :meth:`TrackerState.to_position` output."""
        players, options = self._read_position_header(data)
        assert isinstance(options, TrackerOptions)
        s = data.get("state")
        if not isinstance(s, Mapping):
            raise PositionError("a Tracker position needs a 'state' object")
        try:
            tribes = _read_tribes(s["tribes"], players, PositionError)
            board = [EMPTY if c is None else parse_card(c) for c in s["board"]]
            if len(board) != NUM_POSITIONS:
                raise PositionError(f"board must have {NUM_POSITIONS} positions")
            captured = [[parse_card(c) for c in pile] for pile in s["captured"]]
            if len(captured) != players:
                raise PositionError("captured must hold one pile per seat")
            _check_cards(board + [c for p in captured for c in p], PositionError)
            hands = [int(h) for h in s["trackers"]]
            if len(hands) != players or any(not 0 <= h <= TRACKERS_PER_PLAYER for h in hands):
                raise PositionError("trackers must give 0–3 trackers per seat")
            state = TrackerState(options, tribes, board, int(s["start_player"]))
            state.hands = hands
            state.centre = sum(TRACKERS_PER_PLAYER - h for h in hands)
            state.captured = captured
            state.phase = PHASES.index(s["phase"])
            state.step = STEPS.index(s["step"])
            state.seat = NO_SEAT if s["seat"] is None else int(s["seat"])
            state.peeked = [int(p) for p in s["peeked"]]
            state.moves = int(s["relocations"])
            state.lifted = EMPTY if s["lifted"] is None else int(s["lifted"])
            state.last_player = NO_SEAT if s["last_player"] is None else int(s["last_player"])
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, PositionError):
                raise
            raise PositionError(f"malformed Tracker position: {exc!r}") from None
        if state.phase != 3 and not 0 <= state.seat < players:
            raise PositionError(f"seat to act must be 0–{players - 1}")
        return state

    def new_belief(
        self, seat: int, players: int, options: Options, memory: str = "perfect", seed: int = 0
    ) -> Belief:
        """A Tracker memory: ``perfect``, ``none``, ``CAPACITY`` or ``CAPACITY/DECAY``."""
        from .bots import TrackerMemory, parse_memory

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

    def difficulty_levels(self) -> dict[str, str]:
        """Easy forgets much, medium forgets a little, hard searches with a perfect memory."""
        return {
            "easy": "heuristic:memory=6/0.05",
            "medium": "heuristic:memory=16/0.01",
            "hard": "ismcts:iterations=1000",
        }


def _read_tribes(raw: Any, players: int, error: type[ValueError]) -> list[int]:
    if not isinstance(raw, list) or len(raw) != players:
        raise error(f"tribes must list one tribe per seat ({players} seats), e.g. ['T0', 'T3']")
    tribes = [parse_tribe(t) for t in raw]
    if len(set(tribes)) != len(tribes):
        raise error(f"each seat leads a different tribe (got {raw})")
    return tribes


def _check_cards(cards: list[int], error: type[ValueError]) -> None:
    """Each of the 60 cards must appear exactly once."""
    present = [c for c in cards if c != EMPTY]
    if len(present) != NUM_CARDS or len(set(present)) != NUM_CARDS:
        seen: set[int] = set()
        dup = next((c for c in present if c in seen or seen.add(c)), None)  # type: ignore[func-returns-value]
        if dup is not None:
            raise error(f"card {card_name(dup)} appears twice; each of the 60 cards appears once")
        missing = sorted(set(range(NUM_CARDS)) - set(present))
        raise error(
            f"card {card_name(missing[0])} is missing; each of the 60 cards appears exactly once"
        )


GAME = TrackerGame()
TrackerState.game = GAME
