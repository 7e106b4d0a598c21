"""Findable events (issue 31 §2): the upcoming public events on the home page and on each
store's page, an event's facts and its calendar file, and the start time, place and fee on
the creation form and on the TO's "Time, place and fee" form.

Upcoming: dated today or later, not finished, of a public league. Not a private league's
(whoever looks), not a past one. Bad input gets a message on its field and changes nothing.
"""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from leagues.models import Organization, Role
from tests.factories import LeagueFactory, OrganizationFactory, TournamentFactory, organizer_of
from tests.tournaments.domain.test_ical import read, unescape
from tests.tournaments.play import register
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.selectors import listing
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
DAY = datetime.timedelta(days=1)


@pytest.fixture
def events(league, organization):
    """Store A (`league` public) and a private league of the same store; store B public."""
    private = LeagueFactory(organization=organization, slug="staff", is_public=False)
    other = LeagueFactory(organization=OrganizationFactory(name="Beta Cards", slug="beta"))
    return {
        "soon": TournamentFactory(
            league=league,
            name="Friday cEDH",
            slug="friday-cedh",
            date=TODAY + 7 * DAY,
            start_time=datetime.time(19, 0),
            registration_cap=16,
            registration_open=True,
            entry_fee=Decimal("10"),
            fee_currency="USD",
        ),
        "today": TournamentFactory(league=league, name="Tonight Modern", date=TODAY),
        "past": TournamentFactory(league=league, name="Last Week Modern", date=TODAY - 7 * DAY),
        "finished": TournamentFactory(
            league=league, name="Done Already", date=TODAY + DAY, status="finished"
        ),
        "private": TournamentFactory(league=private, name="Staff Night", date=TODAY + 2 * DAY),
        "other": TournamentFactory(league=other, name="Beta Pauper", date=TODAY + 3 * DAY),
    }


def names(rows) -> list[str]:
    return [row.name for row in rows]


def test_upcoming_lists_public_events_from_today_soonest_first(events):
    assert names(listing.upcoming_events()) == ["Tonight Modern", "Beta Pauper", "Friday cEDH"]


def test_the_home_page_lists_an_event_being_played_once_under_live_now(events):
    tonight = events["today"]
    tonight.status = "swiss"
    tonight.save(update_fields=["status"])
    assert "Tonight Modern" in names(listing.live_events())
    assert names(listing.upcoming_events(started=False)) == ["Beta Pauper", "Friday cEDH"]
    # A store's own page still lists tonight's event among its next ones.
    assert "Tonight Modern" in names(listing.upcoming_events())


def test_a_store_lists_its_own_upcoming_events(events, organization):
    assert names(listing.upcoming_events(organization=organization)) == [
        "Tonight Modern",
        "Friday cEDH",
    ]


def test_the_facts_of_an_event(events):
    register(events["soon"], "Ann", "Bob", "Cy")
    facts = listing.event_facts(events["soon"])
    assert (facts.start_time, facts.fee, facts.seats, facts.seats_left) == (
        datetime.time(19, 0),
        "$10",
        "13 of 16 left",
        13,
    )
    assert facts.place == "Dragon's Den"
    row = next(r for r in listing.upcoming_events() if r.slug == "friday-cedh")
    assert row.seats == "13 of 16 left"  # the list counts the same seats in its one query


def test_a_dropped_player_frees_a_seat_in_the_count(events):
    ann, _ = register(events["soon"], "Ann", "Bob")
    Tournament.objects.filter(pk=events["soon"].pk).update(registration_cap=2)
    ann.dropped_after = 0
    ann.save()
    events["soon"].refresh_from_db()
    assert listing.event_facts(events["soon"]).seats == "1 of 2 left"


def test_the_home_page_lists_upcoming_public_events_only(client, events):
    page = client.get(reverse("home"))
    text = page.content.decode()
    assert page.status_code == 200
    for shown in ("Friday cEDH", "Tonight Modern", "Beta Pauper"):
        assert shown in text
    for hidden in ("Staff Night", "Last Week Modern", "Done Already"):
        assert hidden not in text
    assert "$10" in text and "13 of 16 left" not in text and "16 of 16 left" in text
    assert reverse("event_detail", args=["friday-cedh"]) + "#registration-title" in text


def test_a_member_of_the_store_sees_no_private_event_on_the_home_page(client, events, organizer):
    client.force_login(organizer)
    text = client.get(reverse("home")).content.decode()
    assert "Friday cEDH" in text and "Staff Night" not in text


def test_the_store_page_lists_the_store_s_upcoming_public_events(client, events, organization):
    page = client.get(reverse("store_events", args=[organization.slug]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "Friday cEDH" in text and "Tonight Modern" in text
    for hidden in ("Staff Night", "Last Week Modern", "Done Already", "Beta Pauper"):
        assert hidden not in text
    # The home page links to it.
    assert reverse("store_events", args=[organization.slug]) in client.get("/").content.decode()


def test_a_store_with_private_leagues_only_has_no_public_page(client, db):
    secret = OrganizationFactory(slug="secret")
    LeagueFactory(organization=secret, is_public=False)
    assert client.get(reverse("store_events", args=["secret"])).status_code == 404
    assert client.get(reverse("store_events", args=["nowhere"])).status_code == 404


def test_a_new_store_with_no_league_yet_has_its_public_page(client, db):
    """Its address is what a series' host types to invite it (issue 43): it must answer."""
    OrganizationFactory(name="Goblin Forge", slug="goblin-forge")
    page = client.get(reverse("store_events", args=["goblin-forge"]))
    assert page.status_code == 200
    assert "Goblin Forge" in page.content.decode()


# --- The calendar file ----------------------------------------------------------------------


def test_the_calendar_file_has_the_start_in_the_store_s_time(client, events, settings):
    settings.TIME_ZONE = "America/New_York"
    event = events["soon"]
    Tournament.objects.filter(pk=event.pk).update(
        date=datetime.date(2026, 12, 4), place="Back room", swiss_rounds=3, round_minutes=50
    )
    response = client.get(reverse("event_calendar", args=[event.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="friday-cedh.ics"'
    props = {name: (params, value) for name, params, value in read(response.content.decode())}
    # 19:00 in New York on 4 December (EST, UTC-5) is midnight UTC; 3 rounds of 50 + 10 min.
    assert props["DTSTART"] == ({}, "20261205T000000Z")
    assert props["DTEND"] == ({}, "20261205T030000Z")
    assert unescape(props["SUMMARY"][1]) == "Friday cEDH"
    assert unescape(props["LOCATION"][1]) == "Dragon's Den — Back room"
    assert props["URL"][1] == "http://testserver/events/friday-cedh/"
    assert "Entry: $10." in unescape(props["DESCRIPTION"][1])
    again = read(client.get(reverse("event_calendar", args=[event.slug])).content.decode())
    assert dict((n, v) for n, _, v in again)["UID"] == props["UID"][1]  # stable: updates


def test_the_calendar_file_follows_the_time_zone_the_store_chose(client, events, settings):
    """A store's profile names its time zone (leagues.services.store_time_zone): its 19:00 is
    Berlin's 19:00 whatever the site's zone."""
    settings.TIME_ZONE = "America/New_York"
    event = events["soon"]
    Organization.objects.filter(pk=event.league.organization_id).update(time_zone="Europe/Berlin")
    Tournament.objects.filter(pk=event.pk).update(date=datetime.date(2026, 12, 4))
    text = client.get(reverse("event_calendar", args=[event.slug])).content.decode()
    # 19:00 in Berlin on 4 December (CET, UTC+1) is 18:00 UTC.
    assert "DTSTART:20261204T180000Z\r\n" in text


def test_an_event_without_a_time_is_a_whole_day_in_the_calendar(client, events):
    text = client.get(reverse("event_calendar", args=[events["today"].slug])).content.decode()
    assert f"DTSTART;VALUE=DATE:{TODAY:%Y%m%d}\r\n" in text


def test_a_private_event_s_calendar_file_is_hidden(client, events):
    assert client.get(reverse("event_calendar", args=[events["private"].slug])).status_code == 404


# --- The event page -------------------------------------------------------------------------


def test_the_event_page_shows_the_facts_and_the_calendar_link(client, events):
    text = client.get(reverse("event_detail", args=["friday-cedh"])).content.decode()
    assert "19:00" in text and "Entry: $10" in text and "16 of 16 left" in text
    assert reverse("event_calendar", args=["friday-cedh"]) in text
    assert reverse("event_copy", args=["friday-cedh"]) not in text  # visitors copy nothing
    assert reverse("event_listing", args=["friday-cedh"]) not in text


def test_the_store_s_staff_see_copy_and_listing_on_the_event_page(client, events, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    text = client.get(reverse("event_detail", args=["friday-cedh"])).content.decode()
    assert reverse("event_copy", args=["friday-cedh"]) in text
    assert reverse("event_listing", args=["friday-cedh"]) in text


def test_an_event_without_a_fee_says_free(client, events):
    text = client.get(reverse("event_detail", args=[events["today"].slug])).content.decode()
    assert "Entry: Free" in text and "No limit" in text


# --- The creation form ----------------------------------------------------------------------


@pytest.fixture
def judge_client(client, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    return client


EVENT = {
    "name": "Friday cEDH",
    "date": (TODAY + 7 * DAY).isoformat(),
    "format": "pods",
    "top_cut": "4",
    "first_round": "random",
    "round_minutes": "80",
}


def test_an_event_is_created_with_its_time_place_and_fee(judge_client, league):
    data = EVENT | {
        "start_time": "19:00",
        "place": "  Back room  ",
        "entry_fee": "7.50",
        "fee_currency": "eur",
    }
    response = judge_client.post(reverse("event_create", args=[league.slug]), data)
    assert response.status_code == 302
    event = Tournament.objects.get()
    assert (event.start_time, event.place, event.entry_fee, event.fee_currency) == (
        datetime.time(19, 0),
        "Back room",
        Decimal("7.50"),
        "EUR",
    )


def test_the_creation_form_offers_the_store_s_currency(judge_client, league):
    TournamentFactory(league=league, entry_fee=Decimal(5), fee_currency="GBP")
    form = judge_client.get(reverse("event_create", args=[league.slug])).context["form"]
    assert form["fee_currency"].value() == "GBP"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("start_time", "7pm", "HH:MM"),
        ("start_time", "25:00", "HH:MM"),
        ("entry_fee", "-5", "not negative"),
        ("entry_fee", "ten", "amount"),
        ("entry_fee", "1.005", "two digits"),
        ("entry_fee", "1000000", "at most"),
        ("fee_currency", "dollars", "three letters"),
        ("fee_currency", "U$", "three capital letters"),
        ("place", "x" * 201, "at most 200"),
    ],
)
def test_bad_listing_input_on_the_creation_form(judge_client, league, field, value, message):
    data = EVENT | {"entry_fee": "10", "fee_currency": "USD"} | {field: value}
    response = judge_client.post(reverse("event_create", args=[league.slug]), data)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [field] and message in errors[field][0]
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_fee_without_a_currency_is_refused_on_the_currency(judge_client, league):
    data = EVENT | {"entry_fee": "10", "fee_currency": ""}
    response = judge_client.post(reverse("event_create", args=[league.slug]), data)
    assert response.status_code == 400
    assert "three capital letters" in response.context["form"].errors["fee_currency"][0]
    assert not Tournament.objects.exists()


def test_the_service_refuses_what_the_form_would(league):
    with pytest.raises(TournamentError) as error:
        tournament_create(league=league, name="X", entry_fee=Decimal(-1))
    assert error.value.field == "entry_fee"
    with pytest.raises(TournamentError) as error:
        tournament_create(league=league, name="X", place="a\nb")
    assert error.value.field == "place"
    assert not Tournament.objects.exists()


# --- The TO's "Time, place and fee" form ----------------------------------------------------


def listing_url(event) -> str:
    return reverse("event_listing", args=[event.slug])


def test_the_to_changes_time_place_and_fee(judge_client, events):
    event = events["soon"]
    data = {
        "date": event.date.isoformat(),
        "start_time": "18:30",
        "place": "Community hall, 5 Main St",
        "entry_fee": "",
        "fee_currency": "USD",
    }
    response = judge_client.post(listing_url(event), data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.start_time, event.place, event.entry_fee, event.fee_currency) == (
        datetime.time(18, 30),
        "Community hall, 5 Main St",
        None,
        "",
    )
    text = judge_client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "18:30" in text and "Community hall, 5 Main St" in text and "Entry: Free" in text
    assert AuditEntry.objects.filter(tournament_id=event.pk, action="event.listing").exists()


def snapshot(event) -> tuple:
    event.refresh_from_db()
    return (event.date, event.start_time, event.place, event.entry_fee, event.fee_currency)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("date", "next friday", "YYYY-MM-DD"),
        ("start_time", "19h", "HH:MM"),
        ("entry_fee", "-1", "not negative"),
        ("fee_currency", "eu", "three capital letters"),
    ],
)
def test_bad_input_on_the_listing_form_changes_nothing(judge_client, events, field, value, message):
    event = events["soon"]
    before = snapshot(event)
    data = {
        "date": event.date.isoformat(),
        "start_time": "20:00",
        "place": "Elsewhere",
        "entry_fee": "12",
        "fee_currency": "USD",
    } | {field: value}
    response = judge_client.post(listing_url(event), data)
    assert response.status_code == 400
    assert message in response.context["form"].errors[field][0]
    text = response.content.decode()
    assert "Nothing was saved" in text and f'href="#id_{field}"' in text  # the summary links
    assert snapshot(event) == before


def test_the_date_stays_once_round_1_is_paired(judge_client, events):
    event = events["today"]
    register(event, "Ann", "Bob", "Cy", "Dee")
    round_pair(tournament=event)
    before = snapshot(event)
    data = {"date": (TODAY + DAY).isoformat(), "start_time": "", "place": "", "entry_fee": ""}
    response = judge_client.post(listing_url(event), data)
    assert response.status_code == 400
    assert "Round 1 has been paired" in response.context["form"].errors["date"][0]
    assert snapshot(event) == before
