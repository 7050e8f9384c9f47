"""The game server: ``campfire serve`` (lobby over HTTP, tables over WebSocket, persistence).

The server sits on top of the other layers: it drives every game through
:class:`campfire.core.table.Table`, stores every accepted action before it is broadcast, and
sends each seat only what its view and the events addressed to it hold (``docs/protocol.md``).
It needs the ``server`` extra (``pip install 'campfire-games[server]'``); importing this package
alone imports none of it, so ``campfire`` works without the extra.
"""

from __future__ import annotations

__all__: list[str] = []
