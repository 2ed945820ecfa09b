"""calendar answers: the interviewer's answer on each seat, and the inbox of processed messages

Revision ID: 0003
Revises: 0006
Create Date: 2026-12-03 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import planner.db

revision: str = '0003'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('inbound_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('received_at', planner.db.UTCDateTime(), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('imap_key', sa.String(length=300), nullable=True),
    sa.Column('fingerprint', sa.String(length=300), nullable=True),
    sa.Column('sender', sa.String(length=254), nullable=False),
    sa.Column('subject', sa.String(length=300), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('method', sa.String(length=16), nullable=False),
    sa.Column('calendar_uid', sa.String(length=255), nullable=False),
    sa.Column('attendee', sa.String(length=254), nullable=False),
    sa.Column('partstat', sa.String(length=16), nullable=False),
    sa.Column('sequence', sa.Integer(), nullable=True),
    sa.Column('comment', sa.Text(), nullable=False),
    sa.Column('proposed_start', planner.db.UTCDateTime(), nullable=True),
    sa.Column('proposed_end', planner.db.UTCDateTime(), nullable=True),
    sa.Column('outcome', sa.Enum('applied', 'stale', 'refused', 'counter', 'duplicate', name='inbound_outcome', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('interview_id', sa.Integer(), nullable=True),
    sa.Column('loop_id', sa.Integer(), nullable=True),
    sa.Column('interviewer_id', sa.Integer(), nullable=True),
    sa.Column('actor_id', sa.Integer(), nullable=True),
    sa.Column('counter_state', sa.Enum('open', 'moved', 'dismissed', name='counter_state', native_enum=False, create_constraint=True, length=32), nullable=True),
    sa.Column('resolved_at', planner.db.UTCDateTime(), nullable=True),
    sa.Column('resolved_by', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['actor_id'], ['users.id'], name=op.f('fk_inbound_messages_actor_id_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['interview_id'], ['interviews.id'], name=op.f('fk_inbound_messages_interview_id_interviews'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['interviewer_id'], ['interviewers.id'], name=op.f('fk_inbound_messages_interviewer_id_interviewers'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['loop_id'], ['loops.id'], name=op.f('fk_inbound_messages_loop_id_loops'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['resolved_by'], ['users.id'], name=op.f('fk_inbound_messages_resolved_by_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_inbound_messages')),
    sa.UniqueConstraint('imap_key', name=op.f('uq_inbound_messages_imap_key'))
    )
    with op.batch_alter_table('inbound_messages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_messages_fingerprint'), ['fingerprint'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_messages_interview_id'), ['interview_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_messages_interviewer_id'), ['interviewer_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_messages_loop_id'), ['loop_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_messages_outcome'), ['outcome'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_messages_received_at'), ['received_at'], unique=False)

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('partstat', sa.Enum('accepted', 'tentative', 'declined', 'needs-action', name='partstat', native_enum=False, create_constraint=True, length=32), nullable=True))
        batch_op.add_column(sa.Column('partstat_at', planner.db.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('partstat_comment', sa.Text(), server_default='', nullable=False))
        batch_op.add_column(sa.Column('partstat_via', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        # The enum's CHECK names the column: it goes first, or SQLite's table copy would still carry it.
        batch_op.drop_constraint(batch_op.f('ck_seats_partstat'), type_='check')
        batch_op.drop_column('partstat_via')
        batch_op.drop_column('partstat_comment')
        batch_op.drop_column('partstat_at')
        batch_op.drop_column('partstat')

    with op.batch_alter_table('inbound_messages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbound_messages_received_at'))
        batch_op.drop_index(batch_op.f('ix_inbound_messages_outcome'))
        batch_op.drop_index(batch_op.f('ix_inbound_messages_loop_id'))
        batch_op.drop_index(batch_op.f('ix_inbound_messages_interviewer_id'))
        batch_op.drop_index(batch_op.f('ix_inbound_messages_interview_id'))
        batch_op.drop_index(batch_op.f('ix_inbound_messages_fingerprint'))

    op.drop_table('inbound_messages')
