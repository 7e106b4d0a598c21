"""Keeping a season's table true to its events, and the organizers' changes to a season.

The season table is the replay of its events, as a league's ratings are of its games. The
durable marker that an event changed is the one every change to it already writes in its
own transaction: the version of the event's pages (`core.pagecache.touch`, bumped by each
service of tournaments through `page_versions.event_changed`, by an edit of the event row,
by a result, its correction or undo, a round, a drop, the top cut). So a writer pays no
query for the seasons: `tournaments.signals.event_touched` only asks for
`seasons_catch_up_event` after commit. The catch-up locks each season row the event counts
in, reads again the events whose version moved past the one their finishes were read at
(`SeasonEvent.seen_version`), replays the table (`seasons.domain.rules.season_table`)
from every event's stored finishes and rewrites it, all in one transaction: two catch-ups
of one season are serialised, and a crash (or a lost callback) leaves the versions apart
for the next change or the worker's sweep (`seasons_sweep`). The version is read before the
event, so a change committed while the catch-up reads leaves the event stale, for its own
writer's catch-up, never marked as read.

The organizers' changes (a season, a point table, which events count) lock the season row,
write, replay at once and file an entry in the History, in one transaction. Bad input raises
`seasons.domain.rules.SeasonError` naming the field; nothing is changed then.
"""

import functools
import logging
from datetime import date

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import log_action
from audit.summary import N_, Summary
from core.models import PageVersion
from core.oncommit import once_per_commit
from leagues.models import League, Organization, Player
from seasons.domain import rules as domain
from tournaments.models import Tournament

from .actions import Action
from .models import EventType, Season, SeasonEvent, SeasonStanding, Series, SeriesLink, SeriesMember
from .snapshots import event_snapshot

log = logging.getLogger(__name__)

SeasonError = domain.SeasonError

COUNTS = ("entering", "per_round", "per_win", "per_draw", "per_bye")

# The season events whose event changed since their finishes were read.
STALE_EVENTS = """
    SELECT se.id, se.season_id FROM seasons_seasonevent se
      LEFT JOIN core_pageversion pv ON pv.scope = 'event' AND pv.key = se.tournament_id
     WHERE COALESCE(pv.number, 0) <> se.seen_version"""


# -- Marking and catching up ------------------------------------------------------------------


def seasons_catch_up_event(*, tournament_id: int) -> None:
    """The event changed: catch up the seasons it counts in once the change is committed
    (no query now; the event's page version is the durable marker)."""
    if not transaction.get_connection().in_atomic_block:
        _catch_up_event(tournament_id)
        return
    once_per_commit(
        ("seasons.event", tournament_id), functools.partial(_logged, _catch_up_event, tournament_id)
    )


def _catch_up_event(tournament_id: int) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(STALE_EVENTS + " AND se.tournament_id = %s", [tournament_id])
        season_ids = sorted({season_id for _, season_id in cursor.fetchall()})
    for season_id in season_ids:
        season_catch_up(season_id=season_id)
    return season_ids


def season_mark_stale(*, season_id: int) -> None:
    """The season lost an event (it was deleted): replay it after commit."""
    Season.objects.filter(pk=season_id).update(stale=True)
    _catch_up_on_commit(season_id)


def _catch_up_on_commit(season_id: int) -> None:
    """One catch-up per season per transaction, however many writes the transaction made."""
    once_per_commit(
        ("seasons.season", season_id), functools.partial(_logged, _season_catch_up, season_id)
    )


def _season_catch_up(season_id: int) -> None:
    season_catch_up(season_id=season_id)


def _logged(catch_up, key: int) -> None:
    try:
        catch_up(key)
    except Exception:
        # The versions stay apart: the next change or the worker's sweep replays it.
        log.exception("Season catch-up failed (%s %s)", catch_up.__name__, key)
        raise


def season_catch_up(*, season_id: int, skip_locked: bool = False) -> bool:
    """Read the season's changed events again and replay its table, if anything changed.
    With `skip_locked`, a season another transaction holds is left to it. True if replayed."""
    with transaction.atomic():
        lock = "FOR UPDATE SKIP LOCKED" if skip_locked else "FOR UPDATE"
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT stale FROM seasons_season WHERE id = %s {lock}", [season_id])
            row = cursor.fetchone()
            if row is None:
                return False
            cursor.execute(STALE_EVENTS + " AND se.season_id = %s", [season_id])
            stale_ids = [pk for pk, _ in cursor.fetchall()]
        if not stale_ids and not row[0]:
            return False
        changed = row[0]
        for season_event in SeasonEvent.objects.filter(pk__in=stale_ids).select_related(
            "tournament__league"
        ):
            changed |= _snapshot(season_event)
        if changed:
            _replay(Season.objects.get(pk=season_id))
        return True


def _snapshot(season_event: SeasonEvent) -> bool:
    """Store the event's finishes and the page version they were read at (read first: a
    change committed meanwhile leaves the event stale). True if the finishes changed (a
    result in a round still being played moves nobody: the table needs no replay)."""
    version = (
        PageVersion.objects.filter(scope="event", key=season_event.tournament_id)
        .values_list("number", flat=True)
        .first()
    ) or 0
    snapshot = event_snapshot(season_event.tournament)
    players, finishes, final = snapshot if snapshot is not None else (0, [], False)
    changed = (players, finishes, final) != (
        season_event.players,
        season_event.finishes,
        season_event.final,
    )
    if changed:
        SeasonEvent.objects.filter(pk=season_event.pk).update(
            players=players, finishes=finishes, final=final, seen_version=version
        )
    else:
        SeasonEvent.objects.filter(pk=season_event.pk).update(seen_version=version)
    season_event.players, season_event.finishes, season_event.final = players, finishes, final
    season_event.seen_version = version
    return changed


def seasons_sweep() -> list[int]:
    """Catch up every season left stale (its writer's catch-up was lost or failed); called by
    the worker's reaper every few seconds, never waiting for a season someone holds."""
    with connection.cursor() as cursor:
        cursor.execute(STALE_EVENTS)
        stale = {season_id for _, season_id in cursor.fetchall()}
    stale |= set(Season.objects.filter(stale=True).values_list("pk", flat=True))
    swept = []
    for season_id in sorted(stale):
        try:
            if season_catch_up(season_id=season_id, skip_locked=True):
                swept.append(season_id)
        except Exception:
            log.exception("Season catch-up failed for season %s", season_id)
    return swept


def domain_season(season: Season, types: list[EventType] | None = None) -> domain.Season:
    types = list(season.event_types.all()) if types is None else types
    return domain.Season(
        tables=tuple(t.point_table() for t in types), tiebreaks=tuple(season.tiebreaks)
    )


def domain_events(season: Season) -> list[domain.SeasonEvent]:
    """The season's events as the domain reads them; in a series' season each store player is
    replaced by the one player standing for their person (`series_people`)."""
    counted = SeasonEvent.objects.filter(season=season, players__gt=0)
    if season.series_id:
        # A series' table is public: a private league's event never counts in it, whenever
        # it was chosen (before this rule, or its league made private since).
        counted = counted.filter(tournament__league__is_public=True)
    rows = list(counted.values_list("tournament_id", "event_type__name", "players", "finishes"))
    person: dict[int, int] = {}
    if season.series_id:
        ids = {finish[0] for _, _, _, finishes in rows for finish in finishes}
        person = series_people(series_id=season.series_id, player_ids=ids)
    events = []
    for event, kind, players, finishes in rows:
        mapped = [person.get(f[0], f[0]) for f in finishes]
        twice = {p for p in mapped if mapped.count(p) > 1}
        events.append(
            domain.SeasonEvent(
                event,
                kind,
                players,
                tuple(
                    # Two players of one event standing for one person (a link the host
                    # should not have made): they stay apart rather than lose a finish.
                    domain.Finish(f[0] if p in twice else p, *f[1:])
                    for f, p in zip(finishes, mapped, strict=True)
                ),
            )
        )
    return events


def series_people(*, series_id: int, player_ids) -> dict[int, int]:
    """Each of `player_ids` -> the player standing for their person in the series: store
    players linked to one account are one person, and so are players the host linked
    (`SeriesLink`); the person's player is the lowest id among `player_ids`. A player with no
    account and no link is themselves: nobody is matched by name."""
    player_ids = set(player_ids)
    if not player_ids:
        return {}
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    links = list(
        SeriesLink.objects.filter(series_id=series_id).values_list("player_id", "same_as_id")
    )
    linked = {p for pair in links for p in pair}
    accounts = dict(
        Player.objects.filter(pk__in=player_ids | linked, user__isnull=False).values_list(
            "pk", "user_id"
        )
    )
    # The account's players elsewhere bring no finishes, but may carry a link.
    by_account: dict[int, int] = {}
    for pk, user_id in sorted(accounts.items()):
        if user_id in by_account:
            union(by_account[user_id], pk)
        else:
            by_account[user_id] = pk
    for a, b in links:
        union(a, b)
    groups: dict[int, int] = {}
    for pk in sorted(player_ids):
        groups.setdefault(find(pk), pk)
    return {pk: groups[find(pk)] for pk in player_ids}


def _scored(f: domain.ScoredFinish) -> list:
    return [f.event, f.event_type, f.points, f.placing, f.first, f.last, f.players]


def _replay(season: Season) -> int:
    """Rewrite the season's table from its events' stored finishes. The caller holds the
    season's lock. The number of rows."""
    rows = domain.season_table(domain_season(season), domain_events(season))
    SeasonStanding.objects.filter(season=season).delete()
    SeasonStanding.objects.bulk_create(
        SeasonStanding(
            season=season,
            player_id=row.player,
            position=position,
            rank=row.rank,
            tied=row.tied,
            points=row.points,
            events_counted=len(row.counted),
            events_played=len(row.counted) + len(row.dropped),
            detail={
                "counted": [_scored(f) for f in row.counted],
                "dropped": [_scored(f) for f in row.dropped],
                "to_beat": [list(pair) for pair in row.to_beat],
                "tiebreaks": [list(pair) for pair in row.tiebreaks],
            },
        )
        for position, row in enumerate(rows, start=1)
    )
    Season.objects.filter(pk=season.pk).update(stale=False, replayed_at=timezone.now())
    return len(rows)


def _lock(season: Season) -> Season:
    return (
        Season.objects.select_for_update(of=("self",))
        .select_related("league", "series")
        .get(pk=season.pk)
    )


# -- The organizers' changes ------------------------------------------------------------------


def _season_fields(name: str, starts_on: date, ends_on: date, tiebreaks: list[str]) -> None:
    if not name.strip():
        raise SeasonError(code="no_name", field="name", message=_("A season needs a name."))
    if ends_on < starts_on:
        raise SeasonError(
            code="dates_order",
            field="ends_on",
            message=_("The season ends (%(end)s) before it starts (%(start)s).")
            % {"end": ends_on, "start": starts_on},
        )
    domain.Season(tables=(), tiebreaks=tuple(tiebreaks))  # raises on an unknown rule


def _name_taken(scope: League | Series, name: str, season: Season | None) -> None:
    where = {"series": scope} if isinstance(scope, Series) else {"league": scope}
    taken = Season.objects.filter(**where, name__iexact=name.strip())
    if season is not None:
        taken = taken.exclude(pk=season.pk)
    if taken.exists():
        raise SeasonError(
            code="name_taken",
            field="name",
            message=_("%(scope)s already has a season %(name)s.")
            % {"scope": scope.name, "name": repr(name)},
        )


def _season_data(season: Season) -> dict:
    return {
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "tiebreaks": list(season.tiebreaks),
    }


@transaction.atomic
def season_create(
    *,
    league: League | None = None,
    series: Series | None = None,
    name: str,
    starts_on: date,
    ends_on: date,
    tiebreaks: list[str] = (),
    preset: str = "",
    by=None,
) -> Season:
    """A new season of `league` (or of `series`); with `preset` (a key of `PRESETS`), its event
    types and tie-break rules are the published system's (the given `tiebreaks` then come
    first)."""
    if (league is None) == (series is None):
        raise ValueError("A season is a league's or a series', one of the two.")
    tiebreaks = list(tiebreaks)
    tables: tuple[domain.PointTable, ...] = ()
    if preset:
        if preset not in domain.PRESETS:
            raise SeasonError(
                code="unknown_preset",
                field="preset",
                message=_("No published system %(preset)s.") % {"preset": repr(preset)},
            )
        published = domain.PRESETS[preset]
        tables = published.tables
        tiebreaks += [t for t in published.tiebreaks if t not in tiebreaks]
    _season_fields(name, starts_on, ends_on, tiebreaks)
    scope = league if league is not None else series
    type(scope).objects.select_for_update().filter(pk=scope.pk).exists()
    _name_taken(scope, name, None)
    season = Season.objects.create(
        league=league,
        series=series,
        name=name.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        tiebreaks=tiebreaks,
        created_by=by if by is not None and by.is_authenticated else None,
    )
    for table in tables:
        EventType.objects.create(season=season, **_type_fields(table))
    log_action(
        scope,
        Action.SEASON_CREATE,
        season,
        Summary(N_("Season %(season)s created from %(preset)s"), season=season.name, preset=preset)
        if preset
        else Summary(N_("Season %(season)s created"), season=season.name),
        after={**_season_data(season), "event_types": [t.event_type for t in tables]},
        by=by,
    )
    return season


@transaction.atomic
def season_update(
    *, season: Season, name: str, starts_on: date, ends_on: date, tiebreaks: list[str], by=None
) -> Season:
    """Rename the season, move its dates or change its tie-break rules; re-scored at once.
    Events outside the new dates leave the season (said in the History)."""
    _season_fields(name, starts_on, ends_on, tiebreaks)
    season = _lock(season)
    _name_taken(season.scope, name, season)
    before = _season_data(season)
    season.name, season.starts_on, season.ends_on = name.strip(), starts_on, ends_on
    season.tiebreaks = list(tiebreaks)
    season.save(update_fields=["name", "starts_on", "ends_on", "tiebreaks"])
    outside = SeasonEvent.objects.filter(season=season).exclude(
        tournament__date__range=(starts_on, ends_on)
    )
    left = list(outside.values_list("tournament__name", flat=True))
    outside.delete()
    _replay(season)
    after = _season_data(season)
    if left:
        after["events_removed"] = left
    if after != before:
        log_action(
            season.scope,
            Action.SEASON_CHANGE,
            season,
            Summary(N_("Season %(season)s changed"), season=season.name),
            before=before,
            after=after,
            by=by,
        )
    return season


def _type_fields(table: domain.PointTable) -> dict:
    return {
        "name": table.event_type,
        "placings": [[r.down_to, r.points, r.more_than] for r in table.placings],
        "best_finishes": table.best_finishes,
        **{count: getattr(table, count) for count in COUNTS},
    }


def _type_data(event_type: EventType) -> dict:
    return {
        "name": event_type.name,
        "placings": event_type.placings,
        "best_finishes": event_type.best_finishes,
        **{count: getattr(event_type, count) for count in COUNTS},
    }


@transaction.atomic
def event_type_save(
    *, season: Season, table: domain.PointTable, event_type: EventType | None = None, by=None
) -> EventType:
    """Add an event type with its point table (a validated `PointTable`), or change one;
    the season is re-scored at once."""
    season = _lock(season)
    taken = season.event_types.filter(name__iexact=table.event_type)
    if event_type is not None:
        taken = taken.exclude(pk=event_type.pk)
    if taken.exists():
        raise SeasonError(
            code="duplicate_event_type",
            field="name",
            message=_("The season already has an event type %(name)s.")
            % {"name": repr(table.event_type)},
        )
    fields = _type_fields(table)
    if event_type is None:
        event_type = EventType.objects.create(season=season, **fields)
        action, before, summary = (
            Action.TYPE_CREATE,
            None,
            N_("Event type %(type)s added to %(season)s"),
        )
    else:
        event_type = EventType.objects.select_for_update().get(pk=event_type.pk, season=season)
        before = _type_data(event_type)
        for key, value in fields.items():
            setattr(event_type, key, value)
        event_type.save()
        action, summary = Action.TYPE_CHANGE, N_("Event type %(type)s changed in %(season)s")
    after = _type_data(event_type)
    _replay(season)
    if after != before:
        log_action(
            season.scope,
            action,
            event_type,
            Summary(summary, type=event_type.name, season=season.name),
            before=before,
            after=after,
            by=by,
        )
    return event_type


@transaction.atomic
def event_type_delete(*, season: Season, event_type: EventType, by=None) -> None:
    season = _lock(season)
    if SeasonEvent.objects.filter(event_type=event_type).exists():
        raise SeasonError(
            code="type_in_use",
            field="event_type",
            message=_(
                "Events of the season are counted as %(name)s: move them to another type first."
            )
            % {"name": event_type.name},
        )
    before = _type_data(event_type)
    pk = event_type.pk
    event_type.delete()
    _replay(season)
    log_action(
        season.scope,
        Action.TYPE_DELETE,
        ("eventtype", pk),
        Summary(
            N_("Event type %(type)s removed from %(season)s"),
            type=before["name"],
            season=season.name,
        ),
        before=before,
        by=by,
    )


@transaction.atomic
def season_events_set(
    *,
    season: Season,
    choices: dict[int, int | None],
    by=None,
    organization: Organization | None = None,
) -> int:
    """Which of the league's events count in the season, and as which type: `choices` maps
    an event's id to an event type's id, or None for "does not count". Events not named
    keep what they had. Re-scored at once. The number of events that changed.

    In a series' season, `organization` (a store taking part) chooses among its own events:
    a store invited, declined or gone counts none, another store's events are not its to
    choose, and an event of a private league is refused (`code="private_league"`): the
    series' pages are public."""
    season = _lock(season)
    if season.series_id:
        if organization is None:
            raise ValueError("A series' season: which store's events?")
        _taking_part(season.series, organization)
        events_of = Tournament.objects.filter(league__organization=organization)
        owner_name = organization.name
        counted = SeasonEvent.objects.filter(
            season=season, tournament__league__organization=organization
        )
    else:
        events_of = Tournament.objects.filter(league=season.league)
        owner_name = season.league.name
        counted = SeasonEvent.objects.filter(season=season)
    types = {t.pk: t for t in season.event_types.all()}
    events = {t.pk: t for t in events_of.filter(pk__in=list(choices)).select_related("league")}
    current = {se.tournament_id: se for se in counted}
    changes, said = [], []  # the English kept in `after`, and the History's sentence
    for event_id, type_id in choices.items():
        event = events.get(event_id)
        if event is None:
            raise SeasonError(
                code="unknown_event",
                field=f"event_{event_id}",
                message=_("That event is not one of %(owner)s's.") % {"owner": owner_name},
            )
        if type_id is not None and type_id not in types:
            raise SeasonError(
                code="unknown_event_type",
                field=f"event_{event_id}",
                message=_("%(event)s: that event type is not one of the season's.")
                % {"event": event.name},
            )
        if type_id is not None and season.series_id and not event.league.is_public:
            raise SeasonError(
                code="private_league",
                field=f"event_{event_id}",
                message=_(
                    "%(event)s is an event of your private league %(league)s: %(series)s's "
                    "pages are public and would show its players, points and name, so it "
                    "cannot count. Make the league public first to count it."
                )
                % {
                    "event": event.name,
                    "league": event.league.name,
                    "series": season.series.name,
                },
            )
        if type_id is not None and not season.starts_on <= event.date <= season.ends_on:
            raise SeasonError(
                code="outside_season",
                field=f"event_{event_id}",
                message=_("%(event)s (%(date)s) is outside the season (%(starts)s to %(ends)s).")
                % {
                    "event": event.name,
                    "date": event.date,
                    "starts": season.starts_on,
                    "ends": season.ends_on,
                },
            )
        had = current.get(event_id)
        if had is None and type_id is None:
            continue
        if had is not None and had.event_type_id == type_id:
            continue
        if type_id is None:
            had.delete()
            changes.append(f"{event.name}: no longer counts")
            said.append(Summary(N_("%(event)s: no longer counts"), event=event.name))
            continue
        if had is None:
            had = SeasonEvent(season=season, tournament=event, event_type=types[type_id])
            had.save()
            _snapshot(had)
        else:
            had.event_type = types[type_id]
            had.save(update_fields=["event_type"])
        changes.append(f"{event.name}: counts as {types[type_id].name}")
        said.append(
            Summary(N_("%(event)s: counts as %(type)s"), event=event.name, type=types[type_id].name)
        )
    if changes:
        _replay(season)
        log_action(
            organization if season.series_id else season.league,
            Action.EVENTS_CHANGE,
            season,
            Summary(
                N_("Events of %(season)s (%(series)s): %(changes)s"),
                season=season.name,
                series=season.series.name,
                changes=Summary.clauses(said),
            )
            if season.series_id
            else Summary(
                N_("Events of %(season)s: %(changes)s"),
                season=season.name,
                changes=Summary.clauses(said),
            ),
            after={"changes": changes},
            by=by,
        )
    return len(changes)


def _taking_part(series: Series, organization: Organization) -> SeriesMember:
    member = SeriesMember.objects.filter(series=series, organization=organization).first()
    if member is None or member.status != SeriesMember.Status.ACCEPTED:
        if member is None:
            text = _(
                "%(store)s is not in %(series)s: only the stores taking part count their "
                "events in it."
            )
        elif member.status == SeriesMember.Status.INVITED:
            text = _(
                "%(store)s has not accepted the invitation to %(series)s: only the stores "
                "taking part count their events in it."
            )
        elif member.status == SeriesMember.Status.DECLINED:
            text = _(
                "%(store)s has declined %(series)s: only the stores taking part count their "
                "events in it."
            )
        else:
            text = _(
                "%(store)s has left %(series)s: only the stores taking part count their "
                "events in it."
            )
        raise SeasonError(
            code="not_taking_part",
            field="organization",
            message=text % {"store": organization.name, "series": series.name},
        )
    return member
