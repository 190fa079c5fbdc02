"""the PIN's try count and recovery code; who signed a match's sheet, and why signatures went

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 12:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

EVENT = [
    sa.Column("pin_tries", sa.Integer(), nullable=False, server_default="0"),
    sa.Column("pin_tries_since", sa.DateTime(), nullable=True),
    sa.Column("pin_recovery", sa.String(length=64), nullable=True),
]
MATCH = [
    sa.Column("signed_home_by", sa.String(length=80), nullable=True),
    sa.Column("signed_away_by", sa.String(length=80), nullable=True),
    sa.Column("sign_note", sa.String(length=200), nullable=False, server_default=""),
]


def _add(table, columns):
    # Plain ADD COLUMNs (no batch copy of the table: on SQLite a copy of `event` would cascade to
    # everything it owns). A downgrade keeps them on SQLite, so an upgrade again skips them.
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}
    for column in columns:
        if column.name not in have:
            op.add_column(table, column)


def upgrade():
    _add("event", EVENT)
    _add("event_match", MATCH)


def downgrade():
    if op.get_bind().dialect.name != "sqlite":
        for column in MATCH:
            op.drop_column("event_match", column.name)
        for column in EVENT:
            op.drop_column("event", column.name)
