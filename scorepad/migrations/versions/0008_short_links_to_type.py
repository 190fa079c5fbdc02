"""short links to type: the director's (/d/<code>), each table's card (/t/<code>), each team's
card (/team/<code>), for a phone that cannot scan a QR code

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 09:00:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

# As in scorepad/models.py at this revision (a migration does not import the app's code).
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
COLUMNS = (("event", "director_code", 12), ("event_table", "short_code", 10), ("event_entrant", "short_code", 10))


def upgrade():
    # Plain ADD COLUMNs and unique indexes: no copy of `event` (on SQLite a copy would cascade to
    # everything of the event). Nullable, as `game.short_code`; every row made before this gets its
    # code here, and new rows get one from the models' defaults.
    bind = op.get_bind()
    for table, column, length in COLUMNS:
        # (A downgrade leaves the column in place on SQLite, so an upgrade again skips it.)
        if column not in {c["name"] for c in sa.inspect(bind).get_columns(table)}:
            op.add_column(table, sa.Column(column, sa.String(length=12), nullable=True))
        op.create_index(op.f(f"ix_{table}_{column}"), table, [column], unique=True)
        rows = sa.table(table, sa.column("id", sa.Integer), sa.column(column, sa.String))
        for (row_id,) in bind.execute(sa.select(rows.c.id).where(rows.c[column].is_(None))).all():
            code = "".join(secrets.choice(ALPHABET) for _ in range(length))
            bind.execute(rows.update().where(rows.c.id == row_id).values({column: code}))


def downgrade():
    for table, column, _ in reversed(COLUMNS):
        op.drop_index(op.f(f"ix_{table}_{column}"), table_name=table)
        if op.get_bind().dialect.name != "sqlite":
            op.drop_column(table, column)
