"""round timer: the director's minutes per round and the clock's state, one row per event
(issue 30, item 1)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 16:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "event_timer",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("ends_at", sa.DateTime(), nullable=True),
        sa.Column("paused_left_ms", sa.Integer(), nullable=True),
        sa.Column("changed_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name=op.f("fk_event_timer_event_id_event"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_event_timer")),
    )


def downgrade():
    op.drop_table("event_timer")
