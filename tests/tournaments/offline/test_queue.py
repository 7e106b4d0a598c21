"""A result from the phone's offline queue, at the console's result address
(tournaments/console/views/tables.py, `offline` = the time it was tapped): the queue is
untrusted input. It must carry the table version it was made against; a replay of a stored
result changes nothing; a stale one is a conflict (409) and overwrites nothing; a wrong event,
a wrong table or a wrong role is refused as online; the log says it came from the queue."""

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from leagues.models import Game, Role
from tests import scenes
from tests.factories import LeagueFactory, UserFactory, organizer_of
from tournaments.models import Table
from tournaments.services.results import table_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(league):
    return scenes.round_paired(league=league, name="Modern", players=4).event


@pytest.fixture
def table(event):
    return Table.objects.filter(round__tournament=event).order_by("number").first()


@pytest.fixture
def to(client, organizer):
    client.force_login(organizer)
    return client


def send(client, event, table, *, htmx=True, **fields):
    url = reverse("table_report", kwargs={"slug": event.slug, "table_id": table.pk})
    data = {"result": "2-0", "version": "0", "offline": "21:14", **fields}
    data = {k: v for k, v in data.items() if v is not None}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(url, data, headers=headers)


def test_a_queued_result_is_stored_once_and_logged_as_from_the_queue(to, event, table):
    assert send(to, event, table).status_code == 200
    table.refresh_from_db()
    assert table.reported and table.version == 1
    (entry,) = AuditEntry.objects.filter(object_id=table.pk)
    assert "the phone's queue, tapped at 21:14 offline" in entry.actor_label


def test_a_replay_changes_nothing(to, event, table):
    """The same result sent again (a reload while sending, a second phone's copy): 200, the
    table and its game as they were, one log entry."""
    send(to, event, table)
    for _ in range(3):
        assert send(to, event, table).status_code == 200
    table.refresh_from_db()
    assert table.version == 1
    assert AuditEntry.objects.filter(object_id=table.pk).count() == 1
    assert Game.objects.count() == 1


def test_a_stale_result_is_a_conflict_and_overwrites_nothing(to, event, table, organizer):
    table_report(table=table, result=None, winner=table.seats.get(position=2).entry, by=organizer)
    response = send(to, event, table)  # made against version 0: the table is at 1
    assert response.status_code == 409
    assert b"already has a different result" in response.content
    table.refresh_from_db()
    assert table.version == 1 and table.winner_id == table.seats.get(position=2).entry_id


def test_reordered_results_of_one_table_the_later_is_a_conflict(to, event, table):
    """Two results made against the same version, sent in either order: the first stores,
    the second (a different result) is refused as a conflict, not applied."""
    assert send(to, event, table, result="0-2").status_code == 200
    assert send(to, event, table, result="2-0").status_code == 409
    table.refresh_from_db()
    assert table.winner_id == table.seats.get(position=2).entry_id


@pytest.mark.parametrize("version", [None, "", "x", "-1", "1.5"])
def test_a_queued_result_without_a_good_version_is_refused(to, event, table, version):
    response = send(to, event, table, version=version)
    assert response.status_code == 400
    assert b"carries no table version" in response.content
    table.refresh_from_db()
    assert not table.reported


def test_an_edited_version_ahead_of_the_table_is_a_conflict(to, event, table):
    response = send(to, event, table, version="7")
    assert response.status_code == 409
    table.refresh_from_db()
    assert not table.reported


@pytest.mark.parametrize("tapped", ["", "25:00", "9:14", "21:14:00", "<b>", "21:14 x"])
def test_a_queued_time_that_is_not_a_time_is_refused(to, event, table, tapped):
    response = send(to, event, table, offline=tapped)
    assert response.status_code == 400
    assert b"not a time of day" in response.content
    table.refresh_from_db()
    assert not table.reported


def test_without_htmx_a_refusal_goes_back_to_the_console(to, event, table):
    response = send(to, event, table, htmx=False, version=None)
    assert response.status_code in (302, 400)
    table.refresh_from_db()
    assert not table.reported


def test_a_table_of_another_event_is_not_found(to, event, table, league):
    other = scenes.round_paired(league=league, name="Other", players=["Eve", "Finn"]).event
    response = send(to, other, table)
    assert response.status_code == 404
    table.refresh_from_db()
    assert not table.reported


def test_a_player_or_another_stores_judge_is_refused(client, event, table):
    for user in (
        UserFactory(),
        organizer_of(LeagueFactory(slug="elsewhere").organization, role=Role.JUDGE),
    ):
        client.force_login(user)
        assert send(client, event, table).status_code == 403
    table.refresh_from_db()
    assert not table.reported


def test_a_visitor_is_sent_to_log_in_and_nothing_is_stored(client, event, table):
    response = send(client, event, table)
    assert response.status_code == 302 and "/login/" in response["Location"]
    table.refresh_from_db()
    assert not table.reported
