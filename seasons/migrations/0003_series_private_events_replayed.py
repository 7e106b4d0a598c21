"""A series' season whose table may hold a private league's event (counted before the rule
that a series counts only public leagues' events) is marked stale: the worker's sweep replays
it, and the replay leaves those events out (seasons.services.domain_events)."""

from django.db import migrations


def mark(apps, schema_editor):
    Season = apps.get_model("seasons", "Season")
    Season.objects.filter(series__isnull=False, events__tournament__league__is_public=False).update(
        stale=True
    )


class Migration(migrations.Migration):
    dependencies = [("seasons", "0002_series")]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
