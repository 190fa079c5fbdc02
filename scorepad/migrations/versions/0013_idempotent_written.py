"""idempotent written: a key keeps the games its request wrote, each with its revision after the
write, so a replay once the game changed again (an undo, a correction) says what is recorded now
(issue 33, item 8); null for the keys stored before

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 02:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("idempotent_request", schema=None) as batch_op:
        batch_op.add_column(sa.Column("written", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("idempotent_request", schema=None) as batch_op:
        batch_op.drop_column("written")
