"""One tag per case-folded name: a unique index on ``lower(name)``

Tag names always compared without case, but only the exact name was unique, so two desks of a
shared library creating "Topic" and "topic" at once made two tags. Here tags whose names are
equal under the database's ``lower()`` are merged first: the oldest (lowest id) stays, the
others' links move to it (a paper carrying two of them keeps one link), and it takes the first
colour among them when it has none. Then ``ix_tag_name_casefold`` makes the database refuse a
second one, on SQLite and PostgreSQL alike, so tag creation can be an upsert
(``INSERT … ON CONFLICT DO NOTHING``, then a select).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    tag = sa.table("tag", sa.column("id", sa.Integer), sa.column("name", sa.String),
                   sa.column("color", sa.String))
    link = sa.table("paper_tag", sa.column("paper_id", sa.Integer), sa.column("tag_id", sa.Integer))
    other = link.alias("other")
    folded = sa.func.lower(tag.c.name)
    shared = sa.select(folded).group_by(folded).having(sa.func.count() > 1)
    rows = conn.execute(sa.select(tag.c.id, tag.c.color, folded.label("folded"))
                        .where(folded.in_(shared)).order_by(folded, tag.c.id)).all()
    groups: dict[str, list[tuple[int, str]]] = {}
    for row in rows:
        groups.setdefault(row.folded, []).append((row.id, row.color or ""))
    for members in groups.values():
        keep, color = members[0]
        for dup, dup_color in members[1:]:
            kept = sa.exists().where(other.c.tag_id == keep, other.c.paper_id == link.c.paper_id)
            theirs = sa.select(link.c.paper_id, sa.literal(keep, sa.Integer)).where(link.c.tag_id == dup, ~kept)
            conn.execute(sa.insert(link).from_select(["paper_id", "tag_id"], theirs))
            conn.execute(sa.delete(link).where(link.c.tag_id == dup))
            conn.execute(sa.delete(tag).where(tag.c.id == dup))
            if not color and dup_color:
                color = dup_color
                conn.execute(sa.update(tag).where(tag.c.id == keep).values(color=color))
    op.create_index("ix_tag_name_casefold", "tag", [sa.text("lower(name)")], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tag_name_casefold", table_name="tag")
