"""The store's Core tables (core/store/tables.py) are the SQLModel classes' tables (core/models.py)
written out: any difference (a column, its type, default, key, index, or the DDL) fails here."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import Column, MetaData, Table, create_engine, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlalchemy.types import TypeDecorator, TypeEngine
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import UTCDateTime as SQLModelUTCDateTime

import desktop_app.core.models  # noqa: F401 - registers the SQLModel tables
from desktop_app.core.store import tables
from desktop_app.core.store.column_types import UTCDateTime


def _pairs() -> list[tuple[Table, Table]]:
    ours = {t.name: t for t in tables.metadata.sorted_tables}
    theirs = {t.name: t for t in SQLModel.metadata.sorted_tables}
    assert set(ours) == set(theirs)
    return [(ours[n], theirs[n]) for n in sorted(ours)]


def _kind(t: TypeEngine[object]) -> type:
    """The SQL type a column stores (a decorator's underlying type: AutoString is a String)."""
    return type(t.impl) if isinstance(t, TypeDecorator) else type(t)


def _ddl(t: Table, dialect: object) -> list[str]:
    out = [str(CreateTable(t).compile(dialect=dialect)).strip()]  # type: ignore[arg-type]
    out += sorted(str(CreateIndex(ix).compile(dialect=dialect)) for ix in t.indexes)  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("dialect", [sqlite.dialect(), postgresql.dialect()], ids=["sqlite", "postgresql"])
def test_both_dialects_compile_the_same_ddl(dialect: object) -> None:
    for ours, theirs in _pairs():
        assert _ddl(ours, dialect) == _ddl(theirs, dialect), ours.name


def test_every_column_has_the_same_type_default_and_keys() -> None:
    for ours, theirs in _pairs():
        assert [c.name for c in ours.columns] == [c.name for c in theirs.columns], ours.name
        for a, b in zip(ours.columns, theirs.columns, strict=True):
            where = f"{ours.name}.{a.name}"
            assert a.nullable == b.nullable and a.primary_key == b.primary_key, where
            assert bool(a.index) == bool(b.index) and bool(a.unique) == bool(b.unique), where
            assert isinstance(a.type, UTCDateTime) == isinstance(b.type, SQLModelUTCDateTime), where
            assert _kind(a.type) == _kind(b.type), where
            assert sorted((f.target_fullname, f.ondelete) for f in a.foreign_keys) == sorted(
                (f.target_fullname, f.ondelete) for f in b.foreign_keys
            ), where
            da, db = a.default, b.default
            assert (da is None) == (db is None), where
            if da is not None and db is not None:
                assert da.is_callable == db.is_callable, where
                if da.is_callable:  # both are utcnow, wrapped by SQLAlchemy
                    assert da.arg.__name__ == db.arg.__name__, where  # type: ignore[attr-defined]
                else:
                    assert da.arg == db.arg, where  # type: ignore[attr-defined]


def test_the_datetime_type_stores_and_reads_as_sqlmodels_does() -> None:
    engine = create_engine("sqlite://")
    meta = MetaData()
    t = Table("t", meta, Column("ours", UTCDateTime()), Column("theirs", SQLModelUTCDateTime()))
    meta.create_all(engine)
    paris = timezone(timedelta(hours=1))
    values = [datetime(2026, 3, 1, 12, 30, tzinfo=paris), datetime(2026, 12, 1, 0, 0, tzinfo=UTC), None]
    with engine.begin() as conn:
        for v in values:
            conn.execute(insert(t).values(ours=v, theirs=v))
        rows = conn.execute(select(t.c.ours, t.c.theirs)).all()
        raw = conn.exec_driver_sql("SELECT ours, theirs FROM t").all()
    assert [r[0] for r in rows] == [r[1] for r in rows]
    assert rows[0][0] == values[0] and rows[0][0].tzinfo == UTC
    assert [r[0] for r in raw] == [r[1] for r in raw]  # the same text on disk
    for column in (t.c.ours, t.c.theirs):
        with pytest.raises(Exception, match="timezone"), engine.begin() as conn:
            conn.execute(insert(t).values({column.name: datetime(2026, 1, 1)}))


def test_opening_a_library_imports_neither_sqlmodel_nor_pydantic(tmp_path: Path) -> None:
    """Creating a library runs the migrations (which read the models); opening it again, reading
    and searching it build no ORM class."""
    from desktop_app.core.library import Library

    lib = Library.open(tmp_path)
    lib.close()
    code = (
        "import sys; from desktop_app.core.library import Library; "
        f"lib = Library.open({str(tmp_path)!r}); lib.query('learning'); lib.papers.count(); "
        "print(sorted(m for m in ('sqlmodel', 'pydantic', 'sqlalchemy.orm') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout + out.stderr
