"""paper.keywords_json, paper_merge and distinct_pair

Keywords read from a file are kept as their own field instead of becoming tags.
``paper_merge`` remembers each merge of two duplicates so that it can be undone; ``distinct_pair``
the pairs the user said are different papers. Adding a column with a constant default is an
``ALTER TABLE ... ADD COLUMN`` in SQLite: no table copy, so no foreign-key cascade to fear.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # paper_identity: a key may now name several papers (two chapters with one blurb), so the
    # primary key becomes (key, paper_id). Nothing refers to this table: it is rebuilt in place.
    op.create_table(
        "paper_identity_new",
        sa.Column("key", sa.String(), primary_key=True),
        sa.Column("paper_id", sa.Integer(), sa.ForeignKey("paper.id", ondelete="CASCADE"), primary_key=True),
    )
    op.execute("INSERT INTO paper_identity_new (key, paper_id) SELECT key, paper_id FROM paper_identity")
    op.drop_table("paper_identity")
    op.rename_table("paper_identity_new", "paper_identity")
    op.create_index("ix_paper_identity_paper_id", "paper_identity", ["paper_id"])
    op.add_column("paper", sa.Column("keywords_json", sa.String(), nullable=False, server_default="[]"))
    op.create_table(
        "paper_merge",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kept_id", sa.Integer(), sa.ForeignKey("paper.id", ondelete="CASCADE"), nullable=False),
        sa.Column("merged_id", sa.Integer(), sa.ForeignKey("paper.id", ondelete="CASCADE"), nullable=False),
        sa.Column("before_json", sa.String(), nullable=False),
        sa.Column("moved_json", sa.String(), nullable=False),
        sa.Column("merged_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("undone", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_paper_merge_kept_id", "paper_merge", ["kept_id"])
    op.create_index("ix_paper_merge_merged_id", "paper_merge", ["merged_id"])
    op.create_table(
        "distinct_pair",
        sa.Column("low_id", sa.Integer(), sa.ForeignKey("paper.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("high_id", sa.Integer(), sa.ForeignKey("paper.id", ondelete="CASCADE"), primary_key=True),
    )
    op.create_index("ix_distinct_pair_high_id", "distinct_pair", ["high_id"])


def downgrade() -> None:
    op.drop_index("ix_distinct_pair_high_id", table_name="distinct_pair")
    op.drop_table("distinct_pair")
    op.drop_index("ix_paper_merge_merged_id", table_name="paper_merge")
    op.drop_index("ix_paper_merge_kept_id", table_name="paper_merge")
    op.drop_table("paper_merge")
    with op.batch_alter_table("paper") as batch:
        batch.drop_column("keywords_json")
    # a key names one paper again: the first paper filed under it keeps it
    op.create_table(
        "paper_identity_old",
        sa.Column("key", sa.String(), primary_key=True),
        sa.Column("paper_id", sa.Integer(), sa.ForeignKey("paper.id", ondelete="CASCADE"), nullable=False),
    )
    op.execute("INSERT INTO paper_identity_old (key, paper_id) "
               "SELECT key, min(paper_id) FROM paper_identity GROUP BY key")
    op.drop_table("paper_identity")
    op.rename_table("paper_identity_old", "paper_identity")
    op.create_index("ix_paper_identity_paper_id", "paper_identity", ["paper_id"])
