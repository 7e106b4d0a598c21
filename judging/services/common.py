"""What the judges' services share: the event's row lock (the same order as every tournament
service takes its locks: the event first, then its tables), the open round and a table's
players. Private to the services package."""

from tournaments.models import Round, Table, Tournament
from tournaments.services.common import tournament_lock


def event_lock(event_id: int) -> Tournament:
    """The event's row lock as every tournament service takes it; the judges' desk pages
    are bumped by each service itself (`page_versions.desk_changed`), not the event's."""
    return tournament_lock(event_id, pages=False)


def open_round(event: Tournament) -> Round | None:
    """The round being played, if any."""
    return event.rounds.filter(status=Round.Status.PLAYING).order_by("-number").first()


def seated(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("entry_id", flat=True))
