"""game hands revision: moved by every change to a game's recorded hands (not by taps on the hand
in hand), the key under which a worker keeps the game's derived score sheet

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 08:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hands_revision", sa.Integer(), nullable=False, server_default="0"))


def downgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("hands_revision")
