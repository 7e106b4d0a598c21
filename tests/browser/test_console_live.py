"""The TO console follows the round by itself, in a phone's browser (views.event_run_live).

A judge keeps the console open while another judge enters a result and a player reports from
their phone: without a reload (a JavaScript marker a reload would wipe), the changed cards
come in, the unchanged ones stay the very same elements, and the pod whose full finishing
order the judge has opened is left alone until they are done with it. When the round ends on
another screen, the console says so and links to the new state.
"""

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tournaments.console.views import board
from tournaments.domain.result import Result
from tournaments.models import Round, Table
from tournaments.services import registration as registration_services
from tournaments.services.entries import entry_remove
from tournaments.services.events import tournament_create
from tournaments.services.registration import (
    check_in_open,
    registration_join,
    registration_settings_set,
)
from tournaments.services.reports import report_submit
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

from .conftest import DESKTOP, PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]
PLAYERS += ["Ivy", "Jo", "Kit", "Lu", "Mo", "Ned", "Oz", "Pip"]  # four pods
POLL = 1  # seconds between polls here (2 on the site)
WAIT = 10_000  # ms: several polls


@pytest.fixture
def event(db, monkeypatch):
    from tests.tournaments.play import register

    monkeypatch.setattr(board, "CONSOLE_POLL_SECONDS", POLL)
    league = LeagueFactory(name="cEDH League", slug="cedh", game_label="cEDH")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = tournament_create(league=league, name="cEDH Friday", format="pods")
    register(event, *PLAYERS)
    round_pair(tournament=event)
    return event


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_console_takes_in_other_screens_changes_and_keeps_the_judges_work(
    browser, live_server, event, viewport
):
    judge = Visit(browser, live_server, viewport)
    try:
        judge.login("jude")
        judge.go(f"/events/{event.slug}/run/")
        page = judge.page
        first, second, third, fourth = Table.objects.filter(round__tournament=event).order_by(
            "number"
        )
        expect(page.locator("article.pod")).to_have_count(4)
        # Marks a reload would wipe, and one on every card element as loaded.
        page.evaluate(
            "window.stillHere = true;"
            "document.querySelectorAll('article.pod').forEach(a => a.dataset.loaded = 'yes')"
        )
        # The judge opens pod 3's full finishing order and picks a first place.
        box3 = page.locator(f"#table-{third.pk}")
        box3.locator("summary").click()
        expect(box3.locator("select").first).to_be_visible()
        box3.locator("select").first.select_option("1")

        # Elsewhere: another judge enters pod 1, a player reports pod 2, pod 3 gets a result.
        seats1 = list(first.seats.select_related("entry__player").order_by("position"))
        table_report(table=first, winner=seats1[1].entry)
        seats2 = list(second.seats.select_related("entry__player").order_by("position"))
        report_submit(table=second, entry=seats2[0].entry, result=Result(winner=seats2[0].entry_id))
        table_report(table=third, draw=True)

        box1, box2 = page.locator(f"#table-{first.pk}"), page.locator(f"#table-{second.pk}")
        expect(box1).to_have_attribute("data-reported", "1", timeout=WAIT)
        expect(box1.locator("button.seat.won .name")).to_have_text(seats1[1].entry.player.name)
        expect(box2).to_contain_text(f"reported by {seats2[0].entry.player.name}", timeout=WAIT)
        expect(page.locator("#report-counts")).to_contain_text("1 waiting for confirmation")
        expect(page.locator("#round-status")).to_contain_text("Waiting for 2 pods: 2, 4")
        expect(box1).not_to_have_attribute("data-loaded", "yes")  # a new element
        # Pod 4 did not change: the very element loaded with the page.
        expect(page.locator(f"#table-{fourth.pk}")).to_have_attribute("data-loaded", "yes")
        # Pod 3: the judge is working in it, so it stays as they left it.
        page.wait_for_timeout(3 * POLL * 1000)
        expect(box3).to_have_attribute("data-loaded", "yes")
        expect(box3).to_have_attribute("data-reported", "0")
        expect(box3.locator("select").first).to_have_value("1")
        expect(box3.locator(".changed-elsewhere")).to_have_text(
            "Changed on another screen while you were entering this."
        )
        assert page.evaluate("window.stillHere") is True
        judge.shot(f"console-live-{viewport['width']}")

        # The round ends on another screen: the console says so, with a way to it.
        table_report(table=second, winner=seats2[0].entry)
        table_report(table=fourth, draw=True)
        round_end(round_=Round.objects.get(tournament=event, number=1))
        notice = page.locator("#console-live .message")
        expect(notice).to_contain_text("The rounds changed on another screen", timeout=WAIT)
        expect(notice).to_contain_text("round 1 is complete")
        assert page.evaluate("window.stillHere") is True
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        notice.locator("a", has_text="Show it").click()
        expect(page.locator("button", has_text="Pair round 2")).to_be_visible()
    finally:
        judge.context.close()
    assert not judge.errors, f"JavaScript errors in the page: {judge.errors}"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_check_ins_come_to_the_console_and_an_opened_player_is_kept(
    browser, live_server, db, monkeypatch, viewport
):
    """Before round 1 the TO waits at the console for the check-ins, made on the players'
    phones: the line and the list follow without a reload. While the TO has one player's
    actions open, the list is left as it is, with a note and a link to the list as it is now."""
    from tests.factories import PlayerFactory
    from tournaments.models import Registration

    monkeypatch.setattr(board, "CONSOLE_POLL_SECONDS", POLL)
    league = LeagueFactory(name="cEDH League", slug="cedh", game_label="cEDH")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = tournament_create(league=league, name="cEDH Friday", format="pods")
    event = registration_settings_set(tournament=event, open=True, cap=None, deadline=None, note="")
    for name in PLAYERS[:5]:
        player = PlayerFactory(organization=league.organization, name=name)
        registration_join(tournament=event, player=player)
    check_in_open(tournament=event)
    here = {r.player.name: r for r in Registration.objects.filter(tournament=event)}

    judge = Visit(browser, live_server, viewport)
    try:
        judge.login("jude")
        judge.go(f"/events/{event.slug}/run/")
        page = judge.page
        page.evaluate("window.stillHere = true")
        check_in = page.locator("#check-in")
        expect(check_in).to_contain_text("5 not checked in (Ann, Bob, Cy, Dee, Eve)")
        for name in ("Ann", "Bob", "Cy"):
            registration_services.check_in(registration=here[name])
        expect(check_in).to_contain_text("2 not checked in (Dee, Eve)", timeout=WAIT)
        registration_join(
            tournament=event, player=PlayerFactory(organization=league.organization, name="Finn")
        )
        expect(page.locator("#player-count")).to_have_text("· 6", timeout=WAIT)
        expect(page.locator("#entries .entry-name")).to_have_count(6)
        expect(page.locator("#structure")).to_contain_text("6 players:")
        judge.shot(f"console-check-in-{viewport['width']}")

        # The TO opens Eve's actions: a drop elsewhere leaves the list as the TO has it.
        eve = page.locator("#entries li", has_text="Eve")
        eve.locator("summary").click()
        expect(eve.locator("details")).to_have_attribute("open", "")
        entry_remove(entry=here["Dee"].entry)
        expect(page.locator("#player-count")).to_have_text("· 5", timeout=WAIT)
        note = page.locator("#entries").locator("xpath=preceding-sibling::p[1]")
        expect(note).to_contain_text("The players changed on another screen")
        expect(page.locator("#entries .entry-name")).to_have_count(6)
        assert page.evaluate("window.stillHere") is True
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        judge.shot(f"console-players-kept-{viewport['width']}")
        note.locator("a").click()
        expect(page.locator("#entries .entry-name")).to_have_count(5)
        expect(page.locator("#check-in")).to_contain_text("2 not checked in (Eve, Finn)")
    finally:
        judge.context.close()
    assert not judge.errors, f"JavaScript errors in the page: {judge.errors}"
