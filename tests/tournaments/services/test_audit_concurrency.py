"""Two judges at one pod, for real: two threads, two connections, the same version.

Each enters a different result: exactly one is stored, the other gets ResultConflict, the
league game and the log follow the winner only. The 1v1 table has the same test in
test_services.py (two judges reporting the same table).
"""

import pytest

from audit.models import AuditEntry
from leagues.models import Game
from tests import concurrency
from tests.factories import LeagueFactory
from tests.tournaments.play import register
from tournaments.errors import ResultConflict
from tournaments.models import Table
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair


@pytest.mark.django_db(transaction=True)
def test_two_judges_entering_one_pod_at_once_one_wins_the_other_is_told():
    event = tournament_create(league=LeagueFactory(), name="cEDH", format="pods")
    register(event, "P1", "P2", "P3", "P4")
    table = round_pair(tournament=event).tables.get()
    seated = [s.entry for s in table.seats.order_by("position")]
    results = {"P1 wins": {"winner": seated[0]}, "draw": {"draw": True}}

    def judge(label):
        table_report(table=table, expected_version=0, **results[label])
        return "ok"

    answers = concurrency.run_together(*(lambda label=label: judge(label) for label in results))
    outcomes = {
        label: "conflict" if isinstance(answer, ResultConflict) else answer
        for label, answer in zip(results, answers, strict=True)
    }
    assert sorted(outcomes.values()) == ["conflict", "ok"]
    won = next(label for label, outcome in outcomes.items() if outcome == "ok")
    table = Table.objects.get(pk=table.pk)
    assert table.version == 1
    assert table.is_draw == (won == "draw")
    assert Game.objects.count() == 1
    places = sorted(table.game.results.values_list("placement", flat=True))
    assert places == ([1, 1, 1, 1] if won == "draw" else [1, 2, 2, 2])
    entry = AuditEntry.objects.get()
    assert entry.action == "pod.report" and entry.after["draw"] == (won == "draw")
