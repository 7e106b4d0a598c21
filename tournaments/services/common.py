"""What every tournament service shares: the event's row lock (which bumps the version of its
public pages), the next round's number and writing numbered tables with their
seats. Private to the services packages (judging's takes the same lock).
"""

from django.utils import timezone

from audit.actors import acting_user

from ..models import Round, Seat, Table, Tournament
from ..page_versions import event_changed


def tournament_lock(tournament: Tournament | int, *, pages: bool = True) -> Tournament:
    """Lock the event's row (given as a row or its id) and read it afresh, with its league
    (read, not locked: the league's own lock is the games' business) and its store (whose time
    zone a message's times are in), and bump the version of
    its pages and of every player's own page in the same transaction (every service that
    changes an event starts here; core.pagecache, page_versions). A change to one table only
    (a result, a report) passes `pages=False` and bumps them itself once it knows the table's
    players (`page_versions.event_changed`)."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    events = Tournament.objects.select_for_update(of=("self",))
    locked = events.select_related("league__organization").get(pk=pk)
    if pages:
        event_changed(locked.pk)
    return locked


def next_round_number(tournament: Tournament) -> int:
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def tables_create(round_: Round, seatings, entries, by, *, requested: bool = False) -> None:
    """Write numbered tables with their seats in the order given: [(number, (player, ...))].

    A table of one seat is a bye, reported at once as that player's win; with `requested`
    every table is a requested ("half-point") bye, reported at once with no winner.
    """
    user = acting_user(by)
    now = timezone.now()
    tables = []
    for number, players in seatings:
        bye = len(players) == 1
        tables.append(
            Table(
                round=round_,
                number=number,
                requested_bye=requested and bye,
                reported=bye,
                winner=entries[players[0]] if bye and not requested else None,
                reported_by=user if bye else None,
                reported_at=now if bye else None,
            )
        )
    Table.objects.bulk_create(tables)
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, entry=entries[player], position=position)
        for table, (_, players) in zip(tables, seatings, strict=True)
        for position, player in enumerate(players, 1)
    )
