"""audit said: an audit entry keeps the message its note was made from (template and params) beside
its English, so the control rooms say it in the reader's language (issue 15); null for the entries
written before

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 16:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("event_audit", schema=None) as batch_op:
        batch_op.add_column(sa.Column("said", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("event_audit", schema=None) as batch_op:
        batch_op.drop_column("said")
