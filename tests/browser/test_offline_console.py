"""The console keeps working offline (issue 34, section 2), on a 390 px phone.

The TO's phone loses the network (`context.set_offline`): two results tapped go into the queue
on the phone, the banner says "Offline since hh:mm · 2 results waiting" and both cards say
what waits. Meanwhile another judge (online) enters a different result for a third table the
TO then taps offline too. Back online, the queue is sent in order: the two results are stored
once each (the database says so), the third comes back as a conflict shown on its card, and
the other judge's result stays. A second flush (the page reloaded while sending, the flush
pressed twice) stores nothing twice. A player's page opened offline shows the last seat it
knew, "as of hh:mm".
"""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from audit.models import AuditEntry
from audit.summary import Summary
from leagues.models import Game, Role
from tests.factories import LeagueFactory, organizer_of
from tournaments.models import Table
from tournaments.selectors.reports import walk_in_token
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

from .a11y import unreadable_in_either_scheme
from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]


@pytest.fixture
def event(db):
    from tests.tournaments.play import register

    league = LeagueFactory(name="Modern League", slug="modern")
    organizer_of(league.organization, role=Role.JUDGE, username="olive")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = tournament_create(league=league, name="Modern Friday", format="1v1")
    register(event, *PLAYERS)
    round_pair(tournament=event)
    return event


@pytest.fixture(autouse=True)
def no_live_console(monkeypatch):
    """The console's live poll (every 2 s) is not under test: one in flight at the moment the
    network is cut fails in htmx's own code, at a moment no test can choose. The queue is
    sent on the browser's `online` event and by the page's own retry."""
    from tournaments.console.views import board

    monkeypatch.setattr(board, "CONSOLE_POLL_SECONDS", 3600)


@pytest.fixture
def phones(browser, live_server):
    opened = []

    def phone(username: str | None = None) -> Visit:
        visit = Visit(browser, live_server, PHONE)
        opened.append(visit)
        if username:
            visit.login(username)
        return visit

    yield phone
    for visit in opened:
        visit.context.close()
    for visit in opened:
        # The conflict under test answers 409 on purpose; htmx reports a poll cut by the
        # outage; nothing else may fail.
        unexpected = [
            e
            for e in visit.errors
            if not e.startswith("409 for") and "htmx:sendError" not in e and "htmx:" not in e
        ]
        assert not unexpected, f"JavaScript errors in the page: {unexpected}"


def tables(event) -> list[Table]:
    return list(Table.objects.filter(round__tournament=event).order_by("number"))


def card(page, table: Table):
    return page.locator(f"#table-{table.pk}")


def worker_ready(visit: Visit):
    """Wait until the service worker controls the page and keeps its copy (a reload under it)."""
    visit.page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.ready")
    visit.page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    visit.page.reload()
    visit.page.wait_for_load_state("networkidle")
    visit.page.wait_for_function("navigator.serviceWorker.controller !== null")


def queued(page) -> int:
    return page.evaluate("window.GuildhallOffline.queued().then(items => items.length)")


def test_results_tapped_offline_are_stored_once_and_a_conflict_is_shown(event, phones):
    to = phones("olive")
    to.go(f"/events/{event.slug}/run/")
    worker_ready(to)
    one, two, three, four = tables(event)

    # The event's state is on the phone for the offline pairing (GuildhallOffline.eventState).
    to.page.wait_for_function(
        "window.GuildhallOffline.eventState().then(s => s && s.state.rounds.length === 1)",
        polling=200,
    )
    to.context.set_offline(True)
    card(to.page, one).get_by_role("button", name="2-0", exact=True).click()
    card(to.page, two).get_by_role("button", name="0-2", exact=True).click()
    banner = to.page.locator("#offline-banner")
    expect(banner).to_have_text(re.compile(r"Offline since \d\d:\d\d · 2 results waiting"))
    expect(card(to.page, one).locator(".offline-queued")).to_contain_text("Waiting to send: 2-0")
    expect(card(to.page, two).locator(".offline-queued")).to_contain_text("Waiting to send: 0-2")
    expect(card(to.page, one)).to_have_class(re.compile(r"\bqueued\b"))
    assert not Table.objects.filter(pk__in=[one.pk, two.pk], reported=True).exists()

    # Another judge, online, enters table 3's result meanwhile; the TO taps another offline.
    table_report(
        table=three,
        winner=three.seats.order_by("position")[1].entry,
        expected_version=0,
        by=User.objects.get(username="jude"),
    )
    card(to.page, three).get_by_role("button", name="2-0", exact=True).click()
    expect(banner).to_contain_text("3 results waiting")
    # A plain form (End round) is held back offline rather than open an error page.
    to.page.get_by_role("button", name="End round 1").click()
    expect(banner).to_contain_text("Not sent: this needs the site")
    assert to.page.url.endswith(f"/events/{event.slug}/run/")
    to.shot("offline-console-queued")

    to.context.set_offline(False)
    expect(banner).to_contain_text("1 table to settle", timeout=15_000)
    assert queued(to.page) == 0
    for table, winner_seat in ((one, 1), (two, 2)):
        table.refresh_from_db()
        assert table.reported and table.version == 1
        assert table.winner_id == table.seats.get(position=winner_seat).entry_id
    # Stored exactly once: one game each, one log entry each, saying it came from the queue.
    assert Game.objects.filter(notes__contains="Modern Friday").count() == 3
    logged = AuditEntry.objects.filter(object_id__in=[one.pk, two.pk])
    assert logged.count() == 2
    assert all("queue" in e.actor_label for e in logged)
    # The conflict: the other judge's result stays, the TO's is kept on the phone to settle.
    three.refresh_from_db()
    assert three.version == 1
    assert three.winner_id == three.seats.get(position=2).entry_id
    settle = card(to.page, three).locator(".offline-settle")
    expect(settle).to_contain_text("Entered offline at")
    expect(settle).to_contain_text("Another result was entered meanwhile")
    expect(card(to.page, one).locator(".offline-queued")).to_have_count(0)
    # The round's header follows the answers: only the fourth table waits for its result.
    expect(to.page.locator("#round-status")).to_have_text(
        re.compile(r"^Waiting for 1 table: 4\b")  # then, on a phone, "Show only these"
    )
    assert to.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The banner and the note to settle are readable in both schemes (issue 33: their colours
    # were written into the stylesheet and stayed cream under the dark scheme's light text).
    expect(banner).to_be_visible()
    assert unreadable_in_either_scheme(to) == []
    to.shot("offline-console-settle")

    # Settled: the note goes, the table as stored stays.
    settle.get_by_role("button", name="Settled").click()
    expect(card(to.page, three).locator(".offline-settle")).to_have_count(0)
    expect(banner).to_be_hidden()
    assert four.seats.count() == 2


def test_a_double_flush_stores_once(event, phones):
    to = phones("olive")
    to.go(f"/events/{event.slug}/run/")
    worker_ready(to)
    one = tables(event)[0]

    to.context.set_offline(True)
    card(to.page, one).get_by_role("button", name="2-1", exact=True).click()
    expect(to.page.locator("#offline-banner")).to_contain_text("1 result waiting")

    # The server answers slowly: the page is reloaded while the first flush is on its way,
    # and the reloaded page flushes too, twice at once.
    def slow(route):
        to.page.wait_for_timeout(1500)
        route.continue_()

    to.page.route("**/report/", slow)
    to.context.set_offline(False)
    to.page.evaluate("window.GuildhallOffline.flush()")
    to.page.reload()
    to.page.wait_for_load_state("networkidle")
    to.page.evaluate(
        "Promise.all([window.GuildhallOffline.flush(), window.GuildhallOffline.flush()])"
    )
    to.page.wait_for_function(
        "window.GuildhallOffline.queued().then(items => items.length === 0)", polling=500
    )
    expect(to.page.locator("#offline-banner")).to_be_hidden(timeout=15_000)
    one.refresh_from_db()
    assert one.reported and one.version == 1
    assert AuditEntry.objects.filter(object_id=one.pk).count() == 1
    assert Game.objects.filter(notes__contains="Modern Friday").count() == 1


def test_the_server_gone_with_the_wifi_up_queues_the_tap_too(event, phones):
    """The phone has a network but the site does not answer (the tap's request fails): the
    result waits on the phone all the same, and is sent when the site answers again."""
    to = phones("olive")
    to.go(f"/events/{event.slug}/run/")
    one = tables(event)[0]

    def gone(route):
        route.abort("connectionrefused")

    to.page.route("**/events/**", gone)
    card(to.page, one).get_by_role("button", name="1-2", exact=True).click()
    banner = to.page.locator("#offline-banner")
    expect(banner).to_have_text(re.compile(r"Offline since \d\d:\d\d · 1 result waiting"))
    one.refresh_from_db()
    assert not one.reported

    to.page.unroute("**/events/**", gone)
    expect(banner).to_be_hidden(timeout=20_000)
    one.refresh_from_db()
    assert one.reported and one.version == 1
    assert one.winner_id == one.seats.get(position=2).entry_id
    assert Game.objects.filter(notes__contains="Modern Friday").count() == 1


def test_a_players_page_offline_shows_the_last_seat_as_of(event, phones):
    ann = tables(event)[0].seats.get(position=1).entry
    player = phones()
    page_url = f"/events/{event.slug}/me/{walk_in_token(ann)}/"
    player.go(page_url)
    worker_ready(player)
    seat = player.page.locator(".my-seat").inner_text()

    player.context.set_offline(True)
    player.page.reload()
    player.page.wait_for_load_state("domcontentloaded")
    # The page came from the copy the service worker kept (it marks the copies it serves).
    assert player.page.evaluate("document.documentElement.hasAttribute('data-offline-copy')")
    expect(player.page.locator(".my-seat")).to_have_text(seat)
    expect(player.page.locator("#offline-banner")).to_have_text(
        re.compile(r"your seat as of \d\d:\d\d")
    )
    assert player.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    player.shot("offline-player-seat")

    player.context.set_offline(False)
    expect(player.page.locator("#offline-banner")).to_be_hidden(timeout=20_000)


def test_a_players_report_tapped_offline_waits_on_their_phone_and_is_stored_once(event, phones):
    """The player's phone loses the network, they report their match: the report waits on the
    phone (the banner says so, "as of hh:mm"), nothing reaches the server; back online it is
    sent with the table version they saw, once, and their opponent confirms it as usual."""
    one = tables(event)[0]
    ann, bob = (s.entry for s in one.seats.order_by("position"))
    player = phones()
    player.go(f"/events/{event.slug}/me/{walk_in_token(ann)}/")
    player.page.wait_for_function("window.GuildhallOffline !== undefined")
    player.page.wait_for_timeout(300)  # the phone's store (IndexedDB) opened

    player.context.set_offline(True)
    player.page.locator(".report-form").get_by_role("button", name="2-0", exact=True).click()
    banner = player.page.locator("#offline-banner")
    expect(banner).to_contain_text(re.compile(r"your seat as of \d\d:\d\d"))
    # What the report says, with the players it is about (issue 43: "Your report (Ann)" read
    # as if Ann had sent it).
    said = f"Your report ({ann.player.name} \u2013 {bob.player.name} 2-0, tapped at "
    expect(banner).to_contain_text(re.compile(re.escape(said) + r"\d\d:\d\d\) waits to be sent"))
    assert one.reports.count() == 0
    assert player.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    player.shot("offline-player-report-queued")

    player.context.set_offline(False)
    expect(player.page.locator(".message.success")).to_contain_text("Reported.", timeout=20_000)
    expect(banner).to_be_hidden()
    report = one.reports.get()
    assert report.entry_id == ann.pk and report.table_version == 0
    # Sent again (a lost answer): already done, nothing new.
    player.page.evaluate("window.GuildhallOffline.flush()")
    assert one.reports.count() == 1
    logged = AuditEntry.objects.filter(summary__contains="reported")
    # Its History line says it came from the phone's queue (kept before translation).
    sent = [Summary.from_json(e.after["sent"]).english() for e in logged if "sent" in e.after]
    assert sent and sent[0].startswith("from the phone's queue, tapped at "), sent

    # The opponent confirms it offline: their phone says it holds a confirmation, of what.
    opponent = phones()
    opponent.go(f"/events/{event.slug}/me/{walk_in_token(bob)}/")
    opponent.page.wait_for_function("window.GuildhallOffline !== undefined")
    opponent.page.wait_for_timeout(300)
    opponent.context.set_offline(True)
    opponent.page.get_by_role("button", name=re.compile("^Confirm:")).click()
    expect(opponent.page.locator("#offline-banner")).to_contain_text(
        re.compile(rf"Your confirmation \({ann.player.name} won 2.0, tapped at \d\d:\d\d\) waits")
    )
    opponent.context.set_offline(False)
    expect(opponent.page.locator(".result-line")).to_contain_text("Result:", timeout=20_000)
    one.refresh_from_db()
    assert one.reported and one.version == 1 and one.winner_id == ann.pk
    assert Game.objects.filter(notes__contains="Modern Friday").count() == 1


def test_a_players_report_against_a_table_changed_meanwhile_is_shown_not_applied(event, phones):
    one = tables(event)[0]
    ann, bob = (s.entry for s in one.seats.order_by("position"))
    player = phones()
    player.go(f"/events/{event.slug}/me/{walk_in_token(ann)}/")
    player.page.wait_for_function("window.GuildhallOffline !== undefined")
    player.page.wait_for_timeout(300)
    player.context.set_offline(True)
    player.page.locator(".report-form").get_by_role("button", name="2-0", exact=True).click()
    expect(player.page.locator("#offline-banner")).to_contain_text("waits to be sent")
    table_report(table=one, winner=bob, expected_version=0)  # the TO enters 0-2 meanwhile

    player.context.set_offline(False)
    banner = player.page.locator("#offline-banner")
    expect(banner).to_contain_text(
        re.compile(r"Your report \(.+ 2-0, tapped offline at \d\d:\d\d\) was not stored: "),
        timeout=20_000,
    )
    expect(banner).to_contain_text("already has its result")
    player.shot("offline-player-report-refused")
    one.refresh_from_db()
    assert one.winner_id == bob.pk and one.reports.count() == 0
    banner.get_by_role("button", name="Got it").click()
    expect(banner).to_be_hidden()


def test_a_players_tap_before_their_page_noticed_the_server_gone_waits_on_the_phone(event, phones):
    """The site stops answering between two of the page's polls (the Wi-Fi is up, so the phone
    says it is online): the player's tap waits on their phone, the page stays theirs (not the
    browser's error page), and it is stored once when the site answers again."""
    one = tables(event)[0]
    ann = one.seats.get(position=1).entry
    player = phones()
    address = f"/events/{event.slug}/me/{walk_in_token(ann)}/"
    player.go(address)
    player.page.wait_for_function("window.GuildhallOffline !== undefined")
    player.page.wait_for_timeout(300)  # the phone's store (IndexedDB) opened
    assert not player.page.evaluate("window.GuildhallOffline.isOffline()")

    def gone(route):
        route.abort("connectionrefused")

    player.page.route("**/events/**", gone)
    player.page.locator(".report-form").get_by_role("button", name="2-0", exact=True).click()
    banner = player.page.locator("#offline-banner")
    expect(banner).to_contain_text(re.compile(r"Your report \(.+ 2-0, tapped at \d\d:\d\d\) waits"))
    assert player.page.url.endswith(address)
    expect(player.page.locator(".my-seat")).to_be_visible()
    assert one.reports.count() == 0

    player.page.unroute("**/events/**", gone)
    expect(banner).to_be_hidden(timeout=30_000)
    report = one.reports.get()
    assert report.entry_id == ann.pk
    assert AuditEntry.objects.filter(summary__contains="reported").count() == 1
