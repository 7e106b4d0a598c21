# The audit trail moves to its own app (audit 0001): leagues forgets the model, the table stays.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0007_importbatch_preview"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditEntry")],
            database_operations=[],
        ),
    ]
