"""Players register from their phones, one lands on the waitlist and is promoted, they check in
by the QR's page and by their own link, and the TO drops the no-show and pairs round 1."""

import re

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, PlayerFactory, UserFactory, organizer_of
from tournaments import services
from tournaments.models import Registration, Tournament

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


@pytest.fixture
def event(db):
    league = LeagueFactory(name="cEDH League", slug="cedh", game_label="cEDH")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    for name in PLAYERS:
        user = UserFactory(username=name.lower())
        PlayerFactory(organization=league.organization, name=name, user=user)
    event = services.tournament_create(league=league, name="cEDH Friday", format="pods")
    return services.registration_settings_set(
        tournament=event, open=True, cap=4, deadline=None, note="Fee 10 · doors at 18:30"
    )


def fits_the_phone(visit):
    return visit.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_players_register_wait_check_in_and_round_1_pairs_who_came(browser, live_server, event):
    phones = {}
    for name in PLAYERS:
        phone = phones[name] = Visit(browser, live_server, PHONE)
        phone.login(name.lower())
        phone.go(f"/events/{event.slug}/")
        phone.page.click("button:has-text('Register'), button:has-text('Join the waitlist')")
        phone.page.wait_for_load_state("networkidle")
    eve = phones["Eve"].page
    expect(eve.locator(".messages")).to_contain_text("you are number 1 on the waitlist")
    phones["Eve"].shot("registration-waitlist-phone")
    assert fits_the_phone(phones["Eve"])

    # Bob cannot come after all: he unregisters, and Eve gets his seat.
    phones["Bob"].page.click("button:has-text('Unregister')")
    phones["Bob"].page.wait_for_load_state("networkidle")
    phones["Eve"].go(f"/events/{event.slug}/")
    expect(eve.locator(".registration")).to_contain_text("You are registered")

    # The TO opens the check-in; the code shows on the registration page and the event page.
    to = Visit(browser, live_server, PHONE)
    to.login("jude")
    to.go(f"/events/{event.slug}/run/registration/")
    to.page.click("button:has-text('Open check-in')")
    to.page.wait_for_load_state("networkidle")
    expect(to.page.locator(".check-in-qr svg")).to_be_visible()
    expect(to.page.locator("body")).to_contain_text("Not checked in (4)")
    to.shot("registration-to-check-in-phone")
    assert fits_the_phone(to)

    # Ann scans the code on the event page (its link) and checks in with one tap.
    ann = phones["Ann"]
    ann.go(f"/events/{event.slug}/")
    href = ann.page.locator(".check-in-qr a").get_attribute("href")
    ann.go(href)
    ann.page.click("button:has-text('check in')")
    ann.page.wait_for_load_state("networkidle")
    expect(ann.page.locator(".messages")).to_contain_text("Ann, you are checked in.")
    ann.shot("registration-checked-in-phone")
    ann.page.reload()
    # Cat checks in by her own link (no login), as the store sent it to her.
    cat_link = to.page.locator("tr", has_text="Cat").locator("a", has_text="check-in link")
    link = cat_link.get_attribute("href")
    stranger = Visit(browser, live_server, PHONE)
    stranger.go(link)
    expect(stranger.page.locator(".check-in")).to_contain_text("Cat")
    stranger.page.click("button:has-text('check in')")
    stranger.page.wait_for_load_state("networkidle")
    # Eve checks in too; Dan never comes.
    phones["Eve"].go(f"/events/{event.slug}/check-in/")
    eve.click("button:has-text('check in')")
    eve.wait_for_load_state("networkidle")
    assert Registration.objects.filter(checked_in_at__isnull=False).count() == 3

    # The TO closes the check-in (Dan leaves) and pairs round 1 from who came.
    to.go(f"/events/{event.slug}/run/registration/")
    expect(to.page.locator("body")).to_contain_text("Not checked in (1): Dan")
    to.page.click("summary:has-text('Close check-in')")
    to.page.click("form[action$='/run/check-in/close/'] button")
    to.page.wait_for_load_state("networkidle")
    expect(to.page.locator(".messages")).to_contain_text(
        "Removed (did not check in): Dan. Seated from the waitlist: nobody."
    )
    to.go(f"/events/{event.slug}/run/")
    to.page.click("button:has-text('Pair round 1')")
    to.page.wait_for_load_state("networkidle")
    expect(to.page.locator(".messages")).to_contain_text(re.compile("Round 1 is paired"))
    to.shot("registration-round-1-phone")
    event = Tournament.objects.get(pk=event.pk)
    seated = sorted(
        s.entry.player.name for s in event.rounds.get().seats.select_related("entry__player")
    )
    assert seated == ["Ann", "Cat", "Eve"]
    for visit in [*phones.values(), to, stranger]:
        assert not visit.errors, visit.errors
        visit.context.close()
