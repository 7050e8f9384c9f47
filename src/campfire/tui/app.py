"""The Textual app: start screen, one game screen for every game, privacy and score screens.

``campfire play`` runs :class:`CampfireApp`; ``campfire replay FILE --watch`` runs
:class:`WatchApp`. A game screen shows exactly what one human seat may see, drawn only from the
game's presenter (``Game.presenter()``: display models, log messages) through the play mode the
game declares (:mod:`campfire.tui.modes`); the app never asks which game it plays, so a new game
with a presenter (or none: the generic one) plays here unchanged. The board highlights what
the presenter's step displays say the others changed since the seat's own last step (a replay:
what the action shown changed).

>>> from campfire.core import all_games
>>> from campfire.tui.session import SeatSpec
>>> name = all_games()[0].name
>>> config = PlayConfig(name, [SeatSpec("You"), SeatSpec("Bot", "easy")], seed=1)
>>> app = CampfireApp(config)
>>> app.config.game == name
True
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    Footer,
    Input,
    Label,
    MarkdownViewer,
    OptionList,
    Select,
    Static,
)

from campfire.core import (
    CampfireError,
    Event,
    Game,
    Match,
    Outcome,
    Record,
    all_games,
    get,
    parse_option_assignments,
    visible_events,
)
from campfire.core.present import ActionChoice, Display, and_list
from campfire.i18n import N_, _, current, game_title, ngettext, translate
from campfire.i18n.names import bot_name, shown_names
from campfire.i18n.rules import missing_note, option_help, rules_document

from .clock import Clock, MonotonicClock
from .modes import Mode, ModeSettings, mode_for
from .session import (
    PlaySession,
    SeatSpec,
    data_dir,
    is_default_name,
    level_name,
    player_name,
)
from .terminal import TerminalApp
from .widgets import SPINNER, Board, Choices, GameLog, MoveInput, Players, StatusBar

__all__ = [
    "MIN_SIZE",
    "CampfireApp",
    "ConfirmQuit",
    "GameScreen",
    "PlayConfig",
    "PrivacyScreen",
    "RulesScreen",
    "ScoreScreen",
    "StartScreen",
    "WatchApp",
    "WatchScreen",
    "check_seats",
    "game_options",
    "options_help",
    "outcome_text",
]

LEVEL_CHOICES = ("easy", "medium", "hard", "human")

#: The smallest terminal the game screen is laid out for (columns, rows).
MIN_SIZE = (80, 24)


@dataclass
class PlayConfig:
    """Everything needed to start a game in the terminal.

    ``seats`` lists the players (``SeatSpec(name)`` for a human, ``SeatSpec(name, level)`` for
    a bot). ``save`` is where the record goes (default: the user data directory; ``record_dir``
    overrides that folder, ``unfinished_dir`` the folder of unfinished games). ``bot_delay``
    is the least time a bot move takes on screen (0 in tests), ``peek_seconds`` how long a
    privately shown card stays visible, ``learning`` marks positions the seat has seen,
    ``protect_me`` refuses claims that would be penalised, and ``reveal_delay`` / ``window``
    time real-time play. ``resume`` is a record of an unfinished game to continue.
    """

    game: str
    seats: list[SeatSpec]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    save: Path | None = None
    record_dir: Path | None = None
    unfinished_dir: Path | None = None
    bot_delay: float = 0.6
    peek_seconds: float = 3.0
    learning: bool = False
    protect_me: bool = False
    reveal_delay: float = 1.5
    window: float = 3.0
    resume: Record | None = None
    resumed_from: Path | None = None


def game_options(game: Game[Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The options to play ``game`` with: ``values`` validated (non-default ones kept).

    >>> from campfire.core import all_games
    >>> game, info = next((g, i) for g in all_games() for i in g.options_type.infos() if i.choices)
    >>> game_options(game, {})
    {}
    >>> other = next(c for c in info.choices if c != info.default)
    >>> game_options(game, {info.name: str(other).lower()}) == {info.name: other}
    True
    """
    return game.options(dict(values)).non_default()


def options_help(game: Game[Any]) -> str:
    """The options of ``game``, one a line, for the rules screen.

    >>> from campfire.core import all_games
    >>> game = all_games()[0]
    >>> lines = options_help(game).splitlines()
    >>> [line.split("=")[0].strip() for line in lines[2:]] == [
    ...     i.name for i in game.options_type.infos()
    ... ]
    True
    """
    lines = [
        "\n"
        + _("Options of {game} (type key=value on the start screen):").format(game=game_title(game))
    ]
    for info in game.options_type.infos():

        def fmt(value: Any) -> str:
            return str(value).lower() if isinstance(value, bool) else str(value)

        if info.choices is not None:
            allowed = "/".join(fmt(c) for c in info.choices)
        else:
            allowed = "true/false" if info.type is bool else info.type.__name__
        help_text = option_help(game, info.name, info.help)
        lines.append(f"  {info.name}={fmt(info.default)}  ({allowed})  {help_text}".rstrip())
    if len(lines) == 1:
        lines.append("  " + _("(no options)"))
    return "\n".join(lines)


def check_seats(game: Game[Any], seats: Sequence[SeatSpec], options: Mapping[str, Any]) -> None:
    """Raise :class:`CampfireError` unless the seats can play ``game`` in the terminal."""
    game.check_players(len(seats))
    if not any(s.human for s in seats):
        raise CampfireError(_("at least one seat must be played by a human"))


def unfinished_path(game: str, directory: Path | None = None) -> Path:
    """Where an unfinished game is saved: ``<data>/unfinished/<game>-<date>.json``."""
    folder = directory if directory is not None else data_dir() / "unfinished"
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    return folder / f"{game}-{stamp}.json"


# ----- rules and start screens ---------------------------------------------------------------


if TYPE_CHECKING:
    _ScreenBase = Screen[Any]
else:
    _ScreenBase = object


class Translated(_ScreenBase):
    """A screen whose footer names its keys in the current language.

    Bindings are declared in English with ``N_`` (so that extraction finds them) and translated
    when the footer asks for them.
    """

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The screen's active bindings, with descriptions in the current language."""
        return {
            key: active._replace(
                binding=replace(active.binding, description=_(active.binding.description))
            )
            for key, active in super().active_bindings.items()
        }


class RulesScreen(Translated, ModalScreen[None]):
    """A game's complete rules (``game.rules_text()``, ``docs/rules/<game>.md``), scrollable.

    The document is rendered as Markdown, followed by the options as typed on the start screen;
    ``t`` shows or hides a table of contents.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", N_("Back")),
        Binding("q", "dismiss", N_("Back"), show=False),
        Binding("t", "contents", N_("Contents")),
    ]

    def __init__(self, game: Game[Any]) -> None:
        super().__init__()
        self.game = game

    def markdown(self) -> str:
        """The document shown: the rules, then the options as typed on the start screen.

        The rules are in the current language when they are written in it (else in English,
        after a one-line note).
        """
        wanted = current().language
        text, written_in = rules_document(self.game, wanted)
        note = f"{missing_note(self.game)}\n\n" if written_in != wanted else ""
        return f"{note}{text.rstrip()}\n\n```{options_help(self.game)}\n```\n"

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        yield MarkdownViewer(self.markdown(), id="rules", show_table_of_contents=False)
        yield Footer()

    def action_contents(self) -> None:
        """Show or hide the table of contents."""
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        """Back to the screen before."""
        self.dismiss(None)


class StartScreen(Translated, Screen[None]):
    """Pick the game, the players, the opponents per seat, the names and the options."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "rules", N_("Rules")),
        Binding("ctrl+g", "play", N_("Play")),
        Binding("ctrl+l", "learn", N_("Learn to play")),
        Binding("escape", "app.quit", N_("Quit")),
    ]

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        games = all_games()
        first = games[0]
        yield Static(_("Campfire — pick a game"), id="title")
        with Horizontal(classes="row"):
            yield Label(_("Game") + " ", classes="label")
            yield Select(
                [(f"{game_title(g)} ({g.min_players}–{g.max_players})", g.name) for g in games],
                value=first.name,
                allow_blank=False,
                compact=True,
                id="game",
            )
            yield Label(" " + _("Players") + " ", classes="label")
            yield Select(
                [(str(n), n) for n in range(2, 7)],
                value=2,
                allow_blank=False,
                compact=True,
                id="players",
            )
        yield Label(_("Other seats:"), id="seats-label")
        with Horizontal(classes="row"):
            for i in range(1, 6):
                yield Select(
                    [(level_name(lv), lv) for lv in LEVEL_CHOICES],
                    value="easy",
                    allow_blank=False,
                    compact=True,
                    id=f"seat{i}",
                    classes="seat",
                )
        yield Label(_("Names of the people playing (comma separated, in seat order):"))
        yield Input(placeholder=_("e.g. Ann, Bob"), id="names")
        yield Label(_("Options (key=value, space separated; see Rules):"))
        yield Input(placeholder="", id="options")
        with Horizontal(classes="row"):
            yield Checkbox(_("protect me (refuse claims that would be penalised)"), id="protect")
            yield Checkbox(_("learning mode (mark the cards you have seen)"), id="learning")
        yield Static("", id="error")
        with Horizontal(classes="row"):
            yield Button(_("Play"), id="play", variant="primary")
            yield Button(_("Learn to play"), id="learn")
            yield Button(_("Rules"), id="rules")
            yield Button(_("Quit"), id="quit")
        yield Footer()

    def on_mount(self) -> None:
        """Start when the screen or app is shown."""
        self._sync_seats()

    def _game(self) -> Game[Any]:
        return get(str(self.query_one("#game", Select).value))

    def _sync_seats(self) -> None:
        game = self._game()
        players_sel = self.query_one("#players", Select)
        players = int(str(players_sel.value))
        if not game.min_players <= players <= game.max_players:
            players_sel.value = max(game.min_players, min(players, game.max_players))
            players = int(str(players_sel.value))
        for i in range(1, 6):
            self.query_one(f"#seat{i}", Select).display = i < players
        self.query_one("#protect", Checkbox).display = "protect-me" in game.assists
        self.query_one("#learning", Checkbox).display = "learning" in game.assists
        self.query_one("#seats-label", Label).update(
            _("Other seats (2–{players}): a level, or human for a friend at this keyboard").format(
                players=players
            )
        )
        infos = list(game.options_type.infos())
        example = " ".join(
            f"{i.name}={str(i.default).lower() if isinstance(i.default, bool) else i.default}"
            for i in infos[:2]
        )
        self.query_one("#options", Input).placeholder = (
            _("e.g. {example}").format(example=example)
            if example
            else _("{game} has no options").format(game=game_title(game))
        )

    def on_select_changed(self, event: Select.Changed) -> None:
        """Keep the seat pickers in line with the game and player count."""
        if event.select.id in ("game", "players"):
            self._sync_seats()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Handle the buttons."""
        if event.button.id == "play":
            self.action_play()
        elif event.button.id == "rules":
            self.action_rules()
        elif event.button.id == "learn":
            self.action_learn()
        else:
            self.app.exit()

    def action_rules(self) -> None:
        """Show the rules of the game."""
        self.app.push_screen(RulesScreen(self._game()))

    def action_learn(self) -> None:
        """Learn to play: the tutorials' lessons (``campfire.tui.learn``)."""
        from .learn import LessonsScreen  # learn builds on this module's screens

        self.app.push_screen(LessonsScreen())

    def config(self) -> PlayConfig:
        """The configuration chosen on the screen (raise :class:`CampfireError` if invalid)."""
        game = self._game()
        players = int(str(self.query_one("#players", Select).value))
        levels = [str(self.query_one(f"#seat{i}", Select).value) for i in range(1, players)]
        seats = [SeatSpec(_("You"))]
        for i, level in enumerate(levels, 2):
            seats.append(
                SeatSpec(player_name(i))
                if level == "human"
                else SeatSpec(bot_name(i, level), level)
            )
        if sum(s.human for s in seats) > 1:
            seats[0] = SeatSpec(player_name(1))
        typed = [n.strip() for n in self.query_one("#names", Input).value.split(",")]
        names = iter(n for n in typed if n)
        for i, spec in enumerate(seats):
            if spec.human:
                name = next(names, "")
                if name:
                    seats[i] = SeatSpec(" ".join(name.split())[:24])
        raw = self.query_one("#options", Input).value.split()
        options = game_options(game, parse_option_assignments(raw))
        check_seats(game, seats, options)
        base = self.app.config if isinstance(self.app, CampfireApp) else None
        return PlayConfig(
            game.name,
            seats,
            options,
            seed=base.seed if base else None,
            save=base.save if base else None,
            record_dir=base.record_dir if base else None,
            unfinished_dir=base.unfinished_dir if base else None,
            bot_delay=base.bot_delay if base else 0.6,
            protect_me=self.query_one("#protect", Checkbox).value,
            learning=self.query_one("#learning", Checkbox).value,
        )

    def action_play(self) -> None:
        """Start the game chosen, or show why it cannot start."""
        try:
            config = self.config()
        except CampfireError as exc:
            message = current().error(exc)
            self.query_one("#error", Static).update(
                Content(_("error: {message}").format(message=message))
            )
            return
        assert isinstance(self.app, CampfireApp)
        self.app.start_game(config)


# ----- modal screens --------------------------------------------------------------------------


class PrivacyScreen(Translated, ModalScreen[str]):
    """Covers the table between two human seats of a hot-seat game; asks a name the first time."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", N_("I am ready"))]

    def __init__(self, name: str, ask_name: bool = False) -> None:
        super().__init__()
        self.player = name
        self.ask_name = ask_name

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        with Vertical(id="privacy"):
            yield Static(
                _(
                    "Pass the keyboard to {name}.\n\n"
                    "Everybody else, look away.\n\n"
                    "{name}: press Enter when you are ready."
                ).format(name=self.player),
                id="privacy-text",
                markup=False,
            )
            if self.ask_name:
                yield Input(
                    placeholder=_("your name (Enter keeps '{name}')").format(name=self.player),
                    id="name",
                )
            yield Button(_("I am ready"), id="ready", variant="primary")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Handle the buttons."""
        self.action_ready()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the name field."""
        self.action_ready()

    def action_ready(self) -> None:
        """Done: back to the table (with the name typed, if any)."""
        name = self.query_one("#name", Input).value.strip() if self.ask_name else ""
        self.dismiss(name)


class ConfirmQuit(Translated, ModalScreen[bool]):
    """``Ctrl+Q`` asks first: leave (the unfinished game is saved to resume) or stay."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Leave")),
        Binding("n,escape", "answer(False)", N_("Stay")),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        with Vertical(id="confirm"):
            yield Static(self.text, id="confirm-text", markup=False)
            with Horizontal(classes="row"):
                yield Button(_("Leave (y)"), id="leave", variant="error")
                yield Button(_("Stay (n)"), id="stay", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Handle the buttons."""
        self.dismiss(event.button.id == "leave")

    def action_answer(self, leave: bool) -> None:
        """Leave or stay."""
        self.dismiss(leave)


def outcome_text(title: str, outcome: Outcome, names: Sequence[str]) -> str:
    """The final scores, best first, with the winners marked (for games without a summary).

    >>> print(outcome_text("Pile", Outcome.from_scores([3, 5]), ["Ann", "Bob"]))
    Pile — final scores
    <BLANKLINE>
      1. Bob  5  winner
      2. Ann  3
    """
    lines = [_("{game} — final scores").format(game=title), ""]
    width = max(len(n) for n in names)
    for seat in sorted(range(len(names)), key=lambda s: (outcome.ranks[s], s)):
        mark = "  " + _("winner") if seat in outcome.winners else ""
        score = current().number(outcome.scores[seat])
        lines.append(f"  {outcome.ranks[seat]}. {names[seat]:<{width}}  {score}{mark}")
    return "\n".join(lines)


def score_text(session: PlaySession) -> str:
    """The text of the score screen: the presenter's summary, else :func:`outcome_text`."""
    display = session.display(session.humans[0], actions=False)
    if not display.result:
        return outcome_text(game_title(session.game), session.outcome(), session.names)
    return "\n".join([display.status, "", *display.result])


class ScoreScreen(Translated, Screen[None]):
    """The final scores (the presenter's summary) and where the record was saved."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", N_("New game")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def __init__(self, text: str, note: str) -> None:
        super().__init__()
        self.text = text
        self.note = note

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        with VerticalScroll(id="score"):
            yield Static(self.text, id="score-table", markup=False)
            yield Static(self.note, id="score-note", markup=False)
        yield Footer()

    def action_new(self) -> None:
        """Back to the start screen."""
        assert isinstance(self.app, CampfireApp)
        self.app.new_game()


# ----- the game screen -----------------------------------------------------------------------


class GameScreen(Translated, Screen[None]):
    """One game as seen by one human seat at a time (the seat to act, in hot seat)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "point('up')", N_("Point"), priority=True, show=False),
        Binding("down", "point('down')", N_("Point"), priority=True, show=False),
        Binding("left", "point('left')", N_("Point"), priority=True, show=False),
        Binding("right", "point('right')", N_("Point"), priority=True, show=False),
        Binding("tab", "complete", N_("Complete"), priority=True, show=False),
        Binding("ctrl+z", "undo", N_("Undo")),
        Binding("escape", "cancel", N_("Cancel"), show=False),
        Binding("pageup", "scroll_log(-1)", N_("Log ↑"), show=False),
        Binding("pagedown", "scroll_log(1)", N_("Log ↓"), show=False),
        Binding("f1", "rules", N_("Rules")),
        Binding("ctrl+q", "quit_game", N_("Quit"), priority=True),
    ]

    def __init__(self, session: PlaySession, config: PlayConfig, clock: Clock) -> None:
        super().__init__()
        self.session = session
        self.config = config
        self.clock = clock
        self.hot_seat = len(session.humans) > 1
        #: the human seat whose screen this is (``None``: nobody's yet, in hot seat)
        self.seat: int | None = None if self.hot_seat else session.humans[0]
        settings = ModeSettings(
            peek_seconds=config.peek_seconds,
            learning=config.learning,
            protect_me=config.protect_me,
            reveal_delay=config.reveal_delay,
            window=config.window,
        )
        self.mode: Mode = mode_for(session.game, session.seats)(session, clock, settings)
        session.listeners.append(self._on_events)
        self.message = ""
        self.display_model: Display | None = None
        #: the choices offered now (all of them, or those at the place pointed at)
        self.offered: list[ActionChoice] = []
        self._all: list[ActionChoice] = []
        self.cursor: str | None = None
        self.selected: str | None = None
        self.thinking: int | None = None
        self._spin = 0
        self._waiting_privacy = False
        self._finished = False
        self._named: set[int] = set()
        self._log_seat: int | None = -1
        self._log_count = 0
        #: per person's seat, the ids of the cards and zones the steps since its own last step
        #: changed (the presenter's step displays, as that seat sees the steps): its board
        #: highlights them, so what the others did while it waited stands out
        self.changed: dict[int, set[str]] = {s: set() for s in session.humans}

    # ----- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="board-box"):
                yield Board(id="board")
            with Vertical(id="side"):
                yield Players(id="players")
                yield Choices(id="actions")
        yield GameLog(id="log")
        yield MoveInput(id="move")
        yield Static("", id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        """Start when the screen or app is shown."""
        self.set_interval(0.1, self._tick)
        self.query_one("#move", MoveInput).focus()
        self._check_size()
        if self.mode.drives_bots:
            self.mode.tick()  # start the mode's timers now
        self.pump()

    def on_resize(self) -> None:
        """Check the terminal size."""
        self._check_size()

    def _check_size(self) -> None:
        width, height = self.app.size
        need_w, need_h = MIN_SIZE
        small = width < need_w or height < need_h
        self.set_class(small, "too-small")
        self.query_one("#too-small", Static).update(
            _(
                "Terminal too small: this game needs {need}, and it is {size}.\n"
                "Enlarge the window (the game waits)."
            ).format(need=f"{need_w}×{need_h}", size=f"{width}×{height}")
            if small
            else ""
        )

    # ----- events from the session -------------------------------------------------------

    def _on_events(self, seat: int, events: list[Event]) -> None:
        self.mode.on_events(seat, events)
        presenter = self.session.presenter
        for human, changed in self.changed.items():
            if human == seat:  # its own step: what it did is no news to it
                changed.clear()
            else:
                changed.update(presenter.step_display(visible_events(events, human), human).changed)

    # ----- the loop ----------------------------------------------------------------------

    def _tick(self) -> None:
        if self._finished:
            return
        self._spin = (self._spin + 1) % len(SPINNER)
        if self.mode.drives_bots:
            try:
                self.mode.tick()
            except CampfireError as exc:  # pragma: no cover - engine errors are bugs
                self.message = current().error(exc)
        self.pump()

    def pump(self) -> None:
        """Move the game on: bots play, the screen follows the human to act, the end is shown."""
        session = self.session
        if self._finished or self._waiting_privacy:
            return
        if session.is_over():
            self._finish()
            return
        if not self.mode.drives_bots:
            while self.thinking is None and session.bot_to_act() is not None:
                if self.config.bot_delay > 0:
                    self._start_bot(session.bot_to_act())
                    break
                session.bot_step()
            if session.is_over():
                self._finish()
                return
        human = session.human_to_act()
        if human is not None and human != self.seat:
            if self.hot_seat:
                if self.seat is not None and self.mode.holds(self.seat):
                    self.refresh_view()  # the seat still looks at a card it was shown
                    return
                self._switch_seat(human)
                return
            self.seat = human
        self.refresh_view()

    def _start_bot(self, seat: int | None) -> None:
        """Let the bot of ``seat`` think in a thread, so the screen stays alive meanwhile.

        Nothing changes the state while it thinks: typed input waits in the move field.
        """
        if seat is None:
            return
        self.thinking = seat
        delay = self.config.bot_delay

        def think() -> None:
            started = time.monotonic()
            action = self.session.decide(seat)
            time.sleep(max(0.0, delay - (time.monotonic() - started)))  # pacing only
            self.app.call_from_thread(self._bot_done, seat, str(action))

        self.run_worker(think, thread=True, group="bot", exit_on_error=True)

    def _bot_done(self, seat: int, action: str) -> None:
        self.thinking = None
        if not self._finished and seat in self.session.state.seats_to_act():
            self.session.play(seat, action)
        self.pump()

    def _switch_seat(self, seat: int) -> None:
        self._waiting_privacy = True
        self.seat = None  # nobody's screen while the keyboard changes hands
        self.refresh_view()
        ask = seat not in self._named and is_default_name(self.session.names[seat])
        self._named.add(seat)

        def done(name: str | None = None) -> None:
            if name:
                self.session.rename(seat, name)
            self._waiting_privacy = False
            self.seat = seat
            self.cursor = self.selected = None
            self.pump()

        self.app.push_screen(PrivacyScreen(self.session.names[seat], ask), done)

    def _finish(self) -> None:
        self._finished = True
        session = self.session
        try:
            path = session.save(self.config.save, self.config.record_dir)
            note = _("Record saved to {path}").format(path=path)
            if self.config.resumed_from is not None:
                self.config.resumed_from.unlink(missing_ok=True)
        except CampfireError as exc:
            note = _("The record could not be saved: {reason}").format(reason=exc)
        assert isinstance(self.app, CampfireApp)
        self.app.show_scores(score_text(session), note)

    # ----- drawing -----------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Redraw the board, players, choices, log and status for the current seat."""
        session = self.session
        seat = self.seat
        board = self.query_one("#board", Board)
        if seat is None:
            display = session.display(None)
            board.show(display)
            self.query_one("#players", Players).show(display.players)
            self.query_one("#actions", Choices).show([])
            self._sync_log(None)
            self.query_one("#status", StatusBar).show(display.status, _("Hot seat: please wait."))
            return
        waiting = self.thinking is not None
        display = session.display(seat, actions=not waiting)
        display = self.mode.decorate(display, seat)
        self.display_model = display
        self._all = [] if waiting else self.mode.choices(display)
        pointable = self._pointable()
        if self.cursor not in pointable:
            self.cursor = next(iter(pointable), None)
        if self.selected not in pointable:
            self.selected = None
        if not self.selected and not self._narrowed():
            self.offered = list(self._all)
        self.offered = [c for c in self.offered if c in self._all] or list(self._all)
        board.show(display, pointable, self.cursor, self.selected, self.changed.get(seat, ()))
        self.query_one("#players", Players).show(display.players)
        self.query_one("#actions", Choices).show(self.offered)
        keys = [c.key or c.notation for c in self._all]
        self.query_one("#move", MoveInput).set_keys(keys)
        self._sync_log(seat)
        self.query_one("#status", StatusBar).show(*self._status(display))

    def _narrowed(self) -> bool:
        return 0 < len(self.offered) < len(self._all)

    def _pointable(self) -> list[str]:
        display = self.display_model
        if display is None:
            return []
        ids: set[str] = set()
        for choice in self._all:
            if choice.target:
                ids.add(choice.target)
            if choice.source:
                ids.add(choice.source)
        order = []
        for zone in display.zones:
            if zone.id in ids:
                order.append(zone.id)
            order.extend(c.id for c in zone.cards if c.id in ids)
        return order

    def _sync_log(self, seat: int | None) -> None:
        log = self.query_one("#log", GameLog)
        lines = self.session.log(seat)
        total = self.session.log_total(seat)
        if seat != self._log_seat:
            self._log_seat = seat
            log.reset(lines)
        elif total > self._log_count:
            log.add(lines[-min(total - self._log_count, len(lines)) :])
        self._log_count = total

    def _status(self, display: Display) -> tuple[str, str]:
        session = self.session
        head = display.status
        if display.progress:
            head += f" · {display.progress}"
        timer = self.mode.status(self.seat)
        if timer:
            head += f" · {timer}"
        if self.thinking is not None:
            name = session.names[self.thinking]
            prompt = f"{SPINNER[self._spin]} " + _("{name} is thinking…").format(name=name)
            if self.query_one("#move", MoveInput).value:
                prompt += " " + _("(what you typed waits: press Enter when it is your turn)")
        else:
            prompt = display.prompt
            if self.selected:
                prompt += " " + _("Now point at where it goes (Esc: cancel).")
            elif self._narrowed():
                prompt += " " + _("Pick one of the moves on the right (Esc: all moves).")
        message = self.message or self.mode.message
        if message:
            prompt = f"{prompt} — {message}"
        return head, prompt

    # ----- input -------------------------------------------------------------------------

    def action_point(self, direction: str) -> None:
        """Arrows: move the pointer over the board (or the list / the typed text)."""
        focused = self.focused
        actions = self.query_one("#actions", Choices)
        if focused is actions and direction in ("up", "down"):
            (actions.action_cursor_up if direction == "up" else actions.action_cursor_down)()
            return
        move = self.query_one("#move", MoveInput)
        if focused is move and move.value and direction in ("left", "right"):
            (move.action_cursor_left if direction == "left" else move.action_cursor_right)()
            return
        self.cursor = self.query_one("#board", Board).move(self.cursor, direction)
        self.refresh_view()

    def action_complete(self) -> None:
        """Tab: complete the typed move; with nothing typed, move the focus on (to the list).

        A Tab that completes nothing keeps the focus in the move field and says why: what is
        typed next still goes there, and Enter still chooses the move typed.
        """
        move = self.query_one("#move", MoveInput)
        text = move.value.strip()
        if self.focused is not move or not text:
            self.focus_next()
            return
        if move.complete():
            self.message = ""
        elif move.completion() is None:
            self.message = _("no move begins with {text}: type a key from the list").format(
                text=repr(text)
            )
        else:
            self.message = _("{text} is a whole move: Enter chooses it").format(text=repr(text))
        self.refresh_view()

    def action_cancel(self) -> None:
        """Escape: forget the card picked and the narrowed list."""
        self.selected = None
        self.offered = list(self._all)
        self.message = ""
        self.refresh_view()

    def action_scroll_log(self, direction: int) -> None:
        """Page the log up or down."""
        log = self.query_one("#log", GameLog)
        (log.scroll_page_up if direction < 0 else log.scroll_page_down)()

    def point(self, target: str) -> None:
        """Choose by pointing at ``target`` (a card or zone id): click, or Enter on the pointer."""
        if not self._ready():
            return
        self.cursor = target
        sources = {c.source for c in self._all if c.source}
        on_target = [c for c in self._all if c.target == target]
        if self.selected is not None:
            on_target = [c for c in on_target if c.source == self.selected]
        if target in sources and not on_target:
            self.selected = None if self.selected == target else target
            self.offered = [c for c in self._all if c.source == self.selected] or list(self._all)
            self.refresh_view()
            return
        if not on_target:
            self.message = _("nothing to do there now")
            self.refresh_view()
            return
        if len(on_target) == 1:
            self._play(on_target[0])
            return
        self.offered = on_target
        self.message = ngettext("{count} move there", "{count} moves there", len(on_target)).format(
            count=len(on_target)
        )
        self.refresh_view()

    def action_point_at(self, target: str) -> None:
        """A click on the board."""
        self.point(target)

    def _ready(self) -> bool:
        if self._finished or self.seat is None:
            return False
        if self.thinking is not None:
            name = self.session.names[self.thinking]
            self.message = _("{name} is still thinking; your move waits").format(name=name)
            self.refresh_view()
            return False
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the move field: the move typed, or what the pointer points at."""
        if event.input.id != "move":
            return
        text = event.value.strip()
        if not self._ready():
            return  # the text stays in the field
        if not text:
            if self.cursor is not None:
                self.point(self.cursor)
            return
        choice = self._match(text)
        if choice is None:
            self.message = _("no move {text} now: type a key from the list (Tab completes)").format(
                text=repr(text)
            )
            self.refresh_view()
            return
        event.input.value = ""
        self._play(choice)

    def on_input_changed(self, event: Input.Changed) -> None:
        """In a claim window a key answers at once (the time counts)."""
        if event.input.id != "move" or not self.mode.drives_bots:
            return
        text = event.value.strip().lower()
        if not text or self.seat is None or self.thinking is not None:
            return
        hits = [c for c in self._all if (c.key or c.notation).lower().startswith(text)]
        window = getattr(self.mode, "window_open", lambda: False)()
        if window and len(hits) == 1:
            event.input.value = ""
            self._play(hits[0])

    def _match(self, text: str) -> ActionChoice | None:
        low = text.lower()
        pool = self._all
        for name in ("key", "notation", "label"):
            hits = [c for c in pool if (getattr(c, name) or c.notation).lower() == low]
            if len(hits) == 1:
                return hits[0]
        if low.isdigit() and 1 <= int(low) <= len(self.offered):
            return self.offered[int(low) - 1]
        hits = [c for c in pool if (c.key or c.notation).lower().startswith(low)]
        return hits[0] if len(hits) == 1 else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Play the choice clicked or chosen with Enter in the list."""
        if event.option.id is not None and self._ready():
            index = int(event.option.id)
            if 0 <= index < len(self.offered):
                self._play(self.offered[index])

    def _play(self, choice: ActionChoice) -> None:
        seat = self.seat
        if seat is None or not self._ready():
            return
        self.message = ""
        try:
            self.mode.play(seat, choice)
        except CampfireError as exc:
            self.message = current().error(exc)
            self.session.note(seat, f"! {self.message}")
        self.selected = None
        self.offered = []
        self.pump()

    def action_undo(self) -> None:
        """Take back your last move of the step in progress, if the rules allow it."""
        seat = self.seat
        if seat is None or not self._ready():
            return
        if not self.session.can_undo(seat):
            self.message = _(
                "nothing to take back: only your own moves of this step, before anything "
                "was revealed or another player moved"
            )
        else:
            action = self.session.undo(seat)
            self.changed[seat].clear()  # what changed before is no longer on the table
            self.session.note(seat, "↶ " + _("You take back: {action}").format(action=action))
            self.message = _("took back {action}").format(action=action)
        self.selected = None
        self.offered = []
        self.pump()

    def action_rules(self) -> None:
        """Show the rules of the game."""
        self.app.push_screen(RulesScreen(self.session.game))

    def action_quit_game(self) -> None:
        """Ctrl+Q: ask, then leave (an unfinished game is saved to resume)."""

        def answer(leave: bool | None) -> None:
            if leave:
                assert isinstance(self.app, CampfireApp)
                self.app.leave()

        where = "campfire play --resume"
        self.app.push_screen(
            ConfirmQuit(
                _(
                    "Leave the game?\n\nIt is saved, and\n  {command}\ncontinues it where you left."
                ).format(command=where)
            ),
            answer,
        )


# ----- the apps ------------------------------------------------------------------------------


class CampfireApp(TerminalApp):
    """``campfire play``: the start screen (no config) or straight into a game.

    When its terminal goes away (closed window, ``SIGHUP``, ``SIGTERM``) it saves an unfinished
    game and leaves (:mod:`campfire.tui.terminal`).
    """

    CSS_PATH = "app.tcss"
    TITLE = "Campfire"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", N_("Quit"), priority=True, show=False),
    ]

    def __init__(self, config: PlayConfig | None = None, clock: Clock | None = None) -> None:
        super().__init__()
        self.config = config
        self.clock: Clock = clock if clock is not None else MonotonicClock()
        self.session: PlaySession | None = None
        #: where the unfinished game was saved on leaving (``None``: nothing saved)
        self.unfinished: Path | None = None

    def on_mount(self) -> None:
        """Start when the screen or app is shown."""
        self.watch_terminal()
        if self.config is not None and (self.config.seats or self.config.resume):
            self.start_game(self.config)
        else:
            self.push_screen(StartScreen())

    def start_game(self, config: PlayConfig) -> None:
        """Start a game with ``config`` (or continue ``config.resume``) on a game screen."""
        if config.resume is not None:
            self.session = PlaySession.resume(config.resume)
            config = replace(config, game=self.session.game.name, seats=self.session.seats)
        else:
            game = get(config.game)
            check_seats(game, config.seats, config.options)
            self.session = PlaySession(game, config.seats, config.options, seed=config.seed)
        self.config = config
        self.push_screen(GameScreen(self.session, config, self.clock))

    def show_scores(self, text: str, note: str) -> None:
        """Replace the game screen by the final scores."""
        self.switch_screen(ScoreScreen(text, note))

    def new_game(self) -> None:
        """Back to the start screen for another game."""
        if self.config is not None:
            self.config = replace(self.config, seats=[], seed=None, resume=None)
        self.switch_screen(StartScreen())

    def save_unfinished(self) -> Path | None:
        """Save the game in progress to resume it later (``None``: nothing to save)."""
        session = self.session
        if session is None or session.is_over() or not session.match.actions:
            return None
        config = self.config
        target = (
            config.resumed_from
            if config is not None and config.resumed_from is not None
            else unfinished_path(session.game.name, config.unfinished_dir if config else None)
        )
        try:
            self.unfinished = session.save(target)
        except CampfireError:
            return None
        return self.unfinished

    def action_request_quit(self) -> None:
        """Ctrl+Q: in a game, ask first (the game screen's confirmation); elsewhere leave."""
        if isinstance(self.screen, ConfirmQuit):
            return
        game = next((s for s in self.screen_stack if isinstance(s, GameScreen)), None)
        if game is not None and not game._finished:
            game.action_quit_game()
        else:
            self.exit()

    def leave(self) -> None:
        """Save an unfinished game and exit."""
        self.save_unfinished()
        self.exit()

    def hang_up(self, status: int = 129) -> None:
        """The terminal went away: save an unfinished game, then leave."""
        if not self._hung_up:
            self.save_unfinished()
        super().hang_up(status)


class WatchScreen(Translated, Screen[None]):
    """Steps through a record in the spectator's view, drawn by the game's presenter."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", N_("Next"), priority=True),
        Binding("left,b", "step(-1)", N_("Back"), priority=True),
        Binding("home", "jump(0)", N_("Start"), priority=True),
        Binding("end", "jump(-1)", N_("End"), priority=True),
        Binding("q,escape", "app.quit", N_("Quit")),
    ]

    def __init__(self, record: Record) -> None:
        super().__init__()
        self.record = record
        self.game = get(record.game)
        self.presenter = self.game.presenter()
        self.names = shown_names(
            [p.name for p in record.players], [p.agent for p in record.players]
        )
        self.match = Match(
            self.game, len(record.players), record.options, seed=record.seed, setup=record.setup
        )
        self.displays: list[Display] = [self._display()]
        #: what each action changed (its step display's ``changed``), highlighted after it
        self.changed: list[tuple[str, ...]] = [()]
        self.logs: list[int] = [0]
        self.lines: list[str] = []
        for seat, text in record.actions:
            events = self.match.play(seat, text)
            seen = visible_events(events, None)
            self.lines.extend(translate(m) for m in self.presenter.messages(seen, self.names, None))
            self.displays.append(self._display())
            self.changed.append(self.presenter.step_display(seen, None).changed)
            self.logs.append(len(self.lines))
        self.index = 0

    def _display(self) -> Display:
        return self.presenter.display(self.match.state.view(None), [], self.names)

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="board-box"):
                yield Board(id="board")
            with Vertical(id="side"):
                yield Players(id="players")
                yield OptionList(id="actions")
        yield GameLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        """Start when the screen or app is shown."""
        self.draw()

    def draw(self) -> None:
        """Draw the position after :attr:`index` actions."""
        total = len(self.record.actions)
        display = self.displays[self.index]
        self.query_one("#board", Board).show(display, changed=self.changed[self.index])
        self.query_one("#players", Players).show(display.players)
        self.query_one("#log", GameLog).reset(self.lines[: self.logs[self.index]])
        status = _("{game} replay — action {index}/{total}").format(
            game=game_title(self.game), index=self.index, total=total
        )
        if self.index:
            seat, text = self.record.actions[self.index - 1]
            status += f": {self.names[seat]} {text}"
        outcome = self.match.state.outcome() if self.match.state.is_terminal() else None
        if self.index == total and outcome is not None:
            winners = and_list([self.names[s] for s in outcome.winners])
            status += " — " + _("over, won by {winners}").format(winners=winners)
        self.query_one("#status", StatusBar).show(status, display.status)
        options = self.query_one("#actions", OptionList)
        options.clear_options()
        upcoming = self.record.actions[self.index : self.index + 9]
        options.add_options([Content(f"{self.names[s]}: {t}") for s, t in upcoming])

    def action_step(self, delta: int) -> None:
        """Move ``delta`` actions forward or back."""
        self.index = max(0, min(len(self.record.actions), self.index + delta))
        self.draw()

    def action_jump(self, where: int) -> None:
        """Jump to the start (0) or the end (-1)."""
        self.index = len(self.record.actions) if where < 0 else 0
        self.draw()


class WatchApp(TerminalApp):
    """``campfire replay FILE --watch``: step through a (verified) record."""

    CSS_PATH = "app.tcss"
    TITLE = "Campfire replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, record: Record) -> None:
        super().__init__()
        self.record = record

    def on_mount(self) -> None:
        """Start when the screen or app is shown."""
        self.watch_terminal()
        self.push_screen(WatchScreen(self.record))
