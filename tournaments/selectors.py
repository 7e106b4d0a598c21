"""Reads for the tournament pages: the event, its rounds with tables and seats, standings."""

from dataclasses import dataclass

from django.db.models import Prefetch
from django.http import Http404

from leagues.permissions import can_run_events_of, visible_leagues

from . import services
from .models import Round, Seat, Table, Tournament


def event_get(*, slug: str, user) -> Tournament:
    """The event if its league is visible to `user` (404 otherwise, so nothing leaks)."""
    event = (
        Tournament.objects.select_related("league__organization")
        .filter(slug=slug, league__in=visible_leagues(user))
        .first()
    )
    if event is None:
        raise Http404("No such event.")
    return event


def can_run(user, event: Tournament) -> bool:
    return can_run_events_of(user, event.league.organization_id)


def rounds_with_tables(event: Tournament):
    seats = Seat.objects.select_related("entry__player").order_by("position")
    tables = Table.objects.select_related("winner__player").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    return event.rounds.prefetch_related(Prefetch("tables", queryset=tables)).order_by("number")


def current_round(event: Tournament) -> Round | None:
    return rounds_with_tables(event).order_by("-number").first()


@dataclass
class SeatFinder:
    name: str
    table: int
    seat: int
    opponents: list[str]


def seat_finder(round_: Round) -> list[SeatFinder]:
    """Every player of the round alphabetically: where they sit and against whom."""
    rows = []
    for table in round_.tables.all():
        seats = list(table.seats.all())
        for seat in seats:
            rows.append(
                SeatFinder(
                    name=seat.entry.player.name,
                    table=table.number,
                    seat=seat.position,
                    opponents=[s.entry.player.name for s in seats if s is not seat],
                )
            )
    return sorted(rows, key=lambda r: r.name.lower())


@dataclass
class StandingLine:
    rank: int
    tied: bool
    name: str
    points: float
    record: str
    metrics: list[str]
    dropped: bool


def standing_lines(event: Tournament) -> tuple[list[str], list[StandingLine]]:
    """Column labels and rows, tiebreakers formatted as people read them."""
    from .domain.standings import TIEBREAKERS

    table = services.standings(event)
    names = dict(event.entries.values_list("player_id", "player__name"))
    precedence = [m for m in (event.tiebreakers or ["points", "omw", "gw", "ogw"]) if m != "points"]
    labels = [TIEBREAKERS[m].label for m in precedence]
    lines = []
    for row in table.rows:
        shown = []
        for metric in precedence:
            value = row.metrics.get(metric)
            if value is None:
                shown.append("\u2013")
            elif metric in {"omw", "gw", "ogw"}:
                shown.append(f"{100 * value:.1f}%")
            else:
                shown.append(f"{value:g}")
        lines.append(
            StandingLine(
                rank=row.rank,
                tied=row.tied,
                name=names.get(row.player, "?"),
                points=row.points,
                record=f"{row.wins + row.byes}-{row.losses}-{row.draws}",
                metrics=shown,
                dropped=row.dropped_after is not None,
            )
        )
    return labels, lines
