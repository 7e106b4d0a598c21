"""A points season from a phone: the organizer creates it (pressing Create twice), chooses
its event, types a point table (a wrong row first: the row and the reason), and the table
follows the event's results by itself; a visitor reads it at 390 and 1366 px without
sideways scroll, and a player's page says which finishes count. Screenshots are kept."""

import datetime

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from seasons.models import Season
from tests.factories import LeagueFactory, OrganizationFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments.services.events import tournament_create

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)
LAPTOP = {"width": 1366, "height": 768}


def fits(visit: Visit, width: int) -> None:
    scroll = visit.page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{visit.page.url} is {scroll} px wide"


def test_a_season_is_set_up_and_follows_the_results(browser, live_server):
    store = OrganizationFactory(name="Dragon's Den", slug="dragons-den")
    league = LeagueFactory(organization=store, name="Friday Magic", slug="friday-magic")
    organizer_of(store, role=Role.ORGANIZER, username="olive")
    event = tournament_create(
        league=league,
        name="Friday Night Magic",
        date=datetime.date(2026, 11, 20),
        confirm_date=True,
    )
    register(event, "Ann Archer", "Bob Baker", "Cy Cole", "Dee Drake", "Eve Evans", "Finn Ford")

    olive = Visit(browser, live_server, PHONE)
    olive.login("olive")
    olive.go("/leagues/friday-magic/")
    olive.open_menu()  # on a phone the league's tabs are one menu
    olive.page.click(".league-nav a:has-text('Seasons')")
    olive.page.wait_for_load_state("networkidle")
    olive.page.click("a:has-text('+ New season')")
    olive.page.wait_for_load_state("networkidle")
    olive.page.fill("#id_name", "Winter 2026")
    olive.page.fill("#id_starts_on", "2026-11-01")
    olive.page.fill("#id_ends_on", "2027-01-31")
    olive.page.select_option("#id_tiebreak_1", "most_event_wins")
    olive.page.check("input[name=preset][value='store_points']")
    olive.shot("season-new-phone")
    fits(olive, PHONE["width"])
    olive.page.dblclick("button:has-text('Create season')")
    olive.page.wait_for_load_state("networkidle")
    # Whichever press answers last, the page is the season's events, and there is one season.
    expect(olive.page.locator(".messages")).to_contain_text("Winter 2026")
    expect(olive.page.locator("h2")).to_have_text("Which events count")
    assert Season.objects.count() == 1
    season = Season.objects.get()

    # Choose the event: it counts as a store night.
    olive.page.select_option(f"#id_event_{event.pk}", label="Store night")
    olive.shot("season-events-phone")
    fits(olive, PHONE["width"])
    olive.page.click("button:has-text('Save')")
    olive.page.wait_for_load_state("networkidle")
    expect(olive.page.locator(".messages")).to_contain_text("1 event changed")

    # The point table: a row paying more than the one above is refused, with its row.
    olive.page.click("a:has-text('Event types and points')")
    olive.page.wait_for_load_state("networkidle")
    olive.page.click(".season-type a:has-text('Edit')")
    olive.page.wait_for_load_state("networkidle")
    olive.page.fill("#id_placings", "1 = 5\n2 = 3\n4 = 4")
    olive.page.click("button:has-text('Save')")
    olive.page.wait_for_load_state("networkidle")
    expect(olive.page.locator(".error-summary")).to_contain_text(
        "row 3 (down to place 4): pays 4, more than the better places above (3)"
    )
    olive.shot("season-table-error-phone")
    fits(olive, PHONE["width"])
    olive.page.fill("#id_placings", "1 = 5\n2 = 3\n4 = 1")
    olive.page.click("button:has-text('Save')")
    olive.page.wait_for_load_state("networkidle")
    expect(olive.page.locator(".messages")).to_contain_text("re-scored")
    expect(olive.page.locator("main")).to_contain_text("3rd\u20134th")

    # Rounds are played at the tables; the season follows with no button to press.
    play_round(event)
    play_round(event)
    visitor = Visit(browser, live_server, PHONE)
    visitor.go(f"/leagues/friday-magic/seasons/{season.pk}/")
    rows = visitor.page.locator("table.season-table tbody tr")
    expect(rows).to_have_count(6)
    visitor.shot("season-table-phone")
    fits(visitor, PHONE["width"])
    first = rows.first
    expect(first.locator("td.rank")).to_have_text("1")
    leader = first.locator("td.name a").inner_text()
    first.locator("td.name a").click()
    visitor.page.wait_for_load_state("networkidle")
    expect(visitor.page.locator("h2")).to_have_text(leader)
    expect(visitor.page.locator("main")).to_contain_text("Counts: every Store night finish counts")
    visitor.shot("season-player-phone")
    fits(visitor, PHONE["width"])

    laptop = Visit(browser, live_server, LAPTOP)
    laptop.go(f"/leagues/friday-magic/seasons/{season.pk}/")
    expect(laptop.page.locator("table.season-table tbody tr")).to_have_count(6)
    laptop.shot("season-table-laptop")
    fits(laptop, LAPTOP["width"])
    laptop.go(f"/leagues/friday-magic/seasons/{season.pk}/types/")
    expect(laptop.page.locator("main")).to_contain_text("Plus 1 for entering")
    laptop.shot("season-types-laptop")
    fits(laptop, LAPTOP["width"])
    for visit in (olive, visitor, laptop):
        assert not visit.errors, visit.errors
        visit.context.close()
