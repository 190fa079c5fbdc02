"""game scorers: a home game's scorers' links, each letting another phone enter hands, taken back
by the game's owner (issue 30, item 4)

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27 16:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "game_scorer",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("link_token", sa.String(length=48), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_game_scorer_game_id_game"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_scorer")),
        sa.UniqueConstraint("game_id", "number", name=op.f("uq_game_scorer_game_id")),
        sa.UniqueConstraint("link_token", name=op.f("uq_game_scorer_link_token")),
    )
    with op.batch_alter_table("game_scorer", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_scorer_game_id"), ["game_id"], unique=False)


def downgrade():
    with op.batch_alter_table("game_scorer", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_scorer_game_id"))
    op.drop_table("game_scorer")
