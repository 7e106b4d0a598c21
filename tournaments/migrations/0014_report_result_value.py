"""Players' reports keep the result as one value, not the form's fields (issue 32).

A report kept the fields its form posted (`payload`: "winner", "result", "place-<entry>") and,
beside them, the outcome the two reports compare (`result`: "winner", every entry's "places",
"wins", "draws"). It now keeps only the value the event's format reads from the form
(`domain.result.Result.as_json`): {"winner", "draw", "places", "game_wins", "game_draws"},
`places` given only for a pod's full order, as the player entered it. Each stored report is
converted from what it posted: a name tapped is the winner, Draw a draw, an order its places,
a match's button its winner and games (kept in the old `result`). Backwards, the old fields are
written again from the value and the table's seats.
"""

from django.db import migrations, models


def to_value(apps, schema_editor):
    ResultReport = apps.get_model("tournaments", "ResultReport")
    changed = []
    for report in ResultReport.objects.iterator():
        old, posted = report.result or {}, report.payload or {}
        if "game_wins" in old:  # already a value
            continue
        winner = old.get("winner")
        ordered = posted.get("result") == "order"
        report.result = {
            "winner": None if winner is None else int(winner),
            "draw": winner is None,
            "places": dict(old.get("places") or {}) if ordered else {},
            "game_wins": dict(old.get("wins") or {}),
            "game_draws": old.get("draws") or 0,
        }
        changed.append(report)
    ResultReport.objects.bulk_update(changed, ["result"], batch_size=500)


def to_fields(apps, schema_editor):
    ResultReport = apps.get_model("tournaments", "ResultReport")
    Seat = apps.get_model("tournaments", "Seat")
    changed = []
    for report in ResultReport.objects.iterator():
        value = report.result or {}
        if "game_wins" not in value:
            continue
        seated = list(
            Seat.objects.filter(table_id=report.table_id)
            .order_by("position")
            .values_list("entry_id", flat=True)
        )
        winner, wins = value.get("winner"), value.get("game_wins") or {}
        places = value.get("places") or {}
        draws = value.get("game_draws") or 0
        if places:
            posted = {"result": "order", **{f"place-{e}": str(p) for e, p in places.items()}}
        elif wins and len(seated) == 2:
            games = [wins.get(str(e), 0) for e in seated] + ([draws] if draws else [])
            posted = {"result": "-".join(str(g) for g in games)}
        elif winner is not None:
            posted = {"winner": str(winner)}
        else:
            posted = {"result": "draw"}
        if not places:
            places = {str(e): 1 if winner is None or e == winner else 2 for e in seated}
        report.payload = posted
        report.result = {"winner": winner, "places": places, "wins": wins, "draws": draws}
        changed.append(report)
    ResultReport.objects.bulk_update(changed, ["payload", "result"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0013_event_listing_and_series")]

    operations = [
        # A default first, so that going back can add the column again to rows that exist.
        migrations.AlterField(
            model_name="resultreport",
            name="payload",
            field=models.JSONField(default=dict, help_text="As the TO's card posts it."),
        ),
        migrations.RunPython(to_value, to_fields),
        migrations.RemoveField(model_name="resultreport", name="payload"),
        migrations.AlterField(
            model_name="resultreport",
            name="result",
            field=models.JSONField(
                help_text="The result as reported: winner, draw, places, game wins, game draws."
            ),
        ),
    ]
