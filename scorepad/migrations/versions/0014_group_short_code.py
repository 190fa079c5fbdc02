"""group short code: a group's code to type under "Watch a game", as a game's and a card's
(issue 31, item 17); the groups made before get one here

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 13:30:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # models.SHORT_ALPHABET as it is today
LENGTH = 10  # models.CARD_CODE_LENGTH


def upgrade():
    with op.batch_alter_table("player_group", schema=None) as batch_op:
        batch_op.add_column(sa.Column("short_code", sa.String(length=12), nullable=True))
    groups = sa.table("player_group", sa.column("id", sa.Integer), sa.column("short_code", sa.String))
    connection = op.get_bind()
    taken: set[str] = set()
    for (group_id,) in connection.execute(sa.select(groups.c.id)).all():
        code = ""
        while not code or code in taken:
            code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        taken.add(code)
        connection.execute(groups.update().where(groups.c.id == group_id).values(short_code=code))
    with op.batch_alter_table("player_group", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_group_short_code"), ["short_code"], unique=True)


def downgrade():
    with op.batch_alter_table("player_group", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_group_short_code"))
        batch_op.drop_column("short_code")
