"""A hosted game's settings (adjudicator/hosted/settings.py): every key read and refused, the round trip, the
deadline arithmetic across daylight-saving changes, the grace then the NMR extensions, the reminder and the pause."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings as hsettings, strategies as st
from jsonschema import Draft202012Validator

from adjudicator.hosted import settings as settings_module
from adjudicator.hosted.errors import HostedError
from adjudicator.hosted.settings import (KEYS, SETTINGS_SCHEMA, YEAR, Clock, Durations, Extended, Extensions,
                                         PauseCap, Settings)
from adjudicator.refusals import Kind

FULL = {
    "public_readiness": False,
    "phase_seconds": 86400,
    "phase_durations": {"movement": 172800, "retreat": 43200, "adjustment": 43200},
    "deadline_clock": {"time": "21:00", "zone": "Europe/Paris"},
    "grace_seconds": 3600,
    "nmr_extensions": {"count": 1, "seconds": 86400},
    "pause": {"max_seconds": 604800, "max_times": 3},
    "reminder_seconds": 3600,
    "draws": "dias",
    "secret_votes": True,
    "votes_survive_phase": True,
    "disorder_votes": "yes",
    "disorder_after": 2,
    "scoring": "draw-size",
    "end_year": None,
    "gunboat": True,
    "anonymous_seats": True,
    "messages_visible_after_end": True,
    "game_master_reads_messages": False,
}
VALIDATOR = Draft202012Validator(SETTINGS_SCHEMA)


def utc(*args: int) -> float:
    return datetime(*args, tzinfo=timezone.utc).timestamp()


def refused(data, pointer: str = "/settings") -> HostedError:
    with pytest.raises(HostedError) as caught:
        Settings.from_json(data, pointer)
    assert caught.value.kind is Kind.BAD_INPUT and caught.value.title == "Bad request"
    return caught.value


# --- reading -----------------------------------------------------------------------------------------------

def test_the_full_form_reads_and_round_trips_exactly():
    read = Settings.from_json(FULL)
    assert read.to_json() == FULL and list(read.to_json()) == list(FULL) == list(KEYS)
    assert read.phase_durations == Durations(172800, 43200, 43200)
    assert read.deadline_clock == Clock("21:00", "Europe/Paris")
    assert read.nmr_extensions == Extensions(1, 86400) and read.pause == PauseCap(604800, 3)
    assert Settings.from_json(json.loads(json.dumps(read.to_json()))) == read


def test_defaults():
    default = Settings.from_json({})
    assert default == Settings() == Settings.from_json(None)
    assert default.to_json() == {
        "public_readiness": False, "phase_seconds": None, "phase_durations": {}, "deadline_clock": None,
        "grace_seconds": 0, "nmr_extensions": {"count": 0, "seconds": 86400},
        "pause": {"max_seconds": 604800, "max_times": 3}, "reminder_seconds": 0, "draws": "dias",
        "secret_votes": True, "votes_survive_phase": True, "disorder_votes": "yes", "disorder_after": 2,
        "scoring": "draw-size", "end_year": None, "gunboat": False, "anonymous_seats": False,
        "messages_visible_after_end": False, "game_master_reads_messages": False}
    assert default.deadline("movement", 1000.0) is None  # no duration, no clock: no deadline


def test_an_old_games_stored_settings_still_read():
    old = Settings.from_json({"public_readiness": True, "phase_seconds": 3600})
    assert old.public_readiness is True and old.phase_seconds == 3600
    assert old.deadline("movement", 100.0) == 3700.0 and old.deadline("retreat", 100.0) == 3700.0
    assert Settings.from_json({"public_readiness": False, "phase_seconds": None}) == Settings()


def test_a_sub_object_may_give_some_of_its_keys():
    read = Settings.from_json({"nmr_extensions": {"count": 2}, "pause": {"max_times": 0},
                               "phase_durations": {"retreat": 600}})
    assert read.nmr_extensions == Extensions(2, 86400) and read.pause == PauseCap(604800, 0)
    assert read.to_json()["phase_durations"] == {"retreat": 600}


def test_the_given_scoring_is_kept_as_given_and_not_shared():
    choice = {"system": "c-diplo", "solo": 73}
    read = Settings.from_json({"scoring": choice})
    choice["solo"] = 1
    assert read.scoring == {"system": "c-diplo", "solo": 73}
    shown = read.to_json()
    shown["scoring"]["solo"] = 2
    assert read.scoring["solo"] == 73
    assert read.scoring_system().name == "c-diplo" and read.scoring_system().solo == 73
    assert Settings.from_json({"scoring": "sos"}).to_json()["scoring"] == "sos"  # an alias, as given


def test_not_an_object():
    error = refused([1, 2])
    assert error.extra["pointer"] == "/settings"
    assert "settings: must be an object with the keys public_readiness, phase_seconds" in error.detail
    assert "not a list" in error.detail


def test_an_unknown_key_lists_the_keys_and_suggests_the_closest():
    error = refused({"phase_second": 60})
    assert error.detail.startswith("settings: unknown key \"phase_second\" (did you mean 'phase_seconds'?); the keys: "
                                   "public_readiness, phase_seconds, phase_durations")
    assert error.extra["suggestions"] == ["phase_seconds"] and error.extra["pointer"] == "/settings"
    far = refused({"zzz": 1})
    assert "did you mean" not in far.detail and "the keys: public_readiness" in far.detail
    assert "suggestions" not in far.extra


def test_the_pointer_is_the_callers():
    error = refused({"grace_seconds": -1}, pointer="/body/settings")
    assert error.extra["pointer"] == "/body/settings/grace_seconds"


@pytest.mark.parametrize("key", ["public_readiness", "secret_votes", "votes_survive_phase", "gunboat", "anonymous_seats",
                                 "messages_visible_after_end", "game_master_reads_messages"])
@pytest.mark.parametrize("value", [1, 0, "true", None, [True]])
def test_a_flag_is_true_or_false(key, value):
    error = refused({key: value})
    assert error.detail.startswith(f"{key}: must be true or false, not ")
    assert error.extra["pointer"] == f"/settings/{key}"
    assert Settings.from_json({key: True}).to_json()[key] is True
    assert Settings.from_json({key: False}).to_json()[key] is False


SECONDS = ["phase_seconds", "grace_seconds", "reminder_seconds"]


@pytest.mark.parametrize("key", SECONDS)
@pytest.mark.parametrize("value,shown", [(-1, "-1"), (YEAR + 1, "31536001"), (1.5, "1.5"), (60.0, "60.0"),
                                         (True, "true"), ("60", '"60"'), ({}, "an object")])
def test_a_duration_is_whole_seconds_up_to_a_year(key, value, shown):
    error = refused({key: value})
    assert error.detail == f"{key}: must be a whole number of seconds from 0 to 31536000, not {shown}"
    assert error.extra["pointer"] == f"/settings/{key}"


@pytest.mark.parametrize("key", SECONDS)
def test_durations_at_the_bounds(key):
    assert getattr(Settings.from_json({key: YEAR}), key) == YEAR
    assert getattr(Settings.from_json({key: 1}), key) == 1


def test_grace_and_reminder_of_0_are_none():
    read = Settings.from_json({"grace_seconds": 0, "reminder_seconds": 0, "phase_seconds": 60})
    assert read.extended(100.0, 0, False) is None and read.reminder_at(100.0) is None


def test_only_phase_seconds_and_end_year_take_null():
    assert Settings.from_json({"phase_seconds": None, "end_year": None}) == Settings()
    assert "grace_seconds: must be a whole number" in refused({"grace_seconds": None}).detail


def test_a_duration_of_0_needs_a_clock():
    error = refused({"phase_seconds": 0})
    assert error.detail == ("phase_seconds: 0 seconds (a deadline at the next clock time) needs a deadline_clock; "
                            "without one a phase lasts 1 to 31536000 seconds")
    assert error.extra["pointer"] == "/settings/phase_seconds"
    durations = refused({"phase_seconds": 60, "phase_durations": {"retreat": 0}})
    assert durations.detail.startswith("phase_durations.retreat: 0 seconds")
    assert durations.extra["pointer"] == "/settings/phase_durations/retreat"
    clocked = Settings.from_json({"phase_seconds": 0, "deadline_clock": {"time": "21:00", "zone": "UTC"}})
    assert clocked.deadline("movement", utc(2026, 1, 1, 21)) == utc(2026, 1, 2, 21)


def test_phase_durations_refusals():
    assert refused({"phase_durations": {"build": 60}}).detail == (
        "phase_durations: unknown key \"build\"; the keys: movement, retreat, adjustment")
    assert "(did you mean 'retreat'?)" in refused({"phase_durations": {"retreats": 60}}).detail
    error = refused({"phase_durations": {"movement": -5}})
    assert error.detail == "phase_durations.movement: must be a whole number of seconds from 0 to 31536000, not -5"
    assert error.extra["pointer"] == "/settings/phase_durations/movement"
    assert refused({"phase_durations": 60}).detail.startswith(
        "phase_durations: must be an object with the keys movement, retreat, adjustment, not 60")


@pytest.mark.parametrize("when", ["25:00", "24:00", "21:60", "9:00", "21:00:00", "21h00", "", 2100, None])
def test_a_clock_time_is_hh_mm(when):
    error = refused({"deadline_clock": {"time": when, "zone": "Europe/Paris"}})
    assert error.detail.startswith('deadline_clock.time: must be a time of day "HH:MM" from "00:00" to "23:59" '
                                   '(such as "21:00"), not ')
    assert error.extra["pointer"] == "/settings/deadline_clock/time"


@pytest.mark.parametrize("when", ["00:00", "09:05", "23:59"])
def test_clock_times_at_the_bounds(when):
    assert Settings.from_json({"deadline_clock": {"time": when, "zone": "UTC"}}).deadline_clock == Clock(when, "UTC")


def test_an_unknown_zone_says_so_and_gives_an_example():
    error = refused({"deadline_clock": {"time": "21:00", "zone": "Europe/Pariss"}})
    assert error.detail == ('deadline_clock.zone: unknown time zone "Europe/Pariss" (did you mean \'Europe/Paris\'?); '
                            'a zone is an IANA name such as "Europe/Paris" or "America/New_York"')
    assert error.extra["pointer"] == "/settings/deadline_clock/zone" and "Europe/Paris" in error.extra["suggestions"]
    assert refused({"deadline_clock": {"time": "21:00", "zone": "europe/paris"}}).extra["suggestions"] == [
        "Europe/Paris"]
    for zone in ["Mars/Olympus_Mons", "", "../../etc/passwd", "localtime", 5, "x" * 100_000]:
        assert "unknown time zone" in refused({"deadline_clock": {"time": "21:00", "zone": zone}}).detail


def test_a_clock_needs_both_keys_and_no_other():
    assert refused({"deadline_clock": {"time": "21:00"}}).detail == (
        "deadline_clock: zone must be given (the keys: time, zone)")
    assert refused({"deadline_clock": {"time": "21:00", "zone": "UTC", "day": "monday"}}).detail == (
        'deadline_clock: unknown key "day"; the keys: time, zone')
    assert refused({"deadline_clock": "21:00 Europe/Paris"}).detail.startswith(
        'deadline_clock: must be an object with the keys time, zone, not "21:00 Europe/Paris"')


@pytest.mark.parametrize("data,detail", [
    ({"nmr_extensions": {"count": 11}}, "nmr_extensions.count: must be a whole number of extensions from 0 to 10, "
                                        "not 11"),
    ({"nmr_extensions": {"count": -1}}, "nmr_extensions.count: must be a whole number of extensions from 0 to 10, "
                                        "not -1"),
    ({"nmr_extensions": {"seconds": 0}}, "nmr_extensions.seconds: must be a whole number of seconds from 1 to "
                                         "31536000, not 0"),
    ({"nmr_extensions": {"count": 1, "hours": 2}}, 'nmr_extensions: unknown key "hours"; the keys: count, seconds'),
    ({"nmr_extensions": 1}, "nmr_extensions: must be an object with the keys count, seconds, not 1"),
    ({"pause": {"max_times": 101}}, "pause.max_times: must be a whole number of pauses from 0 to 100, not 101"),
    ({"pause": {"max_seconds": 0}}, "pause.max_seconds: must be a whole number of seconds from 1 to 31536000, not 0"),
    ({"pause": {"max_seconds": YEAR + 1}}, "pause.max_seconds: must be a whole number of seconds from 1 to 31536000, "
                                           "not 31536001"),
    ({"pause": {"max_second": 60}}, "pause: unknown key \"max_second\" (did you mean 'max_seconds'?); the keys: "
                                    "max_seconds, max_times"),
    ({"draws": "all"}, 'draws: must be one of "dias" (only a draw of every survivor); "named" (draws naming some '
                       'survivors allowed too), not "all"'),
    ({"draws": ["dias"]}, 'draws: must be one of "dias" (only a draw of every survivor); "named" (draws naming some '
                          'survivors allowed too), not a list'),
    ({"disorder_votes": True}, 'disorder_votes: must be one of "yes" (a seat in civil disorder votes yes); "no" (a '
                               'seat in civil disorder blocks a draw), not true'),
    ({"disorder_after": 101}, "disorder_after: must be a whole number of movement phases from 0 to 100, not 101"),
    ({"disorder_after": False}, "disorder_after: must be a whole number of movement phases from 0 to 100, not false"),
    ({"end_year": 10000}, "end_year: must be a whole number from 0 to 9999, not 10000"),
    ({"end_year": "1910"}, 'end_year: must be a whole number from 0 to 9999, not "1910"'),
])
def test_refusals_name_the_key_what_was_given_and_what_is_valid(data, detail):
    error = refused(data)
    assert error.detail == detail
    key = next(iter(data))
    assert error.extra["pointer"].startswith(f"/settings/{key}")


def test_valid_values_of_the_other_keys():
    read = Settings.from_json({"draws": "named", "disorder_votes": "no", "disorder_after": 0, "end_year": 1910,
                               "nmr_extensions": {"count": 10, "seconds": YEAR}, "pause": {"max_times": 100}})
    assert (read.draws, read.disorder_votes, read.disorder_after, read.end_year) == ("named", "no", 0, 1910)
    assert read.nmr_extensions == Extensions(10, YEAR) and read.pause.max_times == 100


def test_scoring_is_checked_by_the_scoring_systems():
    error = refused({"scoring": "elo"})
    assert error.detail.startswith("scoring: unknown scoring system 'elo'; the systems: ")
    assert "sum-of-squares" in error.detail and error.extra["pointer"] == "/settings/scoring"
    assert refused({"scoring": {"system": "draw-size", "colour": 1}}).detail.startswith(
        "scoring: draw-size takes no parameter 'colour'; its parameters: ")
    assert refused({"scoring": {"solo": 1}}).detail.startswith("scoring: no scoring system is named; the systems: ")
    assert refused({"scoring": {"system": "c-diplo", "solo": -1}}).detail == (
        "scoring: c-diplo: solo must be a number of at least 0, not -1")
    assert refused({"scoring": 5}).detail == ('scoring: must be a scoring system\'s name or {"system": NAME, '
                                              'PARAMETER: VALUE...}, not 5')


def test_a_long_given_value_is_shown_cut_short():
    error = refused({"draws": "x" * 100_000})
    assert len(error.detail) < 300 and error.detail.endswith(', not "' + "x" * 46 + "...")
    assert refused({"end_year": 10 ** 4000}).detail.endswith(", not 1" + "0" * 46 + "...")
    assert refused({"end_year": 10 ** 5000}).detail.endswith(", not a number too long to show")


# --- deadlines ---------------------------------------------------------------------------------------------

def clocked(when: str, zone: str, **more) -> Settings:
    return Settings.from_json({"deadline_clock": {"time": when, "zone": zone}, **more})


def test_durations_per_phase_kind_over_phase_seconds():
    read = Settings.from_json({"phase_seconds": 600, "phase_durations": {"retreat": 60}})
    assert read.deadline("movement", 1000.0) == 1600.0
    assert read.deadline("retreat", 1000.0) == 1060.0
    assert read.deadline("adjustment", 1000.0) == 1600.0
    assert read.deadline("building", 1000.0) == 1600.0  # a game's own kind of phase: phase_seconds
    only = Settings.from_json({"phase_durations": {"movement": 60}})
    assert only.deadline("movement", 0.0) == 60.0 and only.deadline("retreat", 0.0) is None


def test_a_clock_deadline_is_at_or_after_the_start_plus_the_duration():
    daily = clocked("21:00", "UTC", phase_seconds=3600)
    assert daily.deadline("movement", utc(2026, 6, 1, 12)) == utc(2026, 6, 1, 21)
    assert daily.deadline("movement", utc(2026, 6, 1, 20)) == utc(2026, 6, 1, 21)  # exactly at: that one
    assert daily.deadline("movement", utc(2026, 6, 1, 20, 0, 1)) == utc(2026, 6, 2, 21)
    assert clocked("21:00", "UTC").deadline("movement", utc(2026, 6, 1, 21)) == utc(2026, 6, 2, 21)  # strictly after
    assert clocked("21:00", "UTC").deadline("movement", utc(2026, 6, 1, 20, 59)) == utc(2026, 6, 1, 21)


# Europe/Paris 2026: 29 March 02:00 CET -> 03:00 CEST (01:00 UTC); 25 October 03:00 CEST -> 02:00 CET (01:00 UTC).
# America/New_York 2026: 8 March 02:00 EST -> 03:00 EDT (07:00 UTC); 1 November 02:00 EDT -> 01:00 EST (06:00 UTC).
@pytest.mark.parametrize("zone,when,day_before,day_of", [
    ("Europe/Paris", "21:00", utc(2026, 3, 28, 20), utc(2026, 3, 29, 19)),
    ("Europe/Paris", "21:00", utc(2026, 10, 24, 19), utc(2026, 10, 25, 20)),
    ("America/New_York", "21:00", utc(2026, 3, 8, 2), utc(2026, 3, 9, 1)),
    ("America/New_York", "21:00", utc(2026, 11, 1, 1), utc(2026, 11, 2, 2)),
])
def test_a_daily_clock_time_moves_its_utc_instant_by_an_hour_across_the_change(zone, when, day_before, day_of):
    daily = clocked(when, zone, phase_seconds=86400)
    start = day_before - 3600  # an hour before one day's deadline: the next is the following day's
    assert clocked(when, zone).deadline("movement", start) == day_before
    assert daily.deadline("movement", start) == day_of
    assert day_of - day_before in (23 * 3600, 25 * 3600)
    assert datetime.fromtimestamp(day_of, ZoneInfo(zone)).strftime("%H:%M") == when


def test_a_clock_time_in_the_spring_gap_falls_at_the_first_instant_after_it():
    paris = clocked("02:30", "Europe/Paris")
    assert paris.deadline("movement", utc(2026, 3, 28, 12)) == utc(2026, 3, 29, 1)  # 03:00 CEST
    assert paris.deadline("movement", utc(2026, 3, 27, 12)) == utc(2026, 3, 28, 1, 30)  # 02:30 CET the day before
    assert paris.deadline("movement", utc(2026, 3, 29, 1)) == utc(2026, 3, 30, 0, 30)  # 02:30 CEST the day after
    new_york = clocked("02:30", "America/New_York")
    assert new_york.deadline("movement", utc(2026, 3, 7, 12)) == utc(2026, 3, 8, 7)  # 03:00 EDT
    assert new_york.deadline("movement", utc(2026, 3, 8, 7)) == utc(2026, 3, 9, 6, 30)
    gap_start = clocked("02:00", "America/New_York")
    assert gap_start.deadline("movement", utc(2026, 3, 7, 12)) == utc(2026, 3, 8, 7)


def test_a_clock_time_that_happens_twice_falls_at_its_first_occurrence():
    paris = clocked("02:30", "Europe/Paris")
    assert paris.deadline("movement", utc(2026, 10, 24, 12)) == utc(2026, 10, 25, 0, 30)  # 02:30 CEST
    # After the first 02:30, the second (02:30 CET, 01:30 UTC) is not another deadline: the next day's is.
    assert paris.deadline("movement", utc(2026, 10, 25, 0, 30)) == utc(2026, 10, 26, 1, 30)
    new_york = clocked("01:30", "America/New_York")
    assert new_york.deadline("movement", utc(2026, 10, 31, 12)) == utc(2026, 11, 1, 5, 30)  # 01:30 EDT
    assert new_york.deadline("movement", utc(2026, 11, 1, 5, 30)) == utc(2026, 11, 2, 6, 30)


def test_durations_stay_true_seconds_across_the_change():
    paris = Settings.from_json({"phase_seconds": 86400})
    start = utc(2026, 3, 28, 20)  # 21:00 CET
    end = paris.deadline("movement", start)
    assert end == start + 86400
    assert datetime.fromtimestamp(end, ZoneInfo("Europe/Paris")).strftime("%H:%M") == "22:00"  # CEST


ZONES = st.sampled_from(["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "UTC", "Asia/Kolkata",
                         "America/Santiago", "Pacific/Chatham"])
STARTS = st.integers(int(utc(2025, 1, 1)), int(utc(2028, 1, 1))).map(float)
CLOCK_TIMES = st.builds(lambda h, m: f"{h:02}:{m:02}", st.integers(0, 23), st.sampled_from([0, 15, 30, 45, 59]))


@hsettings(max_examples=300, deadline=None)
@given(ZONES, CLOCK_TIMES, STARTS, st.integers(0, 3 * 86400))
def test_a_clock_deadline_is_the_first_clock_time_from_the_threshold(zone, when, start, seconds):
    read = clocked(when, zone, phase_seconds=seconds)
    deadline = read.deadline("movement", start)
    threshold = start + seconds
    assert deadline >= threshold and (seconds or deadline > start)
    assert deadline - threshold <= 26 * 3600
    tz = ZoneInfo(zone)
    shown = datetime.fromtimestamp(deadline, tz)
    if shown.strftime("%H:%M") != when:  # only in a gap: the change is the instant just before
        assert datetime.fromtimestamp(deadline - 1, tz).utcoffset() != shown.utcoffset()
    # No earlier instant from the threshold on shows the clock's time (each minute looked at).
    minute = datetime.fromtimestamp(threshold, timezone.utc).replace(second=0) + timedelta(minutes=1)
    while minute.timestamp() < deadline:
        local = minute.astimezone(tz)  # (fold 1: the second occurrence of a time the clocks went back over)
        assert local.strftime("%H:%M") != when or local.fold == 1
        minute += timedelta(minutes=1)


@hsettings(max_examples=200, deadline=None)
@given(ZONES, CLOCK_TIMES, STARTS, STARTS, st.integers(0, 86400))
def test_a_later_start_never_has_an_earlier_deadline(zone, when, first, second, seconds):
    read = clocked(when, zone, phase_seconds=seconds)
    early, late = sorted([first, second])
    assert read.deadline("movement", early) <= read.deadline("movement", late)


# --- grace, extensions, reminder, pause ---------------------------------------------------------------------

def test_grace_then_each_extension_then_judge():
    read = Settings.from_json({"phase_seconds": 600, "grace_seconds": 60, "nmr_extensions": {"count": 2,
                                                                                            "seconds": 300}})
    deadline = read.deadline("movement", 0.0)
    first = read.extended(deadline, extensions_used=0, grace_used=False)
    assert first == Extended(660.0, "grace")
    second = read.extended(first.until, extensions_used=0, grace_used=True)
    assert second == Extended(960.0, "extension")
    until, what = read.extended(second.until, extensions_used=1, grace_used=True)
    assert (until, what) == (1260.0, "extension")
    assert read.extended(until, extensions_used=2, grace_used=True) is None


def test_no_grace_and_no_extension_judges_at_once():
    assert Settings.from_json({"phase_seconds": 600}).extended(600.0, 0, False) is None
    only_extensions = Settings.from_json({"nmr_extensions": {"count": 1, "seconds": 10}})
    assert only_extensions.extended(600.0, 0, False) == Extended(610.0, "extension")
    assert only_extensions.extended(610.0, 1, False) is None
    only_grace = Settings.from_json({"grace_seconds": 5})
    assert only_grace.extended(600.0, 0, False) == Extended(605.0, "grace")
    assert only_grace.extended(605.0, 0, True) is None


def test_the_reminder_is_before_the_deadline():
    read = Settings.from_json({"phase_seconds": 7200, "reminder_seconds": 3600})
    assert read.reminder_at(10_000.0) == 6400.0
    assert read.reminder_at(10_000.0, started=2800.0) == 6400.0
    assert read.reminder_at(10_000.0, started=6400.0) is None  # due as the phase starts: none
    assert read.reminder_at(10_000.0, started=9000.0) is None
    assert Settings.from_json({"phase_seconds": 7200}).reminder_at(10_000.0) is None


def test_the_pause_cap():
    read = Settings.from_json({"pause": {"max_seconds": 3600, "max_times": 2}})
    assert read.pause_cap(1000.0) == 4600.0
    assert Settings().pause_cap(0.0) == 7 * 86400
    read.check_pause(0)
    read.check_pause(1)
    with pytest.raises(HostedError) as caught:
        read.check_pause(2)
    assert caught.value.kind is Kind.CONFLICT and caught.value.title == "Pause refused"
    assert caught.value.detail == "this game has been paused 2 times; its settings allow at most 2 (pause.max_times: 2)"
    with pytest.raises(HostedError) as never:
        Settings.from_json({"pause": {"max_times": 0}}).check_pause(0)
    assert never.value.detail == "this game has been paused 0 times; its settings allow no pause (pause.max_times: 0)"


def test_a_resumed_deadline_moves_on_by_the_time_paused_at_most_the_cap():
    read = Settings.from_json({"phase_seconds": 600, "pause": {"max_seconds": 100}})
    assert read.resumed(1000.0, paused_at=500.0, resumed_at=550.0) == 1050.0
    assert read.resumed(1000.0, paused_at=500.0, resumed_at=900.0) == 1100.0  # resumed late: the cap held it
    daily = clocked("21:00", "UTC", pause={"max_seconds": 86400})
    deadline = utc(2026, 6, 1, 21)
    assert daily.resumed(deadline, utc(2026, 6, 1, 12), utc(2026, 6, 1, 14)) == utc(2026, 6, 2, 21)
    assert daily.resumed(deadline, utc(2026, 6, 1, 12), utc(2026, 6, 1, 12)) == deadline


def test_civil_disorder_after_the_missed_movement_phases_in_a_row():
    default = Settings()
    assert [default.disordered(n) for n in range(4)] == [False, False, True, True]
    never = Settings.from_json({"disorder_after": 0})
    assert not any(never.disordered(n) for n in range(10))
    assert Settings.from_json({"disorder_after": 1}).disordered(1)


def test_the_game_stops_once_its_end_year_is_played():
    assert not any(Settings().stops_after(year) for year in (1901, 9999))
    limited = Settings.from_json({"end_year": 1910})
    assert [limited.stops_after(year) for year in (1909, 1910, 1911)] == [False, True, True]


# --- the schema ---------------------------------------------------------------------------------------------

def test_the_schema_describes_every_key_in_one_line_and_no_other():
    assert list(SETTINGS_SCHEMA["properties"]) == list(KEYS) == list(settings_module._READERS)
    assert SETTINGS_SCHEMA["additionalProperties"] is False
    Draft202012Validator.check_schema(SETTINGS_SCHEMA)

    def described(schema):
        if "oneOf" in schema and "description" not in schema:
            return all(described(s) for s in schema["oneOf"] if s.get("type") != "null")
        return "\n" not in schema["description"] and all(described(s) for s in schema.get("properties", {}).values())
    assert all(described(s) for s in SETTINGS_SCHEMA["properties"].values())
    assert VALIDATOR.is_valid(FULL) and VALIDATOR.is_valid({}) and not VALIDATOR.is_valid({"phase_second": 1})
    assert {key: schema["default"] for key, schema in SETTINGS_SCHEMA["properties"].items()} == Settings().to_json()


def values():
    """Values a key might be given: valid and not."""
    return st.one_of(st.none(), st.booleans(), st.integers(-5, YEAR + 5), st.sampled_from([0, 1, 2, 3, 10, 11, 100,
                     101, 9999, 10000, YEAR, YEAR + 1]), st.sampled_from(["dias", "named", "yes", "no", "draw-size",
                     "sos", "elo", "21:00", "25:00"]),
                     st.fixed_dictionaries({}, optional={"time": st.sampled_from(["21:00", "02:30", "24:00"]),
                                                         "zone": st.sampled_from(["UTC", "Europe/Paris", "Nowhere"])}),
                     st.fixed_dictionaries({}, optional={k: st.integers(-1, 12) for k in
                                                         ["count", "seconds", "max_seconds", "max_times", "movement",
                                                          "retreat"]}),
                     st.fixed_dictionaries({"system": st.sampled_from(["c-diplo", "carnage", "elo"])}))


def accepted(data) -> bool:
    try:
        Settings.from_json(data)
    except HostedError:
        return False
    return True


SECONDS_ = st.integers(0, YEAR)
VALID = {  # each key's valid values
    "public_readiness": st.booleans(), "secret_votes": st.booleans(), "votes_survive_phase": st.booleans(),
    "gunboat": st.booleans(), "anonymous_seats": st.booleans(), "messages_visible_after_end": st.booleans(),
    "game_master_reads_messages": st.booleans(),
    "phase_seconds": st.none() | SECONDS_, "grace_seconds": SECONDS_, "reminder_seconds": SECONDS_,
    "phase_durations": st.fixed_dictionaries({}, optional={kind: SECONDS_ for kind in settings_module.PHASE_KINDS}),
    "deadline_clock": st.none() | st.fixed_dictionaries({"time": CLOCK_TIMES, "zone": ZONES}),
    "nmr_extensions": st.fixed_dictionaries({}, optional={"count": st.integers(0, 10),
                                                          "seconds": st.integers(1, YEAR)}),
    "pause": st.fixed_dictionaries({}, optional={"max_seconds": st.integers(1, YEAR),
                                                 "max_times": st.integers(0, 100)}),
    "draws": st.sampled_from(["dias", "named"]), "disorder_votes": st.sampled_from(["yes", "no"]),
    "disorder_after": st.integers(0, 100), "end_year": st.none() | st.integers(0, 9999),
    "scoring": st.sampled_from(["draw-size", "sos", {"system": "c-diplo", "solo": 73}, {"system": "carnage"}]),
}
SETTINGS_JSON = st.one_of(st.fixed_dictionaries({}, optional=VALID),  # valid but for a 0 duration with no clock
                          st.fixed_dictionaries({}, optional={key: VALID[key] | values() for key in KEYS}))


@hsettings(max_examples=1000, deadline=None)
@given(SETTINGS_JSON)
def test_the_schema_and_the_reader_agree(data):
    """The schema is what the reader takes, but for what only the reader knows: the zones of this host."""
    clock = data.get("deadline_clock")
    if isinstance(clock, dict) and clock.get("zone") == "Nowhere" and isinstance(clock.get("time"), str):
        return  # the schema does not list the zones
    assert accepted(data) == VALIDATOR.is_valid(data), data


@hsettings(max_examples=300, deadline=None)
@given(SETTINGS_JSON)
def test_what_is_read_round_trips(data):
    if accepted(data):
        read = Settings.from_json(data)
        shown = read.to_json()
        assert Settings.from_json(json.loads(json.dumps(shown))) == read
        assert Settings.from_json(shown).to_json() == shown
        assert {k: v for k, v in shown.items() if k in data and k not in ("nmr_extensions", "pause")} == {
            k: v for k, v in data.items() if k not in ("nmr_extensions", "pause")}
