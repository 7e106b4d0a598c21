"""Reads behind the season pages: the seasons of a league, the table as last replayed, one
player's finishes (which count and why), the event types' tables as players read them."""

from dataclasses import dataclass

from django.http import Http404

from leagues.domain.seasons import PointTable, lowest_place_to_count
from leagues.models import League, Player
from tournaments.domain.labels import place_label
from tournaments.models import Tournament

from .models import EventType, Season, SeasonEvent, SeasonStanding


def season_list(*, league: League) -> list[Season]:
    return list(Season.objects.filter(league=league))


def season_get(*, league: League, pk: int) -> Season:
    season = Season.objects.filter(league=league, pk=pk).select_related("league").first()
    if season is None:
        raise Http404("No such season.")
    return season


def band_label(first: int, last: int) -> str:
    if first == last:
        return place_label(first)
    return f"{place_label(first)}\u2013{place_label(last)}"


@dataclass(frozen=True)
class TableLine:
    """One event type's row as players read it: "3rd-4th: 14 points (more than 128 players)"."""

    places: str
    points: int
    more_than: int | None


@dataclass(frozen=True)
class TypeCard:
    event_type: EventType
    lines: list[TableLine]
    extras: list[tuple[str, int]]  # ("a win", 3): the points outside the placings
    best_finishes: int | None


def type_cards(season: Season) -> list[TypeCard]:
    cards = []
    for kind in season.event_types.all():
        above = 0
        lines = []
        for down_to, points, more_than in kind.placings:
            lines.append(TableLine(band_label(above + 1, down_to), points, more_than))
            above = down_to
        extras = [
            (label, getattr(kind, attribute))
            for attribute, label in (
                ("entering", "entering"),
                ("per_round", "each round played"),
                ("per_win", "each win"),
                ("per_draw", "each draw"),
                ("per_bye", "each bye"),
            )
            if getattr(kind, attribute)
        ]
        cards.append(TypeCard(kind, lines, extras, kind.best_finishes))
    return cards


@dataclass(frozen=True)
class Row:
    rank: int
    tied: bool
    player_id: int
    name: str
    points: int
    events_counted: int
    events_played: int
    next_best: str  # what a new finish must beat to count


def _typical_sizes(season: Season) -> dict[str, int]:
    """Each event type's largest event so far (the place hint of "next best" reads it)."""
    sizes: dict[str, int] = {}
    for kind, players in SeasonEvent.objects.filter(season=season).values_list(
        "event_type__name", "players"
    ):
        sizes[kind] = max(sizes.get(kind, 0), players)
    return sizes


def next_best_text(
    to_beat: list, tables: dict[str, PointTable], sizes: dict[str, int], many: bool
) -> str:
    """Per type with a best-finish limit: "any finish counts" below it, "more than 12 points
    (4th or better of 32)" at it; "" when no type has a limit (every finish counts)."""
    parts = []
    for kind, points in to_beat:
        table = tables.get(kind)
        if table is None or table.best_finishes is None:
            continue
        prefix = f"{kind}: " if many else ""
        if points == 0:
            parts.append(f"{prefix}any finish counts")
            continue
        text = f"{prefix}more than {points} points"
        size = sizes.get(kind)
        place = lowest_place_to_count(table, size, points) if size else None
        if place is not None:
            text += f" ({place_label(place)} or better of {size})"
        parts.append(text)
    return "; ".join(parts)


def has_limits(season: Season) -> bool:
    return season.event_types.filter(best_finishes__isnull=False).exists()


def season_rows(season: Season) -> list[Row]:
    tables = {t.name: t.point_table() for t in season.event_types.all()}
    sizes = _typical_sizes(season)
    many = len(tables) > 1
    rows = []
    for s in SeasonStanding.objects.filter(season=season).select_related("player"):
        rows.append(
            Row(
                rank=s.rank,
                tied=s.tied,
                player_id=s.player_id,
                name=s.player.name,
                points=s.points,
                events_counted=s.events_counted,
                events_played=s.events_played,
                next_best=next_best_text(s.detail.get("to_beat", []), tables, sizes, many),
            )
        )
    return rows


@dataclass(frozen=True)
class FinishLine:
    event: Tournament | None
    event_type: str
    place: str
    players: int
    points: int
    placing: int
    counts: bool
    why: str


@dataclass(frozen=True)
class PlayerSeason:
    player: Player
    standing: SeasonStanding | None
    finishes: list[FinishLine]
    next_best: str


def player_season(season: Season, player_id: int) -> PlayerSeason:
    player = Player.objects.filter(pk=player_id, organization_id=season.league.organization_id)
    player = player.first()
    if player is None:
        raise Http404("No such player.")
    standing = SeasonStanding.objects.filter(season=season, player=player).first()
    if standing is None:
        return PlayerSeason(player, None, [], "")
    tables = {t.name: t.point_table() for t in season.event_types.all()}
    counted, dropped = standing.detail.get("counted", []), standing.detail.get("dropped", [])
    events = Tournament.objects.in_bulk([row[0] for row in counted + dropped])
    limits = {name: t.best_finishes for name, t in tables.items()}
    lines = []
    for rows, counts in ((counted, True), (dropped, False)):
        for event_id, kind, points, placing, first, last, players in rows:
            limit = limits.get(kind)
            if counts:
                why = (
                    f"one of the best {limit} {kind} finishes"
                    if limit is not None
                    else f"every {kind} finish counts"
                )
            else:
                why = f"only the best {limit} {kind} finishes count"
            lines.append(
                FinishLine(
                    events.get(event_id),
                    kind,
                    band_label(first, last),
                    players,
                    points,
                    placing,
                    counts,
                    why,
                )
            )
    many = len(tables) > 1
    next_best = next_best_text(
        standing.detail.get("to_beat", []), tables, _typical_sizes(season), many
    )
    return PlayerSeason(player, standing, lines, next_best)


def season_events_overview(season: Season) -> list[SeasonEvent]:
    return list(
        SeasonEvent.objects.filter(season=season)
        .select_related("tournament", "event_type")
        .order_by("tournament__date", "tournament_id")
    )


def season_event_choices(season: Season) -> list[tuple[Tournament, int | None]]:
    """The league's events in the season's dates (and any already counted), each with the
    event type it counts as (None: it does not count)."""
    counted = dict(
        SeasonEvent.objects.filter(season=season).values_list("tournament_id", "event_type_id")
    )
    events = Tournament.objects.filter(league=season.league).filter(
        date__range=(season.starts_on, season.ends_on)
    ) | Tournament.objects.filter(pk__in=list(counted))
    return [(e, counted.get(e.pk)) for e in events.order_by("date", "pk")]
