"""Tutorials: short lessons, each on an explicit setup, that teach a game one rule at a time.

A game carries its lessons as package data (``lessons/*.json`` of the game's package,
:meth:`Game.package_files`), one file per lesson, read in the order of their names
(``01-setup.json``, ``02-turn.json``, …). A lesson fixes every card — the game's own explicit
``setup`` (what :meth:`Game.new_game` takes) or a whole ``position`` (what
:meth:`State.to_position` writes) — plus an optional ``prelude`` of moves played silently to reach
the situation, and then a list of steps:

- ``{"say": WORDS}``: a text to read (the learner presses *Continue*);
- ``{"ask": "NOTATION", "say": WORDS, "done": WORDS, "wrong": WORDS}``: the learner is asked to
  make this move (the table highlights it); ``done`` explains what happened after it, ``wrong``
  (optional) why another move is not the one asked; an illegal try gets the engine's reason;
- ``{"seat": N, "play": "NOTATION"}``: another seat's move, played as soon as it is reached.

``WORDS`` is an object with the text in every language of :data:`LANGUAGES`
(``{"en": …, "hu": …, "cs": …}``); ``{move}`` in it stands for the asked move as the table
words it (its label in the game's presenter, in the reader's language). ``docs/learn.md``
describes the format; :func:`check_lesson` is the test every lesson passes.

A :class:`Tutorial` runs one lesson for one learner. It is a pure function of the lesson and the
number of steps done (a correct answer always plays the asked move, a wrong one changes
nothing), so a server may rebuild it for each request (:meth:`Tutorial.at`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .actions import Action
from .errors import CampfireError, ErrorText, NotationError
from .events import Event, visible_events
from .game import Game
from .present import MESSAGES, ActionChoice, CardFace, Display, Message, text
from .state import State
from .validate import loads_json

__all__ = [
    "LANGUAGES",
    "LESSON_FIELDS",
    "MAX_MOVE_CHARS",
    "Answer",
    "Lesson",
    "LessonError",
    "Step",
    "Tutorial",
    "check_lesson",
    "lesson",
    "lessons",
    "read_lesson",
]

#: the languages every text of a lesson is written in
LANGUAGES = ("en", "hu", "cs")

#: the fields of a lesson file (``players``, ``title`` and ``steps`` are required, and one of
#: ``setup`` and ``position``)
LESSON_FIELDS = (
    "title",
    "players",
    "options",
    "seed",
    "setup",
    "position",
    "prelude",
    "learner",
    "steps",
)

#: the longest move notation a learner's try may be (a longer one is refused unread)
MAX_MOVE_CHARS = 100

#: a lesson's id: its file name without ``.json``
LESSON_ID = re.compile(r"^[0-9]{2}-[a-z0-9-]{1,40}$")

_STEP_FIELDS = {
    "say": ("say",),
    "ask": ("ask", "say", "done", "wrong"),
    "play": ("seat", "play"),
}

#: how many of the newest log lines a tutorial keeps
LOG_LINES = 12


class LessonError(CampfireError):
    """A lesson file that cannot be read or played as written."""


Words = Mapping[str, str]


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a text to read, a move asked of the learner, or another's move.

    ``kind`` is ``say``, ``ask`` or ``play``; ``move`` the asked or played notation; ``seat``
    the seat that plays (``play``); ``say``, ``done`` and ``wrong`` the texts by language.
    """

    kind: str
    say: Words = field(default_factory=dict)
    move: str = ""
    seat: int | None = None
    done: Words = field(default_factory=dict)
    wrong: Words = field(default_factory=dict)


@dataclass(frozen=True)
class Lesson:
    """One lesson of a game's tutorial, as read from its file (see the module's docstring)."""

    game: str
    id: str
    title: Words
    players: int
    steps: tuple[Step, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    setup: Mapping[str, Any] | None = None
    position: Mapping[str, Any] | None = None
    prelude: tuple[tuple[int, str], ...] = ()
    learner: int = 0

    def words(self, words: Words, lang: str) -> str:
        """``words`` in ``lang`` (English when the lesson lacks it)."""
        return words.get(lang) or words.get("en", "")

    def start(self, game: Game[Any]) -> State:
        """The state the lesson starts from: its setup or position, then its prelude played."""
        if self.position is not None:
            state: State = game.state_from_position(self.position)
        else:
            state = game.new_game(self.players, self.options, seed=self.seed, setup=self.setup)
        for seat, notation in self.prelude:
            state.apply(seat, game.parse_action(notation))
        return state


@dataclass(frozen=True)
class Answer:
    """What became of a learner's try: whether it was the move asked, and the explanation."""

    correct: bool
    note: str


def _fail(message: ErrorText) -> LessonError:
    return LessonError(message)


def _words(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise _fail(
            ErrorText("lesson {where}: a text is an object of language → string", where=where)
        )
    return dict(value)


def _step(raw: Any, where: str) -> Step:
    if not isinstance(raw, dict):
        raise _fail(ErrorText("lesson {where}: a step is an object", where=where))
    kind = "ask" if "ask" in raw else "play" if "play" in raw else "say"
    unknown = sorted(set(raw) - set(_STEP_FIELDS[kind]))
    if unknown:
        raise _fail(
            ErrorText(
                "lesson {where}: unknown field {field} in a step of kind {kind}",
                where=where,
                field=unknown[0],
                kind=kind,
            )
        )
    if kind == "play":
        seat, move = raw.get("seat"), raw.get("play")
        if type(seat) is not int or not isinstance(move, str):
            raise _fail(
                ErrorText(
                    "lesson {where}: a played step has a seat (a number) and a move (a string)",
                    where=where,
                )
            )
        return Step("play", move=move, seat=seat)
    if kind == "ask":
        if not isinstance(raw["ask"], str):
            raise _fail(ErrorText("lesson {where}: the asked move is a string", where=where))
        return Step(
            "ask",
            say=_words(raw.get("say"), where),
            move=raw["ask"],
            done=_words(raw.get("done"), where),
            wrong=_words(raw.get("wrong", {}), where),
        )
    return Step("say", say=_words(raw.get("say"), where))


def read_lesson(game: str, lesson_id: str, data: str | bytes) -> Lesson:
    """Read a lesson file's JSON text (raise :class:`LessonError` naming what is wrong).

    This reads the file's shape only; :func:`check_lesson` plays it through.
    """
    where = f"{game}/{lesson_id}"
    if not LESSON_ID.match(lesson_id):
        raise _fail(
            ErrorText(
                "lesson {where}: a lesson's file name is two digits, a dash and lower-case words",
                where=where,
            )
        )
    raw = loads_json(data, f"lesson {where}", error=LessonError)
    if not isinstance(raw, dict):
        raise _fail(ErrorText("lesson {where}: a lesson is a JSON object", where=where))
    unknown = sorted(set(raw) - set(LESSON_FIELDS))
    if unknown:
        raise _fail(
            ErrorText("lesson {where}: unknown field {field}", where=where, field=unknown[0])
        )
    if ("setup" in raw) == ("position" in raw):
        raise _fail(
            ErrorText("lesson {where}: a lesson has either a setup or a position", where=where)
        )
    players: Any = raw.get("players")
    seed, learner = raw.get("seed", 0), raw.get("learner", 0)
    if not all(type(v) is int for v in (players, seed, learner)):
        raise _fail(ErrorText("lesson {where}: players, seed and learner are numbers", where=where))
    prelude = raw.get("prelude", [])
    if not isinstance(prelude, list) or not all(
        isinstance(p, list) and len(p) == 2 and type(p[0]) is int and isinstance(p[1], str)
        for p in prelude
    ):
        raise _fail(
            ErrorText("lesson {where}: the prelude is a list of [seat, move] pairs", where=where)
        )
    steps = raw.get("steps")
    if not isinstance(steps, list) or not steps:
        raise _fail(ErrorText("lesson {where}: a lesson has a list of steps", where=where))
    options = raw.get("options", {})
    for name in ("options", "setup", "position"):
        if not isinstance(raw.get(name, {}), dict):
            raise _fail(ErrorText("lesson {where}: {field} is an object", where=where, field=name))
    return Lesson(
        game=game,
        id=lesson_id,
        title=_words(raw.get("title"), where),
        players=int(players),
        steps=tuple(_step(s, f"{where} step {i + 1}") for i, s in enumerate(steps)),
        options=options,
        seed=seed,
        setup=raw.get("setup"),
        position=raw.get("position"),
        prelude=tuple((int(p[0]), str(p[1])) for p in prelude),
        learner=learner,
    )


@lru_cache(maxsize=64)
def _lessons(game: Game[Any]) -> tuple[Lesson, ...]:
    folder = game.package_files().joinpath("lessons")
    if not folder.is_dir():
        return ()
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)
    return tuple(read_lesson(game.name, f.name[: -len(".json")], f.read_bytes()) for f in files)


def lessons(game: Game[Any]) -> list[Lesson]:
    """The lessons of ``game``'s tutorial in order (none: the game has no tutorial)."""
    return list(_lessons(game))


def lesson(game: Game[Any], lesson_id: str) -> Lesson:
    """The lesson ``lesson_id`` of ``game`` (raise :class:`LessonError` if there is none)."""
    for found in _lessons(game):
        if found.id == lesson_id:
            return found
    raise LessonError(
        ErrorText("{game} has no lesson {lesson}", game=game.name, lesson=lesson_id[:60])
    )


class Tutorial:
    """One lesson in progress for its learner: the table as the learner sees it, and the texts.

    ``index`` is the step the learner is at (``len(lesson.steps)``: the lesson is over);
    ``played`` tells whether the learner got there by making the move asked (then :attr:`note`
    explains it). Other seats' moves are played as soon as they are reached.
    """

    def __init__(self, game: Game[Any], lesson: Lesson, names: Sequence[str] | None = None):
        self.game = game
        self.lesson = lesson
        self.presenter = game.presenter()
        self.names = (
            list(names)
            if names is not None
            else [
                text("core.player", "Player {number}", number=i + 1) for i in range(lesson.players)
            ]
        )
        self.state = lesson.start(game)
        self.index = 0
        #: the step whose ``done`` text explains the move just made (``None``: none)
        self.answered: Step | None = None
        #: the events the learner saw since the lesson started, as log messages
        self.events: list[Event] = []
        #: the cards the learner's last move showed the learner alone (a peek)
        self.reveals: list[CardFace] = []
        self._settle()

    @classmethod
    def at(
        cls, game: Game[Any], lesson: Lesson, index: int, names: Sequence[str] | None = None
    ) -> Tutorial:
        """The lesson at step ``index``, as a learner who made every asked move gets there.

        (Or at the first step after ``index`` where the learner stops: others' moves play on.)
        """
        tutorial = cls(game, lesson, names)
        while tutorial.index < index and not tutorial.finished:
            step = tutorial.step
            assert step is not None
            if step.kind == "ask":
                tutorial.answer(step.move)
            else:
                tutorial.go_on()
        return tutorial

    # ----- where the learner is -----------------------------------------------------------

    @property
    def finished(self) -> bool:
        """Whether every step of the lesson is done."""
        return self.index >= len(self.lesson.steps)

    @property
    def step(self) -> Step | None:
        """The step the learner is at (``None``: the lesson is over)."""
        return None if self.finished else self.lesson.steps[self.index]

    @property
    def asked(self) -> str | None:
        """The notation of the move asked now (``None``: a text to read)."""
        step = self.step
        return step.move if step is not None and step.kind == "ask" else None

    def display(self) -> Display:
        """The table as the learner sees it, with the learner's legal moves when it is to act.

        The moves are there during a text too, so the table reads as in a game; a user
        interface lets the learner choose only while a move is asked (:attr:`asked`).
        """
        seat = self.lesson.learner
        legal: list[Action] = []
        if not self.state.is_terminal() and seat in self.state.seats_to_act():
            legal = list(self.state.legal_actions(seat))
        return self.presenter.display(self.state.view(seat), legal, self.names)

    def choice(self, display: Display | None = None) -> ActionChoice | None:
        """The asked move as the table offers it (what a user interface highlights)."""
        asked = self.asked
        if asked is None:
            return None
        model = display if display is not None else self.display()
        return _find(model, asked)

    def move_label(self, display: Display | None = None) -> str:
        """The asked move in the table's words (its notation if the table has none)."""
        choice = self.choice(display)
        if choice is None:
            return self.asked or ""
        return choice.answer.label if choice.answer is not None else choice.label

    def words(self, lang: str, display: Display | None = None) -> str:
        """The current step's text in ``lang``, ``{move}`` filled with the asked move's label."""
        step = self.step
        if step is None:
            return ""
        said = self.lesson.words(step.say, lang)
        return said.replace("{move}", self.move_label(display)) if "{move}" in said else said

    def note(self, lang: str) -> str:
        """The explanation of the move the learner just made (``""``: none)."""
        if self.answered is None:
            return ""
        return self.lesson.words(self.answered.done, lang)

    def log(self) -> list[Message]:
        """The newest log lines of what the learner saw happen in the lesson."""
        seat = self.lesson.learner
        messages = self.presenter.messages(self.events, self.names, seat)
        return messages[-LOG_LINES:]

    # ----- the learner acts ---------------------------------------------------------------

    def go_on(self) -> None:
        """*Continue*: past a text to read (nothing happens while a move is asked)."""
        step = self.step
        if step is not None and step.kind == "say":
            self.answered = None
            self.reveals = []
            self.index += 1
            self._settle()

    def answer(self, notation: str, lang: str = "en") -> Answer:
        """The learner tries ``notation``: the asked move goes on, another is explained.

        A legal move that is not the one asked, or one that is no move now, changes nothing; the
        answer says why (the step's ``wrong`` text, or the engine's reason for an illegal try)
        in ``lang``. A variant of the asked answer (a claim at another reaction time) counts as
        the asked move, which is then played as written.
        """
        step = self.step
        if step is None or step.kind != "ask":
            return Answer(False, _wrong_text("core.tutorial.read", self.move_label()))
        if len(notation) > MAX_MOVE_CHARS:
            return Answer(False, _wrong_text("core.tutorial.unknown", self.move_label()))
        seat = self.lesson.learner
        display = self.display()
        try:
            tried = self.game.canonical_action(notation.strip())
        except NotationError:
            return Answer(False, self._wrong(step, lang, display, "core.tutorial.unknown"))
        legal = self.state.legal_actions(seat) if seat in self.state.seats_to_act() else []
        if tried not in legal:
            return Answer(False, self._wrong(step, lang, display, "core.tutorial.illegal"))
        if not _same(display, str(tried), step.move):
            return Answer(False, self._wrong(step, lang, display, "core.tutorial.wrong"))
        events = self._play(seat, step.move)
        self.reveals = [r.card for r in self.presenter.step_display(events, seat).reveals]
        self.answered = step
        self.index += 1
        self._settle()
        return Answer(True, self.lesson.words(step.done, lang))

    def _wrong(self, step: Step, lang: str, display: Display, message_id: str) -> str:
        label = self.move_label(display)
        said = self.lesson.words(step.wrong, lang).replace("{move}", label) if step.wrong else ""
        generic = _wrong_text(message_id, label)
        return f"{generic} {said}".strip()

    def _play(self, seat: int, notation: str) -> list[Event]:
        events = visible_events(
            self.state.apply(seat, self.game.parse_action(notation)), self.lesson.learner
        )
        self.events.extend(events)
        return events

    def _settle(self) -> None:
        """Play the other seats' moves that come next."""
        while not self.finished:
            step = self.lesson.steps[self.index]
            if step.kind != "play":
                return
            assert step.seat is not None
            self._play(step.seat, step.move)
            self.index += 1


def _wrong_text(message_id: str, label: str) -> str:
    return text(message_id, MESSAGES[message_id], move=label)


def _find(display: Display, notation: str) -> ActionChoice | None:
    for choice in display.actions:
        if choice.notation == notation:
            return choice
    return None


def _same(display: Display, tried: str, asked: str) -> bool:
    """Whether ``tried`` is the asked move, or a variant of the same answer (its time)."""
    if tried == asked:
        return True
    one, other = _find(display, tried), _find(display, asked)
    return (
        one is not None
        and other is not None
        and one.answer is not None
        and other.answer is not None
        and one.answer.notation == other.answer.notation
    )


# ----- checking a lesson ----------------------------------------------------------------------


def _check_words(words: Words, what: str, problems: list[str]) -> None:
    for lang in LANGUAGES:
        said = words.get(lang, "")
        if not said.strip():
            problems.append(f"{what}: no text in {lang}")
            continue
        names = {name for _, name, _, _ in string.Formatter().parse(said) if name is not None}
        if names - {"move"}:
            problems.append(f"{what} ({lang}): unknown placeholder {sorted(names - {'move'})}")
    extra = sorted(set(words) - set(LANGUAGES))
    if extra:
        problems.append(f"{what}: a text in a language Campfire does not speak: {extra}")


def check_lesson(game: Game[Any], lesson: Lesson) -> list[str]:
    """Every problem of ``lesson`` (none: it plays as written): what the tests check.

    The setup (or position) is legal, every prelude move, asked move and other seat's move is
    legal for its seat at its step, an asked move is one the table offers (so it can be
    pointed at), every text is there in every language of :data:`LANGUAGES`, and the lesson
    runs to its end.
    """
    problems: list[str] = []
    _check_words(lesson.title, "title", problems)
    if not any(step.kind == "ask" for step in lesson.steps):
        problems.append("no move is asked of the learner")
    for number, step in enumerate(lesson.steps, 1):
        if step.kind in ("say", "ask"):
            _check_words(step.say, f"step {number}", problems)
        if step.kind == "ask":
            _check_words(step.done, f"step {number} (done)", problems)
            if step.wrong:
                _check_words(step.wrong, f"step {number} (wrong)", problems)
    try:
        tutorial = Tutorial(game, lesson)
    except CampfireError as exc:
        return [*problems, f"the lesson does not start: {exc}"]
    seat = lesson.learner
    if not 0 <= seat < lesson.players:
        return [*problems, f"the learner {seat} is no seat"]
    while not tutorial.finished:
        number = tutorial.index + 1
        current = tutorial.step
        assert current is not None
        if current.kind == "say":
            tutorial.go_on()
            continue
        state = tutorial.state
        if seat not in state.seats_to_act():
            return [*problems, f"step {number}: the learner is not to act"]
        if tutorial.choice() is None:
            return [*problems, f"step {number}: {current.move!r} is not a move the table offers"]
        try:
            answer = tutorial.answer(current.move)
        except CampfireError as exc:  # a later seat's scripted move failed
            return [*problems, f"after step {number}: {exc}"]
        if not answer.correct:
            return [*problems, f"step {number}: {current.move!r} is not legal"]
    return problems
