"""The registry of games, by name, filled from the entry points of installed packages.

A game is a package that names its :class:`~campfire.core.game.Game` object in the entry-point
group ``campfire.games`` (:data:`ENTRY_POINT_GROUP`): the entry point's name is the game's
name, its value ``module:ATTRIBUTE``. Campfire's own games are listed the same way, in its
``pyproject.toml``. The entry points are read once, on the first :func:`get` or
:func:`all_games`; a plugin that fails to load is logged and listed by :func:`plugin_errors`,
and the other games load as usual. :func:`register` adds a game by hand (tests do).

>>> from campfire import all_games, get_game
>>> games = all_games()
>>> all(get_game(game.name) is game for game in games)
True
>>> [game.name for game in games] == sorted(game.name for game in games)
True
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from .errors import ErrorText, UnknownGameError
from .game import Game
from .validate import short_repr

__all__ = [
    "ENTRY_POINT_GROUP",
    "PluginFailure",
    "all_games",
    "get",
    "names",
    "plugin_errors",
    "register",
]

#: the entry-point group through which a package offers games
ENTRY_POINT_GROUP = "campfire.games"

logger = logging.getLogger(__name__)
# the failures are logged for applications that configure logging (the server), and said by the
# command line itself: an unconfigured program does not get them printed twice
logger.addHandler(logging.NullHandler())

_GAMES: dict[str, Game[Any]] = {}
#: the entry points that failed to load, by entry-point name
_PROBLEMS: dict[str, PluginFailure] = {}
_lock = threading.RLock()
_discovered = False


@dataclass(frozen=True)
class PluginFailure:
    """A game plugin that could not be loaded: its entry point and what went wrong."""

    name: str
    value: str
    problem: str

    def message(self) -> ErrorText:
        """The error as one sentence, naming the entry point.

        >>> print(PluginFailure("cards", "cards.game:GAME", "ImportError: no module").message())
        the game plugin 'cards' (entry point cards.game:GAME in group campfire.games) could not be loaded: ImportError: no module
        """  # noqa: E501
        return ErrorText(
            "the game plugin {name} (entry point {value} in group {group}) could not be "
            "loaded: {problem}",
            name=repr(self.name),
            value=self.value,
            group=ENTRY_POINT_GROUP,
            problem=self.problem,
        )


def register(game: Game[Any]) -> Game[Any]:
    """Add ``game`` to the registry (a second game with the same name is an error)."""
    with _lock:
        existing = _GAMES.get(game.name)
        if existing is not None and existing is not game:
            raise ValueError(f"a game named {game.name!r} is already registered")
        _GAMES[game.name] = game
    return game


def _entry_points() -> list[metadata.EntryPoint]:
    """The entry points of the group, from every installed distribution."""
    return list(metadata.entry_points(group=ENTRY_POINT_GROUP))


def _load(entry: metadata.EntryPoint) -> Game[Any]:
    """The game an entry point names (raise ``TypeError`` or ``ValueError`` if it is none)."""
    game = entry.load()
    if not isinstance(game, Game):
        raise TypeError(f"{entry.value} is {short_repr(game)}, not a campfire.core.Game")
    if game.name != entry.name:
        raise ValueError(f"the entry point is named {entry.name!r} but the game {game.name!r}")
    return game


def discover() -> None:
    """Load every game the entry points name (once; later calls do nothing).

    A plugin that fails to load (its import raises, its object is no :class:`Game`, its name
    differs from the entry point's or is already taken) is logged and kept in
    :func:`plugin_errors`; the other games load.
    """
    global _discovered
    if _discovered:  # the common case: no lock to take
        return
    with _lock:
        if _discovered:
            return
        _discovered = True  # first: a plugin whose import asks the registry sees the rest so far
        seen: set[str] = set()
        for entry in _entry_points():
            if entry.name in seen:  # the same distribution found twice on the path
                continue
            seen.add(entry.name)
            try:
                register(_load(entry))
            except Exception as exc:  # a broken plugin must not stop the other games
                error = PluginFailure(entry.name, entry.value, f"{type(exc).__name__}: {exc}")
                _PROBLEMS[entry.name] = error
                logger.error("%s", error.message())


def plugin_errors() -> list[PluginFailure]:
    """The game plugins that failed to load, by name (after discovery)."""
    discover()
    return [_PROBLEMS[name] for name in sorted(_PROBLEMS)]


def get(name: str) -> Game[Any]:
    """The registered game called ``name`` (case-insensitive).

    Anything that is not a registered name, a non-string included, raises
    :class:`~campfire.core.errors.UnknownGameError` listing the known games (the name of a
    plugin that failed to load says why):

    >>> get(None)
    Traceback (most recent call last):
    ...
    campfire.core.errors.UnknownGameError: a game is named by a string (got None); known games: ...
    """
    discover()
    if not isinstance(name, str):
        raise UnknownGameError(
            ErrorText(
                "a game is named by a string (got {name}); known games: {known}",
                name=short_repr(name),
                known=_known(),
            )
        )
    key = name.strip().lower()
    game = _GAMES.get(key)
    if game is None:
        problem = _PROBLEMS.get(key)
        if problem is not None:
            raise UnknownGameError(problem.message())
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
    discover()
    return [_GAMES[name] for name in sorted(_GAMES)]


def names() -> tuple[str, ...]:
    """The registered games' names, in the order they were registered (a cheap cache key).

    >>> set(names()) == {game.name for game in all_games()}
    True
    """
    discover()
    return tuple(_GAMES)
