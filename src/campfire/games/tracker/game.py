"""The Tracker game spec: setup, positions and action notation (tracker §3)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from campfire.core import (
    ActionSpace,
    Agent,
    Belief,
    ErrorText,
    Game,
    GameRng,
    Options,
    PositionError,
    RolloutPolicy,
    SetupError,
)
from campfire.core.fields import ReadContext, read_fields
from campfire.core.validate import short_repr

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
        _check_cards(board, SetupError)
        state = TrackerState(options, tribes, board, start)
        return state

    def state_from_position(self, data: Mapping[str, Any]) -> TrackerState:
        """Rebuild a state from :meth:`TrackerState.to_position` output.

        Every impossible position raises :class:`PositionError` naming the field: a card missing
        or in two places, a count or a seat out of range, a phase, step or turn in progress that
        the rules cannot reach (see ``docs/notation/tracker.md``, section "Position").
        """
        return self._read_position(data, _read_state)

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


# ----- reading positions strictly ----------------------------------------------------------------


def _read_state(players: int, options: TrackerOptions, s: Mapping[str, Any]) -> TrackerState:
    """Read and check a position's ``state`` object (every problem is a :class:`PositionError`).

    :func:`~campfire.core.fields.read_fields` reads each field as ``TrackerState.FIELDS``
    declares it (presence, no unknown field, types, ranges, card names); what follows are the
    checks across fields.
    """
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
                ErrorText(
                    "captured[{p}]: seat {p} has captured cards but still holds all its "
                    "trackers (a capture plays trackers, tracker rules §4.3)",
                    p=p,
                )
            )
    phase: int = v["phase"]
    step: int = v["step"]
    over = phase == GAME_OVER
    seat: int = v["seat"]
    if not over and seat == NO_SEAT:
        raise PositionError(ErrorText("seat must be a whole number 0–{last} (got None)", last=last))
    if over and seat != NO_SEAT:
        raise PositionError(ErrorText("seat: nobody is to act in a finished game (null)"))
    last_player: int = v["last_player"]
    peeked: list[int] = v["peeked"]
    moves: int = v["relocations"]
    lifted: int = v["lifted"]
    occupied = sum(1 for c in board if c != EMPTY)

    # the phase (tracker §4, §5.2) and the seat to act
    others = sum(1 for p in range(players) if p != seat and hands[p] > 0)
    if phase == NORMAL:
        if last_player != NO_SEAT:
            raise PositionError(
                ErrorText("last_player is set only once the final turns have begun")
            )
        if others == 0:
            raise PositionError(
                ErrorText(
                    "trackers: with one player left holding trackers the final turns begin "
                    "(tracker rules §5.1); phase must be final_peek"
                )
            )
    elif phase in (FINAL_PEEK, FINAL_CAPTURE):
        if last_player != seat:
            raise PositionError(
                ErrorText("last_player: the final turns are the last player's (seat)")
            )
        if others:
            raise PositionError(
                ErrorText(
                    "trackers: in the final turns only the last player holds trackers "
                    "(tracker rules §5.1)"
                )
            )
    allowed = {
        NORMAL: (TURN_START, PEEKING, COLLECTING, RELOCATING, PLACING),
        FINAL_PEEK: (TURN_START, PEEKING),
        FINAL_CAPTURE: (TURN_START, COLLECTING),
        GAME_OVER: (TURN_START,),
    }[phase]
    if step not in allowed:
        raise PositionError(
            ErrorText(
                "step: a {phases} turn has no {steps} step (allowed: {items})",
                phases=PHASES[phase],
                steps=STEPS[step],
                items=", ".join(STEPS[a] for a in allowed),
            )
        )
    if not over:
        if occupied == 0:
            raise PositionError(
                ErrorText("board: the game ends when the board is empty (tracker rules §5.2)")
            )
        if step in (TURN_START, PEEKING) and hands[seat] == 0:
            raise PositionError(
                ErrorText(
                    "trackers[{seat}]: a player without trackers takes no more turns "
                    "(tracker rules §4.5)",
                    seat=seat,
                )
            )
        if step in (COLLECTING, RELOCATING, PLACING) and hands[seat] == TRACKERS_PER_PLAYER:
            raise PositionError(
                ErrorText(
                    "trackers[{seat}]: a capture turn begins by playing trackers (tracker "
                    "rules §4.3)",
                    seat=seat,
                )
            )

    # the turn in progress (tracker §5.1)
    if step == PEEKING:
        if len(set(peeked)) != len(peeked) or any(board[p] == EMPTY for p in peeked):
            raise PositionError(
                ErrorText("peeked: distinct occupied positions (tracker rules §4.2)")
            )
        if not 1 <= len(peeked) < min(options.peek_count, occupied):
            raise PositionError(
                ErrorText(
                    "peeked: a peek turn in progress has looked at 1–{last} cards (got {n_peeked})",
                    last=min(options.peek_count, occupied) - 1,
                    n_peeked=len(peeked),
                )
            )
    elif peeked:
        raise PositionError(ErrorText("peeked: positions are listed only during a peek turn"))
    if step in (RELOCATING, PLACING):
        if occupied == NUM_POSITIONS:
            raise PositionError(
                ErrorText("step: relocation needs an empty position (tracker rules §4.4)")
            )
    elif moves:
        raise PositionError(ErrorText("relocations: moves are counted only while relocating"))
    if step == PLACING:
        if lifted == EMPTY or board[lifted] == EMPTY:
            raise PositionError(
                ErrorText("lifted: the occupied position whose card is being moved")
            )
    elif lifted != EMPTY:
        raise PositionError(ErrorText("lifted: a card is lifted only while placing it"))

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
        raise PositionError(
            ErrorText("seat {seat} would have no legal step in this position", seat=seat)
        )
    return state


def _check_cards(cards: list[int], error: type[ValueError]) -> None:
    """Each of the 60 cards must appear exactly once."""
    present = [c for c in cards if c != EMPTY]
    if len(present) != NUM_CARDS or len(set(present)) != NUM_CARDS:
        seen: set[int] = set()
        dup = next((c for c in present if c in seen or seen.add(c)), None)  # type: ignore[func-returns-value]
        if dup is not None:
            raise error(
                ErrorText(
                    "card {value} appears twice; each of the 60 cards appears once",
                    value=card_name(dup),
                )
            )
        missing = sorted(set(range(NUM_CARDS)) - set(present))
        raise error(
            ErrorText(
                "card {value} is missing; each of the 60 cards appears exactly once",
                value=card_name(missing[0]),
            )
        )


GAME = TrackerGame()
TrackerState.game = GAME
