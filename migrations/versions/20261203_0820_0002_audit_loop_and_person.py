"""audit entries name their loop and interviewer

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03 08:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('audit_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('loop_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('interviewer_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_audit_entries_loop_id'), ['loop_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_entries_interviewer_id'), ['interviewer_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('audit_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_entries_interviewer_id'))
        batch_op.drop_index(batch_op.f('ix_audit_entries_loop_id'))
        batch_op.drop_column('interviewer_id')
        batch_op.drop_column('loop_id')
