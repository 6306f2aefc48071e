"""The column values and types the tables share, without SQLModel or pydantic: the statuses,
decisions, title sources and attachment kinds a column may hold, ``utcnow`` (every timestamp's
default) and ``UTCDateTime``, SQLModel's column type for an aware datetime, written out here so
that the window and the command line build the tables from SQLAlchemy Core alone.
``tests/core/test_tables_mirror_models.py`` holds this type to SQLModel's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import types
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql.operators import OperatorType

from desktop_app.core.records import DECISIONS as RECORD_DECISIONS

STATUSES = ("unread", "skimmed", "read")
# a triage decision, apart from reading status and rating (a paper can be "skimmed" and "keep");
# NULL in the table is "none", not decided yet
DECISIONS = RECORD_DECISIONS
TITLE_SOURCES = ("given", "derived", "edited")
ATTACHMENT_KINDS = ("copy", "link")


def utcnow() -> datetime:
    """Timezone-aware now in UTC. UTCDateTime refuses naive values; SQLite stores the UTC wall
    time without an offset, PostgreSQL a timestamptz."""
    return datetime.now(UTC)


class UTCDateTime(types.TypeDecorator[datetime]):
    """An aware datetime, stored in UTC and read back aware in UTC (a naive one is refused)."""

    impl = types.DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def __repr__(self) -> str:
        return "UTCDateTime()"

    def coerce_compared_value(self, op: OperatorType | None, value: Any) -> types.TypeEngine[Any]:  # noqa: ANN401 - SQLAlchemy's signature
        if isinstance(value, timedelta):
            return types.Interval()
        return self

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            raise ValueError("Datetime values must have timezone information. Use datetime.now(timezone.utc).")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:  # SQLite keeps the UTC wall time without an offset
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
