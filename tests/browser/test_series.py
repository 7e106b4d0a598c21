"""A series across two stores from a phone: the host's owner invites a store by its address,
that store's organizer sees the invitation but may not answer it, its owner accepts (pressing
twice) and chooses the store's event, a third store's owner accepts from a laptop; a visitor
reads the series' table, where a player of both stores with one account is one line, at 390
and 1366 px. Screenshots are kept."""

import datetime

import pytest
from playwright.sync_api import expect

from leagues.models import Player, Role
from seasons.models import SeriesMember
from seasons.series import series_create, series_events_set, series_invite
from seasons.services import season_create
from tests.factories import LeagueFactory, OrganizationFactory, UserFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments.services.events import tournament_create

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)
LAPTOP = {"width": 1366, "height": 768}
DAY = datetime.date(2026, 11, 20)


def fits(visit: Visit, width: int) -> None:
    scroll = visit.page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{visit.page.url} is {scroll} px wide"


def settle(visit: Visit) -> None:
    visit.page.wait_for_load_state("networkidle")


def test_a_store_is_invited_accepts_and_its_event_counts_in_the_series(browser, live_server):
    alpha = OrganizationFactory(name="Alpha Games", slug="alpha")
    beta = OrganizationFactory(name="Beta Cards", slug="beta")
    organizer_of(alpha, role=Role.OWNER, username="owen")
    organizer_of(beta, role=Role.OWNER, username="bea")
    organizer_of(beta, role=Role.ORGANIZER, username="bob")
    alpha_league = LeagueFactory(organization=alpha, slug="alpha-friday")
    # Public: a private league's events never count in a series (tests/seasons/test_series_private).
    beta_league = LeagueFactory(organization=beta, slug="beta-thursday", is_public=True)
    series = series_create(organization=alpha, name="Coast Commander Cup")
    season = season_create(
        series=series,
        name="Cup 2026",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        preset="store_points",
    )
    sam = UserFactory(username="sam")
    events = {}
    for store, league in ((alpha, alpha_league), (beta, beta_league)):
        Player.objects.create(organization=store, name="Sam Shared", user=sam)
        event = tournament_create(
            league=league, name=f"{store.name} night", format="1v1", date=DAY, confirm_date=True
        )
        register(event, "Sam Shared", f"{store.name} regular", "Kim", "Lou")
        events[store.slug] = event
    series_events_set(
        season=season,
        organization=alpha,
        choices={events["alpha"].pk: season.event_types.get().pk},
    )

    # The host's owner invites Beta by its address, from a phone.
    owen = Visit(browser, live_server, PHONE)
    owen.login("owen")
    owen.go(f"/series/{series.slug}/manage/")
    owen.page.fill("#id_store", "/stores/beta/")  # as the docs say
    owen.shot("series-invite-phone")
    fits(owen, PHONE["width"])
    owen.page.click("button:has-text('Invite')")
    settle(owen)
    expect(owen.page.locator(".messages")).to_contain_text("Beta Cards invited")
    expect(owen.page.locator(".league-list").first).to_contain_text("Invited")

    # Beta's organizer sees it, and that an owner answers it.
    bob = Visit(browser, live_server, LAPTOP)
    bob.login("bob")
    bob.go("/organizations/beta/series/")
    invitation = bob.page.locator(".card", has_text="Coast Commander Cup")
    expect(invitation).to_contain_text("An owner of Beta Cards accepts or declines.")
    expect(invitation.locator("button")).to_have_count(0)
    bob.shot("series-invitation-organizer-laptop")

    # Beta's owner accepts from a phone, pressing twice.
    bea = Visit(browser, live_server, PHONE)
    bea.login("bea")
    bea.go("/organizations/beta/store/")
    bea.page.click("a:has-text('Series and invitations')")
    settle(bea)
    bea.shot("series-invitation-phone")
    fits(bea, PHONE["width"])
    # The second press as its own request, from a page opened before the first (a double click
    # raced: the browser showed whichever of its two answers came last).
    again = Visit(browser, live_server, PHONE)
    again.login("bea")
    again.go(bea.page.url.removeprefix(again.base))
    bea.page.click("button:has-text('Accept')")
    settle(bea)
    expect(bea.page.locator(".messages")).to_contain_text("Coast Commander Cup")
    again.page.click("button:has-text('Accept')")
    settle(again)
    expect(again.page.locator(".messages")).to_contain_text(
        "Beta Cards has already accepted the invitation."
    )
    again.context.close()
    member = SeriesMember.objects.get(series=series, organization=beta)
    assert member.status == "accepted" and member.decided_by.username == "bea"
    # Then chooses Beta's event for the season.
    bea.page.click("a:has-text('Choose our events for Cup 2026')")
    settle(bea)
    bea.page.select_option(f"#id_event_{events['beta'].pk}", label="Store night")
    bea.shot("series-store-events-phone")
    fits(bea, PHONE["width"])
    bea.page.click("button:has-text('Save')")
    settle(bea)
    expect(bea.page.locator(".messages")).to_contain_text("1 event changed")

    # A third store's owner accepts from a laptop, at 1366 px (invited by the service: the
    # invitation form was pressed above).
    gamma = OrganizationFactory(name="Gamma Games", slug="gamma")
    organizer_of(gamma, role=Role.OWNER, username="gil")
    series_invite(series=series, organization=gamma)
    gil = Visit(browser, live_server, LAPTOP)
    gil.login("gil")
    gil.go("/organizations/gamma/series/")
    invitation = gil.page.locator(".card", has_text="Coast Commander Cup")
    expect(invitation.locator("button:has-text('Accept')")).to_be_visible()
    gil.shot("series-invitation-laptop")
    fits(gil, LAPTOP["width"])
    invitation.locator("button:has-text('Accept')").click()
    settle(gil)
    expect(gil.page.locator(".messages")).to_contain_text("Coast Commander Cup")
    expect(gil.page.locator("a:has-text('Choose our events for Cup 2026')")).to_be_visible()
    gil.shot("series-accepted-laptop")
    fits(gil, LAPTOP["width"])
    member = SeriesMember.objects.get(series=series, organization=gamma)
    assert member.status == "accepted" and member.decided_by.username == "gil"

    # Both events play a round (the after-commit catch-up of a live server re-scores it).
    for event in events.values():
        play_round(
            event,
            decide=lambda table, seats: next(
                (s.entry for s in seats if s.entry.player.name == "Sam Shared"), seats[0].entry
            ),
        )

    # A visitor reads the series' table: Sam once, with both stores and both events.
    for size, label in ((PHONE, "phone"), (LAPTOP, "laptop")):
        visitor = Visit(browser, live_server, size)
        visitor.go(f"/series/{series.slug}/seasons/{season.pk}/")
        table = visitor.page.locator(".series-table tbody")
        expect(table.locator("tr", has_text="Sam Shared")).to_have_count(1)
        sam_row = table.locator("tr", has_text="Sam Shared")
        expect(sam_row.locator("td.num").first).to_have_text("8")
        expect(sam_row).to_contain_text("Alpha Games, Beta Cards")
        expect(visitor.page.locator("h2", has_text="Events")).to_be_visible()
        expect(visitor.page.locator(".league-list")).to_contain_text("Beta Cards night")
        # The series names Beta's event and links none of its store's pages.
        assert visitor.page.locator(f"a[href*='{events['beta'].slug}']").count() == 0
        visitor.shot(f"series-table-{label}")
        fits(visitor, size["width"])
        visitor.context.close()
    for visit in (owen, bob, bea, gil):
        assert not visit.errors, visit.errors
        visit.context.close()
