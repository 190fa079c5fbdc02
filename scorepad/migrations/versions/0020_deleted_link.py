"""deleted link: a digest of each link of an event its director deleted, so the link answers that
the event was deleted (410) rather than not found (issue 32, item 12); the events deleted before
answer 404 as they did

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27 18:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "deleted_link",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("deleted_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("digest", name=op.f("pk_deleted_link")),
    )


def downgrade():
    op.drop_table("deleted_link")
