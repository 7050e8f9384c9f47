"""Tracker (Stopař): peek at face-down scouts, remember them, capture them blind.

The rules are in ``rules/tracker.md`` of the shared specs; ``campfire rules tracker`` prints a
summary.
"""

from campfire.core import register

from .actions import TrackerAction, parse_action
from .game import GAME, TrackerGame
from .options import TrackerOptions
from .state import TrackerState

__all__ = ["GAME", "TrackerAction", "TrackerGame", "TrackerOptions", "TrackerState", "parse_action"]

register(GAME)
