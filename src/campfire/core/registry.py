"""The registry of games, by name.

>>> from campfire import get_game
>>> get_game("tracker").title
'Tracker'
"""

from __future__ import annotations

from typing import Any

from .errors import ErrorText, UnknownGameError
from .game import Game
from .validate import short_repr

__all__ = ["all_games", "get", "register"]

_GAMES: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    """Add ``game`` to the registry (a second game with the same name is an error)."""
    existing = _GAMES.get(game.name)
    if existing is not None and existing is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def get(name: str) -> Game[Any]:
    """The registered game called ``name`` (case-insensitive).

    Anything that is not a registered name, a non-string included, raises
    :class:`~campfire.core.errors.UnknownGameError` listing the known games:

    >>> get(None)
    Traceback (most recent call last):
    ...
    campfire.core.errors.UnknownGameError: a game is named by a string (got None); known games: ...
    """
    if not isinstance(name, str):
        raise UnknownGameError(
            ErrorText(
                "a game is named by a string (got {name}); known games: {known}",
                name=short_repr(name),
                known=_known(),
            )
        )
    game = _GAMES.get(name.strip().lower())
    if game is None:
        raise UnknownGameError(
            ErrorText(
                "unknown game {name}; known games: {known}", name=short_repr(name), known=_known()
            )
        )
    return game


def _known() -> str:
    return ", ".join(sorted(_GAMES)) or ErrorText("none")


def all_games() -> list[Game[Any]]:
    """Every registered game, sorted by name."""
    return [_GAMES[name] for name in sorted(_GAMES)]
