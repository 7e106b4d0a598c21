"""A player presses "This is me" on their page from a phone; the organizer approves it on the
store's Players page (desktop); the player's page then says "you", and a double tap of
Approve changes nothing more."""

import pytest
from playwright.sync_api import expect

from leagues.models import PlayerClaim
from tests.factories import (
    GameFactory,
    LeagueFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)

from .conftest import DESKTOP, PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def scene(db):
    league = LeagueFactory(name="Friday Commander", slug="friday")
    store = league.organization
    organizer_of(store, username="olive")
    ann = PlayerFactory(organization=store, name="Ann Archer")
    rivals = [PlayerFactory(organization=store) for _ in range(3)]
    GameFactory(league=league, players=[ann, *rivals])
    UserFactory(username="ann")
    return league, ann


def test_this_is_me_then_the_organizer_approves(browser, live_server, scene):
    _league, ann = scene
    phone = Visit(browser, live_server, PHONE)
    phone.login("ann")
    phone.go(f"/leagues/friday/players/{ann.pk}/")
    phone.page.click("button:has-text('This is me')")
    phone.page.wait_for_load_state("networkidle")
    expect(phone.page.locator(".messages")).to_contain_text("once an organizer approves")
    expect(phone.page.locator("main")).to_contain_text("waiting for")
    phone.shot("claim-waiting-phone")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    desk = Visit(browser, live_server, DESKTOP)
    desk.login("olive")
    desk.go(f"/leagues/friday/players/{ann.pk}/")
    desk.page.click("a:has-text('Players')")
    desk.page.wait_for_load_state("networkidle")
    claim = desk.page.locator(".claim", has_text="Ann Archer")
    expect(claim).to_contain_text("ann")
    desk.shot("claims-desktop")
    approve = claim.locator("button:has-text('Approve')")
    approve.dblclick()  # a double tap: approved once, the second told it was done
    desk.page.wait_for_load_state("networkidle")
    expect(desk.page.locator("tr", has_text="Ann Archer")).to_contain_text("ann")
    assert PlayerClaim.objects.get().status == PlayerClaim.Status.APPROVED
    ann.refresh_from_db()
    assert ann.user.username == "ann"

    phone.go(f"/leagues/friday/players/{ann.pk}/")
    expect(phone.page.locator("h1 .tag")).to_have_text("you")
    phone.go("/me/")
    expect(phone.page.locator("main")).to_contain_text("Ann Archer at")
    expect(phone.page.locator(".my-ratings")).to_contain_text("Friday Commander")
    phone.shot("my-guildhall-rated-phone")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for visit in (phone, desk):
        assert not visit.errors, visit.errors
        visit.context.close()
