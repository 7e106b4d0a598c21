"""The rating ledger's reads and writes, in SQL because a replay moves a whole league.

Every function is a fixed handful of statements (COPY for bulk inserts), so a replay costs a
fixed number of round trips whatever the league's size, and appending one game costs the same
few queries as correcting one. A full replay reads the stored ledger beside the games and
writes only the rows that differ. Positions are (played_on, game id): the order games are
rated in.
"""

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import date

import psycopg
from django.db import connection

from .domain.base import Finish, RatingState, RatingSystem
from .domain.replay import NO_STATS, ChangeRow, RatedGame, ResultRow, Tally

Position = tuple[date, int]
START: Position = (date.min, 0)


def games_from(league_id: int, position: Position, *, with_stats: bool) -> list[RatedGame]:
    """The league's games from `position` on, in rating order, with their finishes in the
    order every system rates them (`base.canonical`: place, then the player's id as text;
    the constraints keep each player once and places from 1), so the replay does not sort
    each game again (a tenth of a recalculation)."""
    # Most results have no stats: NULL for '{}' spares parsing a JSON text per row.
    stats = ", NULLIF(r.stats, '{}'::jsonb)" if with_stats else ""
    sql = f"""
        SELECT g.id, g.played_on, r.player_id, r.placement{stats}
          FROM leagues_game g JOIN leagues_gameresult r ON r.game_id = g.id
         WHERE g.league_id = %s AND (g.played_on, g.id) >= (%s, %s)
         ORDER BY g.played_on, g.id, r.placement, r.player_id::text COLLATE "C"
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [league_id, *position])
        return _games(cursor.fetchall(), with_stats)


def results_and_ledger(league_id: int, *, with_stats: bool) -> tuple[list[ResultRow], list]:
    """All the league's results as the replay reads them (`replay.ResultRow`: game id, date,
    player, place, stats; in rating order, each game's in `base.canonical` order, as
    `games_from` orders them), and the league's stored ledger rows as a replay writes them
    (`ChangeRow`s, in no order): what a full replay compares its rows with (`rewrite_all`),
    so a ledger that is already right costs these two reads.

    Two reads, not one join: each has a plan linear in the league's size even before the
    planner has statistics for a league just imported (joining the ledger by index per
    result was quadratic then). Values come in PostgreSQL's binary format, so a third of a
    million rows of floats and dates are copied, not parsed from text; the sort gets the
    memory to stay off disk.
    """
    # Most results have no stats: NULL for '{}' spares decoding a JSON value per row.
    stats = "NULLIF(r.stats, '{}'::jsonb)" if with_stats else "NULL::jsonb"
    with _binary_cursor() as cursor:
        cursor.execute("SELECT current_setting('work_mem'), set_config('work_mem', '64MB', true)")
        (work_mem, _) = cursor.fetchone()
        cursor.execute(
            f"""SELECT g.id, g.played_on, r.player_id, r.placement, {stats}
                  FROM leagues_game g JOIN leagues_gameresult r ON r.game_id = g.id
                 WHERE g.league_id = %s
                 ORDER BY g.played_on, g.id, r.placement, r.player_id::text COLLATE "C"
            """,
            [league_id],
        )
        results = cursor.fetchall()
        cursor.execute("SELECT set_config('work_mem', %s, true)", [work_mem])
        cursor.execute(
            f"""SELECT game_id, player_id, {", ".join(LEDGER_VALUES)}
                  FROM ratings_ratingchange WHERE league_id = %s""",
            [league_id],
        )
        stored = cursor.fetchall()
    return results, stored


def _binary_cursor():
    """A cursor on Django's connection (same transaction, logged as Django logs queries) that
    binds parameters on the server and returns values in binary format, which Django's own
    client-side cursors cannot do."""
    connection.ensure_connection()
    raw = psycopg.Cursor(connection.connection)
    raw.format = psycopg.pq.Format.BINARY
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


def _games(rows, with_stats: bool) -> list[RatedGame]:
    """Result rows (game id, date, player, place[, stats], ...) in rating order, as games."""
    games: list[RatedGame] = []
    current_id = None
    finish: list[Finish] = []
    # Without stats a finish is just (player, place), and immutable: one shared object per
    # pair (a league has a few thousand) instead of one per result (hundreds of thousands).
    shared: dict[tuple[int, int], Finish] = {}
    for row in rows:
        if row[0] != current_id:
            current_id, finish = row[0], []
            games.append(RatedGame(row[0], row[1], finish, canonical=True))
        if with_stats:
            finish.append(Finish(row[2], row[3], _json(row[4]) or NO_STATS))
        else:
            key = (row[2], row[3])
            one = shared.get(key)
            if one is None:
                one = shared[key] = Finish(row[2], row[3], NO_STATS)
            finish.append(one)
    return games


def _json(value):
    # Django's PostgreSQL backend hands jsonb to raw cursors as text.
    return json.loads(value) if isinstance(value, str) else value


def delete_from(
    league_id: int, position: Position, players: Iterable[int]
) -> tuple[set[int], dict[int, Tally] | None]:
    """Remove the ledger rows from `position` on; the players whose tallies that changes, and
    when there are none, the current tallies of `players` (those about to play).

    The players changed are the owners of the deleted rows, and the players whose latest
    rated game (by the Rating cache) is at or after `position`: deleting a game cascades its
    ledger rows away before any replay runs while the cache still points at the deleted game.
    When nobody's tally changed (a game added after every rated one), the Rating cache holds
    each player's latest, and the same statement returns it; otherwise the tallies are None
    and come from `tallies_before`.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            """WITH gone AS (
                   DELETE FROM ratings_ratingchange
                    WHERE league_id = %s AND (played_on, game_id) >= (%s, %s)
                RETURNING player_id),
               changed AS (
                   SELECT player_id FROM gone
                   UNION
                   SELECT player_id FROM ratings_rating
                    WHERE league_id = %s AND (last_played, last_game_id) >= (%s, %s))
               SELECT true, player_id, NULL::double precision, NULL::double precision,
                      NULL::integer, NULL::integer, NULL::integer, NULL::date, NULL::bigint
                 FROM changed
               UNION ALL
               SELECT false, player_id, rating, deviation, games, wins, draws, last_played,
                      last_game_id
                 FROM ratings_rating
                WHERE league_id = %s AND player_id = ANY(%s)
                  AND NOT EXISTS (SELECT 1 FROM changed)""",
            [league_id, *position, league_id, *position, league_id, list(players)],
        )
        rows = cursor.fetchall()
    changed = {row[1] for row in rows if row[0]}
    if changed:
        return changed, None
    return changed, _tallies(row[1:] for row in rows)


LEDGER_VALUES = (
    "played_on", "before", "after", "delta", "rating", "deviation", "games", "wins", "draws",
)  # fmt: skip


def rewrite_all(league_id: int, rows: list[ChangeRow], stored: list[ChangeRow]) -> int:
    """Make the league's whole ledger exactly `rows` (a full replay), writing only what differs;
    how many rows it wrote or deleted.

    `stored` is the league's ledger as `results_and_ledger` read it. A replayed row found
    among the stored ones, every value equal, is right and costs nothing; only a changed row
    (updated in place, keeping its id), a missing one (inserted) or a stored row no result
    has any more (deleted) costs a write. Re-rating a league whose ledger is right writes
    nothing; switching systems still rewrites every row, as it must.
    """
    right = set(stored)
    wrong = [row for row in rows if row not in right]
    if not wrong and len(stored) == len(rows):
        return 0  # every stored row is a replayed one: nothing missing, changed or stray
    keys = {row[:2] for row in stored}
    changed = [row for row in wrong if row[:2] in keys]
    missing = [row for row in wrong if row[:2] not in keys]
    writes = len(wrong)
    with connection.cursor() as cursor:
        if len(stored) > len(rows) - len(missing):
            # Stored rows no result of the league has any more (a game moved or lost a
            # player without its catch-up): rare, so one anti-join only then.
            cursor.execute(
                """DELETE FROM ratings_ratingchange c
                    WHERE c.league_id = %s AND NOT EXISTS (
                          SELECT 1 FROM leagues_gameresult r
                            JOIN leagues_game g ON g.id = r.game_id
                           WHERE r.game_id = c.game_id AND r.player_id = c.player_id
                             AND g.league_id = %s)""",
                [league_id, league_id],
            )
            writes += cursor.rowcount
        if changed:
            _update_rows(cursor, league_id, changed)
    write_changes(league_id, missing)
    return writes


def _update_rows(cursor, league_id: int, changed: list[ChangeRow]) -> None:
    """Update ledger rows in place, found by (game, player): one COPY into a scratch table,
    one UPDATE."""
    cursor.execute(
        """CREATE TEMP TABLE IF NOT EXISTS ratings_replay (
               game_id bigint, player_id bigint, played_on date, before double precision,
               after double precision, delta double precision, rating double precision,
               deviation double precision, games integer, wins integer, draws integer)
               ON COMMIT DROP"""
    )
    with cursor.cursor.copy(
        f"COPY ratings_replay (game_id, player_id, {', '.join(LEDGER_VALUES)}) FROM STDIN"
    ) as copy:
        for row in changed:
            copy.write_row(row)
    cursor.execute(
        f"""UPDATE ratings_ratingchange c
               SET {", ".join(f"{v} = t.{v}" for v in LEDGER_VALUES)}
              FROM ratings_replay t
             WHERE c.game_id = t.game_id AND c.player_id = t.player_id AND c.league_id = %s""",
        [league_id],
    )
    cursor.execute("DROP TABLE ratings_replay")


def _tallies(rows) -> dict[int, Tally]:
    return {
        player: Tally(RatingState(rating, deviation), games, wins, draws, played_on, game_id)
        for player, rating, deviation, games, wins, draws, played_on, game_id in rows
    }


def tallies_before(league_id: int, position: Position, players: Iterable[int]) -> dict[int, Tally]:
    """Each player's tally from their last ledger row before `position` (one index probe each)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT p.id, c.rating, c.deviation, c.games, c.wins, c.draws, c.played_on,
                      c.game_id
                 FROM unnest(%s::bigint[]) AS p(id)
                 CROSS JOIN LATERAL (
                     SELECT rating, deviation, games, wins, draws, played_on, game_id
                       FROM ratings_ratingchange
                      WHERE league_id = %s AND player_id = p.id
                        AND (played_on, game_id) < (%s, %s)
                      ORDER BY played_on DESC, game_id DESC
                      LIMIT 1) c""",
            [list(players), league_id, *position],
        )
        return _tallies(cursor.fetchall())


LEDGER_COLUMNS = ("league_id", "game_id", "player_id", *LEDGER_VALUES)
RATING_COLUMNS = (
    "league_id", "player_id", "value", "rating", "deviation", "games", "wins", "draws",
    "last_played", "last_game_id",
)  # fmt: skip
# Up to this many rows, a write is a plain INSERT: setting up a COPY costs more round trips.
FEW_ROWS = 50


def write_changes(league_id: int, rows: list[ChangeRow]) -> None:
    """Append ledger rows: one INSERT for a few, one COPY for more."""
    if not rows:
        return
    with connection.cursor() as cursor:
        if len(rows) <= FEW_ROWS:
            cursor.execute(*_insert("ratings_ratingchange", LEDGER_COLUMNS, rows, league_id))
            return
        with cursor.cursor.copy(
            f"COPY ratings_ratingchange ({', '.join(LEDGER_COLUMNS)}) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row((league_id, *row))


def write_tail(
    league_id: int,
    rows: list[ChangeRow],
    tallies: Mapping[int, Tally | None],
    system: RatingSystem,
) -> None:
    """Append ledger rows and replace these players' Rating rows (None: the row goes).

    A short tail (a game added, a recent correction) is one statement: the ledger INSERT and
    the Rating DELETE as data-modifying CTEs of the Rating upsert. A longer one goes by COPY
    (`write_changes`, `write_ratings`).
    """
    ratings = _rating_rows(league_id, tallies, system)
    if len(rows) > FEW_ROWS or len(ratings) > FEW_ROWS:
        write_changes(league_id, rows)
        write_ratings(league_id, tallies, system)
        return
    gone = [player for player, tally in tallies.items() if tally is None]
    parts = []
    if rows:
        parts.append(_insert("ratings_ratingchange", LEDGER_COLUMNS, rows, league_id))
    if gone:
        parts.append(
            (
                "DELETE FROM ratings_rating WHERE league_id = %s AND player_id = ANY(%s)",
                [league_id, gone],
            )
        )
    if ratings:
        sql, params = _insert("ratings_rating", RATING_COLUMNS, ratings)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in RATING_COLUMNS[2:])
        parts.append((f"{sql} ON CONFLICT (league_id, player_id) DO UPDATE SET {updates}", params))
    if not parts:
        return
    *first, (last_sql, last_params) = parts
    ctes = ", ".join(f"write{n} AS ({sql})" for n, (sql, _) in enumerate(first))
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH {ctes} {last_sql}" if first else last_sql,
            [value for _, params in first for value in params] + last_params,
        )


def _insert(table: str, columns: Sequence[str], rows: Iterable[Sequence], *lead) -> tuple:
    """One INSERT of `rows` (each prefixed with `lead`), as (sql, params)."""
    rows = [(*lead, *row) for row in rows]
    one = f"({', '.join(['%s'] * len(columns))})"
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([one] * len(rows))}",
        [value for row in rows for value in row],
    )


def _rating_rows(
    league_id: int, tallies: Mapping[int, Tally | None], system: RatingSystem
) -> list[tuple]:
    return [
        (
            league_id,
            player,
            system.display(t.state),
            t.state.rating,
            t.state.deviation,
            t.games,
            t.wins,
            t.draws,
            t.last_played,
            t.last_game,
        )
        for player, t in tallies.items()
        if t is not None
    ]


def write_ratings(
    league_id: int,
    tallies: Mapping[int, Tally | None],
    system: RatingSystem,
    *,
    every_player: bool = False,
) -> None:
    """Replace the Rating rows of these players (all the league's with every_player).

    A player mapped to None has no rated game left in the league and loses their row. With
    every_player (a full replay), the stored rows are read first and only the rows that
    differ are written, so re-rating a league whose ratings are right writes nothing (and
    leaves no dead row versions behind to slow the next game's catch-up).
    """
    if every_player:
        _sync_ratings(league_id, tallies, system)
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM ratings_rating WHERE league_id = %s AND player_id = ANY(%s)",
            [league_id, list(tallies)],
        )
        rows = _rating_rows(league_id, tallies, system)
        if not rows:
            return
        if len(rows) <= FEW_ROWS:
            cursor.execute(*_insert("ratings_rating", RATING_COLUMNS, rows))
            return
        with cursor.cursor.copy(
            f"COPY ratings_rating ({', '.join(RATING_COLUMNS)}) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row(row)


RATING_TYPES = (
    "bigint", "bigint", "float8", "float8", "float8", "int", "int", "int", "date", "bigint",
)  # fmt: skip


def _sync_ratings(
    league_id: int, tallies: Mapping[int, Tally | None], system: RatingSystem
) -> None:
    """Make the league's Rating rows exactly those of `tallies`: one read, then at most one
    statement deleting the rows of players without a tally and upserting the rows that
    differ (as arrays, whatever their number)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(RATING_COLUMNS)} FROM ratings_rating WHERE league_id = %s",
            [league_id],
        )
        stored = {row[1]: row for row in cursor.fetchall()}
        changed = [
            row
            for row in _rating_rows(league_id, tallies, system)
            if stored.pop(row[1], None) != row
        ]
        gone = list(stored)  # rows of players without a tally
        if not changed and not gone:
            return
        columns = ", ".join(RATING_COLUMNS)
        arrays = ", ".join(f"%s::{kind}[]" for kind in RATING_TYPES)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in RATING_COLUMNS[2:])
        cursor.execute(
            f"""WITH gone AS (
                    DELETE FROM ratings_rating
                     WHERE league_id = %s AND player_id = ANY(%s::bigint[]))
                INSERT INTO ratings_rating ({columns}) SELECT * FROM unnest({arrays})
                ON CONFLICT (league_id, player_id) DO UPDATE SET {updates}""",
            [league_id, gone, *([[row[i] for row in changed] for i in range(len(RATING_TYPES))])],
        )


def games_count(league_id: int) -> int:
    """How many games the league has (an index-only count)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM leagues_game WHERE league_id = %s", [league_id])
        return cursor.fetchone()[0]
