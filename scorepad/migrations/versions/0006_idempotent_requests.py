"""idempotent requests: a write's Idempotency-Key and the answer it got

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 14:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "idempotent_request",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotent_request")),
        sa.UniqueConstraint("key", name=op.f("uq_idempotent_request_key")),
    )
    op.create_index(op.f("ix_idempotent_request_created_at"), "idempotent_request", ["created_at"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_idempotent_request_created_at"), table_name="idempotent_request")
    op.drop_table("idempotent_request")
