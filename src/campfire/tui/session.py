"""A game being played in the terminal: the match, the seats (humans and bots), the logs.

:class:`PlaySession` holds everything the screens need and nothing they must not show: a human
seat's screen reads only :meth:`PlaySession.display` and :meth:`PlaySession.log` of that seat
(made by the game's presenter from that seat's view and events), and bots decide through
:class:`campfire.core.Observation` and the events their seat may see; a
:class:`campfire.core.table.Table` drives the match and routes each seat's events.

>>> from campfire import all_games
>>> session = PlaySession(all_games()[0], [SeatSpec("You"), SeatSpec("Bot", "random")], seed=5)
>>> session.humans
(0,)
>>> while session.human_to_act() is None and not session.is_over():
...     _ = session.bot_step()
>>> session.human_to_act()
0
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from campfire.agents import make_agent
from campfire.core import (
    Action,
    Agent,
    CampfireError,
    Event,
    Game,
    IllegalActionError,
    Match,
    OptionError,
    Outcome,
    Record,
    RecordError,
    State,
    get,
)
from campfire.core.present import Display, Presenter
from campfire.core.records import Player
from campfire.core.table import Step, Table
from campfire.i18n import _, current, translate
from campfire.i18n import names as seat_names

__all__ = [
    "PlaySession",
    "SeatSpec",
    "data_dir",
    "default_record_path",
    "is_default_name",
    "level_name",
    "newest_unfinished",
    "parse_opponents",
    "player_name",
]

#: The most log lines kept per seat.
LOG_LIMIT = 500


@dataclass(frozen=True)
class SeatSpec:
    """One seat: a display name and, for a computer player, its agent spec or level.

    ``agent`` is ``None`` for a human, or a level (``easy``, ``medium``, ``hard``) or any agent
    spec ``make_agent`` accepts (``random``, ``heuristic``, ``ismcts:iterations=50``).
    """

    name: str
    agent: str | None = None

    @property
    def human(self) -> bool:
        """Whether a person plays this seat."""
        return self.agent is None


def parse_opponents(levels: Sequence[str], players: int) -> list[SeatSpec]:
    """Seats for one human (seat 0) against ``levels``; ``human`` makes another human seat.

    With fewer levels than opponents the last level repeats; with none, ``easy`` is used.

    >>> [s.agent for s in parse_opponents(["hard", "human"], 4)]
    [None, 'hard', None, None]
    >>> parse_opponents(["easy"] * 3, 2)
    Traceback (most recent call last):
    ...
    campfire.core.errors.OptionError: 3 opponents given for 2 players (at most 1)
    """
    if len(levels) > players - 1:
        raise OptionError(
            _("{count} opponents given for {players} players (at most {most})").format(
                count=len(levels), players=players, most=players - 1
            )
        )
    specs = [SeatSpec(_(seat_names.YOU))]
    wanted = list(levels) or ["easy"]
    for i in range(1, players):
        level = wanted[min(i - 1, len(wanted) - 1)].strip().lower()
        if level == "human":
            specs.append(SeatSpec(player_name(i + 1)))
        else:
            specs.append(SeatSpec(seat_names.bot_name(i + 1, level), level))
    if sum(s.human for s in specs) > 1:
        specs[0] = SeatSpec(player_name(1))
    return specs


def player_name(number: int) -> str:
    """The name of a person who gave none: ``Player 2`` (in the current language)."""
    return _(seat_names.PLAYER).format(number=number)


def is_default_name(name: str) -> bool:
    """Whether ``name`` is a :func:`player_name` (the person may still type theirs)."""
    return any(name == player_name(n) for n in range(1, 10))


def level_name(level: str) -> str:
    """A difficulty level as shown: ``easy``, ``medium``, ``hard``, ``human`` translated."""
    return _("human") if level == "human" else seat_names.level_name(level)


def data_dir() -> Path:
    """Campfire's user data directory (``platformdirs.user_data_dir("campfire")``).

    The environment variable ``CAMPFIRE_DATA_DIR`` overrides it (tests, portable setups).
    """
    import os

    import platformdirs

    override = os.environ.get("CAMPFIRE_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("campfire"))


def default_record_path(game: str, seed: int | None, directory: Path | None = None) -> Path:
    """Where a finished game is saved by default: the user data directory of Campfire.

    ``directory`` overrides the folder (``<data>/records``).
    """
    if directory is None:
        directory = data_dir() / "records"
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    return directory / f"{game}-{stamp}-{seed if seed is not None else 'setup'}.json"


def newest_unfinished(directory: Path | None = None) -> Path:
    """The newest unfinished game saved in ``directory`` (default ``<data>/unfinished``).

    Raises :class:`CampfireError` when there is none.
    """
    folder = directory if directory is not None else data_dir() / "unfinished"
    found = sorted(folder.glob("*.json"), key=lambda p: (p.stat().st_mtime, p.name))
    if not found:
        raise CampfireError(_("no unfinished game to resume in {folder}").format(folder=folder))
    return found[-1]


class PlaySession:
    """A match with its seats: humans act through :meth:`play`, bots through :meth:`bot_step`.

    ``bot_seed`` seeds the bots (default: the game's seed), so a session is reproducible.
    ``setup`` starts from an explicit setup instead of a seed (a resumed game's).
    """

    def __init__(
        self,
        game: Game[Any],
        seats: Sequence[SeatSpec],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
        bot_seed: int | None = None,
    ) -> None:
        self.game = game
        game.check_players(len(seats))
        self.seats = list(seats)
        match = Match(
            game,
            len(seats),
            options,
            seed=seed,
            setup=setup,
            names=[s.name for s in seats],
            agents=[s.agent for s in seats],
        )
        self.bot_seed = bot_seed if bot_seed is not None else (match.seed or 0)
        self._options = match.options
        self.agents: dict[int, Agent] = {
            i: self._make_agent(i) for i, spec in enumerate(self.seats) if spec.agent is not None
        }
        #: the table that drives the match: it routes each seat's events and asks the bots
        self.table = Table(
            game,
            match=match,
            agents=[self.agents.get(i) for i in range(len(seats))],
            agent_factory=self._make_agent,
        )
        self.table.listeners.append(self)
        self.presenter: Presenter = game.presenter()
        self.names = [s.name for s in self.seats]
        self.humans = tuple(i for i, s in enumerate(self.seats) if s.human)
        self._logs: dict[int | None, list[str]] = {seat: [] for seat in self.humans}
        self._logs[None] = []
        self._totals: dict[int | None, int] = {seat: 0 for seat in self._logs}
        for log_seat in self._logs:
            self.table.subscribe(log_seat, self._logger(log_seat))
        self.saved_to: Path | None = None
        #: Called with the seat and the events of every action applied (all events: each
        #: listener filters what its seat may see with ``visible_events``).
        self.listeners: list[Callable[[int, list[Event]], None]] = []

    def _make_agent(self, seat: int) -> Agent:
        spec = self.seats[seat].agent
        assert spec is not None
        n = len(self.seats)
        options = self.table.match.options if hasattr(self, "table") else self._options
        return make_agent(spec, self.game, seat, n, options, seed=self.bot_seed * 31 + seat)

    def options_dict(self) -> dict[str, Any]:
        """The options of the match (non-default values)."""
        return self.table.match.options.non_default()

    def _logger(self, seat: int | None) -> Callable[[list[Event]], None]:
        lines = self._logs[seat]

        def log(events: list[Event]) -> None:
            for message in self.presenter.messages(events, self.names, seat):
                lines.append(translate(message))
                self._totals[seat] += 1
            del lines[:-LOG_LIMIT]

        return log

    def note(self, seat: int | None, text: str) -> None:
        """Add a line of the app's own to the log of ``seat`` (an undo, a refusal)."""
        lines = self._logs.setdefault(seat, [])
        lines.append(text)
        del lines[:-LOG_LIMIT]
        self._totals[seat] = self._totals.get(seat, 0) + 1

    def log_total(self, seat: int | None) -> int:
        """How many lines the log of ``seat`` has had in all (the log keeps the newest)."""
        return self._totals.get(seat, 0)

    def on_step(self, table: Table, step: Step) -> None:
        """Table listener: pass every step on to this session's listeners."""
        for listener in self.listeners:
            listener(step.seat, list(step.events))

    @property
    def match(self) -> Match:
        """The match being played (with its history)."""
        return self.table.match

    def rename(self, seat: int, name: str) -> None:
        """Call the player of ``seat`` ``name`` (on screen, in the log and in the record)."""
        name = " ".join(name.split())[:24]
        if not name:
            return
        self.names[seat] = name
        self.seats[seat] = SeatSpec(name, self.seats[seat].agent)
        self.match.players[seat] = Player(name, self.seats[seat].agent)

    # ----- what a seat may see ---------------------------------------------------------------

    @property
    def state(self) -> State:
        """The true state (for the session's own bookkeeping; screens use :meth:`display`)."""
        return self.match.state

    @property
    def seed(self) -> int | None:
        """The game's seed."""
        return self.match.seed

    def view(self, seat: int | None) -> Mapping[str, Any]:
        """The view of ``seat`` (``None``: a spectator)."""
        return self.state.view(seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` now (``[]`` if it may not act)."""
        if seat not in self.state.seats_to_act():
            return []
        return self.state.legal_actions(seat)

    def display(self, seat: int | None, *, actions: bool = True) -> Display:
        """The presenter's display of ``seat`` (with its legal actions unless ``actions``)."""
        legal = self.legal_actions(seat) if seat is not None and actions else []
        return self.presenter.display(self.view(seat), legal, self.names)

    def log(self, seat: int | None) -> list[str]:
        """The log lines of a human ``seat`` (``None``: a spectator)."""
        return self._logs.get(seat, [])

    def is_over(self) -> bool:
        """Whether the game is finished."""
        return self.state.is_terminal()

    def outcome(self) -> Outcome:
        """The outcome of the finished game."""
        return self.state.outcome()

    # ----- who acts ----------------------------------------------------------------------------

    def human_to_act(self) -> int | None:
        """The first human seat that may act now (``None`` if none)."""
        for seat in self.state.seats_to_act():
            if seat not in self.agents:
                return seat
        return None

    def bot_to_act(self) -> int | None:
        """The first bot seat that may act now (``None`` if none)."""
        for seat in self.state.seats_to_act():
            if seat in self.agents:
                return seat
        return None

    # ----- acting ------------------------------------------------------------------------------

    def play(self, seat: int, action: Action | str) -> list[Event]:
        """Apply ``action`` for ``seat``, tell every bot and log what each seat may see.

        Raises :class:`IllegalActionError` (the state unchanged) if the action is not legal.
        """
        parsed = self.game.parse_action(action) if isinstance(action, str) else action
        if seat not in self.state.seats_to_act():
            raise IllegalActionError(
                _("turn order"), _("{name} may not act now").format(name=self.names[seat])
            )
        return self.table.play(seat, parsed)

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its last action (``Table.can_undo``)."""
        return self.table.can_undo(seat)

    def undo(self, seat: int) -> Action:
        """Take back the last action of ``seat`` (``Table.undo``); the bots are rebuilt."""
        action = self.table.undo(seat)
        self.agents = dict(self.table.agents)
        return action

    def decide(self, seat: int) -> Action:
        """What the bot of ``seat`` would play now (nothing is applied)."""
        return self.table.agents[seat].act(self.table.observation(seat))

    def bot_step(self) -> tuple[int, Action] | None:
        """Let one bot that may act play; return its seat and action (``None``: no bot to act)."""
        seat = self.bot_to_act()
        if seat is None:
            return None
        action = self.decide(seat)
        self.play(seat, action)
        return seat, action

    # ----- records -----------------------------------------------------------------------------

    def record(self) -> Record:
        """The record of the game so far (its meta holds what :meth:`resume` needs)."""
        return self.match.record({"client": "campfire play", "bot_seed": self.bot_seed})

    def save(self, path: str | Path | None = None, directory: Path | None = None) -> Path:
        """Save the record to ``path`` (default: :func:`default_record_path`); return the path."""
        target = (
            Path(path)
            if path is not None
            else default_record_path(self.game.name, self.seed, directory)
        )
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.record().save(target)
        except OSError as exc:
            raise CampfireError(
                _("cannot save the record to {path}: {reason}").format(
                    path=target, reason=exc.strerror or exc
                )
            ) from None
        self.saved_to = target
        return target

    @classmethod
    def resume(cls, record: Record) -> PlaySession:
        """Continue the unfinished game of ``record``: seats, bots and logs as they were.

        Every recorded action is played again through the table, so bots remember what they
        saw and every seat's log is complete. Raises :class:`RecordError` for a record that
        does not replay, or one of a finished game.
        """
        game = get(record.game)
        seats = [SeatSpec(p.name, p.agent) for p in record.players]
        bot_seed = record.meta.get("bot_seed")
        session = cls(
            game,
            seats,
            record.options,
            seed=record.seed,
            setup=record.setup,
            bot_seed=bot_seed if isinstance(bot_seed, int) else None,
        )
        # the names Campfire gave (bots, "Player 2") in today's language; the record keeps its own
        session.names = seat_names.shown_names(session.names, [s.agent for s in seats])
        for index, (seat, text) in enumerate(record.actions):
            try:
                session.table.play(seat, text)
            except CampfireError as exc:
                raise RecordError(
                    _("cannot resume: {reason}").format(reason=current().error(exc)), index
                ) from None
        if session.is_over():
            raise RecordError(_("this game is finished: replay it with 'campfire replay --watch'"))
        return session
