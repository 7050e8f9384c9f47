"""Campfire: the digital home of the card games Apache, Big Manitou, Dudab and Tracker.

>>> import campfire
>>> [g.name for g in campfire.all_games()]
['apache', 'dudab', 'manitou', 'tracker']
"""

from . import games as _games  # registers the built-in games
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

del _games
