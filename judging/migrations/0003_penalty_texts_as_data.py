# Issue 45: why a penalty was upgraded and the result it entered are kept as notes (JSON: the
# English template and its values) and written in the reader's language when read. The texts
# of before were English: each is kept as a text (`{"text": ...}`), shown as written; an empty
# one is none (`{}`).

from django.db import migrations, models

FIELDS = ("upgrade_reason", "result_entered")


def texts_to_data(apps, schema_editor):
    Penalty = apps.get_model("judging", "Penalty")
    rows = list(Penalty.objects.only(*(f"old_{name}" for name in FIELDS)))
    for row in rows:
        for name in FIELDS:
            text = getattr(row, f"old_{name}")
            setattr(row, name, {"text": text} if text else {})
    Penalty.objects.bulk_update(rows, list(FIELDS), batch_size=500)


def data_to_texts(apps, schema_editor):
    """Back: each note's English (a text of before as written)."""
    from tournaments.domain.texts import Note

    Penalty = apps.get_model("judging", "Penalty")
    rows = list(Penalty.objects.only(*FIELDS))
    for row in rows:
        for name in FIELDS:
            value = getattr(row, name) or {}
            text = value if isinstance(value, str) else value.get("text") or ""
            if isinstance(value, dict) and "msgid" in value:
                text = str(Note.load(value))
            setattr(row, f"old_{name}", text[:200])
    Penalty.objects.bulk_update(rows, [f"old_{name}" for name in FIELDS], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("judging", "0002_penalty_loses_game"),
    ]

    operations = [
        migrations.RenameField("penalty", "upgrade_reason", "old_upgrade_reason"),
        migrations.RenameField("penalty", "result_entered", "old_result_entered"),
        migrations.AddField(
            model_name="penalty",
            name="upgrade_reason",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="penalty",
            name="result_entered",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(texts_to_data, data_to_texts),
        migrations.RemoveField("penalty", "old_upgrade_reason"),
        migrations.RemoveField("penalty", "old_result_entered"),
    ]
