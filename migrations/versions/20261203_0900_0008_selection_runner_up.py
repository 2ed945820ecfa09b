"""a suggested competency remembers its runner-up

Revision ID: 0008
Revises: 0002
Create Date: 2026-12-03 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('posting_competencies', schema=None) as batch_op:
        batch_op.add_column(sa.Column('runner_up_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('runner_up_reason', sa.Text(), nullable=False, server_default=''))
        batch_op.create_index(batch_op.f('ix_posting_competencies_runner_up_id'), ['runner_up_id'], unique=False)
        batch_op.create_foreign_key(
            batch_op.f('fk_posting_competencies_runner_up_id_competencies'),
            'competencies',
            ['runner_up_id'],
            ['id'],
            ondelete='SET NULL',
        )


def downgrade() -> None:
    with op.batch_alter_table('posting_competencies', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_posting_competencies_runner_up_id_competencies'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_posting_competencies_runner_up_id'))
        batch_op.drop_column('runner_up_reason')
        batch_op.drop_column('runner_up_id')
