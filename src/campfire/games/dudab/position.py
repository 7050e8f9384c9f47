"""Reading Dudab positions strictly: one named check for each invariant of the rules.

:func:`read_state` reads a position's ``state`` object (``docs/notation/dudab.md``, section
"Position"): :func:`~campfire.core.fields.read_fields` reads every field as
``DudabState.FIELDS`` declares it (presence, no unknown field, types, ranges, seats, card ids,
the shapes of the obligation, the tasks and the columns), then the ``_check_*`` functions below
check the invariants across fields, in a fixed order, each raising a :class:`PositionError`
that names the field. Sections (``dudab §x.y``) are those of the rules specification.

The setup reader (``game.py``) shares :func:`require_every_card_once` and
:func:`require_no_jungle_or_baby_dealt` with the checks of the later decks.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from campfire.core import ErrorText, NotationError, PositionError
from campfire.core.fields import Int, ReadContext, read_fields, read_object
from campfire.core.validate import short_repr

from .cards import (
    BABY,
    DUDAB,
    FACE,
    JUNGLE,
    KIND,
    NUM_CARDS,
    SHAMAN,
    card_name,
    cards_in_use,
    face_name,
    parse_face,
)
from .options import DudabOptions
from .scoring import round_score
from .state import (
    CAPTURE_AT,
    HAND_DEAL,
    KEEP_AFTER_CAPTURE,
    MAX_HAND,
    NO_SEAT,
    OB_NONE,
    OB_SHAMAN,
    PLAYING,
    T_ADVANCE,
    T_BABY,
    T_DRAW,
    T_END_STEP,
    T_JUNGLE,
    T_KEEP,
    T_SWAP,
    T_TRIM,
    TASKS,
    DudabState,
    columns_for,
    sorted_faces,
)
from .types import RoundDetail, RoundEndData

__all__ = ["read_state", "require_every_card_once", "require_no_jungle_or_baby_dealt"]

#: the fields of the last round's report
_REPORT_FIELDS = ("round", "hands", "piles", "scores", "details")
#: a card of each face, to score the faces of the last round's report
_FACE_CARD = {FACE[c]: c for c in reversed(range(NUM_CARDS))}
#: the pending tasks that wait for a choice (only these may be on top of the stack)
_CHOICES = (T_TRIM, T_KEEP, T_SWAP, T_JUNGLE, T_BABY)


def read_state(players: int, options: DudabOptions, s: Mapping[str, Any]) -> DudabState:
    """Read and check a position's ``state`` object (every problem is a :class:`PositionError`).

    The checks run in this order, so a position with several problems is refused for the first.
    """
    v = read_fields(DudabState, s, ReadContext(players, options))
    state = _unchecked_state(players, options, v)
    _check_a_finished_game_ends_after_the_last_round(state)
    _check_someone_acts_during_a_round(state)
    for c in range(state.ncols):
        _check_no_jungle_or_baby_shows_in_a_column(state, c)
        _check_a_column_without_a_jungle_shows_1_to_5_cards(state, c)
        _check_no_more_cards_below_a_jungle_than_above(state, c)
        _check_each_card_of_a_column_has_an_owner_entry(state, c)
        _check_a_jungle_owner_only_with_a_jungle(state, c)
    _check_no_jungle_or_baby_in_a_hand_or_kept(state)
    _check_only_the_top_task_is_a_choice_made_at_once(state)
    _check_the_top_task_waits_for_a_choice(state)
    _check_a_finished_game_has_no_tasks(state)
    _check_the_bottom_task_ends_the_actors_step(state)
    _check_each_task_sits_on_the_task_that_caused_it(state)
    _check_revealed_is_the_seat_of_the_swap(state)
    _check_a_swap_reveals_five_cards(state)
    _check_a_trim_has_more_than_five_cards(state)
    _check_a_keep_has_more_than_two_cards(state)
    _check_cards_are_kept_only_while_keeping(state)
    _check_at_most_two_cards_are_kept(state)
    _check_hand_sizes(state)
    _check_the_obligation_comes_from_its_column(state)
    _check_a_finished_game_has_no_obligation(state)
    _check_the_draw_pile_is_not_empty(state)
    _check_a_score_for_every_finished_round(state)
    _check_no_report_before_the_first_round_ends(state, v["last_round"])
    state.report = _read_report(state, v["last_round"])
    _check_the_report_scores_are_the_last_scores(state)
    _check_the_report_is_the_engines_scoring(state, v["last_round"])
    _check_the_final_report_is_of_the_final_hands(state)
    _check_a_deck_for_every_later_round(state)
    for r in range(len(state.decks)):
        _check_a_later_deck_holds_every_card_once(state, r)
        _check_a_later_deck_deals_no_jungle_or_baby(state, r)
    _check_every_card_once(state)
    _check_the_seat_to_act_can_move(state)
    return state


def _unchecked_state(players: int, options: DudabOptions, v: Mapping[str, Any]) -> DudabState:
    """The state of the fields as read, before any check across them (no report yet)."""
    state = DudabState()  # empty (a compiled class refuses object.__new__)
    state.num_players = players
    state.options = options
    state.ncols = columns_for(players)
    state.start_player = v["start_player"]
    state.round = v["round"]
    state.phase = v["phase"]
    state.actor = v["actor"]
    state.ob, state.ob_col, state.ob_call = v["obligation"]  # dudab §3
    state.tasks = v["tasks"]  # bottom of the stack first
    state.revealed = v["revealed"]
    state.draw = v["draw"]
    state.discard = v["discard"]
    state.heap = [heap for heap, _, _, _ in v["columns"]]
    state.vis = [vis for _, vis, _, _ in v["columns"]]
    state.jungle = [jungle for _, _, jungle, _ in v["columns"]]
    state.above = [above for _, _, _, above in v["columns"]]
    owners = v["owners"]
    if owners is None:  # written before Dudab recorded them: every owner unknown
        owners = [((NO_SEAT,) * len(vis), NO_SEAT) for vis in state.vis]
    state.owners = [cards for cards, _ in owners]
    state.jungle_owners = [jungle for _, jungle in owners]
    state.hands = v["hands"]
    state.piles = v["piles"]
    state.kept = v["kept"]
    state.scores = v["scores"]
    state.report = None
    state.decks = v["decks"]
    state._legal = None
    return state


# ----- shared helpers ----------------------------------------------------------------------------


def _playing(state: DudabState) -> bool:
    """Whether a round is being played (the game is not over)."""
    return state.phase == PLAYING


def _finished_rounds(state: DudabState) -> int:
    """How many rounds have been scored: those before this one, and this one once it is over."""
    return state.round + (not _playing(state))


def _top(state: DudabState) -> tuple[int, int, int] | None:
    """The task on top of the stack (the one the next step carries out), if any."""
    return state.tasks[-1] if state.tasks else None


def _no_specials(cards: list[int], what: str) -> None:
    """No Jungle or Baby among ``cards`` (they are laid at once when drawn during a round)."""
    for c in cards:
        if KIND[c] in (JUNGLE, BABY):
            raise PositionError(
                ErrorText(
                    "{what}: {value} cannot be there during a round (a drawn Jungle or "
                    "Baby is laid at once, dudab rules §6.1, §7.1)",
                    what=what,
                    value=card_name(c),
                )
            )


def require_no_jungle_or_baby_dealt(
    deck: list[int], head: int, what: str, error: type[ValueError]
) -> None:
    """No Jungle or Baby among a deck's first ``head`` cards (the deal and the starters)."""
    bad = [c for c in deck[:head] if KIND[c] in (JUNGLE, BABY)]
    if bad:
        raise error(
            ErrorText(
                "{what}: {value} is among the first {head} cards (the deal and the "
                "column starters); Jungle and Baby cards are set aside there (dudab "
                "rules §3.2), so list them where they ended up in the draw pile",
                what=what,
                value=card_name(bad[0]),
                head=head,
            )
        )


def require_every_card_once(
    cards: list[int], expected: list[int], what: str, error: type[ValueError]
) -> None:
    """``cards`` must hold every card of ``expected`` exactly once."""
    have = Counter(cards)
    for c, k in have.items():
        if k > 1:
            raise error(
                ErrorText(
                    "{what}: card {value} appears {k} times; each card appears once",
                    what=what,
                    value=card_name(c),
                    k=k,
                )
            )
    want = set(expected)
    for c in have:
        if c not in want:
            raise error(
                ErrorText(
                    "{what}: card {value} is not in use with these options",
                    what=what,
                    value=card_name(c),
                )
            )
    missing = sorted(want - set(have))
    if missing:
        raise error(
            ErrorText(
                "{what}: card {value} is missing ({n_missing} missing)",
                what=what,
                value=card_name(missing[0]),
                n_missing=len(missing),
            )
        )


# ----- the round and the seat to act ------------------------------------------------------------


def _check_a_finished_game_ends_after_the_last_round(state: DudabState) -> None:
    """A game is over only after its last round, round N (dudab §2.1, §7.4).

    Raises ``PositionError`` "a finished game ends after round {players} (round is {number})".
    """
    if not _playing(state) and state.round != state.num_players - 1:
        raise PositionError(
            ErrorText(
                "a finished game ends after round {players} (round is {number})",
                players=state.num_players,
                number=state.round + 1,
            )
        )


def _check_someone_acts_during_a_round(state: DudabState) -> None:
    """During a round a seat is always taking its step (dudab §5.2).

    Raises ``PositionError`` "actor must be a whole number 0–{last} (got None)".
    """
    if _playing(state) and state.actor == NO_SEAT:
        raise PositionError(
            ErrorText(
                "actor must be a whole number 0–{last} (got None)", last=state.num_players - 1
            )
        )


# ----- the columns, the hands and kept cards ----------------------------------------------------


def _check_no_jungle_or_baby_shows_in_a_column(state: DudabState, c: int) -> None:
    """During a round a drawn Jungle or Baby is laid at once, never shown as a column's card.

    dudab §5.7.6–§5.7.7 (the cover that empties the draw pile stays, whatever it is, but that
    ends the round, §5.8). Raises ``PositionError`` "columns[c].cards: {card} cannot be there
    during a round (…)".
    """
    if _playing(state):
        _no_specials(state.vis[c], f"columns[{c}].cards")


def _check_a_column_without_a_jungle_shows_1_to_5_cards(state: DudabState, c: int) -> None:
    """A column without a Jungle is never empty, and its sixth card captures (dudab §4.3).

    Raises ``PositionError`` "columns[c].cards: a column without a Jungle shows 1–5 cards (…)".
    """
    vis, what = state.vis[c], f"columns[{c}]"
    if state.jungle[c] < 0 and not 1 <= len(vis) < CAPTURE_AT:
        raise PositionError(
            ErrorText(
                "{what}.cards: a column without a Jungle shows 1–{last} cards (the "
                "{capture_at}th captures, dudab rules §4.4; got {n_vis})",
                what=what,
                last=CAPTURE_AT - 1,
                capture_at=CAPTURE_AT,
                n_vis=len(vis),
            )
        )


def _check_no_more_cards_below_a_jungle_than_above(state: DudabState, c: int) -> None:
    """The card that makes more cards below a Jungle than above it captures (dudab §4.2).

    Raises ``PositionError`` "columns[c]: {b} cards below the Jungle and {a} above; more below
    than above captures (…)".
    """
    above = state.above[c]
    below, what = len(state.vis[c]) - above, f"columns[{c}]"
    if state.jungle[c] >= 0 and below > above:
        raise PositionError(
            ErrorText(
                "{what}: {n_vis} cards below the Jungle and {above} above; more below "
                "than above captures (dudab rules §6.3)",
                what=what,
                n_vis=below,
                above=above,
            )
        )


def _check_each_card_of_a_column_has_an_owner_entry(state: DudabState, c: int) -> None:
    """``owners[c].cards`` names who played each visible card of column ``c``, in its order.

    (A seat, or ``null`` for a card nobody played: a column's first card, a Baby's cover.)
    Raises ``PositionError`` "owners[c].cards must have one entry for each card of
    columns[c].cards (…)".
    """
    if len(state.owners[c]) != len(state.vis[c]):
        raise PositionError(
            ErrorText(
                "owners[{c}].cards must have one entry for each card of columns[{c}].cards "
                "(got {n_owners} for {n_vis})",
                c=c,
                n_vis=len(state.vis[c]),
                n_owners=len(state.owners[c]),
            )
        )


def _check_a_jungle_owner_only_with_a_jungle(state: DudabState, c: int) -> None:
    """Only a column with a Jungle has a seat that laid it (dudab §6.1).

    Raises ``PositionError`` "owners[c].jungle: null without a Jungle on columns[c]".
    """
    if state.jungle[c] < 0 and state.jungle_owners[c] != NO_SEAT:
        raise PositionError(
            ErrorText("owners[{c}].jungle: null without a Jungle on columns[{c}]", c=c)
        )


def _check_no_jungle_or_baby_in_a_hand_or_kept(state: DudabState) -> None:
    """During a round a drawn Jungle or Baby is laid at once, never held (dudab §5.7.1, §6).

    Raises ``PositionError`` "hands[p]: {card} cannot be there during a round (…)" (or
    "kept: …").
    """
    if _playing(state):
        for p in range(state.num_players):
            _no_specials(state.hands[p], f"hands[{p}]")
        _no_specials(state.kept, "kept")


# ----- the pending tasks (dudab §5.6–§5.7, §5.10) ---------------------------------------------


def _check_only_the_top_task_is_a_choice_made_at_once(state: DudabState) -> None:
    """A keep, swap, Jungle or Baby choice is asked at once, so it is only on top (dudab §5.10).

    (A trim may wait below a draw.) Raises ``PositionError`` "tasks[i]: a {task} choice is made
    at once (only on top)".
    """
    for i, (typ, _, _) in enumerate(state.tasks[:-1]):
        if typ in _CHOICES and typ != T_TRIM:
            raise PositionError(
                ErrorText(
                    "tasks[{i}]: a {tasks} choice is made at once (only on top)",
                    i=i,
                    tasks=TASKS[typ],
                )
            )


def _check_the_top_task_waits_for_a_choice(state: DudabState) -> None:
    """The engine carries tasks out until one needs a seat's choice (dudab §5.7, §5.10).

    Raises ``PositionError`` "tasks: the top task must wait for a choice (…); '{task}' would
    already have been carried out".
    """
    top = _top(state)
    if top is not None and top[0] not in _CHOICES:
        raise PositionError(
            ErrorText(
                "tasks: the top task must wait for a choice ({items}); '{tasks}' would "
                "already have been carried out",
                items=", ".join(TASKS[t] for t in _CHOICES),
                tasks=TASKS[top[0]],
            )
        )


def _check_a_finished_game_has_no_tasks(state: DudabState) -> None:
    """The end of a round cancels everything pending (dudab §5.8).

    Raises ``PositionError`` "tasks: a finished game has no pending tasks".
    """
    if not _playing(state) and state.tasks:
        raise PositionError(ErrorText("tasks: a finished game has no pending tasks"))


def _check_the_bottom_task_ends_the_actors_step(state: DudabState) -> None:
    """Every step starts with its own end (``end_step``, later ``advance``) of the actor.

    dudab §5.2, §5.6. Raises ``PositionError`` "tasks: the bottom task is the end of the
    actor's step ('end_step' or 'advance' of seat {actor})".
    """
    if state.tasks:
        typ, seat, _ = state.tasks[0]
        if typ not in (T_END_STEP, T_ADVANCE) or seat != state.actor:
            raise PositionError(
                ErrorText(
                    "tasks: the bottom task is the end of the actor's step ('end_step' or "
                    "'advance' of seat {actor})",
                    actor=state.actor,
                )
            )


#: the task each task sits on, of the same seat (its cause), and how the message says it
_CAUSES = {
    T_DRAW: ((T_TRIM, T_END_STEP), "a 'trim' or 'end_step' of the same seat"),
    T_SWAP: ((T_DRAW,), "the 'draw' of the same seat"),
    T_KEEP: ((T_END_STEP,), "the 'end_step' of the same seat"),
}


def _check_each_task_sits_on_the_task_that_caused_it(state: DudabState) -> None:
    """Each task sits on the task of the same seat that caused it (dudab §4.3, §5.3–§5.7).

    A draw sits on the trim (or the step's end) of its seat, a five-card swap on the draw of
    its seat, keeping after a capture on the end of the capturer's step. Raises
    ``PositionError`` "tasks[i]: a '{task}' task sits on {need}".
    """
    for i in range(1, len(state.tasks)):
        typ, seat, _ = state.tasks[i]
        below, below_seat, _ = state.tasks[i - 1]
        if typ not in _CAUSES:
            continue
        causes, need = _CAUSES[typ]
        if below not in causes or below_seat != seat:
            raise PositionError(
                ErrorText(
                    "tasks[{i}]: a '{tasks}' task sits on {need}", i=i, tasks=TASKS[typ], need=need
                )
            )


def _check_revealed_is_the_seat_of_the_swap(state: DudabState) -> None:
    """A hand is revealed exactly while its five-card swap waits (dudab §5.3, §5.5, §5.7.2).

    Raises ``PositionError`` "revealed is the seat whose revealed five-card hand waits for its
    'pile' choice (the seat of a pending 'swap' task: {seat})".
    """
    top = _top(state)
    swapper = top[1] if top is not None and top[0] == T_SWAP else NO_SEAT
    if state.revealed != swapper:
        raise PositionError(
            ErrorText(
                "revealed is the seat whose revealed five-card hand waits for its "
                "'pile' choice (the seat of a pending 'swap' task: {value})",
                value=None if swapper < 0 else swapper,
            )
        )


def _check_a_swap_reveals_five_cards(state: DudabState) -> None:
    """Only a seat with 5 cards swaps one into its pile before drawing (dudab §5.3, §5.5).

    Raises ``PositionError`` "tasks: a five-card swap needs 5 cards in hands[{seat}]".
    """
    top = _top(state)
    if top is not None and top[0] == T_SWAP and len(state.hands[top[1]]) != MAX_HAND:
        raise PositionError(
            ErrorText("tasks: a five-card swap needs 5 cards in hands[{seat}]", seat=top[1])
        )


def _check_a_trim_has_more_than_five_cards(state: DudabState) -> None:
    """A trim waits only while the hand holds more than 5 cards (dudab §5.7.3).

    Raises ``PositionError`` "tasks: a trim needs more than 5 cards in hands[{seat}]".
    """
    top = _top(state)
    if top is not None and top[0] == T_TRIM and len(state.hands[top[1]]) <= MAX_HAND:
        raise PositionError(
            ErrorText(
                "tasks: a trim needs more than {max_hand} cards in hands[{seat}]",
                max_hand=MAX_HAND,
                seat=top[1],
            )
        )


def _check_a_keep_has_more_than_two_cards(state: DudabState) -> None:
    """After a capture a seat chooses only when it holds more than 2 cards (dudab §4.3).

    Raises ``PositionError`` "tasks: keeping after a capture needs more than 2 cards in
    hands[{seat}] and kept".
    """
    top = _top(state)
    if top is None or top[0] != T_KEEP:
        return
    seat = top[1]
    if len(state.hands[seat]) + len(state.kept) <= KEEP_AFTER_CAPTURE:
        raise PositionError(
            ErrorText(
                "tasks: keeping after a capture needs more than {keep_after_capture} "
                "cards in hands[{seat}] and kept",
                keep_after_capture=KEEP_AFTER_CAPTURE,
                seat=seat,
            )
        )


def _check_cards_are_kept_only_while_keeping(state: DudabState) -> None:
    """Cards are set aside as kept only while the capturer chooses them (dudab §4.3).

    Raises ``PositionError`` "kept: cards are kept only while a 'keep' task is pending".
    """
    top = _top(state)
    if state.kept and (top is None or top[0] != T_KEEP):
        raise PositionError(ErrorText("kept: cards are kept only while a 'keep' task is pending"))


def _check_at_most_two_cards_are_kept(state: DudabState) -> None:
    """A capturer keeps 2 cards (dudab §4.3).

    Raises ``PositionError`` "kept: at most 2 cards are kept (dudab rules §4.5)".
    """
    if len(state.kept) > KEEP_AFTER_CAPTURE:
        raise PositionError(
            ErrorText(
                "kept: at most {keep_after_capture} cards are kept (dudab rules §4.5)",
                keep_after_capture=KEEP_AFTER_CAPTURE,
            )
        )


def _check_hand_sizes(state: DudabState) -> None:
    """A hand over 5 cards waits for its trim (a ``trim`` or ``end_step`` of its seat).

    dudab §5.6, §5.7.3, §6. Raises ``PositionError`` "hands[p]: {n} cards; a hand holds at most
    5 unless a trim for seat {p} is pending (dudab rules §5.6)".
    """
    if not _playing(state):
        return
    trims = {seat for typ, seat, _ in state.tasks if typ in (T_TRIM, T_END_STEP)}
    for p in range(state.num_players):
        if len(state.hands[p]) > MAX_HAND and p not in trims:
            raise PositionError(
                ErrorText(
                    "hands[{p}]: {n_hands} cards; a hand holds at most {max_hand} unless a "
                    "trim for seat {p} is pending (dudab rules §5.6)",
                    p=p,
                    n_hands=len(state.hands[p]),
                    max_hand=MAX_HAND,
                )
            )


# ----- the obligation and the draw pile ---------------------------------------------------------


def _check_the_obligation_comes_from_its_column(state: DudabState) -> None:
    """A Shaman reaction or a call is owed to the Shaman or called Dudab ending its column.

    dudab §3, §5.3–§5.5. Raises ``PositionError`` "obligation: column {number} must end with
    the {Shaman or Dudab} that made it".
    """
    if state.ob == OB_NONE:
        return
    vis = state.vis[state.ob_col]
    want = SHAMAN if state.ob == OB_SHAMAN else DUDAB
    if not vis or KIND[vis[-1]] != want:
        raise PositionError(
            ErrorText(
                "obligation: column {number} must end with the {value} that made it",
                number=state.ob_col + 1,
                value="Shaman" if want == SHAMAN else "Dudab",
            )
        )


def _check_a_finished_game_has_no_obligation(state: DudabState) -> None:
    """The end of a round cancels the pending obligation (dudab §5.8).

    Raises ``PositionError`` "obligation: a finished game has none".
    """
    if not _playing(state) and state.ob != OB_NONE:
        raise PositionError(ErrorText("obligation: a finished game has none"))


def _check_the_draw_pile_is_not_empty(state: DudabState) -> None:
    """The round ends the moment the draw pile empties (dudab §5.8).

    Raises ``PositionError`` "draw: the round ends when the draw pile empties (…)".
    """
    if _playing(state) and not state.draw:
        raise PositionError(
            ErrorText("draw: the round ends when the draw pile empties (dudab rules §8.1)")
        )


# ----- scores and the last round's report (dudab §7) --------------------------------------------


def _check_a_score_for_every_finished_round(state: DudabState) -> None:
    """Each seat has one score for each finished round (dudab §2.1, §7).

    Raises ``PositionError`` "scores[p] must have {finished} entries (got {n})".
    """
    finished = _finished_rounds(state)
    for p, row in enumerate(state.scores):
        if len(row) != finished:
            raise PositionError(
                ErrorText(
                    "scores[{p}] must have {finished} entries (got {n_row})",
                    p=p,
                    finished=finished,
                    n_row=len(row),
                )
            )


def _check_no_report_before_the_first_round_ends(state: DudabState, raw: Any) -> None:
    """A round's scoring is reported when it ends; before the first there is none (dudab §7).

    Raises ``PositionError`` "last_round must be null before the first round has ended".
    """
    if _finished_rounds(state) == 0 and raw is not None:
        raise PositionError(ErrorText("last_round must be null before the first round has ended"))


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    """``value`` must be a JSON list (of ``length`` entries, if given)."""
    if not isinstance(value, list):
        raise PositionError(
            ErrorText(
                "{what} must be a JSON list (got {value})", what=what, value=short_repr(value)
            )
        )
    if length is not None and len(value) != length:
        raise PositionError(
            ErrorText(
                "{what} must have {length} entries (got {n_value})",
                what=what,
                length=length,
                n_value=len(value),
            )
        )
    return value


def _face_cards(value: Any, what: str, players: int) -> list[list[int]]:
    """The report's hands or piles: per seat, face names → a representative card of each."""
    out = []
    for seat, faces in enumerate(_list(value, what, players)):
        cards = []
        for name in _list(faces, f"{what}[{seat}]"):
            try:
                face = parse_face(name) if isinstance(name, str) else -1
            except NotationError:
                face = -1
            if face < 0:
                raise PositionError(
                    ErrorText(
                        "{what}[{seat}]: unknown face {name}",
                        what=what,
                        seat=seat,
                        name=short_repr(name),
                    )
                )
            cards.append(_FACE_CARD[face])
        out.append(cards)
    return out


def _read_report(state: DudabState, raw: Any) -> RoundEndData | None:
    """The last round's scoring, computed from the report's hands and piles.

    ``None`` before the first round ends; the checks that follow compare it with ``raw``.
    """
    finished = _finished_rounds(state)
    if finished == 0:
        return None
    r = read_object(raw, "last_round", _REPORT_FIELDS)
    Int(finished, finished).decode(
        r["round"], "last_round.round", ReadContext(state.num_players, state.options)
    )
    hands = _face_cards(r["hands"], "last_round.hands", state.num_players)
    piles = _face_cards(r["piles"], "last_round.piles", state.num_players)
    _check_the_report_holds_cards_of_the_deck(state, hands + piles)
    details = [
        cast(RoundDetail, round_score(h, p).to_json()) for h, p in zip(hands, piles, strict=True)
    ]
    return {
        "round": finished,
        "hands": [sorted_faces(h) for h in hands],
        "piles": [sorted_faces(p) for p in piles],
        "scores": [d["total"] for d in details],
        "details": details,
    }


def _check_the_report_holds_cards_of_the_deck(state: DudabState, held: list[list[int]]) -> None:
    """The report's hands and piles hold no face more often than the round's deck has it.

    dudab §2 (the cards), §7.1 (what is scored): each card of the round ends in one hand or pile
    at most. Raises ``PositionError`` "last_round holds {count} cards of {face}; the deck has
    {copies}".
    """
    deck = Counter(FACE[c] for c in cards_in_use(state.options.use_jungle, state.options.use_baby))
    found = Counter(FACE[c] for cards in held for c in cards)
    for face, count in sorted(found.items()):
        if count > deck[face]:
            raise PositionError(
                ErrorText(
                    "last_round holds {count} cards of {face}; the deck has {copies}",
                    count=count,
                    face=face_name(face),
                    copies=deck[face],
                )
            )


def _check_the_report_scores_are_the_last_scores(state: DudabState) -> None:
    """The last round's scores, from its hands and piles, end each seat's scores (dudab §7.1).

    Raises ``PositionError`` "last_round: the round's scores {scores} (from its hands and
    piles) must be the last entries of scores".
    """
    report = state.report
    if report is not None and [s[-1] for s in state.scores] != report["scores"]:
        raise PositionError(
            ErrorText(
                "last_round: the round's scores {report} (from its hands and piles) "
                "must be the last entries of scores",
                report=report["scores"],
            )
        )


def _check_the_report_is_the_engines_scoring(state: DudabState, raw: Any) -> None:
    """The report is the scoring of its hands and piles as the engine writes it (dudab §7.1).

    (Scored by the reference algorithm, dudab §7.3.) Raises ``PositionError`` "last_round must
    be the scoring of the last round as the engine writes it (…)".
    """
    report = state.report
    if report is not None and json.dumps(raw, sort_keys=True) != json.dumps(
        report, sort_keys=True
    ):  # 1 is not True
        raise PositionError(
            ErrorText(
                "last_round must be the scoring of the last round as the engine writes "
                "it (faces sorted, scores and details computed from the hands and "
                "piles)"
            )
        )


def _check_the_final_report_is_of_the_final_hands(state: DudabState) -> None:
    """When the game is over, the last round's report scored the hands and piles left.

    dudab §7.1, §7.4. Raises ``PositionError`` "last_round: seat {p}'s hand and pile must be
    those of the finished game".
    """
    report = state.report
    if _playing(state) or report is None:
        return
    for p in range(state.num_players):
        if report["hands"][p] != sorted_faces(state.hands[p]) or report["piles"][p] != sorted_faces(
            state.piles[p]
        ):
            raise PositionError(
                ErrorText(
                    "last_round: seat {p}'s hand and pile must be those of the finished game",
                    p=p,
                )
            )


# ----- conservation: every card in use once, in this round and in each later deck -------------


def _check_a_deck_for_every_later_round(state: DudabState) -> None:
    """There is a deck for each round still to come, and only for those (dudab §2.1, §2.3).

    Raises ``PositionError`` "decks must have {later} entries (got {n})".
    """
    later = state.num_players - state.round - 1 if _playing(state) else 0
    if len(state.decks) != later:
        raise PositionError(
            ErrorText(
                "decks must have {later} entries (got {n_decks})",
                later=later,
                n_decks=len(state.decks),
            )
        )


def _later_deck(state: DudabState, r: int) -> str:
    """How messages name the ``r``-th later deck: with the round it is for."""
    return f"decks[{r}] (round {state.round + r + 2})"


def _check_a_later_deck_holds_every_card_once(state: DudabState, r: int) -> None:
    """A round's deck is all the cards in use, shuffled (dudab §1.6, §2.3 step 1).

    Raises ``PositionError`` "decks[r] (round n): card {card} appears {k} times; …" (or "… is
    not in use with these options", "… is missing").
    """
    expected = cards_in_use(state.options.use_jungle, state.options.use_baby)
    require_every_card_once(state.decks[r], expected, _later_deck(state, r), PositionError)


def _check_a_later_deck_deals_no_jungle_or_baby(state: DudabState, r: int) -> None:
    """Jungle and Baby cards met in the deal are set aside and shuffled back (dudab §2.3 step 4).

    Raises ``PositionError`` "decks[r] (round n): {card} is among the first {head} cards (…)".
    """
    head = HAND_DEAL * state.num_players + state.ncols
    require_no_jungle_or_baby_dealt(state.decks[r], head, _later_deck(state, r), PositionError)


def _check_every_card_once(state: DudabState) -> None:
    """Every card in use is in exactly one zone of the round (dudab §1.6, §1.7).

    A pending ``jungle`` or ``baby`` task's card counts. Raises ``PositionError`` "the cards of
    the round: card {card} appears {k} times; …" (or "… is not in use with these options",
    "… is missing").
    """
    limbo = [arg for typ, _, arg in state.tasks if typ in (T_JUNGLE, T_BABY)]
    everything = state.draw + state.discard + state.kept + limbo
    for c in range(state.ncols):
        everything += state.heap[c] + state.vis[c]
        if state.jungle[c] >= 0:
            everything.append(state.jungle[c])
    for p in range(state.num_players):
        everything += state.hands[p] + state.piles[p]
    expected = cards_in_use(state.options.use_jungle, state.options.use_baby)
    require_every_card_once(everything, expected, "the cards of the round", PositionError)


def _check_the_seat_to_act_can_move(state: DudabState) -> None:
    """Every step of a round offers its seat a legal action (dudab §5.3–§5.5, §5.10).

    Raises ``PositionError`` "seat {seat} would have no legal step in this position".
    """
    if _playing(state) and not state.legal_actions():
        raise PositionError(
            ErrorText(
                "seat {value} would have no legal step in this position", value=state.to_act()
            )
        )
