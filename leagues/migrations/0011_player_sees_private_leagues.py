"""Players who joined online no longer see the store's private leagues (issue 30, break 1).

The new flag is on for every player (each link so far was made by the store: an approved
claim, a claim code, the admin), except the players an account made for itself on an event's
join form, found by their audit entry ("player.join")."""

from django.db import migrations, models


def self_joined_players_see_no_private_league(apps, schema_editor):
    Player = apps.get_model("leagues", "Player")
    AuditEntry = apps.get_model("audit", "AuditEntry")
    joined = AuditEntry.objects.filter(action="player.join", object_type="player").values_list(
        "object_id", flat=True
    )
    Player.objects.filter(pk__in=joined).update(sees_private_leagues=False)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0010_player_claims"),
        ("audit", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="sees_private_leagues",
            field=models.BooleanField(
                default=True,
                help_text="The player's account may see the store's private leagues. Off for "
                "a player who joined online, until the store knows who they are.",
                verbose_name="may see private leagues",
            ),
        ),
        migrations.RunPython(self_joined_players_see_no_private_league, migrations.RunPython.noop),
    ]
