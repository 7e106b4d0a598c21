"""A player's report or confirmation sent from their phone's offline queue (issue 34): it says
when it was tapped and the table version the player saw; stored once (sent again after a lost
answer, "already done"), refused with the reason when the table changed meanwhile, and refused
without a version or with a time that is not one."""

import pytest

from audit.models import AuditEntry
from audit.summary import Summary
from leagues.models import Game
from tournaments.models import ResultReport
from tournaments.services.results import table_report

from .test_reports import page_of, pod  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def queued(client, url, version, **fields):
    return client.post(url, {"offline": "21:14", "version": str(version), **fields})


def test_a_queued_report_and_confirmations_are_stored_once(client, pod):  # noqa: F811
    url = page_of(pod, client)
    table, (first, *others) = pod["table"], pod["entries"]
    report = {"action": "report", "table": table.pk, "winner": str(first.pk)}
    answer = queued(client, url, table.version, **report)
    assert answer.status_code == 302 and answer.url.endswith("?said=reported")
    again = queued(client, url, table.version, **report)  # the answer was lost: sent again
    assert again.status_code == 302 and "said" not in again.url
    assert ResultReport.objects.count() == 1
    stored = ResultReport.objects.get()
    anonymous = client.__class__()
    for entry in others:
        link = pod["links"][entry.pk]
        confirm = {"action": "confirm", "report": stored.pk}
        assert queued(anonymous, link, 0, **confirm).status_code == 302
        assert queued(anonymous, link, 0, **confirm).status_code == 302  # once
    table.refresh_from_db()
    assert table.reported and table.version == 1 and table.winner_id == first.pk
    assert Game.objects.count() == 1
    # The reporter's queue sends the report once more after the table completed: already done.
    late = queued(client, url, 0, **report)
    assert late.status_code == 302 and "said" not in late.url
    # History: the report and the three confirmations, each once, each saying it was queued.
    # (Kept before translation: the History writes "from the phone's queue, tapped at 21:14
    # offline" in its reader's language.)
    sent = [
        e
        for e in AuditEntry.objects.all()
        if Summary.from_json((e.after or {}).get("sent") or {"t": ""}).english()
        == "from the phone's queue, tapped at 21:14 offline"
    ]
    assert len(sent) == 4


def test_a_queued_report_on_a_table_changed_meanwhile_is_refused_with_why(client, pod):  # noqa: F811
    url = page_of(pod, client)
    table, (first, second, *_) = pod["table"], pod["entries"]
    table_report(table=table, winner=second, expected_version=0)  # the TO, meanwhile
    answer = queued(client, url, 0, action="report", table=table.pk, winner=str(first.pk))
    assert answer.status_code == 409
    assert "already has its result" in answer.content.decode()
    table.refresh_from_db()
    assert table.winner_id == second.pk and ResultReport.objects.count() == 0


def test_a_queued_report_against_an_old_version_is_a_conflict(client, pod):  # noqa: F811
    url = page_of(pod, client)
    table, first = pod["table"], pod["entries"][0]
    answer = queued(client, url, 5, action="report", table=table.pk, winner=str(first.pk))
    assert answer.status_code == 409
    assert "changed after you reported offline" in answer.content.decode()
    assert ResultReport.objects.count() == 0


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"offline": "21:14"}, "carries no table version"),
        ({"offline": "25:99", "version": "0"}, "not a time of day"),
    ],
)
def test_a_queued_report_without_version_or_time_is_refused(client, pod, fields, message):  # noqa: F811
    url = page_of(pod, client)
    data = {"action": "report", "table": pod["table"].pk, "winner": str(pod["entries"][0].pk)}
    answer = client.post(url, {**data, **fields})
    assert answer.status_code == 400 and message in answer.content.decode()
    assert ResultReport.objects.count() == 0
