"""Check both games when a result moves between games; a player plays only for their own store.

0002's trigger looked at NEW.game_id alone on UPDATE, so moving a result to another game left
the game it came from unchecked. This version checks every game a row touched, and also that
each result's player belongs to the organization of the game's league (the services and the
admin refuse that too; now the database makes it true).
"""

from django.db import migrations

CHECK_ONE = r"""
CREATE OR REPLACE FUNCTION leagues_check_one_game(target bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    places smallint[];
    ahead integer := 0;
    place smallint;
    previous smallint := 0;
    run integer := 0;
    organization bigint;
BEGIN
    SELECT l.organization_id INTO organization
      FROM leagues_game g JOIN leagues_league l ON l.id = g.league_id
     WHERE g.id = target;
    IF NOT FOUND THEN
        RETURN;  -- the game itself was deleted in this transaction
    END IF;
    IF EXISTS (
        SELECT 1 FROM leagues_gameresult r JOIN leagues_player p ON p.id = r.player_id
         WHERE r.game_id = target AND p.organization_id <> organization
    ) THEN
        RAISE EXCEPTION 'game % has a player of another organization', target
            USING ERRCODE = 'check_violation', CONSTRAINT = 'game_players_of_its_organization';
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
END;
$$;

CREATE OR REPLACE FUNCTION leagues_check_game_ranking() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'leagues_game' THEN
        PERFORM leagues_check_one_game(NEW.id);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM leagues_check_one_game(OLD.game_id);
    ELSE
        PERFORM leagues_check_one_game(NEW.game_id);
        IF TG_OP = 'UPDATE' AND OLD.game_id IS DISTINCT FROM NEW.game_id THEN
            PERFORM leagues_check_one_game(OLD.game_id);
        END IF;
    END IF;
    RETURN NULL;
END;
$$;
"""

# 0002's function, restored on the way back.
RESTORE = r"""
DROP FUNCTION IF EXISTS leagues_check_one_game(bigint);
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CHECK_ONE, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        from importlib import import_module

        previous = import_module("leagues.migrations.0002_game_ranking_trigger")
        schema_editor.execute(
            "DROP TRIGGER IF EXISTS leagues_game_ranking_on_results ON leagues_gameresult;"
            "DROP TRIGGER IF EXISTS leagues_game_ranking_on_game ON leagues_game;"
            "DROP FUNCTION IF EXISTS leagues_check_game_ranking();",
            params=None,
        )
        schema_editor.execute(RESTORE, params=None)
        schema_editor.execute(previous.CREATE, params=None)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0002_game_ranking_trigger")]
    operations = [migrations.RunPython(forward, backward)]
