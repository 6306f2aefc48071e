"""paper.decision: the triage decision (keep / maybe / skip; NULL is undecided)

A nullable column and its index: ``ALTER TABLE ... ADD COLUMN`` on both dialects, so no table is
copied (a 100,000-paper library migrates in well under a second) and no row changes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("paper", sa.Column("decision", sa.String(), nullable=True))
    op.create_index("ix_paper_decision", "paper", ["decision"])


def downgrade() -> None:
    op.drop_index("ix_paper_decision", table_name="paper")
    with op.batch_alter_table("paper", recreate="auto") as batch:
        batch.drop_column("decision")
