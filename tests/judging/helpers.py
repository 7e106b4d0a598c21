"""An event being played, for the judges' tests: eight players, 1v1 (or pods), round 1 paired
(tests/scenes.py's `round_paired`), and its tables by number."""

from tests.scenes import round_paired
from tournaments.models import Table


def playing(league, fmt: str = "1v1", name: str = "Friday"):
    return round_paired(league=league, format=fmt, name=name, swiss_rounds=3).event


def table(event, number: int, round_number: int = 1) -> Table:
    return Table.objects.get(round__tournament=event, round__number=round_number, number=number)


def seated(table_):
    return [s.entry for s in table_.seats.select_related("entry__player").order_by("position")]
