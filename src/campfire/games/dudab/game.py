"""The Dudab game spec: setup, positions and action notation (dudab §2).

An explicit setup (``docs/notation/dudab.md``, section "Setup") gives the round-1 start player
and the deck order of one or more rounds, top card first; rounds without a given deck are
shuffled from the game's seed.
"""

from __future__ import annotations

import random
from collections import Counter
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
from .cards import BABY, JUNGLE, KIND, card_name, cards_in_use, parse_card
from .options import DudabOptions
from .state import (
    HAND_DEAL,
    NO_SEAT,
    OB_CALL,
    OB_NONE,
    OB_SHAMAN,
    OBLIGATIONS,
    OVER,
    PLAYING,
    T_BABY,
    T_DRAW,
    T_JUNGLE,
    TASKS,
    DudabState,
    columns_for,
    random_deck,
)

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
        assert isinstance(options, DudabOptions)
        start = options.start_player
        if start >= players:
            raise SetupError(f"start_player must be a seat 0–{players - 1} (got {start})")
        if start < 0:
            start = rng.randrange(players)
        cards = cards_in_use(options.use_jungle, options.use_baby)
        head = HAND_DEAL * players + columns_for(players)
        decks = [random_deck(cards, head, rng) for _ in range(players)]
        return {"start_player": start, "decks": [[card_name(c) for c in d] for d in decks]}

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> DudabState:
        """Build the initial state from an explicit setup (start player, 1–N decks)."""
        assert isinstance(options, DudabOptions)
        known = {"start_player", "decks"}
        extra = sorted(set(setup) - known)
        if extra:
            raise SetupError(f"unknown setup field {extra[0]!r}; a Dudab setup has {sorted(known)}")
        start = setup.get("start_player", options.start_player)
        if start == -1 and "start_player" not in setup:
            start = rng.randrange(players)  # D32: drawn at random unless given
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
            raise SetupError(f"start_player must be a seat 0–{players - 1} (got {start!r})")
        raw = setup.get("decks")
        if not isinstance(raw, list) or not 1 <= len(raw) <= players:
            raise SetupError(
                f"decks must list the deck order (top card first) of 1–{players} rounds"
            )
        cards = cards_in_use(options.use_jungle, options.use_baby)
        head = HAND_DEAL * players + columns_for(players)
        decks = []
        for r, deck in enumerate(raw):
            if not isinstance(deck, list):
                raise SetupError(f"deck {r + 1} must be a list of card ids")
            ids = [parse_card(name) for name in deck]
            _check_cards(ids, cards, f"deck {r + 1}", SetupError)
            bad = [c for c in ids[:head] if KIND[c] in (JUNGLE, BABY)]
            if bad:
                raise SetupError(
                    f"deck {r + 1}: {card_name(bad[0])} is among the first {head} cards (the "
                    "deal and the column starters); Jungle and Baby cards are set aside there "
                    "(dudab §2.3 step 4), so list them where they ended up in the draw pile"
                )
            decks.append(ids)
        while len(decks) < players:
            decks.append(random_deck(cards, head, rng))
        return DudabState(options, players, start, decks)

    def state_from_position(self, data: Mapping[str, Any]) -> DudabState:
        """Rebuild a state from :meth:`DudabState.to_position` output."""
        players, options = self._read_position_header(data)
        assert isinstance(options, DudabOptions)
        s = data.get("state")
        if not isinstance(s, Mapping):
            raise PositionError("a Dudab position needs a 'state' object")
        try:
            return _read_state(players, options, s)
        except PositionError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise PositionError(f"malformed Dudab position: {exc!r}") from None

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

    def difficulty_levels(self) -> dict[str, str]:
        """Easy and medium are the heuristic bot (easy with random slips); hard searches.

        ``ismcts:iterations=1000`` (short rule-of-thumb rollouts scored as the round stands,
        rewarding the score margin, see :mod:`.rollout`) beats the plain heuristic; see
        ``docs/strength.md``.
        """
        return {
            "easy": "heuristic:noise=0.3",
            "medium": "heuristic",
            "hard": "ismcts:iterations=1000",
        }


def _check_cards(cards: list[int], expected: list[int], what: str, error: type[ValueError]) -> None:
    """``cards`` must hold every card of ``expected`` exactly once."""
    have = Counter(cards)
    for c, k in have.items():
        if k > 1:
            raise error(f"{what}: card {card_name(c)} appears {k} times; each card appears once")
    want = set(expected)
    for c in have:
        if c not in want:
            raise error(f"{what}: card {card_name(c)} is not in use with these options")
    missing = sorted(want - set(have))
    if missing:
        raise error(f"{what}: card {card_name(missing[0])} is missing ({len(missing)} missing)")


def _seat(value: Any, players: int, what: str) -> int:
    if value is None:
        return NO_SEAT
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise PositionError(f"{what} must be a seat 0–{players - 1} (got {value!r})")
    return value


def _read_state(players: int, options: DudabOptions, s: Mapping[str, Any]) -> DudabState:
    state = object.__new__(DudabState)
    ncols = columns_for(players)
    state.num_players = players
    state.options = options
    state.ncols = ncols
    state.start_player = _seat(s["start_player"], players, "start_player")
    if state.start_player < 0:
        raise PositionError("start_player must be a seat")
    state.round = int(s["round"]) - 1
    if not 0 <= state.round < players:
        raise PositionError(f"round must be 1–{players}")
    phase = s["phase"]
    if phase not in ("playing", "over"):
        raise PositionError("phase must be 'playing' or 'over'")
    state.phase = OVER if phase == "over" else PLAYING
    state.actor = _seat(s["actor"], players, "actor")
    if state.phase == PLAYING and state.actor < 0:
        raise PositionError("a running game needs an actor")
    ob = s["obligation"]
    if ob is None:
        state.ob, state.ob_col, state.ob_call = OB_NONE, -1, 0
    else:
        kind = OBLIGATIONS.index(ob["kind"])
        col = int(ob["column"]) - 1
        if kind == OB_NONE or not 0 <= col < ncols:
            raise PositionError(f"bad obligation {ob!r}")
        state.ob, state.ob_col = kind, col
        state.ob_call = 0
        if kind == OB_CALL:
            from .cards import parse_call

            state.ob_call = parse_call(ob["call"])
        elif kind != OB_SHAMAN:
            raise PositionError(f"bad obligation {ob!r}")
    tasks = []
    limbo: list[int] = []
    for item in s["tasks"]:
        typ = TASKS.index(item["task"])
        seat = _seat(item["seat"], players, "task seat")
        arg = 0
        if typ == T_DRAW:
            arg = int(item["count"])
        elif typ in (T_JUNGLE, T_BABY):
            arg = parse_card(item["card"])
            limbo.append(arg)
        tasks.append((typ, seat, arg))
    state.tasks = tasks
    state.revealed = _seat(s["revealed"], players, "revealed")
    state.draw = [parse_card(c) for c in s["draw"]][::-1]
    state.discard = [parse_card(c) for c in s["discard"]]
    cols = s["columns"]
    if len(cols) != ncols:
        raise PositionError(f"{players} players play with {ncols} columns")
    state.heap = [[parse_card(c) for c in col["heap"]] for col in cols]
    state.vis = [[parse_card(c) for c in col["cards"]] for col in cols]
    state.jungle = [-1 if col["jungle"] is None else parse_card(col["jungle"]) for col in cols]
    state.above = [-1 if col["above"] is None else int(col["above"]) for col in cols]
    for c in range(ncols):
        if (state.jungle[c] < 0) != (state.above[c] < 0) or state.above[c] > len(state.vis[c]):
            raise PositionError(f"column {c + 1}: inconsistent Jungle")
    state.hands = [[parse_card(c) for c in h] for h in s["hands"]]
    state.piles = [[parse_card(c) for c in p] for p in s["piles"]]
    if len(state.hands) != players or len(state.piles) != players:
        raise PositionError("hands and piles must have one entry per seat")
    state.kept = [parse_card(c) for c in s["kept"]]
    state.scores = [[int(x) for x in r] for r in s["scores"]]
    if len(state.scores) != players or any(
        len(r) != state.round + (phase == "over") for r in state.scores
    ):
        raise PositionError("scores must list each seat's finished rounds")
    report = s["last_round"]
    state.report = dict(report) if report is not None else None
    expected = cards_in_use(options.use_jungle, options.use_baby)
    state.decks = []
    for r, deck in enumerate(s["decks"]):
        ids = [parse_card(c) for c in deck]
        _check_cards(ids, expected, f"deck of round {state.round + r + 2}", PositionError)
        state.decks.append(ids)
    if state.phase == PLAYING and len(state.decks) != players - state.round - 1:
        raise PositionError("decks must list the deck of every later round")
    if state.phase == PLAYING:
        everything = state.draw + state.discard + state.kept + limbo
        for c in range(ncols):
            everything += state.heap[c] + state.vis[c]
            if state.jungle[c] >= 0:
                everything.append(state.jungle[c])
        for p in range(players):
            everything += state.hands[p] + state.piles[p]
        _check_cards(everything, expected, "position", PositionError)
    state._legal = None
    state._legal_idx = frozenset()
    return state


GAME = DudabGame()
DudabState.game = GAME
