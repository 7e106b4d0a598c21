# Issue 45: a round's notes are kept as notes (JSON: the English template and its values) and
# written in the reader's language when read; a top-cut round's stage has its own column.
# The notes of before were text in the language of the TO who paired the round (one note a
# line): each line is kept as a text, shown as written. A top-cut round kept its stage in its
# notes (its first line): it moves to `stage`.

from django.db import migrations, models


def notes_to_data(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    rounds = []
    for round_ in Round.objects.exclude(old_notes="").only("kind", "old_notes"):
        lines = [line for line in round_.old_notes.splitlines() if line.strip()]
        if round_.kind == "top_cut" and lines:
            round_.stage = lines.pop(0).strip()[:40]
        round_.notes = [{"text": line} for line in lines]
        rounds.append(round_)
    Round.objects.bulk_update(rounds, ["stage", "notes"], batch_size=500)


def data_to_notes(apps, schema_editor):
    """Back: the stage first, then each note's English (a text of before as written)."""
    Round = apps.get_model("tournaments", "Round")
    rounds = []
    for round_ in Round.objects.only("stage", "notes", "old_notes"):
        lines = [round_.stage] if round_.stage else []
        for item in round_.notes or ():
            lines.append(item.get("text") or _english(item))
        round_.old_notes = "\n".join(lines)
        rounds.append(round_)
    Round.objects.bulk_update(rounds, ["old_notes"], batch_size=500)


def _english(item: dict) -> str:
    from tournaments.domain.texts import Note

    return str(Note.load(item))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_entry_extra_seat"),
    ]

    operations = [
        migrations.RenameField("round", "notes", "old_notes"),
        migrations.AddField(
            model_name="round",
            name="notes",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="What the pairing had to allow (rematches).",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="stage",
            field=models.CharField(blank=True, default="", editable=False, max_length=40),
        ),
        migrations.RunPython(notes_to_data, data_to_notes),
        migrations.RemoveField("round", "old_notes"),
    ]
