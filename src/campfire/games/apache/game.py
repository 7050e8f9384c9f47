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
from typing import Any

from campfire.core import (
    ActionSpace,
    Agent,
    CampfireError,
    ErrorText,
    Game,
    GameRng,
    Options,
    PositionError,
    SetupError,
)
from campfire.core.fields import ReadContext, read_fields
from campfire.core.present import Presenter
from campfire.core.validate import short_repr

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
from .options import ARRIVAL, ApacheOptions
from .resolve import Claim, claim_choices, claim_is_legal, table_counts
from .state import CHOOSING, GAME_OVER, POLLING, REVEALING, ApacheState, choice_action

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

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw colours, the start player, the deck order (apache §3) and the tie-breaks.

        With ``claim_order=reaction`` the setup also holds one seat order per reveal, used in
        turn by the windows whose claims need a tie-break (§11.3).

        The draws come from a copy of ``rng``: the generator itself is left as it was, so a game
        from a seed equals the same setup given explicitly with that seed.
        """
        draw = random.Random()
        draw.setstate(rng.getstate())
        colours = draw.sample(range(NUM_COLOURS), players)
        deck = list(PRAIRIE_DECK)
        draw.shuffle(deck)
        setup: dict[str, Any] = {
            "colours": [COLOURS[c] for c in colours],
            "start_player": draw.randrange(players),  # §3.4 (P12): random by default
            "deck": [card_name(k) for k in deck],
        }
        assert isinstance(options, ApacheOptions)
        if options.claim_order != ARRIVAL:
            setup["tiebreaks"] = [draw.sample(range(players), players) for _ in deck]
        return setup

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
        colours = _read_colours(setup.get("colours", list(COLOURS[:players])), players, SetupError)
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
        _check_cards(deck, SetupError)
        tiebreaks = _read_tiebreaks(setup.get("tiebreaks", []), players, options, SetupError)
        # the game's own generator (tie-breaks not given, §11.3) is derived from the seed's
        state = ApacheState(options, colours, deck, start, GameRng(rng.getrandbits(64)))
        state.tiebreaks = tiebreaks
        return state

    def state_from_position(self, data: Mapping[str, Any]) -> ApacheState:
        """Rebuild a state from :meth:`ApacheState.to_position` output.

        Every field is checked (types, ranges, seats, the 114 cards each in one place, the
        phase against the poll, the queue and the deck): anything else raises
        :class:`PositionError` naming the field.
        """
        return self._read_position(data, _read_state)

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

    def presenter(self) -> Presenter:
        """Apache's presenter: the table, the claims and the log in the game's words."""
        from .present import ApachePresenter

        return ApachePresenter(self)


def _seat(value: Any, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise PositionError(
            ErrorText("a seat is 0–{last} (got {value})", last=players - 1, value=repr(value))
        )
    return value


def _read_state(players: int, options: ApacheOptions, s: Mapping[str, Any]) -> ApacheState:
    """Read and check a position's ``state`` object (raise :class:`PositionError`).

    :func:`~campfire.core.fields.read_fields` reads each field as ``ApacheState.FIELDS``
    declares it (presence, no unknown field, seats, card ids); what follows are the checks
    across fields.
    """
    n = players
    v = read_fields(ApacheState, s, ReadContext(players, options))
    colours = _read_colours(v["colours"], n, PositionError)
    deck: list[int] = v["deck"]
    table: list[int] = v["table"]
    piles: list[list[int]] = v["piles"]
    discard: list[int] = v["discard"]
    _check_cards(deck + table + [k for p in piles for k in p] + discard, PositionError)
    phase: int = v["phase"]
    start: int = v["start_player"]
    state = ApacheState(options, colours, deck, start, GameRng.from_json(v["rng"]))
    state.table = table
    state.counts = table_counts(table)
    state.piles = piles
    state.discard = discard
    window = v["window"]
    revealed = len(PRAIRIE_DECK) - len(deck)
    if type(window) is not int or window != revealed:
        raise PositionError(
            ErrorText(
                "window must be the number of cards revealed, {revealed} (got {window})",
                revealed=revealed,
                window=repr(window),
            )
        )
    state.window = window
    state.phase = phase
    state.revealer = v["revealer"]
    state.tiebreaks = _read_tiebreaks(v["tiebreaks"], n, options, PositionError)

    # the poll (apache §11.3): one answer per seat, null until given
    answers = v["answers"]
    if not isinstance(answers, list) or len(answers) != n:
        raise PositionError(
            ErrorText("answers must hold one entry per seat ({n}): null, 'pass' or a claim", n=n)
        )
    for seat, text in enumerate(answers):
        if text is None:
            continue
        state.answered[seat] = True
        if text != "pass":
            claim = _claim(text, seat, options, f"answers[{seat}]")
            legal = claim_is_legal(table, seat, claim.type, state.rules, state.counts)
            state.answers[seat] = Claim(seat, claim.type, legal, claim.ms)
    if phase != POLLING and any(state.answered) and not all(state.answered):
        raise PositionError(
            ErrorText("answers: outside a claim poll every seat has answered, or none")
        )
    if (phase == POLLING or window == 0) and any(state.answered) and all(state.answered):
        raise PositionError(
            ErrorText("answers: a claim poll with every answer in is closed already")
        )
    if window == 0 and any(state.answered):
        raise PositionError(ErrorText("answers: no card is revealed yet, so nobody has answered"))
    arrival = v["arrival"]
    if not isinstance(arrival, list):
        raise PositionError(ErrorText("arrival must list the seats whose claims arrived, in order"))
    by_seat = {c.seat: c for c in state.answers if c is not None}
    order = [_seat(x, n) for x in arrival]
    expected = sorted(by_seat) if options.claim_order == ARRIVAL else []
    if sorted(order) != expected or len(set(order)) != len(order):
        raise PositionError(
            ErrorText(
                "arrival must name each seat with a claim in answers once, in the "
                "order the claims arrived (claim_order=arrival; empty otherwise)"
            )
        )
    state.arrived = [by_seat[x] for x in order]

    # the window's queue being resolved (apache §7)
    raw_queue = v["queue"]
    if not isinstance(raw_queue, list):
        raise PositionError(
            ErrorText("queue must list the window's claims as [seat, claim, legal]")
        )
    queue = []
    for i, item in enumerate(raw_queue):
        if not isinstance(item, list) or len(item) != 3 or type(item[2]) is not bool:
            raise PositionError(
                ErrorText(
                    "queue[{i}] must be [seat, claim, legal] (got {item})", i=i, item=repr(item)
                )
            )
        seat = _seat(item[0], n)
        claim = _claim(item[1], seat, options, f"queue[{i}]")
        queue.append(Claim(seat, claim.type, item[2], claim.ms))
    if len({c.seat for c in queue}) != len(queue):
        raise PositionError(ErrorText("queue names a seat twice (one claim per seat and window)"))
    state.queue = queue
    resolved = v["resolved"]
    if type(resolved) is not int or not 0 <= resolved <= len(queue):
        raise PositionError(
            ErrorText(
                "resolved must be 0–{n_queue}, the claims of the queue resolved", n_queue=len(queue)
            )
        )
    state.resolved = resolved
    tb = v["tiebreak"]
    if tb is not None and (
        not isinstance(tb, list)
        or sorted(x if type(x) is int else -1 for x in tb) != list(range(n))
    ):
        raise PositionError(
            ErrorText("tiebreak must be null or an order of the seats 0–{last}", last=n - 1)
        )
    state.tiebreak = None if tb is None else tuple(tb)
    if phase != CHOOSING and (queue or resolved):
        raise PositionError(ErrorText("queue must be empty and resolved 0 outside a choose step"))

    # what follows from the rest
    if phase == POLLING:
        if window == 0:
            raise PositionError(ErrorText("a claim poll needs a revealed card"))
        state.to_act = tuple(p for p in range(n) if not state.answered[p])
    elif phase == REVEALING:
        state.to_act = (state.revealer,)
        if not deck:
            raise PositionError(ErrorText("no face-down card is left to reveal"))
    elif phase == CHOOSING:
        if not 0 <= state.resolved < len(queue):
            raise PositionError(ErrorText("a choose step needs a pending claim in the queue"))
        claim = queue[state.resolved]
        choices = claim_choices(table, claim.seat, claim.type, state.rules)
        if len(choices) < 2 or not claim.legal:
            raise PositionError(ErrorText("the pending claim has no choice to make"))
        state.to_act = (claim.seat,)
        state.choice_actions = sorted((choice_action(c) for c in choices), key=lambda a: a.index)
    else:
        assert phase == GAME_OVER
        if deck:
            raise PositionError(ErrorText("the game is over only once every card is revealed"))
        state.to_act = ()
    return state


def _cards(raw: Any, field: str) -> list[int]:
    if not isinstance(raw, list):
        raise PositionError(
            ErrorText(
                "{field} must be a list of card ids (got {kind})",
                field=field,
                kind=type(raw).__name__,
            )
        )
    return [parse_card(k, PositionError) for k in raw]


def _claim(text: Any, seat: int, options: ApacheOptions, field: str) -> Claim:
    """A claim's notation: ``claim TYPE MS`` (reaction order) or ``claim TYPE`` (arrival)."""
    try:
        action = _actions.parse_action(text)
    except CampfireError as exc:
        raise PositionError(ErrorText("{field}: {exc}", field=field, exc=exc.text)) from None
    arrival = options.claim_order == ARRIVAL
    if action.kind != "claim" or (action.ms < 0) != arrival:
        form = "claim TYPE" if arrival else "claim TYPE MS"
        raise PositionError(
            ErrorText(
                "{field}: {text} is not a claim of the form {form}",
                field=field,
                text=repr(text),
                form=repr(form),
            )
        )
    return Claim(seat, action.type, False, action.ms)


def _read_tiebreaks(
    raw: Any, players: int, options: ApacheOptions, error: type[CampfireError]
) -> tuple[tuple[int, ...], ...]:
    """Seat orders that break equal reaction times, one per window that needs one (§11.3).

    They are used only with ``claim_order=reaction`` (arrival order has no ties).
    """
    seats = list(range(players))
    if not isinstance(raw, list) or len(raw) > len(PRAIRIE_DECK):
        raise error(
            ErrorText(
                "tiebreaks must list at most {n_prairie_deck} orders of the seats",
                n_prairie_deck=len(PRAIRIE_DECK),
            )
        )
    for i, order in enumerate(raw):
        if (
            not isinstance(order, list)
            or sorted(x if type(x) is int else -1 for x in order) != seats
        ):
            raise error(
                ErrorText(
                    "tiebreaks[{i}] must be an order of the seats {seats} (got {order})",
                    i=i,
                    seats=seats,
                    order=repr(order),
                )
            )
    return tuple(tuple(order) for order in raw)


def _read_colours(raw: Any, players: int, error: type[ValueError]) -> list[int]:
    if not isinstance(raw, list) or len(raw) != players:
        raise error(
            ErrorText(
                "colours must list one colour per seat ({players} seats), e.g. ['red', 'blue']",
                players=players,
            )
        )
    colours = [parse_colour(c, error) for c in raw]
    if len(set(colours)) != len(colours):
        raise error(ErrorText("each seat plays a different colour (got {raw})", raw=raw))
    return colours


def _check_cards(cards: list[int], error: type[ValueError]) -> None:
    """The cards must be the 114 prairie cards (apache §1.2), each exactly once."""
    counts = [0] * NUM_KINDS
    for k in cards:
        counts[k] += 1
    for k in range(NUM_KINDS):
        if counts[k] != DECK_COUNTS[k]:
            raise error(
                ErrorText(
                    "there are {deck_counts} prairie card(s) {value}, not {counts}; the "
                    "114 prairie cards must each appear exactly once",
                    deck_counts=DECK_COUNTS[k],
                    value=card_name(k),
                    counts=counts[k],
                )
            )


GAME = ApacheGame()
ApacheState.game = GAME
