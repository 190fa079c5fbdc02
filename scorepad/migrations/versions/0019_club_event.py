"""club event: an event linked to a group whose members are its club roster (issue 30, item 2)

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27 18:45:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "club_event",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("linked_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name=op.f("fk_club_event_event_id_event"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["group_id"], ["player_group.id"], name=op.f("fk_club_event_group_id_player_group"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_club_event")),
    )
    with op.batch_alter_table("club_event", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_club_event_group_id"), ["group_id"], unique=False)


def downgrade():
    with op.batch_alter_table("club_event", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_club_event_group_id"))
    op.drop_table("club_event")
