"""Missed orders (NMR) and civil disorder after a judged phase, as values."""

from adjudicator.hosted.seats import SeatCount, after_phase


def seat(power, missed=0, row=0, disorder=False):
    return SeatCount(power, missed, row, disorder)


def test_a_power_with_a_choice_that_sent_nothing_missed_the_phase():
    done = after_phase([seat("England"), seat("France")], {"England", "France"}, {"France"}, True, 2)
    assert done.missed == ["England"] and done.changed == [seat("England", 1, 1)] and not done.into_disorder


def test_a_power_with_no_choice_did_not_miss():
    done = after_phase([seat("England")], set(), set(), False, 2)
    assert done.missed == [] and done.changed == []


def test_two_movement_phases_missed_in_a_row_is_civil_disorder():
    done = after_phase([seat("England", 1, 1)], {"England"}, set(), True, 2)
    assert done.into_disorder == ["England"] and done.changed == [seat("England", 2, 2, True)]


def test_a_missed_retreat_counts_as_missed_but_not_in_the_row():
    done = after_phase([seat("England", 1, 1)], {"England"}, set(), False, 2)
    assert done.changed == [seat("England", 2, 1)] and not done.into_disorder


def test_orders_in_a_movement_phase_end_the_row():
    done = after_phase([seat("England", 1, 1)], {"England"}, {"England"}, True, 2)
    assert done.changed == [seat("England", 1, 0)]


def test_disorder_after_zero_is_never():
    done = after_phase([seat("England", 5, 5)], {"England"}, set(), True, 0)
    assert not done.into_disorder and done.changed == [seat("England", 6, 6)]


def test_a_seat_already_in_disorder_is_not_reported_again():
    done = after_phase([seat("England", 2, 2, True)], {"England"}, set(), True, 2)
    assert done.into_disorder == [] and done.changed == [seat("England", 3, 3, True)]
