"""The History in the reader's language (issue 45): an entry is kept as its English template
and its values (`audit.summary.Summary`), so one written in an English request reads in German
for a German organizer and in Japanese for a Japanese one, on the History page and in the undo's
message; its phrases (a round, a table) and the event's name before it too. A row written
before the templates keeps its English."""

import pytest
from django.conf import settings
from django.urls import reverse

from audit.models import AuditEntry
from audit.services import log_action
from tests.factories import TournamentFactory
from tests.tournaments.play import register
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(league):
    return TournamentFactory(league=league, name="Friday Swiss", slug="friday-swiss")


def read_as(client, language: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def history(client, organization) -> str:
    return client.get(reverse("audit_log", args=[organization.slug])).content.decode()


def dropped_in_english(organizer_client, event):
    ann, _bob = register(event, "Ann", "Bob")
    url = reverse("entry_drop", args=[event.slug, ann.pk])
    assert read_as(organizer_client, "en").post(url).status_code in (200, 302)
    entry = AuditEntry.objects.get(action="entry.drop")
    assert entry.summary == "Friday Swiss: Ann dropped"  # the English, kept as before
    assert (entry.summary_template, entry.summary_params) == (
        "%(player)s dropped",
        {"player": "Ann"},
    )
    return entry


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "Friday Swiss: Ann ist ausgestiegen"),
        ("ja", "Friday Swiss：Annがドロップしました"),  # noqa: RUF001
    ],
)
def test_an_entry_written_in_english_reads_in_the_readers_language(
    organizer_client, event, language, expected
):
    dropped_in_english(organizer_client, event)
    page = history(read_as(organizer_client, language), event.league.organization)
    assert expected in page
    assert "Ann dropped" not in page


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "Rückgängig gemacht: Friday Swiss: Ann ist ausgestiegen. "),
        ("ja", "元に戻しました：Friday Swiss：Annがドロップしました。"),  # noqa: RUF001
    ],
)
def test_the_undo_message_names_the_change_in_the_readers_language(
    organizer_client, event, language, expected
):
    entry = dropped_in_english(organizer_client, event)
    url = reverse("audit_undo", args=[event.league.organization.slug, entry.pk])
    done = read_as(organizer_client, language).post(url, follow=True).content.decode()
    assert expected in done


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "Friday Swiss: Runde 1, Tisch 1"),
        ("ja", "Friday Swiss：ラウンド1、テーブル1"),  # noqa: RUF001
    ],
)
def test_a_phrase_inside_the_summary_reads_in_the_readers_language_too(
    organizer_client, event, language, expected
):
    register(event, "Ann", "Bob")
    table = round_pair(tournament=event).tables.get()
    table_report(table=table, winner=table.seats.first().entry)
    assert AuditEntry.objects.get(action="match.report").summary == "Friday Swiss: round 1, table 1"
    assert expected in history(read_as(organizer_client, language), event.league.organization)


@pytest.mark.parametrize("language", ["de", "ja"])
def test_a_row_written_before_the_templates_shows_its_english(organizer_client, event, language):
    log_action(event, "entry.drop", event, "Cy dropped")  # as the code before wrote it
    entry = AuditEntry.objects.get()
    assert (entry.summary, entry.summary_template) == ("Friday Swiss: Cy dropped", "")
    assert entry.summary_text == "Friday Swiss: Cy dropped"
    page = history(read_as(organizer_client, language), event.league.organization)
    assert "Friday Swiss: Cy dropped" in page


def test_an_upper_apps_entry_lists_its_fields_in_the_readers_language(organizer_client, event):
    """What a registration and a player's report keep before and after (codes, flags,
    sentences before translation, a moment) reads in German: each field by the label its app
    registered (audit.registry.fields_register), a code by its choice's label."""
    from tournaments.domain.result import Result
    from tournaments.services.reports import report_submit

    after = {"player": "Ann", "status": "waitlisted", "paid": False}
    log_action(event, "registration.join", ("registration", 1), "Ann registered", None, after)
    register(event, "Ann", "Bob")
    table = round_pair(tournament=event).tables.get()
    first = table.seats.order_by("position").first().entry
    report_submit(table=table, entry=first, result=Result(winner=first.pk), via_link=True)
    entry = AuditEntry.objects.get(action="report.submit")
    assert entry.after["report"]["t"] == "report %(number)s, %(where)s"  # kept, not English

    page = history(read_as(organizer_client, "de"), event.league.organization)
    for line in (
        "Status: Auf der Warteliste",
        "Bezahlt: nein",
        "Bericht: Bericht 1, Runde 1, Tisch 1",
        f"Von: {first.player.name}",
        "Über den eigenen Link: ja",
    ):
        assert line in page, line
    assert "waitlisted" not in page and "through_link" not in page


def test_who_made_a_change_reads_in_the_readers_language_a_name_as_it_is():
    from django.utils import translation

    from audit.actors import actor_label, actor_text

    with translation.override("de"):
        assert actor_text("player's link") == "Link des Spielers"
        assert actor_text("olga (the TO's phone, offline)") == "olga (Handy des TO, offline)"
        assert actor_text(actor_label(None)) == "System"
        assert actor_text("olga") == "olga"  # a username
        assert actor_text("olga (API token scorebot)") == "olga (API-Token scorebot)"
        assert actor_text("olga (chose Ann's report 2)") == "olga (Bericht 2 von Ann gewählt)"
        queued = "olga (the phone's queue, tapped at 21:14 offline)"
        assert actor_text(queued) == "olga (Warteschlange des Handys, offline um 21:14 getippt)"
        assert actor_text("olga (the new way)") == "olga (the new way)"  # one it does not know
