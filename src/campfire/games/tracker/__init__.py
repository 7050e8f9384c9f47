"""Tracker (Stopař): peek at face-down scouts, remember them, capture them blind.

The rules are in ``docs/rules/tracker.md`` (shipped as ``campfire/rules/tracker.md``);
``campfire rules tracker`` prints them.
"""

from .actions import TrackerAction, parse_action
from .game import GAME, TrackerGame
from .options import TrackerOptions
from .state import TrackerState

__all__ = ["GAME", "TrackerAction", "TrackerGame", "TrackerOptions", "TrackerState", "parse_action"]
