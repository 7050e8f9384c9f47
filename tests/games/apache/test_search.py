"""The Apache search bot: its model agrees with the rules; it decides by simulation."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from campfire.agents import make_agent
from campfire.core import Agent, Observation, OptionError
from campfire.games.apache import GAME
from campfire.games.apache.cards import (
    BUFFALO,
    CHIEF,
    GREEN,
    HUNTER,
    MAIDEN,
    NUM_KINDS,
    NUM_TYPES,
    PRAIRIE_DECK,
    PURPLE,
    RED,
    WARRIOR,
    YELLOW,
    card_name,
    parse_card,
)
from campfire.games.apache.resolve import (
    Claim,
    Rules,
    choice_size,
    claim_choices,
    claim_is_legal,
    resolve_window,
    table_counts,
)
from campfire.games.apache.search import ApacheModel, ApacheSearch

from .tables import play, play_bots, position

VARIANTS = {"war_tribute": True, "marriage": True, "sharing": True}
RULES = [
    Rules((0, 1)),
    Rules((0, 1, 2), war_tribute=True, marriage=True, sharing=True),
    Rules((3, 1, 4), marriage=True, marriage_chief_is_male=False),
    Rules((2, 0), sharing=True, war_tribute=True),
]


def _act(state: Any, bot: Agent) -> str:
    return str(bot.act(Observation(state, bot.seat, bot.belief)))


def _tables(seed: int, count: int) -> list[tuple[list[int], list[list[int]]]]:
    """Random tables of 3–15 face-up cards and piles of up to 10 cards (for two to three seats)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = list(PRAIRIE_DECK)
        rng.shuffle(deck)
        size = rng.randrange(3, 16)
        piles = [deck[size + 10 * s : size + 10 * s + rng.randrange(11)] for s in range(3)]
        out.append((deck[:size], piles))
    return out


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_the_models_claims_are_the_rules_claims(rules: Rules) -> None:
    # the model's best option wins exactly the most cards any legal option of the rules wins
    model = ApacheModel(rules, patience=5, reaction_ms=500, spread=0)
    for table, piles in _tables(7, 300):
        piles = piles[: len(rules.colours)]
        counts = table_counts(table)
        buffalo = [p.count(BUFFALO) for p in piles]
        for seat, t in itertools.product(range(len(rules.colours)), range(NUM_TYPES)):
            legal = claim_is_legal(table, seat, t, rules, counts)
            claim = Claim(seat, t, legal)
            sizes = [
                choice_size(c, claim, table, piles, rules)
                for c in claim_choices(table, seat, t, rules)
            ]
            size = model.best_option(counts, seat, t, buffalo)[0]
            assert size == (max(sizes) if legal else 0), (table, seat, t)


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_the_models_windows_move_the_cards_the_rules_move(rules: Rules) -> None:
    # a window of claims settled by the model leaves the table and the scores that the rules'
    # resolution leaves when each claimant picks the option the model picks
    model = ApacheModel(rules, patience=5, reaction_ms=500, spread=0)
    rng = random.Random(3)
    n = len(rules.colours)
    for table, piles in _tables(11, 300):
        piles = piles[:n]
        counts = table_counts(table)
        seats = [s for s in range(n) if rng.random() < 0.8]
        claims = []
        for order, seat in enumerate(seats):
            t = rng.randrange(NUM_TYPES)
            if claim_is_legal(table, seat, t, rules, counts):
                claims.append((order, 0.0, seat, t))
        if not claims:
            continue
        buffalo = [p.count(BUFFALO) for p in piles]
        scores = [len(p) for p in piles]
        mc, ms, mb = counts[:], scores[:], buffalo[:]

        def chooser(claim: Claim, choices: Any, tbl: Any, pls: Any) -> Any:
            cnt = table_counts(tbl)
            bf = [p.count(BUFFALO) for p in pls]
            _, kind, extra = model.best_option(cnt, claim.seat, claim.type, bf)
            return max(
                choices,
                key=lambda c: (
                    choice_size(c, claim, tbl, pls, rules),
                    (c.card == extra) + (c.option == 0) * (kind != 24),
                ),
            )

        queue = [Claim(s, t, True) for _, _, s, t in claims]
        result = resolve_window(table, piles, queue, rules, chooser)
        model.settle(mc, ms, mb, list(claims))
        assert [len(p) for p in result.piles] == ms
        assert table_counts(result.table) == mc
        assert [p.count(BUFFALO) for p in result.piles] == mb


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, None), (3, VARIANTS), (4, {"claim_order": "arrival"})],
)
def test_plays_legal_deterministic_games_without_penalties(
    players: int, options: dict[str, Any] | None
) -> None:
    specs = ["search:iterations=8", "heuristic", "search:iterations=4,horizon=10", "medium"]
    first = play_bots(specs[:players], seed=40 + players, options=options)
    assert first == play_bots(specs[:players], seed=40 + players, options=options)
    results = first[2]
    assert any(r["result"] == "won" and r["seat"] == 0 for r in results)
    assert all(r["result"] != "penalty" for r in results)


def test_claims_what_it_would_otherwise_lose() -> None:
    # yellow (seat 1) has its hunter up as well: the buffalo go to whoever claims first, and
    # these are the last buffalo (the other 30 are won), so red's hunter has no later use:
    # claiming is worth more than passing, and the claim carries the level's reaction time
    # (with buffalo still to come, passing and keeping the hunter for them is about as good)
    won = [["buffalo"] * 15] * 2
    table = ["red-hunter", "yellow-hunter", "buffalo", "buffalo"]
    state = position(2, table, piles=won, reveal=["buffalo"])
    play(state, (0, "reveal"))
    bot = make_agent("search:iterations=40,reaction_ms=650,spread=0", GAME, 0, 2, seed=3)
    assert isinstance(bot, ApacheSearch)
    assert _act(state, bot) == "claim hunter 650"
    assert bot.last_iterations == 40
    assert bot.last_values[3] > bot.last_values[-1]  # hunter (type 3) over pass


def test_waits_when_nobody_can_take_the_booty() -> None:
    # red's hunter and one buffalo; yellow's hunters are all in its pile already, so nobody
    # else can ever take buffalo: claiming now wins 2 cards, waiting wins all later buffalo too
    yellow_hunters = ["yellow-hunter"] * 3
    state = position(2, ["red-hunter", "buffalo"], piles=[[], yellow_hunters], reveal=["buffalo"])
    play(state, (0, "reveal"))
    bot = make_agent("search:iterations=40", GAME, 0, 2, seed=3)
    assert isinstance(bot, ApacheSearch)
    assert _act(state, bot) == "pass"
    assert bot.last_values[-1] > bot.last_values[3]


def test_picks_the_claim_worth_more() -> None:
    # three cards are left: a hunter claim wins 2 cards, a maiden claim 5 that yellow's maiden
    # threatens (earlier in the game an Indian left on the table is worth several cards to
    # come, and the search weighs that too: see test_waits_when_nobody_can_take_the_booty)
    table = ["red-hunter", "buffalo", "red-maiden", "yellow-maiden", "necklace", "necklace"]
    state = position(2, table, reveal=["necklace", "necklace"], deck_left=3)
    play(state, (0, "reveal"))
    bot = make_agent("search:iterations=30,spread=0,reaction_ms=300", GAME, 0, 2, seed=3)
    assert _act(state, bot) == "claim maiden 300"


def test_no_legal_claim_and_the_last_card_need_no_search() -> None:
    state = position(2, ["yellow-hunter"], reveal=["buffalo"])
    play(state, (0, "reveal"))
    bot = make_agent("search", GAME, 0, 2, seed=1)
    assert isinstance(bot, ApacheSearch)
    assert _act(state, bot) == "pass" and bot.last_iterations == 0
    state = position(2, ["red-hunter"], reveal=["buffalo"], deck_left=1)
    play(state, (0, "reveal"))
    assert _act(state, bot).startswith("claim hunter ") and bot.last_iterations == 0


def test_bad_config_is_a_clear_error() -> None:
    with pytest.raises(OptionError, match="iterations"):
        make_agent("search:iterations=0", GAME, 0, 2)
    with pytest.raises(OptionError, match="reward"):
        make_agent("search:reward=luck", GAME, 0, 2)


def test_the_hard_level_is_the_search_bot_at_the_heuristics_hard_speed() -> None:
    bot = make_agent("hard", GAME, 0, 2, seed=1)
    assert isinstance(bot, ApacheSearch)
    assert (bot.config.reaction_ms, bot.config.spread) == (500, 100)
    assert bot.search_config.iterations == 700 and bot.search_config is bot.config


# ----- the model on the rules' worked examples (apache §12 of the original rules, EX-A*) -------


def _settle(
    rules: Rules,
    table: list[str],
    claims: list[tuple[int, int]],
    piles: list[list[str]] | None = None,
) -> tuple[list[str], list[int], list[int]]:
    """Settle ``claims`` (seat, type; fastest first) with the model: (table, scores, buffalo)."""
    model = ApacheModel(rules, patience=5, reaction_ms=500, spread=0)
    counts = table_counts([parse_card(c) for c in table])
    cards = [[parse_card(c) for c in p] for p in piles or [[] for _ in rules.colours]]
    scores = [len(p) for p in cards]
    buffalo = [p.count(BUFFALO) for p in cards]
    model.settle(counts, scores, buffalo, [(i, 0.0, s, t) for i, (s, t) in enumerate(claims)])
    left = sorted(card_name(k) for k in range(NUM_KINDS) for _ in range(counts[k]))
    return left, scores, buffalo


def test_ex_a1_one_option_per_claim() -> None:
    # red's hunter with a teepee and a buffalo takes two cards, one of the two booties stays
    left, scores, _ = _settle(
        Rules((RED, YELLOW)), ["red-hunter", "teepee", "buffalo"], [(0, HUNTER)]
    )
    assert scores == [2, 0] and len(left) == 1 and left[0] in ("teepee", "buffalo")


def test_ex_a2_the_red_chief_is_starved_without_a_prisoner() -> None:
    table = ["yellow-hunter", "purple-hunter", "green-maiden", *["totem"] * 3, "buffalo", "teepee"]
    table.append("red-chief")
    claims = [(0, HUNTER), (1, HUNTER), (2, CHIEF)]
    left, scores, buffalo = _settle(Rules((YELLOW, PURPLE, RED)), table, claims)
    assert scores == [2, 2, 0] and buffalo == [1, 0, 0]
    assert left == sorted(["red-chief", "green-maiden", "totem", "totem", "totem"])


def test_ex_a4_one_of_two_identical_own_indians() -> None:
    table = ["red-hunter", "red-hunter", "buffalo", "buffalo"]
    left, scores, buffalo = _settle(Rules((RED, YELLOW)), table, [(0, HUNTER)])
    assert scores == [3, 0] and buffalo == [2, 0] and left == ["red-hunter"]


def test_ex_a6_the_slower_claim_is_starved() -> None:
    table = ["red-hunter", "yellow-hunter", "buffalo", "buffalo"]
    left, scores, _ = _settle(Rules((RED, YELLOW)), table, [(1, HUNTER), (0, HUNTER)])
    assert scores == [0, 3] and left == ["red-hunter"]


def test_ex_a7_neutral_chiefs_join_the_red_chief() -> None:
    table = ["blue-chief", "yellow-chief", "yellow-chief", "green-warrior", "blue-warrior"]
    table += ["totem", "totem", "red-chief"]
    rules = Rules((RED, GREEN, PURPLE), sharing=True)
    left, scores, _ = _settle(rules, table, [(0, CHIEF)])
    # the model takes an opponent's own male Indian (green's) as prisoner, as red does
    assert scores == [7, 0, 0] and left == ["blue-warrior"]


def test_ex_a8a_war_tribute_three_players() -> None:
    piles = [["necklace"], ["buffalo"] * 3 + ["yellow-hunter"], []]
    rules = Rules((RED, YELLOW, PURPLE), war_tribute=True)
    left, scores, buffalo = _settle(
        rules, ["red-warrior", "tomahawk", "tomahawk"], [(0, WARRIOR)], piles
    )
    assert left == [] and scores == [1 + 3 + 1, 3, 0] and buffalo == [1, 2, 0]


@pytest.mark.parametrize(("held", "given"), [(5, 2), (1, 1), (0, 0)])
def test_ex_a8b_war_tribute_two_players(held: int, given: int) -> None:
    piles = [[], ["buffalo"] * held + ["yellow-chief"]]
    rules = Rules((RED, YELLOW), war_tribute=True)
    _, scores, buffalo = _settle(rules, ["red-warrior", "tomahawk"], [(0, WARRIOR)], piles)
    assert scores == [2 + given, held + 1 - given] and buffalo == [given, held - given]


def test_ex_a8c_no_tribute_for_the_teepee_option() -> None:
    # with no tomahawk up, the warrior can only take the teepee: no tribute is paid
    piles = [[], ["buffalo", "buffalo"], ["buffalo"]]
    rules = Rules((RED, YELLOW, PURPLE), war_tribute=True)
    _, scores, buffalo = _settle(rules, ["red-warrior", "teepee"], [(0, WARRIOR)], piles)
    assert scores == [2, 2, 1] and buffalo == [0, 2, 1]


def test_ex_a9_marriage_starves_the_bride_s_own_claim() -> None:
    table = ["teepee", "teepee", "red-maiden", "green-hunter"]
    rules = Rules((RED, YELLOW, PURPLE, GREEN), marriage=True)
    left, scores, _ = _settle(rules, table, [(3, HUNTER), (0, MAIDEN)])
    assert scores == [0, 0, 0, 4] and left == []
