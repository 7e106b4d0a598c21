""" "Copy this event" / "repeat weekly" (services.series): the store's Friday night again next
week, or on each of the next weeks, with the same settings and no players; pressing twice makes
one copy per week, and bad input is a message on the field with nothing made."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from leagues.models import Role
from tests.concurrency import run_together
from tests.factories import TournamentFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments.errors import TournamentError
from tournaments.models import Registration, Tournament, TournamentJudge
from tournaments.services.events import tournament_create
from tournaments.services.registration import registration_settings_set
from tournaments.services.series import (
    COPIED,
    NOT_COPIED,
    SHIFTED,
    Copies,
    tournament_copy_weekly,
    tournament_listing_set,
)

pytestmark = pytest.mark.django_db

FRIDAY = timezone.localdate() + datetime.timedelta(days=3)
WEEK = datetime.timedelta(weeks=1)


@pytest.fixture
def friday(league):
    event = tournament_create(
        league=league,
        name="Friday cEDH",
        date=FRIDAY,
        format="pods",
        points="cedh",
        swiss_rounds=3,
        top_cut=4,
        round_minutes=80,
        pod_layout="fives",
        start_time=datetime.time(19, 0),
        place="Back room",
        entry_fee=Decimal("10"),
        fee_currency="USD",
    )
    deadline = timezone.make_aware(datetime.datetime.combine(FRIDAY, datetime.time(18, 30)))
    registration_settings_set(
        tournament=event, open=True, cap=16, deadline=deadline, note="Bring a sleeved deck."
    )
    event.refresh_from_db()
    return event


def test_every_field_of_an_event_is_copied_or_not_on_purpose():
    fields = {f.name for f in Tournament._meta.concrete_fields}
    listed = set(COPIED) | set(SHIFTED) | set(NOT_COPIED)
    assert fields == listed, fields ^ listed
    assert not set(COPIED) & set(NOT_COPIED)


def test_a_copy_is_next_week_with_the_same_settings_and_no_players(friday):
    register(friday, "Ann", "Bob", "Cy")
    copies = tournament_copy_weekly(tournament=friday, weeks=1)
    (copy,) = copies.created
    assert copies.existing == []
    assert copy.date == FRIDAY + WEEK and copy.slug != friday.slug
    for name in COPIED:
        assert getattr(copy, name) == getattr(friday, name), name
    assert copy.registration_deadline == friday.registration_deadline + WEEK
    assert (copy.status, copy.check_in) == ("registration", "not_open")
    assert copy.series_id == friday.pk
    assert not copy.entries.exists() and not copy.registrations.exists()
    assert not copy.rounds.exists()
    assert friday.entries.count() == 3  # the original keeps its players


def test_a_copy_of_a_finished_event_starts_afresh(league):
    event = tournament_create(league=league, name="Modern", date=FRIDAY, swiss_rounds=1)
    register(event, "Ann", "Bob", "Cy", "Dee")
    play_round(event)
    event.refresh_from_db()
    (copy,) = tournament_copy_weekly(tournament=event).created
    assert copy.status == "registration" and not copy.rounds.exists()


def test_copying_twice_makes_one_copy_per_week(friday):
    first = tournament_copy_weekly(tournament=friday, weeks=1)
    second = tournament_copy_weekly(tournament=friday, weeks=1)
    assert second.created == [] and [t.pk for t in second.existing] == [first.created[0].pk]
    assert Tournament.objects.count() == 2


def test_more_weeks_add_only_the_missing_ones(friday):
    tournament_copy_weekly(tournament=friday, weeks=2)
    more = tournament_copy_weekly(tournament=friday, weeks=4)
    assert [t.date for t in more.existing] == [FRIDAY + WEEK, FRIDAY + 2 * WEEK]
    assert [t.date for t in more.created] == [FRIDAY + 3 * WEEK, FRIDAY + 4 * WEEK]
    assert sorted(Tournament.objects.values_list("date", flat=True)) == [
        FRIDAY + k * WEEK for k in range(5)
    ]


def test_a_copy_of_a_copy_stays_in_the_series(friday):
    (next_week,) = tournament_copy_weekly(tournament=friday).created
    (in_two,) = tournament_copy_weekly(tournament=next_week).created
    assert in_two.series_id == friday.pk and in_two.date == FRIDAY + 2 * WEEK
    again = tournament_copy_weekly(tournament=friday, weeks=2)
    assert again.created == [] and Tournament.objects.count() == 3


@pytest.mark.parametrize("weeks", [0, -1, 13, "2"])
def test_the_service_refuses_a_bad_number_of_weeks(friday, weeks):
    with pytest.raises(TournamentError) as error:
        tournament_copy_weekly(tournament=friday, weeks=weeks)
    assert error.value.field == "weeks"
    assert Tournament.objects.count() == 1


def test_a_copy_is_in_the_store_s_history(friday, organizer):
    tournament_copy_weekly(tournament=friday, weeks=2, by=organizer)
    entry = AuditEntry.objects.get(action="event.copy")
    assert entry.tournament_id == friday.pk and entry.actor == organizer
    assert len(entry.after["copies"]) == 2


def test_moving_a_copy_onto_a_week_the_series_holds_is_refused(friday):
    (copy,) = tournament_copy_weekly(tournament=friday).created
    with pytest.raises(TournamentError) as error:
        tournament_listing_set(
            tournament=copy,
            date=FRIDAY,
            start_time=None,
            place="",
            entry_fee=None,
            fee_currency="",
        )
    assert error.value.field == "date"
    copy.refresh_from_db()
    assert copy.date == FRIDAY + WEEK


# --- The view --------------------------------------------------------------------------------


@pytest.fixture
def judge_client(client, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    return client


def copy_url(event) -> str:
    return reverse("event_copy", args=[event.slug])


def test_the_copy_form_asks_for_weeks_with_one_by_default(judge_client, friday):
    page = judge_client.get(copy_url(friday))
    assert page.status_code == 200
    assert page.context["form"]["weeks"].value() == 1


def test_double_tapping_copy_makes_one_event(judge_client, friday):
    first = judge_client.post(copy_url(friday), {"weeks": "1"}, follow=True)
    second = judge_client.post(copy_url(friday), {"weeks": "1"}, follow=True)
    assert first.status_code == second.status_code == 200
    assert Tournament.objects.count() == 2
    assert "with no players yet" in first.content.decode()
    assert "Already there" in second.content.decode()


def test_copying_for_three_weeks(judge_client, friday):
    response = judge_client.post(copy_url(friday), {"weeks": "3"})
    assert response.status_code == 302
    assert response.url == reverse("event_list", args=[friday.league.slug])
    dates = Tournament.objects.exclude(pk=friday.pk).values_list("date", flat=True)
    assert sorted(dates) == [FRIDAY + k * WEEK for k in (1, 2, 3)]


@pytest.mark.parametrize(
    ("weeks", "message"),
    [("0", "from 1 to 12"), ("13", "At most 12"), ("two", "from 1 to 12"), ("", "from 1 to 12")],
)
def test_a_bad_number_of_weeks_is_a_message_and_nothing_made(judge_client, friday, weeks, message):
    response = judge_client.post(copy_url(friday), {"weeks": weeks})
    assert response.status_code == 400
    assert message in response.context["form"].errors["weeks"][0]
    assert "Nothing was saved" in response.content.decode()
    assert Tournament.objects.count() == 1


def test_an_event_s_own_judge_may_not_copy_it(client, friday):
    judge = organizer_of(friday.league.organization, role=Role.JUDGE, username="other")
    judge.memberships.all().delete()
    TournamentJudge.objects.create(tournament=friday, user=judge)
    client.force_login(judge)
    assert client.post(copy_url(friday), {"weeks": "1"}).status_code == 403
    assert Tournament.objects.count() == 1


def test_a_copy_takes_no_waitlist(friday):
    Registration.objects.create(
        tournament=friday,
        player=register(friday, "Zed")[0].player,
        status="cancelled",
    )
    (copy,) = tournament_copy_weekly(tournament=friday).created
    assert not copy.registrations.exists()


@pytest.mark.django_db(transaction=True)
def test_two_copies_at_once_make_one(league):
    event = TournamentFactory(league=league, date=FRIDAY, name="Friday")
    outcomes = run_together(
        lambda: tournament_copy_weekly(tournament=event, weeks=2),
        lambda: tournament_copy_weekly(tournament=event, weeks=2),
    )
    assert all(isinstance(o, Copies) for o in outcomes), outcomes
    assert sorted(len(o.created) for o in outcomes) == [0, 2]
    assert Tournament.objects.filter(series=event).count() == 2
