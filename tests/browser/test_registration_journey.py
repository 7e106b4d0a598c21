"""Players register from their phones, one lands on the waitlist and is promoted, they check in
by the QR's page and by their own link, and the TO drops the no-show and pairs round 1.

Eve has no account at first: she signs up on her phone, verifies her address from the mail,
types the claim code the organizer made for her player, registers (the waitlist), is
promoted, checks in and names her commander."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, PlayerFactory, UserFactory, organizer_of
from tournaments.models import Registration, Tournament
from tournaments.services.events import tournament_create
from tournaments.services.registration import registration_settings_set

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


@pytest.fixture
def event(db):
    league = LeagueFactory(name="cEDH League", slug="cedh", game_label="cEDH")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    organizer_of(league.organization, role=Role.ORGANIZER, username="olive")
    for name in PLAYERS:
        user = UserFactory(username=name.lower()) if name != "Eve" else None
        PlayerFactory(organization=league.organization, name=name, user=user)
    event = tournament_create(league=league, name="cEDH Friday", format="pods")
    return registration_settings_set(
        tournament=event, open=True, cap=4, deadline=None, note="Fee 10 · doors at 18:30"
    )


def fits_the_phone(visit):
    return visit.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def eve_signs_up_and_claims_her_player(browser, live_server) -> Visit:
    """The organizer makes Eve's claim code on his phone; Eve signs up, verifies, claims."""
    olive = Visit(browser, live_server, PHONE)
    olive.login("olive")
    olive.go("/organizations/" + Tournament.objects.get().league.organization.slug + "/players/")
    olive.page.fill("#player-q", "Eve")
    olive.page.click("button:has-text('Find')")
    olive.page.wait_for_load_state("networkidle")
    olive.page.locator("tr", has_text="Eve").locator("button", has_text="Claim code").click()
    olive.page.wait_for_load_state("networkidle")
    code = olive.page.locator(".claim-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code), code
    olive.shot("claim-code-phone")
    assert fits_the_phone(olive)

    eve = Visit(browser, live_server, PHONE)
    eve.go("/accounts/signup/")
    eve.shot("signup-phone")
    assert fits_the_phone(eve)
    eve.page.fill("#id_email", "eve@players.example")
    eve.page.fill("#id_username", "eve")
    eve.page.fill("#id_password1", "short")
    eve.page.fill("#id_password2", "short")
    eve.page.click("button[type=submit]")
    eve.page.wait_for_load_state("networkidle")
    expect(eve.page.locator("body")).to_contain_text("too short")  # nothing made
    eve.page.fill("#id_password1", "eve-plays-tymna-kraum")
    eve.page.fill("#id_password2", "eve-plays-tymna-kraum")
    eve.page.click("button[type=submit]")
    eve.page.wait_for_load_state("networkidle")
    expect(eve.page.locator("body")).to_contain_text("Verify Your Email Address")
    link = re.search(r"http://[^/]+(/accounts/confirm-email/\S+/)", mail.outbox[-1].body).group(1)
    eve.go(link)
    eve.page.click("button[type=submit]")
    eve.page.wait_for_load_state("networkidle")

    eve.go("/me/")
    expect(eve.page.locator("body")).to_contain_text("not one of a store's players yet")
    eve.page.fill("#id_code", "wxyz-2345")  # a wrong code first: refused, nothing linked
    eve.page.click("button:has-text('Claim')")
    eve.page.wait_for_load_state("networkidle")
    expect(eve.page.locator(".errorlist")).to_contain_text("No player has this claim code")
    eve.page.fill("#id_code", code.lower().replace("-", " "))
    eve.page.click("button:has-text('Claim')")
    eve.page.wait_for_load_state("networkidle")
    expect(eve.page.locator(".messages")).to_contain_text("You are Eve")
    eve.shot("my-guildhall-phone")
    assert fits_the_phone(eve)
    olive.context.close()
    return eve


def test_players_register_wait_check_in_and_round_1_pairs_who_came(browser, live_server, event):
    phones = {}
    for name in PLAYERS:
        if name == "Eve":
            phone = phones[name] = eve_signs_up_and_claims_her_player(browser, live_server)
        else:
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
    # Eve names her commander from her phone.
    phones["Eve"].go(f"/events/{event.slug}/my-deck/")
    eve.fill("#id_name", "Tymna / Kraum")
    eve.click("button:has-text('Save the deck')")
    eve.wait_for_load_state("networkidle")
    assert Registration.objects.get(player__name="Eve").entry.deck_name == "Tymna / Kraum"

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


def test_the_seat_a_no_show_frees_goes_to_the_waitlist_not_to_a_walk_in(
    browser, live_server, event
):
    """Issue 43's evening, from a prepared scene: the event full, Eve first on the waitlist
    and checked in, the TO adds a walk-in past the cap on the console, Dan does not come. The
    close seats Eve; after round 1 the Registration page has no check-in code and Eve's page
    says she plays, not her place on the waitlist."""
    from tournaments.services.registration import check_in, check_in_open, registration_join

    PlayerFactory(organization=event.league.organization, name="Walt")
    people = {p.name: p for p in event.league.organization.players.all()}
    regs = {n: registration_join(tournament=event, player=people[n]) for n in PLAYERS}
    assert regs["Eve"].status == "waitlisted"
    check_in_open(tournament=event)
    for name in ("Ann", "Bob", "Cat", "Eve"):
        check_in(registration=regs[name])

    to = Visit(browser, live_server, PHONE)
    to.login("jude")
    to.go(f"/events/{event.slug}/run/")
    to.page.fill("input[name='name']", "Walt")  # a regular of the store, at the door
    to.page.click("form[action$='/register/'] button[type=submit]")
    to.page.wait_for_load_state("networkidle")
    expect(to.page.locator(".messages")).to_contain_text("Registered Walt")
    to.go(f"/events/{event.slug}/run/registration/")
    to.page.click("summary:has-text('Close check-in')")
    to.page.click("form[action$='/run/check-in/close/'] button")
    to.page.wait_for_load_state("networkidle")
    expect(to.page.locator(".messages")).to_contain_text(
        "Removed (did not check in): Dan. Seated from the waitlist: Eve."
    )
    to.shot("registration-waitlist-seated-phone")
    assert fits_the_phone(to)
    to.go(f"/events/{event.slug}/run/")
    to.page.click("button:has-text('Pair round 1')")
    to.page.wait_for_load_state("networkidle")
    seated = sorted(
        s.entry.player.name
        for s in Tournament.objects.get(pk=event.pk)
        .rounds.get()
        .seats.select_related("entry__player")
    )
    assert seated == ["Ann", "Bob", "Cat", "Eve", "Walt"]
    to.go(f"/events/{event.slug}/run/registration/")
    expect(to.page.locator(".check-in-qr")).to_have_count(0)
    expect(to.page.locator("body")).to_contain_text("Round 1 is paired: check-in is over.")
    to.shot("registration-after-round-1-phone")
    assert fits_the_phone(to)
    eve = Visit(browser, live_server, PHONE)
    eve.go(f"/events/{event.slug}/check-in/{regs['Eve'].token}/")
    expect(eve.page.locator(".check-in")).to_contain_text("Eve · playing")
    expect(eve.page.locator(".check-in")).not_to_contain_text("waitlist")
    for visit in (to, eve):
        assert not visit.errors, visit.errors
        visit.context.close()
