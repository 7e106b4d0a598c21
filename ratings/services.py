"""Keeping a league's ratings true to its games: mark what is stale, replay from there.

Every change to a game (from the admin, a form, an import, the API or a tournament) ends in
`ratings_mark_dirty`, in the writer's own transaction: it lowers the league's durable dirty
marker to the earliest changed position and asks for `ratings_catch_up` after commit. The
catch-up locks the league row (the lock every game write takes too), replays the games from
the marker on, and clears it, all in one transaction; so two organizers saving at once are
serialised, a crash in between leaves the marker for the next run (or the worker's sweep,
`ratings_sweep`), and the ledger after any sequence of edits equals a replay from scratch. The
catch-up commits without waiting for the disk (`ratings_catch_up` says why that is safe).
A game added after every rated game replays nothing before it: it costs the same handful of
queries whatever the league's size.
"""

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings as django_settings
from django.db import connection, transaction
from django.utils import timezone

from core.oncommit import once_per_commit
from core.pagecache import touch
from jobs.services import job_active, job_start
from leagues.models import League

from . import ledger
from .domain.base import ParamError, RatingSystem
from .domain.registry import make_system
from .domain.replay import replay, replay_results
from .job_kinds import CATCH_UP
from .models import LeagueRating

log = logging.getLogger(__name__)
Position = ledger.Position


@dataclass(frozen=True)
class ReplayReport:
    league_id: int
    since: Position
    games: int
    changes: int


def rating_settings_get(*, league: League) -> LeagueRating:
    """The league's rating settings row, created with the defaults if missing (for writes)."""
    settings, _ = LeagueRating.objects.get_or_create(league=league)
    return settings


def rating_settings_read(*, league: League) -> LeagueRating:
    """The league's settings for reading: an unsaved default when there is no row (GET pages
    never write). No query when the league was read with them (`select_related`)."""
    if League.rating_settings.is_cached(league):
        try:
            return league.rating_settings
        except LeagueRating.DoesNotExist:
            return LeagueRating(league=league)
    return LeagueRating.objects.filter(league=league).first() or LeagueRating(league=league)


def rating_system_get(*, league: League) -> RatingSystem:
    settings = rating_settings_read(league=league)
    return make_system(settings.system, settings.params)


def ratings_mark_dirty(*, league_id: int, position: Position) -> None:
    """Ratings of `league_id` from `position` on are stale: note it durably, catch up on commit."""
    with connection.cursor() as cursor:
        # Insert the marker, or lower it: a row comparison keeps the earliest position.
        cursor.execute(
            """INSERT INTO ratings_leaguerating (league_id, system, params, dirty_from_date,
                       dirty_from_game)
               SELECT %s, %s, '{}'::jsonb, %s, %s WHERE EXISTS (
                       SELECT 1 FROM leagues_league WHERE id = %s)
               ON CONFLICT (league_id) DO UPDATE SET
                   dirty_from_date = EXCLUDED.dirty_from_date,
                   dirty_from_game = EXCLUDED.dirty_from_game
               WHERE ratings_leaguerating.dirty_from_date IS NULL
                  OR (ratings_leaguerating.dirty_from_date, ratings_leaguerating.dirty_from_game)
                     > (EXCLUDED.dirty_from_date, EXCLUDED.dirty_from_game)""",
            [league_id, _default_system(), *position, league_id],
        )
    _catch_up_on_commit(league_id)


def _default_system() -> str:
    return LeagueRating._meta.get_field("system").default


def _catch_up_on_commit(league_id: int) -> None:
    """One catch-up per league per transaction, however many rows the transaction touched."""
    once_per_commit(("ratings", league_id), functools.partial(_catch_up_logged, league_id))


def _catch_up_logged(league_id: int) -> None:
    try:
        ratings_catch_up(
            league_id=league_id, defer_above=django_settings.GUILDHALL_INLINE_RERATE_GAMES
        )
    except Exception:
        # The marker is still set; the next change or `recalculate_ratings` finishes the job.
        log.exception("Rating catch-up failed for league %s", league_id)
        raise


def ratings_catch_up(
    *,
    league_id: int,
    defer_above: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    skip_locked: bool = False,
) -> ReplayReport | None:
    """Replay the league from its dirty marker, if it has one. With `skip_locked`, a league
    whose row another transaction holds (a writer, a replay) is left alone: None.

    With `defer_above`, a catch-up that would replay more games than that (a correction far
    in the past of a big league) is left to a background job instead; the marker stays, so
    the league's pages keep the last ratings until the job has replayed it.

    Run on its own (after its writer's commit, from a job or the sweep), the catch-up's
    transaction commits without waiting for the disk: it writes only what a replay derives
    from the games and clears the marker in the same transaction, and the games and the marker
    were committed durably by their writer. If the server crashes before the catch-up reaches
    the disk, it is lost whole (PostgreSQL keeps transactions atomic and in order) with the
    marker still set, and the next change or the worker's sweep (`ratings_sweep`) replays it.
    So a result tapped at a table waits for one flush, its own, not two. Called inside a
    caller's transaction, it leaves that transaction's durability alone.
    """
    own_transaction = not transaction.get_connection().in_atomic_block
    with transaction.atomic():
        if not _lock_for_catch_up(league_id, flush=not own_transaction, skip=skip_locked):
            return None  # the league was deleted (or, skipping, is locked)
        settings = LeagueRating.objects.filter(league_id=league_id).first()
        if settings is None or settings.dirty_from is None:
            return None
        report = _replay(settings, settings.dirty_from, progress=progress, defer_above=defer_above)
        if report is None:
            _catch_up_in_background(league_id)
        return report


def _lock_for_catch_up(league_id: int, *, flush: bool, skip: bool = False) -> bool:
    """Lock the league row (False: no such league, or with `skip` one locked elsewhere);
    unless `flush`, let this transaction commit without waiting for its WAL flush
    (`synchronous_commit` off for it alone)."""
    setting = "1" if flush else "set_config('synchronous_commit', 'off', true)"
    lock = "FOR UPDATE SKIP LOCKED" if skip else "FOR UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {setting} FROM leagues_league WHERE id = %s {lock}", [league_id])
        return cursor.fetchone() is not None


def _catch_up_in_background(league_id: int) -> None:
    league = League.objects.get(pk=league_id)
    job_start(kind=CATCH_UP, league=league, key=_catch_up_key(league_id))


def _catch_up_key(league_id: int) -> str:
    return f"catch_up:{league_id}"


def ratings_sweep() -> list[int]:
    """Catch up every league whose marker was left set: its writer's on-commit catch-up was
    lost (the process died between the two, or the server crashed before the catch-up's
    asynchronous commit reached the disk) or failed. Called by the worker's reaper every few
    seconds, it never waits: a league with a catch-up job under way is left to the job, one
    whose row is locked (a writer, a re-rating) to whoever holds it, and one whose replay
    fails is logged and left for the next sweep. The ids of the leagues caught up or handed
    to a job."""
    swept = []
    dirty = LeagueRating.objects.filter(dirty_from_date__isnull=False).values_list(
        "league_id", flat=True
    )
    for league_id in dirty:
        if job_active(key=_catch_up_key(league_id)) is not None:
            continue
        try:
            report = ratings_catch_up(
                league_id=league_id,
                defer_above=django_settings.GUILDHALL_INLINE_RERATE_GAMES,
                skip_locked=True,
            )
        except Exception:
            log.exception("Rating catch-up failed for league %s", league_id)
            continue
        if report is not None or job_active(key=_catch_up_key(league_id)) is not None:
            swept.append(league_id)
    return swept


@transaction.atomic
def ratings_recalculate(
    *, league: League, progress: Callable[[int, int], None] | None = None
) -> ReplayReport:
    """Rebuild the league's whole ledger from its games."""
    League.objects.select_for_update().filter(pk=league.pk).exists()
    settings = rating_settings_get(league=league)
    return _replay(settings, ledger.START, progress=progress)


@transaction.atomic
def rating_system_set(
    *,
    league: League,
    system: str,
    params: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ReplayReport:
    """Switch the league to another system or parameters and re-rate every game.

    Raises ParamError (nothing changed) when the system or a parameter is not acceptable.
    """
    chosen = make_system(system, params or {})
    League.objects.select_for_update().filter(pk=league.pk).exists()
    settings = rating_settings_get(league=league)
    settings.system = chosen.name
    settings.params = chosen.params()
    settings.save(update_fields=["system", "params"])
    return _replay(settings, ledger.START, progress=progress)


def _replay(
    settings: LeagueRating,
    since: Position,
    *,
    progress: Callable[[int, int], None] | None = None,
    defer_above: int | None = None,
) -> ReplayReport | None:
    """Rewrite the ledger from `since` on. The caller holds the league lock.

    With `defer_above`, more games than that to replay writes nothing and returns None.
    """
    league_id = settings.league_id
    system = make_system(settings.system, settings.params)
    with_stats = getattr(system, "uses_stats", False)
    if since == ledger.START:
        return _replay_all(settings, system, with_stats, progress=progress, defer_above=defer_above)
    games = ledger.games_from(league_id, since, with_stats=with_stats)
    if defer_above is not None and len(games) > defer_above:
        return None
    playing = {f.player for game in games for f in game.finish}
    # Nothing rated at or after `since` (a game added at the end): `current` comes from the
    # Rating cache in the same statement.
    left, current = ledger.delete_from(league_id, since, playing)
    base = (
        current if current is not None else ledger.tallies_before(league_id, since, playing | left)
    )
    total = len(games)
    rows, tallies = replay(
        system, games, base, progress=(lambda done: progress(done, total)) if progress else None
    )
    ledger.write_tail(league_id, rows, {p: tallies.get(p) for p in playing | left}, system)
    return _replayed(settings, since, total, len(rows), progress)


def _replay_all(
    settings: LeagueRating,
    system: RatingSystem,
    with_stats: bool,
    *,
    progress: Callable[[int, int], None] | None,
    defer_above: int | None,
) -> ReplayReport | None:
    """Replay every game of the league; the ledger keeps each row that is already right."""
    league_id = settings.league_id
    if defer_above is not None and ledger.games_count(league_id) > defer_above:
        return None
    # The stored rows are read too: the rewrite writes only what differs.
    results, stored = ledger.results_and_ledger(league_id, with_stats=with_stats)
    rows, tallies, total = replay_results(system, results, {}, progress=progress)
    ledger.rewrite_all(league_id, rows, stored)
    # Everyone who still has a rated game has a tally; every other Rating row goes.
    ledger.write_ratings(league_id, tallies, system, every_player=True)
    return _replayed(settings, ledger.START, total, len(rows), progress)


def _replayed(
    settings: LeagueRating,
    since: Position,
    total: int,
    changes: int,
    progress: Callable[[int, int], None] | None,
) -> ReplayReport:
    """Clear the league's marker and tell its pages: the ledger is up to date."""
    league_id = settings.league_id
    LeagueRating.objects.filter(pk=settings.pk).update(
        dirty_from_date=None, dirty_from_game=None, rated_at=timezone.now()
    )
    # The league's standings (and events ranked by opponents' rating) show the new ratings.
    touch(("league", league_id))
    if progress:
        progress(total, total)
    return ReplayReport(league_id=league_id, since=since, games=total, changes=changes)


__all__ = [
    "ParamError",
    "ReplayReport",
    "rating_settings_get",
    "rating_system_get",
    "rating_system_set",
    "ratings_catch_up",
    "ratings_mark_dirty",
    "ratings_recalculate",
    "ratings_sweep",
]
