"""The post-game review and the hint: a search's assessment of each decision of a game.

:func:`review` replays a game record and, at every decision of a seat that had more than one
legal action, searches from **that seat's observation only** (its view and the memory fed with
the events that seat saw, exactly as a live bot gets them) and compares the move played with
the move the search prefers. :func:`hint` does the same for the decision a seat faces now.

The search is the game's ``hard`` level (:meth:`Game.difficulty_levels`) at the review's
iterations: an agent that can assess a decision (it has an ``assess`` method like
:meth:`.ISMCTSAgent.assess`); a hard level that cannot is replaced by the generic ISMCTS. A
decision the agent does not search (its assessment has 0 iterations: a game's search may weigh
only some kinds of decision) is left out of the review.

The search's estimate of a move it tried rarely is unreliable, and the move played is often one
the search does not like: when the played move got fewer than :data:`MIN_PLAYED_VISITS`
iterations (or a tenth of the search's, if more), it is searched on its own for that many
iterations more, and that estimate is the one compared.

Marks compare the search's estimates (its mean reward for the deciding seat, in [0, 1]) of the
best move and of the move played; the *loss* is their difference (never below 0):

* **inaccuracy**: a loss of at least :data:`INACCURACY` (0.10);
* **blunder**: a loss of at least :data:`BLUNDER` (0.25).

The review is deterministic given the record, the iterations, the seats and the seed. Its JSON
(:meth:`Review.to_json`) is described in ``docs/learn.md``.

>>> from campfire import all_games
>>> from campfire.agents import make_agent
>>> from campfire.core.table import Table
>>> game = all_games()[1]
>>> table = Table(game, 2, seed=3, agents=[make_agent("easy", game, s, 2, seed=s) for s in (0, 1)])
>>> _ = table.run()
>>> result = review(table.match.record(), iterations=10, seats=[0])
>>> {d.seat for d in result.decisions}
{0}
>>> result.decisions[0].mark in ("", "inaccuracy", "blunder")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from campfire.core import (
    Action,
    ActionValue,
    Agent,
    Assessment,
    ErrorText,
    Game,
    Observation,
    OptionError,
    visible_events,
)
from campfire.core.records import Match, Record, replay

from .registry import make_agent, parse_agent_spec

__all__ = [
    "BLUNDER",
    "FORMAT",
    "INACCURACY",
    "MAX_REVIEW_ITERATIONS",
    "MIN_PLAYED_VISITS",
    "Assessor",
    "Decision",
    "Hint",
    "Review",
    "Reviewer",
    "SeatSummary",
    "action_words",
    "assessor",
    "hint",
    "mark_of",
    "review",
    "review_iterations",
]

#: a loss (best estimate minus the played move's) from which a move is an inaccuracy
INACCURACY = 0.10
#: a loss from which a move is a blunder
BLUNDER = 0.25
#: the fewest iterations behind the played move's estimate (or a tenth of the search's, if more):
#: a move the search tried less often is searched on its own that many times more
MIN_PLAYED_VISITS = 10
#: the most iterations per decision a review may be asked for
MAX_REVIEW_ITERATIONS = 100_000
#: the JSON format name of a review
FORMAT = "campfire-review"
FORMAT_VERSION = 1


@runtime_checkable
class Assessor(Protocol):
    """An agent that can tell what it thinks of each move of a decision."""

    def assess(
        self,
        obs: Observation,
        *,
        include: Sequence[Action] = (),
        only: Sequence[Action] | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> Assessment:
        """The search's assessment of the decision (see :meth:`.ISMCTSAgent.assess`)."""
        ...


def mark_of(loss: float) -> str:
    """The mark of a move that lost ``loss`` against the best: ``""``, inaccuracy or blunder.

    >>> mark_of(0.05), mark_of(0.1), mark_of(0.3)
    ('', 'inaccuracy', 'blunder')
    """
    if loss >= BLUNDER - 1e-9:
        return "blunder"
    if loss >= INACCURACY - 1e-9:
        return "inaccuracy"
    return ""


def review_iterations(game: Game[Any], players: int) -> int:
    """The iterations per decision of a review by default: those of the ``hard`` level.

    A hard level without an ``iterations`` parameter gives the generic search's default.
    """
    _, params = parse_agent_spec(game.difficulty_levels(players)["hard"])
    try:
        return max(1, int(params.get("iterations", "200")))
    except ValueError:
        return 200


def assessor(
    game: Game[Any],
    seat: int,
    players: int,
    options: Any = None,
    *,
    iterations: int | None = None,
    seed: int = 0,
) -> Agent:
    """The searching agent that assesses ``seat``'s decisions (the ``hard`` level's search).

    ``iterations`` replaces the level's own; the agent returned has an ``assess`` method.
    """
    if iterations is not None and not 1 <= iterations <= MAX_REVIEW_ITERATIONS:
        raise OptionError(
            ErrorText(
                "iterations per decision are from 1 to {most} (got {got})",
                most=MAX_REVIEW_ITERATIONS,
                got=iterations,
            )
        )
    name, params = parse_agent_spec(game.difficulty_levels(players)["hard"])
    if iterations is not None:
        params["iterations"] = str(iterations)
    spec = name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
    try:
        agent = make_agent(spec, game, seat, players, options, seed=seed)
    except OptionError:
        agent = None
    if agent is None or not isinstance(agent, Assessor):
        fallback = f"ismcts:iterations={iterations or 200}"
        agent = make_agent(fallback, game, seat, players, options, seed=seed)
    return agent


@dataclass(frozen=True)
class Decision:
    """The assessment of one decision of a reviewed game."""

    #: the index of the action in the record
    index: int
    seat: int
    #: the move played and the search's preferred move (their notation)
    played: str
    best: str
    #: the search's estimates (mean reward of the deciding seat, 0–1) of both moves
    played_value: float
    best_value: float
    #: the estimated chance to win after each move
    played_win: float
    best_win: float
    #: how many legal actions the seat had
    choices: int
    #: how many iterations the search ran
    iterations: int

    @property
    def loss(self) -> float:
        """How much the played move is worth less than the best (0 when it is the best)."""
        if self.played == self.best:
            return 0.0
        return round(max(0.0, self.best_value - self.played_value), 4)

    @property
    def mark(self) -> str:
        """``""``, ``inaccuracy`` or ``blunder`` (:func:`mark_of` of the loss)."""
        return mark_of(self.loss)

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON (estimates rounded to 4 places)."""
        return {
            "index": self.index,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "played_value": round(self.played_value, 4),
            "best_value": round(self.best_value, 4),
            "played_win": round(self.played_win, 4),
            "best_win": round(self.best_win, 4),
            "loss": round(self.loss, 4),
            "mark": self.mark,
            "choices": self.choices,
            "iterations": self.iterations,
        }

    @classmethod
    def from_json(cls, data: Any) -> Decision:
        """A decision read back from :meth:`to_json` (raise :class:`ValueError` if malformed)."""
        if not isinstance(data, dict):
            raise ValueError("a decision is an object")
        try:
            return cls(
                index=int(data["index"]),
                seat=int(data["seat"]),
                played=str(data["played"]),
                best=str(data["best"]),
                played_value=float(data["played_value"]),
                best_value=float(data["best_value"]),
                played_win=float(data["played_win"]),
                best_win=float(data["best_win"]),
                choices=int(data["choices"]),
                iterations=int(data["iterations"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad decision: {exc}") from None


@dataclass(frozen=True)
class SeatSummary:
    """A seat's decisions in a review, counted."""

    seat: int
    name: str
    decisions: int
    inaccuracies: int
    blunders: int
    #: the mean loss per decision
    mean_loss: float

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON."""
        return {
            "seat": self.seat,
            "name": self.name,
            "decisions": self.decisions,
            "inaccuracies": self.inaccuracies,
            "blunders": self.blunders,
            "mean_loss": round(self.mean_loss, 4),
        }


@dataclass
class Review:
    """The review of one game: every assessed decision, in the order played."""

    game: str
    players: list[str]
    iterations: int
    seed: int
    decisions: list[Decision] = field(default_factory=list)
    #: the seats reviewed
    seats: list[int] = field(default_factory=list)

    def summary(self) -> list[SeatSummary]:
        """Per reviewed seat: its decisions, inaccuracies, blunders and mean loss."""
        out = []
        for seat in self.seats:
            mine = [d for d in self.decisions if d.seat == seat]
            out.append(
                SeatSummary(
                    seat,
                    self.players[seat],
                    len(mine),
                    sum(1 for d in mine if d.mark == "inaccuracy"),
                    sum(1 for d in mine if d.mark == "blunder"),
                    sum(d.loss for d in mine) / len(mine) if mine else 0.0,
                )
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The review as a JSON-ready dict (``docs/learn.md``, "Post-game review")."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": self.game,
            "players": list(self.players),
            "iterations": self.iterations,
            "seed": self.seed,
            "seats": list(self.seats),
            "thresholds": {"inaccuracy": INACCURACY, "blunder": BLUNDER},
            "decisions": [d.to_json() for d in self.decisions],
            "summary": [s.to_json() for s in self.summary()],
        }

    @classmethod
    def from_json(cls, data: Any) -> Review:
        """A review read back from :meth:`to_json` (raise :class:`ValueError` if malformed)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document")
        try:
            return cls(
                game=str(data["game"]),
                players=[str(p) for p in data["players"]],
                iterations=int(data["iterations"]),
                seed=int(data["seed"]),
                decisions=[Decision.from_json(d) for d in data["decisions"]],
                seats=[int(s) for s in data["seats"]],
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"bad review: {exc}") from None


def _decision(index: int, seat: int, played: Action, found: Assessment, choices: int) -> Decision:
    best = found.best
    mine: ActionValue | None = found.get(played)
    if mine is None:  # never tried: count it as the worst the search saw
        worst = min(found.entries, key=lambda e: e.value)
        mine = ActionValue(played, 0, worst.value, worst.win)
    return Decision(
        index,
        seat,
        str(played),
        str(best.action),
        round(mine.value, 4),
        round(best.value, 4),
        round(mine.win, 4),
        round(best.win, 4),
        choices,
        found.iterations,
    )


class Reviewer:
    """A review done one action of the record at a time (what :func:`review` runs).

    A server runs :meth:`step` in its worker pool between live bots' decisions; ``done`` and
    ``total`` tell the progress, and :attr:`result` holds the decisions assessed so far.
    Arguments and errors are :func:`review`'s.
    """

    def __init__(
        self,
        record: Record,
        *,
        iterations: int | None = None,
        seats: Iterable[int] | None = None,
        seed: int = 0,
        game: Game[Any] | None = None,
    ) -> None:
        match = replay(record, game=game)  # checks the whole record first
        self.game = game = match.game
        n = match.state.num_players
        chosen = sorted(set(seats)) if seats is not None else list(range(n))
        for s in chosen:
            if not 0 <= s < n:
                raise OptionError(
                    ErrorText("seat {seat} does not exist (seats are 0–{last})", seat=s, last=n - 1)
                )
        its = iterations if iterations is not None else review_iterations(game, n)
        self.record = record
        self.result = Review(record.game, [p.name for p in record.players], its, seed, seats=chosen)
        self._match = Match(game, n, record.options, seed=record.seed, setup=record.setup)
        options = self._match.options
        self._agents = {
            s: assessor(game, s, n, options, iterations=its, seed=seed * 1009 + s) for s in chosen
        }
        self._beliefs = {s: game.new_belief(s, n, options, "perfect", seed) for s in chosen}
        self._worlds = random.Random(f"review/{seed}")
        #: the actions of the record replayed so far, and in all
        self.done = 0
        self.total = len(record.actions)

    def step(self) -> bool:
        """Assess the next action of the record if it was a decision; ``False`` when all done."""
        if self.done >= self.total:
            return False
        index = self.done
        seat, text = self.record.actions[index]
        state = self._match.state
        agent = self._agents.get(seat)
        if agent is not None:
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                played = self.game.canonical_action(text)
                obs = Observation.of(state, seat, self._beliefs[seat].clone(), self._worlds)
                found = _assess(agent, obs, played)
                if found.iterations > 0:  # (0: the search has nothing to weigh there)
                    self.result.decisions.append(_decision(index, seat, played, found, len(legal)))
        events = self._match.play(seat, text)
        for s, belief in self._beliefs.items():
            belief.observe(visible_events(events, s))
        self.done += 1
        return self.done < self.total


def review(
    record: Record,
    *,
    iterations: int | None = None,
    seats: Iterable[int] | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    game: Game[Any] | None = None,
) -> Review:
    """Review a game record: assess every decision of ``seats`` (default: all) with a choice.

    ``iterations`` per decision default to the hard level's (:func:`review_iterations`).
    ``progress(done, total)`` is called after each action of the record. Raises
    :class:`~campfire.core.errors.RecordError` for a record that does not replay and
    :class:`OptionError` for a bad seat or iteration count.
    """
    reviewer = Reviewer(record, iterations=iterations, seats=seats, seed=seed, game=game)
    while reviewer.step():
        if progress is not None:
            progress(reviewer.done, reviewer.total)
    if progress is not None:
        progress(reviewer.done, reviewer.total)
    return reviewer.result


def action_words(
    record: Record, decisions: Sequence[Decision], game: Game[Any] | None = None
) -> list[tuple[str, str]]:
    """The presenter's words for the played and the best move of each decision.

    In the language in force (:func:`campfire.core.present.translation`); a move the
    presenter does not word is given in its notation.
    """
    match = replay(record, game=game)
    game = match.game
    n = len(record.players)
    names = [p.name for p in record.players]
    presenter = game.presenter()
    start = Match(game, n, record.options, seed=record.seed, setup=record.setup)
    wanted = {d.index: d for d in decisions}
    out: dict[int, tuple[str, str]] = {}
    for index, (seat, text) in enumerate(record.actions):
        decision = wanted.get(index)
        if decision is not None:
            state = start.state
            display = presenter.display(state.view(seat), state.legal_actions(seat), names)
            labels = {}
            for choice in display.actions:
                labels[choice.notation] = choice.answer.label if choice.answer else choice.label
            out[index] = (
                labels.get(decision.played, decision.played),
                labels.get(decision.best, decision.best),
            )
        start.play(seat, text)
    return [out[d.index] for d in decisions]


def _assess(
    agent: Agent, obs: Observation, played: Action | None, seconds: float | None = None
) -> Assessment:
    """The agent's assessment; the played move's estimate made sure of (see the module)."""
    if not isinstance(agent, Assessor):  # pragma: no cover - assessor() returns one
        raise TypeError(f"{type(agent).__name__} cannot assess a decision")
    if played is None:
        return agent.assess(obs, seconds=seconds)
    found = agent.assess(obs, include=(played,), seconds=seconds)
    if found.iterations == 0:
        return found
    mine = found.get(played)
    least = max(MIN_PLAYED_VISITS, found.iterations // 10)
    if mine is not None and mine.visits >= least:
        return found
    alone = agent.assess(obs, only=(played,), iterations=least).get(played)
    if alone is None:
        return found
    entries = [e for e in found.entries if e.action != played]
    entries.append(alone)
    return Assessment(entries, found.iterations + alone.visits)


@dataclass(frozen=True)
class Hint:
    """What the hard level would play now, with the search's estimate of it."""

    seat: int
    #: the suggested move (notation) and the game's action itself
    action: Action
    #: the estimated mean reward (0–1) and chance to win after it
    value: float
    win: float
    iterations: int

    def to_json(self) -> dict[str, Any]:
        """The hint as JSON."""
        return {
            "seat": self.seat,
            "action": str(self.action),
            "value": round(self.value, 4),
            "win": round(self.win, 4),
            "iterations": self.iterations,
        }


def hint(
    record: Record,
    seat: int,
    *,
    seconds: float | None = None,
    seed: int = 0,
    game: Game[Any] | None = None,
) -> Hint:
    """What the ``hard`` level would play for ``seat`` at the end of ``record`` (a game on).

    The search sees only what ``seat`` saw: its memory is fed the events of the record's
    actions visible to it, and it decides from the seat's observation. It runs the hard level's
    iterations (deterministic given ``seed``), or stops after ``seconds`` if that comes first
    (a server bounds a hint's answer time so). Raises :class:`OptionError` if ``seat`` is
    not to act or has no legal action.
    """
    if game is None:
        from campfire.core.registry import get

        game = get(record.game)
    n = len(record.players)
    match = Match(game, n, record.options, seed=record.seed, setup=record.setup)
    belief = game.new_belief(seat, n, match.options, "perfect", seed)
    for s, text in record.actions:
        belief.observe(visible_events(match.play(s, text), seat))
    state = match.state
    if state.is_terminal() or seat not in state.seats_to_act():
        raise OptionError(ErrorText("a hint is for a seat that is to act"))
    agent = assessor(game, seat, n, match.options, seed=seed)
    obs = Observation.of(state, seat, belief, random.Random(f"hint/{seed}"))
    found = _assess(agent, obs, None, seconds)
    best = found.best
    legal = obs.legal_actions
    action = legal[legal.index(best.action)] if best.action in legal else best.action
    return Hint(seat, action, best.value, best.win, found.iterations)
