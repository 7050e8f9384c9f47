"""The games of Campfire, one package each; importing this module registers them all."""

from campfire.core import register

from .tracker import GAME as TRACKER

__all__ = ["BUILTIN_GAMES"]

#: The built-in games, in the order they are listed.
BUILTIN_GAMES = (TRACKER,)

for _game in BUILTIN_GAMES:
    register(_game)
