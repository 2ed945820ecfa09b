"""Typed ORM models, one module per aggregate; importing this package registers them all."""

from planner.db import Base
from planner.models.calendars import CalendarSource
from planner.models.candidate_links import CandidateLink
from planner.models.data_version import DataVersion
from planner.models.inbound import CounterState, InboundMessage, InboundOutcome
from planner.models.loops import (
    Candidate,
    Interview,
    InterviewStatus,
    Loop,
    LoopStatus,
    LoopWindow,
    PartStat,
    Seat,
    SeatRole,
    SeatStatus,
)
from planner.models.people import BusyBlock, Interviewer, Qualification, TrainingLevel
from planner.models.plans import Focus, PlanVersion, Round, RoundCompetency, RoundKind
from planner.models.postings import (
    Competency,
    CompetencyCategory,
    Evidence,
    Posting,
    PostingCompetency,
    PostingStatus,
    Priority,
    SelectionState,
)
from planner.models.records import AuditEntry, OutboxMessage, OutboxState, Rating, Scorecard
from planner.models.reminders import ScorecardReminder
from planner.models.users import ROLES, User

__all__ = [
    "DataVersion",
    "CounterState", "InboundMessage", "InboundOutcome", "PartStat",
    "ROLES", "AuditEntry", "Base", "BusyBlock", "CalendarSource", "Candidate", "CandidateLink", "Competency",
    "CompetencyCategory",
    "Evidence", "Focus", "Interview", "InterviewStatus", "Interviewer", "Loop", "LoopStatus",
    "LoopWindow", "OutboxMessage", "OutboxState", "PlanVersion", "Posting", "PostingCompetency",
    "PostingStatus", "Priority", "Qualification", "Rating", "Round", "RoundCompetency", "RoundKind",
    "Scorecard", "ScorecardReminder", "Seat", "SeatRole", "SeatStatus", "SelectionState", "TrainingLevel", "User",
]
