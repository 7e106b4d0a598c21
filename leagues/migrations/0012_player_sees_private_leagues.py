"""Players who joined online no longer see the store's private leagues (issue 30, break 1).

The new flag is on for every player (each link so far was made by the store: an approved
claim, a claim code, the admin), except the players an account made for itself on an event's
join form, found by their audit entry ("player.join")."""

from django.db import migrations, models


def self_joined_players_see_no_private_league(apps, schema_editor):
    # The audit trail's table keeps its old name (leagues_auditentry, migration 0008), so it
    # is read here without depending on the audit app, which depends on this one.
    schema_editor.execute(
        "UPDATE leagues_player SET sees_private_leagues = false WHERE id IN ("
        "SELECT object_id FROM leagues_auditentry "
        "WHERE action = 'player.join' AND object_type = 'player')"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0011_store_profile_league_key_staff_invitation"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="sees_private_leagues",
            field=models.BooleanField(
                db_default=True,
                default=True,
                help_text="The player's account may see the store's private leagues. Off for "
                "a player who joined online, until the store knows who they are.",
                verbose_name="may see private leagues",
            ),
        ),
        migrations.RunPython(self_joined_players_see_no_private_league, migrations.RunPython.noop),
    ]
