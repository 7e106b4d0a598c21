"""The public pages' versions, and the database cache's table (`createcachetable`), so that
`migrate` alone (make run, CI, the test database, a deployment) leaves the cache ready."""

from django.core.management import call_command
from django.db import migrations, models


def create_cache_table(apps, schema_editor):
    # Creates the table of every DatabaseCache in CACHES (none with REDIS_URL); idempotent.
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    initial = True
    dependencies = []

    operations = [
        migrations.CreateModel(
            name="PageVersion",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("scope", models.CharField(max_length=16)),
                ("key", models.BigIntegerField()),
                ("number", models.BigIntegerField(default=0)),
                ("changed_at", models.DateTimeField()),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("scope", "key"), name="core_pageversion_one_per_scope"
                    )
                ],
            },
        ),
        migrations.RunPython(create_cache_table, migrations.RunPython.noop, elidable=False),
    ]
