"""The Big Manitou game spec: setup, positions and action notation (manitou §2).

An explicit setup (see ``docs/notation/manitou.md``, section "Setup") holds every random draw of
a physical game: the dealer of the first hunt, the tiles of the bag in the order they are drawn,
and for each hunt the order of each seat's personal deck (cards in the order drawn)::

    {"dealer": 0, "tiles": ["tipi3", "buffalo1", "totem", ...],
     "decks": [[["h7", "chief", "h2", ...], ...], ...]}

Hunts beyond ``decks`` (and the DRAW variant's selections there) are shuffled by the game's
generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from campfire.core import (
    Action,
    ActionSpace,
    Agent,
    Belief,
    CampfireError,
    ErrorText,
    Event,
    Game,
    GameRng,
    Options,
    PositionError,
    RolloutPolicy,
    SetupError,
)
from campfire.core.fields import ReadContext, read_fields
from campfire.core.present import Presenter
from campfire.core.validate import short_repr

from . import actions as _actions
from .cards import (
    CARD_NAMES,
    FULL_POOL,
    MAX_BAG_TILES,
    NUM_CARD_TYPES,
    NUM_HUNTERS,
    NUM_TILE_TYPES,
    TILE_NAMES,
    parse_card,
    parse_tile,
)
from .options import ManitouOptions
from .state import (
    DOWN,
    EV_START,
    GAME_OVER,
    HORSE_PHASE,
    HUNTS,
    NO_SEAT,
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

__all__ = ["GAME", "ManitouGame"]


class ManitouGame(Game[ManitouState]):
    """Big Manitou: hunters and heroes compete for tiles at three hunting grounds.

    >>> game = ManitouGame()
    >>> state = game.new_game(4, seed=1)
    >>> state.hunts, len(state.seats_to_act()), [len(g) for g in state.grounds]
    (4, 4, [3, 3, 3])
    """

    name = "manitou"
    title = "Big Manitou"
    min_players = 2
    max_players = 5
    options_type = ManitouOptions
    action_space = ActionSpace.from_module(_actions)
    # per hunt at most 9 + 3·8 + 7 picks, 7·5 plays, 1 totem play, 1 horse move, 5 thief choices
    # and 3·3 tile choices (91), for at most 5 hunts
    playout_bound = 460

    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw every random element of a game (manitou §2, §5 H4, §12 M15).

        The first dealer, the order of the tiles in the bag, and for every hunt each seat's
        shuffled personal deck (all 17 cards: the seat's deck is its selection in that order,
        and in the DRAW variant the selection is the first available cards); with
        ``leftover_tiles=bag`` also the places of tiles going back into the bag. The draw uses
        a generator derived from ``rng``'s state and leaves ``rng`` itself untouched.

        >>> game = ManitouGame()
        >>> setup = game.random_setup(3, game.options(), GameRng(5))
        >>> sorted(setup), len(setup["decks"]), [len(d) for d in setup["decks"][0]]
        (['dealer', 'decks', 'tiles'], 3, [17, 17, 17])
        >>> game.new_game(3, seed=5).position_equal(game.new_game(3, setup=setup, seed=5))
        True
        """
        assert isinstance(options, ManitouOptions)
        sub = random.Random(f"manitou-setup:{rng.getstate()!r}")
        counts = options.tile_counts()
        tiles = [t for t in range(NUM_TILE_TYPES) for _ in range(counts[t])]
        sub.shuffle(tiles)
        setup: dict[str, Any] = {
            "dealer": sub.randrange(players),
            "tiles": [TILE_NAMES[t] for t in tiles],
        }
        full = [CARD_NAMES[c] for c in range(NUM_CARD_TYPES) for _ in range(FULL_POOL[c])]
        decks = []
        for _ in range(HUNTS[players]):
            deal = []
            for _ in range(players):
                order = full[:]
                sub.shuffle(order)
                deal.append(order)
            decks.append(deal)
        setup["decks"] = decks
        if options.leftover_tiles == "bag":
            per_ground = options.tiles_per_ground or _per_ground(players)
            setup["returns"] = [
                sub.randrange(_RETURN_RANGE) for _ in range(3 * per_ground * HUNTS[players])
            ]
        return setup

    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> ManitouState:
        """Build the initial state (the first hunt laid out) from an explicit setup.

        ``dealer`` (default 0), ``tiles`` (the bag in draw order), optionally ``decks`` (per
        hunt, per seat, the personal deck in draw order) and ``returns`` (with
        ``leftover_tiles=bag``); see ``docs/notation/manitou.md``, "Setup".
        """
        assert isinstance(options, ManitouOptions)
        self._check_setup_fields(setup, ("dealer", "tiles", "decks", "returns"))
        dealer = setup.get("dealer", 0)
        if type(dealer) is not int or not 0 <= dealer < players:
            raise SetupError(
                ErrorText(
                    "dealer must be a seat 0–{last} (got {dealer})",
                    last=players - 1,
                    dealer=short_repr(dealer),
                )
            )
        raw = setup.get("tiles")
        if not isinstance(raw, list):
            raise SetupError(
                ErrorText(
                    "tiles must list the tiles of the bag in draw order, e.g. ['tipi3', 'totem']"
                )
            )
        if len(raw) > MAX_BAG_TILES:
            raise SetupError(
                ErrorText(
                    "the bag holds at most {max_bag_tiles} tiles (got {n_raw})",
                    max_bag_tiles=MAX_BAG_TILES,
                    n_raw=len(raw),
                )
            )
        bag = [parse_tile(name) for name in raw]
        deals = _read_deals(setup.get("decks", []), players, options, dealer, 0, SetupError)
        returns = _read_returns(setup.get("returns", []), options, SetupError)
        state = ManitouState(options, players, dealer, bag, rng)
        state.deals = deals
        state.returns = returns
        state._start_hunt([])
        return state

    def state_from_position(self, data: Mapping[str, Any]) -> ManitouState:
        """Rebuild a state from :meth:`ManitouState.to_position` output.

        Every field is checked (types, ranges, seats, phase and seat to act, each seat's cards
        in one place each): anything else raises :class:`PositionError` naming the field.
        """
        return self._read_position(data, _read_state)

    def rollout_policy(self, seat: int, belief: Belief) -> RolloutPolicy | None:
        """The heuristic's play for about a hunt, scored by the tiles owned (:mod:`.rollout`)."""
        from .rollout import ManitouRollout

        return ManitouRollout()

    def agents(self) -> dict[str, type[Agent]]:
        """The Big Manitou heuristic bot."""
        from .bots import ManitouHeuristic

        return {"heuristic": ManitouHeuristic}

    def difficulty_levels(self, players: int) -> dict[str, str]:
        """Easy: the heuristic, 30% random moves; medium: the heuristic; hard: a search.

        Easy plays a uniformly random legal move three times in ten (``noise=0.3``). Hard
        searches with heuristic rollouts: the game's rollout policy plays as the heuristic bot
        does, read straight from the simulated state (the same search as
        ``rollout=heuristic``, several times faster). A short search (30 iterations) lost to
        the heuristic bot, so the heuristic itself is the medium level. The same at every player
        count.
        """
        return {
            "easy": "heuristic:noise=0.3",
            "medium": "heuristic",
            "hard": "ismcts:iterations=100",
        }

    def undoable(self, seat: int, action: Action, events: Sequence[Event]) -> bool:
        """A secret pick may be taken back: its private line names a card of the seat's own pool.

        Anything else that was private (a dealt or drawn card) revealed something: refused.
        """
        return all(e.to is None or e.type == "pick_card" for e in events)

    def presenter(self) -> Presenter:
        """Big Manitou's presenter: the grounds, the cards and the log in the game's words."""
        from .present import ManitouPresenter

        return ManitouPresenter(self)


#: seeded setups draw each bag return place from 0 … this − 1 (taken modulo the bag size + 1)
_RETURN_RANGE = 2**31


def _per_ground(players: int) -> int:
    from .state import TILES_PER_GROUND

    return TILES_PER_GROUND[players]


def _read_deals(
    raw: Any,
    players: int,
    options: ManitouOptions,
    dealer: int,
    hunt: int,
    error: type[CampfireError],
) -> list[tuple[tuple[int, ...], ...]]:
    """The explicit deck orders of the hunts from ``hunt`` on (0-based), ``dealer`` its dealer.

    Each hunt has one list per seat: card names in draw order, at most the 17 cards of a deck,
    at least the seat's selection size (all 17 in the DRAW variant, §8).
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
            cards = _cards(order, field, error)
            _check_counts(_count(cards, NUM_CARD_TYPES), FULL_POOL, field, "a deck has", error)
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


def _read_returns(raw: Any, options: ManitouOptions, error: type[CampfireError]) -> list[int]:
    if not isinstance(raw, list) or not all(type(x) is int and x >= 0 for x in raw):
        raise error(
            ErrorText("returns must list whole numbers ≥ 0 (places in the bag, 0: drawn next)")
        )
    if raw and options.leftover_tiles != "bag":
        raise error(
            ErrorText("returns are places in the bag for untaken tiles: only leftover_tiles=bag")
        )
    return list(raw)


def _cards(raw: Any, field: str, error: type[CampfireError] = PositionError) -> list[int]:
    return read_names(raw, field, parse_card, error)


def _count(codes: list[int], size: int) -> list[int]:
    counts = [0] * size
    for c in codes:
        counts[c] += 1
    return counts


def _check_counts(
    counts: list[int],
    limit: Any,
    field: str,
    what: str,
    error: type[CampfireError] = PositionError,
) -> None:
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


def _read_state(players: int, options: ManitouOptions, s: Mapping[str, Any]) -> ManitouState:
    """Read and check a position's ``state`` object (raise :class:`PositionError`).

    :func:`~campfire.core.fields.read_fields` reads each field as ``ManitouState.FIELDS``
    declares it (presence, no unknown field, types, ranges, seats, card and tile names, the
    generator); what follows are the checks across fields.
    """
    n = players
    v = read_fields(ManitouState, s, ReadContext(players, options))
    hunts = HUNTS[n]
    phase: int = v["phase"]
    phase_name = PHASES[phase]
    over = phase == GAME_OVER
    hunt: int = v["hunt"]
    if over != (hunt == hunts):
        raise PositionError(
            ErrorText(
                "hunt must be 1–{hunts} during the game and {number} once it is over "
                "(got {number2} in phase {phase_name})",
                hunts=hunts,
                number=hunts + 1,
                number2=hunt + 1,
                phase_name=phase_name,
            )
        )
    dealer: int = v["dealer"]
    seat: int = v["seat"]
    if (seat == NO_SEAT) != (phase in (SELECT, GAME_OVER)):
        raise PositionError(
            ErrorText(
                "seat must be null in the phases select and game_over and a seat "
                "otherwise (got {value} in phase {phase_name})",
                value=None if seat == NO_SEAT else seat,
                phase_name=phase_name,
            )
        )
    if phase == SELECT and options.draw_cards:
        raise PositionError(ErrorText("there is no select phase in the DRAW variant (draw_cards)"))
    state = ManitouState(options, n, dealer, v["bag"], v["rng"])
    state.hunt = hunt
    state.phase = phase
    state.seat = seat

    # tiles: where they lie (a typed-in bag may hold any tiles, so there is no fixed total)
    k = state.per_ground
    state.grounds = v["grounds"]
    for i, laid in enumerate(state.grounds):
        if len(laid) > k:
            raise PositionError(
                ErrorText(
                    "grounds[{i}] holds {n_laid} tiles; a ground gets at most {k}",
                    i=i,
                    n_laid=len(laid),
                    k=k,
                )
            )
    state.out_of_game = v["out_of_game"]
    state.owned = [_count(tiles, NUM_TILE_TYPES) for tiles in v["tiles_owned"]]
    state.totem_holder = v["totem_holder"]
    state.horse_holder = v["horse_holder"]

    # cards: each seat's 17 cards, each in one place (manitou §1.1, §4)
    used = [_count(cards, NUM_CARD_TYPES) for cards in v["used_this_cycle"]]
    for p, u in enumerate(used):
        _check_counts(u, FULL_POOL, f"used_this_cycle[{p}]", "a deck has")
        most = (PLAYS_PER_HUNT + 1) * (2 if over else 1)  # over: both hunts of the last cycle
        if sum(u) > most:
            raise PositionError(
                ErrorText(
                    "used_this_cycle[{p}] holds {value} cards; a seat plays at most "
                    "{number} in a hunt (used_this_cycle holds one hunt's, or after the "
                    "game the last cycle's)",
                    p=p,
                    value=sum(u),
                    number=PLAYS_PER_HUNT + 1,
                )
            )
        if sum(u) and hunt % 2 == 0 and not over:
            raise PositionError(
                ErrorText(
                    "used_this_cycle[{p}] must be empty in hunt {number}, the first of a "
                    "cycle (manitou rules §4.4)",
                    p=p,
                    number=hunt + 1,
                )
            )
    state.pool = [[FULL_POOL[c] - u[c] for c in range(NUM_CARD_TYPES)] for u in used]
    state.sel_size = selection_sizes(n, dealer)
    selected = [_count(cards, NUM_CARD_TYPES) for cards in v["selected"]]
    state.hands = v["hands"]
    state.decks = v["decks"]
    on_table = [[0] * NUM_CARD_TYPES for _ in range(n)]
    table: list[list[int]] = v["table"]
    for g, codes in enumerate(table):
        heroes = [0] * n
        for code in codes:
            p, card, up = (code & 255) >> 4, code & 15, not code & DOWN
            if not up and card < NUM_HUNTERS:
                raise PositionError(
                    ErrorText(
                        "table[{g}]: hunters are never face down (got {card_names} face down)",
                        g=g,
                        card_names=CARD_NAMES[card],
                    )
                )
            if card >= NUM_HUNTERS and (up or options.hero_limit_counts_face_down):
                heroes[p] += 1
            on_table[p][card] += 1
        if max(heroes) > 2:  # manitou §5.1 (M6)
            raise PositionError(
                ErrorText("table[{g}]: a seat has at most two heroes at a ground", g=g)
            )
        state.table[g] = codes
        state.up[g] = [c for c in codes if c & 15 >= NUM_HUNTERS and not c & DOWN]
        if len({c >> 4 for c in state.up[g]}) > 1:  # manitou §5.2: contests are immediate
            raise PositionError(
                ErrorText("table[{g}]: face-up heroes of two seats at one ground", g=g)
            )
    for p in range(n):
        held = _count(state.hands[p] + state.decks[p], NUM_CARD_TYPES)
        in_play = [held[c] + on_table[p][c] for c in range(NUM_CARD_TYPES)]
        _check_counts(
            [in_play[c] + used[p][c] for c in range(NUM_CARD_TYPES)],
            FULL_POOL,
            f"seat {p}'s cards (used_this_cycle, table, hands and decks together)",
            "a deck has",
        )
        if len(state.hands[p]) > 3:
            raise PositionError(
                ErrorText(
                    "hands[{p}] holds {n_hands} cards; at most 3", p=p, n_hands=len(state.hands[p])
                )
            )
        if phase == SELECT:
            if sum(in_play):
                raise PositionError(
                    ErrorText(
                        "seat {p} has cards in hand, deck or on the table during the selection", p=p
                    )
                )
            _check_counts(
                [selected[p][c] + used[p][c] for c in range(NUM_CARD_TYPES)],
                FULL_POOL,
                f"selected[{p}] (with used_this_cycle)",
                "a deck has",
            )
            if sum(selected[p]) > state.sel_size[p]:
                raise PositionError(
                    ErrorText(
                        "selected[{p}] holds {value} cards; seat {p} selects {sel_size}",
                        p=p,
                        value=sum(selected[p]),
                        sel_size=state.sel_size[p],
                    )
                )
        elif over:
            if sum(in_play) or sum(selected[p]):
                raise PositionError(
                    ErrorText("once the game is over, no card is selected, held or played")
                )
        else:
            if selected[p] != in_play:
                raise PositionError(
                    ErrorText(
                        "selected[{p}] must be seat {p}'s cards on the table, in hand and in deck",
                        p=p,
                    )
                )
            if phase == PLAY_PHASE and len(state.hands[p]) != min(3, sum(held)):
                raise PositionError(
                    ErrorText(
                        "hands[{p}] must hold 3 cards while its deck has any (draws refill it)", p=p
                    )
                )
    state.selected = selected
    state.picked = [sum(x) for x in selected]
    if phase == SELECT and state.picked == state.sel_size:
        raise PositionError(
            ErrorText("every seat has selected its cards: the deal follows at once")
        )

    # the phase and whose turn it is
    turns = PLAYS_PER_HUNT * n
    state.turn = turn = v["play_turn"]
    if phase in (SELECT, GAME_OVER) and turn:
        raise PositionError(
            ErrorText("play_turn must be 0 in phase {phase_name}", phase_name=phase_name)
        )
    if phase == PLAY_PHASE:
        if turn == turns:
            raise PositionError(
                ErrorText("play_turn must be below {turns} in the play phase", turns=turns)
            )
        if seat != (dealer + 1 + turn) % n:
            raise PositionError(
                ErrorText(
                    "seat must be {number}, whose turn play_turn {turn} is",
                    number=(dealer + 1 + turn) % n,
                    turn=turn,
                )
            )
    elif phase not in (SELECT, GAME_OVER) and turn != turns:
        raise PositionError(
            ErrorText("play_turn must be {turns} after the play phase", turns=turns)
        )
    if phase == TOTEM_PHASE and (seat != state.totem_holder or not state.hands[seat]):
        raise PositionError(
            ErrorText("in phase totem the seat is the totem holder, with cards in hand")
        )
    if phase == HORSE_PHASE and seat != state.horse_holder:
        raise PositionError(ErrorText("in phase horse the seat is the horse holder"))

    # the evaluation (manitou §6)
    state.rob_queue = v["thief_queue"]
    if len(set(state.rob_queue)) != len(state.rob_queue):
        raise PositionError(ErrorText("thief_queue names a seat twice"))
    if phase == THIEF:
        if not state.rob_queue or state.rob_queue[0] != seat:
            raise PositionError(ErrorText("in phase thief the seat is the first of thief_queue"))
        if len(state._rob_choices(seat)) < 2:
            raise PositionError(
                ErrorText(
                    "seat {seat} has no choice of tile to lose (manitou rules §5.1)", seat=seat
                )
            )
    elif state.rob_queue:
        raise PositionError(ErrorText("thief_queue must be empty outside the thief phase"))
    state.tom = v["tomahawks_counted"]
    if len(state.tom) != (n if phase == SHARE else 0):
        size = f"{n} numbers (one per seat)" if phase == SHARE else "empty"
        raise PositionError(
            ErrorText(
                "tomahawks_counted must be {size} in phase {phase_name}",
                size=size,
                phase_name=phase_name,
            )
        )
    sharing: tuple[int, int, int, int, int] = v["sharing"]
    state.ev_ground, state.ev_step, state.chooser, state.picks_left, state.c_taker = sharing
    if phase == SHARE:
        tiles = state.grounds[state.ev_ground]
        if state.ev_step == EV_START or state.chooser != seat or not state.picks_left or not tiles:
            raise PositionError(
                ErrorText(
                    "in phase take the seat is the chooser, with picks left at a ground with tiles"
                )
            )
        if any(state.grounds[g] for g in range(state.ev_ground)):
            raise PositionError(ErrorText("grounds shared already must be empty"))
    elif sharing != (0, EV_START, NO_SEAT, 0, NO_SEAT):
        raise PositionError(
            ErrorText(
                "sharing must be [1, 'start', null, 0, null] in phase {phase_name}",
                phase_name=phase_name,
            )
        )

    # the draws to come
    dealt = phase != SELECT and not over  # the deals to come: from this hunt's or the next's
    state.deals = _read_deals(
        v["deals"], n, options, (dealer + dealt) % n, hunt + dealt, PositionError
    )
    state.returns = _read_returns(v["returns"], options, PositionError)
    return state


GAME = ManitouGame()
ManitouState.game = GAME
