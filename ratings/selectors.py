"""Reads of ratings for pages, the API and the command line: a fixed number of queries each."""

import datetime
from dataclasses import dataclass

from django.contrib.postgres.fields import ArrayField
from django.db import connection
from django.db.models import F, Func, IntegerField, OuterRef, Subquery, Sum
from django.utils import timezone

from jobs.models import Job
from leagues.domain.outcome import outcome_sql, win_percent
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
    wins: int  # as leagues.domain.outcome counts them: unshared first places
    draws: int  # shared first places
    last_played: datetime.date | None
    provisional: bool

    @property
    def sort_name(self) -> str:
        return self.name.lower()

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def win_percent(self) -> float:
        """Wins / games: a draw is no win."""
        return win_percent(self.wins, self.games)


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
            draws=r.draws,
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


# The leaderboard's orders (django-tables2's `?sort=` aliases) as SQL. Every order ends with the
# board's own (rating descending, then name in code point order), as a stable sort of the
# ranked board by that column would leave equal rows.
BOARD_TIE = 'value DESC, name COLLATE "C"'
BOARD_ORDERS = {
    "": BOARD_TIE,
    "-rating": BOARD_TIE,
    "rating": 'value ASC, name COLLATE "C"',
    "name": f'lower(name) COLLATE "C" ASC, {BOARD_TIE}',
    "-name": f'lower(name) COLLATE "C" DESC, {BOARD_TIE}',
    "change": f"change ASC, {BOARD_TIE}",
    "-change": f"change DESC, {BOARD_TIE}",
    "games": f"games ASC, {BOARD_TIE}",
    "-games": f"games DESC, {BOARD_TIE}",
    "wins": f"wins ASC, {BOARD_TIE}",
    "-wins": f"wins DESC, {BOARD_TIE}",
    "draws": f"draws ASC, {BOARD_TIE}",
    "-draws": f"draws DESC, {BOARD_TIE}",
    "win_percent": f"win_percent ASC, {BOARD_TIE}",
    "-win_percent": f"win_percent DESC, {BOARD_TIE}",
    "last_played": f"last_played ASC NULLS FIRST, {BOARD_TIE}",
    "-last_played": f"last_played DESC NULLS LAST, {BOARD_TIE}",
}


@dataclass
class Board:
    """One page of the leaderboard: its rows (ranked over the whole league), how many rows
    the board (or the name search) has, and the order used (an alias of BOARD_ORDERS)."""

    rows: list[RatingRow]
    count: int
    order: str


def league_board(
    *,
    league: League,
    system: RatingSystem | None = None,
    query: str = "",
    order: str = "",
    offset: int = 0,
    limit: int = 50,
) -> Board:
    """A page of the leaderboard from SQL: ranks from a window function over the whole league
    (`rank()`: 1, 2, 2, 4, as `league_ratings`), a name search that keeps each player's
    league rank, the order and the page in the query, and the 30-day change summed for the
    shown rows only (a lateral sum per shown row; for every row only when the board is sorted
    by it). One query; the page's cost does not grow with the league's players beyond the
    window's sort."""
    system = system or league_system(league=league)
    order = order if order in BOARD_ORDERS else ""
    since = timezone.localdate() - datetime.timedelta(days=RECENT_DAYS)
    by_change = order in ("change", "-change")
    change_join = (
        """LEFT JOIN (SELECT player_id, sum(delta) AS change FROM ratings_ratingchange
                       WHERE league_id = %(league)s AND played_on > %(since)s
                       GROUP BY player_id) c ON c.player_id = r.player_id"""
        if by_change
        else ""
    )
    recent_join = (
        ""
        if by_change
        else """LEFT JOIN LATERAL (
              SELECT sum(delta) AS change FROM ratings_ratingchange c
               WHERE c.league_id = %(league)s AND c.player_id = page.player_id
                 AND c.played_on > %(since)s) recent ON true"""
    )
    board = f"""
        WITH board AS (
            SELECT r.player_id, p.name, r.value, r.games, r.wins, r.draws, r.last_played,
                   CASE WHEN r.games > 0 THEN 100.0 * r.wins / r.games ELSE 0.0 END
                       AS win_percent,
                   {"coalesce(c.change, 0.0)" if by_change else "0.0"} AS change,
                   rank() OVER (ORDER BY r.value DESC) AS rank,
                   count(*) OVER (PARTITION BY r.value) AS same
              FROM ratings_rating r JOIN leagues_player p ON p.id = r.player_id
              {change_join}
             WHERE r.league_id = %(league)s
        ), page AS (
            SELECT player_id, name, value, games, wins, draws, last_played, change, rank, same,
                   count(*) OVER () AS total,
                   row_number() OVER (ORDER BY {BOARD_ORDERS[order]}) AS position
              FROM board
             WHERE %(query)s = '' OR strpos(lower(name), lower(%(query)s)) > 0
             ORDER BY {BOARD_ORDERS[order]}
             LIMIT %(limit)s OFFSET %(offset)s
        )
        SELECT page.player_id, name, value, games, wins, draws, last_played,
               {"change" if by_change else "coalesce(recent.change, 0.0)"}, rank, same, total
          FROM page
          {recent_join}
         ORDER BY position"""
    if not query and BOARD_ORDERS[order] == BOARD_TIE:
        board = _BOARD_BY_RATING
    params = {
        "league": league.pk,
        "since": since,
        "query": query,
        "limit": limit,
        "offset": offset,
    }
    with connection.cursor() as cursor:
        cursor.execute(board, params)
        found = cursor.fetchall()
        total = found[0][-1] if found else _board_count(cursor, league.pk, query)
    rows = [
        RatingRow(
            rank=rank,
            tied=same > 1,
            player_id=player_id,
            name=name,
            rating=value,
            change=change,
            games=games,
            wins=wins,
            draws=draws,
            last_played=last_played,
            provisional=system.is_provisional(games),
        )
        for player_id, name, value, games, wins, draws, last_played, change, rank, same, _ in found
    ]
    return Board(rows=rows, count=total, order=order)


# The board as it opens (by rating, no search): the same rows as `league_board`'s query, read
# in the rating index's order and cut to the page before anything else, the ties and the
# count by index for the shown rows only. The general query sorts the whole league three
# times (its windows, then the page's order): 8 ms of a 1,200-player league against 1 ms.
_BOARD_BY_RATING = f"""
    SELECT page.player_id, name, value, games, wins, draws, last_played,
           coalesce(recent.change, 0.0), rank,
           (SELECT count(*) FROM ratings_rating o
             WHERE o.league_id = %(league)s AND o.value = page.value),
           (SELECT count(*) FROM ratings_rating o WHERE o.league_id = %(league)s)
      FROM (SELECT r.player_id, p.name, r.value, r.games, r.wins, r.draws, r.last_played,
                   rank() OVER (ORDER BY r.value DESC) AS rank
              FROM ratings_rating r JOIN leagues_player p ON p.id = r.player_id
             WHERE r.league_id = %(league)s
             ORDER BY {BOARD_TIE}
             LIMIT %(limit)s OFFSET %(offset)s) page
      LEFT JOIN LATERAL (
          SELECT sum(delta) AS change FROM ratings_ratingchange c
           WHERE c.league_id = %(league)s AND c.player_id = page.player_id
             AND c.played_on > %(since)s) recent ON true
     ORDER BY {BOARD_TIE}"""


def _board_count(cursor, league_id: int, query: str) -> int:
    """The rows of a board page that came back empty (a page past the end): how many there are."""
    cursor.execute(
        """SELECT count(*) FROM ratings_rating r JOIN leagues_player p ON p.id = r.player_id
            WHERE r.league_id = %s AND (%s = '' OR strpos(lower(p.name), lower(%s)) > 0)""",
        [league_id, query, query],
    )
    return cursor.fetchone()[0]


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
            """SELECT p.name, r.value, r.games, r.wins, r.draws, r.last_played,
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
    name, value, games, wins, draws, last_played, ahead, same, change = found
    return RatingRow(
        rank=ahead + 1,
        tied=same > 1,
        player_id=player_id,
        name=name,
        rating=value,
        change=change or 0.0,
        games=games,
        wins=wins,
        draws=draws,
        last_played=last_played,
        provisional=system.is_provisional(games),
    )


def format_rating(value: float, system: RatingSystem) -> str:
    return f"{value:.0f}" if system.integer else f"{value:.1f}"


def attach_rating_changes(cards) -> None:
    """Give every result line of `cards` (leagues.selectors.game_cards) its rating change from
    the ledger, worded for the page (one query for all)."""
    cards = list(cards)
    changes = {
        (game, player): (before, after, delta)
        for game, player, before, after, delta in RatingChange.objects.filter(
            game_id__in=[card.pk for card in cards]
        ).values_list("game_id", "player_id", "before", "after", "delta")
    }
    for card in cards:
        for line in card.results:
            change = changes.get((card.pk, line.player_id))
            if change is None:
                continue
            before, after, delta = change
            line.delta = delta
            sign = "+" if delta > 0 else "\u2212" if delta < 0 else ""
            line.change_text = sign + _one_decimal(abs(delta))
            line.change_css = "up" if delta > 0 else "down" if delta < 0 else ""
            line.change_title = f"rating {_one_decimal(before)} \u2192 {_one_decimal(after)}"


def _one_decimal(value: float) -> str:
    """As Django's `floatformat:"-1"`: one decimal, none when it is 0 (12.0 -> "12")."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


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


@dataclass(frozen=True, slots=True)
class BiggestWin:
    delta: float
    played_on: datetime.date
    opponents: list[tuple[int, str]]  # (player id, name) at the game, in place order


# A result's outcome (leagues.domain.outcome) in SQL, for a result `w` of leagues_gameresult.
_OUTCOME_OF_W = outcome_sql(
    "w.placement",
    """(SELECT count(*) FROM leagues_gameresult f
         WHERE f.game_id = w.game_id AND f.placement = 1)""",
)


def player_biggest_wins(*, league: League, player_id: int, limit: int = 5) -> list[BiggestWin]:
    """The player's wins (unshared first places: a draw is none) that raised their rating
    most, with the game's other players (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT c.delta, c.played_on,
                      ARRAY(SELECT ARRAY[o.player_id::text, p.name]
                              FROM leagues_gameresult o
                              JOIN leagues_player p ON p.id = o.player_id
                             WHERE o.game_id = c.game_id AND o.player_id <> c.player_id
                             ORDER BY o.placement, o.seat, o.id)
                 FROM ratings_ratingchange c
                 JOIN leagues_gameresult w ON w.game_id = c.game_id AND w.player_id = c.player_id
                WHERE c.league_id = %s AND c.player_id = %s AND w.placement = 1
                  AND {_OUTCOME_OF_W} = 'win'
                ORDER BY c.delta DESC, c.played_on DESC
                LIMIT %s""",
            [league.pk, player_id, limit],
        )
        return [
            BiggestWin(delta, played_on, [(int(pid), name) for pid, name in opponents])
            for delta, played_on, opponents in cursor.fetchall()
        ]


@dataclass(frozen=True)
class RatingsPending:
    """The league's ratings lag its games: a catch-up is due, or a re-rating job runs."""

    job_percent: int | None = None  # how far the re-rating job is, when there is one


# The league's active re-rating job as [done, total], read with the league
# (`leagues.selectors.league_get(..., related=("rating_settings",), annotate=PENDING_JOB)`):
# `ratings_pending` then needs no query of its own.
PENDING_JOB = {
    "pending_job": Subquery(
        Job.objects.filter(
            league_id=OuterRef("pk"),
            kind__in=("rerate", "catch_up"),
            status__in=("queued", "running"),
        )
        .order_by("id")
        .values(
            pair=Func(
                F("done"),
                F("total"),
                template="ARRAY[%(expressions)s]",
                output_field=ArrayField(IntegerField()),
            )
        )[:1]
    )
}


def ratings_pending(*, league: League) -> RatingsPending | None:
    """Whether the standings lag a change (and how far a background re-rating is), or None.

    One query: the dirty marker and the league's active re-rating job, if any; none when the
    league was read with its rating settings and `PENDING_JOB`.
    """
    if hasattr(league, "pending_job") and League.rating_settings.is_cached(league):
        return _pending(rating_settings_read(league=league).dirty_from_date, league.pending_job)
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
    return _pending(dirty, job)


def _pending(dirty, job: list[int] | None) -> RatingsPending | None:
    if job is not None:
        done, total = job
        return RatingsPending(job_percent=min(99, 100 * done // total) if total else 0)
    return RatingsPending() if dirty else None
