"""Apache: reveal prairie cards and race to claim the booty with your Indians.

The rules are in this package's ``rules/apache.md`` (``apache.<lang>.md`` translated);
``campfire rules apache`` prints them. :mod:`.resolve` holds the window resolution shared
with a real-time server.
"""

from campfire.core import register

from .actions import ApacheAction, parse_action
from .game import GAME, ApacheGame
from .options import ApacheOptions
from .resolve import Choice, Claim, Rules, claim_is_legal, default_choice, resolve_window
from .state import ApacheState

__all__ = [
    "GAME",
    "ApacheAction",
    "ApacheGame",
    "ApacheOptions",
    "ApacheState",
    "Choice",
    "Claim",
    "Rules",
    "claim_is_legal",
    "default_choice",
    "parse_action",
    "resolve_window",
]

register(GAME)
