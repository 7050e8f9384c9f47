"""``campfire admin``: backups, restores, the list of tables, closing a table, purging old ones.

- ``backup PATH`` (:mod:`.backup`) — an SQLite database is copied online with SQLite's backup
  API (one read transaction: consistent while a server runs and writes, WAL included) into a
  single file; a PostgreSQL database is dumped with ``pg_dump`` (the command is printed, or run
  with ``--pg-dump``).
- ``restore PATH`` (:mod:`.restore`) — puts a backup in the database's place, the replaced
  database kept beside it (``.before-restore-…``); refused while a server uses the database.
  The next ``campfire serve`` rebuilds every unfinished table from its log.
- ``tables`` (:mod:`.listing`) — the tables, as a text table or JSON.
- ``close TABLE --message TEXT`` (:mod:`.close`) — a running server closes the table (it polls
  the database for such requests, :func:`watch_closes`) and tells its players (a ``closed``
  frame); with no server running the command closes it itself. A closed table is finished for
  good; the game it was playing gets its record (unfinished, with ``meta.closed``).
- ``purge --finished-before DATE`` (:mod:`.purge`) — deletes finished tables, each game's
  record exported first.

Whether a server uses the database is told by :class:`ServerLock` (:mod:`.lock`): every server
process holds it shared while it runs; the commands that must not run beside a server take it
exclusively. :mod:`.database` opens the database a command names; :mod:`.cli` wires the
actions into the ``campfire`` command. The modules import downward only: ``lock`` ←
``database`` ← ``backup`` ← ``restore``, ``listing`` ← ``purge``, ``close``; ``cli`` above them
all.
"""

from __future__ import annotations

from .cli import add_admin_command
from .close import (
    CLOSE_POLL_SECONDS,
    MAX_MESSAGE,
    carry_out_closes,
    close_live,
    close_table,
    watch_closes,
)
from .listing import TableLine, table_lines
from .lock import ServerLock

__all__ = [
    "CLOSE_POLL_SECONDS",
    "MAX_MESSAGE",
    "ServerLock",
    "TableLine",
    "add_admin_command",
    "carry_out_closes",
    "close_live",
    "close_table",
    "table_lines",
    "watch_closes",
]
