"""Findable events on a phone (issue 31 §2): the home page lists the next public events with
time, fee and seats; the event page says when and where and offers "Add to calendar"; the TO
repeats the Friday night for the next weeks, and pressing "Make the copies" again adds none.

Screenshots at 390 px: events-home-phone, events-store-phone, events-event-phone,
events-copy-phone, events-copied-phone, events-listing-error-phone."""

import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone

from leagues.models import Role
from tests.factories import LeagueFactory, OrganizationFactory, TournamentFactory, organizer_of
from tournaments.models import Tournament
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create
from tournaments.services.registration import registration_settings_set

from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

TODAY = timezone.localdate()
FRIDAY = TODAY + datetime.timedelta(days=(4 - TODAY.weekday()) % 7 or 7)
LONG = "Friday Night cEDH at the Dragon's Den: the thirty-two-player community pod league night"


@pytest.fixture
def scene(db):
    store = OrganizationFactory(name="Dragon's Den", slug="dragons-den")
    league = LeagueFactory(organization=store, name="cEDH League", slug="cedh", game_label="cEDH")
    private = LeagueFactory(organization=store, name="Staff", slug="staff", is_public=False)
    organizer_of(store, role=Role.JUDGE, username="jude")
    friday = tournament_create(
        league=league,
        name=LONG,
        date=FRIDAY,
        format="pods",
        top_cut=4,
        swiss_rounds=3,
        round_minutes=80,
        start_time=datetime.time(19, 0),
        place="Back room, upstairs",
        entry_fee=Decimal("10"),
        fee_currency="USD",
    )
    registration_settings_set(
        tournament=friday, open=True, cap=16, deadline=None, note="Bring a sleeved deck."
    )
    entry_register(tournament=friday, name="Ann", create_player=True)
    TournamentFactory(league=league, name="Modern Tuesday", date=TODAY + datetime.timedelta(1))
    TournamentFactory(league=private, name="Staff Playtest", date=TODAY + datetime.timedelta(2))
    TournamentFactory(league=league, name="Last Month", date=TODAY - datetime.timedelta(30))
    return {"friday": friday, "store": store}


def fits(visit) -> bool:
    return visit.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_player_finds_the_friday_night_and_a_to_repeats_it(phone, scene):
    friday = scene["friday"]

    phone.go("/")
    upcoming = phone.page.locator(".upcoming")
    text = upcoming.inner_text()
    assert LONG in text and "Modern Tuesday" in text
    assert "Staff Playtest" not in text and "Last Month" not in text
    row = phone.page.locator(".upcoming-event", has_text=LONG)
    assert "19:00" in row.inner_text() and "$10" in row.inner_text()
    assert "15 of 16 left" in row.inner_text()
    phone.shot("events-home-phone")
    assert fits(phone)

    phone.page.click('.card-title a:has-text("Dragon\'s Den")')  # the store's card
    phone.page.wait_for_load_state("networkidle")
    assert phone.page.url.endswith("/stores/dragons-den/")
    assert phone.page.locator("h1").inner_text() == "Dragon's Den"
    assert LONG in phone.page.locator(".upcoming").inner_text()
    phone.shot("events-store-phone")
    assert fits(phone)

    row = phone.page.locator(".upcoming-event", has_text=LONG)
    row.locator("a.upcoming-go").click()
    phone.page.wait_for_load_state("networkidle")
    facts = phone.page.locator(".event-facts").inner_text()
    assert "19:00" in facts and "Back room, upstairs" in facts and "Entry: $10" in facts
    assert "15 of 16 left" in facts
    phone.shot("events-event-phone")
    assert fits(phone)

    with phone.page.expect_download() as download:
        phone.page.click("text=Add to calendar")
    ics = Path(download.value.path()).read_bytes().decode("utf-8")
    start = datetime.datetime.combine(FRIDAY, datetime.time(19, 0))
    start = timezone.make_aware(start).astimezone(datetime.UTC)
    assert f"DTSTART:{start:%Y%m%dT%H%M%SZ}\r\n" in ics
    assert f"/events/{friday.slug}/" in ics.replace("\r\n ", "")  # unfolded (RFC 5545 §3.1)

    # The TO repeats it for three weeks, then presses the button again: nothing more.
    phone.login("jude")
    phone.go(f"/events/{friday.slug}/")
    phone.page.click("text=Copy this event")
    phone.page.wait_for_load_state("networkidle")
    phone.page.fill("#id_weeks", "3")
    phone.shot("events-copy-phone")
    assert fits(phone)
    phone.page.click("button:has-text('Make the copies')")
    phone.page.wait_for_load_state("networkidle")
    assert "with no players yet" in phone.page.locator(".messages").inner_text()
    phone.shot("events-copied-phone")
    assert fits(phone)
    phone.page.go_back()
    phone.page.wait_for_load_state("networkidle")
    phone.page.click("button:has-text('Make the copies')")
    phone.page.wait_for_load_state("networkidle")
    assert "Already there" in phone.page.locator(".messages").inner_text()
    assert Tournament.objects.filter(series=friday).count() == 3

    # A wrong fee on the time-place-fee form: a message on the field, nothing saved.
    phone.go(f"/events/{friday.slug}/run/listing/")
    phone.page.fill("#id_entry_fee", "-5")
    phone.page.click("button:has-text('Save')")
    phone.page.wait_for_load_state("networkidle")
    assert "not negative" in phone.page.locator(".field.has-error").inner_text()
    phone.shot("events-listing-error-phone")
    assert fits(phone)
    friday.refresh_from_db()
    assert friday.entry_fee == Decimal("10")
