"""What the judges' services share: the event's row lock (the same order as every tournament
service takes its locks: the event first, then its tables), the open round and a table's
players. Private to the services package."""

from tournaments.models import Round, Table, Tournament


def event_lock(event_id: int) -> Tournament:
    return (
        Tournament.objects.select_for_update(of=("self",)).select_related("league").get(pk=event_id)
    )


def open_round(event: Tournament) -> Round | None:
    """The round being played, if any."""
    return event.rounds.filter(status=Round.Status.PLAYING).order_by("-number").first()


def label_of(round_: Round) -> str:
    return round_.notes if round_.kind == Round.Kind.TOP_CUT else f"round {round_.number}"


def seated(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("entry_id", flat=True))
