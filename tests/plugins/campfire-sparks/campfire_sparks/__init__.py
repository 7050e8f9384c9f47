"""Sparks: a small trick-taking game, a Campfire game plugin kept outside Campfire's package.

It registers itself through the entry-point group ``campfire.games`` (``pyproject.toml``):
``sparks = "campfire_sparks:GAME"``. The rules are in ``rules/sparks.md``.
"""

from .actions import SparksAction, parse_action
from .game import GAME, SparksGame
from .options import SparksOptions
from .state import SparksState

__all__ = ["GAME", "SparksAction", "SparksGame", "SparksOptions", "SparksState", "parse_action"]
