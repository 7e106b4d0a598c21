"""When a table's play is up: the round's clock plus the minutes the table was given (a judge's
time extension). One formula for the console, the player's page and the paper slips."""

from datetime import datetime, timedelta


def time_up(round_ends_at: datetime | None, extra_minutes: int) -> datetime | None:
    """The table's time up, or None while the round has no clock."""
    if round_ends_at is None:
        return None
    return round_ends_at + timedelta(minutes=extra_minutes)
