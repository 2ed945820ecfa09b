"""Audit entries in words: one sentence per action from its details, names of what is gone, kinds, safe CSV cells."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from planner.core.audit.cells import safe_cell, safe_row
from planner.core.audit.kinds import KINDS, OTHER, kind_choices, kind_of
from planner.core.audit.wording import SENTENCES, Entry, LoopName, Names, competency_slugs, describe, when, who

BERLIN = ZoneInfo("Europe/Berlin")
NAMES = Names(loops={3: LoopName("Kim Lee", 1, "Compiler Engineer")}, interviews={9: "Compiler design"},
              people={5: "Jordan Park", 6: "Ana Ruiz"}, postings={1: "Compiler Engineer"},
              competencies={"mentoring": "Mentoring"}, competency_ids={4: "Mentoring"})

#: A typical entry of each action, as the services write it today.
TYPICAL = {
    "posting.create": ("posting", 1, {"title": "Compiler Engineer", "suggestions": 4}),
    "posting.update": ("posting", 1, {"changed": ["title", "text"]}),
    "posting.extract": ("posting", 1, {"suggestions": 1}),
    "posting.competency.accept": ("posting", 1, {"competency": "mentoring", "priority": "must-have",
                                                 "required_coverage": 2}),
    "posting.competency.reject": ("posting", 1, {"competency": "mentoring"}),
    "posting.competency.save": ("posting", 1, {"competency": "mentoring", "priority": "nice-to-have",
                                               "required_coverage": 1}),
    "posting.competency.add": ("posting", 1, {"competency": "mentoring", "priority": "must-have",
                                              "required_coverage": 2}),
    "posting.competency.restore": ("posting", 1, {"competency": "mentoring"}),
    "posting.competency.accept_all": ("posting", 1, {"count": 3}),
    "competency.create": ("competency", 4, {"slug": "mentoring", "name": "Mentoring"}),
    "competency.update": ("competency", 4, {"slug": "mentoring", "changed": ["description"]}),
    "competency.retire": ("competency", 4, {"slug": "mentoring"}),
    "competency.restore": ("competency", 4, {"slug": "mentoring"}),
    "library.seed": ("competency", None, {"added": 57}),
    "plan_published": ("posting", 1, {"version": 2, "rounds": 4, "draft_loops": 1}),
    "plan_suggested": ("posting", 1, {"budget_minutes": 240, "rounds": 4, "replaced": 0}),
    "round_added": ("round", 8, {"posting_id": 1, "name": "Bar raiser"}),
    "round_updated": ("round", 8, {"posting_id": 1, "name": "Bar raiser"}),
    "round_removed": ("round", 8, {"posting_id": 1, "name": "Bar raiser"}),
    "round_moved": ("round", 8, {"posting_id": 1, "name": "Bar raiser", "direction": "up"}),
    "coverage_override": ("loop", 3, {"posting_id": 1, "uncovered": ["mentoring"]}),
    "loop_created": ("loop", 3, {"posting_id": 1, "candidate": "Kim Lee", "windows": 2}),
    "loop_windows_changed": ("loop", 3, {"windows": 2, "max_gap_minutes": {"from": 60, "to": None}}),
    "loop_scheduled": ("loop", 3, {"interviews": [9, 10]}),
    "loop_cancelled": ("loop", 3, {"interviews": [9]}),
    "interview_rescheduled": ("interview", 9, {"loop_id": 3, "from": "2026-12-08T09:00:00Z",
                                               "to": "2026-12-09T13:00:00Z"}),
    "interview_cancelled": ("interview", 9, {"loop_id": 3, "round": "tech"}),
    "interview_place_changed": ("interview", 9, {"interviews": [9], "location": "Room 4", "video_url": ""}),
    "interviewer_replaced": ("interview", 9, {"loop_id": 3, "leaving": 5, "joining": 6, "changes": []}),
    "scorecard_submitted": ("scorecard", 2, {"interview_id": 9, "ratings": {"mentoring": 3}}),
    "scorecard_saved": ("scorecard", 2, {"interview_id": 9, "rated": 1}),
    "scorecard_reminder_queued": ("interviewer", 5, {"interviews": [9, 10], "day": "2026-12-10"}),
    "feed.rotate": ("interviewer", 5, {}),
    "interviewer.create": ("interviewer", 5, {"email": "jordan@example.com"}),
    "interviewer.update": ("interviewer", 5, {"fields": ["timezone", "max_per_day"]}),
    "interviewer.deactivate": ("interviewer", 5, {}),
    "interviewer.reactivate": ("interviewer", 5, {}),
    "qualification.add": ("interviewer", 5, {"competency": "mentoring", "level": "shadow"}),
    "qualification.change": ("interviewer", 5, {"competency": "mentoring", "from": "shadow", "to": "qualified"}),
    "qualification.remove": ("interviewer", 5, {"competency": "mentoring", "level": "shadow"}),
    "qualification.promote": ("interviewer", 5, {"competency": "mentoring", "from": "shadow",
                                                 "to": "reverse-shadow", "forced": True}),
    "busy.add": ("interviewer", 5, {"block": 1, "start": "2026-12-08T09:00:00+00:00",
                                    "end": "2026-12-08T10:00:00+00:00"}),
    "busy.delete": ("interviewer", 5, {"block": 1, "source": "manual"}),
    "busy.import": ("interviewer", 5, {"source": "import:Work", "imported": 12, "replaced": 3}),
    "busy.remove_import": ("interviewer", 5, {"source": "import:Work", "removed": 12}),
    "outbox.resend": ("outbox_message", 4, {"previous_state": "failed", "recipient": "ana@example.com"}),
    "outbox_withdrawn": ("interview", 9, {"recipient": "ana@example.com", "messages": [4, 5],
                                          "kinds": ["invite (SEQUENCE 0)", "update (SEQUENCE 1)"],
                                          "cancel_sent": False}),
    "interview_rebooked": ("interview", 9, {"loop_id": 3, "cancelled": 8, "round": "tech",
                                            "start": "2030-03-05T15:00:00+00:00", "interviewers": [5],
                                            "trainees": []}),
    "calendar.set": ("calendar_source", 2, {"created": True, "url": "https://cal.example/ana/", "username": "ana",
                                            "secret": "changed"}),
    "calendar.sync": ("calendar_source", 2, {"blocks": 9, "previous": 7, "events": 5, "added": 3, "removed": 1,
                                             "from": "2030-03-04T00:00:00+00:00", "to": "2030-05-03T00:00:00+00:00"}),
    "calendar.remove": ("calendar_source", 2, {"url": "https://cal.example/ana/", "removed_blocks": 9}),
    "calendar.rotate_key": ("calendar_source", None, {"secrets": 4}),
    "user.create": ("user", 1, {"email": "casey@example.com", "roles": "coordinator"}),
    "user.update": ("user", 1, {"email": "casey@example.com", "changed": ["timezone"]}),
    "user.password": ("user", 1, {"email": "casey@example.com"}),
    "demo.load": ("posting", 1, {"postings": 1}),
    "posting.competency.switch": ("posting", 1, {"from": "ownership", "to": "customer-ownership", "evidence": 2}),
    "reply_recorded": ("seat", 11, {"interview_id": 9, "partstat": "declined", "via": "mail", "sequence": 0,
                                    "inbound_id": 2, "start": "2026-12-08T09:00:00+00:00"}),
    "invite_answered": ("seat", 11, {"interview_id": 9, "partstat": "accepted", "via": "app",
                                     "start": "2026-12-08T09:00:00+00:00"}),
    "counter_received": ("inbound_message", 2, {"interview_id": 9, "start": "2026-12-09T13:00:00+00:00",
                                                "end": "2026-12-09T14:00:00+00:00", "via": "mail"}),
    "counter_accepted": ("inbound_message", 2, {"interview_id": 9, "start": "2026-12-09T13:00:00+00:00"}),
    "counter_dismissed": ("inbound_message", 2, {"interview_id": 9, "start": "2026-12-09T13:00:00+00:00"}),
    "candidate_link_created": ("candidate_link", 1, {"expires_at": "2026-12-15T11:00:00+00:00", "revoked": [],
                                                     "offer_horizon": True, "to": None}),
    "candidate_link_sent": ("candidate_link", 2, {"expires_at": "2026-12-15T11:00:00+00:00", "revoked": [1],
                                                  "offer_horizon": True, "to": "kim@cand.example"}),
    "candidate_link_revoked": ("candidate_link", 2, {"links": [2]}),
    "candidate_booked": ("loop", 3, {"by": "candidate", "start": "2026-12-08T09:00:00Z", "interviews": [9, 10],
                                     "plan_version_id": 1}),
    "candidate_rescheduled": ("loop", 3, {"by": "candidate", "from": "2026-12-08T09:00:00+00:00",
                                          "to": "2026-12-09T13:00:00Z", "interviews": [9, 10]}),
    "candidate_cancelled": ("loop", 3, {"by": "candidate", "interviews": [9, 10]}),
    "candidate_timezone_set": ("loop", 3, {"by": "candidate", "from": "America/New_York", "to": "Asia/Singapore",
                                           "detected": True}),
    "candidate_availability": ("loop", 3, {"by": "candidate", "windows": [["2026-12-08T09:00:00+00:00",
                                                                           "2026-12-08T14:00:00+00:00"]]}),
}


def say(action: str, entity: str, entity_id, details: dict, **columns) -> str:
    return describe(Entry(action, entity, entity_id, details, **columns), NAMES, BERLIN)


def test_every_known_action_has_a_typical_entry():
    """The table below covers every sentence, and nothing else."""
    assert set(TYPICAL) == set(SENTENCES)


@pytest.mark.parametrize("action", sorted(TYPICAL))
def test_each_action_reads_as_its_own_sentence(action):
    """The sentence is the action's own (not the fallback), names things, and leaks no raw None or braces."""
    entity, entity_id, details = TYPICAL[action]
    on_a_loop = entity in ("loop", "interview", "seat", "inbound_message", "candidate_link")
    loop = 3 if on_a_loop or "loop_id" in details else None
    person = 5 if entity in ("interviewer", "seat", "inbound_message") else None
    text = say(action, entity, entity_id, details, loop_id=loop, interviewer_id=person)
    fallback = action.replace(".", " ").replace("_", " ")
    assert text and not text.lower().startswith(fallback.lower())
    assert "None" not in text and "{" not in text and "#" not in text


@pytest.mark.parametrize(("action", "entity", "entity_id", "details", "expected"), [
    ("interview_rescheduled", "interview", 9, {"loop_id": 3, "from": "2026-12-08T09:00:00Z",
                                               "to": "2026-12-09T13:00:00Z"},
     "Rescheduled Compiler design for Kim Lee from Tue 8 Dec 10:00 to Wed 9 Dec 14:00"),
    ("interviewer_replaced", "interview", 9, {"loop_id": 3, "leaving": 5, "joining": 6},
     "Replaced Jordan Park by Ana Ruiz on Compiler design for Kim Lee"),
    ("interviewer_replaced", "interview", 9, {"loop_id": 3, "leaving": 5, "joining": None},
     "Took Jordan Park off Compiler design for Kim Lee"),
    ("qualification.promote", "interviewer", 5, {"competency": "mentoring", "from": "shadow",
                                                 "to": "reverse-shadow", "forced": True},
     "Promoted Jordan Park in Mentoring from shadow to reverse-shadow before finishing the training interviews"),
    ("loop_windows_changed", "loop", 3, {"windows": 1, "max_gap_minutes": {"from": None, "to": 90}},
     "Changed the availability windows of Kim Lee's loop (1 window); longest break between rounds now 90 minutes"),
    ("busy.add", "interviewer", 5, {"start": "2026-03-28T09:00:00+00:00", "end": "2026-03-29T09:00:00+00:00"},
     "Added a busy block for Jordan Park: Sat 28 Mar 10:00 to Sun 29 Mar 11:00"),
])
def test_sentences_use_the_details_and_the_viewers_zone(action, entity, entity_id, details, expected):
    """Readable sentences with Berlin times (the busy block spans the March DST change: 10:00 CET, 11:00 CEST)."""
    assert say(action, entity, entity_id, details) == expected


@pytest.mark.parametrize(("action", "details", "expected"), [
    ("reply_recorded", {"interview_id": 9, "partstat": "declined", "via": "mail",
                        "start": "2026-12-08T09:00:00+00:00"},
     "Jordan Park declined Compiler design for Kim Lee (Tue 8 Dec 10:00)"),
    ("reply_recorded", {"interview_id": 9, "partstat": "tentative", "via": "upload"},
     "Jordan Park tentatively accepted Compiler design for Kim Lee (answer uploaded)"),
    ("invite_answered", {"interview_id": 9, "partstat": "accepted", "via": "app",
                         "start": "2026-03-29T08:00:00+00:00"},
     "Jordan Park accepted Compiler design for Kim Lee (Sun 29 Mar 10:00) on their interviews page"),
    ("counter_received", {"interview_id": 9, "start": "2026-12-09T13:00:00+00:00", "via": "mail"},
     "Jordan Park proposed moving Compiler design for Kim Lee to Wed 9 Dec 14:00"),
    ("counter_accepted", {"interview_id": 9, "start": "2026-12-09T13:00:00+00:00"},
     "Accepted Jordan Park's proposed time for Compiler design for Kim Lee: Wed 9 Dec 14:00"),
    ("counter_dismissed", {"interview_id": 9},
     "Kept the time of Compiler design for Kim Lee; dismissed Jordan Park's proposal"),
    ("candidate_link_sent", {"expires_at": "2026-12-15T11:00:00+00:00", "revoked": [1]},
     "Sent Kim Lee a link to book their interviews (works until Tue 15 Dec 12:00); the older link no longer works"),
    ("candidate_link_created", {"expires_at": "2026-12-15T11:00:00+00:00", "revoked": []},
     "Made Kim Lee a link to book their interviews (works until Tue 15 Dec 12:00)"),
    ("candidate_link_revoked", {"links": [1, 2]}, "Revoked Kim Lee's link to book their interviews (2 links)"),
    ("candidate_booked", {"by": "candidate", "start": "2026-12-08T09:00:00Z", "interviews": [9, 10, 11]},
     "Kim Lee booked 3 interviews, starting Tue 8 Dec 10:00; invites queued"),
    ("candidate_rescheduled", {"by": "candidate", "from": "2026-12-08T09:00:00+00:00", "to": "2026-12-09T13:00:00Z"},
     "Kim Lee moved their interviews from Tue 8 Dec 10:00 to Wed 9 Dec 14:00"),
    ("candidate_cancelled", {"by": "candidate", "interviews": [9]},
     "Kim Lee cancelled 1 interview; the loop is a draft again"),
    ("candidate_timezone_set", {"by": "candidate", "from": "UTC", "to": "Asia/Singapore", "detected": True},
     "Kim Lee's time zone set to Asia/Singapore (detected by their browser; it was UTC)"),
    ("candidate_availability", {"by": "candidate", "windows": [["a", "b"], ["c", "d"]]},
     "Kim Lee gave their availability (2 windows)"),
])
def test_answers_and_candidate_actions_read_as_sentences(action, details, expected):
    """Answers name the person, the round, the candidate and the interview's time in the viewer's zone (Berlin: the
    app answer is on the day of the March change, 08:00 UTC is 10:00 CEST); candidates' actions name them."""
    entity = {"reply_recorded": "seat", "invite_answered": "seat"}.get(action, "loop")
    person = 5 if entity == "seat" or action.startswith("counter") else None
    assert say(action, entity, 11, details, loop_id=3, interviewer_id=person) == expected


def test_a_switch_to_the_runner_up_names_both_competencies():
    """The slugs of a switch are looked up as competencies (and listed for the read side to find their names)."""
    names = Names(postings={1: "Compiler Engineer"},
                  competencies={"ownership": "Ownership", "customer-ownership": "Customer ownership"})
    entry = Entry("posting.competency.switch", "posting", 1, {"from": "ownership", "to": "customer-ownership"})
    assert describe(entry, names, BERLIN) == \
        "Switched Ownership to its runner-up Customer ownership on Compiler Engineer"
    assert competency_slugs(entry) == ["ownership", "customer-ownership"]
    assert competency_slugs(Entry("qualification.change", "interviewer", 5,
                                  {"competency": "mentoring", "from": "shadow", "to": "qualified"})) == ["mentoring"]


def test_what_is_gone_is_named_from_the_details_or_by_number():
    """A deleted loop keeps the candidate named in the entry; otherwise its number; an interview by its number."""
    assert say("loop_created", "loop", 77, {"candidate": "Zoe Park", "posting_id": 99}) == \
        "Created a loop for Zoe Park on posting #99"
    assert say("loop_cancelled", "loop", 77, {"interviews": []}) == "Cancelled loop #77 and 0 upcoming interviews"
    assert say("interview_cancelled", "interview", 55, {"loop_id": 3}) == "Cancelled interview #55 for Kim Lee"
    assert say("qualification.add", "interviewer", 42, {"competency": "retired-skill", "level": "shadow"}) == \
        "Gave interviewer #42 retired-skill at shadow level"


def test_unknown_actions_and_odd_details_fall_back_to_words():
    """An action nobody describes, or details of another shape, still give a sentence, never an exception."""
    assert say("reply.counter_proposed", "interview", 9, {}) == "Reply counter proposed (interview #9)"
    assert say("caldav_synced", "", None, {}) == "Caldav synced"
    assert say("interview_rescheduled", "interview", 9, {"from": 12, "to": ["x"]}).startswith("Rescheduled")
    assert say("loop_scheduled", "loop", 3, {"interviews": "many"}) == "Scheduled Kim Lee's loop: 0 interviews, " \
                                                                        "invites queued"


def test_who_did_it():
    """A login by name; no login: an interviewer's calendar for replies, else the system."""
    entry = Entry("loop_created", "loop", 1, {}, actor_id=4)
    assert who(entry, "Casey") == "Casey" and who(entry, None) == "user #4 (deleted)"
    assert who(Entry("reply.recorded", "interview", 1, {}), None) == "interviewer via calendar"
    assert who(Entry("busy.sync", "interviewer", 1, {"via": "calendar"}), None) == "interviewer via calendar"
    assert who(Entry("scorecard_reminder_queued", "interviewer", 1, {}), None) == "system"
    assert who(Entry("counter_received", "inbound_message", 1, {"via": "mail"}), None) == "interviewer via calendar"
    assert who(Entry("candidate_booked", "loop", 1, {"by": "candidate"}), None) == "candidate"
    # An uploaded answer or one given in the app is the login's who made it.
    assert who(Entry("reply_recorded", "seat", 1, {"via": "upload"}, actor_id=4), "Casey") == "Casey"
    assert who(Entry("invite_answered", "seat", 1, {"via": "app"}, actor_id=7), "Jordan Park") == "Jordan Park"


def test_when_reads_iso_text_in_the_zone():
    """ISO text with Z or an offset becomes a local day and time; unreadable text is kept as it is."""
    assert when("2026-10-25T00:30:00Z", BERLIN) == "Sun 25 Oct 02:30"
    assert when("2026-10-25T01:30:00+00:00", BERLIN) == "Sun 25 Oct 02:30"  # after the change back: CET
    assert when("not a time", BERLIN) == "not a time" and when(None, BERLIN) == "?"


def test_every_described_action_has_a_kind_and_kinds_are_distinct():
    """Each described action belongs to exactly one named kind; anything else is "other"."""
    for action in SENTENCES:
        matching = [k.key for k in KINDS if k.matches(action)]
        assert len(matching) == 1, (action, matching)
    assert kind_of("reply.recorded") == OTHER
    keys = [key for key, _label in kind_choices()]
    assert len(keys) == len(set(keys)) and keys[-1] == OTHER
    assert kind_of("reply_recorded") == kind_of("counter_dismissed") == "answers"
    assert kind_of("candidate_booked") == kind_of("candidate_link_sent") == "candidates"
    assert kind_of("posting.competency.switch") == "postings"


@pytest.mark.parametrize(("value", "expected"), [
    ("=1+2", "'=1+2"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("plain", "plain"), ("a=b", "a=b"), ("", ""), (None, ""), (42, "42"), (-3, "'-3"),
])
def test_cells_that_would_start_a_formula_are_quoted(value, expected):
    """OWASP CSV injection: a leading = + - @ tab or CR gets a single quote; other text is unchanged."""
    assert safe_cell(value) == expected
    assert safe_row([value, "ok"]) == [expected, "ok"]
