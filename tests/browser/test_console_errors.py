"""The error contract on the TO console, in a phone's browser: a refused tap lands in its card.

Two judges with the same pod open: the second tap, on a stale card, comes back (409) as that
card showing the result stored now, who entered it and the message. A bad full finishing order
(400) shows its message inside that pod's card. In both the rest of the console (the round's
header, the other pods, End round) stays as it was.
"""

import re

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tournaments.models import Table
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo"]  # 4 + 3 + 3


@pytest.fixture
def event(db):
    from tests.tournaments.play import register

    league = LeagueFactory(name="cEDH League", slug="cedh", game_label="cEDH")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    organizer_of(league.organization, role=Role.JUDGE, username="olive")
    event = tournament_create(league=league, name="cEDH Friday", format="pods")
    register(event, *PLAYERS)
    round_pair(tournament=event)
    return event


@pytest.fixture(autouse=True)
def no_live_console(monkeypatch):
    """The console's live part (a poll every 2 s) would freshen a stale card before its tap:
    these tests are about the tap on a card that is stale, so the poll waits an hour."""
    from tournaments.console.views import board

    monkeypatch.setattr(board, "CONSOLE_POLL_SECONDS", 3600)


@pytest.fixture
def judges(browser, live_server):
    """Phones opened by `judge(username)`; each must end with no error but the expected ones."""
    opened = []

    def judge(username: str) -> Visit:
        visit = Visit(browser, live_server, PHONE)
        opened.append(visit)
        visit.login(username)
        return visit

    yield judge
    for visit in opened:
        visit.context.close()
    for visit in opened:
        # The refusals under test answer 400/409 on purpose; nothing else may fail.
        unexpected = [e for e in visit.errors if not e.startswith(("400 for", "409 for"))]
        assert not unexpected, f"JavaScript errors in the page: {unexpected}"


def console_intact(page, pods: int = 3):
    """The whole console is still there: the round header, every pod, End round."""
    expect(page.locator("h2", has_text="Round 1")).to_be_visible()
    expect(page.locator("article.pod")).to_have_count(pods)
    expect(page.locator("button", has_text="End round 1")).to_be_visible()
    expect(page.locator("#round-status")).to_have_count(1)
    expect(page.locator(".site-header")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_second_judge_on_a_stale_pod_sees_who_reported_what(event, judges):
    first, second = judges("jude"), judges("olive")
    path = f"/events/{event.slug}/run/"
    first.go(path)
    second.go(path)
    table = Table.objects.filter(round__tournament=event).order_by("number").first()
    card = f"#table-{table.pk}"

    # Judge 1 taps the first seat's name: that player won.
    winner = first.page.locator(f"{card} button.seat").nth(0)
    winner_name = winner.locator(".name").inner_text()
    winner.click()
    expect(first.page.locator(f"{card}.reported")).to_have_count(1)

    # Judge 2, on the page loaded before, taps another name.
    stale = second.page.locator(f"{card} button.seat").nth(1)
    assert stale.locator(".name").inner_text() != winner_name
    with second.page.expect_response(lambda r: "/report/" in r.url) as answer:
        stale.click()
    assert answer.value.status == 409
    box = second.page.locator(card)
    alert = box.locator("[role=alert]")
    expect(alert).to_contain_text(f"Pod {table.number} already has a different result")
    expect(alert).to_contain_text(f"{winner_name} won (reported by jude at ")
    # The card shows the result stored now, and is ready for a deliberate change.
    expect(box).to_have_class(re.compile(r"\breported\b"))
    expect(box.locator("button.seat.won .name")).to_have_text(winner_name)
    table.refresh_from_db()
    expect(box).to_have_attribute("data-version", str(table.version))
    assert table.winner.player.name == winner_name and table.version == 1
    console_intact(second.page)
    expect(second.page.locator("#round-status")).to_contain_text("Waiting for 2 pods")
    second.shot("console-errors-stale-pod-phone")


def test_a_bad_full_order_shows_its_message_in_that_pods_card(event, judges):
    jude = judges("jude")
    jude.go(f"/events/{event.slug}/run/")
    page = jude.page
    table = Table.objects.filter(round__tournament=event).order_by("number").first()
    box = page.locator(f"#table-{table.pk}")
    box.locator("summary").click()
    selects = box.locator("select")
    expect(selects.first).to_be_visible()  # the form is fetched when the TO opens it
    count = selects.count()
    for index, place in enumerate(["1", "1", "2", "3"][:count]):  # after two firsts comes third
        selects.nth(index).select_option(place)
    with page.expect_response(lambda r: "/report/" in r.url) as answer:
        box.locator("button", has_text="Save the order").click()
    assert answer.value.status == 400
    expect(box.locator("[role=alert]")).to_contain_text(
        "The places must be a finishing order: 1, 2, 3, 4"
    )
    expect(box).not_to_have_class(re.compile(r"\breported\b"))
    # The order stays unfolded next to its message, ready to be put right.
    expect(box.locator("details.full-order")).to_have_attribute("open", "")
    console_intact(page)
    expect(page.locator("#round-status")).to_contain_text("Waiting for 3 pods")
    jude.shot("console-errors-bad-order-phone")

    # A place left out: the same card says whose place is missing.
    box.locator("select").nth(count - 1).select_option("")
    with page.expect_response(lambda r: "/report/" in r.url) as answer:
        box.locator("button", has_text="Save the order").click()
    assert answer.value.status == 400
    expect(box.locator("[role=alert]")).to_contain_text("Choose a place for")
    console_intact(page)
    table.refresh_from_db()
    assert not table.reported and table.version == 0
