"""The 1v1 card's result controls on a phone: an intentional draw (ID, 0-0-3), results with a
drawn game under "More results", double taps, and a card that fits 390 px (issue 16)."""

import pytest
from playwright.sync_api import expect

from audit.models import AuditEntry
from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tests.tournaments.play import register
from tournaments.models import Table
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def event(db):
    league = LeagueFactory(name="Friday Magic", slug="friday-magic", game_label="Modern")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = tournament_create(league=league, name="Friday Swiss")
    register(event, "Ann", "Bob", "Cy", "Dee")
    round_pair(tournament=event)
    return event


def games(table):
    table.refresh_from_db()
    return (*(s.game_wins for s in table.seats.order_by("position")), table.game_draws)


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_id_and_a_drawn_game_from_the_card(request, event, width):
    visit = request.getfixturevalue(width)
    page = visit.page
    visit.login("jude")
    visit.go(f"/events/{event.slug}/run/")
    first, second = Table.objects.filter(round__tournament=event).order_by("number")
    card = page.locator(f"#table-{first.pk}")
    # The card fits the phone: no sideways scrolling, and the extra results start folded.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(card.locator("details.more-results button").first).to_be_hidden()
    # A double tap on ID is one result, logged once.
    card.get_by_role("button", name="ID: Intentional draw, reported 0-0-3 (MTR 2.4)").dblclick()
    expect(page.locator(f"#table-{first.pk}")).to_contain_text("(draw 0\u20130\u20133)")
    assert games(first) == (0, 0, 3)
    other = page.locator(f"#table-{second.pk}")
    other.locator("summary", has_text="More results").click()
    other.get_by_role("button", name="2\u20130\u20131", exact=True).click()
    expect(page.locator(f"#table-{second.pk}")).to_contain_text("(2\u20130\u20131)")
    assert games(second) == (2, 0, 1)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    visit.shot(f"match-results-{width}")
    first.refresh_from_db()
    assert first.version == 1
    assert AuditEntry.objects.filter(tournament_id=event.pk, action="match.report").count() == 2
