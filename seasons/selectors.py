"""Reads behind the season pages: the seasons of a league, the table as last replayed, one
player's finishes (which count and why), the event types' tables as players read them."""

from dataclasses import dataclass
from datetime import timedelta

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from leagues.models import League, Player
from seasons.domain.rules import PointTable, lowest_place_to_count
from tournaments.domain.labels import place_label
from tournaments.models import Tournament

from .models import EventType, Season, SeasonEvent, SeasonStanding, Series, SeriesLink, SeriesMember


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
    return pgettext("a range of places", "%(first)s–%(last)s") % {  # noqa: RUF001
        "first": place_label(first),
        "last": place_label(last),
    }


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
    extras: list[str]  # "3 for each win": the points outside the placings
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
            label % {"points": getattr(kind, attribute)}
            for attribute, label in (
                ("entering", _("%(points)s for entering")),
                ("per_round", _("%(points)s for each round played")),
                ("per_win", _("%(points)s for each win")),
                ("per_draw", _("%(points)s for each draw")),
                ("per_bye", _("%(points)s for each bye")),
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
        if points == 0:
            text = _("any finish counts")
        else:
            size = sizes.get(kind)
            place = lowest_place_to_count(table, size, points) if size else None
            if place is not None:
                # Translators: what a new finish must beat to count in a season's table.
                text = ngettext(
                    "more than %(points)s points (%(place)s or better of %(players)s)",
                    "more than %(points)s points (%(place)s or better of %(players)s)",
                    points,
                ) % {"points": points, "place": place_label(place), "players": size}
            else:
                text = ngettext(
                    "more than %(points)s points", "more than %(points)s points", points
                ) % {"points": points}
        if many:
            # Translators: an event type's name, then what a finish of that type must beat.
            text = _("%(event_type)s: %(next_best)s") % {"event_type": kind, "next_best": text}
        parts.append(text)
    return "; ".join(parts)


def has_limits(season: Season) -> bool:
    return season.event_types.filter(best_finishes__isnull=False).exists()


def private_event_ids(season: Season) -> set[int]:
    """The season's events held by a private league: in a series' season, never published
    (the replay leaves them out; a table stored before it, or before their league was made
    private, is read without them)."""
    if not season.series_id:
        return set()
    return set(
        SeasonEvent.objects.filter(season=season, tournament__league__is_public=False).values_list(
            "tournament_id", flat=True
        )
    )


def _only_private(detail: dict, private: set[int]) -> bool:
    finishes = detail.get("counted", []) + detail.get("dropped", [])
    return bool(private) and bool(finishes) and all(f[0] in private for f in finishes)


def season_rows(season: Season) -> list[Row]:
    tables = {t.name: t.point_table() for t in season.event_types.all()}
    sizes = _typical_sizes(season)
    many = len(tables) > 1
    private = private_event_ids(season)
    rows = []
    for s in SeasonStanding.objects.filter(season=season).select_related("player"):
        if _only_private(s.detail, private):
            continue  # a private league's player: not published by a series
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
            if counts and limit is not None:
                why = ngettext(
                    "one of the best %(limit)s %(event_type)s finishes",
                    "one of the best %(limit)s %(event_type)s finishes",
                    limit,
                ) % {"limit": limit, "event_type": kind}
            elif counts:
                why = _("every %(event_type)s finish counts") % {"event_type": kind}
            else:
                why = ngettext(
                    "only the best %(limit)s %(event_type)s finishes count",
                    "only the best %(limit)s %(event_type)s finishes count",
                    limit or 0,
                ) % {"limit": limit, "event_type": kind}
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


# -- Series across stores ---------------------------------------------------------------------
# A series' pages publish what the series is: its stores, and of its seasons' events only
# their names, dates, stores and the standings they feed. No player page, league or event
# page of a store is linked from them: a private league stays private.


def series_get(*, slug: str) -> Series:
    series = Series.objects.filter(slug=slug).select_related("organization").first()
    if series is None:
        raise Http404("No such series.")
    return series


def series_members(series: Series) -> list[SeriesMember]:
    return list(
        SeriesMember.objects.filter(series=series)
        .select_related("organization")
        .order_by("organization__name")
    )


def series_season_get(*, series: Series, pk: int) -> Season:
    season = Season.objects.filter(series=series, pk=pk).select_related("series").first()
    if season is None:
        raise Http404("No such season.")
    return season


@dataclass(frozen=True)
class SeriesEventLine:
    name: str
    date: object
    store: str
    event_type: str
    players: int
    final: bool
    store_left: bool


def series_events_overview(season: Season) -> list[SeriesEventLine]:
    """The season's events of public leagues (a series' pages are public): name, date, store,
    and whether that store has left the series."""
    left = set(
        SeriesMember.objects.filter(
            series_id=season.series_id, status=SeriesMember.Status.LEFT
        ).values_list("organization_id", flat=True)
    )
    rows = (
        SeasonEvent.objects.filter(season=season, tournament__league__is_public=True)
        .order_by("tournament__date", "tournament_id")
        .values_list(
            "tournament__name",
            "tournament__date",
            "tournament__league__organization__name",
            "tournament__league__organization_id",
            "event_type__name",
            "players",
            "final",
        )
    )
    return [
        SeriesEventLine(name, date, store, kind, players, final, org_id in left)
        for name, date, store, org_id, kind, players, final in rows
    ]


def series_people_stores(season: Season) -> dict[int, list[str]]:
    """Each table row's player -> the stores whose events they played in this season."""
    events = dict(
        SeasonEvent.objects.filter(season=season, tournament__league__is_public=True).values_list(
            "tournament_id", "tournament__league__organization__name"
        )
    )
    stores: dict[int, list[str]] = {}
    for standing in SeasonStanding.objects.filter(season=season).values("player_id", "detail"):
        rows = standing["detail"].get("counted", []) + standing["detail"].get("dropped", [])
        names = sorted({events[row[0]] for row in rows if row[0] in events})
        stores[standing["player_id"]] = names
    return stores


def series_of_store(organization) -> list[Series]:
    """The series a store takes part in (or took part in): public, as their pages are."""
    return list(
        Series.objects.filter(
            members__organization=organization,
            members__status__in=(SeriesMember.Status.ACCEPTED, SeriesMember.Status.LEFT),
        ).select_related("organization")
    )


def store_series(organization) -> list[SeriesMember]:
    """The series a store hosts, takes part in, is invited to, declined or left."""
    return list(
        SeriesMember.objects.filter(organization=organization)
        .select_related("series__organization")
        .order_by("series__name")
    )


def series_store_event_choices(season: Season, organization) -> list[tuple[Tournament, int | None]]:
    """The store's events in the season's dates (and any already counted), with their type."""
    counted = dict(
        SeasonEvent.objects.filter(
            season=season, tournament__league__organization=organization
        ).values_list("tournament_id", "event_type_id")
    )
    events = Tournament.objects.filter(
        league__organization=organization,
        league__is_public=True,
        date__range=(season.starts_on, season.ends_on),
    ) | Tournament.objects.filter(pk__in=list(counted))
    return [(e, counted.get(e.pk)) for e in events.select_related("league").order_by("date", "pk")]


def series_store_private_events(season: Season, organization) -> list[Tournament]:
    """The store's events of private leagues in the season's dates: they cannot count in a
    series (its pages are public), and the store is told so rather than find them missing."""
    return list(
        Tournament.objects.filter(
            league__organization=organization,
            league__is_public=False,
            date__range=(season.starts_on, season.ends_on),
        )
        .exclude(season_events__season=season)
        .select_related("league")
        .order_by("date", "pk")
    )


def series_players(series: Series) -> list[Player]:
    """The players of the series' seasons' events, with their store: whom the host may link."""
    counted = SeasonEvent.objects.filter(
        season__series=series, tournament__league__is_public=True
    ).values_list("finishes", flat=True)
    ids = {finish[0] for finishes in counted for finish in finishes}
    return list(
        Player.objects.filter(pk__in=ids)
        .select_related("organization")
        .order_by("name", "organization__name")
    )


def series_links(series: Series) -> list[SeriesLink]:
    return list(
        SeriesLink.objects.filter(series=series).select_related(
            "player__organization", "same_as__organization"
        )
    )


def season_just_created(data: dict, user, **owner) -> Season | None:
    """The season this same person created in the last minutes with this name and these dates
    for this owner (`league=` or `series=`): what a second press of "Create" finds, so it is
    shown the first press's season instead of "the name is taken"."""
    return (
        Season.objects.filter(
            **owner,
            name__iexact=data["name"].strip(),
            starts_on=data["starts_on"],
            ends_on=data["ends_on"],
            created_by=user,
            created_at__gte=timezone.now() - timedelta(minutes=10),
        )
        .order_by("-pk")
        .first()
    )
