"""game revision and undo: each write to a game is conditional on the revision it read; the taps
of the hand in hand can be undone one at a time, and redone

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 09:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("undo_log", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("redo_log", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("redo_log")
        batch_op.drop_column("undo_log")
        batch_op.drop_column("revision")
