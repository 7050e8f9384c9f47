"""Reading a Big Manitou position: the fields, then one named check per invariant of the rules.

:func:`read_state` reads a position's ``state`` object (``docs/notation/manitou.md``,
"Position"): :func:`~campfire.core.fields.read_fields` reads each field as
``ManitouState.FIELDS`` declares it (presence, no unknown field, types, ranges, seats, card and
tile names, the generator), :func:`_build_state` lays the values into a state, and the
``_check_*`` functions that follow each check one invariant across fields, in a fixed order
(the first one broken raises its :class:`PositionError`). A position the rules can produce
passes every check:

>>> from campfire.games.manitou import GAME
>>> state = GAME.new_game(3, seed=5)
>>> position = state.to_position()
>>> read_state(3, state.options, position["state"]).position_equal(state)
True
>>> position["state"]["hunt"] = 4  # hunt 4 of 3, but the game is not over
>>> read_state(3, state.options, position["state"])
Traceback (most recent call last):
...
campfire.core.errors.PositionError: hunt must be 1–3 during the game and 4 once it is over \
(got 4 in phase select)

The deck orders of the hunts still to deal are read by :func:`read_deals`, which setups share
(``ManitouGame.from_setup`` raises :class:`SetupError` with it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campfire.core import CampfireError, ErrorText, PositionError, SetupError
from campfire.core.fields import ReadContext, read_fields

from .cards import CARD_NAMES, FULL_POOL, NUM_CARD_TYPES, NUM_HUNTERS, NUM_TILE_TYPES, parse_card
from .options import ManitouOptions
from .state import (
    DOWN,
    EV_START,
    GAME_OVER,
    HORSE_PHASE,
    HUNTS,
    NO_SEAT,
    NUM_GROUNDS,
    PHASES,
    PLAY_PHASE,
    PLAYS_PER_HUNT,
    SELECT,
    SHARE,
    THIEF,
    TOTEM_PHASE,
    ManitouState,
    read_names,
    selection_sizes,
)

__all__ = ["read_deals", "read_returns", "read_state"]


def read_state(players: int, options: ManitouOptions, s: Mapping[str, Any]) -> ManitouState:
    """Read and check a position's ``state`` object (raise :class:`PositionError`).

    The fields are read by ``ManitouState.FIELDS``; then the invariants across fields are
    checked one by one, in this order, and the deals and bag places to come are read.
    """
    v = read_fields(ManitouState, s, ReadContext(players, options))
    state = _build_state(players, options, v)
    _check_hunt_fits_phase(state)
    _check_seat_null_when_no_single_seat_acts(state)
    _check_no_selection_in_draw_variant(state)
    for g in range(NUM_GROUNDS):
        _check_ground_tiles_at_most_k(state, g)
    for p in range(players):
        _check_used_cards_from_one_deck(state, p)
        _check_used_cards_of_one_hunt(state, p)
        _check_used_empty_in_first_hunt_of_cycle(state, p)
    for g in range(NUM_GROUNDS):
        _check_hunters_face_up(state, g)
        _check_hero_limit(state, g)
        _check_face_up_heroes_of_one_seat(state, g)
    for p in range(players):
        _check_every_card_once(state, p)
        _check_hand_at_most_three(state, p)
        _check_nothing_dealt_during_selection(state, p)
        _check_selection_from_pool(state, p)
        _check_selection_size(state, p)
        _check_nothing_left_after_the_game(state, p)
        _check_selection_is_dealt(state, p)
        _check_hand_refilled(state, p)
    _check_selection_unfinished(state)
    _check_play_turn_fits_phase(state)
    _check_turn_is_consistent(state)
    _check_totem_seat(state)
    _check_horse_seat(state)
    _check_thief_queue_names_seats_once(state)
    _check_thief_queue_fits_phase(state)
    _check_robbed_seat_has_a_choice(state)
    _check_tomahawks_counted_fits_phase(state)
    _check_sharing_fits_phase(state)
    _check_shared_grounds_empty(state)
    _read_draws_to_come(state, v)
    return state


def _build_state(players: int, options: ManitouOptions, v: Mapping[str, Any]) -> ManitouState:
    """Lay the values read by ``read_fields`` into a state (this checks nothing, raises nothing).

    ``pool`` is the 17 cards less ``used_this_cycle``, ``owned`` the tiles counted by type,
    ``up`` the face-up heroes of each ground and ``picked`` the size of each selection.
    """
    state = ManitouState.new(options, players, v["dealer"], v["bag"], v["rng"])
    state.hunt = v["hunt"]
    state.phase = v["phase"]
    state.seat = v["seat"]
    state.grounds = v["grounds"]
    state.out_of_game = v["out_of_game"]
    state.owned = [_count(tiles, NUM_TILE_TYPES) for tiles in v["tiles_owned"]]
    state.totem_holder = v["totem_holder"]
    state.horse_holder = v["horse_holder"]
    used = [_count(cards, NUM_CARD_TYPES) for cards in v["used_this_cycle"]]
    state.pool = [[FULL_POOL[c] - u[c] for c in range(NUM_CARD_TYPES)] for u in used]
    state.selected = [_count(cards, NUM_CARD_TYPES) for cards in v["selected"]]
    state.picked = [sum(x) for x in state.selected]
    state.hands = v["hands"]
    state.decks = v["decks"]
    table: list[list[int]] = v["table"]
    for g, codes in enumerate(table):
        state.table[g] = codes
        state.up[g] = [c for c in codes if c & 15 >= NUM_HUNTERS and not c & DOWN]
    state.turn = v["play_turn"]
    state.rob_queue = v["thief_queue"]
    state.tom = v["tomahawks_counted"]
    sharing: tuple[int, int, int, int, int] = v["sharing"]
    state.ev_ground, state.ev_step, state.chooser, state.picks_left, state.c_taker = sharing
    return state


def _read_draws_to_come(state: ManitouState, v: Mapping[str, Any]) -> None:
    """Read ``deals`` (deck orders of the hunts still to deal) and ``returns`` into ``state``.

    After the selection and before the end, this hunt is dealt: the deals to come start at the
    next hunt, with the next dealer (manitou §5 H4, §3). Raises :class:`PositionError` from
    :func:`read_deals` and :func:`read_returns`.
    """
    n, hunt, dealer = state.num_players, state.hunt, state.dealer
    dealt = state.phase not in (SELECT, GAME_OVER)
    state.deals = read_deals(
        v["deals"], n, state.options, (dealer + dealt) % n, hunt + dealt, PositionError
    )
    state.returns = read_returns(v["returns"], state.options, PositionError)
    if state.phase == SELECT and state.deals:
        _check_deal_holds_the_selection(state)
    if state.deals:
        _check_short_orders_can_be_selected(state)


def _check_deal_holds_the_selection(state: ManitouState) -> None:
    """During the selection, this hunt's deck orders hold each seat's cards selected so far.

    The deck is dealt from the order when the selection ends (manitou §5 H4): an order without
    a card already selected could never be dealt, whatever the seat picks next. Raises
    :class:`PositionError` "deals[0][p] must hold seat p's selected cards (… is not in it as
    often)". The engine's legal picks are the order's cards (``ManitouState._compute_legal``),
    so a position it reaches always passes.
    """
    for p, order in enumerate(state.deals[0]):
        have = _count(order, NUM_CARD_TYPES)
        selected = state.selected[p]
        for c in range(NUM_CARD_TYPES):
            if selected[c] > have[c]:
                raise PositionError(
                    ErrorText(
                        "deals[0][{seat}] must hold seat {seat}'s selected cards "
                        "({card} is not in it as often)",
                        seat=p,
                        card=CARD_NAMES[c],
                    )
                )


def _check_short_orders_can_be_selected(state: ManitouState) -> None:
    """Each seat's short deck order to come can still be selected from its pool.

    An order shorter than a deck is the seat's selection itself (the engine's legal picks are
    its cards), so the pool must hold enough of them, and a card played in the first hunt of
    a cycle stays used for the second (manitou §4): :meth:`ManitouState.short_order_slack`.
    The engine keeps such cards back from play, so a position it reaches always passes.
    Raises :class:`PositionError` "deals[0][p] needs … more card(s) than seat p's pool holds
    for its selection …".
    """
    for p in range(state.num_players):
        found = state.short_order_slack(p)
        if found is not None and found[0] < 0:
            raise PositionError(
                ErrorText(
                    "deals[0][{seat}] needs {missing} more card(s) than seat {seat}'s pool "
                    "holds for its selection (a card played stays used until the cycle ends)",
                    seat=p,
                    missing=-found[0],
                )
            )


# ----- the game's course: hunt, phase and seat -------------------------------------------------


def _check_hunt_fits_phase(state: ManitouState) -> None:
    """The hunt is 1 … H during the game and H + 1 once it is over (manitou §2, §5, §12 M16).

    Raises :class:`PositionError` "hunt must be 1–H during the game and H + 1 once it is
    over (got … in phase …)".
    """
    hunts, hunt, phase = state.hunts, state.hunt, state.phase
    if (phase == GAME_OVER) != (hunt == hunts):
        raise PositionError(
            ErrorText(
                "hunt must be 1–{hunts} during the game and {number} once it is over "
                "(got {number2} in phase {phase_name})",
                hunts=hunts,
                number=hunts + 1,
                number2=hunt + 1,
                phase_name=PHASES[phase],
            )
        )


def _check_seat_null_when_no_single_seat_acts(state: ManitouState) -> None:
    """There is a seat to act except during the selection and after the game (manitou §5, §12 M14).

    The selection is simultaneous (manitou §5 H3, §12 M14), and nobody acts once the game is
    over. Raises :class:`PositionError` "seat must be null in the phases select and game_over
    and a seat otherwise".
    """
    seat, phase = state.seat, state.phase
    if (seat == NO_SEAT) != (phase in (SELECT, GAME_OVER)):
        raise PositionError(
            ErrorText(
                "seat must be null in the phases select and game_over and a seat "
                "otherwise (got {value} in phase {phase_name})",
                value=None if seat == NO_SEAT else seat,
                phase_name=PHASES[phase],
            )
        )


def _check_no_selection_in_draw_variant(state: ManitouState) -> None:
    """In the DRAW variant the cards are drawn, never selected (manitou §8).

    Raises :class:`PositionError` "there is no select phase in the DRAW variant".
    """
    if state.phase == SELECT and state.options.draw_cards:
        raise PositionError(ErrorText("there is no select phase in the DRAW variant (draw_cards)"))


# ----- tiles ------------------------------------------------------------------------------------


def _check_ground_tiles_at_most_k(state: ManitouState, g: int) -> None:
    """Ground ``g`` holds at most the k tiles laid out there (manitou §2, §5 H2, §12 M1).

    A typed-in bag may hold any tiles, so there is no fixed total. Raises
    :class:`PositionError` "grounds[g] holds … tiles; a ground gets at most k".
    """
    laid, k = state.grounds[g], state.per_ground
    if len(laid) > k:
        raise PositionError(
            ErrorText(
                "grounds[{i}] holds {n_laid} tiles; a ground gets at most {k}",
                i=g,
                n_laid=len(laid),
                k=k,
            )
        )


# ----- the cards played in the earlier hunt of the cycle ---------------------------------------


def _check_used_cards_from_one_deck(state: ManitouState, p: int) -> None:
    """Seat ``p``'s ``used_this_cycle`` holds no card more often than a deck (manitou §1.1, §4).

    Raises :class:`PositionError` "used_this_cycle[p] holds 2 h1 but a deck has 1".
    """
    _require_at_most(_used(state, p), FULL_POOL, f"used_this_cycle[{p}]", "a deck has")


def _check_used_cards_of_one_hunt(state: ManitouState, p: int) -> None:
    """Seat ``p`` used at most 8 cards this cycle: one hunt's plays, 7 + totem (manitou §4).

    After the game ``used_this_cycle`` holds the last cycle's two hunts. Raises
    :class:`PositionError` "used_this_cycle[p] holds … cards; a seat plays at most 8 in a hunt".
    """
    over = state.phase == GAME_OVER
    used = sum(_used(state, p))
    most = (PLAYS_PER_HUNT + 1) * (2 if over else 1)  # over: both hunts of the last cycle
    if used > most:
        raise PositionError(
            ErrorText(
                "used_this_cycle[{p}] holds {value} cards; a seat plays at most "
                "{number} in a hunt (used_this_cycle holds one hunt's, or after the "
                "game the last cycle's)",
                p=p,
                value=used,
                number=PLAYS_PER_HUNT + 1,
            )
        )


def _check_used_empty_in_first_hunt_of_cycle(state: ManitouState, p: int) -> None:
    """Seat ``p``'s pool is whole in the first hunt of a cycle: hunts 1, 3, 5 (manitou §4, §5 H1).

    Raises :class:`PositionError` "used_this_cycle[p] must be empty in hunt …, the first of a
    cycle".
    """
    if sum(_used(state, p)) and state.hunt % 2 == 0 and state.phase != GAME_OVER:
        raise PositionError(
            ErrorText(
                "used_this_cycle[{p}] must be empty in hunt {number}, the first of a "
                "cycle (manitou rules §4.4)",
                p=p,
                number=state.hunt + 1,
            )
        )


# ----- the cards on the grounds -----------------------------------------------------------------


def _check_hunters_face_up(state: ManitouState, g: int) -> None:
    """Hunters at ground ``g`` are face up: only heroes lose fights (manitou §5.1, §5.2).

    Raises :class:`PositionError` "table[g]: hunters are never face down".
    """
    for code in state.table[g]:
        card = code & 15
        if code & DOWN and card < NUM_HUNTERS:
            raise PositionError(
                ErrorText(
                    "table[{g}]: hunters are never face down (got {card_names} face down)",
                    g=g,
                    card_names=CARD_NAMES[card],
                )
            )


def _check_hero_limit(state: ManitouState, g: int) -> None:
    """A seat has at most two heroes at ground ``g`` (manitou §5.1, §12 M6).

    Face-down heroes count only with ``hero_limit_counts_face_down``. Raises
    :class:`PositionError` "table[g]: a seat has at most two heroes at a ground".
    """
    heroes = [0] * state.num_players
    count_down = state.options.hero_limit_counts_face_down
    for code in state.table[g]:
        if code & 15 >= NUM_HUNTERS and (count_down or not code & DOWN):
            heroes[(code & 255) >> 4] += 1
    if max(heroes) > 2:
        raise PositionError(ErrorText("table[{g}]: a seat has at most two heroes at a ground", g=g))


def _check_face_up_heroes_of_one_seat(state: ManitouState, g: int) -> None:
    """Face-up heroes at ground ``g`` belong to one seat: fights are immediate (manitou §5.2).

    Raises :class:`PositionError` "table[g]: face-up heroes of two seats at one ground".
    """
    if len({c >> 4 for c in state.up[g]}) > 1:
        raise PositionError(ErrorText("table[{g}]: face-up heroes of two seats at one ground", g=g))


# ----- each seat's cards: selected, dealt, held, played -----------------------------------------


def _check_every_card_once(state: ManitouState, p: int) -> None:
    """Each of seat ``p``'s 17 cards is in one place at most (manitou §1.1, §4).

    ``used_this_cycle``, the seat's cards on the table, its hand and its deck together hold no
    card more often than a deck has it. Raises :class:`PositionError` "seat p's cards
    (used_this_cycle, table, hands and decks together) holds 2 h1 but a deck has 1".
    """
    used, in_play = _used(state, p), _in_play(state, p)
    _require_at_most(
        [in_play[c] + used[c] for c in range(NUM_CARD_TYPES)],
        FULL_POOL,
        f"seat {p}'s cards (used_this_cycle, table, hands and decks together)",
        "a deck has",
    )


def _check_hand_at_most_three(state: ManitouState, p: int) -> None:
    """Seat ``p`` holds at most 3 cards: 3 are dealt, one drawn per play (manitou §5 H4, §5.4).

    Raises :class:`PositionError` "hands[p] holds … cards; at most 3".
    """
    hand = state.hands[p]
    if len(hand) > 3:
        raise PositionError(
            ErrorText("hands[{p}] holds {n_hands} cards; at most 3", p=p, n_hands=len(hand))
        )


def _check_nothing_dealt_during_selection(state: ManitouState, p: int) -> None:
    """During the selection seat ``p`` has no card in hand, deck or on the table (manitou §5 H3).

    The deal (H4) follows the selection. Raises :class:`PositionError` "seat p has cards in
    hand, deck or on the table during the selection".
    """
    if state.phase == SELECT and any(_in_play(state, p)):
        raise PositionError(
            ErrorText("seat {p} has cards in hand, deck or on the table during the selection", p=p)
        )


def _check_selection_from_pool(state: ManitouState, p: int) -> None:
    """During the selection seat ``p`` selects from its pool, not from used cards (manitou §4).

    Raises :class:`PositionError` "selected[p] (with used_this_cycle) holds 2 h1 but a deck
    has 1".
    """
    if state.phase == SELECT:
        selected, used = state.selected[p], _used(state, p)
        _require_at_most(
            [selected[c] + used[c] for c in range(NUM_CARD_TYPES)],
            FULL_POOL,
            f"selected[{p}] (with used_this_cycle)",
            "a deck has",
        )


def _check_selection_size(state: ManitouState, p: int) -> None:
    """During the selection seat ``p`` selects at most its selection size (manitou §3).

    Raises :class:`PositionError` "selected[p] holds … cards; seat p selects …".
    """
    size = state.sel_size[p]
    if state.phase == SELECT and state.picked[p] > size:
        raise PositionError(
            ErrorText(
                "selected[{p}] holds {value} cards; seat {p} selects {sel_size}",
                p=p,
                value=state.picked[p],
                sel_size=size,
            )
        )


def _check_nothing_left_after_the_game(state: ManitouState, p: int) -> None:
    """Once the game is over seat ``p`` selects, holds and plays nothing (manitou §5 H9, §7).

    Raises :class:`PositionError` "once the game is over, no card is selected, held or played".
    """
    if state.phase == GAME_OVER and (any(_in_play(state, p)) or state.picked[p]):
        raise PositionError(ErrorText("once the game is over, no card is selected, held or played"))


def _check_selection_is_dealt(state: ManitouState, p: int) -> None:
    """After the selection seat ``p``'s cards in play are its selection (manitou §5 H4).

    The selection is shuffled into the seat's deck, then drawn and played: ``selected`` is
    exactly the seat's cards on the table, in hand and in deck. Raises :class:`PositionError`
    "selected[p] must be seat p's cards on the table, in hand and in deck".
    """
    if state.phase not in (SELECT, GAME_OVER) and state.selected[p] != _in_play(state, p):
        raise PositionError(
            ErrorText(
                "selected[{p}] must be seat {p}'s cards on the table, in hand and in deck",
                p=p,
            )
        )


def _check_hand_refilled(state: ManitouState, p: int) -> None:
    """During the play seat ``p`` holds 3 cards while its deck has any (manitou §5 H5, §5.4).

    Raises :class:`PositionError` "hands[p] must hold 3 cards while its deck has any".
    """
    held = len(state.hands[p]) + len(state.decks[p])
    if state.phase == PLAY_PHASE and len(state.hands[p]) != min(3, held):
        raise PositionError(
            ErrorText("hands[{p}] must hold 3 cards while its deck has any (draws refill it)", p=p)
        )


def _check_selection_unfinished(state: ManitouState) -> None:
    """During the selection some seat still selects: the deal follows at once (manitou §5 H3-H4).

    Raises :class:`PositionError` "every seat has selected its cards: the deal follows at once".
    """
    if state.phase == SELECT and state.picked == state.sel_size:
        raise PositionError(
            ErrorText("every seat has selected its cards: the deal follows at once")
        )


# ----- whose turn it is -------------------------------------------------------------------------


def _check_play_turn_fits_phase(state: ManitouState) -> None:
    """``play_turn`` counts the plays of the hunt: 7·N in all (manitou §3, §5 H5, §5.5).

    It is 0 during the selection and after the game, below 7·N in the play phase and 7·N after
    it. Raises :class:`PositionError` "play_turn must be 0 in phase …", "… below 7·N in the
    play phase" or "… 7·N after the play phase".
    """
    phase, turn, turns = state.phase, state.turn, PLAYS_PER_HUNT * state.num_players
    if phase in (SELECT, GAME_OVER) and turn:
        raise PositionError(
            ErrorText("play_turn must be 0 in phase {phase_name}", phase_name=PHASES[phase])
        )
    if phase == PLAY_PHASE and turn == turns:
        raise PositionError(
            ErrorText("play_turn must be below {turns} in the play phase", turns=turns)
        )
    if phase not in (SELECT, PLAY_PHASE, GAME_OVER) and turn != turns:
        raise PositionError(
            ErrorText("play_turn must be {turns} after the play phase", turns=turns)
        )


def _check_turn_is_consistent(state: ManitouState) -> None:
    """In the play phase the seat to act is the one whose turn ``play_turn`` is (manitou §3).

    The first player is the dealer's left neighbour, play goes clockwise. Raises
    :class:`PositionError` "seat must be …, whose turn play_turn … is".
    """
    due = (state.dealer + 1 + state.turn) % state.num_players
    if state.phase == PLAY_PHASE and state.seat != due:
        raise PositionError(
            ErrorText(
                "seat must be {number}, whose turn play_turn {turn} is",
                number=due,
                turn=state.turn,
            )
        )


def _check_totem_seat(state: ManitouState) -> None:
    """In phase totem the totem holder, with cards in hand, acts (manitou §5.6, §5 H6).

    Raises :class:`PositionError` "in phase totem the seat is the totem holder, with cards in
    hand".
    """
    seat = state.seat
    if state.phase == TOTEM_PHASE and (seat != state.totem_holder or not state.hands[seat]):
        raise PositionError(
            ErrorText("in phase totem the seat is the totem holder, with cards in hand")
        )


def _check_horse_seat(state: ManitouState) -> None:
    """In phase horse the horse holder acts (manitou §5.7, §5 H7).

    Raises :class:`PositionError` "in phase horse the seat is the horse holder".
    """
    if state.phase == HORSE_PHASE and state.seat != state.horse_holder:
        raise PositionError(ErrorText("in phase horse the seat is the horse holder"))


# ----- the evaluation ---------------------------------------------------------------------------


def _check_thief_queue_names_seats_once(state: ManitouState) -> None:
    """The thief robs each seat with the highest total once (manitou §6.1).

    Raises :class:`PositionError` "thief_queue names a seat twice".
    """
    if len(set(state.rob_queue)) != len(state.rob_queue):
        raise PositionError(ErrorText("thief_queue names a seat twice"))


def _check_thief_queue_fits_phase(state: ManitouState) -> None:
    """The robbed seats wait only in phase thief, and the first of them acts (manitou §6.1).

    Raises :class:`PositionError` "in phase thief the seat is the first of thief_queue" or
    "thief_queue must be empty outside the thief phase".
    """
    queue = state.rob_queue
    if state.phase == THIEF:
        if not queue or queue[0] != state.seat:
            raise PositionError(ErrorText("in phase thief the seat is the first of thief_queue"))
    elif queue:
        raise PositionError(ErrorText("thief_queue must be empty outside the thief phase"))


def _check_robbed_seat_has_a_choice(state: ManitouState) -> None:
    """A robbed seat is asked only when it has a choice of tiles to lose (manitou §6.1, §12 M10).

    With one choice or none the evaluation goes on by itself. Raises :class:`PositionError`
    "seat … has no choice of tile to lose".
    """
    seat = state.seat
    if state.phase == THIEF and len(state._rob_choices(seat)) < 2:
        raise PositionError(
            ErrorText("seat {seat} has no choice of tile to lose (manitou rules §5.1)", seat=seat)
        )


def _check_tomahawks_counted_fits_phase(state: ManitouState) -> None:
    """The tomahawks are counted per seat while the grounds are shared (manitou §6.2, §12 M9).

    ``tomahawks_counted`` holds N numbers in phase take and is empty otherwise. Raises
    :class:`PositionError` "tomahawks_counted must be … in phase …".
    """
    n, phase = state.num_players, state.phase
    if len(state.tom) != (n if phase == SHARE else 0):
        size = f"{n} numbers (one per seat)" if phase == SHARE else "empty"
        raise PositionError(
            ErrorText(
                "tomahawks_counted must be {size} in phase {phase_name}",
                size=size,
                phase_name=PHASES[phase],
            )
        )


def _check_sharing_fits_phase(state: ManitouState) -> None:
    """A ground is being shared only in phase take, its chooser acting (manitou §6.2).

    In phase take the seat is the chooser, with picks left at a ground that has tiles;
    otherwise ``sharing`` is at rest. Raises :class:`PositionError` "in phase take the seat is
    the chooser, with picks left at a ground with tiles" or "sharing must be [1, 'start',
    null, 0, null] in phase …".
    """
    sharing = (state.ev_ground, state.ev_step, state.chooser, state.picks_left, state.c_taker)
    if state.phase == SHARE:
        chooses = state.ev_step != EV_START and state.chooser == state.seat
        if not chooses or not state.picks_left or not state.grounds[state.ev_ground]:
            raise PositionError(
                ErrorText(
                    "in phase take the seat is the chooser, with picks left at a ground with tiles"
                )
            )
    elif sharing != (0, EV_START, NO_SEAT, 0, NO_SEAT):
        raise PositionError(
            ErrorText(
                "sharing must be [1, 'start', null, 0, null] in phase {phase_name}",
                phase_name=PHASES[state.phase],
            )
        )


def _check_shared_grounds_empty(state: ManitouState) -> None:
    """The grounds are shared in order, G1, G2, G3: those before are empty (manitou §6.2).

    Raises :class:`PositionError` "grounds shared already must be empty".
    """
    if state.phase == SHARE and any(state.grounds[g] for g in range(state.ev_ground)):
        raise PositionError(ErrorText("grounds shared already must be empty"))


# ----- helpers: each seat's cards by type, and the deck orders to come --------------------------


def _count(codes: Sequence[int], size: int) -> list[int]:
    """How many of each of ``size`` card (or tile) types ``codes`` hold.

    >>> _count([0, 2, 2], 4)
    [1, 0, 2, 0]
    """
    counts = [0] * size
    for c in codes:
        counts[c] += 1
    return counts


def _used(state: ManitouState, p: int) -> list[int]:
    """Seat ``p``'s cards in ``used_this_cycle``, by type: the 17 less its pool."""
    pool = state.pool[p]
    return [FULL_POOL[c] - pool[c] for c in range(NUM_CARD_TYPES)]


def _in_play(state: ManitouState, p: int) -> list[int]:
    """Seat ``p``'s cards on the table, in hand and in deck, by type."""
    counts = _count(state.hands[p] + state.decks[p], NUM_CARD_TYPES)
    for codes in state.table:
        for code in codes:
            if (code & 255) >> 4 == p:
                counts[code & 15] += 1
    return counts


def _require_at_most(
    counts: list[int],
    limit: Any,
    field: str,
    what: str,
    error: type[CampfireError] = PositionError,
) -> None:
    """Raise ``error`` if ``counts`` holds more of a card than ``limit`` (``what`` says whose)."""
    for c, (have, most) in enumerate(zip(counts, limit, strict=True)):
        if have > most:
            raise error(
                ErrorText(
                    "{field} holds {have} {card_names} but {what} {most}",
                    field=field,
                    have=have,
                    card_names=CARD_NAMES[c],
                    what=what,
                    most=most,
                )
            )


def read_deals(
    raw: Any,
    players: int,
    options: ManitouOptions,
    dealer: int,
    hunt: int,
    error: type[CampfireError],
) -> list[tuple[tuple[int, ...], ...]]:
    """The explicit deck orders of the hunts from ``hunt`` on (0-based), ``dealer`` its dealer.

    Each hunt has one list per seat: card names in draw order, at most the 17 cards of a deck,
    at least the seat's selection size (all 17 in the DRAW variant, §8). ``error`` is
    :class:`SetupError` for a setup's ``decks``, :class:`PositionError` for a position's
    ``deals``.
    """
    what = "decks" if error is SetupError else "deals"
    left = HUNTS[players] - hunt
    if not isinstance(raw, list) or len(raw) > left:
        raise error(
            ErrorText(
                "{what} must list, for at most the {left} hunt(s) to come, one deck order per seat",
                what=what,
                left=left,
            )
        )
    deals = []
    for i, deal in enumerate(raw):
        if not isinstance(deal, list) or len(deal) != players:
            raise error(
                ErrorText(
                    "{what}[{i}] must hold one deck order per seat ({players} seats)",
                    what=what,
                    i=i,
                    players=players,
                )
            )
        sizes = selection_sizes(players, (dealer + i) % players)
        orders = []
        for p, order in enumerate(deal):
            field = f"{what}[{i}][{p}]"
            cards = read_names(order, field, parse_card, error)
            _require_at_most(_count(cards, NUM_CARD_TYPES), FULL_POOL, field, "a deck has", error)
            need = sum(FULL_POOL) if options.draw_cards else sizes[p]
            if len(cards) < need:
                why = "the whole shuffled deck in the DRAW variant" if options.draw_cards else ""
                raise error(
                    f"{field} lists {len(cards)} card(s); the seat's deck in hunt "
                    f"{hunt + i + 1} needs {need} {why}".rstrip()
                )
            orders.append(tuple(cards))
        deals.append(tuple(orders))
    return deals


def read_returns(raw: Any, options: ManitouOptions, error: type[CampfireError]) -> list[int]:
    """A setup's or position's ``returns``: places in the bag, only with ``leftover_tiles=bag``."""
    if not isinstance(raw, list) or not all(type(x) is int and x >= 0 for x in raw):
        raise error(
            ErrorText("returns must list whole numbers ≥ 0 (places in the bag, 0: drawn next)")
        )
    if raw and options.leftover_tiles != "bag":
        raise error(
            ErrorText("returns are places in the bag for untaken tiles: only leftover_tiles=bag")
        )
    return list(raw)
