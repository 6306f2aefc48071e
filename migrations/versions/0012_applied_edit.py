"""applied_edit: the edits a desk sent with an id of its own, so that one sent again is not applied twice

A window sends each of a shared library's edits with an id it made (a UUID) and the transaction
that applies the edit records it here, with the edit's Change as JSON (what its undo reads). When
the connection dropped after the COMMIT and before the answer, the window sends the edit again
from its outbox: the id is found, nothing is written again and the recorded Change is returned
(core/library.py ``Library.apply_once``). Rows older than ``applied_edits.KEEP_DAYS`` are
deleted by the writes that record new ones. A new table only, on both dialects.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "applied_edit",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(), primary_key=True),
        sa.Column("applied_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("change", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    )
    op.create_index("ix_applied_edit_applied_at", "applied_edit", ["applied_at"])


def downgrade() -> None:
    op.drop_index("ix_applied_edit_applied_at", table_name="applied_edit")
    op.drop_table("applied_edit")
