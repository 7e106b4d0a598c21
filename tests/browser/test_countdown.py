"""The round's clock counts down where the round is played (issue 43): on a player's seat card
(and on with the phone offline), on the TO's console and on the judge desk, from the time it
is up; a timer a screen reader is not told of every second. The store is in New York, the
phone in India with a 12-hour locale: every time is the store's, 24-hour."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tournaments.models import Round, Table
from tournaments.selectors.reports import walk_in_token

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

LEFT = re.compile(r"^\d+:\d\d left$")
ZONE = "America/New_York"


def ticks(countdown) -> None:
    """The countdown shows the time left, and a moment later less of it."""
    expect(countdown).to_be_visible()
    expect(countdown).to_have_text(LEFT)
    assert countdown.get_attribute("aria-live") == "off"
    assert countdown.get_attribute("role") == "timer"
    first = countdown.inner_text()
    expect(countdown).not_to_have_text(first, timeout=3000)
    expect(countdown).to_have_text(LEFT)


def test_the_seat_card_the_console_and_the_desk_count_down(browser, live_server):
    from tests.tournaments.play import paired_pods

    league = LeagueFactory(name="cEDH League", slug="cedh", organization__time_zone=ZONE)
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = paired_pods(league, name="cEDH Friday")
    ends = (timezone.now() + timedelta(minutes=30)).replace(microsecond=0)
    Round.objects.filter(tournament=event).update(ends_at=ends)
    shown = f"{ends.astimezone(ZoneInfo(ZONE)):%H:%M}"
    entry = Table.objects.get(round__tournament=event, number=1).seats.first().entry

    phone = Visit(browser, live_server, PHONE, timezone_id="Asia/Kolkata", locale="en-US")
    try:
        phone.go(f"/events/{event.slug}/me/{walk_in_token(entry)}/")
        page = phone.page
        timer = page.locator(".round-timer")
        expect(timer).to_contain_text(f"Time is up at {shown} New York time")
        ticks(timer.locator(".round-countdown [role=timer]"))
        # The phone's own zone and 12-hour locale change nothing in a time a script writes.
        assert page.evaluate(f"GuildhallClock.hhmm('{ends.isoformat()}', '{ZONE}')") == shown
        phone.context.set_offline(True)  # counted from the page alone
        ticks(timer.locator(".round-countdown [role=timer]"))
        phone.shot("countdown-seat-card")
    finally:
        phone.context.close()
    assert not phone.errors, f"JavaScript errors in the page: {phone.errors}"

    judge = Visit(browser, live_server, PHONE, timezone_id="Asia/Kolkata", locale="en-US")
    try:
        judge.login("jude")
        judge.go(f"/events/{event.slug}/run/")
        head = judge.page.locator("#round-time")
        expect(head).to_contain_text(f"time is up at {shown}")
        ticks(head.locator(".round-countdown [role=timer]"))
        judge.go(f"/events/{event.slug}/judge/")
        desk = judge.page.locator(".desk-clock")
        expect(desk).to_contain_text(f"time is up at {shown}")
        ticks(desk.locator(".round-countdown [role=timer]"))
    finally:
        judge.context.close()
    assert not judge.errors, f"JavaScript errors in the page: {judge.errors}"
