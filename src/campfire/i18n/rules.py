"""A game's rules document in the chosen language (``rules/<game>.<lang>.md`` in its package)."""

from __future__ import annotations

from typing import Any

from campfire.core.game import Game

from . import _, current, game_title

__all__ = ["missing_note", "option_help", "rules_document"]


def rules_document(game: Game[Any], language: str) -> tuple[str, str]:
    """The rules of ``game`` as Markdown and the language they are written in.

    ``rules/<game>.<language>.md`` in the game's own package (:meth:`Game.package_files
    <campfire.core.Game.package_files>`) when it exists, else the English document.

    >>> from campfire.core import all_games
    >>> game = all_games()[0]
    >>> text, language = rules_document(game, "en")
    >>> language, text == game.rules_text()
    ('en', True)
    >>> rules_document(game, "xx")[1]
    'en'
    """
    path = game.package_files().joinpath("rules").joinpath(f"{game.name}.{language}.md")
    if path.is_file():
        return path.read_text(encoding="utf-8"), language
    return game.rules_text(), "en"


def missing_note(game: Game[Any]) -> str:
    """The one line said when the rules are not written in the chosen language."""
    return _(
        "(The rules of {game} are not yet written in this language; here they are in English.)"
    ).format(game=game_title(game))


def option_help(game: Game[Any], name: str, help_text: str) -> str:
    """The help text of ``game``'s option ``name`` in the current language."""
    context = f"{game.name}.option.{name}"  # extracted from the options themselves
    return current().pgettext(context, help_text) if help_text else help_text
