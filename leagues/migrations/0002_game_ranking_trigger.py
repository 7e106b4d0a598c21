"""A game has at least two players and their places form a competition ranking (1, 2, 2, 4).

The rule spans rows, so no CHECK constraint can hold it; a deferred constraint trigger checks
each touched game once its transaction commits, so a game and its results can be written in
any order inside one transaction. PostgreSQL only: on SQLite (development) the services and
forms enforce the same rule through leagues.domain.ranking.is_valid_ranking.
"""

from django.db import migrations

CREATE = r"""
CREATE FUNCTION leagues_check_game_ranking() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    target bigint;
    places smallint[];
    ahead integer := 0;
    place smallint;
    previous smallint := 0;
    run integer := 0;
BEGIN
    IF TG_TABLE_NAME = 'leagues_game' THEN
        target := NEW.id;
    ELSIF TG_OP = 'DELETE' THEN
        target := OLD.game_id;
    ELSE
        target := NEW.game_id;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM leagues_game WHERE id = target) THEN
        RETURN NULL;  -- the game itself was deleted in this transaction
    END IF;
    SELECT array_agg(placement ORDER BY placement) INTO places
      FROM leagues_gameresult WHERE game_id = target;
    IF places IS NULL OR array_length(places, 1) < 2 THEN
        RAISE EXCEPTION 'game % has fewer than 2 players', target
            USING ERRCODE = 'check_violation', CONSTRAINT = 'game_has_two_players';
    END IF;
    FOREACH place IN ARRAY places LOOP
        IF place <> previous THEN
            ahead := ahead + run;
            run := 0;
            IF place <> ahead + 1 THEN
                RAISE EXCEPTION 'game % places % are not a competition ranking', target, places
                    USING ERRCODE = 'check_violation', CONSTRAINT = 'game_places_are_a_ranking';
            END IF;
            previous := place;
        END IF;
        run := run + 1;
    END LOOP;
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER leagues_game_ranking_on_results
    AFTER INSERT OR UPDATE OR DELETE ON leagues_gameresult
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION leagues_check_game_ranking();

CREATE CONSTRAINT TRIGGER leagues_game_ranking_on_game
    AFTER INSERT ON leagues_game
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION leagues_check_game_ranking();
"""

DROP = """
DROP TRIGGER IF EXISTS leagues_game_ranking_on_results ON leagues_gameresult;
DROP TRIGGER IF EXISTS leagues_game_ranking_on_game ON leagues_game;
DROP FUNCTION IF EXISTS leagues_check_game_ranking();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0001_initial")]
    operations = [migrations.RunPython(create, drop)]
