from datetime import datetime, timedelta

from tournaments.domain.clock import time_up


def test_a_table_extended_by_ten_minutes_is_up_ten_minutes_after_the_round():
    ends = datetime(2026, 11, 27, 21, 14)
    assert time_up(ends, 10) == ends + timedelta(minutes=10)
    assert time_up(ends, 0) == ends


def test_no_clock_no_time_up():
    assert time_up(None, 5) is None
