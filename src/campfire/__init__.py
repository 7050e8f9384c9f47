"""Campfire: the digital home of card games, with engines, bots, a server and research adapters.

The games are found through the entry-point group ``campfire.games`` (``docs/writing-a-game.md``):
:func:`all_games` lists every installed one, :func:`get_game` finds one by name.

>>> import campfire
>>> names = [g.name for g in campfire.all_games()]
>>> names == sorted(names) and all(campfire.get_game(n).name == n for n in names)
True
"""

# first: with CAMPFIRE_PURE_PYTHON=1 every module below loads from its .py (docs/compiled.md)
from . import _compiled  # noqa: F401 - imported for that switch
from .core import (
    Action,
    CampfireError,
    Event,
    Game,
    IllegalActionError,
    Match,
    Options,
    Outcome,
    Record,
    State,
    all_games,
    replay,
)
from .core import get as get_game

__version__ = "0.1.0"

__all__ = [
    "Action",
    "CampfireError",
    "Event",
    "Game",
    "IllegalActionError",
    "Match",
    "Options",
    "Outcome",
    "Record",
    "State",
    "__version__",
    "all_games",
    "get_game",
    "replay",
]
