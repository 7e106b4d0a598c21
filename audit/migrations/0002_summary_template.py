# An entry's summary kept before translation too (issue 45, audit.summary): its msgid, plural
# msgid and values, so the History reads in each reader's language. The English `summary`
# stays, still written: the rows before this one have only it, and show it as they did. The
# two texts default to "" in the database as well, so a raw INSERT that names none of the new
# columns (bench/pages.py) still works.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="summary_template",
            field=models.TextField(blank=True, db_default=""),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="summary_plural",
            field=models.TextField(blank=True, db_default=""),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="summary_params",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
