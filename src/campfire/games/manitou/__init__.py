"""Big Manitou: hunters and heroes compete for tiles at three hunting grounds.

The rules are in this package's ``rules/manitou.md`` (``manitou.<lang>.md`` translated);
``campfire rules manitou`` prints them.
"""

from campfire.core import register

from .actions import ManitouAction, parse_action
from .game import GAME, ManitouGame
from .options import ManitouOptions
from .state import ManitouState

__all__ = ["GAME", "ManitouAction", "ManitouGame", "ManitouOptions", "ManitouState", "parse_action"]

register(GAME)
