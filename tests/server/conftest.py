"""Fixtures of the server tests: databases (an SQLite file, a PostgreSQL schema) and apps.

PostgreSQL is the real server at 127.0.0.1:5432 (database ``test``, user ``postgres``, trust
authentication); each test run works in a schema of its own, dropped at the end. ``.ci/run``
checks that the server is up before ``make test``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra")

PG_DSN = os.environ.get("CAMPFIRE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema for this test run (dropped afterwards)."""
    import psycopg

    schema = f"campfire_test_{os.getpid()}_{secrets.token_hex(4)}"
    try:
        conn = psycopg.connect(PG_DSN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        pytest.fail(
            f"PostgreSQL is not reachable at {PG_DSN} ({exc}); start it, or point "
            "CAMPFIRE_TEST_POSTGRES at one (the persistence tests run against it)"
        )
    with conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield schema
        finally:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def pg_url(schema: str) -> str:
    """The SQLAlchemy URL of ``schema`` in the test database."""
    base = PG_DSN.replace("postgresql://", "postgresql+psycopg://", 1)
    return f"{base}?options=-csearch_path%3D{schema}"


@contextmanager
def fresh_schema(schema: str) -> Iterator[str]:
    """The URL of a fresh schema inside the run's ``schema`` (one test's; dropped afterwards)."""
    import psycopg

    sub = f"{schema}_{secrets.token_hex(3)}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{sub}"')
    try:
        yield pg_url(sub)
    finally:
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{sub}" CASCADE')


#: the Redis of the multi-process tests (``campfire serve --workers``)
REDIS = os.environ.get("CAMPFIRE_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture
def pg_only(pg_schema: str) -> Iterator[str]:
    """A fresh PostgreSQL schema for one test of several processes (Redis must answer too)."""
    from campfire.server.cluster import check_redis

    try:
        check_redis(REDIS)
    except Exception as exc:
        pytest.fail(f"Redis is not reachable at {REDIS} ({exc}); the cluster tests need it")
    with fresh_schema(pg_schema) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite file."""
    return f"sqlite:///{tmp_path / 'campfire.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each database in turn: an SQLite file, then a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'campfire.db'}"
        return
    # one schema per test: the tables of one test never meet another's
    with fresh_schema(request.getfixturevalue("pg_schema")) as url:
        yield url
