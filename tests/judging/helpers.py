"""An event being played, for the judges' tests: eight players, 1v1 (or pods), round 1 paired."""

from tests.tournaments.play import EIGHT, register
from tournaments.models import Table
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair


def playing(league, fmt: str = "1v1", name: str = "Friday"):
    event = tournament_create(league=league, name=name, format=fmt, swiss_rounds=3)
    register(event, *EIGHT)
    round_pair(tournament=event)
    return event


def table(event, number: int, round_number: int = 1) -> Table:
    return Table.objects.get(round__tournament=event, round__number=round_number, number=number)


def seated(table_):
    return [s.entry for s in table_.seats.select_related("entry__player").order_by("position")]
