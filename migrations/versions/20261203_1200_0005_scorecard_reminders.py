"""scorecard reminders, and plain emails in the outbox

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-03 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import planner.db

revision: str = '0005'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.alter_column('ics', existing_type=sa.LargeBinary(), nullable=True)
        batch_op.add_column(sa.Column('sender_email', sa.String(length=254), nullable=True))
        batch_op.add_column(sa.Column('sender_name', sa.String(length=120), nullable=True))

    op.create_table('scorecard_reminders',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('interviewer_id', sa.Integer(), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('interview_ids', sa.JSON(), nullable=False),
    sa.Column('outbox_message_id', sa.Integer(), nullable=True),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['interviewer_id'], ['interviewers.id'], name=op.f('fk_scorecard_reminders_interviewer_id_interviewers'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['outbox_message_id'], ['outbox_messages.id'], name=op.f('fk_scorecard_reminders_outbox_message_id_outbox_messages'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_scorecard_reminders')),
    sa.UniqueConstraint('interviewer_id', 'day', name=op.f('uq_scorecard_reminders_interviewer_id'))
    )


def downgrade() -> None:
    op.drop_table('scorecard_reminders')
    # Plain emails have no calendar object: they cannot stay once the column requires one.
    outbox = sa.table('outbox_messages', sa.column('ics', sa.LargeBinary()))
    op.execute(outbox.delete().where(outbox.c.ics.is_(None)))
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.drop_column('sender_name')
        batch_op.drop_column('sender_email')
        batch_op.alter_column('ics', existing_type=sa.LargeBinary(), nullable=False)
