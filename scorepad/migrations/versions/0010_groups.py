"""groups: a family's or a club's players and games (issue 15): the group, its players (and the
spellings merged into them), the games kept in it (a table of their own: `game` is left as it is), and
which player sat in which column of each

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26 09:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player_group",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=48), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_group")),
        sa.UniqueConstraint("token", name=op.f("uq_player_group_token")),
    )
    op.create_table(
        "group_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("merged_into_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["player_group.id"], name=op.f("fk_group_player_group_id_player_group"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["merged_into_id"],
            ["group_player.id"],
            name=op.f("fk_group_player_merged_into_id_group_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_player")),
        sa.UniqueConstraint("group_id", "key", name=op.f("uq_group_player_group_id")),
    )
    op.create_index(op.f("ix_group_player_group_id"), "group_player", ["group_id"], unique=False)
    op.create_index(op.f("ix_group_player_merged_into_id"), "group_player", ["merged_into_id"], unique=False)
    op.create_table(
        "game_seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("sheet_column", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_game_seat_game_id_game"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["group_player.id"], name=op.f("fk_game_seat_player_id_group_player"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_seat")),
        sa.UniqueConstraint("game_id", "player_id", name=op.f("uq_game_seat_game_id")),
    )
    op.create_index(op.f("ix_game_seat_game_id"), "game_seat", ["game_id"], unique=False)
    op.create_index(op.f("ix_game_seat_player_id"), "game_seat", ["player_id"], unique=False)

    op.create_table(
        "group_game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kept_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_group_game_game_id_game"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["group_id"], ["player_group.id"], name=op.f("fk_group_game_group_id_player_group"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_game")),
        sa.UniqueConstraint("game_id", name=op.f("uq_group_game_game_id")),
    )
    op.create_index(op.f("ix_group_game_group_id"), "group_game", ["group_id"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_group_game_group_id"), table_name="group_game")
    op.drop_table("group_game")
    op.drop_index(op.f("ix_game_seat_player_id"), table_name="game_seat")
    op.drop_index(op.f("ix_game_seat_game_id"), table_name="game_seat")
    op.drop_table("game_seat")
    op.drop_index(op.f("ix_group_player_merged_into_id"), table_name="group_player")
    op.drop_index(op.f("ix_group_player_group_id"), table_name="group_player")
    op.drop_table("group_player")
    op.drop_table("player_group")
