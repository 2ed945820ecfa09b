"""candidate scheduling links

Revision ID: 0006
Revises: 0008
Create Date: 2026-12-03 14:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import planner.db

revision: str = '0006'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'candidate_links',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('loop_id', sa.Integer(), nullable=False),
        sa.Column('secret_hash', sa.String(length=64), nullable=False),
        sa.Column('offer_horizon', sa.Boolean(), nullable=False),
        sa.Column('created_by', sa.Integer(), nullable=True),
        sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
        sa.Column('expires_at', planner.db.UTCDateTime(), nullable=False),
        sa.Column('revoked_at', planner.db.UTCDateTime(), nullable=True),
        sa.Column('timezone_confirmed_at', planner.db.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(['created_by'], ['users.id'], name=op.f('fk_candidate_links_created_by_users'),
                                ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['loop_id'], ['loops.id'], name=op.f('fk_candidate_links_loop_id_loops'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_candidate_links')),
        sa.UniqueConstraint('secret_hash', name=op.f('uq_candidate_links_secret_hash')),
    )
    with op.batch_alter_table('candidate_links', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_candidate_links_loop_id'), ['loop_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('candidate_links', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_candidate_links_loop_id'))
    op.drop_table('candidate_links')
