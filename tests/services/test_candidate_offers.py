"""Times offered to a candidate: each one a whole loop the engine can staff, checked by the validator."""

from __future__ import annotations

import random
import secrets
from datetime import timedelta
from zoneinfo import ZoneInfo

from candidateworld import OFFERS, issue, offers_now, validator_errors
from loopworld import NOW, World, utc

from planner.models import BusyBlock
from planner.services.candidate_offers import OfferCache, OfferSettings, get_offers


def test_horizon_offers_lie_in_business_hours_after_the_notice(db):
    """Without windows, starts are on the half hour, 09:00-17:00 New York time, at least 24 hours ahead."""
    world = World(db)
    world.basic_pool()
    loop = world.loop(windows=())
    issue(db, loop)
    offered = offers_now(db, loop)
    assert offered.times
    zone = ZoneInfo("America/New_York")
    for time in offered.times:
        local = time.start.astimezone(zone)
        assert time.start >= NOW + timedelta(hours=24)
        assert local.minute in (0, 30) and local.weekday() < 5
        assert 9 <= local.hour and time.end.astimezone(zone).hour * 60 + time.end.astimezone(zone).minute <= 17 * 60
    # Ana (Los Angeles, 06:00-14:00) holds the only compiler seat: never before 09:00 New York time.
    days = {t.start.astimezone(zone).date() for t in offered.times}
    assert min(days).isoformat() == "2030-03-05"


def test_every_offered_time_passes_the_validator(db):
    """A pool of 24 people with random busy time and other loops' seats: every offer is a valid plan."""
    world = World(db)
    rng = random.Random(7)
    zones = ["America/Los_Angeles", "Europe/London", "America/New_York"]
    people = []
    for n in range(24):
        skills = {slug: rng.choice(["qualified", "qualified", "shadow"])
                  for slug in rng.sample(["compiler-design", "mentoring", "pre-silicon-feedback"], 2)}
        people.append(world.person(f"P{n}", zones[n % 3], skills, caps=(rng.choice([1, 2]), 3),
                                   team=rng.choice(["neuron-compiler", "bar-raisers"])))
    for person in people:
        for _ in range(4):
            start = utc(2030, 3, 5, 8) + timedelta(minutes=15 * rng.randrange(0, 4 * 24 * 6))
            db.add(BusyBlock(interviewer_id=person.id, start=start, end=start + timedelta(minutes=90)))
        if rng.random() < 0.4:
            start = utc(2030, 3, 6, 14) + timedelta(hours=rng.randrange(0, 60))
            world.booked(person, start, start + timedelta(hours=1))
    loop = world.loop(windows=(), tz="Europe/London")
    db.flush()
    issue(db, loop)
    offered = offers_now(db, loop)
    assert len(offered.times) >= 10
    for time in offered.times:
        assert validator_errors(db, loop, time) == [], time.start


def test_coordinator_windows_bound_the_offers(db):
    """A loop with windows typed by the coordinator is offered starts inside them only."""
    world = World(db)
    world.basic_pool()
    window = (utc(2030, 3, 6, 16), utc(2030, 3, 6, 20))
    loop = world.loop(windows=(window,))
    issue(db, loop)
    offered = offers_now(db, loop)
    assert offered.times and all(window[0] <= t.start and t.end <= window[1] for t in offered.times)
    assert all(validator_errors(db, loop, t) == [] for t in offered.times)


def test_a_loop_without_a_gap_limit_may_split_over_two_days(db):
    """Ana can do one interview a day: with no gap limit the mentoring round moves to a later day."""
    world = World(db)
    pool = world.basic_pool()
    pool["cleo"].work_start, pool["cleo"].work_end = "09:00", "10:00"
    split = world.loop(windows=(), max_gap=None)
    day = world.loop("Lou Park", windows=(), max_gap=60)
    issue(db, split)
    issue(db, day)
    split_times = offers_now(db, split).times
    assert any(t.end - t.start > timedelta(hours=12) for t in split_times)
    assert all(t.end - t.start <= timedelta(hours=9) for t in offers_now(db, day).times)
    assert all(validator_errors(db, split, t) == [] for t in split_times)


def test_unstaffable_loop_offers_nothing(db):
    """Nobody is qualified in compiler design: no time is offered."""
    world = World(db)
    world.person("Cleo", "America/New_York", {"mentoring": "qualified"})
    loop = world.loop(windows=())
    issue(db, loop)
    assert offers_now(db, loop).times == []


def test_cache_is_kept_until_busy_time_caps_or_seats_change(db):
    """The cached offers are reused while nothing changes, and recomputed after each kind of change."""
    world = World(db)
    pool = world.basic_pool()
    loop = world.loop(windows=())
    issue(db, loop)
    cache = OfferCache()
    settings = OfferSettings(horizon_days=7, cache_seconds=600)

    def fetch():
        return get_offers(db, loop, True, now=NOW, settings=settings, cache=cache)

    first = fetch()
    assert not first.cached and fetch().cached
    taken = first.times[0]
    # Ana, the only compiler assessor, is busy all that day.
    db.add(BusyBlock(interviewer_id=pool["ana"].id, start=taken.start - timedelta(hours=6),
                     end=taken.start + timedelta(hours=12)))
    db.flush()
    after_busy = fetch()
    assert not after_busy.cached and taken.start not in {t.start for t in after_busy.times}
    assert fetch().cached
    pool["cleo"].max_per_week = 4
    db.flush()
    assert not fetch().cached
    world.booked(pool["cleo"], utc(2030, 3, 8, 15), utc(2030, 3, 8, 16))
    assert not fetch().cached
    assert fetch().cached
    loop.candidate.timezone = "Europe/Berlin"
    db.flush()
    assert not fetch().cached


def test_cached_offers_drop_starts_that_passed(db):
    """An answer computed earlier is served later without the starts now inside the notice period."""
    world = World(db)
    world.basic_pool()
    loop = world.loop(windows=())
    issue(db, loop)
    cache = OfferCache()
    settings = OfferSettings(horizon_days=7, cache_seconds=24 * 3600)
    first = get_offers(db, loop, True, now=NOW, settings=settings, cache=cache)
    later = get_offers(db, loop, True, now=NOW + timedelta(hours=3), settings=settings, cache=cache)
    assert later.cached
    assert [t.start for t in later.times] == [t.start for t in first.times if t.start >= NOW + timedelta(hours=27)]
    assert OFFERS.notice == timedelta(hours=24) and secrets  # the defaults these tests assume
