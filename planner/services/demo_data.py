"""The worked example's people and plan, as plain data (times are built relative to `now`)."""

from __future__ import annotations

POSTING = {
    "title": "Senior ML Compiler Engineer, Neuron",
    "team": "Neuron Compiler",
    "location": "Seattle, WA / Cupertino, CA",
    "level": "Senior",
    "hiring_manager": "Dana Whitfield",
}
HIRING_TEAM = "neuron-compiler"
MUST_HAVES = ("compiler-design", "customer-ownership", "pre-silicon-feedback", "mentoring")

# (name, kind, minutes, interviewers, [(slug, focus)], min_outside_team, questions)
ROUNDS = [
    ("Compiler design deep-dive", "technical", 60, 1,
     [("compiler-design", "primary"), ("coding", "secondary")], 0,
     ["Walk through an optimisation pass you designed: IR, legality, cost model.",
      "How would you lower a fused attention kernel to a systolic-array accelerator?"]),
    ("Accelerator architecture", "design", 60, 1,
     [("compiler-design", "primary"), ("pre-silicon-feedback", "primary"), ("system-design", "secondary")], 0,
     ["Design the memory-tiling strategy for a new accelerator generation.",
      "Which hardware features would make this compiler simpler, and why?"]),
    ("Pre-silicon review", "technical", 45, 1,
     [("pre-silicon-feedback", "primary"), ("communication", "secondary")], 0,
     ["Tell me about programmability feedback you gave before a chip was built.",
      "How do you weigh a hardware change against a compiler workaround?"]),
    ("Customer ownership", "behavioural", 45, 1,
     [("customer-ownership", "primary"), ("cross-functional-collaboration", "secondary")], 0,
     ["Describe a customer-critical feature you owned end to end.",
      "Tell me about a time you unblocked a partner team under pressure."]),
    ("Bar raiser", "bar-raiser", 60, 2,
     [("customer-ownership", "primary"), ("mentoring", "primary")], 1,
     ["When did you raise the bar for a team, and how did you know it worked?",
      "Tell me about an engineer you mentored: what changed for them?"]),
    ("Hiring manager", "hiring-manager", 45, 1,
     [("mentoring", "primary"), ("technical-leadership", "secondary")], 0,
     ["How do you grow engineers on a small, fast-moving team?",
      "What would your first 90 days on the Neuron compiler look like?"]),
]

# (name, email, team, timezone, hours, caps (day, week), {slug: level})
INTERVIEWERS = [
    ("Priya Raman", "priya.raman@demo.test", "neuron-compiler", "America/Los_Angeles", ("09:00", "17:00"), (2, 5),
     {"compiler-design": "qualified", "pre-silicon-feedback": "qualified", "mentoring": "qualified"}),
    ("Marcus Webb", "marcus.webb@demo.test", "neuron-compiler", "America/Los_Angeles", ("08:30", "16:30"), (2, 4),
     {"compiler-design": "qualified", "customer-ownership": "qualified", "coding": "qualified"}),
    ("Jordan Park", "interviewer@demo.test", "neuron-compiler", "America/Los_Angeles", ("10:00", "18:00"), (2, 4),
     {"compiler-design": "qualified", "mentoring": "reverse-shadow", "pre-silicon-feedback": "shadow"}),
    ("Sofia Alvarez", "sofia.alvarez@demo.test", "annapurna-silicon", "America/Los_Angeles", ("09:00", "17:00"), (1, 3),
     {"pre-silicon-feedback": "qualified", "system-design": "qualified"}),
    ("Hannah Brooks", "hannah.brooks@demo.test", "ml-frameworks", "America/New_York", ("09:00", "17:30"), (2, 5),
     {"customer-ownership": "qualified", "cross-functional-collaboration": "qualified", "mentoring": "qualified"}),
    ("Daniel Kim", "daniel.kim@demo.test", "neuron-runtime", "America/New_York", ("09:00", "17:00"), (2, 4),
     {"customer-ownership": "qualified", "compiler-design": "reverse-shadow", "coding": "qualified"}),
    ("Olivia Grant", "olivia.grant@demo.test", "bar-raisers", "America/New_York", ("08:00", "16:00"), (2, 6),
     {"customer-ownership": "qualified", "mentoring": "qualified", "technical-leadership": "qualified"}),
    ("Ethan Moore", "ethan.moore@demo.test", "neuron-compiler", "America/New_York", ("10:00", "18:00"), (2, 4),
     {"compiler-design": "qualified", "system-design": "qualified", "mentoring": "shadow"}),
    ("Aoife Byrne", "aoife.byrne@demo.test", "annapurna-silicon", "Europe/Dublin", ("09:00", "17:30"), (2, 4),
     {"pre-silicon-feedback": "qualified", "communication": "qualified"}),
    ("Lukas Weber", "lukas.weber@demo.test", "neuron-compiler", "Europe/Berlin", ("09:00", "18:00"), (2, 5),
     {"compiler-design": "qualified", "pre-silicon-feedback": "reverse-shadow", "coding": "qualified"}),
    ("Chloe Martin", "chloe.martin@demo.test", "bar-raisers", "Europe/London", ("09:00", "17:00"), (2, 5),
     {"mentoring": "qualified", "customer-ownership": "qualified", "cross-functional-collaboration": "qualified"}),
    ("Ravi Iyer", "ravi.iyer@demo.test", "ml-frameworks", "Europe/London", ("08:00", "16:00"), (1, 3),
     {"customer-ownership": "shadow", "communication": "qualified", "compiler-design": "shadow"}),
    ("Mei Tanaka", "mei.tanaka@demo.test", "neuron-compiler", "America/Los_Angeles", ("07:00", "15:00"), (2, 5),
     {"technical-leadership": "qualified", "mentoring": "qualified", "compiler-design": "qualified"}),
    ("Samuel Osei", "samuel.osei@demo.test", "annapurna-silicon", "America/New_York", ("09:00", "17:00"), (2, 4),
     {"pre-silicon-feedback": "qualified", "mentoring": "reverse-shadow", "system-design": "qualified"}),
]

#: The demo loop scheduled through the real use case, so a new user sees a finished example.
SCHEDULED_CANDIDATE = "alex.chen@example.com"
# (name, email, timezone, days ahead of the next Monday, local window hours)
CANDIDATES = [
    ("Kim Lee", "kim.lee@example.com", "Europe/Berlin", (0, 1), ("15:00", "20:00")),
    ("Alex Chen", "alex.chen@example.com", "America/Los_Angeles", (1, 2), ("09:00", "17:00")),
    ("Sam Okafor", "sam.okafor@example.com", "America/New_York", (2, 3), ("10:00", "18:00")),
]

USERS = [
    ("coordinator@demo.test", "Casey Coordinator", ("coordinator",), "America/Los_Angeles"),
    ("manager@demo.test", "Dana Whitfield", ("manager",), "America/Los_Angeles"),
    ("interviewer@demo.test", "Jordan Park", ("interviewer",), "America/Los_Angeles"),
]
PASSWORD = "planner-demo"

#: A loop that took place last week, so the evidence view, scorecards and training progress have something to
#: show: some scorecards submitted, some still missing, and two trainees whose seat makes them ready to move up.
PAST_CANDIDATE = ("Riley Summers", "riley.summers@example.com", "America/Los_Angeles")
#: round name -> (assessor emails, trainee email or None); the loop's rounds start at 09:00 the candidate's time.
PAST_PANELS = {
    "Compiler design deep-dive": (["interviewer@demo.test"], "daniel.kim@demo.test"),
    "Accelerator architecture": (["priya.raman@demo.test"], None),
    "Pre-silicon review": (["sofia.alvarez@demo.test"], None),
    "Customer ownership": (["hannah.brooks@demo.test"], None),
    "Bar raiser": (["olivia.grant@demo.test", "chloe.martin@demo.test"], None),
    "Hiring manager": (["mei.tanaka@demo.test"], "interviewer@demo.test"),
}
#: Submitted scorecards: (round name, interviewer email) -> ({slug: score}, notes). Everyone else's is missing
#: (Jordan Park's on the compiler round among them: his page asks for it).
PAST_SCORECARDS = {
    ("Accelerator architecture", "priya.raman@demo.test"): (
        {"compiler-design": 4, "pre-silicon-feedback": 3, "system-design": 3},
        "Clear tiling strategy with a cost model; hardware asks were concrete but not yet prioritised."),
    ("Customer ownership", "hannah.brooks@demo.test"): (
        {"customer-ownership": 3, "cross-functional-collaboration": 3},
        "Owned a customer escalation end to end; good partner-team story."),
    ("Bar raiser", "olivia.grant@demo.test"): (
        {"customer-ownership": 4, "mentoring": 3},
        "Raised the bar on code review for a team of six; measured it by defect escape rate."),
    ("Bar raiser", "chloe.martin@demo.test"): (
        {"customer-ownership": 3, "mentoring": 1},
        "Mentoring examples were about delegating tasks rather than growing people."),
    ("Hiring manager", "interviewer@demo.test"): (
        {"mentoring": 3, "technical-leadership": 3},
        "Trainee notes: structured 90-day plan, concrete growth stories."),
}
