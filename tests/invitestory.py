"""One loop that goes through every kind of change the planner announces, with the real services.

Schedule (confirm a proposal), reschedule a round, replace an assessor, replace a trainee, a re-plan that
moves a round because nobody can take the seat at its time, change the place, cancel one interview and cancel
the loop. The outbox is delivered between steps. Each step runs a minute after the one before, starting two
hours before the real clock, so every message the outbox holds is older than an export made now (the CLI
export stamps its files with the real time).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from changeutil import active
from loopworld import SETTINGS, World
from sqlalchemy import update

from planner.models import BusyBlock, Interview, Interviewer, OutboxMessage, OutboxState
from planner.services import changes, loops, replacements, scheduling


@dataclass
class Story:
    """What :func:`every_kind_of_change` did, for the assertions of a test."""

    loop_id: int
    tech_id: int
    mentor_id: int
    people: dict[str, Interviewer]
    #: (step, moment) in order: what happened when.
    steps: list[tuple[str, datetime]] = field(default_factory=list)
    #: The tech round's time before the re-plan moved it, and after.
    tech_before_move: tuple[datetime, datetime] | None = None
    tech_after_move: tuple[datetime, datetime] | None = None
    #: Who left and who joined at each replacement: (step, leaving, joining or None).
    swaps: list[tuple[str, Interviewer, Interviewer | None]] = field(default_factory=list)


def _pool(world: World) -> dict[str, Interviewer]:
    pool = world.basic_pool()  # Ana compiler assessor, Cleo mentoring, Dev compiler shadow
    pool["eve"] = world.person("Eve", "Europe/Berlin", {"mentoring": "qualified"}, team="platform",
                               hours=("09:00", "23:00"), caps=(3, 4))
    pool["ivy"] = world.person("Ivy", "America/New_York", {"compiler-design": "reverse-shadow"})
    return pool


def every_kind_of_change(db, *, start: datetime | None = None, stop_before: str | None = None) -> Story:
    """Run the whole story on ``db`` (committing as the services do) and say what happened.

    ``stop_before`` names a step ("cancel interview", "cancel loop", ...) to end the story before.
    """
    clock = [start or datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)]

    def tick(story_steps: list, step: str) -> datetime:
        # The outbox worker delivered everything between two steps: people taken off later were told.
        db.execute(update(OutboxMessage).where(OutboxMessage.state == OutboxState.PENDING)
                   .values(state=OutboxState.SENT, sent_at=clock[0]))
        db.commit()
        clock[0] += timedelta(minutes=1)
        story_steps.append((step, clock[0]))
        return clock[0]

    world = World(db)
    pool = _pool(world)
    loop = world.loop()
    db.commit()
    steps: list[tuple[str, datetime]] = []
    now = tick(steps, "schedule")
    proposal = scheduling.propose(db, loop.id, now=now)
    assert proposal.scheduled, proposal.reason
    created = scheduling.confirm(db, loop.id, proposal.interviews, actor_id=None, now=now, settings=SETTINGS)
    rounds = {i.round_key: i for i in created}
    tech, mentor = rounds["tech"], rounds["mentor"]
    story = Story(loop.id, tech.id, mentor.id, pool, steps)

    if stop_before == "reschedule":
        return story
    now = tick(steps, "reschedule")
    options = changes.reschedule_options(db, mentor.id, now=now)
    assert options, "the mentoring round has no other start"
    changes.reschedule_interview(db, mentor.id, options[0], reason="candidate asked", actor_id=None, now=now,
                                 settings=SETTINGS)

    if stop_before == "replace assessor":
        return story
    now = tick(steps, "replace assessor")
    leaving = next(s.interviewer for s in db.get(Interview, mentor.id).seats if s.status.value == "active")
    offer = replacements.replacement_options(db, mentor.id, leaving.id, now=now)
    assert offer.substitutes, offer.why_none
    joining = db.get(Interviewer, offer.substitutes[0].interviewer_id)
    replacements.replace_interviewer(db, mentor.id, leaving.id, joining_id=joining.id, reason="on leave",
                                     actor_id=None, now=now, settings=SETTINGS)
    story.swaps.append(("replace assessor", leaving, joining))

    if stop_before == "replace trainee":
        return story
    now = tick(steps, "replace trainee")
    # Dev (shadow) and Ivy (reverse-shadow) can both train on the tech round; the scheduler seats one of them
    # (which one depends on tie-breaks), and the other is then the only one who can take that seat.
    seated = active(db.get(Interview, tech.id))
    trainee, other = (pool["dev"], pool["ivy"]) if (pool["dev"].name, "trainee") in seated else (pool["ivy"],
                                                                                                 pool["dev"])
    assert (trainee.name, "trainee") in seated, f"Dev or Ivy should train on the tech round: {seated}"
    offer = replacements.replacement_options(db, tech.id, trainee.id, now=now)
    assert [o.name for o in offer.substitutes] == [other.name]
    replacements.replace_interviewer(db, tech.id, trainee.id, joining_id=other.id, reason="ill",
                                     actor_id=None, now=now, settings=SETTINGS)
    story.swaps.append(("replace trainee", trainee, other))

    if stop_before == "move":
        return story
    now = tick(steps, "move")
    # Gus is the only other compiler assessor and is busy at the tech round's time: Ana's seat can only
    # be filled at another time, so the re-plan moves the round.
    gus = world.person("Gus", "America/New_York", {"compiler-design": "qualified"}, caps=(3, 6))
    pool["gus"] = gus
    tech = db.get(Interview, tech.id)
    db.add(BusyBlock(interviewer_id=gus.id, start=tech.start, end=tech.end, summary="Dentist"))
    db.commit()
    offer = replacements.replacement_options(db, tech.id, pool["ana"].id, now=now)
    assert not offer.substitutes and offer.new_plan, offer.why_none
    story.tech_before_move = (tech.start, tech.end)
    replacements.replace_interviewer(db, tech.id, pool["ana"].id, plan=[c.as_dict() for c in offer.new_plan],
                                     reason="declined", actor_id=None, now=now, settings=SETTINGS)
    tech = db.get(Interview, tech.id)
    story.tech_after_move = (tech.start, tech.end)
    assert story.tech_after_move != story.tech_before_move
    story.swaps.append(("move", pool["ana"], gus))

    if stop_before == "change place":
        return story
    now = tick(steps, "change place")
    changes.update_place(db, tech.id, location="Room 4.12, Berlin; 2nd floor", video_url="https://video.example/r2",
                         reason="bigger room", actor_id=None, now=now, settings=SETTINGS)

    if stop_before == "cancel interview":
        return story
    now = tick(steps, "cancel interview")
    changes.cancel_interview(db, mentor.id, "round no longer needed", actor_id=None, now=now, settings=SETTINGS)

    if stop_before == "cancel loop":
        return story
    now = tick(steps, "cancel loop")
    loops.cancel_loop(db, loop.id, "candidate withdrew", actor_id=None, now=now, settings=SETTINGS)
    return story
