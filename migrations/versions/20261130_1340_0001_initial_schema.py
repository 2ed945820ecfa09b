"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-30 13:40:48
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import planner.db


revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('candidates',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_candidates'))
    )
    op.create_table('competencies',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('slug', sa.String(length=80), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('category', sa.Enum('technical', 'behavioural', 'leadership', name='category', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('rubric_strong', sa.Text(), nullable=False),
    sa.Column('rubric_weak', sa.Text(), nullable=False),
    sa.Column('phrases', sa.JSON(), nullable=False),
    sa.Column('retired_at', planner.db.UTCDateTime(), nullable=True),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', planner.db.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_competencies')),
    sa.UniqueConstraint('slug', name=op.f('uq_competencies_slug'))
    )
    op.create_table('postings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('team', sa.String(length=120), nullable=False),
    sa.Column('location', sa.String(length=200), nullable=False),
    sa.Column('level', sa.String(length=60), nullable=False),
    sa.Column('hiring_manager', sa.String(length=120), nullable=False),
    sa.Column('status', sa.Enum('draft', 'open', 'closed', name='posting_status', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', planner.db.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_postings'))
    )
    op.create_table('users',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('roles', sa.String(length=64), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_users')),
    sa.UniqueConstraint('email', name=op.f('uq_users_email'))
    )
    op.create_table('audit_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', planner.db.UTCDateTime(), nullable=False),
    sa.Column('actor_id', sa.Integer(), nullable=True),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('entity', sa.String(length=64), nullable=False),
    sa.Column('entity_id', sa.Integer(), nullable=True),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('details', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['actor_id'], ['users.id'], name=op.f('fk_audit_entries_actor_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_entries'))
    )
    with op.batch_alter_table('audit_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_entries_at'), ['at'], unique=False)

    op.create_table('interviewers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('team', sa.String(length=120), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('work_start', sa.String(length=5), nullable=False),
    sa.Column('work_end', sa.String(length=5), nullable=False),
    sa.Column('work_days', sa.String(length=32), nullable=False),
    sa.Column('max_per_day', sa.Integer(), nullable=False),
    sa.Column('max_per_week', sa.Integer(), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.Column('feed_token', sa.String(length=64), nullable=False),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', planner.db.UTCDateTime(), nullable=False),
    sa.CheckConstraint('max_per_day >= 0', name=op.f('ck_interviewers_max_per_day_nonnegative')),
    sa.CheckConstraint('max_per_week >= 0', name=op.f('ck_interviewers_max_per_week_nonnegative')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_interviewers_user_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_interviewers')),
    sa.UniqueConstraint('email', name=op.f('uq_interviewers_email')),
    sa.UniqueConstraint('feed_token', name=op.f('uq_interviewers_feed_token')),
    sa.UniqueConstraint('user_id', name=op.f('uq_interviewers_user_id'))
    )
    op.create_table('plan_versions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('posting_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('snapshot', sa.JSON(), nullable=False),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('published_by_id', sa.Integer(), nullable=True),
    sa.Column('published_at', planner.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['posting_id'], ['postings.id'], name=op.f('fk_plan_versions_posting_id_postings'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['published_by_id'], ['users.id'], name=op.f('fk_plan_versions_published_by_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_plan_versions')),
    sa.UniqueConstraint('posting_id', 'number', name=op.f('uq_plan_versions_posting_id'))
    )
    with op.batch_alter_table('plan_versions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_plan_versions_posting_id'), ['posting_id'], unique=False)

    op.create_table('posting_competencies',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('posting_id', sa.Integer(), nullable=False),
    sa.Column('competency_id', sa.Integer(), nullable=False),
    sa.Column('priority', sa.Enum('must-have', 'nice-to-have', name='priority', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('required_coverage', sa.Integer(), nullable=False),
    sa.Column('state', sa.Enum('suggested', 'accepted', 'rejected', name='selection_state', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('score', sa.Double(), nullable=True),
    sa.CheckConstraint('required_coverage >= 1', name=op.f('ck_posting_competencies_required_coverage_positive')),
    sa.ForeignKeyConstraint(['competency_id'], ['competencies.id'], name=op.f('fk_posting_competencies_competency_id_competencies')),
    sa.ForeignKeyConstraint(['posting_id'], ['postings.id'], name=op.f('fk_posting_competencies_posting_id_postings'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_posting_competencies')),
    sa.UniqueConstraint('posting_id', 'competency_id', name=op.f('uq_posting_competencies_posting_id'))
    )
    with op.batch_alter_table('posting_competencies', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_posting_competencies_competency_id'), ['competency_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_posting_competencies_posting_id'), ['posting_id'], unique=False)

    op.create_table('rounds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('posting_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=32), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('kind', sa.Enum('screen', 'technical', 'design', 'behavioural', 'bar-raiser', 'hiring-manager', name='round_kind', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('minutes', sa.Integer(), nullable=False),
    sa.Column('interviewers', sa.Integer(), nullable=False),
    sa.Column('focus_questions', sa.JSON(), nullable=False),
    sa.Column('min_outside_team', sa.Integer(), nullable=False),
    sa.Column('max_trainees', sa.Integer(), nullable=False),
    sa.CheckConstraint('interviewers >= 1', name=op.f('ck_rounds_interviewers_positive')),
    sa.CheckConstraint('max_trainees >= 0', name=op.f('ck_rounds_max_trainees_nonnegative')),
    sa.CheckConstraint('min_outside_team >= 0', name=op.f('ck_rounds_min_outside_team_nonnegative')),
    sa.CheckConstraint('minutes > 0', name=op.f('ck_rounds_minutes_positive')),
    sa.ForeignKeyConstraint(['posting_id'], ['postings.id'], name=op.f('fk_rounds_posting_id_postings'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rounds')),
    sa.UniqueConstraint('posting_id', 'key', name=op.f('uq_rounds_posting_id'))
    )
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rounds_posting_id'), ['posting_id'], unique=False)

    op.create_table('busy_blocks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('interviewer_id', sa.Integer(), nullable=False),
    sa.Column('start', planner.db.UTCDateTime(), nullable=False),
    sa.Column('end', planner.db.UTCDateTime(), nullable=False),
    sa.Column('summary', sa.String(length=200), nullable=False),
    sa.Column('source', sa.String(length=200), nullable=False),
    sa.CheckConstraint('"end" > start', name=op.f('ck_busy_blocks_end_after_start')),
    sa.ForeignKeyConstraint(['interviewer_id'], ['interviewers.id'], name=op.f('fk_busy_blocks_interviewer_id_interviewers'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_busy_blocks'))
    )
    with op.batch_alter_table('busy_blocks', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_busy_blocks_interviewer_id'), ['interviewer_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_busy_blocks_source'), ['source'], unique=False)

    op.create_table('evidence',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('posting_competency_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('sentence', sa.Text(), nullable=False),
    sa.Column('start', sa.Integer(), nullable=False),
    sa.Column('end', sa.Integer(), nullable=False),
    sa.Column('spans', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['posting_competency_id'], ['posting_competencies.id'], name=op.f('fk_evidence_posting_competency_id_posting_competencies'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_evidence'))
    )
    with op.batch_alter_table('evidence', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_evidence_posting_competency_id'), ['posting_competency_id'], unique=False)

    op.create_table('loops',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('posting_id', sa.Integer(), nullable=False),
    sa.Column('candidate_id', sa.Integer(), nullable=False),
    sa.Column('plan_version_id', sa.Integer(), nullable=True),
    sa.Column('status', sa.Enum('draft', 'scheduled', 'completed', 'cancelled', name='loop_status', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('hiring_team', sa.String(length=120), nullable=False),
    sa.Column('max_gap_minutes', sa.Integer(), nullable=True),
    sa.Column('location', sa.String(length=200), nullable=False),
    sa.Column('video_url', sa.String(length=500), nullable=False),
    sa.Column('coverage_override', sa.Text(), nullable=True),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', planner.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['candidate_id'], ['candidates.id'], name=op.f('fk_loops_candidate_id_candidates')),
    sa.ForeignKeyConstraint(['plan_version_id'], ['plan_versions.id'], name=op.f('fk_loops_plan_version_id_plan_versions')),
    sa.ForeignKeyConstraint(['posting_id'], ['postings.id'], name=op.f('fk_loops_posting_id_postings'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_loops'))
    )
    with op.batch_alter_table('loops', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_loops_candidate_id'), ['candidate_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_loops_posting_id'), ['posting_id'], unique=False)

    op.create_table('qualifications',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('interviewer_id', sa.Integer(), nullable=False),
    sa.Column('competency_id', sa.Integer(), nullable=False),
    sa.Column('level', sa.Enum('shadow', 'reverse-shadow', 'qualified', name='training_level', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('since', planner.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['competency_id'], ['competencies.id'], name=op.f('fk_qualifications_competency_id_competencies')),
    sa.ForeignKeyConstraint(['interviewer_id'], ['interviewers.id'], name=op.f('fk_qualifications_interviewer_id_interviewers'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_qualifications')),
    sa.UniqueConstraint('interviewer_id', 'competency_id', name=op.f('uq_qualifications_interviewer_id'))
    )
    with op.batch_alter_table('qualifications', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_qualifications_competency_id'), ['competency_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_qualifications_interviewer_id'), ['interviewer_id'], unique=False)

    op.create_table('round_competencies',
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('competency_id', sa.Integer(), nullable=False),
    sa.Column('focus', sa.Enum('primary', 'secondary', name='focus', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.ForeignKeyConstraint(['competency_id'], ['competencies.id'], name=op.f('fk_round_competencies_competency_id_competencies')),
    sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], name=op.f('fk_round_competencies_round_id_rounds'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('round_id', 'competency_id', name=op.f('pk_round_competencies'))
    )
    with op.batch_alter_table('round_competencies', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_competencies_competency_id'), ['competency_id'], unique=False)

    op.create_table('interviews',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('loop_id', sa.Integer(), nullable=False),
    sa.Column('round_key', sa.String(length=32), nullable=False),
    sa.Column('round_name', sa.String(length=120), nullable=False),
    sa.Column('round_detail', sa.JSON(), nullable=False),
    sa.Column('start', planner.db.UTCDateTime(), nullable=False),
    sa.Column('end', planner.db.UTCDateTime(), nullable=False),
    sa.Column('location', sa.String(length=200), nullable=False),
    sa.Column('video_url', sa.String(length=500), nullable=False),
    sa.Column('uid', sa.String(length=200), nullable=False),
    sa.Column('sequence', sa.Integer(), nullable=False),
    sa.Column('status', sa.Enum('scheduled', 'completed', 'cancelled', name='interview_status', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', planner.db.UTCDateTime(), nullable=False),
    sa.CheckConstraint('"end" > start', name=op.f('ck_interviews_end_after_start')),
    sa.ForeignKeyConstraint(['loop_id'], ['loops.id'], name=op.f('fk_interviews_loop_id_loops'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_interviews')),
    sa.UniqueConstraint('uid', name=op.f('uq_interviews_uid'))
    )
    with op.batch_alter_table('interviews', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_interviews_loop_id'), ['loop_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_interviews_start'), ['start'], unique=False)

    op.create_table('loop_windows',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('loop_id', sa.Integer(), nullable=False),
    sa.Column('start', planner.db.UTCDateTime(), nullable=False),
    sa.Column('end', planner.db.UTCDateTime(), nullable=False),
    sa.CheckConstraint('"end" > start', name=op.f('ck_loop_windows_end_after_start')),
    sa.ForeignKeyConstraint(['loop_id'], ['loops.id'], name=op.f('fk_loop_windows_loop_id_loops'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_loop_windows'))
    )
    with op.batch_alter_table('loop_windows', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_loop_windows_loop_id'), ['loop_id'], unique=False)

    op.create_table('outbox_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_id', sa.String(length=200), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('method', sa.String(length=16), nullable=False),
    sa.Column('recipient_email', sa.String(length=254), nullable=False),
    sa.Column('recipient_name', sa.String(length=120), nullable=False),
    sa.Column('subject', sa.String(length=300), nullable=False),
    sa.Column('body_text', sa.Text(), nullable=False),
    sa.Column('body_html', sa.Text(), nullable=False),
    sa.Column('ics', sa.LargeBinary(), nullable=False),
    sa.Column('interview_id', sa.Integer(), nullable=True),
    sa.Column('loop_id', sa.Integer(), nullable=True),
    sa.Column('sequence', sa.Integer(), nullable=False),
    sa.Column('state', sa.Enum('pending', 'sending', 'sent', 'failed', name='outbox_state', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', planner.db.UTCDateTime(), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=False),
    sa.Column('locked_by', sa.String(length=120), nullable=True),
    sa.Column('locked_at', planner.db.UTCDateTime(), nullable=True),
    sa.Column('sent_at', planner.db.UTCDateTime(), nullable=True),
    sa.Column('created_at', planner.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['interview_id'], ['interviews.id'], name=op.f('fk_outbox_messages_interview_id_interviews'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['loop_id'], ['loops.id'], name=op.f('fk_outbox_messages_loop_id_loops'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox_messages')),
    sa.UniqueConstraint('message_id', name=op.f('uq_outbox_messages_message_id'))
    )
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_messages_interview_id'), ['interview_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_messages_loop_id'), ['loop_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_messages_next_attempt_at'), ['next_attempt_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_messages_state'), ['state'], unique=False)

    op.create_table('scorecards',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('interview_id', sa.Integer(), nullable=False),
    sa.Column('interviewer_id', sa.Integer(), nullable=False),
    sa.Column('notes', sa.Text(), nullable=False),
    sa.Column('submitted_at', planner.db.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['interview_id'], ['interviews.id'], name=op.f('fk_scorecards_interview_id_interviews'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['interviewer_id'], ['interviewers.id'], name=op.f('fk_scorecards_interviewer_id_interviewers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_scorecards')),
    sa.UniqueConstraint('interview_id', 'interviewer_id', name=op.f('uq_scorecards_interview_id'))
    )
    with op.batch_alter_table('scorecards', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_scorecards_interview_id'), ['interview_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_scorecards_interviewer_id'), ['interviewer_id'], unique=False)

    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('interview_id', sa.Integer(), nullable=False),
    sa.Column('interviewer_id', sa.Integer(), nullable=False),
    sa.Column('role', sa.Enum('assessor', 'trainee', name='seat_role', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.Column('training_level', sa.String(length=32), nullable=True),
    sa.Column('status', sa.Enum('active', 'removed', name='seat_status', native_enum=False, create_constraint=True, length=32), nullable=False),
    sa.ForeignKeyConstraint(['interview_id'], ['interviews.id'], name=op.f('fk_seats_interview_id_interviews'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['interviewer_id'], ['interviewers.id'], name=op.f('fk_seats_interviewer_id_interviewers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seats')),
    sa.UniqueConstraint('interview_id', 'interviewer_id', name=op.f('uq_seats_interview_id'))
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_interview_id'), ['interview_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seats_interviewer_id'), ['interviewer_id'], unique=False)

    op.create_table('ratings',
    sa.Column('scorecard_id', sa.Integer(), nullable=False),
    sa.Column('competency_id', sa.Integer(), nullable=False),
    sa.Column('score', sa.Integer(), nullable=False),
    sa.CheckConstraint('score BETWEEN 1 AND 4', name=op.f('ck_ratings_score_range')),
    sa.ForeignKeyConstraint(['competency_id'], ['competencies.id'], name=op.f('fk_ratings_competency_id_competencies')),
    sa.ForeignKeyConstraint(['scorecard_id'], ['scorecards.id'], name=op.f('fk_ratings_scorecard_id_scorecards'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('scorecard_id', 'competency_id', name=op.f('pk_ratings'))
    )


def downgrade() -> None:
    op.drop_table('ratings')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_interviewer_id'))
        batch_op.drop_index(batch_op.f('ix_seats_interview_id'))

    op.drop_table('seats')
    with op.batch_alter_table('scorecards', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_scorecards_interviewer_id'))
        batch_op.drop_index(batch_op.f('ix_scorecards_interview_id'))

    op.drop_table('scorecards')
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_messages_state'))
        batch_op.drop_index(batch_op.f('ix_outbox_messages_next_attempt_at'))
        batch_op.drop_index(batch_op.f('ix_outbox_messages_loop_id'))
        batch_op.drop_index(batch_op.f('ix_outbox_messages_interview_id'))

    op.drop_table('outbox_messages')
    with op.batch_alter_table('loop_windows', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_loop_windows_loop_id'))

    op.drop_table('loop_windows')
    with op.batch_alter_table('interviews', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_interviews_start'))
        batch_op.drop_index(batch_op.f('ix_interviews_loop_id'))

    op.drop_table('interviews')
    with op.batch_alter_table('round_competencies', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_round_competencies_competency_id'))

    op.drop_table('round_competencies')
    with op.batch_alter_table('qualifications', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_qualifications_interviewer_id'))
        batch_op.drop_index(batch_op.f('ix_qualifications_competency_id'))

    op.drop_table('qualifications')
    with op.batch_alter_table('loops', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_loops_posting_id'))
        batch_op.drop_index(batch_op.f('ix_loops_candidate_id'))

    op.drop_table('loops')
    with op.batch_alter_table('evidence', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_evidence_posting_competency_id'))

    op.drop_table('evidence')
    with op.batch_alter_table('busy_blocks', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_busy_blocks_source'))
        batch_op.drop_index(batch_op.f('ix_busy_blocks_interviewer_id'))

    op.drop_table('busy_blocks')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rounds_posting_id'))

    op.drop_table('rounds')
    with op.batch_alter_table('posting_competencies', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_posting_competencies_posting_id'))
        batch_op.drop_index(batch_op.f('ix_posting_competencies_competency_id'))

    op.drop_table('posting_competencies')
    with op.batch_alter_table('plan_versions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_plan_versions_posting_id'))

    op.drop_table('plan_versions')
    op.drop_table('interviewers')
    with op.batch_alter_table('audit_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_entries_at'))

    op.drop_table('audit_entries')
    op.drop_table('users')
    op.drop_table('postings')
    op.drop_table('competencies')
    op.drop_table('candidates')
