"""The resolution of one claim window (apache §4, §7, §8, §10): one pure function.

:func:`resolve_window` is shared by the deterministic engine and a real-time server (§11.1):
given the table, the victory piles and the window's claims **in queue order**, it resolves them
exactly as the rules say and returns the new table and piles. It never changes its arguments.

Choices (which option, which prisoner or partner) are asked of ``chooser`` when a claim's turn
comes and it has more than one (§4, P13). A chooser may answer ``None`` to stop: the result then
names the pending claim, and the caller resumes later by calling :func:`resolve_window` again
with the result's table and piles and the claims from the pending one on. A real-time server
passes a chooser that waits for the player (with :func:`default_choice` on a timeout, §11.4);
the engine turns the pending choice into a ``CHOOSE`` step.

Cards are the kind numbers of :mod:`.cards`; piles list their cards from bottom to top.

>>> from .cards import RED, HUNTER, BUFFALO, TEEPEE, indian
>>> rules = Rules(colours=(RED, 1))
>>> table = (indian(RED, HUNTER), TEEPEE, BUFFALO)
>>> claim = Claim(0, HUNTER, claim_is_legal(table, 0, HUNTER, rules))
>>> [str(c) for c in claim_choices(table, 0, HUNTER, rules)]
['booty', 'teepees']
>>> result = resolve_window(table, ((), ()), [claim], rules, lambda *_: Choice(TEEPEES))
>>> [card_name(k) for k in result.table], [card_name(k) for k in result.piles[0]]
(['buffalo'], ['teepee', 'red-hunter'])
>>> result.next_revealer
0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from campfire.core import ErrorText, IllegalActionError
from campfire.core.values import Value

from .cards import (
    BUFFALO,
    CHIEF,
    HUNTER,
    MAIDEN,
    NUM_COLOURS,
    NUM_KINDS,
    TEEPEE,
    TYPES,
    WARRIOR,
    card_name,
    colour_of,
    type_of,
)

__all__ = [
    "MARRIAGE",
    "NORMAL",
    "OPTION_NAMES",
    "PENALTY",
    "STARVED",
    "TEEPEES",
    "WON",
    "Choice",
    "Chooser",
    "Claim",
    "ClaimResult",
    "Pending",
    "Rules",
    "WindowResult",
    "choice_size",
    "claim_choices",
    "claim_is_legal",
    "default_choice",
    "resolve_window",
    "table_counts",
]

# the options of a claim (apache §4)
NORMAL: Final = 0
TEEPEES: Final = 1
MARRIAGE: Final = 2
OPTION_NAMES: Final = ("normal", "teepees", "marriage")
# what became of a claim (apache §7)
WON: Final = "won"
STARVED: Final = "starved"
PENALTY: Final = "penalty"

_MALE_TYPES: Final = (WARRIOR, HUNTER)


@dataclass(frozen=True, slots=True)
class Rules:
    """What resolution needs to know of the game: the seats' colours and the variants."""

    colours: tuple[int, ...]
    war_tribute: bool = False
    marriage: bool = False
    marriage_chief_is_male: bool = True
    marriage_allow_neutral_spouse: bool = True
    sharing: bool = False
    #: ``neutral[c]``: colour c is played by nobody (apache §2, §3.5).
    neutral: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    #: buffalo each opponent pays as war tribute (apache §10.1): 2 with two players, else 1.
    tribute: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "neutral", tuple(c not in self.colours for c in range(NUM_COLOURS))
        )
        object.__setattr__(self, "tribute", 2 if len(self.colours) == 2 else 1)


class Claim(Value):
    """A claim on the Pow-Wow board.

    It holds the seat, the hand card's type, whether the claim was legal when placed (§7: that
    decides the penalty), and its reaction time (``-1`` when ordered by arrival).
    """

    __slots__ = ("legal", "ms", "seat", "type")
    _fields = ("seat", "type", "legal", "ms")

    def __init__(self, seat: int, type: int, legal: bool, ms: int = -1) -> None:
        self.seat: Final = seat
        self.type: Final = type
        self.legal: Final = legal
        self.ms: Final = ms


class Choice(Value):
    """The option a claimant realises (§4), with the prisoner or partner card (or ``-1``)."""

    __slots__ = ("card", "option")
    _fields = ("option", "card")

    def __init__(self, option: int, card: int = -1) -> None:
        self.option: Final = option
        self.card: Final = card

    def __str__(self) -> str:
        if self.option == MARRIAGE:
            return f"marry {card_name(self.card)}"
        if self.option == TEEPEES:
            return "teepees"
        return "booty" if self.card < 0 else f"prisoner {card_name(self.card)}"


class ClaimResult(Value):
    """What one claim did: ``status`` is won, starved or penalty.

    ``cards`` lists the table cards it moved to the claimant's pile (push order §7.1),
    ``tribute`` the (payer, buffalo) pairs of a war tribute, ``discarded`` the penalty's cards
    (top first).
    """

    __slots__ = ("cards", "choice", "claim", "discarded", "status", "tribute")
    _fields = ("claim", "status", "choice", "cards", "tribute", "discarded")

    def __init__(
        self,
        claim: Claim,
        status: str,
        choice: Choice | None = None,
        cards: tuple[int, ...] = (),
        tribute: tuple[tuple[int, int], ...] = (),
        discarded: tuple[int, ...] = (),
    ) -> None:
        self.claim: Final = claim
        self.status: Final = status
        self.choice: Final = choice
        self.cards: Final = cards
        self.tribute: Final = tribute
        self.discarded: Final = discarded


class Pending(Value):
    """A claim waiting for its claimant's choice: its index in the claims given, and the choices."""

    __slots__ = ("choices", "claim", "index")
    _fields = ("index", "claim", "choices")

    def __init__(self, index: int, claim: Claim, choices: tuple[Choice, ...]) -> None:
        self.index: Final = index
        self.claim: Final = claim
        self.choices: Final = choices


class WindowResult(Value):
    """The outcome of :func:`resolve_window`.

    ``table`` and ``piles`` are new lists owned by the caller. ``next_revealer`` is the seat of
    the last claim in the queue (§5.4, P5), or ``-1`` when no claim was given or resolution is
    pending.
    """

    __slots__ = ("next_revealer", "pending", "piles", "results", "table")
    _fields = ("table", "piles", "results", "pending", "next_revealer")

    def __init__(
        self,
        table: list[int],
        piles: list[list[int]],
        results: tuple[ClaimResult, ...],
        pending: Pending | None,
        next_revealer: int,
    ) -> None:
        self.table: Final = table
        self.piles: Final = piles
        self.results: Final = results
        self.pending: Final = pending
        self.next_revealer: Final = next_revealer


#: ``chooser(claim, choices, table, piles)`` returns one of ``choices`` or ``None`` (stop).
Chooser = Callable[
    [Claim, tuple[Choice, ...], tuple[int, ...], tuple[tuple[int, ...], ...]], Choice | None
]


def table_counts(table: Sequence[int]) -> list[int]:
    """How many cards of each kind lie on the table."""
    counts = [0] * NUM_KINDS
    for k in table:
        counts[k] += 1
    return counts


def _males_on(counts: Sequence[int]) -> bool:
    return any(counts[4 * c + WARRIOR] or counts[4 * c + HUNTER] for c in range(NUM_COLOURS))


def claim_is_legal(
    table: Sequence[int],
    seat: int,
    type_: int,
    rules: Rules,
    counts: Sequence[int] | None = None,
) -> bool:
    """Whether a claim by ``seat`` with ``type_`` is legal on ``table`` (apache §4).

    Legal means: an own Indian of that type is face up, and at least one option is available
    (normal booty, or a teepee for the teepee and marriage options). Neutral allies never make a
    claim legal (P10). This is the "protect me" test of §11.2; ``counts`` may give
    :func:`table_counts` of the table.
    """
    if counts is None:
        counts = table_counts(table)
    if not counts[4 * rules.colours[seat] + type_]:
        return False
    if counts[TEEPEE]:
        return True
    if not counts[20 + type_]:
        return False
    return type_ != CHIEF or _males_on(counts)  # §4: the Chief also needs a prisoner


def _partner_types(type_: int, rules: Rules) -> tuple[int, ...]:
    # apache §10.2 (P9): a maiden marries a male Indian, a male Indian a maiden
    if type_ == MAIDEN:
        return (CHIEF, WARRIOR, HUNTER) if rules.marriage_chief_is_male else _MALE_TYPES
    if type_ in _MALE_TYPES or rules.marriage_chief_is_male:
        return (MAIDEN,)
    return ()


def _choices(counts: Sequence[int], seat: int, type_: int, rules: Rules) -> tuple[Choice, ...]:
    if not counts[4 * rules.colours[seat] + type_]:
        return ()
    out: list[Choice] = []
    if counts[20 + type_]:  # §4 NORMAL
        if type_ == CHIEF:
            # §4, P3: totems plus exactly one hunter or warrior of any colour as prisoner
            out.extend(
                Choice(NORMAL, 4 * c + t)
                for c in range(NUM_COLOURS)
                for t in _MALE_TYPES
                if counts[4 * c + t]
            )
        else:
            out.append(Choice(NORMAL))
    if counts[TEEPEE]:
        out.append(Choice(TEEPEES))  # §4 TEEPEES
        if rules.marriage:  # §10.2 MARRIAGE
            for t in _partner_types(type_, rules):
                for c in range(NUM_COLOURS):
                    if counts[4 * c + t] and (
                        rules.marriage_allow_neutral_spouse or not rules.neutral[c]
                    ):
                        out.append(Choice(MARRIAGE, 4 * c + t))
    return tuple(sorted(out, key=_choice_order))


def _choice_order(choice: Choice) -> tuple[int, int]:
    # the order of the choice actions' indices: booty, teepees, prisoners, partners
    if choice.option == NORMAL:
        return (0, 0) if choice.card < 0 else (2, choice.card)
    return (1, 0) if choice.option == TEEPEES else (3, choice.card)


def claim_choices(table: Sequence[int], seat: int, type_: int, rules: Rules) -> tuple[Choice, ...]:
    """The options a claim by ``seat`` with ``type_`` has on ``table`` now (§4), or ``()``.

    Ordered as the choice actions: booty, teepees, prisoners, marriage partners.
    """
    return _choices(table_counts(table), seat, type_, rules)


def _take(
    table: list[int],
    counts: list[int],
    piles: list[list[int]],
    claim: Claim,
    choice: Choice,
    rules: Rules,
) -> ClaimResult:
    """Move the cards of a claim's chosen option (§4, §7.1, §10)."""
    seat, type_ = claim.seat, claim.type
    own = 4 * rules.colours[seat] + type_
    option = choice.option
    booty_kind = 20 + type_ if option == NORMAL else TEEPEE
    booty = [booty_kind] * counts[booty_kind]  # §1.4 (P1): all face-up cards of the kind
    counts[booty_kind] = 0
    remove = {booty_kind}
    allies: list[int] = []
    if rules.sharing and option != MARRIAGE:
        # §10.3 (P10): every neutral Indian of the played type joins (not for the prisoner)
        for c in range(NUM_COLOURS):
            kind = 4 * c + type_
            if rules.neutral[c] and counts[kind]:
                remove.add(kind)
                counts[kind] = 0
        allies = [k for k in table if k in remove and k != booty_kind]
    table[:] = [k for k in table if k not in remove]
    extra = choice.card  # the prisoner (§4) or the partner (§10.2)
    if extra >= 0:
        table.remove(extra)
        counts[extra] -= 1
    table.remove(own)  # §1.4: exactly one own Indian, even if several lie face up
    counts[own] -= 1
    pile = piles[seat]
    moved = [*booty, *([extra] if extra >= 0 else ()), *allies, own]
    # §7.1 (P7): booty, prisoner/partner, allies, own Indian on top; with war tribute every
    # buffalo goes to the bottom instead (§10.1)
    if rules.war_tribute and booty_kind == BUFFALO:
        pile[:0] = booty
        pile.extend(moved[len(booty) :])
    else:
        pile.extend(moved)
    tribute: list[tuple[int, int]] = []
    if rules.war_tribute and option == NORMAL and type_ == WARRIOR:
        # §10.1 (P8): each opponent, clockwise, hands over 1 buffalo (2 with two players),
        # or all he has if fewer; at once, before later claims
        n = len(piles)
        for step in range(1, n):
            payer = (seat + step) % n
            source = piles[payer]
            paid = 0
            while paid < rules.tribute and BUFFALO in source:
                source.remove(BUFFALO)  # the lowest buffalo (they lie at the bottom)
                paid += 1
            if paid:
                pile[:0] = [BUFFALO] * paid
            tribute.append((payer, paid))
    return ClaimResult(claim, WON, choice, tuple(moved), tuple(tribute))


def resolve_window(
    table: Sequence[int],
    piles: Sequence[Sequence[int]],
    claims: Sequence[Claim],
    rules: Rules,
    chooser: Chooser | None = None,
) -> WindowResult:
    """Resolve ``claims`` in queue order against ``table`` and ``piles`` (apache §7, §8).

    A claim illegal at placement is penalised (§8: the top two cards of the pile are
    discarded); a legal claim with no option left is starved (no cards, no penalty); otherwise
    the claimant's choice is realised (asked of ``chooser`` only when there are several).
    Without a chooser, or when it answers ``None``, resolution stops at that claim (see
    :class:`Pending`). An answer that is not one of the choices raises
    :class:`IllegalActionError`.
    """
    tbl = list(table)
    pls = [list(p) for p in piles]
    counts = table_counts(tbl)
    results: list[ClaimResult] = []
    for i, claim in enumerate(claims):
        if not claim.legal:
            # §8: discard the top two cards (fewer if the pile is short); the card goes back
            pile = pls[claim.seat]
            cut = max(0, len(pile) - 2)
            discarded = tuple(reversed(pile[cut:]))
            del pile[cut:]
            results.append(ClaimResult(claim, PENALTY, discarded=discarded))
            continue
        choices = _choices(counts, claim.seat, claim.type, rules)  # §7: re-evaluated now
        if not choices:
            results.append(ClaimResult(claim, STARVED))  # §7 (P4): no cards, no penalty
            continue
        choice = choices[0]
        if len(choices) > 1:
            asked = None
            if chooser is not None:
                asked = chooser(claim, choices, tuple(tbl), tuple(tuple(p) for p in pls))
            if asked is None:
                return WindowResult(tbl, pls, tuple(results), Pending(i, claim, choices), -1)
            choice = asked
            if choice not in choices:
                raise IllegalActionError(
                    "apache rules §6.2",
                    ErrorText(
                        "{choice} is not available to the {type} claim of seat {seat}; choose one "
                        "of: {choices}",
                        choice=str(choice),
                        type=TYPES[claim.type],
                        seat=claim.seat,
                        choices=", ".join(str(c) for c in choices),
                    ),
                )
        results.append(_take(tbl, counts, pls, claim, choice, rules))
    # §5.4 (P5): the last placer reveals next, whatever became of his claim
    last = claims[-1].seat if claims else -1
    return WindowResult(tbl, pls, tuple(results), None, last)


def choice_size(
    choice: Choice,
    claim: Claim,
    table: Sequence[int],
    piles: Sequence[Sequence[int]],
    rules: Rules,
) -> int:
    """How many cards a choice would move to the claimant's pile (tribute included)."""
    counts = table_counts(table)
    type_ = claim.type
    size = 1 + counts[20 + type_ if choice.option == NORMAL else TEEPEE]
    if choice.card >= 0:
        size += 1
    if rules.sharing and choice.option != MARRIAGE:
        size += sum(counts[4 * c + type_] for c in range(NUM_COLOURS) if rules.neutral[c])
    if rules.war_tribute and choice.option == NORMAL and type_ == WARRIOR:
        size += sum(
            min(rules.tribute, p.count(BUFFALO)) for s, p in enumerate(piles) if s != claim.seat
        )
    return size


def default_choice(
    claim: Claim,
    choices: Sequence[Choice],
    table: Sequence[int],
    piles: Sequence[Sequence[int]],
    rules: Rules,
) -> Choice:
    """The choice made for a claimant who does not choose in time (apache §11.4).

    The option moving the most cards to the pile; ties: normal before teepees before marriage.
    A Chief's prisoner: the first one on the table (in table order) whose colour belongs to the
    opponent leading in score, else the first one on the table; a partner: the first one on
    the table.
    """
    rank = {NORMAL: 2, TEEPEES: 1, MARRIAGE: 0}
    best = max((choice_size(c, claim, table, piles, rules), rank[c.option]) for c in choices)
    group = [
        c for c in choices if (choice_size(c, claim, table, piles, rules), rank[c.option]) == best
    ]
    if len(group) == 1:
        return group[0]
    first: dict[int, int] = {}
    for pos, kind in enumerate(table):
        first.setdefault(kind, pos)
    group.sort(key=lambda c: first.get(c.card, len(table)))
    if group[0].option == NORMAL and type_of(group[0].card) in _MALE_TYPES:
        scores = [len(p) for p in piles]
        opponents = [s for s in range(len(piles)) if s != claim.seat]
        lead = max(scores[s] for s in opponents)
        leaders = {rules.colours[s] for s in opponents if scores[s] == lead}
        for c in group:
            if colour_of(c.card) in leaders:
                return c
    return group[0]
