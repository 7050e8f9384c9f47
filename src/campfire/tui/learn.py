"""Learn to play: a game's tutorial in the terminal (``campfire play``, *Learn to play*).

:class:`LessonsScreen` lists every game's lessons (:func:`campfire.core.tutorial.lessons`);
:class:`TutorialScreen` runs one on the game screen's own widgets: the table as the learner sees
it, the lesson's text beside it, the asked move highlighted on the board and marked first in the
list of moves, the explanation of what happened after the asked move and of why another move is
not the one asked, and at the end the next lesson or, after the last, a first game against the
``easy`` bot. The screens know no game: everything comes from the lesson files and the game's
presenter.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from campfire.core import CampfireError, Game, all_games, get
from campfire.core.present import ActionChoice, Display
from campfire.core.tutorial import Lesson, Tutorial, lessons
from campfire.i18n import N_, _, current, game_title, translate
from campfire.i18n.names import bot_name

from .app import CampfireApp, PlayConfig, RulesScreen, Translated
from .session import SeatSpec, player_name
from .widgets import Board, Choices, GameLog, MoveInput, Players, StatusBar

__all__ = ["LessonsScreen", "TutorialScreen", "fold_answers"]

#: marks the asked move in the list of moves
ASKED = "▶ "


def fold_answers(actions: tuple[ActionChoice, ...], asked: str | None) -> list[ActionChoice]:
    """One choice per answer: timed variants of one answer (a claim at 0, 50, … ms) shown once.

    The variant kept is the asked one when it is among them, else the first; it is labelled with
    the answer's label. The asked move comes first, marked with :data:`ASKED`.
    """
    out: list[ActionChoice] = []
    seen: dict[str, int] = {}
    for choice in actions:
        if choice.answer is None:
            out.append(choice)
            continue
        key = choice.answer.notation
        folded = replace(choice, label=choice.answer.label, key=choice.answer.key or key)
        if key not in seen:
            seen[key] = len(out)
            out.append(folded)
        elif choice.notation == asked:
            out[seen[key]] = folded
    first = [c for c in out if c.notation == asked]
    rest = [c for c in out if c.notation != asked]
    return [replace(c, label=ASKED + c.label) for c in first] + rest


class LessonsScreen(Translated, Screen[None]):
    """The lessons of every game that has a tutorial; Enter (or a click) starts one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
    ]

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        yield Static(_("Learn to play — pick a lesson"), id="title")
        yield OptionList(id="lessons")
        yield Static(
            _("Each lesson sets up a table and asks you for one move at a time."), id="hint"
        )
        yield Footer()

    def on_mount(self) -> None:
        """Fill the list of lessons."""
        options = self.query_one("#lessons", OptionList)
        lang = current().language
        self.entries: list[tuple[str, str]] = []
        for game in all_games():
            for number, lesson in enumerate(lessons(game), 1):
                text = f"{game_title(game)} — {number}. {lesson.words(lesson.title, lang)}"
                options.add_option(Option(text, id=str(len(self.entries))))
                self.entries.append((game.name, lesson.id))
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Start the lesson chosen."""
        if event.option.id is None:
            return
        name, lesson_id = self.entries[int(event.option.id)]
        game = get(name)
        found = lessons(game)
        index = next(i for i, lesson in enumerate(found) if lesson.id == lesson_id)
        self.app.push_screen(TutorialScreen(game, index))

    def action_back(self) -> None:
        """Back to the start screen."""
        self.app.pop_screen()


class TutorialScreen(Translated, Screen[None]):
    """One lesson: the table, the lesson's text, the asked move highlighted, the explanations."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "go_on", N_("Continue")),
        Binding("f1", "rules", N_("Rules")),
        Binding("escape", "back", N_("Lessons")),
    ]

    def __init__(self, game: Game[Any], index: int) -> None:
        super().__init__()
        self.game = game
        self.lessons: list[Lesson] = lessons(game)
        self.number = index
        self.tutorial = Tutorial(game, self.lessons[index], [_("You"), *self._others()])
        #: the explanation on show (of the move just made, or of a wrong one)
        self.note = ""
        self.wrong = False
        self.offered: list[ActionChoice] = []

    def _others(self) -> list[str]:
        players = self.lessons[self.number].players
        return [player_name(seat + 1) for seat in range(1, players)]

    # ----- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Lay out the screen."""
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="board-box"):
                yield Board(id="board")
                yield Players(id="players")
            with Vertical(id="side"):
                with VerticalScroll(id="lesson-box"):
                    yield Static("", id="lesson-text", markup=False)
                    yield Static("", id="lesson-note", markup=False)
                with Horizontal(id="lesson-buttons"):
                    yield Button(_("Continue"), id="continue", variant="primary")
                    yield Button(_("Next lesson"), id="next")
                    yield Button(_("Play against easy"), id="first-game")
                yield Choices(id="actions")
        yield GameLog(id="log")
        yield MoveInput(id="move")
        yield Footer()

    def on_mount(self) -> None:
        """Show the lesson's first step."""
        self.refresh_view()

    # ----- drawing -----------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Redraw the table, the text, the note, the moves and the buttons."""
        tutorial = self.tutorial
        lang = current().language
        display = tutorial.display()
        choice = tutorial.choice(display)
        asked = tutorial.asked
        self.offered = fold_answers(display.actions, asked) if asked is not None else []
        pointable = [c.target for c in self.offered if c.target]
        pointable += [c.source for c in self.offered if c.source]
        board = self.query_one("#board", Board)
        board.show(
            display,
            pointable,
            cursor=choice.target if choice else None,
            selected=choice.source if choice else None,
        )
        lesson = tutorial.lesson
        title = _("Lesson {number} of {count}: {title}").format(
            number=self.number + 1, count=len(self.lessons), title=lesson.words(lesson.title, lang)
        )
        self.query_one("#status", StatusBar).show(
            f"{game_title(self.game)} — {title}", self._prompt(display)
        )
        text = tutorial.words(lang, display)
        if tutorial.finished:
            text = self._finished_text()
        if display.over and display.result:  # the game's end: its scores, as the table says them
            text = "\n".join([text, "", *display.result]).strip()
        self.query_one("#lesson-text", Static).update(text)
        note = self.note or tutorial.note(lang)
        reveals = [card.label for card in tutorial.reveals if card.label]
        if reveals and not self.wrong:
            note = f"{note}\n" + _("You saw: {cards}").format(cards=", ".join(reveals))
        self.query_one("#lesson-note", Static).update(note)
        self.query_one("#lesson-note", Static).set_class(self.wrong, "wrong")
        self.query_one("#players", Players).show(display.players)
        self.query_one("#actions", Choices).show(self.offered)
        self.query_one("#move", MoveInput).set_keys([c.key or c.notation for c in self.offered])
        self.query_one("#log", GameLog).reset(translate(m) for m in tutorial.log())
        last = self.number + 1 >= len(self.lessons)
        self.query_one("#continue", Button).display = not tutorial.finished and asked is None
        self.query_one("#next", Button).display = tutorial.finished and not last
        self.query_one("#first-game", Button).display = tutorial.finished and last

    def _prompt(self, display: Display) -> str:
        if self.tutorial.finished:
            return _("Lesson finished.")
        if self.tutorial.asked is not None:
            return _("Your move: {move}").format(move=self.tutorial.move_label(display))
        return _("Read, then Continue (Ctrl+N).")

    def _finished_text(self) -> str:
        if self.number + 1 < len(self.lessons):
            return _("Lesson finished. On to the next one?")
        return _(
            "You have finished the tutorial of {game}. Play a first game against the easy bot: "
            "the rules (F1) tell everything else, and the options."
        ).format(game=game_title(self.game))

    # ----- the learner acts --------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Continue, next lesson, or the first game."""
        if event.button.id == "continue":
            self.action_go_on()
        elif event.button.id == "next":
            self.app.switch_screen(TutorialScreen(self.game, self.number + 1))
        elif event.button.id == "first-game":
            self.first_game()

    def action_go_on(self) -> None:
        """Past a text to read."""
        if self.tutorial.asked is None and not self.tutorial.finished:
            self.note, self.wrong = "", False
            self.tutorial.go_on()
            self.refresh_view()

    def try_move(self, notation: str) -> None:
        """The learner tries a move: on when it is the one asked, else an explanation."""
        if self.tutorial.asked is None:
            self.note, self.wrong = _("Read, then Continue (Ctrl+N)."), True
            self.refresh_view()
            return
        answer = self.tutorial.answer(notation, current().language)
        self.wrong = not answer.correct
        self.note = "" if answer.correct else answer.note
        self.refresh_view()

    def action_point_at(self, target: str) -> None:
        """A click on the board: the move there (the asked one if it is there)."""
        here = [c for c in self.offered if target in (c.target, c.source)]
        if not here:
            return
        asked = next((c for c in here if c.notation == self.tutorial.asked), None)
        self.try_move((asked or here[0]).notation)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A move chosen in the list."""
        if event.option_list.id == "actions" and event.option.id is not None:
            index = int(event.option.id)
            if 0 <= index < len(self.offered):
                self.try_move(self.offered[index].notation)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A move typed: its key or notation; Enter alone continues past a text."""
        text = event.value.strip()
        event.input.value = ""
        if not text:
            self.action_go_on()
            return
        low = text.lower()
        match = next(
            (c for c in self.offered if low in ((c.key or "").lower(), c.notation.lower())), None
        )
        self.try_move(match.notation if match is not None else text)

    def first_game(self) -> None:
        """The first game against the ``easy`` bot (the start screen's game, two players)."""
        app = self.app
        if not isinstance(app, CampfireApp):
            return
        players = max(2, self.game.min_players)
        seats = [SeatSpec(_("You"))]
        seats += [SeatSpec(bot_name(n, "easy"), "easy") for n in range(2, players + 1)]
        base = app.config
        config = PlayConfig(
            self.game.name,
            seats,
            {},
            save=base.save if base else None,
            record_dir=base.record_dir if base else None,
            unfinished_dir=base.unfinished_dir if base else None,
            bot_delay=base.bot_delay if base else 0.6,
        )
        try:
            app.start_game(config)
        except CampfireError as exc:  # pragma: no cover - the game's own defaults always play
            self.note, self.wrong = current().error(exc), True
            self.refresh_view()

    def action_rules(self) -> None:
        """The rules of the game (options included)."""
        self.app.push_screen(RulesScreen(self.game))

    def action_back(self) -> None:
        """Back to the list of lessons."""
        self.app.pop_screen()
