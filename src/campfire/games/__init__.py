"""The games of Campfire, one package each; importing this module registers them all.

Each game package registers its ``GAME`` with :func:`campfire.core.register` when imported; a
game is listed here, one line each, once its engine passes the conformance suite.
"""

from . import apache  # noqa: I001 - one line per game, as the docstring says
from . import dudab
from . import manitou
from . import tracker

__all__ = ["apache", "dudab", "manitou", "tracker"]
