"""An independent reference model of apache §4, §7, §8 and §10, checked against the engine.

The model below is written from the spec's text alone, with cards as readable tuples and no
shared code with ``resolve.py``: hypothesis draws tables, piles, queues and choices, and the
engine's :func:`resolve_window` must agree with it on every claim's status, the options
offered, the cards moved (in push order), the tribute, the penalty and the final table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import event, given, settings
from hypothesis import strategies as st

from campfire.games.apache.cards import KIND_NAMES
from campfire.games.apache.resolve import MARRIAGE, NORMAL, TEEPEES, Claim, Rules, resolve_window
from campfire.games.apache.resolve import claim_choices as engine_choices
from campfire.games.apache.resolve import claim_is_legal as engine_legal

COLOURS = ("red", "yellow", "purple", "green", "blue")
TYPES = ("chief", "maiden", "warrior", "hunter")
BOOTY = {"hunter": "buffalo", "maiden": "necklace", "warrior": "tomahawk", "chief": "totem"}
MALE = ("warrior", "hunter")


@dataclass(frozen=True)
class Variant:
    players: int
    war_tribute: bool
    marriage: bool
    chief_is_male: bool
    neutral_spouse: bool
    sharing: bool

    def neutral(self, colour: str) -> bool:
        return COLOURS.index(colour) >= self.players


def indian(card: str) -> tuple[str, str] | None:
    """``("red", "hunter")`` for an Indian card, ``None`` for booty."""
    if "-" not in card:
        return None
    colour, type_ = card.split("-")
    return colour, type_


def options(table: Sequence[str], seat: int, type_: str, v: Variant) -> set[tuple[str, str]]:
    """§4: the options (name, prisoner or partner or "") of a claim on ``table``."""
    own = f"{COLOURS[seat]}-{type_}"
    if own not in table:
        return set()
    out: set[tuple[str, str]] = set()
    if BOOTY[type_] in table:
        if type_ == "chief":
            out |= {("normal", c) for c in table if (i := indian(c)) and i[1] in MALE}
        else:
            out.add(("normal", ""))
    if "teepee" in table:
        out.add(("teepees", ""))
        if v.marriage:
            males = ("warrior", "hunter", "chief") if v.chief_is_male else MALE
            partners: tuple[str, ...]
            if type_ == "maiden":
                partners = males
            elif type_ in males:
                partners = ("maiden",)
            else:
                partners = ()
            for c in table:
                i = indian(c)
                if i and i[1] in partners and (v.neutral_spouse or not v.neutral(i[0])):
                    out.add(("marriage", c))
    return out


def legal(table: Sequence[str], seat: int, type_: str, v: Variant) -> bool:
    """§4: own Indian face up and at least one option."""
    return bool(options(table, seat, type_, v))


def reference(
    table: list[str],
    piles: list[list[str]],
    queue: Sequence[tuple[int, str, bool]],
    v: Variant,
    pick: int,
) -> list[tuple[str, list[str], list[int], list[str]]]:
    """§7: resolve ``queue`` in order; each entry (status, cards moved, tribute, discarded)."""
    out: list[tuple[str, list[str], list[int], list[str]]] = []
    for seat, type_, placed_legal in queue:
        pile = piles[seat]
        if not placed_legal:
            # §8: the top two cards leave the game
            discarded = list(reversed(pile[-2:]))
            del pile[-2:]
            out.append(("penalty", [], [], discarded))
            continue
        opts = sorted(options(table, seat, type_, v))
        if not opts:
            out.append(("starved", [], [], []))
            continue
        name, extra = opts[pick % len(opts)]
        kind = BOOTY[type_] if name == "normal" else "teepee"
        booty = [c for c in table if c == kind]
        for c in booty:
            table.remove(c)
        extras = [extra] if extra else []
        for c in extras:
            table.remove(c)
        allies: list[str] = []
        if v.sharing and name != "marriage":
            allies = [c for c in table if (i := indian(c)) and i[1] == type_ and v.neutral(i[0])]
            for c in allies:
                table.remove(c)
        own = f"{COLOURS[seat]}-{type_}"
        table.remove(own)
        moved = booty + extras + allies + [own]
        for c in moved:
            if v.war_tribute and c == "buffalo":
                pile.insert(0, c)  # §7.1: buffalo at the bottom under war tribute
            else:
                pile.append(c)
        tribute: list[int] = []
        if v.war_tribute and name == "normal" and type_ == "warrior":
            due = 2 if v.players == 2 else 1
            for step in range(1, v.players):
                payer = (seat + step) % v.players
                paid = 0
                while paid < due and "buffalo" in piles[payer]:
                    piles[payer].remove("buffalo")
                    pile.insert(0, "buffalo")
                    paid += 1
                tribute.append(paid)
        out.append(("won", moved, tribute, []))
    return out


CARDS = st.sampled_from(KIND_NAMES)
# booty drawn more often than Indians, as on a real table (69 of 114 cards)
TABLE_CARDS = st.one_of(
    CARDS,
    st.sampled_from(KIND_NAMES[20:]),
    st.sampled_from(KIND_NAMES[20:]),
    st.sampled_from(TYPES),
)
PILE_CARDS = st.one_of(CARDS, st.just("buffalo"))


@settings(max_examples=500, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=5),
    flags=st.lists(st.booleans(), min_size=5, max_size=5),
    table=st.lists(TABLE_CARDS, min_size=3, max_size=16),
    piles=st.lists(st.lists(PILE_CARDS, max_size=5), min_size=5, max_size=5),
    queue=st.lists(
        # (seat, type, own): own > 0 (three times in four) puts the own Indian on the table
        st.tuples(st.integers(min_value=0, max_value=4), st.sampled_from(TYPES), st.integers(0, 3)),
        max_size=5,
        unique_by=lambda c: c[0],
    ),
    pick=st.integers(min_value=0, max_value=20),
)
def test_engine_agrees_with_the_reference_model(
    players: int,
    flags: list[bool],
    table: list[str],
    piles: list[list[str]],
    queue: list[tuple[int, str, int]],
    pick: int,
) -> None:
    # a bare type stands for an Indian of that type, of a colour chosen by its position
    table = [f"{COLOURS[i % 5]}-{c}" if c in TYPES else c for i, c in enumerate(table)]
    # most claimants get their own Indian on the table (else nearly every claim is a penalty)
    for i, (seat, type_, own) in enumerate(queue):
        if own and seat < players:
            table.insert((i * 7) % (len(table) + 1), f"{COLOURS[seat]}-{type_}")
    v = Variant(players, *flags)
    rules = Rules(
        colours=tuple(range(players)),
        war_tribute=v.war_tribute,
        marriage=v.marriage,
        marriage_chief_is_male=v.chief_is_male,
        marriage_allow_neutral_spouse=v.neutral_spouse,
        sharing=v.sharing,
    )
    kinds = [KIND_NAMES.index(c) for c in table]
    piles = piles[:players]
    seats = [(s, t) for s, t, _ in queue if s < players]
    # legality at placement (§4), and the options offered, per seat and type
    for seat in range(players):
        for t, type_ in enumerate(TYPES):
            assert engine_legal(kinds, seat, t, rules) == legal(table, seat, type_, v)
            offered = {
                (
                    ("normal", "teepees", "marriage")[c.option],
                    KIND_NAMES[c.card] if c.card >= 0 else "",
                )
                for c in engine_choices(kinds, seat, t, rules)
            }
            assert offered == options(table, seat, type_, v)
    claims = [
        Claim(s, TYPES.index(t), legal(table, s, t, v)) for s, t in seats
    ]  # placed against the window's table

    def chooser(claim, choices, tbl, pls):  # type: ignore[no-untyped-def]
        def key(c):  # type: ignore[no-untyped-def]
            name = {NORMAL: "normal", TEEPEES: "teepees", MARRIAGE: "marriage"}[c.option]
            return (name, KIND_NAMES[c.card] if c.card >= 0 else "")

        return sorted(choices, key=key)[pick % len(choices)]

    result = resolve_window(
        tuple(kinds),
        tuple(tuple(KIND_NAMES.index(c) for c in p) for p in piles),
        claims,
        rules,
        chooser,
    )
    ref_table = list(table)
    ref_piles = [list(p) for p in piles]
    expected = reference(
        ref_table, ref_piles, [(c.seat, TYPES[c.type], c.legal) for c in claims], v, pick
    )
    assert result.pending is None
    got = [
        (
            r.status,
            [KIND_NAMES[k] for k in r.cards],
            [paid for _payer, paid in r.tribute],
            [KIND_NAMES[k] for k in r.discarded],
        )
        for r in result.results
    ]
    for r in result.results:
        option = "" if r.choice is None else ("normal", "teepees", "marriage")[r.choice.option]
        event(f"{r.status} {option}{' tribute' if any(p for _, p in r.tribute) else ''}")
    assert got == expected
    assert [KIND_NAMES[k] for k in result.table] == ref_table
    assert [[KIND_NAMES[k] for k in p] for p in result.piles] == ref_piles
    assert result.next_revealer == (claims[-1].seat if claims else -1)
