"""Write a loop's calendar files to a folder: current invites, the candidate's itinerary, and history.

Backs ``planner invites export --loop ID --out DIR [--history]``. Files:

* ``interview-<id>.ics``: each interview as it now stands, as the panel's REQUEST at the stored
  SEQUENCE (the calendar object the panel was last mailed), or for a cancelled interview a CANCEL
  at the stored SEQUENCE, which is one above the CANCEL that was mailed: written beside the
  history, it is a newer version of the cancellation, not a second CANCEL at the same SEQUENCE.
* ``itinerary.ics``: the candidate's itinerary (METHOD:PUBLISH, every round, no interviewer data);
  cancelled rounds carry the stored SEQUENCE too, one above the candidate's CANCEL.
* with history, ``history/interview-<id>/seqNN-<kind>-<method>.ics``: every distinct calendar object
  the outbox holds for the loop, in the order written (panel copies share one file; the candidate's
  copies are ``...-candidate-...``). Consecutive versions of one UID pass ``ics_check --pair``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.core.calendar import build_cancel, build_itinerary, build_request
from planner.core.errors import NotFound, ValidationFailed
from planner.models import InterviewStatus, Loop, OutboxMessage, SeatRole
from planner.services.invite_events import interview_event, panel, person_of
from planner.services.invites import MailSettings


@dataclass(frozen=True)
class ExportResult:
    """The files written, relative to the output folder."""

    folder: Path
    files: tuple[str, ...]


def _current_ics(session: Session, interview, settings: MailSettings, now: datetime) -> bytes:
    event = interview_event(session, interview, settings, last_modified=interview.updated_at or now)
    assessors, trainees = panel(interview)
    if interview.status == InterviewStatus.CANCELLED:
        if not assessors and not trainees:
            seats = sorted(interview.seats, key=lambda s: (s.role != SeatRole.ASSESSOR, s.interviewer.name))
            assessors = [person_of(s.interviewer) for s in seats]
        return build_cancel(event, settings.organizer, assessors, now, trainees=trainees)
    return build_request(event, settings.organizer, assessors, now, trainees=trainees)


def export_loop(
    session: Session,
    loop_id: int,
    out_dir: str | Path,
    *,
    settings: MailSettings,
    now: datetime,
    history: bool = False,
) -> ExportResult:
    """Write the loop's invites and itinerary (and, with ``history``, every version sent) to ``out_dir``.

    :raise NotFound: no loop with that id.
    :raise ValidationFailed: the loop has no interviews, or the folder cannot be written.
    """
    loop = session.get(Loop, loop_id)
    if loop is None:
        raise NotFound(f"Loop {loop_id} does not exist.")
    interviews = [i for i in loop.interviews if i.uid]
    if not interviews:
        raise ValidationFailed(f"Loop {loop_id} has no scheduled interviews to export.")
    folder = Path(out_dir)
    files: dict[str, bytes] = {}
    for interview in interviews:
        files[f"interview-{interview.id}.ics"] = _current_ics(session, interview, settings, now)
    events = [interview_event(session, i, settings, last_modified=i.updated_at or now) for i in interviews]
    files["itinerary.ics"] = build_itinerary(
        events, settings.organizer, f"Your interviews for {events[0].posting_title}", now
    )
    if history:
        files.update(_history(session, loop.id))
    try:
        for name, data in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    except OSError as exc:
        raise ValidationFailed(f"Cannot write to {folder}: {exc.strerror or exc}.") from None
    return ExportResult(folder, tuple(files))


def _history(session: Session, loop_id: int) -> dict[str, bytes]:
    rows = session.scalars(
        select(OutboxMessage).where(OutboxMessage.loop_id == loop_id).order_by(OutboxMessage.id)
    )
    seen: set[bytes] = set()
    out: dict[str, bytes] = {}
    for row in rows:
        digest = hashlib.sha256(row.ics).digest()
        if digest in seen or row.interview_id is None:
            continue
        seen.add(digest)
        who = "candidate-" if row.kind == "itinerary" else ""
        kind = "" if row.kind == "itinerary" else f"{row.kind}-"
        name = (
            f"history/interview-{row.interview_id}/seq{row.sequence:02d}-{who}{kind}{row.method.lower()}.ics"
        )
        out[name] = row.ics
    return out
