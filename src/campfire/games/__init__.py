"""The games that ship with Campfire, one package each.

This package lists no game: each game's package names its ``GAME`` in the entry-point group
``campfire.games`` (``pyproject.toml`` is the one list of the built-in games), and
:mod:`campfire.core.registry` finds them there, as it finds a game installed from any other
package (``docs/writing-a-game.md``).
"""
