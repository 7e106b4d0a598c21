"""Tournament forms and TO actions against hostile values: a message and nothing written.

The event form, registration, a table's result (1v1 and pod) and the round edits each get
every hostile value of tests/hostile.py in each field they read. The answer is 400 (or
htmx's 200 card with a message) and no row changes, or the value is accepted as plain text
where it is one (a formula-looking event name); never a 500.
"""

import pytest
from django.urls import reverse

from leagues.models import Role
from tests.factories import TournamentFactory, organizer_of
from tests.hostile import HOSTILE_VALUES, ID_VALUES, REFUSED_BY_KIND, row_counts
from tests.tournaments.play import register
from tournaments.models import Tournament
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

EVENT = {
    "name": "Friday Swiss",
    "date": "2026-11-27",
    "format": "1v1",
    "points": "",
    "pod_layout": "",
    "tiebreakers": "",
    "swiss_rounds": "",
    "top_cut": "0",
    "first_round": "random",
    "round_minutes": "50",
}
EVENT_FIELDS = {
    "name": "text",
    "date": "date",
    "format": "choice",
    "points": "choice",
    "pod_layout": "choice",
    "tiebreakers": "choice",
    "swiss_rounds": "count",
    "top_cut": "choice",
    "first_round": "choice",
    "round_minutes": "count",
    "place": "text",
    "fee_currency": "text",
}


@pytest.fixture
def judge_client(client, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    return client


def check(response, before, *, refused: bool, what: str):
    assert response.status_code < 500
    if response.status_code in (400, 409) or refused:
        assert response.status_code in (200, 400, 409), what
        assert row_counts() == before, what


@pytest.mark.parametrize("field", EVENT_FIELDS)
def test_the_event_form(judge_client, league, field):
    url = reverse("event_create", args=[league.slug])
    kind = EVENT_FIELDS[field]
    values = ID_VALUES if kind == "choice" else HOSTILE_VALUES
    for key, value in values.items():
        before = row_counts()
        response = judge_client.post(url, {**EVENT, field: value})
        refused = key in REFUSED_BY_KIND[kind]
        what = f"{key} in {field}"
        check(response, before, refused=refused, what=what)
        if refused:
            assert response.status_code == 400, what
            assert response.context["form"].errors, what
        Tournament.objects.all().delete()  # so the next accepted name is not a second event


@pytest.fixture
def event(league):
    return TournamentFactory(league=league, name="Friday Swiss", slug="friday-swiss")


def test_registration(judge_client, event):
    url = reverse("event_register", args=[event.slug])
    for key, value in HOSTILE_VALUES.items():
        before = row_counts()
        response = judge_client.post(url, {"name": value})
        refused = key in REFUSED_BY_KIND["name"]
        check(response, before, refused=refused, what=key)
        if refused:
            assert response.status_code == 400, key
            assert response.context["register_form"].errors["name"], key


def hostile_posts(keys, values=ID_VALUES):
    for key in keys:
        for value_key, value in values.items():
            yield value_key, {key: value}


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_1v1_table_result(judge_client, event, htmx):
    register(event, "Ann", "Bob", "Cy", "Dee")
    round_ = round_pair(tournament=event)
    table = round_.tables.first()
    url = reverse("table_report", args=[event.slug, table.pk])
    headers = {"HX-Request": "true"} if htmx else {}
    for value_key, data in hostile_posts(["result", "version"]):
        before = row_counts()
        post = {"result": "2-0", "version": "0", **data}
        response = judge_client.post(url, post, headers=headers)
        assert response.status_code < 500, (value_key, list(data))
        if "result" in data:  # no hostile value is a result button
            assert row_counts() == before, (value_key, list(data))


def test_a_pod_result(judge_client, league):
    event = TournamentFactory(league=league, pods=True, slug="pods")
    register(event, "Ann", "Bob", "Cy", "Dee")
    round_ = round_pair(tournament=event)
    table = round_.tables.get()
    seat_ids = list(table.seats.values_list("entry_id", flat=True))
    url = reverse("table_report", args=[event.slug, table.pk])
    cases = list(hostile_posts(["winner"])) + [
        (
            key,
            {
                "result": "order",
                **{f"place-{e}": str(n) for n, e in enumerate(seat_ids, 1)},
                f"place-{seat_ids[0]}": value,
            },
        )
        for key, value in HOSTILE_VALUES.items()
    ]
    for value_key, data in cases:
        before = row_counts()
        response = judge_client.post(url, data, headers={"HX-Request": "true"})
        assert response.status_code in (200, 400, 409), (value_key, list(data))
        assert row_counts() == before, (value_key, list(data))


def test_round_edits(judge_client, event):
    register(event, "Ann", "Bob", "Cy", "Dee", "Eve")
    round_ = round_pair(tournament=event)
    url = reverse("round_edit", args=[event.slug, round_.number])
    entry = str(event.entries.first().pk)
    for value_key, data in hostile_posts(["edit", "a", "b"]):
        before = row_counts()
        post = {"edit": "swap", "a": entry, "b": entry, **data}
        response = judge_client.post(url, post)
        assert response.status_code == 400, (value_key, list(data))
        assert row_counts() == before, (value_key, list(data))


@pytest.mark.parametrize("entry_id", ["9" * 30, "0"])
def test_dropping_an_entry_that_is_not_there(judge_client, event, entry_id):
    before = row_counts()
    response = judge_client.post(f"/events/{event.slug}/entries/{entry_id}/drop/")
    assert response.status_code == 404
    assert row_counts() == before
