"""The Apache game spec: setup, positions and action notation (apache §3).

An explicit setup (``docs/notation/apache.md``, "Setup") gives the seats' colours, the start
player and the 114 prairie cards in reveal order (and, with ``claim_order=reaction``, optionally
the seat orders that break equal reaction times, window by window):

>>> game = ApacheGame()
>>> setup = game.random_setup(2, game.options(), GameRng(3))
>>> sorted(setup), len(setup["deck"])
(['colours', 'deck', 'start_player', 'tiebreaks'], 114)
>>> state = game.new_game(2, setup=setup)
>>> state.view(None)["deck_left"], state.seats_to_act() == (setup["start_player"],)
(114, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from campfire.core import ActionSpace, Agent, ErrorText, Game, GameRng, Options, SetupError
from campfire.core.draws import randbelow, sample, shuffle
from campfire.core.present import Presenter
from campfire.core.validate import short_repr

from . import actions as _actions
from .cards import COLOURS, NUM_COLOURS, PRAIRIE_DECK, card_name, parse_card
from .options import ARRIVAL, ApacheOptions
from .position import (
    check_every_card_once,
    check_one_colour_per_seat,
    check_tiebreaks_are_seat_orders,
    read_state,
    shared_orders,
)
from .state import ApacheState

if TYPE_CHECKING:  # numpy: imported with the encoder, by the adapters only
    from .encoder import ApacheEncoder

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
    #: reveals on a timer and claim windows against the clock, or turns (docs/play.md)
    play_modes = ("realtime-claims", "turns")
    #: every seat answers each claim poll at once
    simultaneous_steps = True
    #: the seat's view marks the claims that would be penalised (``protect_me``)
    assists = ("protect-me",)

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw colours, the start player, the deck order (apache §3) and the tie-breaks.

        With ``claim_order=reaction`` the setup also holds one seat order per reveal, used in
        turn by the windows whose claims need a tie-break (§11.3).

        The draws come from a copy of ``rng``: the generator itself is left as it was, so a game
        from a seed equals the same setup given explicitly with that seed.
        """
        draw = random.Random()
        draw.setstate(rng.getstate())
        colours, start, deck, tiebreaks = self._draw(players, options, draw)
        setup: dict[str, Any] = {
            "colours": [COLOURS[c] for c in colours],
            "start_player": start,
            "deck": [card_name(k) for k in deck],
        }
        if tiebreaks is not None:
            setup["tiebreaks"] = tiebreaks
        return setup

    def random_state(
        self, players: int, options: Options, rng: random.Random, play: GameRng
    ) -> ApacheState:
        """The state :meth:`random_setup`'s setup makes, built from the draws directly.

        The draws come from ``rng`` itself here: what a copy of it draws, it draws.
        """
        assert isinstance(options, ApacheOptions)
        colours, start, deck, tiebreaks = self._draw(players, options, rng)
        state = ApacheState.new(options, colours, deck, start, GameRng(play.getrandbits(64)))
        state.tiebreaks = shared_orders(tiebreaks or ())
        return state

    @staticmethod
    def _draw(
        players: int, options: Options, draw: random.Random
    ) -> tuple[list[int], int, list[int], list[list[int]] | None]:
        """The colours, the start player, the deck order and the tie-breaks (``None``: none)."""
        colours = sample(draw, range(NUM_COLOURS), players)
        deck = list(PRAIRIE_DECK)
        shuffle(draw, deck)
        start = randbelow(draw, players)  # §3.4 (P12): random by default
        assert isinstance(options, ApacheOptions)
        if options.claim_order == ARRIVAL:
            return colours, start, deck, None
        seats = range(players)
        return colours, start, deck, [sample(draw, seats, players) for _ in deck]

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> ApacheState:
        """Build the initial state from an explicit setup.

        ``colours`` (default: the first colours of red, yellow, purple, green, blue),
        ``start_player`` (default 0), ``deck``, the 114 prairie cards in reveal order, and
        optionally ``tiebreaks`` (``claim_order=reaction``): seat orders for equal reaction
        times, consumed one per window with two or more claims, then drawn from the generator.
        """
        assert isinstance(options, ApacheOptions)
        self._check_setup_fields(setup, ("colours", "start_player", "deck", "tiebreaks"))
        colours = check_one_colour_per_seat(
            setup.get("colours", list(COLOURS[:players])), players, SetupError
        )
        start = setup.get("start_player", 0)
        if type(start) is not int or not 0 <= start < players:
            raise SetupError(
                ErrorText(
                    "start_player must be a seat 0–{last} (got {start})",
                    last=players - 1,
                    start=short_repr(start),
                )
            )
        raw = setup.get("deck")
        if not isinstance(raw, list) or len(raw) != len(PRAIRIE_DECK):
            raise SetupError(
                ErrorText(
                    "deck must list the {n_prairie_deck} prairie cards in reveal order",
                    n_prairie_deck=len(PRAIRIE_DECK),
                )
            )
        deck = [parse_card(name) for name in raw]
        check_every_card_once(deck, SetupError)
        tiebreaks = check_tiebreaks_are_seat_orders(setup.get("tiebreaks", []), players, SetupError)
        # the game's own generator (tie-breaks not given, §11.3) is derived from the seed's
        state = ApacheState.new(options, colours, deck, start, GameRng(rng.getrandbits(64)))
        state.tiebreaks = tiebreaks
        return state

    def state_from_position(self, data: Mapping[str, Any]) -> ApacheState:
        """Rebuild a state from :meth:`ApacheState.to_position` output.

        Every field is checked (types, ranges, seats, the 114 cards each in one place, the
        phase against the poll, the queue and the deck; :func:`.position.read_state`, one named
        check per invariant): anything else raises :class:`PositionError` naming the field.
        """
        return self._read_position(data, read_state)

    def agents(self) -> dict[str, type[Agent]]:
        """The Apache heuristic bot (see :mod:`.bots`) and the search bot (:mod:`.search`)."""
        from .bots import ApacheHeuristic
        from .search import ApacheSearch

        return {"heuristic": ApacheHeuristic, "search": ApacheSearch}

    def difficulty_levels(self, players: int) -> dict[str, str]:
        """Heuristic bots that differ in reaction speed and patience (see :mod:`.bots`).

        The same at every player count.
        """
        from .bots import LEVEL_SPECS

        return dict(LEVEL_SPECS)

    def encoder(self, players: int) -> ApacheEncoder:
        """The observation encoder for the research adapters (:mod:`.encoder`)."""
        from .encoder import ApacheEncoder

        self.check_players(players)
        return ApacheEncoder(players)

    def move_cap(self, players: int) -> int:
        """114 windows × (a reveal, an answer per seat, at most one choice per claimant).

        A bound from the rules, never reached (``campfire.adapters``).
        """
        return 114 * (1 + 2 * players)

    def public_scores(self, view: Mapping[str, Any]) -> list[float]:
        """The piles' scores, in every view."""
        return [float(x) for x in view["scores"]]

    def presenter(self) -> Presenter:
        """Apache's presenter: the table, the claims and the log in the game's words."""
        from .present import ApachePresenter

        return ApachePresenter(self)


GAME = ApacheGame()
ApacheState.game = GAME
