"""An event more than a year ahead is created only once its date is confirmed, and an event
dated ahead never puts games in the league's future.

Before, an event dated 2030 was created silently; played through, it showed "Finished" and
its tables became league games dated 2030, at the top of the game log.
"""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Game, Role
from tests.factories import TournamentFactory, organizer_of
from tests.forms import error_summary
from tests.tournaments.play import play_round
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
NEXT_MONTH = TODAY + datetime.timedelta(days=30)
FAR = TODAY + datetime.timedelta(days=400)


@pytest.fixture
def judge_client(client, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    return client


def create(client, league, day, **extra):
    data = {
        "name": "Modern 1K",
        "date": day.isoformat(),
        "points": "magic",
        "top_cut": "0",
        "first_round": "random",
        "round_minutes": "50",
        **extra,
    }
    return client.post(reverse("event_create", args=[league.slug]), data)


def test_an_event_within_a_year_is_created_at_once(judge_client, league):
    response = create(judge_client, league, NEXT_MONTH)
    assert response.status_code == 302
    assert Tournament.objects.get().date == NEXT_MONTH


def test_an_event_more_than_a_year_ahead_asks_first(judge_client, league):
    page = create(judge_client, league, FAR)

    assert page.status_code == 400
    assert not Tournament.objects.exists()
    text = page.content.decode()
    assert "more than a year ahead" in page.context["form"].errors["date"][0]
    assert 'name="confirm_date"' in text  # the confirmation box appears now, not before
    assert 'href="#id_date"' in error_summary(text)  # the summary on top links to the field
    assert (
        'name="confirm_date"'
        not in judge_client.get(reverse("event_create", args=[league.slug])).content.decode()
    )

    confirmed = create(judge_client, league, FAR, confirm_date="on")
    assert confirmed.status_code == 302
    assert Tournament.objects.get().date == FAR


def test_the_service_refuses_a_far_date_unless_confirmed(league):
    with pytest.raises(TournamentError) as refused:
        tournament_create(league=league, name="Later", date=FAR)
    assert (refused.value.field, refused.value.code) == ("date", "far_date")
    assert tournament_create(league=league, name="Later", date=FAR, confirm_date=True)


def test_an_event_played_before_its_date_dates_its_games_today(league):
    event = TournamentFactory(league=league, date=FAR)
    for name in "ABCD":
        entry_register(tournament=event, name=name, create_player=True)
    play_round(event)

    dates = set(Game.objects.filter(league=league).values_list("played_on", flat=True))
    assert dates == {TODAY}


def admin_form_data(client, url) -> dict:
    """What the admin page at `url` would post untouched: its values and inline counts."""
    page = client.get(url)
    data = {}
    for field in page.context["adminform"].form:
        value = field.value()
        if value is None or value is False:
            continue
        data[field.html_name] = "on" if value is True else value
        if field.field.show_hidden_initial:  # fields with a callable default, as a browser does
            data[field.html_initial_name] = value
    for inline in page.context["inline_admin_formsets"]:
        data.update({f.html_name: f.value() for f in inline.formset.management_form})
    return data


def test_the_admin_asks_too_before_an_event_more_than_a_year_ahead(client, league):
    client.force_login(organizer_of(league.organization, role=Role.OWNER, username="owen"))
    add = reverse("admin:tournaments_tournament_add")
    data = {
        **admin_form_data(client, add),
        "league": league.pk,
        "name": "Far Open",
        "date": FAR.isoformat(),
        "seed": 7,
    }

    refused = client.post(add, data)
    assert refused.status_code == 200
    assert list(refused.context["adminform"].form.errors) == ["date"]
    assert "more than a year ahead" in refused.context["adminform"].form.errors["date"][0]
    assert not Tournament.objects.exists()

    confirmed = client.post(add, {**data, "confirm_date": "on"})
    assert confirmed.status_code == 302, confirmed.context["adminform"].form.errors
    event = Tournament.objects.get()
    assert event.date == FAR

    # A later change that leaves the date alone is not asked again.
    change = reverse("admin:tournaments_tournament_change", args=[event.pk])
    data = {**admin_form_data(client, change), "name": "Far Open, renamed"}
    changed = client.post(change, data)
    assert changed.status_code == 302, changed.context["adminform"].form.errors
    event.refresh_from_db()
    assert event.name == "Far Open, renamed"
