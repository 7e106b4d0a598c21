"""Issue 15's journey: eight players, each on their own phone (four signed in, four through
their registration link), play two rounds of a pod event. They report, the others confirm,
one pod disputes and the TO settles it from the console, the TO pairs the next round, and
every player's page (and a spectator's pairings) shows the new seat without a reload. The
store's webhook (a local fake receiver) gets each round's pairings and the final standings.

The pages poll every 15 seconds on the site; here every 2, so the test waits seconds, not
minutes (the same code, a shorter interval).
"""

import time

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from notifications.models import StoreWebhook
from notifications.tasks import deliver_due
from tests.factories import LeagueFactory, UserFactory, organizer_of
from tests.notifications.receiver import FakeReceiver
from tournaments import live
from tournaments.models import Registration, Seat, Table
from tournaments.public import views as public_views
from tournaments.reports import views as report_views
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create

from .conftest import KEEP_SCREENSHOTS, PHONE, SCREENSHOTS, Visit

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]
POLL = 2  # seconds between polls in this test
WAIT = 15_000  # ms: a few polls


@pytest.fixture
def fast_polls(monkeypatch):
    for module in (live, report_views, public_views):
        monkeypatch.setattr(module, "POLL_SECONDS", POLL)


@pytest.fixture
def receiver(settings, live_server):
    settings.GUILDHALL_WEBHOOK_LOCAL = True  # http:// to 127.0.0.1: the fake receiver
    settings.GUILDHALL_BASE_URL = live_server.url
    with FakeReceiver() as receiver:
        yield receiver


def received(receiver, count):
    """The receiver's messages once `count` have come (the worker's run, done here)."""
    for _ in range(50):
        deliver_due.call()  # what the worker does
        if len(receiver.contents()) >= count:
            break
        time.sleep(0.2)
    return receiver.contents()


@pytest.fixture
def event(db):
    league = LeagueFactory(name="cEDH League", slug="cedh", game_label="cEDH")
    organizer_of(league.organization, role=Role.ORGANIZER, username="jude")
    event = tournament_create(league=league, name="Friday cEDH", format="pods", swiss_rounds=2)
    entries = [entry_register(tournament=event, name=name, create_player=True) for name in NAMES]
    ways_in = {}
    for n, entry in enumerate(entries):
        if n % 2 == 0:  # Ann, Cy, Eve, Gus have accounts
            user = UserFactory(username=entry.player.name.lower())
            entry.player.user = user
            entry.player.save(update_fields=["user"])
            ways_in[entry.player.name] = ("login", user.username)
        else:  # Bob, Dee, Finn, Hal registered online and use their link
            registration = Registration.objects.create(
                tournament=event, player=entry.player, entry=entry, status="seated"
            )
            ways_in[entry.player.name] = ("link", registration.token)
    return event, ways_in


def pods_of(event, number):
    """{pod number: [names in seat order]} of round `number`."""
    pods: dict[int, list[str]] = {}
    seats = Seat.objects.filter(round__tournament=event, round__number=number)
    for table, name in seats.order_by("table__number", "position").values_list(
        "table__number", "entry__player__name"
    ):
        pods.setdefault(table, []).append(name)
    return pods


def open_phones(browser, live_server, event, ways_in) -> dict[str, Visit]:
    phones = {}
    for name in NAMES:
        phone = Visit(browser, live_server, PHONE)
        way, key = ways_in[name]
        if way == "login":
            phone.login(key)
            phone.go(f"/events/{event.slug}/me/")
        else:
            phone.go(f"/events/{event.slug}/me/{key}/")
        # A mark that a reload would wipe: the page must update without one.
        phone.page.evaluate("window.stillTheSamePage = true")
        phones[name] = phone
    return phones


def tap(phone, selector):
    # A report or confirmation is sent from the phone's queue, then the page opens again
    # with what it did: wait for that page, then mark it.
    with phone.page.expect_navigation():
        phone.page.click(selector)
    phone.page.wait_for_load_state("domcontentloaded")
    phone.page.evaluate("window.stillTheSamePage = true")  # a tap reloads; mark it again


def report_winner(phone, winner):
    if phone.page.locator(".report-form[open]").count() == 0:
        phone.page.click(".report-form > summary")
    tap(phone, f".report-buttons button[name=winner]:text-is('{winner}')")


def confirm(phone):
    tap(phone, "button.confirm")


def test_eight_phones_play_two_rounds(browser, live_server, event, fast_polls, receiver):
    event, ways_in = event
    StoreWebhook.objects.create(organization=event.league.organization, url=receiver.url)
    to = Visit(browser, live_server, PHONE)
    to.login("jude")
    to.go(f"/events/{event.slug}/run/")
    spectator = Visit(browser, live_server, PHONE)
    spectator.go(f"/events/{event.slug}/")
    phones = open_phones(browser, live_server, event, ways_in)
    try:
        expect(phones["Ann"].page.locator("#my-live")).to_contain_text("not paired yet")
        phones["Ann"].shot("self-report-before-round-1")

        to.page.click("button:has-text('Pair round 1')")
        to.page.wait_for_load_state("networkidle")
        first = pods_of(event, 1)
        assert sorted(len(p) for p in first.values()) == [4, 4]

        # Every phone shows its pod and seat without a reload; so do the spectators' pairings.
        for name, phone in phones.items():
            pod = next(n for n, names in first.items() if name in names)
            live_part = phone.page.locator(f"#my-live[data-round='1'][data-table='{pod}']")
            expect(live_part).to_be_visible(timeout=WAIT)
            expect(phone.page.locator(".my-seat")).to_contain_text(
                f"Pod {pod} seat {first[pod].index(name) + 1}"
            )
            assert phone.page.evaluate("window.stillTheSamePage") is True, name
        expect(spectator.page.locator("#finder-title")).to_contain_text("Round 1", timeout=WAIT)
        phones[first[1][0]].shot("self-report-round-1-seat")

        # Pod 1 agrees: its first seat reports their own win, the three others confirm.
        reporter, *others = first[1]
        report_winner(phones[reporter], reporter)
        phones[reporter].shot("self-report-reported")
        for name in others:
            expect(phones[name].page.locator("button.confirm")).to_contain_text(
                f"Confirm: {reporter} won", timeout=WAIT
            )
        phones[others[0]].shot("self-report-confirm-button")
        for name in others:
            confirm(phones[name])
        expect(phones[reporter].page.locator(".result-line")).to_contain_text(
            f"Result: {reporter} won", timeout=WAIT
        )
        assert phones[reporter].page.evaluate("window.stillTheSamePage") is True
        phones[reporter].shot("self-report-confirmed")

        # Pod 2 disputes: two players claim the win, one backs the first; the TO settles it.
        a, b, c, d = first[2]
        report_winner(phones[a], a)
        expect(phones[b].page.locator("button.confirm")).to_be_visible(timeout=WAIT)
        report_winner(phones[b], b)
        expect(phones[c].page.locator(".report-line")).to_have_count(2, timeout=WAIT)
        tap(phones[c], f"button.confirm:has-text('Confirm: {a} won')")
        phones[c].shot("self-report-disputed-player")
        to.go(f"/events/{event.slug}/run/")
        expect(to.page.locator("#report-counts")).to_contain_text("1 disputed")
        expect(to.page.locator("#report-counts")).to_contain_text("1 confirmed")
        pod_2 = Table.objects.get(round__tournament=event, round__number=1, number=2)
        card = to.page.locator(f"#table-{pod_2.pk}")
        expect(card.locator(".report-state.disputed")).to_contain_text(f"agreed by {c}")
        to.shot("self-report-console-dispute")
        card.locator(f"button:has-text('Use this: {b} won')").click()
        to.page.wait_for_load_state("networkidle")
        expect(to.page.locator("#round-status")).to_contain_text("Every pod has a result")
        for name in (a, b, d):
            expect(phones[name].page.locator(".result-line")).to_contain_text(
                f"Result: {b} won", timeout=WAIT
            )
        expect(spectator.page.locator("#pod-2 .won")).to_contain_text(b, timeout=WAIT)
        to.shot("self-report-console-settled")

        # The TO ends the round and pairs the next: every page shows its new seat by itself.
        to.page.click("button:has-text('End round 1')")
        to.page.wait_for_load_state("networkidle")
        to.page.click("button:has-text('Pair round 2')")
        to.page.wait_for_load_state("networkidle")
        second = pods_of(event, 2)
        for name, phone in phones.items():
            pod = next(n for n, names in second.items() if name in names)
            live_part = phone.page.locator(f"#my-live[data-round='2'][data-table='{pod}']")
            expect(live_part).to_be_visible(timeout=WAIT)
            expect(phone.page.locator(".my-seat")).to_contain_text(
                f"Pod {pod} seat {second[pod].index(name) + 1}"
            )
            assert phone.page.evaluate("window.stillTheSamePage") is True, name
        expect(spectator.page.locator("#finder-title")).to_contain_text("Round 2", timeout=WAIT)
        spectator.shot("self-report-spectator-round-2")
        phones["Hal"].shot("self-report-round-2-seat")

        # Round 2: each pod reports and confirms; the standings follow.
        for names in second.values():
            winner = names[-1]
            report_winner(phones[names[0]], winner)
            for name in names[1:]:
                expect(phones[name].page.locator("button.confirm")).to_be_visible(timeout=WAIT)
                confirm(phones[name])
        for names in second.values():
            expect(phones[names[0]].page.locator(".result-line")).to_contain_text(
                f"Result: {names[-1]} won", timeout=WAIT
            )
        assert not Table.objects.filter(round__tournament=event, reported=False).exists()
        to.go(f"/events/{event.slug}/run/")
        expect(to.page.locator("#round-status")).to_contain_text("Every pod has a result")
        to.shot("self-report-console-round-2")
        # History: every report, confirmation and the TO's pick, as they came.
        organization = event.league.organization.slug
        to.go(f"/organizations/{organization}/history/?tournament={event.slug}")
        expect(to.page.locator("main")).to_contain_text("Result confirmed by a player")
        expect(to.page.locator("main")).to_contain_text(f"the TO chose {b}'s report")
        to.shot("self-report-history")
        if KEEP_SCREENSHOTS:
            to.page.screenshot(path=str(SCREENSHOTS / "self-report-history-top.png"))
        for phone in phones.values():
            assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # The TO ends the last round: the event is over; the store's channel heard it all.
        to.go(f"/events/{event.slug}/run/")
        to.page.click("button:has-text('End round 2')")
        to.page.wait_for_load_state("networkidle")
        event.refresh_from_db()
        assert event.status == "finished"
        messages = received(receiver, 3)
        assert len(messages) == 3, messages
        link = f"{live_server.url}/events/{event.slug}/"
        assert messages[0] == f"**Friday cEDH**: Round 1 pairings are up: {link}?round=1"
        assert messages[1] == f"**Friday cEDH**: Round 2 pairings are up: {link}?round=2"
        assert "Final standings:" in messages[2] and link in messages[2]
    finally:
        for visit in (to, spectator, *phones.values()):
            visit.context.close()
    for name, visit in (("to", to), ("spectator", spectator), *phones.items()):
        assert not visit.errors, (name, visit.errors)
