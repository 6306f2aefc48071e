"""paper.opened_at: when the paper was last shown in the reader

A batch migration (SQLite copies the table and renames it). With foreign keys on, dropping the
old ``paper`` table would cascade-delete every tag link, note and highlight; db.migrate runs it
with foreign keys off and checks them before committing. tests/core/test_migrations.py proves
every row survives.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _recreate() -> str:
    """SQLite copies the table (as it always did); PostgreSQL alters it in place (a copy would
    have to drop the primary key other tables' foreign keys depend on)."""
    return "always" if op.get_bind().dialect.name == "sqlite" else "auto"


def upgrade() -> None:
    with op.batch_alter_table("paper", recreate=_recreate()) as batch:
        batch.add_column(sa.Column("opened_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("paper", recreate=_recreate()) as batch:
        batch.drop_column("opened_at")
