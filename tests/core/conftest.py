"""Fixtures of the core tests: a throwaway PostgreSQL server for shared libraries (pg_fixtures.py)."""

from tests.core.pg_fixtures import pg_server, pg_url  # noqa: F401 - fixtures
