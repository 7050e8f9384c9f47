"""The Textual app: start screen, one game screen for every game, privacy and score screens.

``campfire play`` runs :class:`CampfireApp`; ``campfire replay FILE --watch`` runs
:class:`WatchApp`. A game screen shows exactly what one human seat may see: the text picture of
its view (:mod:`campfire.tui.views`), its event log in plain words (:mod:`campfire.tui.words`)
and its legal actions as numbered, clickable choices. Nothing on a screen comes from the state
directly.

>>> from campfire.tui.session import SeatSpec
>>> config = PlayConfig("tracker", [SeatSpec("You"), SeatSpec("Bot", "easy")], seed=1)
>>> app = CampfireApp(config)
>>> app.config.game
'tracker'
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
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
from textual.widgets.option_list import Option

from campfire.core import (
    Action,
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

from .clock import Clock, MonotonicClock
from .realtime import RealtimeApache
from .session import PlaySession, SeatSpec
from .terminal import TerminalApp
from .views import render_view
from .words import describe

__all__ = [
    "CampfireApp",
    "GameScreen",
    "PlayConfig",
    "StartScreen",
    "WatchApp",
    "check_seats",
    "game_options",
    "options_help",
]

LEVEL_CHOICES = ("easy", "medium", "hard", "human")


@dataclass
class PlayConfig:
    """Everything needed to start a game in the terminal.

    ``seats`` lists the players (``SeatSpec(name)`` for a human, ``SeatSpec(name, level)`` for
    a bot). ``save`` is where the record goes (default: the user data directory; ``record_dir``
    overrides that folder). ``bot_delay`` is the pause before each bot move (0 in tests),
    ``peek_seconds`` how long a peeked Tracker card stays visible, ``learning`` marks positions
    the seat has peeked at, ``protect_me`` refuses Apache claims that would be penalised, and
    ``reveal_delay`` / ``window`` time real-time Apache.
    """

    game: str
    seats: list[SeatSpec]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    save: Path | None = None
    record_dir: Path | None = None
    bot_delay: float = 0.6
    peek_seconds: float = 3.0
    learning: bool = False
    protect_me: bool = False
    reveal_delay: float = 1.5
    window: float = 3.0


def game_options(game: Game[Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The options to play ``game`` with: ``values`` validated, real-time Apache by default.

    >>> game_options(get("apache"), {})
    {'claim_order': 'arrival'}
    >>> game_options(get("tracker"), {"peek_count": "3"})
    {'peek_count': 3}
    """
    opts = dict(values)
    if game.name == "apache":
        opts.setdefault("claim_order", "arrival")
    return game.options(opts).non_default()


def options_help(game: Game[Any]) -> str:
    """The options of ``game``, one a line, for the rules screen.

    >>> print(options_help(get("tracker")).splitlines()[2])
      peek_count=2  (2/3/4)  cards shown by one peek ...
    """
    lines = [f"\nOptions of {game.title} (type key=value on the start screen):"]
    for info in game.options_type.infos():

        def fmt(value: Any) -> str:
            return str(value).lower() if isinstance(value, bool) else str(value)

        if info.choices is not None:
            allowed = "/".join(fmt(c) for c in info.choices)
        else:
            allowed = "true/false" if info.type is bool else info.type.__name__
        lines.append(f"  {info.name}={fmt(info.default)}  ({allowed})  {info.help}".rstrip())
    if len(lines) == 1:
        lines.append("  (no options)")
    return "\n".join(lines)


def check_seats(game: Game[Any], seats: Sequence[SeatSpec], options: Mapping[str, Any]) -> None:
    """Raise :class:`CampfireError` unless the seats can play ``game`` in the terminal."""
    game.check_players(len(seats))
    if not any(s.human for s in seats):
        raise CampfireError("at least one seat must be played by a human")
    realtime = game.name == "apache" and options.get("claim_order") == "arrival"
    if realtime and sum(s.human for s in seats) > 1:
        raise CampfireError(
            "real-time Apache is for one human at the keyboard; for hot seat Apache use "
            "--option claim_order=reaction"
        )


# ----- small widgets -------------------------------------------------------------------------


class _Text(Static):
    """A static text that redraws only when its text changes."""

    def __init__(self, *, id: str) -> None:
        super().__init__("", id=id, markup=False)
        #: the text on show
        self.current = ""

    def show(self, text: str, style: str = "") -> None:
        """Show ``text`` (nothing is redrawn if it is unchanged)."""
        if text != self.current:
            self.current = text
            self.update(Text(text, style=style))


class Board(_Text):
    """The text picture of a seat's view."""


class EventLog(_Text):
    """The last lines of a seat's event log."""


class Status(_Text):
    """One line: the game, whose turn it is, timers and messages."""


# ----- the start screen ----------------------------------------------------------------------


class RulesScreen(ModalScreen[None]):
    """A game's complete rules (``game.rules_text()``, ``docs/rules/<game>.md``), scrollable.

    The document is rendered as Markdown, followed by the options as typed on the start screen;
    ``t`` shows or hides a table of contents.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Back"),
        Binding("q", "dismiss", "Back", show=False),
        Binding("t", "contents", "Contents"),
    ]

    def __init__(self, game: Game[Any]) -> None:
        super().__init__()
        self.game = game

    def markdown(self) -> str:
        """The document shown: the rules, then the options as typed on the start screen."""
        return f"{self.game.rules_text().rstrip()}\n\n```{options_help(self.game)}\n```\n"

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        yield MarkdownViewer(self.markdown(), id="rules", show_table_of_contents=False)
        yield Footer()

    def action_contents(self) -> None:
        """Show or hide the table of contents."""
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)


class StartScreen(Screen[None]):
    """Pick the game, the players, the opponents per seat and the options."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "rules", "Rules"),
        Binding("ctrl+g", "play", "Play"),
        Binding("escape", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        games = all_games()
        first = games[0]
        yield Static("Campfire — pick a game", id="title")
        with Horizontal(classes="row"):
            yield Label("Game ", classes="label")
            yield Select(
                [(f"{g.title} ({g.min_players}–{g.max_players})", g.name) for g in games],
                value=first.name,
                allow_blank=False,
                compact=True,
                id="game",
            )
            yield Label(" Players ", classes="label")
            yield Select(
                [(str(n), n) for n in range(2, 7)],
                value=2,
                allow_blank=False,
                compact=True,
                id="players",
            )
        yield Label("Opponents (seats 2–6):")
        with Horizontal(classes="row"):
            for i in range(1, 6):
                yield Select(
                    [(lv, lv) for lv in LEVEL_CHOICES],
                    value="easy",
                    allow_blank=False,
                    compact=True,
                    id=f"seat{i}",
                    classes="seat",
                )
        yield Label("Options (key=value, space separated; see Rules):")
        yield Input(placeholder="e.g. peek_count=3", id="options")
        with Horizontal(classes="row"):
            yield Checkbox("protect me (Apache)", id="protect")
            yield Checkbox("learning mode (Tracker)", id="learning")
        yield Static("", id="error")
        with Horizontal(classes="row"):
            yield Button("Play", id="play", variant="primary")
            yield Button("Rules", id="rules")
            yield Button("Quit", id="quit")
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
        else:
            self.app.exit()

    def action_rules(self) -> None:
        """Show the rules of the game."""
        self.app.push_screen(RulesScreen(self._game()))

    def config(self) -> PlayConfig:
        """The configuration chosen on the screen (raise :class:`CampfireError` if invalid)."""
        game = self._game()
        players = int(str(self.query_one("#players", Select).value))
        levels = [str(self.query_one(f"#seat{i}", Select).value) for i in range(1, players)]
        seats = [SeatSpec("You")]
        for i, level in enumerate(levels, 2):
            seats.append(
                SeatSpec(f"Player {i}")
                if level == "human"
                else SeatSpec(f"Bot {i} ({level})", level)
            )
        if sum(s.human for s in seats) > 1:
            seats[0] = SeatSpec("Player 1")
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
            bot_delay=base.bot_delay if base else 0.6,
            protect_me=self.query_one("#protect", Checkbox).value,
            learning=self.query_one("#learning", Checkbox).value,
        )

    def action_play(self) -> None:
        """Start the game chosen, or show why it cannot start."""
        try:
            config = self.config()
        except CampfireError as exc:
            self.query_one("#error", Static).update(Text(f"error: {exc}", style="bold red"))
            return
        assert isinstance(self.app, CampfireApp)
        self.app.start_game(config)


# ----- privacy and score screens -------------------------------------------------------------


class PrivacyScreen(ModalScreen[None]):
    """Covers the table between two human seats of a hot-seat game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", "I am ready")]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        with Vertical(id="privacy"):
            yield Static(
                f"Pass the keyboard to {self.player}.\n\n"
                "Everybody else, look away.\n\n"
                f"{self.player}: press Enter when you are ready.",
                id="privacy-text",
            )
            yield Button("I am ready", id="ready", variant="primary")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Handle the buttons."""
        self.action_ready()

    def action_ready(self) -> None:
        self.dismiss(None)


def outcome_text(title: str, outcome: Outcome, names: Sequence[str]) -> str:
    """The final scores, best first, with the winners marked.

    >>> print(outcome_text("Tracker", Outcome.from_scores([3, 5]), ["Ann", "Bob"]))
    Tracker — final scores
    <BLANKLINE>
      1. Bob  5  winner
      2. Ann  3
    """
    lines = [f"{title} — final scores", ""]
    width = max(len(n) for n in names)
    for seat in sorted(range(len(names)), key=lambda s: (outcome.ranks[s], s)):
        mark = "  winner" if seat in outcome.winners else ""
        lines.append(
            f"  {outcome.ranks[seat]}. {names[seat]:<{width}}  {outcome.scores[seat]:g}{mark}"
        )
        details = outcome.details[seat] if seat < len(outcome.details) else {}
        parts = [
            f"{str(k).replace('_', ' ')} {v}"
            for k, v in details.items()
            if isinstance(v, int | float | str) and not isinstance(v, bool)
        ]
        if parts:
            lines.append("       " + ", ".join(parts))
    return "\n".join(lines)


class ScoreScreen(Screen[None]):
    """The final scores and where the record was saved."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New game"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, title: str, outcome: Outcome, names: Sequence[str], note: str) -> None:
        super().__init__()
        self.text = outcome_text(title, outcome, names)
        self.note = note

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        with Vertical(id="score"):
            yield Static(self.text, id="score-table", markup=False)
            yield Static(self.note, id="score-note", markup=False)
        yield Footer()

    def action_new(self) -> None:
        assert isinstance(self.app, CampfireApp)
        self.app.new_game()


# ----- the game screen -----------------------------------------------------------------------


class GameScreen(Screen[None]):
    """One game as seen by one human seat at a time (the seat to act, in hot seat)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick(1)", "Choose", key_display="1-9"),
        *[Binding(str(n), f"pick({n})", show=False) for n in range(2, 10)],
        Binding("c", "claim('chief')", "Chief", show=False),
        Binding("m", "claim('maiden')", "Maiden", show=False),
        Binding("w", "claim('warrior')", "Warrior", show=False),
        Binding("h", "claim('hunter')", "Hunter", show=False),
        Binding("p", "pass_window", "Pass", show=False),
        Binding("question_mark", "rules", "Rules"),
        Binding("ctrl+q", "quit_game", "Quit"),
    ]

    def __init__(self, session: PlaySession, config: PlayConfig, clock: Clock) -> None:
        super().__init__()
        self.session = session
        self.config = config
        self.clock = clock
        self.hot_seat = len(session.humans) > 1
        #: the human seat whose screen this is (``None``: nobody's yet, in hot seat)
        self.seat: int | None = None if self.hot_seat else session.humans[0]
        self.realtime: RealtimeApache | None = None
        if (
            session.game.name == "apache"
            and session.match.options.to_dict().get("claim_order") == "arrival"
        ):
            self.realtime = RealtimeApache(
                session,
                clock,
                reveal_delay=config.reveal_delay,
                window=config.window,
                protect_me=config.protect_me,
            )
        self._shown: dict[int, dict[int, tuple[str, float]]] = {}
        self._marked: dict[int, set[int]] = {s: set() for s in session.humans}
        self._message = ""
        self._bot_pending = False
        self._awaiting_peek = False
        self._window = 0
        self._waiting_privacy = False
        self._finished = False
        self._actions: list[Action] = []
        session.listeners.append(self._on_events)

    # ----- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        yield Status(id="status")
        with Horizontal(id="main"):
            yield Board(id="board")
            yield OptionList(id="actions")
        yield EventLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        """Start when the screen or app is shown."""
        self.set_interval(0.1, self._tick)
        self.pump()

    # ----- events from the session -------------------------------------------------------

    def _on_events(self, seat: int, events: list[Event]) -> None:
        if self.session.game.name != "tracker":
            return
        now = self.clock.now()
        for human in self.session.humans:
            for event in visible_events(events, human):
                data = event.data
                if event.type == "peek_card" and data.get("seat") == human:
                    # tracker §5.1: the card shows for a few seconds, then it is hidden again
                    shown = self._shown.setdefault(human, {})
                    shown[data["pos"]] = (str(data["card"]), now + self.config.peek_seconds)
                    self._marked[human].add(data["pos"])
                elif event.type == "relocate":
                    marks = self._marked[human]
                    if data["from"] in marks:
                        marks.discard(data["from"])
                        marks.add(data["to"])
                elif event.type == "take":
                    self._marked[human].discard(data["pos"])

    # ----- the loop ----------------------------------------------------------------------

    def _tick(self) -> None:
        if self._finished:
            return
        if self.realtime is not None:
            try:
                self.realtime.tick()
            except CampfireError as exc:  # pragma: no cover - engine errors are bugs
                self._message = str(exc)
            self.pump()
        elif self._awaiting_peek:
            self._awaiting_peek = False
            self.pump()
        else:
            self.refresh_view()

    def pump(self) -> None:
        """Move the game on: bots play, the screen follows the human to act, the end is shown."""
        session = self.session
        if self._finished or self._waiting_privacy:
            return
        if session.is_over():
            self._finish()
            return
        if self.realtime is not None:
            self.realtime.tick()
            if session.is_over():
                self._finish()
                return
        else:
            while session.bot_to_act() is not None:
                if self.config.bot_delay > 0:
                    if not self._bot_pending:
                        self._start_bot(session.bot_to_act())
                    self.refresh_view()
                    return
                session.bot_step()
            if session.is_over():
                self._finish()
                return
        human = session.human_to_act()
        if human is not None and human != self.seat:
            if self.hot_seat:
                if self._peek_time_left() > 0:
                    # let the player who peeked see the card for its full time first
                    self._awaiting_peek = True
                    self.refresh_view()
                    return
                self._switch_seat(human)
                return
            self.seat = human
        self.refresh_view()

    def _start_bot(self, seat: int | None) -> None:
        """Let the bot of ``seat`` think in a thread, so the screen stays alive meanwhile.

        Nothing changes the state while it thinks: human input waits (``_bot_pending``).
        """
        if seat is None:
            return
        self._bot_pending = True
        delay = self.config.bot_delay

        def think() -> None:
            started = time.monotonic()
            action = self.session.decide(seat)
            time.sleep(max(0.0, delay - (time.monotonic() - started)))  # pacing only
            self.app.call_from_thread(self._bot_done, seat, action)

        self.run_worker(think, thread=True, group="bot", exit_on_error=True)

    def _peek_time_left(self) -> float:
        if self.seat is None:
            return 0.0
        now = self.clock.now()
        return max([until - now for _, until in self._shown.get(self.seat, {}).values()] + [0.0])

    def _bot_done(self, seat: int, action: Action) -> None:
        self._bot_pending = False
        if not self._finished and seat in self.session.state.seats_to_act():
            self.session.play(seat, action)
        self.pump()

    def _switch_seat(self, seat: int) -> None:
        self._waiting_privacy = True
        self._shown.clear()
        self.seat = None  # nobody's screen while the keyboard changes hands
        self.refresh_view()

        def done(_: None = None) -> None:
            self._waiting_privacy = False
            self.seat = seat
            self.pump()

        self.app.push_screen(PrivacyScreen(self.session.names[seat]), done)

    def _finish(self) -> None:
        self._finished = True
        session = self.session
        try:
            path = session.save(self.config.save, self.config.record_dir)
            note = f"Record saved to {path}"
        except CampfireError as exc:
            note = f"The record could not be saved: {exc}"
        assert isinstance(self.app, CampfireApp)
        self.app.show_scores(session.game.title, session.outcome(), session.names, note)

    # ----- drawing -----------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Redraw the board, the choices, the log and the status line for the current seat."""
        session = self.session
        seat = self.seat
        view = session.view(seat)
        now = self.clock.now()
        if seat is None:
            self.query_one("#board", Board).show(render_view(view, session.names))
            self.query_one("#log", EventLog).show("")
            self._set_actions([])
            self.query_one("#status", Status).show(f"{session.game.title} — hot seat")
            return
        shown = {
            pos: card for pos, (card, until) in self._shown.get(seat, {}).items() if until > now
        }
        marked = self._marked.get(seat, set()) if self.config.learning else set()
        self.query_one("#board", Board).show(
            render_view(view, session.names, shown=shown, marked=marked)
        )
        lines = session.log(seat)[-5:]
        self.query_one("#log", EventLog).show("\n".join(lines))
        self._refresh_actions()
        self.query_one("#status", Status).show(self._status_text(view))

    def _refresh_actions(self) -> None:
        assert self.seat is not None
        actions = self.session.legal_actions(self.seat)
        if self.realtime is not None and self.config.protect_me and actions:
            protect = self.session.view(self.seat).get("protect_me") or {}
            actions = [a for a in actions if protect.get(str(a).partition(" ")[2], True)]
        self._set_actions(actions)

    def _set_actions(self, actions: list[Action]) -> None:
        if actions == self._actions:
            return
        self._actions = actions
        option_list = self.query_one("#actions", OptionList)
        option_list.clear_options()
        option_list.add_options(
            [
                Option(f"{i}. {a}" if i <= 9 else f"   {a}", id=str(i - 1))
                for i, a in enumerate(actions, 1)
            ]
        )
        if actions:
            option_list.highlighted = 0

    def _status_text(self, view: Mapping[str, Any]) -> str:
        session = self.session
        assert self.seat is not None
        name = session.names[self.seat]
        if self.realtime is not None:
            phase = view["phase"]
            if view["window"] != self._window:  # a new card: yesterday's message is stale
                self._window = view["window"]
                self._message = ""
            left = self.realtime.seconds_left()
            timer = f" {left:.1f}s" if left is not None else ""
            if phase == "claim":
                head = f"CLAIM NOW{timer}: c chief, m maiden, w warrior, h hunter, p pass"
            elif phase == "reveal":
                head = f"next card in{timer}"
            else:
                who = ", ".join(session.names[s] for s in view["to_act"])
                head = f"{who} to choose"
            if self.config.protect_me:
                head += " [protect me]"
        else:
            to_act = session.state.seats_to_act()
            if self._awaiting_peek:
                head = f"{name}: remember it! The next player comes in a moment"
            elif self.seat in to_act:
                head = f"{name}: your move (1–9, arrows + Enter, or click)"
            else:
                head = "waiting for " + ", ".join(session.names[s] for s in to_act)
        if self._message:
            head += " — " + self._message
        return head

    # ----- input -------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Play the choice clicked or chosen with Enter."""
        if event.option.id is not None:
            self._play_index(int(event.option.id))

    def action_pick(self, number: int) -> None:
        """Play the ``number``-th choice (1-based)."""
        self._play_index(number - 1)

    def _play_index(self, index: int) -> None:
        seat = self.seat
        if self._finished or self._bot_pending or seat is None:
            return
        if not 0 <= index < len(self._actions):
            return
        action = self._actions[index]
        if action not in self.session.legal_actions(seat):
            return
        self._message = ""
        text = str(action)
        if self.realtime is not None and self.session.view(None)["phase"] == "claim":
            if text == "pass":
                self.action_pass_window()
            else:
                self.action_claim(text.partition(" ")[2])
            return
        self.session.play(seat, action)
        self._actions = []
        self.pump()

    def action_claim(self, kind: str) -> None:
        """Real-time Apache: claim with the Indian of type ``kind``."""
        if self.realtime is None or self._finished or self.seat is None:
            return
        try:
            self.realtime.claim(self.seat, kind)
            self._message = f"you claimed with the {kind}"
        except CampfireError as exc:
            self._message = str(exc)
        self.pump()

    def action_pass_window(self) -> None:
        """Real-time Apache: pass in the open window."""
        if self.realtime is None or self._finished or self.seat is None:
            return
        try:
            self.realtime.pass_(self.seat)
            self._message = "you passed"
        except CampfireError as exc:
            self._message = str(exc)
        self.pump()

    def action_rules(self) -> None:
        """Show the rules of the game."""
        self.app.push_screen(RulesScreen(self.session.game))

    def action_quit_game(self) -> None:
        """Leave the game (an unfinished game is not saved)."""
        self.app.exit()


# ----- the apps ------------------------------------------------------------------------------


CSS = """
#title { text-style: bold; padding: 0 1; }
.row { height: auto; }
.label { padding: 0 0; }
#game { width: 34; }
#players { width: 10; }
.seat { width: 14; }
#error { height: 1; }
#status { height: 1; background: $boost; text-style: bold; }
#main { height: 1fr; }
#board { width: 1fr; }
#actions { width: 30; }
#log { height: 5; border-top: solid $primary; }
#privacy, #score { align: center middle; padding: 1 2; }
#rules { padding: 0 1; }
"""


class CampfireApp(TerminalApp):
    """``campfire play``: the start screen (no config) or straight into a game.

    When its terminal goes away (closed window, ``SIGHUP``, ``SIGTERM``) it leaves as ``Ctrl+Q``
    does (:mod:`campfire.tui.terminal`).
    """

    CSS = CSS
    TITLE = "Campfire"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, config: PlayConfig | None = None, clock: Clock | None = None) -> None:
        super().__init__()
        self.config = config
        self.clock: Clock = clock if clock is not None else MonotonicClock()
        self.session: PlaySession | None = None

    def on_mount(self) -> None:
        """Start when the screen or app is shown."""
        self.watch_terminal()
        if self.config is not None and self.config.seats:
            self.start_game(self.config)
        else:
            self.push_screen(StartScreen())

    def start_game(self, config: PlayConfig) -> None:
        """Start a game with ``config`` on a fresh game screen."""
        game = get(config.game)
        check_seats(game, config.seats, config.options)
        self.config = config
        self.session = PlaySession(game, config.seats, config.options, seed=config.seed)
        self.push_screen(GameScreen(self.session, config, self.clock))

    def show_scores(self, title: str, outcome: Outcome, names: Sequence[str], note: str) -> None:
        """Replace the game screen by the final scores."""
        self.switch_screen(ScoreScreen(title, outcome, names, note))

    def new_game(self) -> None:
        """Back to the start screen for another game."""
        if self.config is not None:
            self.config = replace(self.config, seats=[], seed=None)
        self.switch_screen(StartScreen())


class WatchScreen(Screen[None]):
    """Steps through a record in the spectator's view of the same game screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", "Next", priority=True),
        Binding("left,b", "step(-1)", "Back", priority=True),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("q,escape", "app.quit", "Quit"),
    ]

    def __init__(self, record: Record) -> None:
        super().__init__()
        self.record = record
        self.game = get(record.game)
        self.names = [p.name for p in record.players]
        self.match = Match(
            self.game, len(record.players), record.options, seed=record.seed, setup=record.setup
        )
        self.views: list[dict[str, Any]] = [self.match.state.view(None)]
        self.logs: list[list[str]] = [[]]
        log: list[str] = []
        for seat, text in record.actions:
            events = self.match.play(seat, text)
            log = log + [
                describe(self.game.name, e, self.names) for e in visible_events(events, None)
            ]
            self.views.append(self.match.state.view(None))
            self.logs.append(log[-5:])
        self.index = 0

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        yield Status(id="status")
        with Horizontal(id="main"):
            yield Board(id="board")
            yield OptionList(id="actions")
        yield EventLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        """Start when the screen or app is shown."""
        self.draw()

    def draw(self) -> None:
        """Draw the position after :attr:`index` actions."""
        total = len(self.record.actions)
        view = self.views[self.index]
        self.query_one("#board", Board).show(render_view(view, self.names))
        self.query_one("#log", EventLog).show("\n".join(self.logs[self.index]))
        status = f"{self.game.title} replay — action {self.index}/{total}"
        if self.index:
            seat, text = self.record.actions[self.index - 1]
            status += f": {self.names[seat]} {text}"
        outcome = self.match.state.outcome() if self.match.state.is_terminal() else None
        if self.index == total and outcome is not None:
            winners = ", ".join(self.names[s] for s in outcome.winners)
            status += f" — over, won by {winners}"
        self.query_one("#status", Status).show(status)
        options = self.query_one("#actions", OptionList)
        options.clear_options()
        upcoming = self.record.actions[self.index : self.index + 9]
        options.add_options([f"{self.names[s]}: {t}" for s, t in upcoming])

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

    CSS = CSS
    TITLE = "Campfire replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, record: Record) -> None:
        super().__init__()
        self.record = record

    def on_mount(self) -> None:
        """Start when the screen or app is shown."""
        self.watch_terminal()
        self.push_screen(WatchScreen(self.record))
