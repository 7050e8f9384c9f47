"""Table leases in the database: which server process owns which table (several processes).

Each table is owned by one process at a time: a row of ``table_leases`` (table, owner, expiry).
:class:`LeaseStore` is the SQL of it (PostgreSQL): take or renew a lease, renew them all, fence a
write transaction, find the orphans, the owners and the holders, give the leases up.
:mod:`.cluster` decides when.
"""

from __future__ import annotations

import time
from collections.abc import Collection

from sqlalchemy import text
from sqlalchemy.orm import Session, sessionmaker

from campfire.core import ErrorText

from .seating import LobbyError
from .writer import LeaseLost

__all__ = ["Elsewhere", "LeaseStore"]


class Elsewhere(LobbyError):
    """The table is owned by another process (``owner``) now."""

    def __init__(self, table_id: int, owner: str) -> None:
        super().__init__(
            503,
            "table_moved",
            ErrorText(
                "table {table} is served by another server process at the moment: try again",
                table=table_id,
            ),
        )
        self.table_id = table_id
        self.owner = owner


class LeaseStore:
    """The leases of one process (``me``), each lasting ``lease`` seconds without renewal."""

    def __init__(self, sessions: sessionmaker[Session], me: str, lease: float) -> None:
        self.sessions = sessions
        self.me = me
        self.lease = lease
        #: the processes known to be gone: their leases may be taken at once
        self.dead: frozenset[str] = frozenset()
        #: set when this process stops: it takes no more tables
        self.stopping = False
        #: when this process last took or renewed each table's lease (``time.monotonic``)
        self.claimed: dict[int, float] = {}

    def claim(self, table_id: int) -> bool:
        """Take or renew the lease of ``table_id``: ``True``; ``False``: there is no such table.

        The lease is taken if it is free, expired, or held by a process known to be gone
        (:attr:`dead`). Raises :class:`Elsewhere` when another process holds it, and always
        once this process is stopping (:meth:`.Cluster.stop_claiming`): it takes no table any more.
        """
        if self.stopping:
            with self.sessions() as session:
                owner = session.execute(
                    text(
                        "SELECT coalesce(l.owner, '') FROM game_tables g LEFT JOIN table_leases l "
                        "ON l.table_id = g.id WHERE g.id = :t"
                    ),
                    {"t": table_id},
                ).scalar()
            if owner is None:
                return False
            raise Elsewhere(table_id, str(owner))
        with self.sessions.begin() as session:
            got = session.execute(
                text(
                    "INSERT INTO table_leases (table_id, owner, expires) "
                    "SELECT id, :me, now() + make_interval(secs => :ttl) FROM game_tables "
                    "WHERE id = :t "
                    "ON CONFLICT (table_id) DO UPDATE "
                    "SET owner = excluded.owner, expires = excluded.expires "
                    "WHERE table_leases.owner = excluded.owner OR table_leases.expires < now() "
                    "OR table_leases.owner = ANY(CAST(:dead AS text[])) "
                    "RETURNING owner"
                ),
                {"me": self.me, "ttl": self.lease, "t": table_id, "dead": sorted(self.dead)},
            ).scalar()
            if got is not None:
                self.claimed[table_id] = time.monotonic()
                return True
            owner = session.execute(
                text("SELECT owner FROM table_leases WHERE table_id = :t"), {"t": table_id}
            ).scalar()
        if owner is None:
            return False
        raise Elsewhere(table_id, str(owner))

    def renew(self) -> set[int]:
        """Renew every lease of this process; the tables it still holds.

        The rows are locked in table order, as :meth:`fence` locks them (no deadlock).
        """
        with self.sessions.begin() as session:
            return set(
                session.execute(
                    text(
                        "UPDATE table_leases SET expires = now() + make_interval(secs => :ttl) "
                        "WHERE table_id IN (SELECT table_id FROM table_leases WHERE owner = :me "
                        "ORDER BY table_id FOR UPDATE) AND owner = :me RETURNING table_id"
                    ),
                    {"me": self.me, "ttl": self.lease},
                ).scalars()
            )

    def fence(self, session: Session, table_ids: Collection[int]) -> None:
        """Raise :class:`~.writer.LeaseLost` unless this process holds every lease of ``table_ids``.

        Called first in a write transaction (``session``) for those tables: it locks their lease
        rows (shared, in table order) until the transaction ends, so another process's
        :meth:`claim` of one of them waits for the transaction, and then reads its writes.
        A lease that expired but that nobody has taken yet still counts as held.
        """
        held = set(
            session.execute(
                text(
                    "SELECT table_id FROM table_leases WHERE table_id = ANY(:ids) "
                    "AND owner = :me ORDER BY table_id FOR SHARE"
                ),
                {"ids": sorted(table_ids), "me": self.me},
            ).scalars()
        )
        lost = sorted(set(table_ids) - held)
        if lost:
            raise LeaseLost(lost[0])

    def orphans(self) -> list[int]:
        """The running tables nobody holds, oldest first.

        Nobody holds a table without a lease, with an expired one, or with one of a process
        known to be gone (:attr:`dead`). A turn-based table waiting for a person's move whose
        deadline has not come is not one: it is left in the database until it is needed (a
        move, a connection) or its deadline comes (:mod:`.turns`).
        """
        with self.sessions() as session:
            return list(
                session.execute(
                    text(
                        "SELECT g.id FROM game_tables g "
                        "LEFT JOIN table_leases l ON l.table_id = g.id "
                        "WHERE g.status = 'running' AND (l.table_id IS NULL OR l.expires < now() "
                        "OR l.owner = ANY(CAST(:dead AS text[]))) "
                        "AND (g.turn_deadline IS NULL OR g.turn_deadline <= now()) ORDER BY g.id"
                    ),
                    {"dead": sorted(self.dead)},
                ).scalars()
            )

    def owners(self, table_ids: list[int]) -> dict[int, str]:
        """The processes holding unexpired leases of ``table_ids`` (not those known gone)."""
        with self.sessions() as session:
            rows = session.execute(
                text(
                    "SELECT table_id, owner FROM table_leases "
                    "WHERE table_id = ANY(:ids) AND expires >= now() "
                    "AND owner <> ALL(CAST(:dead AS text[]))"
                ),
                {"ids": table_ids, "dead": sorted(self.dead)},
            ).all()
        return {int(t): str(o) for t, o in rows}

    def holders(self, table_ids: list[int]) -> dict[int, str]:
        """The processes named in the leases of ``table_ids``, expired or not."""
        with self.sessions() as session:
            rows = session.execute(
                text("SELECT table_id, owner FROM table_leases WHERE table_id = ANY(:ids)"),
                {"ids": table_ids},
            ).all()
        return {int(t): str(o) for t, o in rows}

    def lease_holders(self) -> set[str]:
        """The other processes that hold (or held: expired) the lease of a running table."""
        with self.sessions() as session:
            return set(
                session.execute(
                    text(
                        "SELECT DISTINCT l.owner FROM table_leases l "
                        "JOIN game_tables g ON g.id = l.table_id "
                        "WHERE g.status = 'running' AND l.owner <> :me"
                    ),
                    {"me": self.me},
                ).scalars()
            )

    def release_table(self, table_id: int) -> None:
        """Give up the lease of one table (an idle turn-based table left in the database)."""
        self.claimed.pop(table_id, None)
        with self.sessions.begin() as session:
            session.execute(
                text("DELETE FROM table_leases WHERE table_id = :t AND owner = :me"),
                {"t": table_id, "me": self.me},
            )

    def release(self) -> None:
        """Give up every lease (a clean stop: the others take the tables over at once)."""
        with self.sessions.begin() as session:
            session.execute(text("DELETE FROM table_leases WHERE owner = :me"), {"me": self.me})
