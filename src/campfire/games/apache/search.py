"""Apache search bot: *what* to claim chosen by simulation, *when* by a reaction-time model.

The generic ISMCTS cannot play Apache: a claim poll offers 165 timed claims, and a search that
spreads its iterations over them never claims well (and would claim at 0 ms, faster than any
person). :class:`ApacheSearch` separates the two questions:

* **when** — the reaction time of a claim comes from the same model as the heuristic bot's
  (:class:`.bots.ApacheHeuristic`: a normal distribution of mean ``reaction_ms`` and deviation
  ``spread`` on the 50 ms grid, from a generator of its own), so a level's speed stays human;
* **what** — at every poll in which it has a legal claim, the bot compares ``pass`` with a claim
  of each type that is legal now by *flat Monte Carlo* with common random numbers: each of
  ``iterations`` samples re-deals the face-down cards (everything else in Apache is public) and
  draws the reaction times, then plays the rest of the game (or ``horizon`` windows) once per
  candidate on that same sample with :class:`ApacheModel`, a fast model of Apache play on card
  counts. The candidate with the best mean result is played. Because every candidate meets the
  same cards, and in the decision's window the same reaction times, the comparison measures the
  decision rather than the luck of the draw. (Later windows draw a time only for the seats that
  claim, so once two candidates' games differ their later times are no longer paired.)

:class:`ApacheModel` plays every seat like the heuristic bot (claim when a claim is worth
``patience`` cards, sooner under threat or near the end; the best option; an opponent's own
male Indian as prisoner first) with reaction times from the searching bot's distribution for
every seat (an opponent's speed is not known: the model assumes it equals its own). Answers
the other seats have already given in the current poll are hidden, so the model's answers
stand in for them. Choices at a ``choose`` step are the heuristic bot's.

The model's poll answer (:meth:`ApacheModel.decide`) is the heuristic's in all but a few
positions (about 1 in 200 random polls, reaction order): on a tie it values a Chief's
prisoner above the teepees (the heuristic the teepees, and so looks at another threat), and
it does not count an opponent that could marry its own Indian as a threat. What a claim takes
(:meth:`ApacheModel.best_option`, :meth:`ApacheModel.settle`) is checked against the rules'
resolution (``tests/games/apache/test_search.py``).

The rules' options are modelled: war tribute (buffalo counts per pile), sharing with neutral
Indians, and marriage (as one more option worth the partner and the teepees).

>>> from campfire import get_game
>>> from campfire.agents import make_agent
>>> bot = make_agent("search:iterations=20", get_game("apache"), seat=0, players=2, seed=1)
>>> bot.spec()
'search:iterations=20'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, cast

from campfire.core import Action, ActionValue, Assessment, Observation
from campfire.core.draws import shuffle

from .actions import (
    CLAIM,
    CLAIM_MS,
    PASS,
    REACTION_MAX_MS,
    REACTION_STEP_MS,
    ApacheAction,
)
from .bots import _ENDGAME, ApacheHeuristic
from .cards import (
    BUFFALO,
    CHIEF,
    DECK_COUNTS,
    HUNTER,
    NUM_COLOURS,
    NUM_KINDS,
    NUM_TYPES,
    TEEPEE,
    TYPES,
    WARRIOR,
    parse_card,
)
from .config import ApacheSearchConfig
from .resolve import Rules, _partner_types, table_counts
from .types import ApacheView

__all__ = ["ApacheModel", "ApacheSearch", "ApacheSearchConfig"]

_STEPS: Final = REACTION_MAX_MS // REACTION_STEP_MS


class ApacheModel:
    """A fast model of Apache play on card counts, for simulations (see the module docstring).

    ``colours`` are the seats' colours, ``rules`` the game's variants, ``patience`` the cards a
    claim must win before a modelled seat claims without a threat, ``reaction_ms`` and
    ``spread`` every modelled seat's reaction-time distribution.
    """

    def __init__(self, rules: Rules, patience: int, reaction_ms: float, spread: float) -> None:
        self.rules = rules
        self.colours = rules.colours
        self.n = len(rules.colours)
        self.patience = patience
        self.reaction_ms = reaction_ms
        self.spread = spread
        #: own Indian kinds of each seat, by type
        self.own = [tuple(4 * c + t for t in range(NUM_TYPES)) for c in self.colours]
        #: the seat that plays a colour, or -1 (neutral)
        self.owner = [-1] * NUM_COLOURS
        for s, c in enumerate(self.colours):
            self.owner[c] = s
        self.males = tuple(4 * c + t for c in range(NUM_COLOURS) for t in (WARRIOR, HUNTER))
        self.neutral_of_type = [
            tuple(4 * c + t for c in range(NUM_COLOURS) if rules.neutral[c])
            for t in range(NUM_TYPES)
        ]
        #: the kinds a claim of each type may marry (apache §8.2, the resolution's own test)
        self.partners = [
            tuple(
                4 * c + t
                for t in _partner_types(type_, rules)
                for c in range(NUM_COLOURS)
                if rules.marriage_allow_neutral_spouse or not rules.neutral[c]
            )
            for type_ in range(NUM_TYPES)
        ]

    # ----- what a claim takes ---------------------------------------------------------------

    def _prisoner(self, counts: list[int], seat: int, buffalo: list[int]) -> int:
        """The male Indian a Chief of ``seat`` takes: an opponent's own first.

        Among the opponents' own, the one of the opponent with the most buffalo (the heuristic
        bot prefers the leader in score; :meth:`best_option` sees the buffalo counts only).
        """
        best, best_key = -1, (-1, -1)
        for k in self.males:
            if not counts[k]:
                continue
            owner = self.owner[k >> 2]
            if owner == seat:
                key = (0, 0)
            elif owner < 0:
                key = (1, 0)
            else:
                key = (2, buffalo[owner])
            if key > best_key:
                best, best_key = k, key
        return best

    def _partner(self, counts: list[int], type_: int) -> int:
        """A marriage partner for a claim of ``type_`` (marriage rules), or -1."""
        for k in self.partners[type_]:
            if counts[k]:
                return k
        return -1

    def best_option(
        self, counts: list[int], seat: int, type_: int, buffalo: list[int]
    ) -> tuple[int, int, int]:
        """The best option of a claim now: (cards it wins, taken kind, extra card), or size 0.

        The taken kind is the booty kind (or TEEPEE); the extra card is the prisoner or the
        partner (-1 if none).
        """
        if not counts[self.own[seat][type_]]:
            return 0, -1, -1
        rules = self.rules
        allies = 0
        if rules.sharing:
            allies = sum(counts[k] for k in self.neutral_of_type[type_])
        best = (0, -1, -1)
        booty = 20 + type_
        if counts[booty]:
            if type_ == CHIEF:
                prisoner = self._prisoner(counts, seat, buffalo)
                if prisoner >= 0:
                    best = (2 + counts[booty] + allies, booty, prisoner)
            else:
                size = 1 + counts[booty] + allies
                if rules.war_tribute and type_ == WARRIOR:
                    size += sum(min(rules.tribute, b) for s, b in enumerate(buffalo) if s != seat)
                best = (size, booty, -1)
        teepees = counts[TEEPEE]
        if teepees:
            if 1 + teepees + allies > best[0]:
                best = (1 + teepees + allies, TEEPEE, -1)
            if rules.marriage:
                partner = self._partner(counts, type_)
                if partner >= 0 and 2 + teepees > best[0]:
                    best = (2 + teepees, TEEPEE, partner)
        return best

    def best_claim(self, counts: list[int], seat: int, buffalo: list[int]) -> tuple[int, int, int]:
        """The most valuable legal claim of ``seat``: (cards, type, taken kind), or size 0."""
        best = (0, -1, -1)
        own = self.own[seat]
        for t in range(NUM_TYPES):
            if counts[own[t]]:
                size, kind, _ = self.best_option(counts, seat, t, buffalo)
                if size > best[0]:
                    best = (size, t, kind)
        return best

    def threatened(self, counts: list[int], seat: int, type_: int, kind: int) -> bool:
        """Whether another seat could take ``kind`` or the seat's own Indian of ``type_`` now."""
        own_male = type_ in (WARRIOR, HUNTER)
        for other in range(self.n):
            if other == seat:
                continue
            for t, k in enumerate(self.own[other]):
                if not counts[k]:
                    continue
                if kind == TEEPEE:
                    return True  # any own Indian on the table claims the teepees
                if kind == 20 + t:
                    return True
                if t == CHIEF and own_male and counts[20 + CHIEF]:
                    return True  # a Chief could take the seat's Indian prisoner
        return False

    def decide(self, counts: list[int], seat: int, buffalo: list[int], deck_left: int) -> int:
        """The modelled answer of ``seat`` to a poll: a type to claim with, or -1 (pass)."""
        size, type_, kind = self.best_claim(counts, seat, buffalo)
        if size == 0:
            return -1
        if size >= self.patience or deck_left <= _ENDGAME:
            return type_
        return type_ if self.threatened(counts, seat, type_, kind) else -1

    def reaction(self, rng: random.Random) -> int:
        """A reaction time on the 50 ms grid, in steps (0–40)."""
        ms = rng.gauss(self.reaction_ms, self.spread) if self.spread > 0 else self.reaction_ms
        step = round(ms / REACTION_STEP_MS)
        return 0 if step < 0 else _STEPS if step > _STEPS else step

    # ----- one window, one game ----------------------------------------------------------------

    def settle(
        self,
        counts: list[int],
        scores: list[int],
        buffalo: list[int],
        claims: list[tuple[int, float, int, int]],
    ) -> None:
        """Resolve ``claims`` (reaction step, tie-break, seat, type) in order, in place."""
        claims.sort()
        rules = self.rules
        for _, _, seat, type_ in claims:
            size, kind, extra = self.best_option(counts, seat, type_, buffalo)
            if size == 0:
                continue  # starved: a faster claim took everything
            own = self.own[seat][type_]
            counts[own] -= 1
            won = 1
            if extra >= 0:
                counts[extra] -= 1
                won += 1
            taken = counts[kind]
            counts[kind] = 0
            won += taken
            if kind == BUFFALO:
                buffalo[seat] += taken
            if rules.sharing and not (rules.marriage and extra >= 0 and kind == TEEPEE):
                for k in self.neutral_of_type[type_]:
                    won += counts[k]
                    counts[k] = 0
            if rules.war_tribute and type_ == WARRIOR and kind == 20 + WARRIOR:
                for other in range(self.n):
                    if other != seat:
                        paid = min(rules.tribute, buffalo[other])
                        buffalo[other] -= paid
                        scores[other] -= paid
                        buffalo[seat] += paid
                        won += paid
            scores[seat] += won

    def play(
        self,
        counts: list[int],
        scores: list[int],
        buffalo: list[int],
        deck: list[int],
        start: int,
        windows: int,
        rng: random.Random,
    ) -> None:
        """Reveal ``deck[start:]`` (at most ``windows`` cards) with every seat modelled."""
        n = self.n
        own = self.own
        end = len(deck) if windows <= 0 else min(len(deck), start + windows)
        for pos in range(start, end):
            card = deck[pos]
            counts[card] += 1
            left = len(deck) - pos - 1
            claims: list[tuple[int, float, int, int]] = []
            for s in range(n):
                o = own[s]
                if not (counts[o[0]] or counts[o[1]] or counts[o[2]] or counts[o[3]]):
                    continue
                t = self.decide(counts, s, buffalo, left)
                if t >= 0:
                    claims.append((self.reaction(rng), rng.random(), s, t))
            if claims:
                self.settle(counts, scores, buffalo, claims)


class ApacheSearch(ApacheHeuristic):
    """Chooses among pass and the legal claim types by simulation; times claims like a person."""

    name = "search"
    description = "chooses what to claim by simulating the rest of the game; human-like speed"
    config_type = ApacheSearchConfig
    # no ``config: ApacheSearchConfig`` narrowing the heuristic's attribute: mypyc refuses a
    # subclass's narrower type of an attribute (docs/compiled.md); ``search_config`` instead

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._model: ApacheModel | None = None
        #: the samples the last searched decision used (0 when it did not search)
        self.last_iterations = 0
        #: the mean simulated result of each candidate (-1: pass) at the last searched decision
        self.last_values: dict[int, float] = {}

    @property
    def search_config(self) -> ApacheSearchConfig:
        """The options, ``config``, typed as the search's (``config_type`` made them so)."""
        return cast(ApacheSearchConfig, self.config)

    def _model_of(self, view: ApacheView) -> ApacheModel:
        rules = self._rules_of(view)
        if self._model is None or self._model.rules is not rules:
            cfg = self.search_config
            self._model = ApacheModel(rules, cfg.patience, cfg.reaction_ms, cfg.spread)
        return self._model

    def _poll(self, view: ApacheView, obs: Observation) -> Action:
        self.last_iterations = 0
        weighed = self._weigh(view, self.search_config.iterations)
        if weighed is None:
            return super()._poll(view, obs)  # nothing to weigh: no claim, or no future
        self.last_reaction_ms = None
        candidates, totals, _ = weighed
        choice = max(candidates, key=lambda c: (totals[c], c == -1))
        if choice < 0:
            return PASS
        ms = self.reaction_time()
        self.last_reaction_ms = ms
        if view["claim_order"] == "arrival":
            return CLAIM[choice]
        return CLAIM_MS[choice][ms // REACTION_STEP_MS]

    def _weigh(
        self, view: ApacheView, iterations: int
    ) -> tuple[list[int], dict[int, float], dict[int, float]] | None:
        """Simulate pass and each legal claim type: candidates, summed results and wins.

        ``None`` when there is nothing to weigh (no legal claim, or the last card).
        """
        protect = view.get("protect_me")
        if view["last_card"] or protect is None or not any(protect.values()):
            return None
        model = self._model_of(view)
        counts = table_counts([parse_card(name) for name in view["table"]])
        unseen = list(DECK_COUNTS)
        for k, on_table in enumerate(counts):
            unseen[k] -= on_table
        buffalo = []
        for pile in view["piles"]:
            cards = [parse_card(name) for name in pile]
            for k in cards:
                unseen[k] -= 1
            buffalo.append(cards.count(BUFFALO))
        for name in view["discarded"]:
            unseen[parse_card(name)] -= 1
        pool = [k for k in range(NUM_KINDS) for _ in range(unseen[k])]
        scores = [len(p) for p in view["piles"]]
        seat = self.seat
        # pass, and every legal type (a legal claim always wins cards: the model agrees)
        candidates = [-1] + [t for t in range(NUM_TYPES) if protect.get(TYPES[t])]
        cfg = self.search_config
        totals = dict.fromkeys(candidates, 0.0)
        wins = dict.fromkeys(candidates, 0.0)
        rng = self.rng
        left = view["deck_left"]
        for _ in range(iterations):
            deck = pool[:]
            shuffle(rng, deck)
            sample_seed = rng.getrandbits(64)
            for cand in candidates:
                sim = random.Random(sample_seed)
                c = counts[:]
                sc = scores[:]
                bf = buffalo[:]
                claims: list[tuple[int, float, int, int]] = []
                for s in range(model.n):
                    # the other seats' answers are hidden: the model's stand in for them
                    t = cand if s == seat else model.decide(c, s, bf, left)
                    # a time is drawn for every seat, claim or not: the same draws per candidate
                    step = model.reaction(sim)
                    tie = sim.random()
                    if t >= 0:
                        claims.append((step, tie, s, t))
                if claims:
                    model.settle(c, sc, bf, claims)
                model.play(c, sc, bf, deck, 0, cfg.horizon, sim)
                lead = sc[seat] - max(v for s, v in enumerate(sc) if s != seat)
                win = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
                wins[cand] += win
                totals[cand] += win if cfg.reward == "win" else lead
        self.last_iterations = iterations
        self.last_values = {c: v / iterations for c, v in totals.items()}
        return candidates, totals, wins

    def assess(
        self,
        obs: Observation,
        *,
        include: Sequence[Action] = (),
        only: Sequence[Action] | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> Assessment:
        """The search's view of a claim poll: each answer's simulated chance to win.

        Every legal action of a candidate (pass, or a claim of one type at any reaction time)
        gets that candidate's mean win share over the samples, as both its value and its win;
        the action the bot plays comes first. Only claim polls with a legal claim are searched:
        elsewhere (a choice of booty, a poll with no legal claim) the assessment is the bot's
        action with ``iterations`` 0, which a review leaves unassessed. ``include`` and
        ``only`` change nothing (every answer is weighed on the same samples) and
        ``seconds`` is not used: the samples are few and fast.
        """
        n = iterations if iterations is not None else self.search_config.iterations
        legal = [a for a in obs.legal_actions if isinstance(a, ApacheAction)]
        view = cast(ApacheView, obs.view)
        weighed = self._weigh(view, n) if view["phase"] == "claim" else None
        if weighed is None:
            return Assessment([ActionValue(self.act(obs), 0, 0.5, 0.5)], 0)
        candidates, totals, wins = weighed
        choice = max(candidates, key=lambda c: (totals[c], c == -1))
        ms = self.reaction_time()
        if choice < 0:
            best: Action = PASS
        elif view["claim_order"] == "arrival":
            best = CLAIM[choice]
        else:
            best = CLAIM_MS[choice][ms // REACTION_STEP_MS]
        entries = [ActionValue(best, n, wins[choice] / n, wins[choice] / n)]
        for action in legal:
            cand = -1 if action.kind == "pass" else action.type if action.kind == "claim" else None
            if action == best or cand not in wins:
                continue
            entries.append(ActionValue(action, n, wins[cand] / n, wins[cand] / n))
        return Assessment(entries, n)
