"""Tutorials (core/tutorial.py): every built-in game's lessons play as written, in all languages."""

from __future__ import annotations

import json
from typing import Any

import pytest

from campfire.core import Game
from campfire.core.present import translation
from campfire.core.tutorial import (
    LANGUAGES,
    Lesson,
    LessonError,
    Step,
    Tutorial,
    check_lesson,
    lesson,
    lessons,
    read_lesson,
)

from ..built_in import built_in_games

GAMES = built_in_games()
LESSONS = [(game, each) for game in GAMES for each in lessons(game)]


def _ids(value: Any) -> str:
    return value.name if isinstance(value, Game) else getattr(value, "id", str(value))


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_every_built_in_game_has_a_tutorial_of_at_least_three_lessons(game: Game[Any]) -> None:
    """A first game needs setup, a turn, the scoring and the end: three lessons at least."""
    found = lessons(game)
    assert len(found) >= 3
    assert [each.id for each in found] == sorted(each.id for each in found)
    assert all(each.game == game.name for each in found)


@pytest.mark.parametrize(("game", "each"), LESSONS, ids=_ids)
def test_each_lesson_is_legal_and_complete(game: Game[Any], each: Lesson) -> None:
    """The setup is legal, every asked and played move is legal at its step, every text is in
    every language, and the lesson runs to its end (check_lesson says why when not)."""
    assert check_lesson(game, each) == []
    tutorial = Tutorial.at(game, each, len(each.steps))
    assert tutorial.finished


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_each_tutorial_reaches_the_end_of_a_game(game: Game[Any]) -> None:
    """The last lesson of every tutorial plays to the end of a game: its scoring is shown."""
    last = lessons(game)[-1]
    tutorial = Tutorial.at(game, last, len(last.steps))
    assert tutorial.state.is_terminal()
    assert tutorial.display().result


@pytest.mark.parametrize(("game", "each"), LESSONS, ids=_ids)
def test_every_asked_move_is_offered_by_the_table_and_named_in_the_text(
    game: Game[Any], each: Lesson
) -> None:
    """An asked move is one the table shows (a user interface highlights it), and ``{move}``
    is filled with its label in every language."""
    tutorial = Tutorial(game, each)
    while not tutorial.finished:
        step = tutorial.step
        assert step is not None
        if step.kind == "ask":
            choice = tutorial.choice()
            assert choice is not None
            for lang in LANGUAGES:
                words = tutorial.words(lang)
                assert words and "{move}" not in words
            tutorial.answer(step.move)
        else:
            tutorial.go_on()


def _first_ask(game: Game[Any], each: Lesson) -> Tutorial:
    tutorial = Tutorial(game, each)
    while tutorial.asked is None:
        tutorial.go_on()
    return tutorial


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_a_wrong_move_is_explained_and_changes_nothing(game: Game[Any]) -> None:
    """Another legal move than the one asked is refused with words, the table unchanged."""
    tutorial = _first_ask(game, lessons(game)[0])
    asked = tutorial.asked
    before = json.dumps(tutorial.state.to_position(), sort_keys=True)
    seat = tutorial.lesson.learner
    display = tutorial.display()
    others = [
        c.notation
        for c in display.actions
        if c.notation != asked and (c.answer is None or c.answer != (tutorial.choice() or c).answer)
    ]
    index = tutorial.index
    for notation in [*others[:3], "no such move", "x" * 500]:
        answer = tutorial.answer(notation)
        assert not answer.correct
        assert tutorial.move_label() in answer.note
        assert tutorial.index == index
        assert json.dumps(tutorial.state.to_position(), sort_keys=True) == before
    assert seat in tutorial.state.seats_to_act()
    assert asked is not None
    assert tutorial.answer(asked).correct
    assert tutorial.index > index


def test_a_wrong_move_gets_the_lessons_own_words_in_the_readers_language() -> None:
    """A step's ``wrong`` text follows the generic sentence, in the language asked for."""
    game, each = next(
        (g, e) for g, e in LESSONS if any(s.kind == "ask" and s.wrong for s in e.steps)
    )
    tutorial = Tutorial(game, each)
    while not (tutorial.step and tutorial.step.kind == "ask" and tutorial.step.wrong):
        step = tutorial.step
        assert step is not None
        if step.kind == "ask":
            tutorial.answer(step.move)
        else:
            tutorial.go_on()
    step = tutorial.step
    other = next(c.notation for c in tutorial.display().actions if c.notation != step.move)
    for lang in LANGUAGES:
        wrong = step.wrong[lang].replace("{move}", tutorial.move_label())
        assert wrong in tutorial.answer(other, lang).note


def test_the_generic_sentence_is_translated_through_the_core_catalogue() -> None:
    """The sentence before a lesson's own words goes through the translator in force."""
    game, each = LESSONS[0]
    tutorial = _first_ask(game, each)
    with translation(lambda mid, tpl, p: f"<{mid}>"):
        note = tutorial.answer("no such move").note
    assert note.startswith("<core.tutorial.unknown>")


def test_a_variant_of_the_asked_answer_counts_and_the_asked_move_is_played() -> None:
    """A timed variant of the asked answer (another reaction time) is the asked move."""
    for game, each in LESSONS:
        tutorial = Tutorial(game, each)
        while not tutorial.finished:
            step = tutorial.step
            assert step is not None
            if step.kind != "ask":
                tutorial.go_on()
                continue
            choice = tutorial.choice()
            assert choice is not None
            if choice.answer is not None:
                variant = next(
                    c.notation
                    for c in tutorial.display().actions
                    if c.answer == choice.answer and c.notation != step.move
                )
                assert tutorial.answer(variant).correct
                last = tutorial.state.to_position()
                replayed = Tutorial.at(game, each, tutorial.index)
                assert replayed.state.to_position() == last
                return
            tutorial.answer(step.move)
    pytest.skip("no built-in lesson asks for a timed answer")


def test_the_tutorial_at_a_step_is_the_one_played_there() -> None:
    """``Tutorial.at`` rebuilds the lesson after n steps: the same table, texts and note."""
    game, each = LESSONS[0]
    played = Tutorial(game, each)
    while True:
        rebuilt = Tutorial.at(game, each, played.index)
        assert rebuilt.index == played.index
        assert rebuilt.display() == played.display()
        assert rebuilt.note("hu") == played.note("hu")
        assert [m.text for m in rebuilt.log()] == [m.text for m in played.log()]
        step = played.step
        if step is None:
            break
        if step.kind == "ask":
            played.answer(step.move)
        else:
            played.go_on()


def test_a_peek_shows_the_learner_the_card_it_saw() -> None:
    """A move that shows the learner a card privately (a peek) leaves it in ``reveals``."""
    seen = False
    for game, each in LESSONS:
        tutorial = Tutorial(game, each)
        while not tutorial.finished:
            step = tutorial.step
            assert step is not None
            if step.kind == "ask":
                tutorial.answer(step.move)
                seen = seen or bool(tutorial.reveals)
            else:
                tutorial.go_on()
                assert tutorial.reveals == []
    assert seen


def _lesson(**changes: Any) -> dict[str, Any]:
    game = GAMES[0]
    raw: dict[str, Any] = {
        "title": {lang: "T" for lang in LANGUAGES},
        "players": game.min_players,
        "setup": {},
        "steps": [{"say": {lang: "Hello" for lang in LANGUAGES}}],
    }
    raw.update(changes)
    return raw


@pytest.mark.parametrize(
    ("raw", "lesson_id", "message"),
    [
        ("[]", "01-x", "a lesson is a JSON object"),
        (json.dumps(_lesson(colour=1)), "01-x", "unknown field colour"),
        (json.dumps(_lesson(position={})), "01-x", "either a setup or a position"),
        (json.dumps(_lesson(steps=[])), "01-x", "a list of steps"),
        (json.dumps(_lesson(players="2")), "01-x", "are numbers"),
        (json.dumps(_lesson(prelude=[[0]])), "01-x", "[seat, move] pairs"),
        (json.dumps(_lesson(steps=[{"ask": 3}])), "01-x", "a string"),
        (json.dumps(_lesson(steps=[{"say": "hi"}])), "01-x", "language → string"),
        (json.dumps(_lesson(steps=[{"play": "x", "seat": "1"}])), "01-x", "a seat"),
        (json.dumps(_lesson(steps=[{"say": {}, "done": {}}])), "01-x", "unknown field done"),
        (json.dumps(_lesson()), "intro", "two digits"),
        ('{"a": 1, "a": 2}', "01-x", "twice"),
    ],
)
def test_a_malformed_lesson_file_is_refused_with_a_reason(
    raw: str, lesson_id: str, message: str
) -> None:
    """The reader names what is wrong with a lesson file."""
    with pytest.raises(LessonError, match="lesson") as caught:
        read_lesson(GAMES[0].name, lesson_id, raw)
    assert message in str(caught.value)


def test_check_lesson_reports_missing_texts_illegal_moves_and_bad_setups() -> None:
    """What check_lesson finds: a missing language, an unknown placeholder, no asked move, an
    asked move that is not legal, a setup the game refuses."""
    game = GAMES[0]
    good = lessons(game)[0]
    no_czech = Step("say", say={"en": "a", "hu": "b"})
    placeholder = Step("say", say={lang: "{card}" for lang in LANGUAGES})
    problems = check_lesson(game, Lesson(game.name, "01-x", good.title, good.players, (no_czech,)))
    assert "step 1: no text in cs" in problems
    assert "no move is asked of the learner" in problems
    problems = check_lesson(
        game, Lesson(game.name, "01-x", good.title, good.players, (placeholder,))
    )
    assert any("unknown placeholder" in p for p in problems)
    ask = next(s for s in good.steps if s.kind == "ask")
    illegal = Step("ask", ask.say, "no such move", done=ask.done)
    bad = Lesson(
        game.name,
        "01-x",
        good.title,
        good.players,
        (illegal,),
        setup=good.setup,
        position=good.position,
        prelude=good.prelude,
    )
    assert any("not a move the table offers" in p for p in check_lesson(game, bad))
    broken = Lesson(game.name, "01-x", good.title, good.players, good.steps, setup={"x": 1})
    assert any("does not start" in p for p in check_lesson(game, broken))


def test_an_unknown_lesson_is_refused() -> None:
    """Asking a game for a lesson it does not have raises LessonError."""
    with pytest.raises(LessonError, match="no lesson"):
        lesson(GAMES[0], "99-nothing")
    assert lesson(GAMES[0], lessons(GAMES[0])[0].id) == lessons(GAMES[0])[0]
