"""Draws in the ledger, and wins recounted: a drawn game (a shared first place) was counted as
a win for every drawer (issue 31). Adds the running `draws` to each ledger row and each
player's rating, then recounts every stored row's wins and draws from the games, as
`leagues.domain.outcome` defines them. The recount touches no rating: only the counts change.
It is idempotent (a row already right is not written), and `recalculate_ratings` reaches the
same figures by a replay.
"""

from django.db import migrations, models

from leagues.domain.outcome import outcome_sql

# Each ledger row's running wins and draws, in the player's ledger order (played_on, game),
# from the league's results; a ledger row without its result (a stale ledger whose catch-up
# is pending) counts as neither, and its league's catch-up rewrites it anyway.
RECOUNT_LEDGER = f"""
    WITH result AS (
        SELECT game_id, player_id,
               {outcome_sql("placement", "count(*) FILTER (WHERE placement = 1) OVER game")}
                   AS outcome
          FROM leagues_gameresult
        WINDOW game AS (PARTITION BY game_id)
    ), counted AS (
        SELECT c.id,
               count(*) FILTER (WHERE r.outcome = 'win') OVER player AS wins,
               count(*) FILTER (WHERE r.outcome = 'draw') OVER player AS draws
          FROM ratings_ratingchange c
          LEFT JOIN result r ON r.game_id = c.game_id AND r.player_id = c.player_id
        WINDOW player AS (PARTITION BY c.league_id, c.player_id ORDER BY c.played_on, c.game_id
                          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
    )
    UPDATE ratings_ratingchange c SET wins = n.wins, draws = n.draws
      FROM counted n
     WHERE c.id = n.id AND (c.wins, c.draws) IS DISTINCT FROM (n.wins, n.draws)
"""

# Each player's rating row takes the counts of their latest ledger row.
RECOUNT_RATINGS = """
    UPDATE ratings_rating r SET wins = c.wins, draws = c.draws
      FROM ratings_ratingchange c
     WHERE c.league_id = r.league_id AND c.player_id = r.player_id
       AND c.game_id = r.last_game_id
       AND (r.wins, r.draws) IS DISTINCT FROM (c.wins, c.draws)
"""


# The public pages of every rated league are rendered again (core.pagecache: a new version
# of the league's scope), so a cached standings page does not keep the old figures.
TOUCH_LEAGUES = """
    INSERT INTO core_pageversion (scope, key, number, changed_at)
    SELECT 'league', league_id, 1, clock_timestamp()
      FROM (SELECT DISTINCT league_id FROM ratings_rating) rated
    ON CONFLICT (scope, key) DO UPDATE SET
        number = core_pageversion.number + 1,
        changed_at = GREATEST(clock_timestamp(),
                              core_pageversion.changed_at + interval '1 microsecond')
"""


def recount(apps, schema_editor):
    """Recount every stored win and draw (safe to run again: it writes only wrong rows)."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(RECOUNT_LEDGER)
        cursor.execute(RECOUNT_RATINGS)
        cursor.execute(TOUCH_LEAGUES)


class Migration(migrations.Migration):
    dependencies = [("core", "0001_initial"), ("ratings", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="draws",
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="draws",
            field=models.PositiveIntegerField(
                db_default=0, default=0, help_text="Shared first places so far."
            ),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="wins",
            field=models.PositiveIntegerField(help_text="Unshared first places so far."),
        ),
        # Going back drops the draws; the wins stay recounted (a win is still a win).
        migrations.RunPython(recount, migrations.RunPython.noop, elidable=True),
    ]
