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
from campfire.core.fields import ReadContext, read_fields

from . import actions as _actions
from .cards import (
    NUM_CARDS,
    NUM_POSITIONS,
    NUM_TRIBES,
    TRACKERS_PER_PLAYER,
    card_name,
    parse_card,
    tribe_name,
)
from .options import TrackerOptions
from .present import TrackerPresenter
from .state import (
    COLLECTING,
    EMPTY,
    FINAL_CAPTURE,
    FINAL_PEEK,
    GAME_OVER,
    NO_SEAT,
    NORMAL,
    PEEKING,
    PHASES,
    PLACING,
    RELOCATING,
    STEPS,
    TURN_START,
    TrackerState,
    read_tribes,
)

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
    #: turns, and a peeked card shows for a few seconds only (docs/play.md, campfire.tui.modes)
    play_modes = ("timed-peek", "turns")

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
        tribes = read_tribes(setup.get("tribes"), players, SetupError)
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
        """Rebuild a state from :meth:`TrackerState.to_position` output.

        Every impossible position raises :class:`PositionError` naming the field: a card missing
        or in two places, a count or a seat out of range, a phase, step or turn in progress that
        the rules cannot reach (see ``docs/notation/tracker.md``, section "Position").
        """
        players, options = self._read_position_header(data)
        assert isinstance(options, TrackerOptions)
        s = data.get("state")
        if not isinstance(s, Mapping):
            raise PositionError("a Tracker position needs a 'state' object")
        extra = sorted(str(k) for k in data if k not in _POSITION_FIELDS)
        if extra:
            raise PositionError(
                f"unknown position field {extra[0]!r}; a position has {list(_POSITION_FIELDS)}"
            )
        try:
            return _read_state(players, options, s)
        except PositionError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise PositionError(f"malformed Tracker position: {exc!r}") from None

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

    def presenter(self) -> TrackerPresenter:
        """Tracker's presenter (``present.py``): board, prompts, log lines, legend."""
        return TrackerPresenter(self)

    def difficulty_levels(self) -> dict[str, str]:
        """Easy forgets much, medium forgets a little, hard searches with a perfect memory."""
        return {
            "easy": "heuristic:memory=6/0.05",
            "medium": "heuristic:memory=16/0.01",
            "hard": "ismcts:iterations=1000",
        }


# ----- reading positions strictly ----------------------------------------------------------------

#: the fields of a position (its header and its state)
_POSITION_FIELDS = ("game", "version", "players", "options", "state")


def _read_state(players: int, options: TrackerOptions, s: Mapping[str, Any]) -> TrackerState:
    """Read and check a position's ``state`` object (every problem is a :class:`PositionError`).

    :func:`~campfire.core.fields.read_fields` reads each field as ``TrackerState.FIELDS``
    declares it (presence, no unknown field, types, ranges, card names); what follows are the
    checks across fields.
    """
    if not isinstance(s, Mapping):
        raise PositionError("a Tracker position needs a 'state' object")
    v = read_fields(TrackerState, s, ReadContext(players, options))
    last = players - 1
    tribes: list[int] = v["tribes"]
    start: int = v["start_player"]
    board: list[int] = v["board"]
    captured: list[list[int]] = v["captured"]
    _check_cards(board + [c for pile in captured for c in pile], PositionError)
    hands: list[int] = v["trackers"]
    for p in range(players):
        if captured[p] and hands[p] == TRACKERS_PER_PLAYER:
            raise PositionError(
                f"captured[{p}]: seat {p} has captured cards but still holds all its trackers "
                "(a capture plays trackers, tracker rules §4.3)"
            )
    phase: int = v["phase"]
    step: int = v["step"]
    over = phase == GAME_OVER
    seat: int = v["seat"]
    if not over and seat == NO_SEAT:
        raise PositionError(f"seat must be a whole number 0–{last} (got None)")
    if over and seat != NO_SEAT:
        raise PositionError("seat: nobody is to act in a finished game (null)")
    last_player: int = v["last_player"]
    peeked: list[int] = v["peeked"]
    moves: int = v["relocations"]
    lifted: int = v["lifted"]
    occupied = sum(1 for c in board if c != EMPTY)

    # the phase (tracker §4, §5.2) and the seat to act
    others = sum(1 for p in range(players) if p != seat and hands[p] > 0)
    if phase == NORMAL:
        if last_player != NO_SEAT:
            raise PositionError("last_player is set only once the final turns have begun")
        if others == 0:
            raise PositionError(
                "trackers: with one player left holding trackers the final turns begin "
                "(tracker rules §5.1); phase must be final_peek"
            )
    elif phase in (FINAL_PEEK, FINAL_CAPTURE):
        if last_player != seat:
            raise PositionError("last_player: the final turns are the last player's (seat)")
        if others:
            raise PositionError(
                "trackers: in the final turns only the last player holds trackers "
                "(tracker rules §5.1)"
            )
    allowed = {
        NORMAL: (TURN_START, PEEKING, COLLECTING, RELOCATING, PLACING),
        FINAL_PEEK: (TURN_START, PEEKING),
        FINAL_CAPTURE: (TURN_START, COLLECTING),
        GAME_OVER: (TURN_START,),
    }[phase]
    if step not in allowed:
        raise PositionError(
            f"step: a {PHASES[phase]} turn has no {STEPS[step]} step "
            f"(allowed: {', '.join(STEPS[a] for a in allowed)})"
        )
    if not over:
        if occupied == 0:
            raise PositionError("board: the game ends when the board is empty (tracker rules §5.2)")
        if step in (TURN_START, PEEKING) and hands[seat] == 0:
            raise PositionError(
                f"trackers[{seat}]: a player without trackers takes no more turns "
                "(tracker rules §4.5)"
            )
        if step in (COLLECTING, RELOCATING, PLACING) and hands[seat] == TRACKERS_PER_PLAYER:
            raise PositionError(
                f"trackers[{seat}]: a capture turn begins by playing trackers (tracker rules §4.3)"
            )

    # the turn in progress (tracker §5.1)
    if step == PEEKING:
        if len(set(peeked)) != len(peeked) or any(board[p] == EMPTY for p in peeked):
            raise PositionError("peeked: distinct occupied positions (tracker rules §4.2)")
        if not 1 <= len(peeked) < min(options.peek_count, occupied):
            raise PositionError(
                f"peeked: a peek turn in progress has looked at 1–"
                f"{min(options.peek_count, occupied) - 1} cards (got {len(peeked)})"
            )
    elif peeked:
        raise PositionError("peeked: positions are listed only during a peek turn")
    if step in (RELOCATING, PLACING):
        if occupied == NUM_POSITIONS:
            raise PositionError("step: relocation needs an empty position (tracker rules §4.4)")
    elif moves:
        raise PositionError("relocations: moves are counted only while relocating")
    if step == PLACING:
        if lifted == EMPTY or board[lifted] == EMPTY:
            raise PositionError("lifted: the occupied position whose card is being moved")
    elif lifted != EMPTY:
        raise PositionError("lifted: a card is lifted only while placing it")

    state = TrackerState(options, tribes, board, start)
    state.hands = hands
    state.centre = sum(TRACKERS_PER_PLAYER - h for h in hands)
    state.captured = captured
    state.phase = phase
    state.step = step
    state.seat = seat
    state.peeked = peeked
    state.moves = moves
    state.lifted = lifted
    state.last_player = last_player
    if not over and not state.legal_actions():
        raise PositionError(f"seat {seat} would have no legal step in this position")
    return state


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
