"""a row whose token changes with every committed write, for the page cache

Revision ID: 0009
Revises: 0007
Create Date: 2026-12-03 16:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'data_version',
        sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('token', sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )


def downgrade() -> None:
    op.drop_table('data_version')
