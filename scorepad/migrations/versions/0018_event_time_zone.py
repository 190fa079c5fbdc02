"""event time zone: the IANA zone an event's times are shown in (issue 32, item 7), chosen at its
creation (the director's browser's by default); null for the events made before, which keep the
server's (SCOREPAD_TZ, else the machine's)

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-27 16:05:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))


def downgrade():
    # SQLite drops the column in place (3.35+): a copied table would be dropped, and the foreign
    # keys' ON DELETE CASCADE would take every event's rows with it
    with op.batch_alter_table("event", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("time_zone")
