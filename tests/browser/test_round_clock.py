"""The round's clock from the TO's phone: the players are seated, the TO starts the clock,
gives five minutes more after a judge call; a double tap moves it once; the players' pairings
page shows the new time."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tournaments.models import Round

from .conftest import DESKTOP, PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)


def hhmm(moment) -> str:
    return f"{timezone.localtime(moment):%H:%M}"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_to_starts_the_clock_and_gives_five_minutes(browser, live_server, viewport):
    from tests.tournaments.play import paired_pods

    league = LeagueFactory(name="cEDH League", slug="cedh", game_label="cEDH")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = paired_pods(league, name="cEDH Friday")
    round_ = Round.objects.get(tournament=event, number=1)
    Round.objects.filter(pk=round_.pk).update(ends_at=timezone.now() - timedelta(minutes=10))

    judge = Visit(browser, live_server, viewport)
    try:
        judge.login("jude")
        judge.go(f"/events/{event.slug}/run/")
        page = judge.page
        clock = page.locator("#round-clock")
        expect(clock).to_be_visible()
        clock.get_by_role("button", name="Start the clock now (80 min)").click()
        page.wait_for_load_state("networkidle")
        started = Round.objects.get(pk=round_.pk).ends_at
        assert started > timezone.now() + timedelta(minutes=79)
        expect(page.locator(".messages")).to_contain_text(f"Time is up at {hhmm(started)}.")
        expect(clock).to_contain_text(f"Time is up at {hhmm(started)}")

        # A judge call at a table: five more minutes, tapped twice on a slow phone.
        plus = clock.get_by_role("button", name="5 more minutes")
        plus.dblclick()
        later = started + timedelta(minutes=5)
        expect(page.locator("#round-clock")).to_contain_text(f"Time is up at {hhmm(later)}")
        page.wait_for_load_state("networkidle")
        assert Round.objects.get(pk=round_.pk).ends_at == later
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        judge.shot(f"console-clock-{viewport['width']}")

        judge.go(f"/events/{event.slug}/")
        expect(page.locator("h2").first).to_contain_text(f"ends {hhmm(later)}")
    finally:
        judge.context.close()
    assert not judge.errors, f"JavaScript errors in the page: {judge.errors}"
