"""CalDAV calendars of interviewers, with encrypted secrets and sync state

Revision ID: 0004
Revises: 0005
Create Date: 2026-12-03 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import planner.db

revision: str = '0004'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('calendar_sources',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('interviewer_id', sa.Integer(), nullable=False),
    sa.Column('url', sa.String(length=500), nullable=False),
    sa.Column('username', sa.String(length=200), nullable=False),
    sa.Column('secret', sa.Text(), nullable=True),
    sa.Column('state_token', sa.String(length=500), nullable=True),
    sa.Column('state_horizon_end', planner.db.UTCDateTime(), nullable=True),
    sa.Column('last_success_at', planner.db.UTCDateTime(), nullable=True),
    sa.Column('last_block_count', sa.Integer(), nullable=False),
    sa.Column('last_failure_at', planner.db.UTCDateTime(), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=False),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', planner.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['interviewer_id'], ['interviewers.id'],
                            name=op.f('fk_calendar_sources_interviewer_id_interviewers'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_calendar_sources')),
    sa.UniqueConstraint('interviewer_id', name=op.f('uq_calendar_sources_interviewer_id'))
    )


def downgrade() -> None:
    # The blocks a calendar brought go with it (they could not be refreshed or removed any more).
    busy_blocks = sa.table('busy_blocks', sa.column('source', sa.String))
    op.execute(busy_blocks.delete().where(busy_blocks.c.source.like('caldav:%')))
    op.drop_table('calendar_sources')
