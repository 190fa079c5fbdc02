"""event archived: a director's archived event leaves the home page's lists and keeps its pages
(issue 32, item 12); the events made before are not archived

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27 15:50:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.add_column(sa.Column("archived_at", sa.DateTime(), nullable=True))


def downgrade():
    # SQLite drops the column in place (3.35+): a copied table would be dropped, and the foreign
    # keys' ON DELETE CASCADE would take every event's rows with it
    with op.batch_alter_table("event", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("archived_at")
