"""Tracker (Stopař): peek at face-down scouts, remember them, capture them blind.

The rules are in this package's ``rules/tracker.md`` (``tracker.<lang>.md`` translated);
``campfire rules tracker`` prints them.
"""

from campfire.core import register

from .actions import TrackerAction, parse_action
from .game import GAME, TrackerGame
from .options import TrackerOptions
from .state import TrackerState

__all__ = ["GAME", "TrackerAction", "TrackerGame", "TrackerOptions", "TrackerState", "parse_action"]

register(GAME)
