"""The registry of games, by name.

>>> from campfire import get_game
>>> get_game("tracker").title
'Tracker'
"""

from __future__ import annotations

from typing import Any

from .errors import ErrorText, UnknownGameError
from .game import Game

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
    """The registered game called ``name`` (case-insensitive)."""
    game = _GAMES.get(name.strip().lower())
    if game is None:
        known = ", ".join(sorted(_GAMES)) or ErrorText("none")
        raise UnknownGameError(
            ErrorText("unknown game {name}; known games: {known}", name=repr(name), known=known)
        )
    return game


def all_games() -> list[Game[Any]]:
    """Every registered game, sorted by name."""
    return [_GAMES[name] for name in sorted(_GAMES)]
