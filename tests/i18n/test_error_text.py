"""``ErrorText``: an English error message that the edge words anew in the user's language."""

from __future__ import annotations

import pickle

from campfire.core import ErrorText, IllegalActionError, NotationError, OptionError, RecordError
from campfire.i18n import translator
from campfire.i18n.errors import render


def test_the_english_text_is_the_string_itself() -> None:
    text = ErrorText("seat {seat} chooses now, not seat {other}", seat=1, other=2)
    assert text == "seat 1 chooses now, not seat 2"
    assert (text.template, text.params, text.context) == (
        "seat {seat} chooses now, not seat {other}",
        {"seat": 1, "other": 2},
        None,
    )
    assert ErrorText("no {braces} filled") == "no {braces} filled"  # no parameters: as written
    assert str(NotationError(text)) == text
    assert translator("en").error(NotationError(text)) == text


def test_nested_texts_and_series_are_translated_too() -> None:
    text = ErrorText(
        "a player must play a card every turn; play one of {allowed}",
        allowed=ErrorText("nothing"),
    )
    assert translator("hu").error(text) == (
        "minden körben ki kell játszani egy lapot; játszd ki ezek egyikét: semmi"
    )
    series = ErrorText.series([ErrorText("seat {seat}", seat=1), ErrorText("seat {seat}", seat=2)])
    assert series == "seat 1, seat 2"
    assert render(series, translator("cs")) == "místo 1, místo 2"


def test_an_untranslated_template_keeps_its_english_wording() -> None:
    text = ErrorText("a sentence no catalog knows ({what})", what=ErrorText("nothing"))
    # the template stays English; its parameters are still translated
    assert translator("cs").error(text) == "a sentence no catalog knows (nic)"


def test_a_word_in_context_is_looked_up_with_its_context() -> None:
    word = ErrorText("red", context="core.colour.red")
    assert render(word, translator("hu")) == "piros"
    assert render(ErrorText("red", context="no.such.context"), translator("hu")) == "red"


def test_an_illegal_action_cites_the_rule_in_the_language() -> None:
    exc = IllegalActionError("tracker rules §4.2", ErrorText("the game is over; no seat may act"))
    assert str(exc) == "tracker rules §4.2: the game is over; no seat may act"
    assert (
        translator("cs").error(exc)
        == "pravidla tracker §4.2: hra skončila; nikdo už nemůže táhnout"
    )
    plain = IllegalActionError("turn order", "something only English")
    assert translator("hu").error(plain) == "sorrend: something only English"


def test_a_record_error_names_the_action() -> None:
    exc = RecordError(ErrorText('"meta" must be a JSON object'), index=4)
    assert str(exc) == 'action 4: "meta" must be a JSON object'
    assert translator("hu").error(exc) == 'a(z) 4. sorszámú lépés: a "meta" JSON-objektum'


def test_plain_messages_still_match_the_registered_templates() -> None:
    exc = OptionError("unknown option 'x'; this game's options are: a, b")
    assert translator("cs").error(exc) != str(exc)
    assert translator("cs").error("nothing known here") == "nothing known here"


def test_pickling_keeps_the_template_and_parameters() -> None:
    text = ErrorText("{a} and {b}", a=ErrorText("nothing"), b=2)
    back = pickle.loads(pickle.dumps(NotationError(text)))
    assert back.text == text and back.text.template == "{a} and {b}"
    assert isinstance(back.text.params["a"], ErrorText)
