"""change_log: every change in commit order (reading progress, a shared library's live updates)

A new table only: nothing existing is copied or rebuilt. ``seq`` is an autoincrementing key on
both dialects (SQLite's INTEGER PRIMARY KEY, PostgreSQL's identity via SERIAL).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "change_log",
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("actor", sa.String(), nullable=False, server_default=""),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=True),
        sa.Column("detail", sa.String(), nullable=False, server_default="{}"),
    )
    op.create_index("ix_change_log_at", "change_log", ["at"])
    op.create_index("ix_change_log_kind", "change_log", ["kind"])
    op.create_index("ix_change_log_paper_id", "change_log", ["paper_id"])


def downgrade() -> None:
    op.drop_index("ix_change_log_paper_id", table_name="change_log")
    op.drop_index("ix_change_log_kind", table_name="change_log")
    op.drop_index("ix_change_log_at", table_name="change_log")
    op.drop_table("change_log")
