"""attachment: files attached to papers (a copy in the library's files/ folder, or a link)

A new table only: nothing existing is copied or rebuilt.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attachment",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("paper_id", sa.Integer(), sa.ForeignKey("paper.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("path", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(), nullable=False),
        sa.Column("added_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("removed_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    )
    op.create_index("ix_attachment_paper_id", "attachment", ["paper_id"])


def downgrade() -> None:
    op.drop_index("ix_attachment_paper_id", table_name="attachment")
    op.drop_table("attachment")
