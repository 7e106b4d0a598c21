"""Reads of ratings for pages, the API and the command line: a fixed number of queries each."""

import datetime
from dataclasses import dataclass

from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from leagues.domain.ranking import competition_ranks
from leagues.models import League

from .domain.base import RatingSystem
from .domain.registry import make_system
from .models import Rating, RatingChange
from .services import rating_settings_read

RECENT_DAYS = 30


@dataclass
class RatingRow:
    rank: int
    tied: bool
    player_id: int
    name: str
    rating: float
    change: float  # over the last RECENT_DAYS days
    games: int
    wins: int
    last_played: datetime.date | None
    provisional: bool

    @property
    def sort_name(self) -> str:
        return self.name.lower()

    @property
    def win_percent(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0


def league_system(*, league: League) -> RatingSystem:
    settings = rating_settings_read(league=league)
    return make_system(settings.system, settings.params)


def league_ratings(*, league: League, system: RatingSystem | None = None) -> list[RatingRow]:
    """The leaderboard: highest rating first, equal ratings by name, ranks shared (1, 2, 2, 4)."""
    system = system or league_system(league=league)
    since = timezone.localdate() - datetime.timedelta(days=RECENT_DAYS)
    recent = dict(
        RatingChange.objects.filter(league=league, played_on__gt=since)
        .values("player_id")
        .annotate(total=Sum("delta"))
        .values_list("player_id", "total")
    )
    rows = [
        RatingRow(
            rank=0,
            tied=False,
            player_id=r.player_id,
            name=r.player.name,
            rating=r.value,
            change=recent.get(r.player_id, 0.0),
            games=r.games,
            wins=r.wins,
            last_played=r.last_played,
            provisional=system.is_provisional(r.games),
        )
        for r in Rating.objects.filter(league=league).select_related("player")
    ]
    # Guildmaster's order: rating descending, then name (code point order, as Go compares).
    rows.sort(key=lambda row: (-row.rating, row.name))
    for row, (rank, tied) in zip(rows, competition_ranks(rows, lambda r: r.rating), strict=True):
        row.rank, row.tied = rank, tied
    return rows


def player_standing(
    *, league: League, player_id: int, system: RatingSystem | None = None
) -> RatingRow | None:
    """One player's row of the leaderboard (rank, tie, 30-day change...) in one query, without
    building the board: the rank is one more than the players rated higher, as
    `league_ratings` ranks them. None when the player has no rating in the league."""
    system = system or league_system(league=league)
    since = timezone.localdate() - datetime.timedelta(days=RECENT_DAYS)
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT p.name, r.value, r.games, r.wins, r.last_played,
                      (SELECT count(*) FROM ratings_rating o
                        WHERE o.league_id = r.league_id AND o.value > r.value),
                      (SELECT count(*) FROM ratings_rating o
                        WHERE o.league_id = r.league_id AND o.value = r.value),
                      (SELECT sum(c.delta) FROM ratings_ratingchange c
                        WHERE c.league_id = r.league_id AND c.player_id = r.player_id
                          AND c.played_on > %s)
                 FROM ratings_rating r JOIN leagues_player p ON p.id = r.player_id
                WHERE r.league_id = %s AND r.player_id = %s""",
            [since, league.pk, player_id],
        )
        found = cursor.fetchone()
    if found is None:
        return None
    name, value, games, wins, last_played, ahead, same, change = found
    return RatingRow(
        rank=ahead + 1,
        tied=same > 1,
        player_id=player_id,
        name=name,
        rating=value,
        change=change or 0.0,
        games=games,
        wins=wins,
        last_played=last_played,
        provisional=system.is_provisional(games),
    )


def format_rating(value: float, system: RatingSystem) -> str:
    return f"{value:.0f}" if system.integer else f"{value:.1f}"


def attach_rating_changes(games) -> None:
    """Give every result of `games` its ledger row as `.rating_change` (one query for all)."""
    games = list(games)
    changes = {
        (c.game_id, c.player_id): c
        for c in RatingChange.objects.filter(game__in=[g.pk for g in games])
    }
    for game in games:
        for result in game.results.all():
            result.rating_change = changes.get((game.pk, result.player_id))


def player_rating_history(*, league: League, player_id: int) -> list[tuple[datetime.date, float]]:
    """(date, rating after) for every rated game of the player, oldest first, with the start."""
    changes = list(
        RatingChange.objects.filter(league=league, player_id=player_id)
        .order_by("played_on", "game_id")
        .values_list("played_on", "before", "after")
    )
    if not changes:
        return []
    return [(changes[0][0], changes[0][1])] + [(day, after) for day, _, after in changes]


def player_biggest_wins(*, league: League, player_id: int, limit: int = 5) -> list[RatingChange]:
    """The player's wins that raised their rating most, with the game's players."""
    wins = list(
        RatingChange.objects.filter(
            league=league,
            player_id=player_id,
            game__results__player_id=player_id,
            game__results__placement=1,
        )
        .select_related("game")
        .prefetch_related("game__results__player")
        .order_by("-delta", "-played_on")[:limit]
    )
    for change in wins:
        change.opponents = [r for r in change.game.results.all() if r.player_id != player_id]
    return wins


@dataclass(frozen=True)
class RatingsPending:
    """The league's ratings lag its games: a catch-up is due, or a re-rating job runs."""

    job_percent: int | None = None  # how far the re-rating job is, when there is one


def ratings_pending(*, league: League) -> RatingsPending | None:
    """Whether the standings lag a change (and how far a background re-rating is), or None.

    One query: the dirty marker and the league's active re-rating job, if any.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT EXISTS (SELECT 1 FROM ratings_leaguerating
                               WHERE league_id = %s AND dirty_from_date IS NOT NULL),
                      (SELECT ARRAY[done, total] FROM jobs_job
                        WHERE league_id = %s AND kind IN ('rerate', 'catch_up')
                          AND status IN ('queued', 'running')
                        ORDER BY id LIMIT 1)""",
            [league.pk, league.pk],
        )
        dirty, job = cursor.fetchone()
    if job is not None:
        done, total = job
        return RatingsPending(job_percent=min(99, 100 * done // total) if total else 0)
    return RatingsPending() if dirty else None
