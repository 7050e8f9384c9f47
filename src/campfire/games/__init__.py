"""The games of Campfire, one package each; importing this module registers them all.

Each game package registers its ``GAME`` with :func:`campfire.core.register` when imported; a
game is listed here, one line each, once its engine passes the conformance suite.
"""

from . import tracker

__all__ = ["tracker"]
