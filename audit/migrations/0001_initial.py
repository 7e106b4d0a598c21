# The audit trail, moved from leagues (leagues 0008) without copying a row: the model takes over
# the table `leagues_auditentry`. What changes in the database: the entry's event becomes a
# plain id (its foreign key to tournaments dropped, so an entry outlives its event) with the
# event's name kept beside it. The SQL is idempotent, so a database created before or after
# leagues 0005 lost its tournament field ends in the same shape.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

FORWARD = """
ALTER TABLE leagues_auditentry ADD COLUMN IF NOT EXISTS tournament_id bigint NULL;
ALTER TABLE leagues_auditentry
    ADD COLUMN IF NOT EXISTS tournament_name varchar(200) NOT NULL DEFAULT '';
DO $$
DECLARE
    fk text;
BEGIN
    FOR fk IN
        SELECT c.conname FROM pg_constraint c
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
        WHERE c.conrelid = 'leagues_auditentry'::regclass AND c.contype = 'f'
          AND a.attname = 'tournament_id'
    LOOP
        EXECUTE format('ALTER TABLE leagues_auditentry DROP CONSTRAINT %I', fk);
    END LOOP;
    IF to_regclass('tournaments_tournament') IS NOT NULL THEN
        UPDATE leagues_auditentry e SET tournament_name = left(t.name, 200)
        FROM tournaments_tournament t
        WHERE t.id = e.tournament_id AND e.tournament_name = '';
    END IF;
END $$;
CREATE INDEX IF NOT EXISTS leagues_auditentry_tournament_id_e181fb1d
    ON leagues_auditentry (tournament_id);
"""


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("leagues", "0008_auditentry_moves_to_audit"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # Backwards, the columns stay as they are: leagues' old model reads them as before.
            database_operations=[migrations.RunSQL(FORWARD, migrations.RunSQL.noop)],
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "tournament_id",
                            models.BigIntegerField(blank=True, db_index=True, null=True),
                        ),
                        ("tournament_name", models.CharField(blank=True, max_length=200)),
                        (
                            "actor_label",
                            models.CharField(
                                help_text="Who, as text: a username, an API token, an import.",
                                max_length=200,
                            ),
                        ),
                        ("action", models.CharField(max_length=32)),
                        ("object_type", models.CharField(max_length=16)),
                        ("object_id", models.PositiveBigIntegerField(blank=True, null=True)),
                        ("summary", models.CharField(blank=True, max_length=255)),
                        ("before", models.JSONField(blank=True, null=True)),
                        ("after", models.JSONField(blank=True, null=True)),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now, editable=False),
                        ),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "league",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="audit_entries",
                                to="leagues.league",
                            ),
                        ),
                        (
                            "organization",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="audit_entries",
                                to="leagues.organization",
                            ),
                        ),
                        (
                            "reverts",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="reverted_by",
                                to="audit.auditentry",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name_plural": "audit entries",
                        "db_table": "leagues_auditentry",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(
                                fields=["organization", "-created_at", "-id"],
                                name="audit_org_newest",
                            ),
                            models.Index(fields=["object_type", "object_id"], name="audit_object"),
                        ],
                    },
                ),
            ],
        ),
    ]
