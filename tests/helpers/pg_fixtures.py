"""Fixtures for shared (PostgreSQL) libraries: one throwaway server per test session, a new
database per test. Import the fixtures in a test module: ``from tests.helpers.pg_fixtures import *``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.postgres_server import postgres_server

_numbers = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A libpq URL of a throwaway server (Unix socket in a temporary folder); skips with the
    reason without PostgreSQL's programs (fails with CI set)."""
    pytest.importorskip("psycopg", reason="psycopg is needed: pip install -e '.[test]'")
    with postgres_server() as url:
        yield url.replace("postgresql+psycopg://", "postgresql://", 1)


def new_database(server_url: str) -> str:
    """CREATE DATABASE a fresh one; its URL."""
    import psycopg

    name = f"lib{next(_numbers)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server_url.replace("@/postgres?", f"@/{name}?", 1)


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """A new, empty database on the session's server."""
    return new_database(pg_server)


_templates: dict[tuple[str, str], str] = {}


def library_from_template(server_url: str, name: str, build: Callable[[str], None]) -> str:
    """A new database copied from the template ``name`` (made once per server by ``build(url)``,
    which must close every connection to it): each test gets its own library, imported once."""
    import psycopg

    key = (server_url, name)
    if key not in _templates:
        url = new_database(server_url)
        build(url)
        _templates[key] = url.split("@/", 1)[1].split("?", 1)[0]
    copy = f"lib{next(_numbers)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {copy} TEMPLATE {_templates[key]}")
    return server_url.replace("@/postgres?", f"@/{copy}?", 1)


# the core tests that run on both stores take this parameter (a fixture's params=BACKENDS)
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]


def _import_seeds(location: str) -> None:
    from desktop_app.core.library import Library
    from tests.helpers.shared import SEEDS

    with Library.open(location) as lib:
        assert lib.imports.from_files(SEEDS).added == 76


def seed_library_on(request: pytest.FixtureRequest, library_dir: Path, seed_paths: list[Path]) -> Iterator[Any]:
    """conftest's seed_library on ``request.param`` ("sqlite": a folder; "postgresql": a server
    database copied from a template imported once). A module opts in with
    ``@pytest.fixture(params=BACKENDS) def seed_library(...): yield from seed_library_on(...)``."""
    from desktop_app.core.library import Library

    if request.param == "postgresql":
        lib = Library.open(library_from_template(request.getfixturevalue("pg_server"), "seeds", _import_seeds))
    else:
        lib = Library.open(library_dir)
        assert lib.imports.from_files(seed_paths).added == 76
    yield lib
    lib.close()


def empty_library_on(request: pytest.FixtureRequest, library_dir: Path) -> Iterator[Any]:
    """conftest's empty_library on ``request.param`` (see :func:`seed_library_on`)."""
    from desktop_app.core.library import Library

    if request.param == "postgresql":
        lib = Library.open(new_database(request.getfixturevalue("pg_server")))
    else:
        lib = Library.open(library_dir)
    yield lib
    lib.close()
