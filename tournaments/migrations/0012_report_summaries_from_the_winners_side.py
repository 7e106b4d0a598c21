"""Say stored 1v1 reports from the winner's side: a report whose winner sat second read
"Bob won 1-2" (the games in seat order); it reads "Bob won 2-1" now, as new reports do
(domain.reports.result_summary). Only the games after " won " change; the audit trail keeps
what was said at the time."""

from django.db import migrations

DASH = "\u2013"


def winners_side(apps, schema_editor):
    ResultReport = apps.get_model("tournaments", "ResultReport")
    changed = []
    for report in ResultReport.objects.exclude(result__wins={}).iterator():
        result = report.result
        wins = result.get("wins") or {}
        winner = result.get("winner")
        if winner is None or len(wins) != 2 or " won " not in report.summary:
            continue
        mine = wins.get(str(winner))
        theirs = [w for e, w in wins.items() if e != str(winner)]
        if mine is None or len(theirs) != 1:
            continue
        games = f"{mine}{DASH}{theirs[0]}"
        if result.get("draws"):
            games += f"{DASH}{result['draws']}"
        summary = f"{report.summary.rsplit(' won ', 1)[0]} won {games}"[:200]
        if summary != report.summary:
            report.summary = summary
            changed.append(report)
    ResultReport.objects.bulk_update(changed, ["summary"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_table_extension")]

    operations = [migrations.RunPython(winners_side, migrations.RunPython.noop)]
