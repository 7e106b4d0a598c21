"""Playing an event through the services, for tests: register names, play rounds."""

from tests.scenes import pods_round_in_play
from tournaments.services.entries import entry_register
from tournaments.services.reports import report_submit
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

EIGHT = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")


def register(event, *names):
    return [entry_register(tournament=event, name=n, create_player=True) for n in names]


def first_seat_wins(table, seats):
    return seats[0].entry


def play_round(event, decide=first_seat_wins):
    """Pair a round, report every table (by default the first seat wins), end it."""
    round_ = round_pair(tournament=event)
    for table in round_.tables.all():
        seats = list(table.seats.order_by("position"))
        if len(seats) > 1:
            table_report(table=table, winner=decide(table, seats))
    return round_end(round_=round_)


def paired_pods(league, name: str = "Friday", round_minutes: int = 80):
    """A pod event of eight (EIGHT: two pods), 3 Swiss rounds of `round_minutes`, round 1
    paired and being played: the round's clock and the tables' time extensions."""
    return pods_round_in_play(league=league, name=name, round_minutes=round_minutes).event


def report_posted(*, table, entry, data, **kwargs):
    """A player's report as their page's form posts it (`data`): read by the event's format
    into one result, as the page reads it, then sent (`services.report_submit`)."""
    from tournaments.formats import format_for
    from tournaments.models import Table

    table = Table.objects.select_related("round__tournament").get(pk=getattr(table, "pk", table))
    seats = table.seats.select_related("entry__player").order_by("position")
    players = [(s.entry_id, s.entry.player.name) for s in seats]
    result = format_for(table.round.tournament).read_result(data, players)
    return report_submit(table=table, entry=entry, result=result, **kwargs)
