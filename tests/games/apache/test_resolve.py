"""The pure window resolution of apache §7 (resolve.py), shared with a real-time server."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from campfire.games.apache.cards import parse_card
from campfire.games.apache.resolve import (
    MARRIAGE,
    NORMAL,
    PENALTY,
    STARVED,
    TEEPEES,
    WON,
    Choice,
    Claim,
    Rules,
    claim_choices,
    claim_is_legal,
    default_choice,
    resolve_window,
)

from .tables import names

RED, YELLOW, PURPLE = 0, 1, 2
CHIEF, MAIDEN, WARRIOR, HUNTER = range(4)


def cards(*ids: str) -> tuple[int, ...]:
    return tuple(parse_card(i) for i in ids)


def test_resolve_window_is_pure_and_resumes_at_a_pending_choice() -> None:
    rules = Rules(colours=(RED, YELLOW))
    table = cards("red-hunter", "yellow-hunter", "buffalo", "teepee", "buffalo")
    piles = ((), cards("necklace"))
    claims = [
        Claim(RED, HUNTER, claim_is_legal(table, RED, HUNTER, rules)),
        Claim(YELLOW, HUNTER, claim_is_legal(table, YELLOW, HUNTER, rules)),
    ]
    first = resolve_window(table, piles, claims, rules)
    assert table == cards("red-hunter", "yellow-hunter", "buffalo", "teepee", "buffalo")
    assert piles == ((), cards("necklace"))
    assert first.pending is not None and first.pending.index == 0
    assert [str(c) for c in first.pending.choices] == ["booty", "teepees"]
    assert first.results == () and first.next_revealer == -1
    # resume from the pending claim with red's choice; yellow then has one option left
    done = resolve_window(
        first.table,
        first.piles,
        claims[first.pending.index :],
        rules,
        lambda *_: Choice(NORMAL),
    )
    assert done.pending is None
    assert [r.status for r in done.results] == [WON, WON]
    assert names(done.piles[RED]) == ["buffalo", "buffalo", "red-hunter"]
    assert names(done.piles[YELLOW]) == ["necklace", "teepee", "yellow-hunter"]
    assert done.table == [] and done.next_revealer == YELLOW


def test_same_result_with_a_chooser_in_one_call() -> None:
    rules = Rules(colours=(RED, YELLOW))
    table = cards("red-hunter", "yellow-hunter", "buffalo", "teepee")
    claims = [Claim(YELLOW, HUNTER, True), Claim(RED, HUNTER, True)]
    asked = []

    def chooser(claim, choices, tbl, piles):  # type: ignore[no-untyped-def]
        asked.append((claim.seat, [str(c) for c in choices], names(tbl)))
        return choices[-1]

    result = resolve_window(table, ((), ()), claims, rules, chooser)
    assert asked == [
        (YELLOW, ["booty", "teepees"], ["red-hunter", "yellow-hunter", "buffalo", "teepee"])
    ]
    assert [r.status for r in result.results] == [WON, WON]
    assert names(result.piles[RED]) == ["buffalo", "red-hunter"]


def test_penalty_and_starvation() -> None:
    rules = Rules(colours=(RED, YELLOW))
    table = cards("yellow-maiden", "necklace")
    piles = (cards("totem", "teepee", "buffalo"), ())
    claims = [Claim(YELLOW, MAIDEN, True), Claim(YELLOW, MAIDEN, True), Claim(RED, CHIEF, False)]
    result = resolve_window(table, piles, claims, rules)
    assert [r.status for r in result.results] == [WON, STARVED, PENALTY]
    assert names(result.results[2].discarded) == ["buffalo", "teepee"]
    assert names(result.piles[RED]) == ["totem"]
    assert result.next_revealer == RED


def test_choices_order_and_marriage_partners() -> None:
    rules = Rules(colours=(RED, YELLOW, PURPLE), marriage=True)
    table = cards("red-chief", "totem", "teepee", "purple-hunter", "green-warrior", "blue-maiden")
    assert claim_choices(table, RED, CHIEF, rules) == (
        Choice(TEEPEES),
        Choice(NORMAL, parse_card("purple-hunter")),
        Choice(NORMAL, parse_card("green-warrior")),
        Choice(MARRIAGE, parse_card("blue-maiden")),
    )
    neutral_off = Rules(
        colours=(RED, YELLOW, PURPLE), marriage=True, marriage_allow_neutral_spouse=False
    )
    assert Choice(MARRIAGE, parse_card("blue-maiden")) not in claim_choices(
        table, RED, CHIEF, neutral_off
    )


def test_default_choice_most_cards_then_normal_then_leader_prisoner() -> None:
    rules = Rules(colours=(RED, YELLOW, PURPLE))
    table = cards(
        "red-chief", "totem", "teepee", "purple-hunter", "yellow-warrior", "yellow-hunter"
    )
    claim = Claim(RED, CHIEF, True)
    choices = claim_choices(table, RED, CHIEF, rules)
    # NORMAL moves chief + totem + prisoner = 3 cards, TEEPEES 2: NORMAL; purple leads
    piles = ((), cards("buffalo"), cards("buffalo", "buffalo"))
    assert default_choice(claim, choices, table, piles, rules) == Choice(
        NORMAL, parse_card("purple-hunter")
    )
    # yellow leads: his first card in table order
    piles = ((), cards("buffalo", "buffalo", "buffalo"), ())
    assert default_choice(claim, choices, table, piles, rules) == Choice(
        NORMAL, parse_card("yellow-warrior")
    )
    # a tie in size: NORMAL before TEEPEES
    table2 = cards("red-hunter", "buffalo", "teepee")
    ch = claim_choices(table2, RED, HUNTER, rules)
    assert default_choice(Claim(RED, HUNTER, True), ch, table2, piles, rules) == Choice(NORMAL)
    # more teepees than buffalo: TEEPEES
    table3 = cards("red-hunter", "buffalo", "teepee", "teepee")
    ch = claim_choices(table3, RED, HUNTER, rules)
    assert default_choice(Claim(RED, HUNTER, True), ch, table3, piles, rules) == Choice(TEEPEES)


# ----- properties ----------------------------------------------------------------------------

KINDS = st.integers(min_value=0, max_value=24)


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=5),
    table=st.lists(KINDS, max_size=14),
    piles=st.lists(st.lists(KINDS, max_size=6), min_size=5, max_size=5),
    claims=st.lists(
        st.tuples(st.integers(min_value=0, max_value=4), st.integers(min_value=0, max_value=3)),
        max_size=5,
        unique_by=lambda c: c[0],
    ),
    flags=st.lists(st.booleans(), min_size=5, max_size=5),
    pick=st.integers(min_value=0, max_value=30),
)
def test_resolution_conserves_cards_and_follows_the_queue(
    players: int,
    table: list[int],
    piles: list[list[int]],
    claims: list[tuple[int, int]],
    flags: list[bool],
    pick: int,
) -> None:
    rules = Rules(
        colours=tuple(range(players)),
        war_tribute=flags[0],
        marriage=flags[1],
        marriage_chief_is_male=flags[2],
        marriage_allow_neutral_spouse=flags[3],
        sharing=flags[4],
    )
    piles = piles[:players]
    queue = [Claim(s, t, claim_is_legal(table, s, t, rules)) for s, t in claims if s < players]
    result = resolve_window(
        tuple(table),
        tuple(tuple(p) for p in piles),
        queue,
        rules,
        lambda _c, choices, _t, _p: choices[pick % len(choices)],
    )
    assert result.pending is None
    assert len(result.results) == len(queue)
    assert result.next_revealer == (queue[-1].seat if queue else -1)
    discarded = [k for r in result.results for k in r.discarded]
    before = sorted(table + [k for p in piles for k in p])
    after = sorted(result.table + [k for p in result.piles for k in p] + discarded)
    assert before == after  # no card appears or vanishes
    for r in result.results:
        claim = r.claim
        assert (r.status == PENALTY) == (not claim.legal)
        if r.status == WON:
            # §1.4: the claimant's own Indian of the played type ends on top of his pile
            assert r.cards[-1] == 4 * claim.seat + claim.type
    # a window never leaves a pile larger than everything it could have taken
    assert sum(map(len, result.piles)) <= sum(map(len, piles)) + len(table)
