"""Per-round staffability: can some panel of qualified people hold every competency of a round together?"""

import random

from planner.core.coverage import (
    CompetencyReq,
    PoolMember,
    RoundCompetency,
    RoundPlan,
    SeatRules,
    build_bench,
    build_pool,
    check_round,
    compute_coverage,
    team_slug,
)
from planner.core.coverage.staffing import staffing_issue

REQS = [
    CompetencyReq("reliability", "Reliability", "technical"),
    CompetencyReq("communication", "Communication", "behavioural"),
    CompetencyReq("security", "Security", "technical"),
]
ALL = ("reliability", "communication", "security")


def _round(slugs=ALL, interviewers=1, outside=0, key="deep", name="Technical deep-dive", secondary=()):
    items = [RoundCompetency(slug) for slug in slugs] + [RoundCompetency(s, "secondary") for s in secondary]
    return RoundPlan(key, name, "technical", 60, interviewers, items, seat_rules=SeatRules(outside))


def _person(key, *slugs, team="core"):
    return PoolMember(key, team, frozenset(slugs))


def _coverage(rounds, pool, hiring_team=None):
    bench = build_bench([{slug: "qualified" for slug in person.qualified} for person in pool])
    return compute_coverage(REQS, rounds, bench, pool=pool, hiring_team=hiring_team)


SPLIT_POOL = [_person("ana", "reliability", "communication"), _person("raj", "security"),
              _person("kim", "communication")]


def test_one_person_panel_needs_one_person_holding_everything():
    """A one-interviewer round on three competencies is staffable only by someone qualified in all three."""
    assert not check_round(_round(), SPLIT_POOL).staffable
    pool = [*SPLIT_POOL, _person("lee", *ALL), _person("mo", *ALL, "coding")]
    staffing = check_round(_round(), pool)
    assert staffing.staffable and staffing.panelists == 2


def test_nobody_holding_all_together_is_an_error_naming_round_and_competencies():
    """The coverage says in plain words that nobody can staff the round, as a critical issue, per round."""
    coverage = _coverage([_round()], SPLIT_POOL)
    issue = next(item for item in coverage.issues if item.code == "unstaffable-round")
    assert issue.severity == "critical" and issue.round_key == "deep"
    assert issue.message == (
        "Nobody can staff 'Technical deep-dive': no one is qualified in Reliability, Communication and "
        "Security together, and it has one interviewer. Split the round, add an interviewer seat, or "
        "qualify someone in all three.")
    check = coverage.round("deep")
    assert (check.staffable, check.panelists) == (False, 0)
    assert issue.message in check.warnings and "unstaffable-round" in check.warning_codes
    assert [item.key for item in coverage.unstaffable_rounds] == ["deep"]
    assert coverage.as_dict()["unstaffable_rounds"] == ["deep"]


def test_two_person_panel_needs_the_pair():
    """With two seats, Ana (reliability + communication) and Raj (security) together staff the round."""
    staffing = check_round(_round(interviewers=2), SPLIT_POOL)
    # Kim (communication only) has no partner covering reliability and security: not a panelist.
    assert staffing.staffable and staffing.panelists == 2
    without_raj = [person for person in SPLIT_POOL if person.key != "raj"]
    assert not check_round(_round(interviewers=2), without_raj).staffable
    message = _coverage([_round(interviewers=2)], without_raj).round("deep").warnings[0]
    assert message.startswith("Nobody can staff 'Technical deep-dive': no one is qualified in Security.")


def test_more_seats_than_qualified_people():
    """Three seats but only two people qualified in any of the competencies: nobody can staff it."""
    pool = [_person("ana", *ALL), _person("raj", "security")]
    assert not check_round(_round(interviewers=3), pool).staffable
    message = _coverage([_round(interviewers=3)], pool).round("deep").warnings[0]
    assert "it has three interviewer seats but only two people are qualified" in message


def test_outside_team_minimum_counts_only_people_from_other_teams():
    """One seat from outside the hiring team: a qualified insider alone does not make the round staffable."""
    pool = [_person("ana", *ALL, team="neuron-compiler"), _person("raj", "security", team="bar-raisers")]
    rnd = _round(interviewers=2, outside=1)
    staffing = check_round(rnd, pool, "neuron-compiler")
    assert staffing.staffable and staffing.panelists == 2
    single = _round(outside=1)
    assert check_round(single, pool, None).staffable  # no hiring team: everybody is outside
    assert not check_round(single, pool, "neuron-compiler").staffable
    message = _coverage([single], pool, "neuron-compiler").round("deep").warnings[0]
    assert "must come from outside the hiring team" in message


def test_nobody_qualified_at_all():
    """An empty pool (or trainees only) staffs nothing, and the issue names the competency."""
    pool = build_pool([(1, "core", "security", "shadow")])
    assert pool == []
    rnd = _round(slugs=("security",))
    assert not check_round(rnd, pool).staffable
    message = _coverage([rnd], pool).round("deep").warnings[0]
    assert message.startswith("Nobody can staff 'Technical deep-dive': no one is qualified in Security.")


def test_secondary_focus_does_not_bind_the_panel():
    """Like the scheduler, only primary competencies must be held; secondary ones are extra."""
    pool = [_person("ana", "reliability")]
    assert check_round(_round(slugs=("reliability",), secondary=("security",)), pool).staffable


def test_without_a_pool_nothing_is_judged():
    """Callers without qualifications get the old coverage: no staffing fields, no new issue."""
    coverage = compute_coverage(REQS, [_round()])
    assert coverage.round("deep").staffable is None and coverage.unstaffable_rounds == ()
    assert not any(item.code == "unstaffable-round" for item in coverage.issues)


def test_team_slug_reads_a_posting_team_like_a_loop_hiring_team():
    """'Neuron Compiler' is the hiring team 'neuron-compiler', the key interviewers' teams use."""
    assert team_slug("Neuron Compiler") == "neuron-compiler" and team_slug("") == ""


def test_the_remembering_pool_answers_as_a_plain_list_does():
    """build_pool's pool keeps groups and verdicts across rounds and teams; each answer, asked in any order and
    more than once, is the one a plain list of the same people gives."""
    rng = random.Random(5)
    slugs = ["reliability", "communication", "security", "design", "mentoring"]
    names = {slug: slug.title() for slug in slugs}
    # Few competency lists, so the same list comes back with other seats, outsiders and teams.
    lists = [("reliability",), ("reliability", "security"), ("security", "reliability"),
             ("communication", "design", "mentoring")]
    for _ in range(30):
        rows = [(person, rng.choice(["core", "infra", "web"]), slug, rng.choice(["qualified", "shadow"]))
                for person in range(rng.randint(0, 12)) for slug in rng.sample(slugs, rng.randint(1, 3))]
        remembering = build_pool(rows)
        plain = list(remembering)
        for _ in range(60):
            plan = _round(rng.choice(lists), interviewers=rng.randint(1, 3), outside=rng.randint(0, 2))
            team = rng.choice([None, "", "core", "web", "elsewhere"])
            expected = check_round(plan, plain, team)
            assert check_round(plan, remembering, team) == expected
            assert (staffing_issue(plan, expected, remembering, names, team)
                    == staffing_issue(plan, expected, plain, names, team))
