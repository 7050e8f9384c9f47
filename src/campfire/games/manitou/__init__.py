"""Big Manitou: hunters and heroes compete for tiles at three hunting grounds.

The rules are in ``docs/rules/manitou.md`` (shipped as ``campfire/rules/manitou.md``);
``campfire rules manitou`` prints them.
"""

from .actions import ManitouAction, parse_action
from .game import GAME, ManitouGame
from .options import ManitouOptions
from .state import ManitouState

__all__ = ["GAME", "ManitouAction", "ManitouGame", "ManitouOptions", "ManitouState", "parse_action"]
