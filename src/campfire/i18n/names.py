"""The names Campfire gives to seats, said in the reader's language.

Campfire names the seats nobody named itself: a computer player is ``Bot 2 (easy)``, a seat of
the server nobody took ``Seat 3``, a person of the terminal app who gave no name ``Player 2``
(or ``You`` when one person plays). Each is written in the language of whoever made the game,
and a record keeps the names as they were written (``docs/records.md``).

Whoever *shows* a recorded name passes it through :func:`shown_name`: a name Campfire gave, in
any language Campfire speaks, is said again in the reader's language; any other name is shown
as it is. A computer player's name is recognised only for a seat that has an agent, the others
only for a seat that has none, so a person called "Bot 1 (easy)" keeps their name.

>>> from campfire.i18n import translator
>>> bot_name(2, "easy", translator("hu")), shown_name("Bot 2 (easy)", "easy", translator("cs"))
('2. bot (könnyű)', 'Bot 2 (snadný)')
>>> shown_name("2. bot (nehéz)", "hard", translator("en")), shown_name("Ann", None)
('Bot 2 (hard)', 'Ann')
>>> shown_name("Hráč 3", None, translator("hu"))
'3. játékos'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from . import LANGUAGES, N_, Translator, current, translator

__all__ = [
    "BOT",
    "LEVELS",
    "PLAYER",
    "SEAT",
    "YOU",
    "bot_name",
    "level_name",
    "shown_name",
    "shown_names",
]

#: the bots' levels as a name says them
LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
#: a computer player's name
BOT = N_("Bot {number} ({level})")
#: the name of a server's seat that nobody named
SEAT = N_("Seat {number}")
#: the name of a person of the terminal app who gave none
PLAYER = N_("Player {number}")
#: the name of the one person playing in the terminal app who gave none
YOU = N_("You")

#: the most digits a seat number in a name may have
_DIGITS = 3


def level_name(level: str, tr: Translator | None = None) -> str:
    """A bot's level as its name says it (``easy`` → ``könnyű``); another spec as it is."""
    tr = tr or current()
    return tr.gettext(LEVELS[level]) if level in LEVELS else level


def bot_name(number: int, level: str, tr: Translator | None = None) -> str:
    """The name of the computer player of seat ``number`` (counted from 1): ``Bot 2 (easy)``."""
    tr = tr or current()
    return tr.gettext(BOT).format(number=number, level=level_name(level, tr))


@cache
def _patterns() -> tuple[tuple[bool, re.Pattern[str], str], ...]:
    """(for a bot?, pattern, template) of every name Campfire gives, in every language.

    A bot's name with a known level comes before the same name with any level, so that
    ``Bot 2 (snadný)`` is read as Czech (level ``easy``), not as English with the level
    ``snadný``.
    """
    number = rf"(?P<number>[0-9]{{1,{_DIGITS}}})"
    known: list[tuple[bool, re.Pattern[str], str]] = []
    other: list[tuple[bool, re.Pattern[str], str]] = []
    for language in LANGUAGES:
        tr = translator(language)
        levels = {tr.gettext(text): level for level, text in LEVELS.items()}
        for template in (SEAT, PLAYER, YOU):
            text = re.escape(tr.gettext(template)).replace(r"\{number\}", number)
            known.append((False, re.compile(text), template))
        bot = re.escape(tr.gettext(BOT)).replace(r"\{number\}", number)
        for word, level in levels.items():
            known.append((True, re.compile(bot.replace(r"\{level\}", re.escape(word))), level))
        other.append((True, re.compile(bot.replace(r"\{level\}", "(?P<level>.+)")), BOT))
    return tuple(known + other)


def shown_name(name: str, agent: str | None, tr: Translator | None = None) -> str:
    """A recorded seat's ``name`` as ``tr``'s reader (default: the current language) sees it.

    ``agent`` is the seat's agent (``None``: a person). A name Campfire gave (:func:`bot_name`,
    ``Seat 3``, ``Player 2``, ``You``), written in any language Campfire speaks, comes out in
    ``tr``'s language; every other name is returned unchanged.
    """
    tr = tr or current()
    for bot, pattern, meaning in _patterns():
        if bot != (agent is not None):
            continue
        found = pattern.fullmatch(name)
        if found is None:
            continue
        fields = found.groupdict()
        if not bot:
            return tr.gettext(meaning).format(**fields)
        level = fields.get("level", meaning)
        return bot_name(int(fields["number"]), level, tr)
    return name


def shown_names(
    names: Sequence[str], agents: Sequence[str | None], tr: Translator | None = None
) -> list[str]:
    """:func:`shown_name` of every seat (``names`` and ``agents`` in seat order)."""
    return [shown_name(n, a, tr) for n, a in zip(names, agents, strict=True)]
