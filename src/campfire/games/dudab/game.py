"""The Dudab game spec: setup, positions and action notation (dudab §2).

An explicit setup (``docs/notation/dudab.md``, section "Setup") gives the round-1 start player
and the deck order of every round, top card first: all the random draws of a physical game, so
a typed-in game needs no seed (rounds without a given deck are shuffled from the game's seed).
Positions (section "Position") are read strictly: an impossible one raises ``PositionError``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from campfire.core import (
    ActionSpace,
    Agent,
    Belief,
    ErrorText,
    Game,
    GameRng,
    NotationError,
    Options,
    PositionError,
    RolloutPolicy,
    SetupError,
)
from campfire.core.fields import ReadContext, read_fields, read_object
from campfire.core.validate import short_repr

from . import actions as _actions
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
    parse_card,
    parse_face,
)
from .options import DudabOptions
from .present import DudabPresenter
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
    random_deck,
    sorted_faces,
)
from .types import RoundDetail, RoundEndData

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
            raise SetupError(
                ErrorText(
                    "start_player must be a seat 0–{last} (got {start})",
                    last=players - 1,
                    start=start,
                )
            )
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
        self._check_setup_fields(setup, ("start_player", "decks"))
        start = setup.get("start_player", options.start_player)
        if start == -1 and "start_player" not in setup:
            start = rng.randrange(players)  # D32: drawn at random unless given
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
            raise SetupError(
                ErrorText(
                    "start_player must be a seat 0–{last} (got {start})",
                    last=players - 1,
                    start=short_repr(start),
                )
            )
        raw = setup.get("decks")
        if not isinstance(raw, list) or not 1 <= len(raw) <= players:
            raise SetupError(
                ErrorText(
                    "decks must list the deck order (top card first) of 1–{players} rounds",
                    players=players,
                )
            )
        cards = cards_in_use(options.use_jungle, options.use_baby)
        head = HAND_DEAL * players + columns_for(players)
        decks = []
        for r, deck in enumerate(raw):
            if not isinstance(deck, list):
                raise SetupError(
                    ErrorText("deck {number} must be a list of card ids", number=r + 1)
                )
            ids = [parse_card(name) for name in deck]
            _check_cards(ids, cards, f"deck {r + 1}", SetupError)
            _check_head(ids, head, f"deck {r + 1}", SetupError)
            decks.append(ids)
        while len(decks) < players:
            decks.append(random_deck(cards, head, rng))
        return DudabState(options, players, start, decks)

    def state_from_position(self, data: Mapping[str, Any]) -> DudabState:
        """Rebuild a state from :meth:`DudabState.to_position` output."""
        return self._read_position(data, _read_state)

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

    def presenter(self) -> DudabPresenter:
        """Dudab's presenter (``present.py``): columns, prompts, log lines, legend."""
        return DudabPresenter(self)

    def difficulty_levels(self, players: int) -> dict[str, str]:
        """Easy and medium are the heuristic bot (easy with random slips); hard searches.

        ``ismcts:iterations=1000`` with the game's rollout model (:mod:`.rollout`: 20-action
        rule-of-thumb rollouts scored as the round stands, the hand discounted while the draw
        pile is long, the two best calls of a Dudab placement searched, rewarding the score
        margin); its strength against the heuristic is measured in ``docs/strength.md``.

        The spec is the same at every player count; the rollout model's estimate depends on it:
        from 4 players on the hand counts in full while the draw pile is long
        (:attr:`.rollout.DudabRollout.hand_weight_many`; half with 2 or 3 players), since a
        seat that draws up to a full hand is forced into captures there. With 2 and 3 players
        the model, and so every decision, is the one measured before that change.
        """
        return {
            "easy": "heuristic:noise=0.3",
            "medium": "heuristic",
            "hard": "ismcts:iterations=1000",
        }


def _check_head(deck: list[int], head: int, what: str, error: type[ValueError]) -> None:
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


def _check_cards(cards: list[int], expected: list[int], what: str, error: type[ValueError]) -> None:
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


# ----- reading positions strictly ----------------------------------------------------------------

#: the fields of the last round's report
_REPORT_FIELDS = ("round", "hands", "piles", "scores", "details")
#: a card of each face, to score the faces of the last round's report
_FACE_CARD = {FACE[c]: c for c in reversed(range(NUM_CARDS))}
#: the pending tasks that wait for a choice (only these may be on top of the stack)
_CHOICES = (T_TRIM, T_KEEP, T_SWAP, T_JUNGLE, T_BABY)


def _int(value: Any, what: str, low: int, high: int) -> int:
    """``value`` must be an ``int`` (not a ``bool``) from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(
            ErrorText(
                "{what} must be a whole number {low}–{high} (got {value})",
                what=what,
                low=low,
                high=high,
                value=short_repr(value),
            )
        )
    if not low <= value <= high:
        raise PositionError(
            ErrorText(
                "{what} must be {low}–{high} (got {value})",
                what=what,
                low=low,
                high=high,
                value=value,
            )
        )
    return value


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
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


def _no_specials(cards: list[int], what: str) -> None:
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


def _read_report(
    value: Any, players: int, finished: int, scores: list[list[int]]
) -> RoundEndData | None:
    """The last round's public scoring (``None`` before the first round ends)."""
    if finished == 0:
        if value is not None:
            raise PositionError(
                ErrorText("last_round must be null before the first round has ended")
            )
        return None
    r = read_object(value, "last_round", _REPORT_FIELDS)
    _int(r["round"], "last_round.round", finished, finished)
    hands = _face_cards(r["hands"], "last_round.hands", players)
    piles = _face_cards(r["piles"], "last_round.piles", players)
    details = [
        cast(RoundDetail, round_score(h, p).to_json()) for h, p in zip(hands, piles, strict=True)
    ]
    report: RoundEndData = {
        "round": finished,
        "hands": [sorted_faces(h) for h in hands],
        "piles": [sorted_faces(p) for p in piles],
        "scores": [d["total"] for d in details],
        "details": details,
    }
    if [s[-1] for s in scores] != report["scores"]:
        raise PositionError(
            ErrorText(
                "last_round: the round's scores {report} (from its hands and piles) "
                "must be the last entries of scores",
                report=report["scores"],
            )
        )
    if json.dumps(r, sort_keys=True) != json.dumps(report, sort_keys=True):  # 1 is not True
        raise PositionError(
            ErrorText(
                "last_round must be the scoring of the last round as the engine writes "
                "it (faces sorted, scores and details computed from the hands and "
                "piles)"
            )
        )
    return report


def _check_task_order(tasks: list[tuple[int, int, int]], actor: int) -> None:
    """The stack as the rules build it (dudab §5.6–§5.7), bottom first.

    Every step starts with its own end (``end_step``, later ``advance``) of the actor; a draw
    sits on the trim (or the step's end) of the same seat; a five-card swap sits on the draw of
    its seat, and keeping after a capture on the end of the capturer's step.
    """
    if not tasks:
        return
    typ, seat, _ = tasks[0]
    if typ not in (T_END_STEP, T_ADVANCE) or seat != actor:
        raise PositionError(
            ErrorText(
                "tasks: the bottom task is the end of the actor's step ('end_step' or "
                "'advance' of seat {actor})",
                actor=actor,
            )
        )
    for i in range(1, len(tasks)):
        typ, seat, _ = tasks[i]
        below, below_seat, _ = tasks[i - 1]
        if typ == T_DRAW:
            ok = below in (T_TRIM, T_END_STEP) and below_seat == seat
            need = "a 'trim' or 'end_step' of the same seat"
        elif typ == T_SWAP:
            ok = below == T_DRAW and below_seat == seat
            need = "the 'draw' of the same seat"
        elif typ == T_KEEP:
            ok = below == T_END_STEP and below_seat == seat
            need = "the 'end_step' of the same seat"
        else:
            continue
        if not ok:
            raise PositionError(
                ErrorText(
                    "tasks[{i}]: a '{tasks}' task sits on {need}", i=i, tasks=TASKS[typ], need=need
                )
            )


def _read_state(players: int, options: DudabOptions, s: Mapping[str, Any]) -> DudabState:
    """Read and check a position's ``state`` object (every problem is a :class:`PositionError`).

    :func:`~campfire.core.fields.read_fields` reads each field as ``DudabState.FIELDS``
    declares it (presence, no unknown field, types, ranges, seats, card ids, the shapes of the
    obligation, the tasks and the columns); what follows are the checks across fields.
    """
    v = read_fields(DudabState, s, ReadContext(players, options))
    state = object.__new__(DudabState)
    ncols = columns_for(players)
    state.num_players = players
    state.options = options
    state.ncols = ncols
    state.start_player = v["start_player"]
    state.round = v["round"]
    state.phase = v["phase"]
    playing = state.phase == PLAYING
    if not playing and state.round != players - 1:
        raise PositionError(
            ErrorText(
                "a finished game ends after round {players} (round is {number})",
                players=players,
                number=state.round + 1,
            )
        )
    state.actor = v["actor"]
    if playing and state.actor == NO_SEAT:
        raise PositionError(
            ErrorText("actor must be a whole number 0–{last} (got None)", last=players - 1)
        )
    state.ob, state.ob_col, state.ob_call = v["obligation"]  # dudab §3

    # the card zones
    state.draw = v["draw"]
    state.discard = v["discard"]
    state.heap, state.vis, state.jungle, state.above = [], [], [], []
    for c, (heap, vis, jungle, above) in enumerate(v["columns"]):
        what = f"columns[{c}]"
        if playing:  # the cover that empties the pile stays, whatever it is (dudab §5.7.7)
            _no_specials(vis, f"{what}.cards")
        if jungle < 0:
            if not 1 <= len(vis) < CAPTURE_AT:
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
        elif len(vis) - above > above:
            raise PositionError(
                ErrorText(
                    "{what}: {n_vis} cards below the Jungle and {above} above; more below "
                    "than above captures (dudab rules §6.3)",
                    what=what,
                    n_vis=len(vis) - above,
                    above=above,
                )
            )
        state.heap.append(heap)
        state.vis.append(vis)
        state.jungle.append(jungle)
        state.above.append(above)
    state.hands = v["hands"]
    state.piles = v["piles"]
    state.kept = v["kept"]
    if playing:
        for p in range(players):
            _no_specials(state.hands[p], f"hands[{p}]")
        _no_specials(state.kept, "kept")

    # pending tasks, bottom of the stack first (dudab §5.6–§5.7)
    state.tasks = v["tasks"]
    limbo = [arg for typ, _, arg in state.tasks if typ in (T_JUNGLE, T_BABY)]
    top = state.tasks[-1] if state.tasks else None
    for i, (typ, _, _) in enumerate(state.tasks[:-1]):
        if typ in _CHOICES and typ != T_TRIM:
            raise PositionError(
                ErrorText(
                    "tasks[{i}]: a {tasks} choice is made at once (only on top)",
                    i=i,
                    tasks=TASKS[typ],
                )
            )
    if top is not None and top[0] not in _CHOICES:
        raise PositionError(
            ErrorText(
                "tasks: the top task must wait for a choice ({items}); '{tasks}' would "
                "already have been carried out",
                items=", ".join(TASKS[t] for t in _CHOICES),
                tasks=TASKS[top[0]],
            )
        )
    if not playing and state.tasks:
        raise PositionError(ErrorText("tasks: a finished game has no pending tasks"))
    _check_task_order(state.tasks, state.actor)
    state.revealed = v["revealed"]
    swapper = top[1] if top is not None and top[0] == T_SWAP else NO_SEAT
    if state.revealed != swapper:
        raise PositionError(
            ErrorText(
                "revealed is the seat whose revealed five-card hand waits for its "
                "'pile' choice (the seat of a pending 'swap' task: {value})",
                value=None if swapper < 0 else swapper,
            )
        )
    if top is not None:
        typ, seat, _ = top
        hand = state.hands[seat]
        if typ == T_SWAP and len(hand) != MAX_HAND:
            raise PositionError(
                ErrorText("tasks: a five-card swap needs 5 cards in hands[{seat}]", seat=seat)
            )
        if typ == T_TRIM and len(hand) <= MAX_HAND:
            raise PositionError(
                ErrorText(
                    "tasks: a trim needs more than {max_hand} cards in hands[{seat}]",
                    max_hand=MAX_HAND,
                    seat=seat,
                )
            )
        if typ == T_KEEP and len(hand) + len(state.kept) <= KEEP_AFTER_CAPTURE:
            raise PositionError(
                ErrorText(
                    "tasks: keeping after a capture needs more than {keep_after_capture} "
                    "cards in hands[{seat}] and kept",
                    keep_after_capture=KEEP_AFTER_CAPTURE,
                    seat=seat,
                )
            )
    if state.kept and (top is None or top[0] != T_KEEP):
        raise PositionError(ErrorText("kept: cards are kept only while a 'keep' task is pending"))
    if len(state.kept) > KEEP_AFTER_CAPTURE:
        raise PositionError(
            ErrorText(
                "kept: at most {keep_after_capture} cards are kept (dudab rules §4.5)",
                keep_after_capture=KEEP_AFTER_CAPTURE,
            )
        )
    if playing:  # dudab §5.6, §5.7.3: a hand over 5 cards waits for its trim
        trims = {seat for typ, seat, _ in state.tasks if typ in (T_TRIM, T_END_STEP)}
        for p in range(players):
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
    if state.ob != OB_NONE:
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
    if not playing and state.ob != OB_NONE:
        raise PositionError(ErrorText("obligation: a finished game has none"))
    if playing and not state.draw:
        raise PositionError(
            ErrorText("draw: the round ends when the draw pile empties (dudab rules §8.1)")
        )

    # scores and the last round's report (dudab §7)
    finished = state.round + (not playing)
    state.scores = v["scores"]
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
    state.report = _read_report(v["last_round"], players, finished, state.scores)
    if not playing and state.report is not None:
        for p in range(players):
            if state.report["hands"][p] != sorted_faces(state.hands[p]) or state.report["piles"][
                p
            ] != sorted_faces(state.piles[p]):
                raise PositionError(
                    ErrorText(
                        "last_round: seat {p}'s hand and pile must be those of the finished game",
                        p=p,
                    )
                )

    # conservation: every card in use exactly once, in this round and in each later deck
    expected = cards_in_use(options.use_jungle, options.use_baby)
    head = HAND_DEAL * players + ncols
    decks: list[list[int]] = v["decks"]
    later = players - state.round - 1 if playing else 0
    if len(decks) != later:
        raise PositionError(
            ErrorText(
                "decks must have {later} entries (got {n_decks})", later=later, n_decks=len(decks)
            )
        )
    for r, ids in enumerate(decks):
        what = f"decks[{r}] (round {state.round + r + 2})"
        _check_cards(ids, expected, what, PositionError)
        _check_head(ids, head, what, PositionError)
    state.decks = decks
    everything = state.draw + state.discard + state.kept + limbo
    for c in range(ncols):
        everything += state.heap[c] + state.vis[c]
        if state.jungle[c] >= 0:
            everything.append(state.jungle[c])
    for p in range(players):
        everything += state.hands[p] + state.piles[p]
    _check_cards(everything, expected, "the cards of the round", PositionError)
    state._legal = None
    if playing and not state.legal_actions():
        raise PositionError(
            ErrorText(
                "seat {value} would have no legal step in this position", value=state.to_act()
            )
        )
    return state


GAME = DudabGame()
DudabState.game = GAME
