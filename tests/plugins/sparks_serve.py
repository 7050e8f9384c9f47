"""``campfire`` with Sparks known, for a server process of the browser tests.

Where the plugin is installed, Campfire finds it by its entry point and this is plain
``campfire``; in a bare checkout the package's directory is put on the path and the game is
registered first (``python -m tests.plugins.sparks_serve serve --port N``). Importing the module
(pytest does, for doctests) changes nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> int:
    """Register Sparks unless Campfire knows it, then run ``campfire`` with the arguments."""
    sys.path.append(str(Path(__file__).parent / "campfire-sparks"))
    from campfire_sparks import GAME

    from campfire.cli import main as campfire
    from campfire.core import registry

    if not any(g is GAME for g in registry.all_games()):
        registry.register(GAME)
    return campfire()


if __name__ == "__main__":
    raise SystemExit(main())
