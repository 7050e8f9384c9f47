"""The Apache game spec: setup, positions and action notation (apache §3).

An explicit setup (``docs/notation/apache.md``, "Setup") gives the seats' colours, the start
player and the 114 prairie cards in reveal order:

>>> game = ApacheGame()
>>> setup = game.random_setup(2, game.options(), GameRng(3))
>>> sorted(setup), len(setup["deck"])
(['colours', 'deck', 'start_player'], 114)
>>> state = game.new_game(2, setup=setup)
>>> state.view(None)["deck_left"], state.seats_to_act() == (setup["start_player"],)
(114, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from campfire.core import ActionSpace, Agent, Game, GameRng, Options, PositionError, SetupError

from . import actions as _actions
from .cards import (
    COLOURS,
    DECK_COUNTS,
    NUM_COLOURS,
    NUM_KINDS,
    PRAIRIE_DECK,
    card_name,
    parse_card,
    parse_colour,
)
from .options import ApacheOptions
from .resolve import Claim, claim_choices, claim_is_legal, table_counts
from .state import CHOOSING, GAME_OVER, PHASES, POLLING, REVEALING, ApacheState, choice_action

__all__ = ["GAME", "ApacheGame"]


class ApacheGame(Game[ApacheState]):
    """Apache: reveal prairie cards and race to claim the booty with your Indians.

    >>> state = ApacheGame().new_game(4, {"sharing": True}, seed=1)
    >>> state.options.sharing, state.view(0)["neutral_colours"].__len__()
    (True, 1)
    """

    name = "apache"
    title = "Apache"
    min_players = 2
    max_players = 5
    options_type = ApacheOptions
    action_space = ActionSpace.from_module(_actions)
    # 114 reveals, each followed by one poll of N answers and at most N choices: 114 × 11
    playout_bound = 114 * 11 + 1

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw colours, the start player and the deck order (apache §3).

        The draws come from a copy of ``rng``: the generator itself is left as it was, so a game
        from a seed equals the same setup given explicitly with that seed.
        """
        draw = random.Random()
        draw.setstate(rng.getstate())
        colours = draw.sample(range(NUM_COLOURS), players)
        deck = list(PRAIRIE_DECK)
        draw.shuffle(deck)
        return {
            "colours": [COLOURS[c] for c in colours],
            "start_player": draw.randrange(players),  # §3.4 (P12): random by default
            "deck": [card_name(k) for k in deck],
        }

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> ApacheState:
        """Build the initial state from an explicit setup.

        ``colours`` (default: the first colours of red, yellow, purple, green, blue),
        ``start_player`` (default 0) and ``deck``, the 114 prairie cards in reveal order.
        """
        assert isinstance(options, ApacheOptions)
        known = {"colours", "start_player", "deck"}
        extra = sorted(set(setup) - known)
        if extra:
            raise SetupError(
                f"unknown setup field {extra[0]!r}; an Apache setup has {sorted(known)}"
            )
        colours = _read_colours(setup.get("colours", list(COLOURS[:players])), players, SetupError)
        start = setup.get("start_player", 0)
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
            raise SetupError(f"start_player must be a seat 0–{players - 1} (got {start!r})")
        raw = setup.get("deck")
        if not isinstance(raw, list) or len(raw) != len(PRAIRIE_DECK):
            raise SetupError(
                f"deck must list the {len(PRAIRIE_DECK)} prairie cards in reveal order"
            )
        deck = [parse_card(name) for name in raw]
        _check_cards(deck, SetupError)
        # the game's own generator (tie-breaks, §11.3) is derived from the seed's generator
        return ApacheState(options, colours, deck, start, GameRng(rng.getrandbits(64)))

    def state_from_position(self, data: Mapping[str, Any]) -> ApacheState:
        """Rebuild a state from :meth:`ApacheState.to_position` output."""
        players, options = self._read_position_header(data)
        assert isinstance(options, ApacheOptions)
        s = data.get("state")
        if not isinstance(s, Mapping):
            raise PositionError("an Apache position needs a 'state' object")
        try:
            colours = _read_colours(s["colours"], players, PositionError)
            deck = [parse_card(k, PositionError) for k in s["deck"]]
            table = [parse_card(k, PositionError) for k in s["table"]]
            piles = [[parse_card(k, PositionError) for k in p] for p in s["piles"]]
            if len(piles) != players:
                raise PositionError("piles must hold one victory pile per seat")
            discard = [parse_card(k, PositionError) for k in s["discard"]]
            _check_cards(deck + table + [k for p in piles for k in p] + discard, PositionError)
            start = _seat(s["start_player"], players)
            state = ApacheState(options, colours, deck, start, GameRng.from_json(s["rng"]))
            state.table = table
            state.counts = table_counts(table)
            state.piles = piles
            state.discard = discard
            state.window = int(s["window"])
            phase = PHASES.index(s["phase"])
            state.phase = phase
            state.revealer = _seat(s["revealer"], players)
            answers = s["answers"]
            if not isinstance(answers, list) or len(answers) != players:
                raise PositionError("answers must hold one entry per seat")
            for seat, text in enumerate(answers):
                if text is None:
                    continue
                state.answered[seat] = True
                if text != "pass":
                    state.answers[seat] = _claim(text, seat, None)
            queue = []
            for item in s["queue"]:
                seat, text, legal = item
                queue.append(_claim(text, _seat(seat, players), bool(legal)))
            state.queue = queue
            by_seat = {c.seat: c for c in state.answers if c is not None}
            state.arrived = [by_seat[_seat(x, players)] for x in s["arrival"]]
            state.resolved = int(s["resolved"])
            tb = s["tiebreak"]
            state.tiebreak = None if tb is None else tuple(int(x) for x in tb)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, PositionError):
                raise
            raise PositionError(f"malformed Apache position: {exc!r}") from None
        # recompute what follows from the rest, and the answers' legality (§7: at placement)
        if phase == POLLING:
            for seat, c in enumerate(state.answers):
                if c is not None:
                    legal = claim_is_legal(table, seat, c.type, state.rules, state.counts)
                    state.answers[seat] = Claim(seat, c.type, legal, c.ms)
            by_seat = {c.seat: c for c in state.answers if c is not None}
            state.arrived = [by_seat[c.seat] for c in state.arrived]
            state.to_act = tuple(p for p in range(players) if not state.answered[p])
            if not state.to_act:
                raise PositionError("a claim poll with every answer in is closed already")
        elif phase == REVEALING:
            state.to_act = (state.revealer,)
            if not deck:
                raise PositionError("no face-down card is left to reveal")
        elif phase == CHOOSING:
            if not 0 <= state.resolved < len(queue):
                raise PositionError("a choose step needs a pending claim in the queue")
            claim = queue[state.resolved]
            choices = claim_choices(table, claim.seat, claim.type, state.rules)
            if len(choices) < 2 or not claim.legal:
                raise PositionError("the pending claim has no choice to make")
            state.to_act = (claim.seat,)
            state.choice_actions = sorted(
                (choice_action(c) for c in choices), key=lambda a: a.index
            )
        else:
            assert phase == GAME_OVER
            state.to_act = ()
        return state

    def agents(self) -> dict[str, type[Agent]]:
        """The Apache heuristic bot (see :mod:`.bots`)."""
        from .bots import ApacheHeuristic

        return {"heuristic": ApacheHeuristic}

    def difficulty_levels(self) -> dict[str, str]:
        """Heuristic bots that differ in reaction speed and patience (see :mod:`.bots`)."""
        from .bots import LEVEL_SPECS

        return dict(LEVEL_SPECS)


def _seat(value: Any, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise PositionError(f"a seat is 0–{players - 1} (got {value!r})")
    return value


def _claim(text: Any, seat: int, legal: bool | None) -> Claim:
    action = _actions.parse_action(text)
    if action.kind != "claim":
        raise PositionError(f"{text!r} is not a claim")
    return Claim(seat, action.type, bool(legal), action.ms)


def _read_colours(raw: Any, players: int, error: type[ValueError]) -> list[int]:
    if not isinstance(raw, list) or len(raw) != players:
        raise error(
            f"colours must list one colour per seat ({players} seats), e.g. ['red', 'blue']"
        )
    colours = [parse_colour(c, error) for c in raw]
    if len(set(colours)) != len(colours):
        raise error(f"each seat plays a different colour (got {raw})")
    return colours


def _check_cards(cards: list[int], error: type[ValueError]) -> None:
    """The cards must be the 114 prairie cards (apache §1.2), each exactly once."""
    counts = [0] * NUM_KINDS
    for k in cards:
        counts[k] += 1
    for k in range(NUM_KINDS):
        if counts[k] != DECK_COUNTS[k]:
            raise error(
                f"there are {DECK_COUNTS[k]} prairie card(s) {card_name(k)}, not {counts[k]}; "
                "the 114 prairie cards must each appear exactly once"
            )


GAME = ApacheGame()
ApacheState.game = GAME
