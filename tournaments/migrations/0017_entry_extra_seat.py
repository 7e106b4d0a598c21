# Issue 43: a walk-in past the cap is an extra seat; a registration whose player the TO
# entered by name holds that entry.

from django.db import migrations, models


def seat_the_entered(apps, schema_editor):
    """A player who registered online and holds no seat (waiting, a no-show, withdrawn) but
    whom the TO entered by name plays: their registration takes the entry (else their pages
    say they are waiting), and they are here (checked in when they were entered)."""
    Registration = apps.get_model("tournaments", "Registration")
    Entry = apps.get_model("tournaments", "Entry")
    for registration in Registration.objects.exclude(status="seated"):
        entry = Entry.objects.filter(
            tournament_id=registration.tournament_id, player_id=registration.player_id
        ).first()
        if entry is None:
            continue
        registration.status, registration.entry = "seated", entry
        registration.checked_in_at = registration.checked_in_at or entry.created_at
        registration.save(update_fields=["status", "entry", "checked_in_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_round_decklist_problems"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="extra_seat",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(seat_the_entered, migrations.RunPython.noop),
    ]
