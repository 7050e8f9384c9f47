"""Reading an Apache position back: the fields, then one named check per invariant of the rules.

:func:`read_state` reads a position's ``state`` object (``docs/notation/apache.md``,
"Position"). :func:`~campfire.core.fields.read_fields` reads each field as
``ApacheState.FIELDS`` declares it (presence, no unknown field, types, seats, card ids); then a
sequence of small checks, each named after the invariant it enforces, refuses what no game can
reach, each with a :class:`~campfire.core.PositionError` that says what is wrong. The checks run
in a fixed order, so a position with several faults is refused for the first one.

The checks the setup reader shares (the colours, the 114 cards, the tie-breaks) take the error
class to raise: :class:`~campfire.core.SetupError` for a setup.

>>> from campfire.games.apache import GAME
>>> data = GAME.new_game(3, seed=1).to_position()
>>> read_state(3, GAME.options(), data["state"]).seats_to_act() == (data["state"]["revealer"],)
True
>>> data["state"]["phase"] = "game_over"
>>> read_state(3, GAME.options(), data["state"])
Traceback (most recent call last):
    ...
campfire.core.errors.PositionError: the game is over only once every card is revealed
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from campfire.core import CampfireError, ErrorText, GameRng, PositionError
from campfire.core.fields import ReadContext, read_fields

from . import actions as _actions
from .cards import DECK_COUNTS, NUM_KINDS, PRAIRIE_DECK, card_name, parse_colour
from .options import ARRIVAL, ApacheOptions
from .resolve import Choice, Claim, claim_choices, claim_is_legal, table_counts
from .state import CHOOSING, GAME_OVER, POLLING, REVEALING, ApacheState, choice_action

__all__ = [
    "check_every_card_once",
    "check_one_colour_per_seat",
    "check_tiebreaks_are_seat_orders",
    "read_state",
    "shared_orders",
]


def read_state(players: int, options: ApacheOptions, s: Mapping[str, Any]) -> ApacheState:
    """Read and check a position's ``state`` object (raise :class:`PositionError`).

    The fields are read as ``ApacheState.FIELDS`` declares them, then checked across fields,
    one invariant after another; the seats to act and the choices follow from the rest.
    """
    v = read_fields(ApacheState, s, ReadContext(players, options))
    colours = check_one_colour_per_seat(v["colours"], players, PositionError)
    check_every_card_once(
        v["deck"] + v["table"] + [k for p in v["piles"] for k in p] + v["discard"], PositionError
    )
    state = ApacheState.new(
        options, colours, v["deck"], v["start_player"], GameRng.from_json(v["rng"])
    )
    _check_window_counts_the_reveals(v["window"], v["deck"])
    _lay_out(state, v)
    state.tiebreaks = check_tiebreaks_are_seat_orders(v["tiebreaks"], players, PositionError)
    _read_answers(state, v["answers"])
    _check_answers_all_or_none_outside_a_poll(state)
    _check_a_full_poll_is_closed(state)
    _check_no_answer_before_the_first_reveal(state)
    state.arrived = _check_arrival_names_each_claim_once(state, v["arrival"])
    state.queue = _check_queue_holds_claims(v["queue"], players, options)
    _check_one_claim_per_seat_in_the_queue(state.queue)
    state.resolved = _check_resolved_is_within_the_queue(v["resolved"], state.queue)
    state.tiebreak = _check_tiebreak_orders_the_seats(v["tiebreak"], players)
    _check_queue_only_at_a_choose_step(state)
    _check_a_poll_follows_a_reveal(state)
    _check_a_card_is_left_to_reveal(state)
    _check_a_choose_step_has_a_pending_claim(state)
    _check_the_pending_claim_has_a_choice(state)
    _check_game_over_only_when_every_card_is_revealed(state)
    _set_seats_to_act(state)
    return state


# ----- checks shared with the setup reader --------------------------------------------------------


def check_one_colour_per_seat(raw: Any, players: int, error: type[ValueError]) -> list[int]:
    """Each seat plays one colour, a different one for each seat (apache §3.1, P16).

    Return the colours' indices. Raise ``error``: "colours must list one colour per seat ...",
    a colour name's own error (:func:`.cards.parse_colour`), or "each seat plays a different
    colour ...".
    """
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


def check_every_card_once(cards: list[int], error: type[ValueError]) -> None:
    """The cards are the 114 prairie cards, each exactly once (apache §1.2, the §6 invariants).

    In a position: the face-down deck, the table, the victory piles and the discard together.
    Raise ``error``: "there are N prairie card(s) KIND, not M; the 114 prairie cards must each
    appear exactly once" for the first kind whose count is wrong.
    """
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


def check_tiebreaks_are_seat_orders(
    raw: Any, players: int, error: type[CampfireError]
) -> tuple[tuple[int, ...], ...]:
    """The setup's tie-breaks are at most 114 orders of the seats, one a window (apache §11.3).

    They break equal reaction times, one per window with two or more claims (used only with
    ``claim_order=reaction``: arrival order has no ties). Return them as tuples. Raise ``error``:
    "tiebreaks must list at most 114 orders of the seats" or "tiebreaks[i] must be an order of
    the seats ...".
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
    return shared_orders(raw)


def shared_orders(orders: Iterable[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """``orders`` as a tuple of tuples, each distinct order one object.

    A game holds up to 114 of them and drops the first at every tie-break (a new tuple of the
    rest): shared, the references it copies are to a handful of objects instead of one each.

    >>> first, _, third = shared_orders([[1, 0], [0, 1], [1, 0]])
    >>> first is third
    True
    """
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    return tuple([seen.setdefault(order, order) for order in map(tuple, orders)])


# ----- the cards and the window ------------------------------------------------------------------


def _check_window_counts_the_reveals(window: Any, deck: list[int]) -> None:
    """Each reveal opens one window: ``window`` is the number of cards revealed (apache §6, §11.3).

    That is 114 less the face-down deck. Raise :class:`PositionError` "window must be the number
    of cards revealed, N (got W)".
    """
    revealed = len(PRAIRIE_DECK) - len(deck)
    if type(window) is not int or window != revealed:
        raise PositionError(
            ErrorText(
                "window must be the number of cards revealed, {revealed} (got {window})",
                revealed=revealed,
                window=repr(window),
            )
        )


def _lay_out(state: ApacheState, v: Mapping[str, Any]) -> None:
    """Put the checked cards, the window, the phase and the revealer into ``state``."""
    state.table = v["table"]
    state.counts = table_counts(state.table)
    state.piles = v["piles"]
    state.discard = v["discard"]
    state.window = v["window"]
    state.phase = v["phase"]
    state.revealer = v["revealer"]


# ----- the claim poll (apache §11.3) -------------------------------------------------------------


def _read_answers(state: ApacheState, raw: Any) -> None:
    """Read the poll's answers into ``state``: ``null`` until given, ``"pass"`` or a claim.

    A claim's legality is judged against the table, as when it was placed (apache §7).
    """
    _check_one_answer_per_seat(raw, state.num_players)
    for seat, text in enumerate(raw):
        if text is None:
            continue
        state.answered[seat] = True
        if text != "pass":
            claim = _check_claim_notation(text, seat, state.options, f"answers[{seat}]")
            legal = claim_is_legal(state.table, seat, claim.type, state.rules, state.counts)
            state.answers[seat] = Claim(seat, claim.type, legal, claim.ms)


def _check_one_answer_per_seat(raw: Any, players: int) -> None:
    """Every seat answers the claim poll once: ``answers`` has one entry a seat (apache §11.3).

    Raise :class:`PositionError` "answers must hold one entry per seat (N): null, 'pass' or a
    claim".
    """
    if not isinstance(raw, list) or len(raw) != players:
        raise PositionError(
            ErrorText(
                "answers must hold one entry per seat ({n}): null, 'pass' or a claim", n=players
            )
        )


def _check_claim_notation(text: Any, seat: int, options: ApacheOptions, field: str) -> Claim:
    """A claim is written as the claim order wants it (apache §11.1, §11.3).

    ``claim TYPE MS`` (a reaction time) with ``claim_order=reaction``, ``claim TYPE`` with
    ``arrival``; this holds for the poll's answers and the queue. Return the claim (``legal``
    false until judged). Raise :class:`PositionError` "FIELD: ..." with the notation's own error,
    or "FIELD: TEXT is not a claim of the form FORM".
    """
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


def _check_answers_all_or_none_outside_a_poll(state: ApacheState) -> None:
    """Outside a claim poll every seat has answered, or none has (apache §11.3).

    Raise :class:`PositionError` "answers: outside a claim poll every seat has answered, or
    none".
    """
    answered = state.answered
    if state.phase != POLLING and any(answered) and not all(answered):
        raise PositionError(
            ErrorText("answers: outside a claim poll every seat has answered, or none")
        )


def _check_a_full_poll_is_closed(state: ApacheState) -> None:
    """A poll closes with its last answer: no open poll holds every answer (apache §11.3).

    Nor does a position before the first reveal. Raise :class:`PositionError` "answers: a claim
    poll with every answer in is closed already".
    """
    answered = state.answered
    if (state.phase == POLLING or state.window == 0) and any(answered) and all(answered):
        raise PositionError(
            ErrorText("answers: a claim poll with every answer in is closed already")
        )


def _check_no_answer_before_the_first_reveal(state: ApacheState) -> None:
    """Claims are made only in a window opened by a reveal (apache §6, P6).

    So before the first reveal nobody has answered. Raise :class:`PositionError` "answers: no
    card is revealed yet, so nobody has answered".
    """
    if state.window == 0 and any(state.answered):
        raise PositionError(ErrorText("answers: no card is revealed yet, so nobody has answered"))


def _check_arrival_names_each_claim_once(state: ApacheState, raw: Any) -> list[Claim]:
    """``arrival`` orders the poll's claims as they arrived (apache §11.1).

    With ``claim_order=arrival`` it names each seat with a claim in ``answers`` once; with
    ``reaction`` it is empty. Return the claims in that order. Raise :class:`PositionError`
    "arrival must list the seats whose claims arrived, in order", "a seat is 0–N (got X)", or
    "arrival must name each seat with a claim in answers once, ...".
    """
    if not isinstance(raw, list):
        raise PositionError(ErrorText("arrival must list the seats whose claims arrived, in order"))
    by_seat = {c.seat: c for c in state.answers if c is not None}
    order = [_seat(x, state.num_players) for x in raw]
    expected = sorted(by_seat) if state.options.claim_order == ARRIVAL else []
    if sorted(order) != expected or len(set(order)) != len(order):
        raise PositionError(
            ErrorText(
                "arrival must name each seat with a claim in answers once, in the "
                "order the claims arrived (claim_order=arrival; empty otherwise)"
            )
        )
    return [by_seat[x] for x in order]


# ----- the window's queue being resolved (apache §6, §7) ------------------------------------------


def _check_queue_holds_claims(raw: Any, players: int, options: ApacheOptions) -> list[Claim]:
    """The queue holds the window's claims as ``[seat, claim, legal at placement]`` (apache §6).

    Return them. Raise :class:`PositionError` "queue must list the window's claims as [seat,
    claim, legal]", "queue[i] must be [seat, claim, legal] (got X)", "a seat is 0–N (got X)",
    or a claim's notation error (:func:`_check_claim_notation`).
    """
    if not isinstance(raw, list):
        raise PositionError(
            ErrorText("queue must list the window's claims as [seat, claim, legal]")
        )
    queue = []
    for i, item in enumerate(raw):
        if not isinstance(item, list) or len(item) != 3 or type(item[2]) is not bool:
            raise PositionError(
                ErrorText(
                    "queue[{i}] must be [seat, claim, legal] (got {item})", i=i, item=repr(item)
                )
            )
        seat = _seat(item[0], players)
        claim = _check_claim_notation(item[1], seat, options, f"queue[{i}]")
        queue.append(Claim(seat, claim.type, item[2], claim.ms))
    return queue


def _check_one_claim_per_seat_in_the_queue(queue: list[Claim]) -> None:
    """A seat places at most one claim a window (apache §5, §6, P15).

    Raise :class:`PositionError` "queue names a seat twice (one claim per seat and window)".
    """
    if len({c.seat for c in queue}) != len(queue):
        raise PositionError(ErrorText("queue names a seat twice (one claim per seat and window)"))


def _check_resolved_is_within_the_queue(raw: Any, queue: list[Claim]) -> int:
    """``resolved`` counts the queue's claims resolved so far, 0 to its length (apache §6, §7).

    Return it. Raise :class:`PositionError` "resolved must be 0–N, the claims of the queue
    resolved".
    """
    if type(raw) is not int or not 0 <= raw <= len(queue):
        raise PositionError(
            ErrorText(
                "resolved must be 0–{n_queue}, the claims of the queue resolved", n_queue=len(queue)
            )
        )
    return raw


def _check_tiebreak_orders_the_seats(raw: Any, players: int) -> tuple[int, ...] | None:
    """The window's tie-break is ``null`` or an order of the seats (apache §11.3).

    Return it as a tuple. Raise :class:`PositionError` "tiebreak must be null or an order of the
    seats 0–N".
    """
    if raw is not None and (
        not isinstance(raw, list)
        or sorted(x if type(x) is int else -1 for x in raw) != list(range(players))
    ):
        raise PositionError(
            ErrorText("tiebreak must be null or an order of the seats 0–{last}", last=players - 1)
        )
    return None if raw is None else tuple(raw)


def _check_queue_only_at_a_choose_step(state: ApacheState) -> None:
    """A window is resolved at once unless a claimant chooses (apache §6, P13).

    So outside a ``choose`` step the queue is empty and ``resolved`` 0. Raise
    :class:`PositionError` "queue must be empty and resolved 0 outside a choose step".
    """
    if state.phase != CHOOSING and (state.queue or state.resolved):
        raise PositionError(ErrorText("queue must be empty and resolved 0 outside a choose step"))


# ----- the phase against the rest (apache §6) -----------------------------------------------------


def _check_a_poll_follows_a_reveal(state: ApacheState) -> None:
    """A claim poll is opened by a reveal (apache §6, §11.3).

    Raise :class:`PositionError` "a claim poll needs a revealed card".
    """
    if state.phase == POLLING and state.window == 0:
        raise PositionError(ErrorText("a claim poll needs a revealed card"))


def _check_a_card_is_left_to_reveal(state: ApacheState) -> None:
    """The revealer reveals only while a face-down card is left (apache §6, REVEAL_WAIT).

    Raise :class:`PositionError` "no face-down card is left to reveal".
    """
    if state.phase == REVEALING and state.last_card:
        raise PositionError(ErrorText("no face-down card is left to reveal"))


def _check_a_choose_step_has_a_pending_claim(state: ApacheState) -> None:
    """A ``choose`` step is the turn of the queue's next claim (apache §6 CHOOSE, P13).

    So ``resolved`` is below the queue's length. Raise :class:`PositionError` "a choose step
    needs a pending claim in the queue".
    """
    if state.phase == CHOOSING and not 0 <= state.resolved < len(state.queue):
        raise PositionError(ErrorText("a choose step needs a pending claim in the queue"))


def _check_the_pending_claim_has_a_choice(state: ApacheState) -> None:
    """A claimant chooses only between two options or more (apache §6 CHOOSE, §4).

    The pending claim was legal when placed and has at least two options on the table now.
    Raise :class:`PositionError` "the pending claim has no choice to make".
    """
    if state.phase != CHOOSING:
        return
    claim = state.queue[state.resolved]
    if len(_pending_choices(state)) < 2 or not claim.legal:
        raise PositionError(ErrorText("the pending claim has no choice to make"))


def _check_game_over_only_when_every_card_is_revealed(state: ApacheState) -> None:
    """The game ends after the last card's window (apache §5.5, §9).

    Raise :class:`PositionError` "the game is over only once every card is revealed".
    """
    if state.phase == GAME_OVER and not state.last_card:
        raise PositionError(ErrorText("the game is over only once every card is revealed"))


def _set_seats_to_act(state: ApacheState) -> None:
    """The seats to act, and a choose step's choices, follow from the phase (apache §6)."""
    if state.phase == POLLING:
        state.to_act = tuple(p for p in range(state.num_players) if not state.answered[p])
    elif state.phase == REVEALING:
        state.to_act = (state.revealer,)
    elif state.phase == CHOOSING:
        state.to_act = (state.queue[state.resolved].seat,)
        choices = _pending_choices(state)
        state.choice_actions = sorted((choice_action(c) for c in choices), key=lambda a: a.index)
    else:
        state.to_act = ()


# ----- helpers ------------------------------------------------------------------------------------


def _pending_choices(state: ApacheState) -> tuple[Choice, ...]:
    """The options of the queue's pending claim on the table now (apache §4)."""
    claim = state.queue[state.resolved]
    return claim_choices(state.table, claim.seat, claim.type, state.rules)


def _seat(value: Any, players: int) -> int:
    """``value`` if it is a seat 0 … players − 1, else :class:`PositionError`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise PositionError(
            ErrorText("a seat is 0–{last} (got {value})", last=players - 1, value=repr(value))
        )
    return value
