"""Alembic environment. Run through desktop_app.core.store.migrate.migrate, which hands in a connection
already inside one real transaction with foreign keys off (see db.py for why)."""

from __future__ import annotations

from pathlib import Path

from alembic import context
from sqlmodel import SQLModel

import desktop_app.core.models  # noqa: F401  (registers the tables)

target_metadata = SQLModel.metadata
connection = context.config.attributes.get("connection")

if connection is None:  # `alembic` command line on a developer machine
    # the URL is parsed as a URL (a path with "?", "#" or "%" must be percent-encoded in it);
    # its database part is then handed to sqlite3 as a plain file name, never re-parsed
    from sqlalchemy.engine import make_url

    from desktop_app.core.store.engine import make_migration_engine

    url = make_url(context.config.get_main_option("sqlalchemy.url") or "sqlite:///dev.sqlite")
    engine = make_migration_engine(Path(url.database or "dev.sqlite"))
    with engine.connect() as connection, connection.begin():
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        context.run_migrations()
else:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        transactional_ddl=True,
    )
    context.run_migrations()
