"""Apache heuristic bot: a patient grabber with a human-like reaction time.

:class:`ApacheHeuristic` reads only its seat's view (apache §11.5: everything is public but the
order of the face-down cards and, during a reaction poll, the other seats' answers).

**When to claim.** It claims only when the claim is legal (the view's ``protect_me``, the same
test as ``ApacheState.claim_is_legal`` and :func:`.resolve.claim_is_legal`), so it is never
penalised. Among its legal claims it values each by the cards the best option would move to its
pile (:func:`.resolve.choice_size`: own Indian, booty, prisoner, neutral allies, war tribute).
It waits until a claim is worth ``patience`` cards (several booty cards of its kind, the
rulebook's advice), and claims sooner — as soon as it wins two cards — when:

* another seat could take the same booty now (its own Indian of a type that claims this
  booty, or any type for teepees), or could take the bot's own Indian as a Chief's prisoner;
* in ``claim_order=arrival`` games, another seat has already claimed in this window;
* the window is the last one (the last card is up) or few cards are left.

**Choices** (booty or teepees, prisoner, partner): the option that moves most cards; on a tie
the one that hurts the others most (booty they could claim next, a prisoner that is an
opponent's own Indian, the leader's first).

**Reaction times.** Every claim carries a reaction time drawn from a normal distribution with
mean ``reaction_ms`` and standard deviation ``spread`` (config), cut to 0–2000 ms and rounded
to the engine's 50 ms grid (apache §11.3). The draw uses a generator of its own, so the speed
of a bot never changes its decisions. In ``claim_order=reaction`` games the time is part of
the claim (``claim hunter 650``). In ``claim_order=arrival`` games (a real-time server, §11.1)
claims carry no time: a scheduler asks :meth:`ApacheHeuristic.act` at the reveal and, for a
claim, sends it :attr:`ApacheHeuristic.last_reaction_ms` after the card is shown;
:meth:`ApacheHeuristic.reaction_time` draws a fresh time from the same distribution. The
difficulty levels (:data:`LEVEL_SPECS`) differ mainly in speed: an easy bot takes about 1.4 s,
slow enough for a human to beat it to a claim.

>>> from campfire import get_game
>>> game = get_game("apache")
>>> bot = ApacheHeuristic(game, 0, 3, game.options(), ApacheHeuristicConfig(reaction_ms=600,
...                       spread=0), seed=1)
>>> bot.reaction_time()
600
"""

from __future__ import annotations

import random
from typing import Any, Final, cast

from campfire.core import Action, Agent, Observation

# from its own module, not the package: mypyc's non-native subclass needs it imported
from .actions import (
    CLAIM,
    CLAIM_MS,
    PASS,
    REACTION_MAX_MS,
    REACTION_STEP_MS,
    ApacheAction,
    ApacheKind,
)
from .cards import (
    CHIEF,
    NUM_TYPES,
    TEEPEE,
    TYPES,
    booty_of,
    colour_of,
    indian,
    parse_card,
    parse_colour,
    type_of,
)
from .config import ApacheHeuristicConfig
from .resolve import (
    MARRIAGE,
    NORMAL,
    TEEPEES,
    Choice,
    Claim,
    Rules,
    choice_size,
    claim_choices,
    claim_is_legal,
    table_counts,
)
from .types import ApacheView

__all__ = ["LEVEL_SPECS", "ApacheHeuristic", "ApacheHeuristicConfig", "round_reaction"]

#: The difficulty levels: heuristic bots that differ in speed (and the easy one in patience),
#: and at ``hard`` the search bot (:mod:`.search`), which decides what to claim by simulation:
#: 700 samples per decision, what the compiled build runs in the time pure Python ran 200
#: (they won 0.572 of 200 games against 200, docs/strength.md)
LEVEL_SPECS: Final[dict[str, str]] = {
    "easy": "heuristic:reaction_ms=1400,spread=300,patience=2",
    "medium": "heuristic:reaction_ms=900,spread=200,patience=4",
    "hard": "search:reaction_ms=500,spread=100,iterations=700",
}

#: cards left in the face-down pool below which the bot (and the search's model) takes any
#: worthwhile claim
_ENDGAME: Final = 6


def round_reaction(ms: float) -> int:
    """Round a reaction time to the engine's grid: a multiple of 50 ms from 0 to 2000 ms.

    >>> round_reaction(612.4), round_reaction(-30), round_reaction(5000)
    (600, 0, 2000)
    """
    step = REACTION_STEP_MS
    value = round(ms / step) * step
    return max(0, min(REACTION_MAX_MS, value))


class ApacheHeuristic(Agent):
    """A rule-based Apache player with a configurable reaction-time distribution."""

    name = "heuristic"
    description = "waits for several booty cards, claims only when legal; human-like speed"
    config_type = ApacheHeuristicConfig
    config: ApacheHeuristicConfig

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: the reaction times come from their own generator: speed never changes decisions
        self.timing_rng = random.Random(f"apache-reaction/{self.seed}")
        #: the reaction time (ms) of the last claim :meth:`act` returned, ``None`` after a pass
        self.last_reaction_ms: int | None = None
        self._rules: Rules | None = None

    # ----- reaction times ----------------------------------------------------------------------

    def reaction_time(self) -> int:
        """Draw a reaction time (ms, on the 50 ms grid, 0–2000) from the bot's distribution.

        A normal distribution with mean ``reaction_ms`` and standard deviation ``spread``,
        rounded and cut by :func:`round_reaction`.
        """
        cfg = self.config
        ms = cfg.reaction_ms
        if cfg.spread > 0:
            ms = self.timing_rng.gauss(cfg.reaction_ms, cfg.spread)
        return round_reaction(ms)

    # ----- decisions ---------------------------------------------------------------------------

    def act(self, obs: Observation) -> Action:
        """Choose one of the legal actions (a claim only when it is legal)."""
        legal = [a for a in obs.legal_actions if isinstance(a, ApacheAction)]
        if len(legal) == 1:
            return legal[0]
        view = cast(ApacheView, obs.view)
        if view["phase"] == "claim":
            return self._poll(view, obs)
        return self._choose(view, legal)

    def _rules_of(self, view: ApacheView) -> Rules:
        colours = tuple(parse_colour(c) for c in view["colours"])
        if self._rules is None or self._rules.colours != colours:
            opts = self.options
            self._rules = Rules(
                colours,
                war_tribute=bool(getattr(opts, "war_tribute", False)),
                marriage=bool(getattr(opts, "marriage", False)),
                marriage_chief_is_male=bool(getattr(opts, "marriage_chief_is_male", True)),
                marriage_allow_neutral_spouse=bool(
                    getattr(opts, "marriage_allow_neutral_spouse", True)
                ),
                sharing=bool(getattr(opts, "sharing", False)),
            )
        return self._rules

    def _poll(self, view: ApacheView, obs: Observation) -> Action:
        self.last_reaction_ms = None
        protect = view.get("protect_me")
        rules = self._rules_of(view)
        table = [parse_card(k) for k in view["table"]]
        piles = [[parse_card(k) for k in p] for p in view["piles"]]
        best_type, best_value, best_kinds = -1, 0, frozenset[int]()
        for t in range(NUM_TYPES):
            if protect is None or not protect[TYPES[t]]:
                continue  # apache §8: never place an illegal claim
            claim = Claim(self.seat, t, True)
            for choice in claim_choices(table, self.seat, t, rules):
                value = choice_size(choice, claim, table, piles, rules)
                if value > best_value:
                    kinds = {booty_of(t) if choice.option == NORMAL else TEEPEE}
                    best_type, best_value, best_kinds = t, value, frozenset(kinds)
        if best_type < 0:
            return PASS
        if not self._should_claim(view, table, rules, best_type, best_value, best_kinds):
            return PASS
        ms = self.reaction_time()
        self.last_reaction_ms = ms
        if view["claim_order"] == "arrival":
            return CLAIM[best_type]
        return CLAIM_MS[best_type][ms // REACTION_STEP_MS]

    def _should_claim(
        self,
        view: ApacheView,
        table: list[int],
        rules: Rules,
        type_: int,
        value: int,
        kinds: frozenset[int],
    ) -> bool:
        if value >= self.config.patience:
            return True
        if view["last_card"] or view["deck_left"] <= _ENDGAME:
            return True
        if view["claim_order"] == "arrival" and any(
            a not in (None, "pass") for s, a in enumerate(view["answers"]) if s != self.seat
        ):
            return True  # someone is on the Pow-Wow board already
        return self._threatened(table, rules, type_, kinds)

    def _threatened(
        self, table: list[int], rules: Rules, type_: int, kinds: frozenset[int]
    ) -> bool:
        """Whether another seat could take this booty, or the bot's own Indian, right now."""
        counts = table_counts(table)
        own = indian(rules.colours[self.seat], type_)
        for seat in range(len(rules.colours)):
            if seat == self.seat:
                continue
            for t in range(NUM_TYPES):
                if not claim_is_legal(table, seat, t, rules, counts):
                    continue
                for choice in claim_choices(table, seat, t, rules):
                    taken = booty_of(t) if choice.option == NORMAL else TEEPEE
                    if taken in kinds or choice.card == own:
                        return True
        return False

    def _choose(self, view: ApacheView, legal: list[ApacheAction]) -> Action:
        rules = self._rules_of(view)
        table = [parse_card(k) for k in view["table"]]
        piles = [[parse_card(k) for k in p] for p in view["piles"]]
        queue = view["queue"]
        resolved = view["resolved"]
        type_ = TYPES.index(queue[resolved]["type"]) if resolved < len(queue) else CHIEF
        claim = Claim(self.seat, type_, True)
        scores = [len(p) for p in piles]

        def value(a: ApacheAction) -> tuple[int, float, int]:
            choice = _choice_of(a)
            size = choice_size(choice, claim, table, piles, rules)
            return size, self._denial(choice, type_, table, rules, scores), -a.index

        return max(legal, key=value)

    def _denial(
        self, choice: Choice, type_: int, table: list[int], rules: Rules, scores: list[int]
    ) -> float:
        """How much a choice hurts the other seats (a tie-break between equal sizes)."""
        counts = table_counts(table)
        taken = booty_of(type_) if choice.option == NORMAL else TEEPEE
        others = [s for s in range(len(rules.colours)) if s != self.seat]
        lead = max((scores[s] for s in others), default=0)
        hurt = 0.0
        for s in others:
            colour = rules.colours[s]
            for t in range(NUM_TYPES):
                if not counts[indian(colour, t)]:
                    continue
                if taken in (TEEPEE, booty_of(t)):
                    hurt += 1.0  # this seat could have claimed the booty taken
        card = choice.card
        if card >= 0:
            owner = next((s for s in others if rules.colours[s] == colour_of(card)), -1)
            if owner >= 0:
                hurt += 1.0 + (0.5 if scores[owner] == lead else 0.0)
                if counts[booty_of(type_of(card))] or counts[TEEPEE]:
                    hurt += 1.0  # its owner could have claimed with it
            if choice.option == MARRIAGE and colour_of(card) == rules.colours[self.seat]:
                hurt -= 0.5
        return hurt


def _choice_of(action: ApacheAction) -> Choice:
    if action.kind == ApacheKind.TEEPEES:
        return Choice(TEEPEES)
    if action.kind == ApacheKind.MARRY:
        return Choice(MARRIAGE, action.card)
    if action.kind == ApacheKind.PRISONER:
        return Choice(NORMAL, action.card)
    return Choice(NORMAL)
