"""Dudab: a shedding game with columns, calls and Shaman chains (Jungle and Baby expansions).

The rules are in this package's ``rules/dudab.md`` (``dudab.<lang>.md`` translated);
``campfire rules dudab`` prints them.
"""

from campfire.core import register

from .actions import DudabAction, parse_action
from .game import GAME, DudabGame
from .options import DudabOptions
from .scoring import RoundScore, round_score
from .state import DudabState

__all__ = [
    "GAME",
    "DudabAction",
    "DudabGame",
    "DudabOptions",
    "DudabState",
    "RoundScore",
    "parse_action",
    "round_score",
]

register(GAME)
