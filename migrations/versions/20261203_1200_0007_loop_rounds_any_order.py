"""loops say whether their rounds may take place in any order

Revision ID: 0007
Revises: 0004
Create Date: 2026-12-03 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Existing loops keep the plan's order (false), the default for new ones too.
    with op.batch_alter_table('loops', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rounds_any_order', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('loops', schema=None) as batch_op:
        batch_op.drop_column('rounds_any_order')
