"""game short code: the short spectator link /s/<code>

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 10:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN and a unique index: no copy of `game` (on SQLite a copy would cascade to its
    # hands). Nullable: games made before this get their code the first time they are shared.
    # (A downgrade leaves the column in place on SQLite, so an upgrade again skips it.)
    if "short_code" not in {c["name"] for c in sa.inspect(op.get_bind()).get_columns("game")}:
        op.add_column("game", sa.Column("short_code", sa.String(length=12), nullable=True))
    op.create_index(op.f("ix_game_short_code"), "game", ["short_code"], unique=True)


def downgrade():
    op.drop_index(op.f("ix_game_short_code"), table_name="game")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_column("game", "short_code")
